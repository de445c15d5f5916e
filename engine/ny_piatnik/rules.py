"""The rules of Piatnik's New York (spec: shared/games/ny_piatnik.md) behind the ``GameRules`` contract."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import lru_cache
from typing import ClassVar, Literal, NamedTuple

from pydantic import BaseModel

from engine.core.contract import Event, HiddenPile, Outcome, RulesDefaults, Step, private, public
from engine.core.errors import IllegalAction, NotYourTurn
from engine.core.rng import Rng
from engine.core.say import SILENT, Say, items, who
from engine.ny_piatnik import views, words
from engine.ny_piatnik.actions import Action, act, notation, parse
from engine.ny_piatnik.cards import (
    ALL_CARDS,
    AVENUES,
    BACK,
    BAU_B,
    BAU_R,
    BJ,
    BLUE_BACK,
    BLUE_PAIR_ORDER,
    BUILDING_IDS,
    BUILDING_INDEX,
    CARD_RANK,
    CELLS,
    COL,
    COL_CELLS,
    COL_OF,
    COLOUR_INDEX,
    COLOURS,
    COMBO_EVENTS,
    CORNERS,
    FINAL_PHASE_UNOWNED,
    INNER,
    LINE_CELLS,
    NEIGHBOURS,
    PARAMS,
    RED_BACK,
    RED_PAIR_ORDER,
    RJ,
    ROW,
    ROW_CELLS,
    ROW_OF,
    SINGLE_EVENTS,
    SIZE,
    SPECULATION_MIN,
    STAT_B,
    STAT_R,
    STOP,
    STREETS,
    canonical_deck,
    sort_hand,
)
from engine.ny_piatnik.scoring import final_outcome, score_log_line
from engine.ny_piatnik.state import NyState, Pending, acting_seat, houses_of, partner_of, seat_label
from engine.ny_piatnik.words import say, say_n

OPTIONS: Mapping[str, str] = {
    "events": "V1: the 12 event cards (Sanierung, Ruin, Spekulation, Bauloewe, Statik) join the deck",
    "chosen_colours": "V2: players choose their colours before the preliminary round",
    "team": "V4: team game for 4 players, S1+S3 against S2+S4, with card exchanges",
}
_SEATS_FOR_OPTION = {"team": (4,)}
# Forced steps chain (an automatic reset can leave the next player without a play too); the bound only
# guards against an endless chain, which would need every player to be stuck for ever.
SETTLE_LIMIT = 10_000


# ---------------------------------------------------------------------------------------------
# Small helpers


def _opponent_houses(state: NyState, own: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(h for h in state.houses if h not in own)


def _line_counts(board: Sequence[str | None]) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
    """Per colour: buildings in each avenue (row) and each street (column)."""
    rows: dict[str, list[int]] = {}
    cols: dict[str, list[int]] = {}
    for i, owner in enumerate(board):
        if owner is not None:
            if owner not in rows:
                rows[owner] = [0] * SIZE
                cols[owner] = [0] * SIZE
            rows[owner][ROW[i]] += 1
            cols[owner][COL[i]] += 1
    return rows, cols


def price_of(board: Sequence[str | None], idx: int) -> int:
    """§4.3 purchase price of an owned building: min(avenue count, street count), both counting ``idx``."""
    owner = board[idx]
    assert owner is not None
    row = sum(1 for i in ROW_CELLS[ROW[idx]] if board[i] == owner)
    col = sum(1 for i in COL_CELLS[COL[idx]] if board[i] == owner)
    return min(row, col)


def _satisfied(hand: Sequence[str]) -> bool:
    """§4.6: at least 2 red-back and 2 blue-back cards."""
    red = sum(1 for c in hand if c in RED_BACK)
    return red >= 2 and len(hand) - red >= 2


def _drew(seat: int, drawn: Sequence[str]) -> Say:
    """What everyone may know of a draw: how many cards and their backs; nothing to read for none."""
    if not drawn:
        return SILENT
    return say("{player} draws {cards}", player=who(seat), cards=words.backed(drawn))


def _backs(cards: Sequence[str]) -> str:
    return ",".join(BACK[c] for c in cards)


def _multisets(codes: list[tuple[str, int]], k: int) -> Iterator[tuple[str, ...]]:
    """Sub-multisets of exactly ``k`` cards of (code, count) pairs, in lexicographic canonical order."""
    if k == 0:
        yield ()
        return
    if not codes:
        return
    (code, count), rest = codes[0], codes[1:]
    # More copies of the smaller code first: (a,a,b) sorts before (a,b,b).
    for j in range(min(count, k), -1, -1):
        for tail in _multisets(rest, k - j):
            yield (code,) * j + tail


@lru_cache(maxsize=4096)
def _card_sets(kind: Literal["exchange", "return"], hand: tuple[str, ...], size: int) -> tuple[Action, ...]:
    """``kind`` actions for every sub-multiset of ``hand`` with ``size`` cards, in canonical order.

    Cached: a V4 hand can be long and its subsets many.
    """
    counts = Counter(hand)
    codes = [(c, counts[c]) for c in sorted(counts, key=CARD_RANK.__getitem__)]
    return tuple(Action(kind=kind, cards=cards) for cards in _multisets(codes, size))


def _remove_cards(hand: list[str], cards: Sequence[str]) -> None:
    for card in cards:
        hand.remove(card)


def _missing_card(hand: Sequence[str], cards: Sequence[str]) -> str | None:
    have = Counter(hand)
    for card in cards:
        if have[card] <= 0:
            return card
        have[card] -= 1
    return None


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


class _Plan(NamedTuple):
    """A validated play: what happens to which building."""

    effect: str  # claim | remove | buy | take | statik | sanierung | ruin | spekulation
    canonical: Action  # the play in canonical notation (no pay=, no redundant victim=)
    idx: int | None = None
    owner: str | None = None  # displaced / victim house
    gain: str | None = None  # P's house that receives a marker
    price: int = 0
    line: str | None = None


# ---------------------------------------------------------------------------------------------
# Mutable scratch copy used while one action resolves


class _Work:
    """A mutable copy of the state for one resolution step; ``freeze`` gives the new immutable state."""

    def __init__(self, st: NyState) -> None:
        self.st = st
        self.board: list[str | None] = list(st.board)
        self.supply = list(st.supply)
        self.money = list(st.money)
        self.controller = list(st.controller)
        self.hands = [list(h) for h in st.hands]
        self.deck = list(st.deck)
        self.discard = list(st.discard)
        self.rng = Rng(st.rng)
        self.events: list[Event] = []
        self.u: dict[str, object] = {}

    def label(self, seat: int) -> str:
        return seat_label(self.st, seat)

    def freeze(self) -> NyState:
        update: dict[str, object] = {
            "board": tuple(self.board),
            "supply": tuple(self.supply),
            "money": tuple(self.money),
            "controller": tuple(self.controller),
            "hands": tuple(sort_hand(h) for h in self.hands),
            "deck": tuple(self.deck),
            "discard": tuple(self.discard),
            "rng": self.rng.state,
        }
        update.update(self.u)
        return self.st.model_copy(update=update)

    def get(self, key: str) -> object:
        return self.u[key] if key in self.u else getattr(self.st, key)

    def observers(self, seat: int) -> tuple[int, ...]:
        mate = partner_of(self.st, seat)
        return (seat,) if mate is None else (seat, mate)

    def gain_piece(self, idx: int, colour: str) -> None:
        self.board[idx] = colour
        self.supply[COLOUR_INDEX[colour]] -= 1

    def return_piece(self, idx: int) -> str:
        owner = self.board[idx]
        assert owner is not None
        self.supply[COLOUR_INDEX[owner]] += 1
        self.board[idx] = None
        return owner

    def draw(self, seat: int, head: str | None = None, head_say: Say | None = None) -> bool:
        """§4.6/§4.7: draw until satisfied; lazy reshuffle; a Stop card ends the game at once.

        Logs ``<label>: draw n=.. backs=..`` (or ``<head> => draw ..``); returns whether a Stop was drawn.
        """
        label = self.label(seat)
        hand = self.hands[seat]
        drawn: list[str] = []
        stopped = False
        later: list[Event] = []
        while not _satisfied(hand):
            if not self.deck:
                if not self.discard:
                    break  # ruling 14: both piles empty, drawing stops
                self.deck = self.rng.shuffled(self.discard)
                self.discard = []
                if self.get("stop_location") == "discard":
                    self.u["stop_location"] = "deck"
                later.append(
                    public(
                        f"system: reshuffle n={len(self.deck)}",
                        say_n(
                            "The discard pile is shuffled into a new draw pile of {count} card",
                            "The discard pile is shuffled into a new draw pile of {count} cards",
                            len(self.deck),
                        ),
                    )
                )
            card = self.deck.pop()
            if card == STOP:
                stopped = True  # ruling 34: the Stop never enters a hand
                break
            hand.append(card)
            drawn.append(card)
        line = f"draw n={len(drawn)} backs={_backs(drawn)}"
        drew = _drew(seat, drawn)
        if head:  # a reset reveals first, so its reshuffle notes follow the reset line
            said = drew
            if head_say is not None:
                said = say("{reset}, then draws: {drawn}", reset=head_say, drawn=drew) if drawn else head_say
            self.events.append(public(f"{head} => {line}", said))
            self.events.extend(later)
        else:
            self.events.extend(later)
            if drawn or stopped:
                self.events.append(public(f"{label}: {line}", drew))
        if drawn:
            self.events.append(
                private(
                    f"{label}: drew {','.join(drawn)}",
                    *self.observers(seat),
                    say=say("{player} draws {cards}", player=who(seat), cards=words.cards(drawn)),
                )
            )
        if stopped:
            self.u["phase"] = "over"
            self.u["ended_by"] = seat
            self.u["pending"] = None
            self.events.append(
                public(
                    f"system: end stop drawn by {label}",
                    say("{player} draws a Stop card: the game ends at once", player=who(seat)),
                )
            )
        return stopped

    def final_check(self) -> None:
        """§4.2 step 5 / ruling 15: once, when at most 4 buildings are unowned."""
        if self.get("final_phase"):
            return
        empty = self.board.count(None)
        if empty <= FINAL_PHASE_UNOWNED:
            self.discard += [STOP, STOP]
            self.u["final_phase"] = True
            self.u["stop_location"] = "discard"
            self.events.append(
                public(
                    f"system: stop-cards -> discard (unowned={empty})",
                    say_n(
                        "Only {count} building is unowned: the two Stop cards go into the discard pile",
                        "Only {count} buildings are unowned: the two Stop cards go into the discard pile",
                        empty,
                    ),
                )
            )

    def next_turn(self) -> None:
        self.u["active"] = (self.st.active + 1) % self.st.seats
        self.u["exchange_used"] = False
        self.u["pending"] = None
        self.u["turns"] = self.st.turns + 1

    def finish_play(self, seat: int, draw: bool) -> None:
        """§4.2 steps 5-7 after a fully resolved play."""
        self.final_check()
        if draw and self.draw(seat):
            return
        self.next_turn()

    def filler_after(self, seat: int, inclusive: bool) -> int | None:
        """§7.1 refill rotation: the next seat (from ``seat``) whose houses have supply."""
        n = self.st.seats
        for k in range(0 if inclusive else 1, n + (0 if inclusive else 1)):
            s = (seat + k) % n
            if any(self.supply[COLOUR_INDEX[h]] > 0 for h in houses_of(self.st, s)):
                return s
        return None


# ---------------------------------------------------------------------------------------------
# Legal-action generation (§4.4 canonical order)


def iter_plays(st: NyState, seat: int) -> Iterator[Action]:
    """Every legal play of ``seat`` in the canonical order of §4.4 (pairs, then single events)."""
    hand = st.hands[seat]
    if not hand:
        return
    held = set(hand)
    reds = [c for c in RED_PAIR_ORDER if c in held]
    blues = [c for c in BLUE_PAIR_ORDER if c in held]
    own = houses_of(st, seat)
    gains = tuple(h for h in own if st.supply[COLOUR_INDEX[h]] > 0)
    # V3 names the placing house on every placement; otherwise no colour= (§8).
    places: tuple[str | None, ...] = (gains if st.two_player else (None,)) if gains else ()
    board = st.board
    money = st.money[seat]
    rows_c: dict[str, list[int]] | None = None
    cols_c: dict[str, list[int]] = {}
    for r in reds:
        for b in blues:
            if r in COMBO_EVENTS and b in COMBO_EVENTS:
                continue
            if r == BAU_R or b == BAU_B:
                if not places:
                    continue
                rows = range(SIZE) if r in (RJ, BAU_R) else (ROW_OF[r],)
                cols = range(SIZE) if b in (BJ, BAU_B) else (COL_OF[b],)
                for row in rows:
                    for col in cols:
                        idx = row * SIZE + col
                        owner = board[idx]
                        if owner is not None and owner not in own:
                            for g in places:
                                yield act("play", red=r, blue=b, at=BUILDING_IDS[idx], colour=g)
            elif r == STAT_R or b == STAT_B:
                if not places:
                    continue
                if r == STAT_R:
                    joker = b == BJ
                    lines: Sequence[str] = STREETS if joker else (b,)
                else:
                    joker = r == RJ
                    lines = AVENUES if joker else (r,)
                for line in lines:
                    victims = statik_leaders(board, line, st.houses, own)
                    if not victims:
                        continue
                    for v in victims if len(victims) > 1 else (None,):
                        for g in places:
                            yield act("play", red=r, blue=b, line=line if joker else None, victim=v, colour=g)
            else:
                joker = r == RJ or b == BJ
                rows = range(SIZE) if r == RJ else (ROW_OF[r],)
                cols = range(SIZE) if b == BJ else (COL_OF[b],)
                for row in rows:
                    for col in cols:
                        idx = row * SIZE + col
                        owner = board[idx]
                        at = BUILDING_IDS[idx] if joker else None
                        if owner is None:
                            for g in places:
                                yield act("play", red=r, blue=b, at=at, colour=g)
                        elif owner in own:
                            yield act("play", red=r, blue=b, at=at)
                        elif places:
                            if rows_c is None:
                                rows_c, cols_c = _line_counts(board)
                            if min(rows_c[owner][row], cols_c[owner][col]) <= money:
                                for g in places:
                                    yield act("play", red=r, blue=b, at=at, colour=g)
    for card in SINGLE_EVENTS:
        if card not in held:
            continue
        if card.startswith(("SAN", "RUIN")):
            yield act("event", card=card)
        elif places:
            for target in _opponent_houses(st, own):
                if board.count(target) >= SPECULATION_MIN:
                    for g in places:
                        yield act("event", card=card, target=target, colour=g)


def statik_leaders(
    board: Sequence[str | None], line: str, houses: Sequence[str], own: Sequence[str]
) -> list[str]:
    """§7.1, ruling 24: opponent houses whose count in ``line`` equals the line maximum (≥ 1)."""
    counts = Counter(board[i] for i in LINE_CELLS[line])
    counts.pop(None, None)
    if not counts:
        return []
    top = max(counts.values())
    return [h for h in houses if counts.get(h, 0) == top and h not in own]


def prelim_turn(st: NyState) -> tuple[int, str]:
    """The seat that places a marker next in the preliminary round, and the colour it places."""
    slot = st.prelim_done % len(st.prelim_slots)
    return slot % st.seats, st.prelim_slots[slot]


def _prelim_spaces(st: NyState, colour: str) -> list[int]:
    empty = [i for i in range(CELLS) if st.board[i] is None]
    free = [i for i in empty if all(st.board[j] != colour for j in NEIGHBOURS[i])]
    return free or empty  # ruling 5


def _pending_actions(st: NyState) -> list[Action]:
    p = st.pending
    assert p is not None
    if p.kind == "give":
        return [act("give", at=BUILDING_IDS[i]) for i in p.options]
    if p.kind == "fill":
        own = houses_of(st, p.seat)
        gains = [h for h in own if st.supply[COLOUR_INDEX[h]] > 0]
        colours: Sequence[str | None] = gains if st.two_player else [None]
        return [
            act("fill", at=BUILDING_IDS[i], colour=g)
            for i in p.options
            if st.board[i] is None
            for g in colours
        ]
    return list(_card_sets("return", st.hands[p.seat], p.count))


def _colour_choices(st: NyState) -> list[str]:
    return [c for c in st.houses if c not in st.prelim_slots]


def _legal(st: NyState, seat: int) -> list[Action]:
    if st.phase == "colour_choice":
        return [act("colour", colour=c) for c in _colour_choices(st)]
    if st.phase == "preliminary":
        _seat, colour = prelim_turn(st)
        return [act("place", at=BUILDING_IDS[i]) for i in _prelim_spaces(st, colour)]
    if st.pending is not None:
        return _pending_actions(st)
    out = list(iter_plays(st, seat))
    if not out:
        out.append(act("reset"))
    if st.team and not st.exchange_used:
        # §7.4: any k >= 1 cards may be exchanged and ``apply`` accepts every such set, but the list
        # names one-card exchanges only: all subsets of a long hand run into the tens of thousands,
        # and a multi-card exchange is a multi-select of hand cards for the interface (ARCHITECTURE).
        out += _card_sets("exchange", st.hands[seat], 1)
    return out


# ---------------------------------------------------------------------------------------------
# Validation (§4.9 messages)


def _illegal(st: NyState, seat: int, message: str, prefix: str = "") -> IllegalAction:
    legal = [notation(a) for a in _legal(st, seat)]
    fitting = [t for t in legal if prefix and t.startswith(prefix)]
    return IllegalAction(message, fitting or legal, refusal_say(message))


_REFUSAL_SAYS = {
    "colour= is required here": say("name the colour that places the marker (colour=)"),
    "colour= is not allowed here": say("no colour is named here (leave out colour=)"),
    "no pieces left in supply": say("none of your markers are left in the supply"),
    "at= is required when a joker is played": say("with a joker, name the building (at=)"),
    "a pair needs one red-back and one blue-back card": say(
        "a pair is one red-backed and one blue-backed card"
    ),
    "single event cards are played alone": say("this event card is played on its own"),
    "two event cards cannot be paired": say("two event cards cannot be played together"),
    "target= is only used with Spekulation": say("only Spekulation names a target (target=)"),
    "line= is only used when Statik is paired with a joker": say(
        "only Statik with a joker names a line (line=)"
    ),
    "victim= is only used with Statik": say("only Statik names a victim (victim=)"),
    "Bauloewe must target an opponent's building": say("Bauloewe takes a building of another player"),
    "you cannot displace your own marker": say("you cannot displace your own marker"),
    "at= is not used with Statik (it names a line)": say("Statik names a line, not a building"),
    "line= is required when Statik is paired with a joker": say("with a joker, Statik needs a line (line=)"),
    "colour= is not allowed here (name it with each fill)": say("name the colour with each marker you place"),
    "target= is required": say("name the player whose buildings are the target (target=)"),
    "Spekulation: target must be an opponent house": say("Spekulation targets another player's colour"),
    "Spekulation: target must have more than 8 buildings": say(
        "Spekulation needs a colour with more than 8 buildings"
    ),
    "a legal play exists; reset is not allowed": say(
        "you have a possible play, so you may not show your hand"
    ),
    "exchange already used this turn": say("you have already exchanged cards this turn"),
    "choose your colour first (colour COL)": say("choose your colour first"),
    "the preliminary round is on: place at=BLD": say("it is the preliminary round: place a marker"),
    "card exchanges exist only in the team game": say("cards are exchanged only in the team game"),
}


def refusal_say(message: str) -> Say:
    """A refusal of the rules as a sentence: cards, buildings and lines by name."""
    if message in _REFUSAL_SAYS:
        return _REFUSAL_SAYS[message]
    building = re.search(r"\b((?:8AV|BWY|6AV|5AV|MAD|PARK|LEX)-(?:34|38|42|45|49|53|57))\b", message)
    numbers = re.findall(r"\d+", message)
    if message.startswith("card not in your hand: "):
        card = message.removeprefix("card not in your hand: ")
        return say("{card} is not in your hand", card=words.card(card) if card in ALL_CARDS else card)
    if message.startswith("not enough money"):
        return say(
            "not enough money: it costs ${price} and you have ${money}", price=numbers[0], money=numbers[1]
        )
    if message.startswith("pay=") and numbers:
        return say("the price is ${price}", price=numbers[-1])
    if "is not on the lines named by your cards" in message and building:
        return say("{building} is not where your cards cross", building=words.building(building[1]))
    if "is occupied" in message and building:
        return say("{building} already has a marker", building=words.building(building[1]))
    if "is next to your own colour" in message and building:
        return say("{building} is next to a marker of the same colour", building=words.building(building[1]))
    if message.startswith("fill:") and building:
        return say("{building} is not one of the spaces to fill", building=words.building(building[1]))
    if message.startswith("give:") and building:
        return say(
            "{building} is not one of the buildings you may give up", building=words.building(building[1])
        )
    if message.startswith("return exactly"):
        return say_n("give back exactly {count} card", "give back exactly {count} cards", int(numbers[0]))
    if message.startswith("colour=") or message.startswith("colour "):
        return say("that colour is not yours to play")
    if message.startswith("line="):
        return say("that is not the line your cards name")
    if "Statik" in message or "victim=" in message:
        return say("Statik must hit a player who leads that line (name them with victim= on a tie)")
    if message.startswith("a decision is pending"):
        return say("a decision is pending; wait for it")
    return say("that move is not possible now")


def _gain_house(st: NyState, seat: int, colour: str | None, prefix: str) -> str:
    """The house of ``seat`` that places a marker (§4.3, §7.3, ruling 10)."""
    own = houses_of(st, seat)
    if st.two_player:
        if colour is None:
            raise _illegal(st, seat, "colour= is required here", prefix)
        if colour not in own:
            raise _illegal(st, seat, f"colour={colour} is not one of your houses ({'/'.join(own)})", prefix)
        house = colour
    else:
        if colour is not None:
            raise _illegal(st, seat, "colour= is not allowed here", prefix)
        house = own[0]
    if st.supply[COLOUR_INDEX[house]] <= 0:
        raise _illegal(st, seat, "no pieces left in supply", prefix)
    return house


def _check_pay(st: NyState, seat: int, a: Action, price: int, prefix: str) -> None:
    if a.pay is not None and a.pay != price:
        raise _illegal(st, seat, f"pay={a.pay} does not match the price {price}", prefix)


def _target(st: NyState, seat: int, a: Action, rows: Sequence[int], cols: Sequence[int], prefix: str) -> int:
    open_choice = len(rows) > 1 or len(cols) > 1
    if a.at is None:
        if open_choice:
            raise _illegal(st, seat, "at= is required when a joker is played", prefix)
        return rows[0] * SIZE + cols[0]
    idx = BUILDING_INDEX[a.at]
    if ROW[idx] not in rows or COL[idx] not in cols:
        raise _illegal(st, seat, f"building {a.at} is not on the lines named by your cards", prefix)
    return idx


def check_pair(st: NyState, seat: int, a: Action) -> _Plan:
    """Validate a pair play (§4.3, §7.1); raises ``IllegalAction`` with the §4.9 message."""
    red, blue = str(a.red), str(a.blue)
    prefix = f"play red={red} blue={blue}"
    if red not in RED_BACK or blue not in BLUE_BACK:
        raise _illegal(st, seat, "a pair needs one red-back and one blue-back card")
    if red in SINGLE_EVENTS or blue in SINGLE_EVENTS:
        raise _illegal(st, seat, "single event cards are played alone")
    if red in COMBO_EVENTS and blue in COMBO_EVENTS:
        raise _illegal(st, seat, "two event cards cannot be paired")
    missing = _missing_card(st.hands[seat], (red, blue))
    if missing is not None:
        raise _illegal(st, seat, f"card not in your hand: {missing}")
    if a.target is not None:
        raise _illegal(st, seat, "target= is only used with Spekulation", prefix)
    if red == STAT_R or blue == STAT_B:
        return _check_statik(st, seat, a, red, blue, prefix)
    if a.line is not None:
        raise _illegal(st, seat, "line= is only used when Statik is paired with a joker", prefix)
    if a.victim is not None:
        raise _illegal(st, seat, "victim= is only used with Statik", prefix)
    rows = range(SIZE) if red in (RJ, BAU_R) else (ROW_OF[red],)
    cols = range(SIZE) if blue in (BJ, BAU_B) else (COL_OF[blue],)
    idx = _target(st, seat, a, rows, cols, prefix)
    open_at = BUILDING_IDS[idx] if (len(rows) > 1 or len(cols) > 1) else None
    owner = st.board[idx]
    own = houses_of(st, seat)
    bid = BUILDING_IDS[idx]
    if red == BAU_R or blue == BAU_B:
        if owner is None or owner in own:
            raise _illegal(st, seat, "Bauloewe must target an opponent's building", prefix)
        gain = _gain_house(st, seat, a.colour, prefix)
        _check_pay(st, seat, a, 0, prefix)
        line = blue if red == BAU_R else red
        canonical = act("play", red=red, blue=blue, at=bid, colour=a.colour)
        return _Plan("take", canonical, idx, owner, gain, 0, line if line in LINE_CELLS else None)
    if owner is None:
        gain = _gain_house(st, seat, a.colour, prefix)
        _check_pay(st, seat, a, 0, prefix)
        canonical = act("play", red=red, blue=blue, at=open_at, colour=a.colour)
        return _Plan("claim", canonical, idx, None, gain)
    if owner in own:
        if a.colour is not None:
            # §7.3: a pair on either own house removes that marker; it never re-colours it.
            if st.two_player:
                raise _illegal(st, seat, "you cannot displace your own marker", prefix)
            raise _illegal(st, seat, "colour= is not allowed here", prefix)
        _check_pay(st, seat, a, 0, prefix)
        return _Plan("remove", act("play", red=red, blue=blue, at=open_at), idx, owner)
    gain = _gain_house(st, seat, a.colour, prefix)
    price = price_of(st.board, idx)
    _check_pay(st, seat, a, price, prefix)
    if st.money[seat] < price:
        raise _illegal(st, seat, f"not enough money: cost {price}, you have {st.money[seat]}", prefix)
    canonical = act("play", red=red, blue=blue, at=open_at, colour=a.colour)
    return _Plan("buy", canonical, idx, owner, gain, price)


def _check_statik(st: NyState, seat: int, a: Action, red: str, blue: str, prefix: str) -> _Plan:
    if a.at is not None:
        raise _illegal(st, seat, "at= is not used with Statik (it names a line)", prefix)
    other = blue if red == STAT_R else red
    kind_lines = STREETS if red == STAT_R else AVENUES
    joker = other in (RJ, BJ)
    if joker:
        if a.line is None:
            raise _illegal(st, seat, "line= is required when Statik is paired with a joker", prefix)
        if a.line not in kind_lines:
            kind = "a street" if red == STAT_R else "an avenue"
            raise _illegal(st, seat, f"line={a.line} is not {kind}", prefix)
        line = a.line
    else:
        if a.line is not None and a.line != other:
            raise _illegal(st, seat, f"line={a.line} is not the line named by your cards", prefix)
        line = other
    own = houses_of(st, seat)
    leaders = statik_leaders(st.board, line, st.houses, own)
    if not leaders:
        raise _illegal(st, seat, f"Statik: no opponent house leads line {line}", prefix)
    if a.victim is None:
        if len(leaders) > 1:
            raise _illegal(st, seat, f"victim= is required: {_and(leaders)} tie for the lead", prefix)
        victim = leaders[0]
    elif a.victim not in leaders:
        raise _illegal(st, seat, f"Statik: {a.victim} does not lead line {line} ({_and(leaders)} do)", prefix)
    else:
        victim = a.victim
    gain = _gain_house(st, seat, a.colour, prefix)
    _check_pay(st, seat, a, 0, prefix)
    canonical = act(
        "play",
        red=red,
        blue=blue,
        line=line if joker else None,
        victim=victim if len(leaders) > 1 else None,
        colour=a.colour,
    )
    return _Plan("statik", canonical, None, victim, gain, 0, line)


def check_event(st: NyState, seat: int, a: Action) -> _Plan:
    """Validate a single event play (§7.1); raises ``IllegalAction`` with the §4.9 message."""
    card = str(a.card)
    prefix = f"event {card}"
    if card not in st.hands[seat]:
        raise _illegal(st, seat, f"card not in your hand: {card}")
    if card.startswith(("SAN", "RUIN")):
        if a.target is not None:
            raise _illegal(st, seat, "target= is only used with Spekulation", prefix)
        if a.colour is not None:
            raise _illegal(st, seat, "colour= is not allowed here (name it with each fill)", prefix)
        effect = "sanierung" if card.startswith("SAN") else "ruin"
        return _Plan(effect, act("event", card=card))
    if a.target is None:
        raise _illegal(st, seat, "target= is required", prefix)
    own = houses_of(st, seat)
    if a.target not in st.houses or a.target in own:
        raise _illegal(st, seat, "Spekulation: target must be an opponent house", prefix)
    if st.board.count(a.target) < SPECULATION_MIN:
        raise _illegal(st, seat, "Spekulation: target must have more than 8 buildings", prefix)
    gain = _gain_house(st, seat, a.colour, prefix)
    canonical = act("event", card=card, target=a.target, colour=a.colour)
    return _Plan("spekulation", canonical, None, a.target, gain)


def _has_play(st: NyState, seat: int) -> bool:
    return next(iter_plays(st, seat), None) is not None


# ---------------------------------------------------------------------------------------------
# Resolution


def _do_colour(st: NyState, seat: int, a: Action) -> _Work:
    choices = _colour_choices(st)
    if a.colour not in choices:
        raise IllegalAction(
            f"colour {a.colour} is not available",
            [f"colour {c}" for c in choices],
            say("{colour} is not available", colour=words.COLOURS.get(str(a.colour)) or str(a.colour)),
        )
    w = _Work(st)
    slots = (*st.prelim_slots, str(a.colour))
    w.controller[COLOUR_INDEX[str(a.colour)]] = seat  # §7.2: the chosen colour is final
    w.u["prelim_slots"] = slots
    w.events.append(
        public(
            f"S{seat + 1}: colour {a.colour}",
            say("{player} chooses {colour}", player=who(seat), colour=words.COLOURS[str(a.colour)]),
        )
    )
    if len(slots) == len(st.houses):
        # §7.3 with V2: the picks S1,S2,S1,S2 are the slots of the rotation S1,S2,S1,S2 as they stand.
        w.u["phase"] = "preliminary"
    return w


def _do_place(st: NyState, seat: int, a: Action) -> _Work:
    _seat, colour = prelim_turn(st)
    idx = BUILDING_INDEX[str(a.at)]
    if st.board[idx] is not None:
        raise _illegal(st, seat, f"building {a.at} is occupied")
    if idx not in _prelim_spaces(st, colour):
        raise _illegal(st, seat, f"{a.at} is next to your own colour")
    w = _Work(st)
    w.gain_piece(idx, colour)
    w.u["prelim_done"] = st.prelim_done + 1
    w.u["highlight"] = (idx,)
    w.u["highlight_line"] = None
    w.events.append(
        public(
            f"prelim S{seat + 1} place at={a.at} ({colour})",
            say(
                "Preliminary round: {player} places a {colour} marker on {building}",
                player=who(seat),
                colour=words.COLOURS[colour],
                building=words.building(str(a.at)),
            ),
        )
    )
    if st.prelim_done + 1 == PARAMS[st.seats].prelim * len(st.houses):
        _allocate_and_deal(w)
    return w


def _allocate_and_deal(w: _Work) -> None:
    """§3.5 colour allocation (not in V2) and §3.6 initial hands; the main phase starts with red."""
    st = w.st
    n = st.seats
    if not st.chosen_colours:
        # Ruling 6: shuffled colour cards dealt in seat order (V3: 1st/3rd to S1, 2nd/4th to S2).
        cards = w.rng.shuffled(st.houses)
        for j, colour in enumerate(cards):
            w.controller[COLOUR_INDEX[colour]] = j % n
    w.u["controller"] = tuple(w.controller)
    w.u["phase"] = "main"
    allocated = st.model_copy(update={"controller": tuple(w.controller), "phase": "main"})
    w.st = allocated
    owners = " ".join(
        f"S{s + 1}=" + ",".join(c for c in st.houses if w.controller[COLOUR_INDEX[c]] == s) for s in range(n)
    )
    dealt = items(
        (
            say(
                "{player} plays {colours}",
                player=who(s),
                colours=words.colours([c for c in st.houses if w.controller[COLOUR_INDEX[c]] == s]),
            )
            for s in range(n)
        ),
        "comma",
    )
    w.events.append(
        public(
            f"colours {owners}",
            say(
                "The preliminary round is over; the colours are dealt at random: {dealt}. Red plays first.",
                dealt=dealt,
            )
            if not st.chosen_colours
            else say("The preliminary round is over: {dealt}. Red plays first.", dealt=dealt),
        )
    )
    first = w.controller[COLOUR_INDEX["red"]]
    order = [(first + k) % n for k in range(n)]
    drawn: dict[int, list[str]] = {s: [] for s in order}
    # §3.6 / ruling 8: one card at a time in rotation from red; satisfied players are skipped.
    while True:
        progress = False
        for s in order:
            if _satisfied(w.hands[s]) or not w.deck:
                continue
            card = w.deck.pop()
            w.hands[s].append(card)
            drawn[s].append(card)
            progress = True
        if not progress:
            break
    for s in order:
        label = seat_label(allocated, s)
        w.events.append(
            public(f"draw {label} n={len(drawn[s])} backs={_backs(drawn[s])}", _drew(s, drawn[s]))
        )
        w.events.append(
            private(
                f"draw {label} cards={','.join(drawn[s])}",
                *w.observers(s),
                say=say("{player} draws {cards}", player=who(s), cards=words.cards(drawn[s]))
                if drawn[s]
                else SILENT,
            )
        )
    # Ruling 7: the red player takes the first main turn.
    w.u["active"] = first
    w.u["turns"] = 1
    w.u["exchange_used"] = False


def _do_play(st: NyState, seat: int, a: Action) -> _Work:
    plan = check_pair(st, seat, a)
    red, blue = str(a.red), str(a.blue)
    w = _Work(st)
    label = w.label(seat)
    _remove_cards(w.hands[seat], (red, blue))
    w.discard += [red, blue]  # §4.2 step 4 (played cards are public at once)
    w.u["last_play"] = (red, blue)
    w.u["highlight_line"] = None
    text = f"{label}: {notation(plan.canonical)} => "
    played = items((words.card(red), words.card(blue)), "plus")
    idx = plan.idx
    if plan.effect == "statik":
        victim = str(plan.owner)
        victim_seat = st.controller[COLOUR_INDEX[victim]]
        options = tuple(i for i in LINE_CELLS[str(plan.line)] if st.board[i] == victim)
        w.u["highlight"] = ()
        w.u["highlight_line"] = plan.line
        w.u["pending"] = Pending(
            kind="give",
            source="statik",
            seat=victim_seat,
            player=seat,
            victim=victim,
            gain=plan.gain,
            line=plan.line,
            options=options,
            draw_after=True,
        )
        w.events.append(
            public(
                text + f"statik line={plan.line} victim={victim}",
                say(
                    "{player} plays {cards}: Statik on {line}, where {victim} must give up a building",
                    player=who(seat),
                    cards=played,
                    line=words.line(str(plan.line)),
                    victim=who(victim_seat),
                ),
            )
        )
        return w
    assert idx is not None
    bid = BUILDING_IDS[idx]
    w.u["highlight"] = (idx,)
    if plan.effect == "claim":
        w.gain_piece(idx, str(plan.gain))
        w.events.append(
            public(
                text + f"claim {bid}",
                say(
                    "{player} plays {cards} and claims {building}",
                    player=who(seat),
                    cards=played,
                    building=words.building(bid),
                ),
            )
        )
    elif plan.effect == "remove":
        w.return_piece(idx)
        w.events.append(
            public(
                text + f"remove {bid}",
                say(
                    "{player} plays {cards} and takes their marker off {building}",
                    player=who(seat),
                    cards=played,
                    building=words.building(bid),
                ),
            )
        )
    elif plan.effect == "buy":
        owner = w.return_piece(idx)
        w.money[seat] -= plan.price
        w.money[st.controller[COLOUR_INDEX[owner]]] += plan.price
        w.gain_piece(idx, str(plan.gain))
        w.events.append(
            public(
                text + f"buy {bid} from {owner} pay={plan.price}",
                say(
                    "{player} plays {cards} and buys {building} from {owner} for ${price}",
                    player=who(seat),
                    cards=played,
                    building=words.building(bid),
                    owner=who(st.controller[COLOUR_INDEX[owner]]),
                    price=plan.price,
                ),
            )
        )
    else:  # take (Bauloewe)
        owner = w.return_piece(idx)
        w.gain_piece(idx, str(plan.gain))
        w.u["highlight_line"] = plan.line
        w.events.append(
            public(
                text + f"take {bid} from {owner}",
                say(
                    "{player} plays {cards} and takes {building} from {owner}",
                    player=who(seat),
                    cards=played,
                    building=words.building(bid),
                    owner=who(st.controller[COLOUR_INDEX[owner]]),
                ),
            )
        )
    w.finish_play(seat, draw=True)
    return w


def _do_event(st: NyState, seat: int, a: Action) -> _Work:
    plan = check_event(st, seat, a)
    card = str(a.card)
    w = _Work(st)
    label = w.label(seat)
    w.hands[seat].remove(card)
    w.discard.append(card)
    w.u["last_play"] = (card,)
    w.u["highlight_line"] = None
    text = f"{label}: {notation(plan.canonical)}"
    if plan.effect == "spekulation":
        victim = str(plan.owner)
        w.u["highlight"] = ()
        w.u["pending"] = Pending(
            kind="give",
            source="spekulation",
            seat=st.controller[COLOUR_INDEX[victim]],
            player=seat,
            victim=victim,
            gain=plan.gain,
            options=tuple(i for i in range(CELLS) if st.board[i] == victim),
        )
        w.events.append(
            public(
                text,
                say(
                    "{player} plays Spekulation: {victim} must give up one of their {colour} buildings",
                    player=who(seat),
                    victim=who(st.controller[COLOUR_INDEX[victim]]),
                    colour=words.COLOURS[victim],
                ),
            )
        )
        return w
    spaces = INNER if plan.effect == "sanierung" else CORNERS
    returned: Counter[str] = Counter()
    for i in spaces:
        if w.board[i] is not None:
            returned[w.return_piece(i)] += 1
    what = "inner city cleared" if plan.effect == "sanierung" else "corners cleared"
    back = ", ".join(f"{c} {returned[c]}" for c in COLOURS if returned[c]) or "none"
    back_said = (
        items(
            (
                say("{colour} {count}", colour=words.COLOURS[c], count=returned[c])
                for c in COLOURS
                if returned[c]
            ),
            "comma",
        )
        if returned
        else say("none")
    )
    w.events.append(
        public(
            f"{text} => {what} (returned: {back})",
            say(
                "{player} plays Sanierung: the inner city is cleared (markers back: {back})",
                player=who(seat),
                back=back_said,
            )
            if plan.effect == "sanierung"
            else say(
                "{player} plays Ruin: the corners are cleared (markers back: {back})",
                player=who(seat),
                back=back_said,
            ),
        )
    )
    w.u["highlight"] = spaces
    _next_fill(w, seat, seat, spaces, inclusive=True, source=plan.effect)
    return w


def _next_fill(
    w: _Work, player: int, after: int, spaces: tuple[int, ...], inclusive: bool, source: str
) -> None:
    """§7.1 refill: the next placer in rotation, or the end of the play (no draw-up, ruling 27)."""
    filler = w.filler_after(after, inclusive) if any(w.board[i] is None for i in spaces) else None
    if filler is None:
        w.u["pending"] = None
        w.finish_play(player, draw=False)
        return
    w.u["pending"] = Pending(
        kind="fill",
        source="sanierung" if source == "sanierung" else "ruin",
        seat=filler,
        player=player,
        options=spaces,
    )


def _do_fill(st: NyState, seat: int, a: Action) -> _Work:
    p = st.pending
    assert p is not None
    idx = BUILDING_INDEX[str(a.at)]
    if idx not in p.options or st.board[idx] is not None:
        where = "inner-city" if p.source == "sanierung" else "corner"
        raise _illegal(st, seat, f"fill: {a.at} is not an empty {where} space")
    gain = _gain_house(st, seat, a.colour, "fill")
    w = _Work(st)
    w.gain_piece(idx, gain)
    w.events.append(
        public(
            f"{w.label(seat)}: {notation(act('fill', at=a.at, colour=a.colour))}",
            say(
                "{player} puts a {colour} marker on {building}",
                player=who(seat),
                colour=words.COLOURS[gain],
                building=words.building(str(a.at)),
            ),
        )
    )
    _next_fill(w, p.player, seat, p.options, inclusive=False, source=p.source)
    return w


def _do_give(st: NyState, seat: int, a: Action) -> _Work:
    p = st.pending
    assert p is not None and p.gain is not None
    idx = BUILDING_INDEX[str(a.at)]
    if idx not in p.options:
        raise _illegal(st, seat, f"give: {a.at} is not a valid building for this decision")
    w = _Work(st)
    w.return_piece(idx)
    w.gain_piece(idx, p.gain)
    w.u["highlight"] = (*st.highlight, idx)
    w.u["pending"] = None
    w.events.append(
        public(
            f"{w.label(seat)}: give at={a.at} => {a.at} to {p.gain}",
            say(
                "{player} gives {building} to {receiver}",
                player=who(seat),
                building=words.building(str(a.at)),
                receiver=who(p.player),
            ),
        )
    )
    w.finish_play(p.player, draw=p.draw_after)
    return w


def _do_reset(st: NyState, seat: int) -> _Work:
    if _has_play(st, seat):
        raise _illegal(st, seat, "a legal play exists; reset is not allowed")
    w = _Work(st)
    label = w.label(seat)
    hand = list(st.hands[seat])
    # §4.5: the hand is revealed to everyone and discarded, then a new hand is drawn.
    w.discard += hand
    w.hands[seat] = []
    shown = say(
        "{player} cannot play and shows their hand: {cards}", player=who(seat), cards=words.cards(hand)
    )
    if not w.draw(seat, head=f"{label}: reset reveal={','.join(hand)}", head_say=shown):
        w.next_turn()
    return w


def _do_exchange(st: NyState, seat: int, a: Action) -> _Work:
    if st.exchange_used:
        raise _illegal(st, seat, "exchange already used this turn")
    missing = _missing_card(st.hands[seat], a.cards)
    if missing is not None:
        raise _illegal(st, seat, f"card not in your hand: {missing}")
    mate = partner_of(st, seat)
    assert mate is not None
    w = _Work(st)
    _remove_cards(w.hands[seat], a.cards)
    w.hands[mate] += a.cards
    w.u["exchange_used"] = True
    w.u["pending"] = Pending(kind="return", source="exchange", seat=mate, player=seat, count=len(a.cards))
    # Ruling 29: the public sees count and backs; the faces go to the two partners only.
    w.events.append(
        public(
            f"S{seat + 1}: exchange n={len(a.cards)} backs={_backs(a.cards)}",
            say("{player} passes {cards} to their partner", player=who(seat), cards=words.backed(a.cards)),
        )
    )
    w.events.append(
        private(
            f"S{seat + 1}: exchange give={','.join(a.cards)}",
            seat,
            mate,
            say=say(
                "{player} passes {cards} to {partner}",
                player=who(seat),
                cards=words.cards(a.cards),
                partner=who(mate),
            ),
        )
    )
    return w


def _do_return(st: NyState, seat: int, a: Action) -> _Work:
    p = st.pending
    assert p is not None
    if len(a.cards) != p.count:
        raise _illegal(st, seat, f"return exactly {p.count} card(s)")
    missing = _missing_card(st.hands[seat], a.cards)
    if missing is not None:
        raise _illegal(st, seat, f"card not in your hand: {missing}")
    w = _Work(st)
    _remove_cards(w.hands[seat], a.cards)
    w.hands[p.player] += a.cards
    w.u["pending"] = None
    w.events.append(
        public(
            f"S{seat + 1}: return n={len(a.cards)} backs={_backs(a.cards)}",
            say("{player} gives back {cards}", player=who(seat), cards=words.backed(a.cards)),
        )
    )
    w.events.append(
        private(
            f"S{seat + 1}: return give={','.join(a.cards)}",
            seat,
            p.player,
            say=say(
                "{player} gives {cards} back to {partner}",
                player=who(seat),
                cards=words.cards(a.cards),
                partner=who(p.player),
            ),
        )
    )
    return w


_MAIN_KINDS = ("play", "event", "reset", "exchange")


def _resolve(st: NyState, seat: int, a: Action) -> tuple[NyState, list[Event]]:
    """Validate and perform one action of the seat to act; raises ``IllegalAction``."""
    kind = a.kind
    if st.phase == "colour_choice":
        if kind != "colour":
            raise _illegal(st, seat, "choose your colour first (colour COL)")
        w = _do_colour(st, seat, a)
    elif st.phase == "preliminary":
        if kind != "place":
            raise _illegal(st, seat, "the preliminary round is on: place at=BLD")
        w = _do_place(st, seat, a)
    elif st.pending is not None:
        p = st.pending
        if kind != p.kind:
            raise _illegal(st, seat, f"a decision is pending: {views.pending_text(st)}")
        w = {"give": _do_give, "fill": _do_fill, "return": _do_return}[kind](st, seat, a)
    elif kind not in _MAIN_KINDS:
        raise _illegal(st, seat, f"{kind} is not possible now")
    elif kind == "play":
        w = _do_play(st, seat, a)
    elif kind == "event":
        w = _do_event(st, seat, a)
    elif kind == "reset":
        w = _do_reset(st, seat)
    else:
        if not st.team:
            raise _illegal(st, seat, "card exchanges exist only in the team game")
        w = _do_exchange(st, seat, a)
    new = w.freeze()
    if new.phase == "over" and st.phase != "over":
        # The scores and the winner are the final post's standings: the log only records them.
        w.events.append(public(score_log_line(new), SILENT))
    return new, w.events


def _forced(st: NyState) -> tuple[int, Action] | None:
    """The only possible action when no real decision is due (§4.2 step 1, ruling 33), else ``None``."""
    if st.phase == "colour_choice":
        choices = _colour_choices(st)
        if len(choices) != 1:
            return None
        return len(st.prelim_slots) % st.seats, act("colour", colour=choices[0])
    if st.phase != "main":
        return None
    p = st.pending
    if p is not None:
        if p.kind == "return":
            return None
        options = _pending_actions(st)
        return (p.seat, options[0]) if len(options) == 1 else None
    seat = st.active
    if st.team and not st.exchange_used and st.hands[seat]:
        return None  # §7.4: no automatic reset while an exchange is still available
    if _has_play(st, seat):
        return None
    return seat, act("reset")


def _settle(st: NyState, events: list[Event]) -> NyState:
    for _ in range(SETTLE_LIMIT):
        if st.phase == "over":
            break
        forced = _forced(st)
        if forced is None:
            break
        st, more = _resolve(st, *forced)
        events.extend(more)
    return st


# ---------------------------------------------------------------------------------------------
# Setup


def _opening(seats: int, seed: int, options: frozenset[str]) -> NyState:
    params = PARAMS[seats]
    events = "events" in options
    chosen = "chosen_colours" in options
    rng = Rng.from_seed(seed)
    deck = tuple(rng.shuffled(canonical_deck(events)))  # §3.3 (a): the only setup draw before allocation
    supply = [0] * len(COLOURS)
    controller = [-1] * len(COLOURS)
    for colour in params.houses:
        supply[COLOUR_INDEX[colour]] = params.pieces
    # Ruling 4 (base game): preliminary colours by seat; §7.3: S1 red+yellow, S2 blue+green.
    slots: tuple[str, ...] = () if chosen else params.houses
    return NyState(
        seats=seats,
        events=events,
        chosen_colours=chosen,
        team="team" in options,
        houses=params.houses,
        controller=tuple(controller),
        prelim_slots=slots,
        supply=tuple(supply),
        money=(params.money,) * seats,
        board=(None,) * CELLS,
        deck=deck,
        hands=((),) * seats,
        phase="colour_choice" if chosen else "preliminary",
        rng=rng.state,
    )


# ---------------------------------------------------------------------------------------------
# The rules object


class NyPiatnikRules(RulesDefaults):
    """Piatnik's *New York* (Sackson & Kübler, 1995): base game for 3–5, V1–V4 variants."""

    name: ClassVar[str] = "ny_piatnik"
    title: ClassVar[str] = "New York (Piatnik, 1995)"
    summary: ClassVar[str] = (
        "Play a red-back card (an avenue) and a blue-back card (a street): claim the building where they "
        "cross, buy it from its owner at the smaller of their counts on that avenue and street, or lose it "
        "if it is yours. When only 4 buildings are empty the Stop cards join the discard pile; drawing one "
        "ends the game. Your largest connected group scores 2 per building, other buildings 1, money 1."
    )
    seat_counts: ClassVar[range] = range(2, 6)
    options: ClassVar[Mapping[str, str]] = OPTIONS
    seats_for_option: ClassVar[Mapping[str, Iterable[int]] | None] = _SEATS_FOR_OPTION
    state_model: ClassVar[type[BaseModel]] = NyState
    # The draw pile is face down, its top at the end; cards passed face down reach another seat by
    # private events (the default counts those, except between team partners, who share a hand).
    hidden_piles: ClassVar[Mapping[str, HiddenPile] | None] = {"deck": HiddenPile(top="last")}

    def setup(self, seats: int, seed: int, options: frozenset[str]) -> NyState:
        """The opening state: deck shuffled, V2 colour choice or the preliminary round due."""
        self.validate_setup(seats, options)
        return _opening(seats, seed, options)

    def to_act(self, state: NyState) -> frozenset[int]:
        """The one seat that must decide now (a pending decision's owner first), empty when over."""
        seat = acting_seat(state)
        return frozenset() if seat is None else frozenset((seat,))

    def legal_actions(self, state: NyState, seat: int) -> Sequence[Action]:
        """Every legal action of ``seat`` in the canonical order of §4.4 (empty if it need not act).

        Exception (V4): exchanges are listed with one card each; ``apply`` also accepts any larger set.
        """
        if acting_seat(state) != seat:
            return []
        return _legal(state, seat)

    def apply(self, state: NyState, seat: int, action: Action) -> Step[NyState]:
        """Resolve ``action`` then every forced step (automatic resets, single-option decisions).

        Raises ``NotYourTurn`` or ``IllegalAction`` (with the legal notations) and changes nothing.
        """
        if state.phase == "over":
            raise IllegalAction("the game is over", say=say("the game is over"))
        if acting_seat(state) != seat:
            raise NotYourTurn("not your turn", say=say("it is not your turn"))
        new, events = _resolve(state, seat, action)
        new = _settle(new, events)
        return Step(new, tuple(events))

    def outcome(self, state: NyState) -> Outcome | None:
        """Scores (own score per seat), places (V4: shared by partners) and breakdown once over."""
        if state.phase != "over":
            return None
        return final_outcome(state)

    def view(self, state: NyState, seat: int | None) -> BaseModel:
        """``PublicView`` for ``None``; ``PrivateView`` (hand, legal plays, decision) for a seat."""
        if seat is None:
            return views.public_view(state)
        legal = self.legal_actions(state, seat)
        return views.private_view(state, seat, [(notation(a), view_text(state, seat, a)) for a in legal])

    def notation(self, action: Action) -> str:
        """Canonical text of ``action`` (§8)."""
        return notation(action)

    def parse(self, text: str) -> Action:
        """The action written as ``text``; raises ``NotationError`` with the expected syntax."""
        return parse(text)

    def is_public_action(self, state: NyState, seat: int, action: Action) -> bool:
        """Team exchanges and returns pass cards face down (ruling 29): only the partners see them."""
        return action.kind not in ("exchange", "return")

    def observers(self, state: NyState, seat: int) -> frozenset[int]:
        """The seat itself and, in the team game, its partner (§6)."""
        mate = partner_of(state, seat)
        return frozenset((seat,)) if mate is None else frozenset((seat, mate))

    def resample_secrets(self, state: NyState, seat: int, rng: Rng) -> NyState:
        """``seat``'s hand redrawn: its cards are swapped with deck cards of the same back, then the deck
        is reshuffled. Outsiders see only back counts and deck size, which stay the same (ruling 13).
        """
        hand = list(state.hands[seat])
        deck = list(state.deck)
        for back in (RED_BACK, BLUE_BACK):
            mine = [c for c in hand if c in back]
            slots = [i for i, c in enumerate(deck) if c in back]
            pool = rng.shuffled(mine + [deck[i] for i in slots])
            hand = [c for c in hand if c not in back] + pool[: len(mine)]
            for i, card in zip(slots, pool[len(mine) :], strict=True):
                deck[i] = card
        deck = rng.shuffled(deck)
        hands = list(state.hands)
        hands[seat] = sort_hand(hand)
        return state.model_copy(update={"hands": tuple(hands), "deck": tuple(deck)})


