"""The rules of Fifth Avenue (spec: shared/games/fifth_avenue.md) behind the ``GameRules`` contract."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations
from typing import ClassVar

from pydantic import BaseModel

from engine.core.contract import Event, HiddenPile, Outcome, RulesDefaults, Step, private, public
from engine.core.errors import IllegalAction, NotYourTurn
from engine.core.rng import Rng
from engine.core.say import SILENT, Arg, Say, items, who
from engine.fifth_avenue import views, words
from engine.fifth_avenue.actions import Action, act, notation, parse
from engine.fifth_avenue.cards import (
    BLACK,
    BUILDINGS_FOR_VALUE,
    COLOURS,
    COLUMN,
    CP,
    DISTRICTS,
    FORWARD,
    GROUPS,
    LAST_SHOP,
    PAWNS,
    PLAYER_COLOURS,
    SLOTS,
    SPECIAL,
    X,
    black_deck,
    card_colour,
    card_value,
    coloured_deck,
    lot_ids,
    ring,
    shop_tiles,
    sort_cards,
)
from engine.fifth_avenue.scoring import cp_value, district_scores, ranking, types_at
from engine.fifth_avenue.state import ASSO, Auction, FifthState, Lot, acting_seat, bid_colours
from engine.fifth_avenue.words import say, say_n

OPTIONS: Mapping[str, str] = {
    "six_lots": "§7.2: play on the 6-lot board side (an uncoloured sixth lot per district)"
}
_SETTLE_LIMIT = 1000  # automatic steps per action; only guards against a bug looping for ever


# ---------------------------------------------------------------------------------------------
# Read-only helpers on a state


def destinations(pos: str, closed: Sequence[str]) -> list[str]:
    """§4.7: where a pawn at ``pos`` may go; closed districts are skipped recursively."""
    out: list[str] = []
    for q in FORWARD[pos]:
        for d in destinations(q, closed) if q in closed else [q]:
            if d not in out:
                out.append(d)
    return out


def snake_order(n: int) -> tuple[int, ...]:
    """§3.1 step 9: counter-clockwise from seat 0, then the exact reverse."""
    first = (0, *range(n - 1, 0, -1))
    return first + first[::-1]


def active_group(row: Sequence[str | None]) -> tuple[int, ...] | None:
    """§2.7: the leftmost non-empty group, ``None`` when the row is empty."""
    for group in GROUPS:
        if any(row[i] is not None for i in group):
            return group
    return None


def shop_targets(st: FifthState) -> list[str]:
    """§4.3: lots of non-closed districts without buildings and with at most one shop."""
    return [
        lot_id
        for lot_id, lot in st.lots.items()
        if lot_id.split(".")[0] not in st.closed and lot.owner is None and len(lot.shops) <= 1
    ]


def _coloured_lots(st: FifthState, district: str) -> list[str]:
    return [f"{district}.{c}" for c in ring(district, st.six) if c != X]


def own_lot(st: FifthState, district: str, seat: int) -> str | None:
    """The lot ``seat`` owns in ``district`` (a player owns at most one per district)."""
    for lot_id in _coloured_lots(st, district):
        if st.lots[lot_id].owner == seat:
            return lot_id
    return None


def empty_lots(st: FifthState, district: str) -> list[str]:
    """Empty coloured lots of ``district`` (the uncoloured X lot can only hold shops, §7.2)."""
    return [lot_id for lot_id in _coloured_lots(st, district) if st.lots[lot_id].empty]


def is_full(st: FifthState, district: str) -> bool:
    """§4.10/§7.2: every lot (X included) holds buildings or shops."""
    return all(not st.lots[f"{district}.{c}"].empty for c in ring(district, st.six))


def buildings_districts(st: FifthState, seat: int) -> int:
    """Non-closed districts where ``seat`` has at least one building (§5.2)."""
    return sum(1 for d in DISTRICTS if d not in st.closed and own_lot(st, d, seat) is not None)


def pile_total(cards: Sequence[str]) -> int:
    return sum(card_value(c) for c in cards)


def building_limit(cards: Sequence[str]) -> int:
    """§4.9 winner step 1: buildings allowed by the played card showing the fewest buildings."""
    return min(BUILDINGS_FOR_VALUE[card_value(c)] for c in cards)


def can_play_any(st: FifthState, seat: int) -> bool:
    """§4.13: whether ``seat`` holds any card he could legally add (values aside)."""
    au = st.auction
    assert au is not None
    colours = bid_colours(st, seat)
    hand = st.hands[seat]
    if au.piles[seat]:
        return any(card_colour(c) in colours or card_colour(c) == BLACK for c in hand)
    return any(card_colour(c) in colours for c in hand)


def bid_say(message: str) -> Say:
    """A message of ``bid_error`` as a sentence (cards and colours by name)."""
    colours = [words.CARD_COLOURS[c] for c in re.findall(r"\b(GY|BR|OR|GN|VI)\b", message)]
    numbers = re.findall(r"\d+", message)
    if "you do not hold" in message:
        held = re.search(r"hold (\w+)$", message)
        return say("you do not hold {card}", card=words.card(held[1]) if held else "?")
    if "adds at least one card" in message:
        return say("a bid adds at least one card")
    if "must share one colour" in message:
        return say("the coloured cards of a bid must all be of one colour")
    if "first bid needs a coloured card" in message:
        return say("your first bid needs a coloured card")
    if "is not your auction colour" in message and len(colours) == 2:
        return say("you bid in {colour} in this auction, not {other}", colour=colours[1], other=colours[0])
    if "does not follow the Central Park colour" in message and len(colours) == 2:
        return say(
            "the Central Park auction is in {colour}, not {other}", colour=colours[1], other=colours[0]
        )
    if "not eligible" in message and colours:
        return say("you cannot bid {colour} for this district", colour=colours[0])
    if "does not exceed" in message and len(numbers) == 2:
        return say(
            "a total of {total} does not beat the high bid of {high}", total=numbers[0], high=numbers[1]
        )
    return say("that bid is not possible now")


def bid_error(st: FifthState, seat: int, cards: Sequence[str]) -> str | None:
    """Why adding ``cards`` to ``seat``'s pile is not a legal bid (§4.9, §4.11), or ``None``."""
    au = st.auction
    assert au is not None
    have = Counter(st.hands[seat])
    for card in cards:
        if have[card] <= 0:
            return f"illegal: you do not hold {card}"
        have[card] -= 1
    if not cards:
        return "illegal: a bid adds at least one card"
    coloured = {card_colour(c) for c in cards} - {BLACK}
    if len(coloured) > 1:
        return "illegal: the coloured cards of a bid must share one colour"
    first = not au.piles[seat]
    if first and not coloured:
        return "illegal: first bid needs a coloured card"
    allowed = bid_colours(st, seat)
    for colour in coloured:
        if colour not in allowed:
            if not first:
                return f"illegal: colour {colour} is not your auction colour {allowed[0]}"
            if au.sites[au.site] == CP:
                return f"illegal: colour {colour} does not follow the Central Park colour {allowed[0]}"
            why = {1: "you own a lot there", 2: "empty lots exist", 3: "only lots with shops"}[
                au.situation[seat]
            ]
            return f"illegal: colour {colour} not eligible ({why})"
    total = pile_total(au.piles[seat]) + pile_total(cards)
    if total <= au.high:
        return f"illegal: total {total} does not exceed {au.high}"
    return None