def view_text(state: NyState, seat: int, a: Action) -> str:
    """A short description of a legal action for the private view's list of plays (the hand image)."""
    kind = a.kind
    if kind == "play":
        red, blue = str(a.red), str(a.blue)
        if red == STAT_R or blue == STAT_B:
            line = a.line or (blue if red == STAT_R else red)
            victim = a.victim or statik_leaders(state.board, line, state.houses, houses_of(state, seat))[0]
            return f"Statik on {line}: {victim} cedes a building"
        idx = BUILDING_INDEX[a.at] if a.at is not None else ROW_OF[red] * SIZE + COL_OF[blue]
        bid = BUILDING_IDS[idx]
        owner = state.board[idx]
        tail = f" ({a.colour})" if a.colour else ""
        if red == BAU_R or blue == BAU_B:
            return f"take {bid} from {owner} (Bauloewe){tail}"
        if owner is None:
            return f"claim {bid}{tail}"
        if owner in houses_of(state, seat):
            return f"remove {bid}"
        return f"buy {bid} from {owner} for {price_of(state.board, idx)}{tail}"
    if kind == "event":
        card = str(a.card)
        if card.startswith("SAN"):
            return "Sanierung: clear and refill the inner city"
        if card.startswith("RUIN"):
            return "Ruin: clear and refill the corners"
        return f"Spekulation: {a.target} cedes a building" + (f" ({a.colour})" if a.colour else "")
    if kind == "reset":
        return "reset: show your hand, discard it and draw a new one"
    if kind in ("exchange", "return"):
        return f"{kind} {','.join(a.cards)}"
    if kind == "give":
        return f"cede {a.at}"
    if kind == "fill":
        return f"fill {a.at}" + (f" with {a.colour}" if a.colour else "")
    if kind == "place":
        return f"place on {a.at}"
    return f"choose {a.colour}"