def bid_pool(st: FifthState, seat: int, colour: str) -> list[str]:
    """The cards of ``seat``'s hand that may go into a bid in ``colour``: that colour and black."""
    return [c for c in st.hands[seat] if card_colour(c) in (colour, BLACK)]


def _sub_multisets(pool: Sequence[str], size: int) -> Iterator[tuple[str, ...]]:
    seen: set[tuple[str, ...]] = set()
    for combo in combinations(sorted(pool), size):
        if combo not in seen:
            seen.add(combo)
            yield combo


def minimal_bids(st: FifthState, seat: int, per_colour: int = 6) -> list[Action]:
    """A few bids per usable colour: the legal ones where dropping any card makes them illegal.

    Larger bids are offered through ``multi_selects``; this keeps ``legal_actions`` small.
    """
    au = st.auction
    assert au is not None
    out: list[Action] = []
    need = au.high - pile_total(au.piles[seat])
    for colour in bid_colours(st, seat):
        pool = bid_pool(st, seat, colour)
        if not au.piles[seat] and not any(card_colour(c) == colour for c in pool):
            continue
        values = sorted((card_value(c) for c in pool), reverse=True)
        running, fewest = 0, None
        for n, v in enumerate(values, 1):
            running += v
            if running > need:
                fewest = n
                break
        if fewest is None:
            continue
        found: list[tuple[str, ...]] = []
        for size in (fewest, fewest + 1):
            for combo in _sub_multisets(pool, size):
                if bid_error(st, seat, combo) is None and all(
                    bid_error(st, seat, combo[:i] + combo[i + 1 :]) is not None for i in range(len(combo))
                ):
                    found.append(sort_cards(combo))
        found.sort(key=lambda cs: (len(cs), pile_total(cs), cs))
        for cards in found[:per_colour]:
            a = act("bid", cards=cards)
            if a not in out:
                out.append(a)
    return out


def draw_options(st: FifthState) -> list[Action]:
    """§4.6: top cards of two different non-empty decks (fewer when decks ran out)."""
    live = [c for c, deck in zip(COLOURS, st.decks, strict=True) if deck]
    if len(live) >= 2:
        return [act("draw", cols=pair) for pair in combinations(live, 2)]
    return [act("draw", cols=tuple(live))]


def move_options(st: FifthState, kind: str = "move") -> list[Action]:
    """§4.7: every pawn move (``kind`` ``C`` for the phase-1 move of action C)."""
    return [
        act("C" if kind == "C" else "move", pawn=pawn, dest=dest)
        for pawn, pos in zip(PAWNS, st.pawns, strict=True)
        for dest in destinations(pos, st.closed)
    ]


def scorable(st: FifthState) -> list[str]:
    """§4.5: non-closed districts holding a pawn, canonical order."""
    return [d for d in DISTRICTS if d in st.pawns and d not in st.closed]


def build_options(st: FifthState) -> list[Action]:
    au = st.auction
    assert au is not None
    builds = [] if au.must_close else [act("build", k=k) for k in range(au.max_build + 1)]
    return builds + ([act("close")] if au.may_close or au.must_close else [])


def legal_of_acting(st: FifthState) -> list[Action]:
    """Legal actions of the seat to act (see ``to_act``)."""
    if st.phase == "setup":
        seat = st.setup_order[st.setup_done]
        return [
            act("place", lot=lot_id)
            for d in DISTRICTS
            if d not in st.closed and own_lot(st, d, seat) is None
            for lot_id in empty_lots(st, d)
        ]
    if st.phase == "action":
        out = [act("A")]
        group = active_group(st.row)
        targets = shop_targets(st)
        if group is not None and targets:
            seen: set[str] = set()
            for i in group:
                tile = st.row[i]
                if tile is not None and tile not in seen:  # equal tiles are interchangeable (§2.3)
                    seen.add(tile)
                    out += [act("B", slot=SLOTS[i], lot=t) for t in targets]
        out += move_options(st, "C")
        out += [act("D", district=d) for d in scorable(st)]
        return out
    if st.phase == "draw":
        return draw_options(st)
    if st.phase == "move":
        return move_options(st)
    if st.phase == "auction":
        au = st.auction
        assert au is not None
        return [*minimal_bids(st, au.order[au.turn]), act("pass")]
    if st.phase == "build":
        return build_options(st)
    return []


# ---------------------------------------------------------------------------------------------
# Mutable scratch copy used while one action resolves


class Work:
    """A mutable copy of the state; ``freeze`` gives the new immutable state."""

    def __init__(self, st: FifthState) -> None:
        self.st = st
        self.scores = list(st.scores)
        self.reserve = list(st.reserve)
        self.supply = list(st.supply)
        self.hands = [list(h) for h in st.hands]
        self.lots = dict(st.lots)
        self.closed = list(st.closed)
        self.pawns = list(st.pawns)
        self.tokens = [list(t) for t in st.tokens]
        self.row = list(st.row)
        self.placed = st.placed
        self.cp_pile = list(st.cp_pile)
        self.cp_buildings = list(st.cp_buildings)
        self.decks = [list(d) for d in st.decks]
        self.black = list(st.black)
        self.black_up = list(st.black_up)
        self.asso_supply = st.asso_supply
        self.phase = st.phase
        self.setup_done = st.setup_done
        self.active = st.active
        self.chosen = st.chosen
        self.auction = st.auction
        self.last = st.last
        self.cp_revealed = st.cp_revealed
        self.end_reason = st.end_reason
        self.turns = st.turns
        self.earned = list(st.earned)
        self.rng = Rng(st.rng)
        self.events: list[Event] = []

    def freeze(self) -> FifthState:
        self.st = self.st.model_copy(
            update={
                "scores": tuple(self.scores),
                "reserve": tuple(self.reserve),
                "supply": tuple(self.supply),
                "hands": tuple(sort_cards(h) for h in self.hands),
                "lots": dict(self.lots),
                "closed": tuple(self.closed),
                "pawns": (self.pawns[0], self.pawns[1]),
                "tokens": (tuple(self.tokens[0]), tuple(self.tokens[1])),
                "row": tuple(self.row),
                "placed": self.placed,
                "cp_pile": tuple(self.cp_pile),
                "cp_buildings": tuple(self.cp_buildings),
                "decks": tuple(tuple(d) for d in self.decks),
                "black": tuple(self.black),
                "black_up": tuple(self.black_up),
                "asso_supply": self.asso_supply,
                "phase": self.phase,
                "setup_done": self.setup_done,
                "active": self.active,
                "chosen": self.chosen,
                "auction": self.auction,
                "last": self.last,
                "cp_revealed": self.cp_revealed,
                "end_reason": self.end_reason,
                "turns": self.turns,
                "earned": tuple(self.earned),
                "rng": self.rng.state,
            }
        )
        return self.st

    # -- naming and logging

    def name(self, seat: int) -> str:
        return "asso" if seat == ASSO else self.st.colours[seat]

    @staticmethod
    def _who(seat: int) -> Arg:
        return words.ASSO if seat == ASSO else who(seat)

    def log(self, text: str, said: Say) -> None:
        self.events.append(public(text, said))

    # -- decks (§4.12)

    def black_check(self) -> None:
        """Reshuffle the whole black deck face down when a face-up card reaches the top."""
        if self.black and self.black_up[0]:
            self.black = self.rng.shuffled(self.black)
            self.black_up = [False] * len(self.black)
            self.log("black deck reshuffled", say("The black deck is reshuffled"))

    def pop_black(self) -> str | None:
        if not self.black:
            return None
        card = self.black.pop(0)
        self.black_up.pop(0)
        self.black_check()
        return card

    def draw_black(self, seat: int, n: int) -> None:
        got = [c for c in (self.pop_black() for _ in range(n)) if c is not None]
        self.hands[seat] += got
        self.log(
            f"{self.name(seat)} drew {len(got)} black",
            say_n(
                "{player} draws {count} black card",
                "{player} draws {count} black cards",
                len(got),
                player=who(seat),
            ),
        )
        if got:
            said = say("You drew {cards}", cards=words.cards(got))
            self.events.append(private(f"you drew {','.join(got)}", seat, say=said))

    def discard(self, cards: Sequence[str]) -> None:
        """Winner's cards face up to the bottom of their decks, in the order played."""
        for card in cards:
            if card_colour(card) == BLACK:
                self.black.append(card)
                self.black_up.append(True)
            else:
                self.decks[COLOURS.index(card_colour(card))].append(card)
        self.black_check()

    # -- scoring

    def add_scores(self, gains: Sequence[int], label: str, said: Say, source: str) -> None:
        """Add ``gains`` per seat, logged under ``label`` / ``said`` and counted for ``source`` (a district,
        "special" or Central Park) in the final breakdown."""
        for seat, gain in enumerate(gains):
            self.scores[seat] += gain
        self.earned.append((source, tuple(gains)))
        parts = [f"{self.name(s)} +{g}" for s, g in enumerate(gains) if g]
        scored = [say("{player} +{points}", player=who(s), points=g) for s, g in enumerate(gains) if g]
        self.log(
            f"{label}: " + (", ".join(parts) if parts else "nobody scores"),
            say(
                "{scoring}: {points}",
                scoring=said,
                points=items(scored, "comma") if scored else say("nobody scores"),
            ),
        )

    def score_district(self, district: str, label: str, said: Say) -> None:
        gains = district_scores(self.lots, district, self.st.seats, self.st.six)
        self.add_scores(gains, label, said, district)

    def finish(self, reason: str) -> None:
        """§5.5 final scoring, then the match is over."""
        for d in DISTRICTS:
            if d not in self.closed:
                self.score_district(d, f"final {d}", say("Final scoring of {place}", place=words.PLACES[d]))
        pile = self.rng.shuffled(self.cp_pile)
        revealed = tuple(pile[:3])
        value = cp_value(revealed)
        self.cp_revealed = revealed
        shops = items((words.SHOPS[t] for t in revealed), "comma") if revealed else say("no shops")
        self.add_scores(
            [n * value for n in self.cp_buildings],
            f"final CP: {','.join(revealed) or '-'} -> {value} per building",
            say("Central Park ({shops}: {value} per building)", shops=shops, value=value),
            CP,
        )
        self.phase = "over"
        self.auction = None
        self.end_reason = reason
        # The final post's heading gives the reason: the log only records it.
        self.log(f"game over: {reason}", SILENT)

    # -- turn flow

    def end_turn(self) -> None:
        self.active = (self.active + 1) % self.st.seats
        self.phase = "action"
        self.chosen = None
        self.turns += 1

    def after_phase_one(self) -> None:
        self.phase = "move" if self.chosen == "D" else "draw"

    def move_pawn(self, pawn: str, dest: str, resume: str) -> None:
        """§4.7 move with its survey token; a return from CP starts the auction series (§4.8)."""
        i = PAWNS.index(pawn)
        origin = self.pawns[i]
        if origin in DISTRICTS and origin not in self.closed:
            self.tokens[i].append(origin)
        self.pawns[i] = dest
        if origin == CP:
            self.start_series(pawn, resume)
        elif resume == "draw":
            self.phase = "draw"
        else:
            self.end_turn()

    # -- auctions

    def start_series(self, pawn: str, resume: str) -> None:
        i = PAWNS.index(pawn)
        sites = (*tuple(sorted(self.tokens[i], key=lambda d: (COLUMN[d], DISTRICTS.index(d)))), CP)
        n = self.st.seats
        order = tuple((self.active + k) % n for k in range(n)) + ((ASSO,) if n == 2 else ())
        self.auction = Auction(
            pawn=pawn, sites=sites, order=order, resume="draw" if resume == "draw" else "end"
        )
        self.log(
            f"auctions for {pawn}: {', '.join(sites)}",
            say(
                "The {pawn} pawn is back from Central Park: auctions for {places}",
                pawn=words.PAWNS[pawn],
                places=words.places(sites),
            ),
        )
        self.begin_auction(0)

    def begin_auction(self, site: int) -> None:
        au = self.auction
        assert au is not None
        n = self.st.seats
        where = au.sites[site]
        eligible: list[tuple[str, ...]] = []
        situation: list[int] = []
        full = False
        if where != CP:
            st = self.freeze()
            empties = [lot.split(".")[1] for lot in empty_lots(st, where)]
            full = is_full(st, where)
            shops = [c for c in ring(where, st.six) if c != X and st.lots[f"{where}.{c}"].shops]
            for seat in range(n):
                own = own_lot(st, where, seat)
                if own is not None:
                    eligible.append((own.split(".")[1],))
                    situation.append(1)
                elif empties:
                    eligible.append(tuple(empties))
                    situation.append(2)
                elif full:
                    eligible.append(tuple(shops))
                    situation.append(3)
                else:  # only the uncoloured X lot is empty: nothing to bid for (§7.2)
                    eligible.append(())
                    situation.append(2)
        else:
            eligible = [()] * n
            situation = [0] * n
        self.auction = au.model_copy(
            update={
                "site": site,
                "turn": 0,
                "passed": (),
                "piles": ((),) * n,
                "colour": (None,) * n,
                "eligible": tuple(eligible),
                "situation": tuple(situation),
                "full": full,
                "high": 0,
                "high_bidder": None,
                "cp_colour": None,
                "asso_done": False,
                "asso_cards": (),
                "winner": None,
                "max_build": 0,
                "may_close": False,
                "must_close": False,
            }
        )
        self.phase = "auction"
        self.log(
            f"auction {where} opened by {self.name(self.active)}",
            say(
                "Auction for {place}, opened by {player}",
                place=words.PLACES[where],
                player=self._who(self.active),
            ),
        )

    def advance(self) -> None:
        """§4.9 end check, else the turn goes clockwise to the next bidder still in."""
        au = self.auction
        assert au is not None
        remaining = [b for b in au.order if b not in au.passed]
        if not remaining:
            self.close_bidding(None)
            return
        if len(remaining) == 1 and remaining[0] == au.high_bidder:
            self.close_bidding(au.high_bidder)
            return
        turn = au.turn
        for _ in range(len(au.order)):
            turn = (turn + 1) % len(au.order)
            bidder = au.order[turn]
            if bidder in remaining and bidder != au.high_bidder:
                break
        self.auction = au.model_copy(update={"turn": turn})

    def bid(self, seat: int, cards: Sequence[str]) -> None:
        au = self.auction
        assert au is not None
        for card in cards:
            self.hands[seat].remove(card)
        pile = au.piles[seat] + tuple(cards)
        coloured = [card_colour(c) for c in cards if card_colour(c) != BLACK]
        colours = list(au.colour)
        cp_colour = au.cp_colour
        if coloured and colours[seat] is None:
            colours[seat] = coloured[0]
            if au.sites[au.site] == CP and cp_colour is None:
                cp_colour = coloured[0]  # §4.11: the first coloured card fixes it for everybody
        passed = au.passed
        if au.asso_done and ASSO not in passed:
            passed += (ASSO,)  # §7.1 step 4: outbidding Asso puts him out for good
        piles = list(au.piles)
        piles[seat] = pile
        total = pile_total(pile)
        self.auction = au.model_copy(
            update={
                "piles": tuple(piles),
                "colour": tuple(colours),
                "cp_colour": cp_colour,
                "high": total,
                "high_bidder": seat,
                "passed": passed,
            }
        )
        self.log(
            f"{self.name(seat)} bids {','.join(cards)} (total {total})",
            say(
                "{player} bids {cards} (total {total})",
                player=who(seat),
                cards=words.cards(cards),
                total=total,
            ),
        )
        self.advance()

    def pass_(self, seat: int, auto: bool = False) -> None:
        au = self.auction
        assert au is not None
        self.hands[seat] += au.piles[seat]
        piles = list(au.piles)
        piles[seat] = ()
        self.auction = au.model_copy(update={"piles": tuple(piles), "passed": (*au.passed, seat)})
        self.log(
            f"{self.name(seat)} passes" + (" (no playable card)" if auto else ""),
            say("{player} passes (no playable card)", player=who(seat))
            if auto
            else say("{player} passes", player=who(seat)),
        )
        self.advance()

    def asso_bid(self) -> None:
        """§7.1 step 3: draw black cards until a value repeats (or the deck is empty)."""
        au = self.auction
        assert au is not None
        drawn: list[str] = []
        while True:
            card = self.pop_black()
            if card is None:
                break
            repeat = any(card_value(c) == card_value(card) for c in drawn)
            drawn.append(card)
            if repeat:
                break
        total = pile_total(drawn)
        self.log(
            f"asso bid {','.join(drawn) or '-'}={total}",
            say("Asso draws {cards} and bids {total}", cards=words.cards(drawn), total=total),
        )
        update: dict[str, object] = {"asso_done": True, "asso_cards": tuple(drawn)}
        if total > au.high:
            update |= {"high": total, "high_bidder": ASSO}
        else:
            update["passed"] = (*au.passed, ASSO)
        self.auction = au.model_copy(update=update)
        self.advance()

    def close_bidding(self, winner: int | None) -> None:
        au = self.auction
        assert au is not None
        where = au.sites[au.site]
        if au.asso_cards:  # §7.1 step 5: face down to the bottom, before the winner discards
            self.black += list(au.asso_cards)
            self.black_up += [False] * len(au.asso_cards)
            self.black_check()
            self.auction = au = au.model_copy(update={"asso_cards": ()})
        if winner is None:
            self.log(
                f"auction {where}: no winner",
                say("Auction for {place}: no winner", place=words.PLACES[where]),
            )
            self.next_site()
            return
        if winner == ASSO:
            self.log(
                f"auction {where}: asso wins",
                say("Auction for {place}: Asso wins", place=words.PLACES[where]),
            )
            self.asso_wins(where)
            return
        pile = au.piles[winner]
        limit = building_limit(pile)
        self.discard(pile)
        piles = list(au.piles)
        piles[winner] = ()
        situation = au.situation[winner]
        self.auction = au.model_copy(
            update={
                "piles": tuple(piles),
                "winner": winner,
                "max_build": min(limit, self.reserve[winner]),
                "may_close": situation == 1 and au.full,
                "must_close": situation == 3,
            }
        )
        self.phase = "build"
        self.log(
            f"auction {where}: {self.name(winner)} wins with {au.high}, up to {limit} buildings",
            say_n(
                "Auction for {place}: {player} wins with {high}, up to {count} building",
                "Auction for {place}: {player} wins with {high}, up to {count} buildings",
                limit,
                place=words.PLACES[where],
                player=who(winner),
                high=au.high,
            ),
        )

    def asso_wins(self, where: str) -> None:
        """§7.1 steps 6-7: nothing at CP; build on the best empty lots, or close a full district."""
        if where == CP:
            self.next_site()
            return
        st = self.freeze()
        empties = empty_lots(st, where)
        if empties:
            values = {lot: types_at(self.lots, lot, st.six) for lot in empties}
            best = max(values.values())
            for lot in empties:  # ring order from index 0 (ruling 24)
                if values[lot] == best and self.asso_supply > 0:
                    self.asso_supply -= 1
                    self.lots[lot] = Lot(owner=ASSO, count=1)
                    self.log(f"asso build {lot}", say("Asso builds on {lot}", lot=words.lot(lot)))
            self.next_site()
        elif is_full(st, where):
            self.close(where, ASSO)
        else:
            self.next_site()

    def build(self, seat: int, k: int) -> None:
        au = self.auction
        assert au is not None
        where = au.sites[au.site]
        self.reserve[seat] -= k
        if where == CP:
            self.cp_buildings[seat] += k
            self.log(
                f"{self.name(seat)} builds {k} in CP",
                say_n(
                    "{player} builds {count} building in Central Park",
                    "{player} builds {count} buildings in Central Park",
                    k,
                    player=who(seat),
                ),
            )
        else:
            lot_id = f"{where}.{au.colour[seat]}"
            if k:
                lot = self.lots[lot_id]
                self.lots[lot_id] = Lot(owner=seat, count=lot.count + k)
            self.log(
                f"{self.name(seat)} builds {k} on {lot_id}",
                say_n(
                    "{player} builds {count} building on {lot}",
                    "{player} builds {count} buildings on {lot}",
                    k,
                    player=who(seat),
                    lot=words.lot(lot_id),
                ),
            )
        self.next_site()

    def close(self, district: str, closer: int) -> None:
        """§4.10 closure; the second one ends the game (§5.4)."""
        lots = [f"{district}.{c}" for c in ring(district, self.st.six)]
        total = sum(self.lots[lot].count for lot in lots)
        normal = district_scores(self.lots, district, self.st.seats, self.st.six)
        gains = [total if s == closer else normal[s] // 2 for s in range(self.st.seats)]
        self.add_scores(
            gains,
            f"closure {district} by {self.name(closer)}",
            say("{player} closes {place}", player=self._who(closer), place=words.PLACES[district]),
            district,
        )
        for lot in lots:
            self.lots[lot] = Lot()
        self.closed.append(district)
        self.tokens = [[d for d in t if d != district] for t in self.tokens]
        if len(self.closed) >= 2:
            self.finish("second closure")
        else:
            self.next_site()

    def next_site(self) -> None:
        au = self.auction
        assert au is not None
        if au.site + 1 < len(au.sites):
            self.begin_auction(au.site + 1)
            return
        self.tokens[PAWNS.index(au.pawn)] = []
        self.auction = None
        if au.resume == "draw":
            self.phase = "draw"
        else:
            self.end_turn()


# ---------------------------------------------------------------------------------------------
# Setup


def _setup(seats: int, seed: int, six: bool) -> tuple[FifthState, list[Event]]:
    rng = Rng.from_seed(seed)
    events: list[Event] = []
    colours = PLAYER_COLOURS[:seats]
    tiles = rng.shuffled(shop_tiles())
    lots = {lot_id: Lot() for lot_id in lot_ids(six)}
    if six:
        cols = [X] * len(DISTRICTS)
    else:
        doubled = rng.shuffled(COLOURS)[:2]
        cols = rng.shuffled([*COLOURS, *doubled])
    for k, d in enumerate(DISTRICTS):
        lots[f"{d}.{cols[k]}"] = Lot(shops=(tiles[k],))
        events.append(
            public(
                f"shop {tiles[k]} on {d}.{cols[k]}",
                say("Shop on {lot}: {shop}", shop=words.SHOPS[tiles[k]], lot=words.lot(f"{d}.{cols[k]}")),
            )
        )
    row = tuple(tiles[7:27])
    decks = [rng.shuffled(coloured_deck(c)) for c in COLOURS]
    hands: list[list[str]] = [[] for _ in range(seats)]
    for seat in range(seats):
        for deck in decks:
            hands[seat].append(deck.pop(0))
    black = rng.shuffled(black_deck())
    for seat in range(seats):
        hands[seat] += black[:4]
        black = black[4:]
        events.append(
            public(
                f"{colours[seat]} is dealt one card of each colour and 4 black",
                say("{player} is dealt one card of each colour and 4 black cards", player=who(seat)),
            )
        )
        mine = sort_cards(hands[seat])
        events.append(
            private(
                f"your cards: {','.join(mine)}", seat, say=say("Your cards: {cards}", cards=words.cards(mine))
            )
        )
    asso_colour = None
    if seats == 2:
        asso_colour = rng.choice(sorted(set(PLAYER_COLOURS) - set(colours)))
        events.append(
            public(
                f"asso plays {asso_colour}",
                say(
                    "Asso, the automatic third player, builds in {colour}",
                    colour=words.PLAYER_COLOURS[asso_colour],
                ),
            )
        )
    order = snake_order(seats)
    events.append(
        public(
            "starting buildings: " + ", ".join(colours[s] for s in order),
            say(
                "Starting buildings are placed in this order: {players}",
                players=items(map(who, order), "comma"),
            ),
        )
    )
    state = FifthState(
        seats=seats,
        six=six,
        colours=colours,
        asso_colour=asso_colour,
        asso_supply=18 if seats == 2 else 0,
        scores=(0,) * seats,
        reserve=(3,) * seats,
        supply=(12,) * seats,
        hands=tuple(sort_cards(h) for h in hands),
        lots=lots,
        row=row,
        cp_buildings=(0,) * seats,
        decks=tuple(tuple(d) for d in decks),
        black=tuple(black),
        black_up=(False,) * len(black),
        phase="setup",
        setup_order=order,
        rng=rng.state,
    )
    return state, events


# ---------------------------------------------------------------------------------------------
# The rules object


class FifthAvenueRules(RulesDefaults):
    """Fifth Avenue (alea 2004) for 2–4 players; two players get the automated bidder Asso (§7.1)."""

    name: ClassVar[str] = "fifth_avenue"
    title: ClassVar[str] = "Fifth Avenue"
    summary: ClassVar[str] = (
        "Build skyscrapers in the districts of 1930s New York next to as many different shop types as "
        "possible. Each turn take buildings, place a shop, move a pawn or score a district; pawns returning "
        "from Central Park start auctions for building rights, paid with coloured cards. "
        "Two players play against the automated bidder Asso."
    )
    seat_counts: ClassVar[range] = range(2, 5)
    options: ClassVar[Mapping[str, str]] = OPTIONS
    state_model: ClassVar[type[BaseModel]] = FifthState
    # §6: the coloured decks lie face up but show only their top card, so a draw shows the next one; the
    # black deck is face down. (Asso's bids draw black cards too.)
    hidden_piles: ClassVar[Mapping[str, HiddenPile] | None] = {"decks": HiddenPile(), "black": HiddenPile()}

    def setup(self, seats: int, seed: int, options: frozenset[str]) -> FifthState:
        self.validate_setup(seats, options)
        return _setup(seats, seed, "six_lots" in options)[0]

    def setup_events(self, seats: int, seed: int, options: frozenset[str]) -> Sequence[Event]:
        self.validate_setup(seats, options)
        return _setup(seats, seed, "six_lots" in options)[1]

    def to_act(self, state: FifthState) -> frozenset[int]:
        seat = acting_seat(state)
        return frozenset() if seat is None else frozenset((seat,))

    def legal_actions(self, state: FifthState, seat: int) -> Sequence[Action]:
        if acting_seat(state) != seat:
            return []
        return legal_of_acting(state)

    def apply(self, state: FifthState, seat: int, action: Action) -> Step[FifthState]:
        if state.phase == "over":
            raise IllegalAction("the match is over", say=say("the match is over"))
        if acting_seat(state) != seat:
            raise NotYourTurn(
                f"it is {state.colours[acting_seat(state) or 0]}'s turn, not {state.colours[seat]}'s",
                say=say("it is {player}'s turn", player=who(acting_seat(state) or 0)),
            )
        legal = legal_of_acting(state)
        if action.kind == "bid" and state.phase == "auction":
            err = bid_error(state, seat, action.cards)
            if err is not None:
                raise IllegalAction(err, [notation(a) for a in legal], bid_say(err))
        elif action.kind == "B" and state.phase == "action":
            self._check_shop(state, action, legal)
        elif action not in legal:
            raise IllegalAction(
                f"illegal: {notation(action)} is not allowed now",
                [notation(a) for a in legal],
                say("that move is not possible now"),
            )
        w = Work(state)
        w.last = f"{state.colours[seat]}: {notation(action)}"
        w.log(w.last, told(state, seat, action))
        do_action(w, seat, action)
        settle_work(w)
        return Step(w.freeze(), tuple(w.events))

    @staticmethod
    def _check_shop(state: FifthState, action: Action, legal: list[Action]) -> None:
        allowed = [notation(a) for a in legal]
        group = active_group(state.row)
        assert action.slot is not None and action.lot is not None
        slot = SLOTS.index(action.slot)
        if group is None or slot not in group or state.row[slot] is None:
            raise IllegalAction(
                f"illegal: {action.slot} is not a tile of the active group",
                allowed,
                say("only the shops of the framed group are on offer"),
            )
        if action.lot not in shop_targets(state):
            raise IllegalAction(
                f"illegal: {action.lot} cannot take a shop (buildings, 2 shops or closed)",
                allowed,
                say(
                    "{lot} cannot take a shop: it has buildings or two shops, or its district is closed",
                    lot=words.lot(action.lot),
                ),
            )

    def outcome(self, state: FifthState) -> Outcome | None:
        if state.phase != "over":
            return None
        details = [f"{c}: {s}" for c, s in zip(state.colours, state.scores, strict=True)]
        hands = [len(h) for h in state.hands]
        ranked = ranking(state.scores, hands, state.end_reason, details)
        return ranked.model_copy(
            update={"reason_say": _reason(state.end_reason), "breakdown": _breakdown(state)}
        )

    def view(self, state: FifthState, seat: int | None) -> BaseModel:
        legal = [notation(a) for a in self.legal_actions(state, seat)] if seat is not None else []
        return views.build_view(state, seat, legal)

    def notation(self, action: Action) -> str:
        return notation(action)

    def parse(self, text: str) -> Action:
        return parse(text)

    def scored(self, before: FifthState, after: FifthState) -> bool:
        """A district, a special scoring or Central Park gave someone points."""
        return any(any(gains) for _, gains in after.earned[len(before.earned) :])

    def resample_secrets(self, state: FifthState, seat: int, rng: Rng) -> FifthState:
        """Redraw ``seat``'s black cards from the unseen (face-down) black cards; colours stay put."""
        down = [i for i, up in enumerate(state.black_up) if not up]
        hand = list(state.hands[seat])
        mine = [i for i, c in enumerate(hand) if card_colour(c) == BLACK]
        pool = rng.shuffled([hand[i] for i in mine] + [state.black[i] for i in down])
        for i in mine:
            hand[i] = pool.pop()
        black = list(state.black)
        for i in down:
            black[i] = pool.pop()
        hands = list(state.hands)
        hands[seat] = sort_cards(hand)
        return state.model_copy(update={"hands": tuple(hands), "black": tuple(black)})


def _breakdown(state: FifthState) -> tuple[Say, ...]:
    """Each player's points per district (scorings and closures), special scorings and Central Park."""
    sources = [*DISTRICTS, "special", CP]
    lines = []
    for seat in range(state.seats):
        per = dict.fromkeys(sources, 0)
        for source, gains in state.earned:
            per[source] = per.get(source, 0) + gains[seat]
        parts = [
            say(
                "{place} {points}",
                place=words.PLACES[src] if src != "special" else say("special scorings"),
                points=points,
            )
            for src, points in per.items()
            if points
        ]
        lines.append(
            say(
                "{player}: {parts} = {total}",
                player=who(seat),
                parts=items(parts, "comma") if parts else say("no points"),
                total=state.scores[seat],
            )
        )
    return tuple(lines)


def _reason(reason: str) -> Say:
    return {
        "second closure": say("a second district was closed"),
        "the 12th shop was placed": say("the twelfth shop was placed"),
    }.get(reason, say("the match ended"))


def describe(st: FifthState, seat: int, a: Action) -> Say:
    """``a`` in words as the acting seat reads it, e.g. "B: put a jeweller on Times Square, grey lot"."""
    match a.kind:
        case "place":
            return say("Put your starting building on {lot}", lot=words.lot(str(a.lot)))
        case "A":
            return say("A: take up to 3 buildings from your supply")
        case "B":
            tile = st.row[SLOTS.index(str(a.slot))]
            return say("B: put {shop} on {lot}", shop=words.A_SHOP[str(tile)], lot=words.lot(str(a.lot)))
        case "C":
            return say(
                "C: a black card, then the {pawn} pawn {to_place}",
                pawn=words.PAWNS[str(a.pawn)],
                to_place=words.TO_PLACE[str(a.dest)],
            )
        case "D":
            return say("D: score {place}", place=words.PLACES[str(a.district)])
        case "draw":
            tops = [st.decks[COLOURS.index(c)][0] for c in a.cols]
            return say("Take {cards}", cards=words.cards(tops)) if tops else say("Take no cards")
        case "move":
            return say(
                "Move the {pawn} pawn {to_place}",
                pawn=words.PAWNS[str(a.pawn)],
                to_place=words.TO_PLACE[str(a.dest)],
            )
        case "bid":
            # The total is the bidder's whole pile once these cards join it, as the log then says.
            already = st.auction.piles[seat] if st.auction is not None else ()
            return say(
                "Bid {cards} (total {total})",
                cards=words.cards(a.cards),
                total=pile_total([*already, *a.cards]),
            )
        case "pass":
            return say("Pass")
        case "build":
            return say_n("Build {count} building", "Build {count} buildings", a.k)
        case "close":
            return say("Close the district (building stop)")
    raise AssertionError(a.kind)  # pragma: no cover


def told(st: FifthState, seat: int, a: Action) -> Say:
    """What the log tells of ``seat`` playing ``a``; SILENT when the lines that follow tell it in full
    (bids, passes, cards taken, buildings built, a closure)."""
    player = who(seat)
    match a.kind:
        case "place":
            return say("{player} puts a starting building on {lot}", player=player, lot=words.lot(str(a.lot)))
        case "A":
            return say("{player} takes buildings from the supply (action A)", player=player)
        case "B":
            tile = st.row[SLOTS.index(str(a.slot))]
            return say(
                "{player} puts {shop} on {lot} (action B)",
                player=player,
                shop=words.A_SHOP[str(tile)],
                lot=words.lot(str(a.lot)),
            )
        case "C" | "move":
            moved = say(
                "{player} moves the {pawn} pawn {to_place}",
                player=player,
                pawn=words.PAWNS[str(a.pawn)],
                to_place=words.TO_PLACE[str(a.dest)],
            )
            return say("{move} (action C)", move=moved) if a.kind == "C" else moved
        case "D":
            return say(
                "{player} scores {place} (action D)", player=player, place=words.PLACES[str(a.district)]
            )
    return SILENT


def do_action(w: Work, seat: int, a: Action) -> None:
    """Carry out one validated action."""
    if a.kind == "place":
        assert a.lot is not None
        w.lots[a.lot] = Lot(owner=seat, count=1)
        w.setup_done += 1
        if w.setup_done == len(w.st.setup_order):
            w.phase = "action"
            w.log(f"{w.name(0)} starts", say("{player} starts", player=who(0)))
    elif a.kind == "A":
        w.chosen = "A"
        take = min(3, w.supply[seat])
        w.supply[seat] -= take
        w.reserve[seat] += take
        w.after_phase_one()
    elif a.kind == "B":
        _place_shop(w, a)
    elif a.kind == "C":
        assert a.pawn is not None and a.dest is not None
        w.chosen = "C"
        w.draw_black(seat, 1)
        w.move_pawn(a.pawn, a.dest, "draw")
    elif a.kind == "D":
        assert a.district is not None
        w.chosen = "D"
        w.score_district(
            a.district, f"score {a.district}", say("Scoring of {place}", place=words.PLACES[a.district])
        )
        w.draw_black(seat, 2)
        n = w.st.seats
        for k in range(n):  # §4.5 phase 2, clockwise from the active player (ruling 17)
            other = (seat + k) % n
            if all(w.lots[f"{a.district}.{c}"].owner != other for c in ring(a.district, w.st.six)):
                w.draw_black(other, 1)
        w.phase = "move"
    elif a.kind == "draw":
        taken = [w.decks[COLOURS.index(colour)].pop(0) for colour in a.cols]
        w.hands[seat] += taken
        # §6: the decks are face up, so the values taken are public
        w.log(
            f"{w.name(seat)} takes {','.join(taken) or 'nothing'}",
            say("{player} takes {cards}", player=who(seat), cards=words.cards(taken)),
        )
        w.phase = "move"
    elif a.kind == "move":
        assert a.pawn is not None and a.dest is not None
        w.move_pawn(a.pawn, a.dest, "end")
    elif a.kind == "bid":
        w.bid(seat, a.cards)
    elif a.kind == "pass":
        w.pass_(seat)
    elif a.kind == "build":
        w.build(seat, a.k)
    elif a.kind == "close":
        au = w.auction
        assert au is not None
        w.close(au.sites[au.site], seat)


def _place_shop(w: Work, a: Action) -> None:
    """§4.3 with the automatic discard, special scorings and the end at the 12th shop."""
    assert a.slot is not None and a.lot is not None
    w.chosen = "B"
    slot = SLOTS.index(a.slot)
    tile = w.row[slot]
    assert tile is not None
    w.row[slot] = None
    lot = w.lots[a.lot]
    w.lots[a.lot] = Lot(shops=(*lot.shops, tile))
    group = next(g for g in GROUPS if slot in g)
    left = [i for i in group if w.row[i] is not None]
    if len(left) == 1:
        rest = w.row[left[0]]
        assert rest is not None
        w.cp_pile.append(rest)
        w.row[left[0]] = None
        w.log(
            f"shop {SLOTS[left[0]]} -> CP",
            say("The last {shop} of the group goes to the Central Park pile", shop=words.SHOPS[rest]),
        )
    w.placed += 1
    if w.placed in SPECIAL:
        need, vp = SPECIAL[w.placed]
        st = w.freeze()
        gains = [vp if buildings_districts(st, s) >= need else 0 for s in range(st.seats)]
        w.add_scores(
            gains,
            f"special#{w.placed // 3}",
            say_n(
                "Special scoring: {points} points for buildings in {count} district",
                "Special scoring: {points} points for buildings in {count} districts",
                need,
                points=vp,
            ),
            "special",
        )
    if w.placed == LAST_SHOP:
        w.finish("the 12th shop was placed")
        return
    w.after_phase_one()


def _auto(st: FifthState) -> Action | None:
    """§4.13: the one legal command when that follows from public information, else ``None``."""
    if st.phase in ("draw", "move"):
        legal = legal_of_acting(st)
        return legal[0] if len(legal) == 1 else None
    if st.phase == "build":
        au = st.auction
        assert au is not None
        if au.must_close:
            return act("close")
        if au.max_build == 0 and not au.may_close:
            return act("build", k=0)
    if st.phase == "auction":
        au = st.auction
        assert au is not None
        bidder = au.order[au.turn]
        if bidder != ASSO and not can_play_any(st, bidder):
            return act("pass")
    return None


def settle_work(w: Work) -> None:
    """Play Asso's turns and the forced steps until a real decision is due."""
    for _ in range(_SETTLE_LIMIT):
        st = w.freeze()
        if st.phase == "auction" and st.auction is not None and st.auction.order[st.auction.turn] == ASSO:
            w.asso_bid()
            continue
        forced = _auto(st)
        if forced is None:
            return
        seat = acting_seat(st)
        assert seat is not None
        if forced.kind == "pass":
            w.pass_(seat, auto=True)
        else:
            w.log(
                f"{w.name(seat)}: {notation(forced)} (automatic)",
                say("{player}: {move} (automatic)", player=who(seat), move=describe(st, seat, forced)),
            )
            do_action(w, seat, forced)
    raise AssertionError("automatic steps did not settle")  # pragma: no cover


__all__ = ["FifthAvenueRules", "acting_seat", "destinations", "snake_order"]
