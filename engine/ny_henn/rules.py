"""The rules of Dirk Henn's New York (spec: shared/games/ny_henn.md) behind the ``GameRules`` contract."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations
from typing import ClassVar

from pydantic import BaseModel

from engine.core.contract import (
    Event,
    HiddenPile,
    Outcome,
    Reveal,
    RulesDefaults,
    Step,
    private,
    public,
)
from engine.core.errors import IllegalAction, NotYourTurn
from engine.core.rng import Rng
from engine.core.say import SILENT, Arg, Say, items, who
from engine.ny_henn import views, words
from engine.ny_henn.actions import PASS, Action, buy, notation, parse, place, redesign, take
from engine.ny_henn.cards import (
    BANKS,
    BUILDING_TILES,
    DEAL_TARGET,
    DIRK_DRAW_A,
    DIRK_SETUP,
    DISPLAY_SIZE,
    SCORE_A,
    SCORE_B,
    SCORING_CARDS,
    TAKE_LIMIT,
    TILE_IDS,
    card_bank,
    card_value,
    money_deck,
    sort_hand,
    start_tile,
)
from engine.ny_henn.city import frontier, place_error, remove_error, swap_error
from engine.ny_henn.scoring import places_of, score_lines, score_round, score_says
from engine.ny_henn.state import HennState, acting_seats, city_map, freeze_city, seat_label
from engine.ny_henn.words import say, say_n

# ---------------------------------------------------------------------------------------------
# Small helpers


def _cards_text(cards: Sequence[str]) -> str:
    return ",".join(cards) if cards else "-"


def _hand_text(hand: Sequence[str]) -> str:
    """``B: 2,5 (7) · G: — · …`` (§9.3)."""
    parts = []
    for bank in BANKS:
        values = [card_value(c) for c in hand if card_bank(c) == bank]
        parts.append(f"{bank}: {','.join(map(str, values))} ({sum(values)})" if values else f"{bank}: —")
    return " · ".join(parts)


def _dirk_gets(tiles: Sequence[str]) -> Say:
    """Dirk's tiles in words; nothing to read when the bag had none left for Dirk."""
    if not tiles:
        return SILENT
    return say_n(
        "Dirk takes {count} tile: {tiles}",
        "Dirk takes {count} tiles: {tiles}",
        len(tiles),
        tiles=items(map(words.tile, tiles), "comma"),
    )


def _breakdown(state: HennState) -> tuple[Say, ...]:
    """Each player's points per scoring round (A + B + C = total), then Dirk's in the 2-player game."""
    rows: list[tuple[Arg, int, int]] = [(who(s), state.scores[s], s) for s in range(state.seats)]
    if state.two_player:
        rows.append((words.DIRK, state.dirk_score, state.seats))
    lines = []
    for name, total, column in rows:
        parts = [str(points[column]) for points in state.round_totals if column < len(points)]
        if len(parts) == len(state.scored) and parts:
            lines.append(
                say("{player}: {rounds} = {total}", player=name, rounds=" + ".join(parts), total=total)
            )
        else:
            lines.append(say("{player}: {total}", player=name, total=total))
    return (say("Points per scoring round: {rounds} = total", rounds=" + ".join(state.scored)), *lines)


def _placed(seat: int, a: Action) -> Say:
    """A pending tile put into the city, the reserve or Dirk's collection."""
    built = words.the_tile(str(a.tile))
    if a.to == "city":
        where = words.position(*a.cell)
        return say("{player} builds {tile} at {where}", player=who(seat), tile=built, where=where)
    if a.to == "reserve":
        return say("{player} puts {tile} in their reserve", player=who(seat), tile=built)
    return say("{player} gives {tile} to Dirk", player=who(seat), tile=built)


def bank_total(hand: Sequence[str], bank: str) -> int:
    """Total value of ``hand``'s cards of ``bank``."""
    return sum(card_value(c) for c in hand if card_bank(c) == bank)


def _missing(hand: Sequence[str], cards: Sequence[str]) -> str | None:
    have = Counter(hand)
    for card in cards:
        if have[card] <= 0:
            return card
        have[card] -= 1
    return None


def take_options(display: Sequence[str | None]) -> list[tuple[str, ...]]:
    """§4.3 / §4.10: each display card alone, and each set of 2+ cards totalling ≤ 5 (deduplicated)."""
    cards = [c for c in display if c is not None]
    seen: set[tuple[str, ...]] = set()
    out: list[tuple[str, ...]] = []
    for size in range(1, len(cards) + 1):
        for combo in combinations(cards, size):
            if size > 1 and sum(card_value(c) for c in combo) > TAKE_LIMIT:
                continue
            key = sort_hand(list(combo))
            if key not in seen:
                seen.add(key)
                out.append(key)
    return out


def _minimal_payments(values: Sequence[int], price: int) -> Iterator[tuple[int, ...]]:
    """Multisets of ``values`` (sorted descending) with sum ≥ ``price`` from which no card can be dropped.

    Going from high to low values, a card may only be added while the sum is still short, so every
    multiset yielded is minimal; the exact payments are among them.
    """
    distinct = sorted(set(values), reverse=True)
    counts = Counter(values)

    def rec(i: int, total: int, chosen: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if total >= price:
            yield chosen
            return
        if i == len(distinct):
            return
        v = distinct[i]
        for n in range(min(counts[v], (price - total + v - 1) // v), -1, -1):
            yield from rec(i + 1, total + n * v, chosen + (v,) * n)

    yield from rec(0, 0, ())


def payment_options(hand: Sequence[str], bank: str, price: int) -> list[tuple[str, ...]]:
    """§4.10 buy list for one slot: the exact payments first (fewest cards first), then minimal overpays."""
    values = sorted((card_value(c) for c in hand if card_bank(c) == bank), reverse=True)
    if sum(values) < price:
        return []
    found = list(_minimal_payments(values, price))
    found.sort(key=lambda p: (sum(p) != price, sum(p), len(p), [-v for v in p]))
    return [tuple(f"{bank}{v}" for v in p) for p in found]


def can_buy(st: HennState, seat: int) -> bool:
    """True when some market tile is affordable in its slot's bank (§4.4)."""
    hand = st.hands[seat]
    return any(
        tile is not None and bank_total(hand, bank) >= BUILDING_TILES[tile].price
        for bank, tile in zip(BANKS, st.market, strict=True)
    )


def can_pass(st: HennState, seat: int) -> bool:
    """§4.5: pass only when neither a take nor a buy is possible."""
    return all(c is None for c in st.display) and not can_buy(st, seat)


# ---------------------------------------------------------------------------------------------
# Mutable scratch copy used while one action resolves


class _Work:
    """A mutable copy of the state for one resolution; ``freeze`` gives the new immutable state."""

    def __init__(self, st: HennState, quiet: bool = False) -> None:
        self.st = st
        self.quiet = quiet  # no log: a search only needs the next state
        self.seats = st.seats
        self.phase = st.phase
        self.active = st.active
        self.turn = st.turn
        self.chain_open = st.chain_open
        self.hands = [list(h) for h in st.hands]
        self.deck = list(st.deck)
        self.discard = list(st.discard)
        self.display = list(st.display)
        self.market = list(st.market)
        self.bag = list(st.bag)
        self.cities = [city_map(st, s) for s in range(st.seats)]
        self.reserves = [list(r) for r in st.reserves]
        self.pending = [list(p) for p in st.pending]
        self.dirk = list(st.dirk)
        self.scores = list(st.scores)
        self.dirk_score = st.dirk_score
        self.scored = list(st.scored)
        self.result = list(st.result)
        self.round_totals = list(st.round_totals)
        self.rng = Rng(st.rng)
        self.events: list[Event] = []

    def freeze(self) -> HennState:
        return self.st.model_copy(
            update={
                "phase": self.phase,
                "active": self.active,
                "turn": self.turn,
                "chain_open": self.chain_open,
                "hands": tuple(sort_hand(h) for h in self.hands),
                "deck": tuple(self.deck),
                "discard": tuple(self.discard),
                "display": tuple(self.display),
                "market": tuple(self.market),
                "bag": tuple(self.bag),
                "cities": tuple(freeze_city(c) for c in self.cities),
                "reserves": tuple(tuple(r) for r in self.reserves),
                "pending": tuple(tuple(p) for p in self.pending),
                "dirk": tuple(self.dirk),
                "scores": tuple(self.scores),
                "dirk_score": self.dirk_score,
                "scored": tuple(self.scored),
                "result": tuple(self.result),
                "round_totals": tuple(self.round_totals),
                "rng": self.rng.state,
            }
        )

    def log(self, text: str, said: Say) -> None:
        if not self.quiet:
            self.events.append(public(text, said))

    def tell_hand(self, seat: int) -> None:
        """The owner's hand after a change, addressed to that seat only (§6)."""
        if self.quiet:
            return
        hand = sort_hand(self.hands[seat])
        said = say("Your money: {cards}", cards=words.cards(hand))
        self.events.append(private(f"hand {_cards_text(hand)} ({_hand_text(hand)})", seat, say=said))

    # -- §4.9 upkeep -----------------------------------------------------------------------

    def draw_money(self) -> str | None:
        """Top deck card; an empty deck is replaced by the shuffled discard (§4.9 step 1, ruling 17)."""
        if not self.deck:
            if not self.discard:
                return None
            self.deck = self.rng.shuffled(self.discard)
            self.discard = []
            self.log(
                f"reshuffle discard n={len(self.deck)}",
                say_n(
                    "The discard pile is shuffled into a new deck of {count} card",
                    "The discard pile is shuffled into a new deck of {count} cards",
                    len(self.deck),
                ),
            )
        return self.deck.pop(0)

    def upkeep(self) -> None:
        """Refill the display (resolving scoring cards), refill the market, then the next turn or the end."""
        self.chain_open = False
        for i in range(DISPLAY_SIZE):
            while self.display[i] is None:
                card = self.draw_money()
                if card is None:
                    break  # ruling 17: the space stays empty
                if card in SCORING_CARDS:
                    self.scoring_round("A" if card == SCORE_A else "B")
                    continue  # ruling 14: draw again for the same space
                self.display[i] = card
                if not self.quiet:  # a search's simulations skip the sentences, the costliest part
                    self.log(
                        f"refill display.{i + 1}={card}", say("{card} is laid out", card=words.card(card))
                    )
        for i, bank in enumerate(BANKS):
            if self.market[i] is None:
                if not self.bag:
                    self.game_end()  # §5.4: a slot cannot be refilled
                    return
                self.market[i] = self.bag.pop(0)
                if not self.quiet:
                    self.log(
                        f"refill market.{bank}={self.market[i]}",
                        say(
                            "The {bank} slot of the market gets a {tile}",
                            bank=words.SLOT_WORDS[bank],
                            tile=words.tile(str(self.market[i])),
                        ),
                    )
        self.active = (self.active + 1) % self.seats
        self.turn += 1
        self.phase = "action"

    def scoring_round(self, round_id: str) -> None:
        """§5.1-§5.3 on the current cities, then Dirk's draw after A and B (§7.2)."""
        snapshot = self.freeze()
        result = score_round(snapshot, round_id)
        self.log(f"scoring {round_id}", say("Time for {round}!", round=words.rounds(round_id)))
        for line, said in zip(score_lines(snapshot, result), score_says(snapshot, result), strict=True):
            self.log(line, said)
        self.round_totals.append(
            (
                *(result.total(s) for s in range(self.seats)),
                *((result.dirk_total(),) if self.st.two_player else ()),
            )
        )
        for s in range(self.seats):
            self.scores[s] += result.total(s)
        self.dirk_score += result.dirk_total()
        self.scored.append(round_id)
        if self.st.two_player and round_id in ("A", "B"):
            # §7.2, ruling 19: 6 tiles after A, floor(bag/3) after B, all that remain if fewer.
            n = DIRK_DRAW_A if round_id == "A" else len(self.bag) // 3
            got, self.bag = self.bag[:n], self.bag[n:]
            self.dirk += got
            self.log(f"dirk gets {_cards_text(got)}", _dirk_gets(got))
        if round_id == "C":
            self.result = [*score_lines(snapshot, result)]

    def game_end(self) -> None:
        """§5.4: reveal hands, award leftover market tiles to the richest per bank, final placement."""
        self.log("gameend", say("A market slot cannot be refilled: the game ends"))
        for s in range(self.seats):
            shown = " ".join(f"{b}:{bank_total(self.hands[s], b)}" for b in BANKS)
            money = items(
                say("{bank} {total}", bank=words.BANK_WORDS[b], total=bank_total(self.hands[s], b))
                for b in BANKS
            )
            self.log(
                f"reveal {seat_label(s)} {shown}",
                say("{player} shows their money: {totals}", player=who(s), totals=money),
            )
        for i, bank in enumerate(BANKS):
            tile = self.market[i]
            if tile is None:
                continue
            totals = [bank_total(h, bank) for h in self.hands]
            best = max(totals)
            if best > 0 and totals.count(best) == 1:
                winner = totals.index(best)
                self.pending[winner].append(tile)
                self.market[i] = None
                self.log(
                    f"award slot={bank} {seat_label(winner)} {tile}",
                    say(
                        "{player} holds the most {bank} money and gets {tile}",
                        player=who(winner),
                        bank=words.BANK_WORDS[bank],
                        tile=words.the_tile(tile),
                    ),
                )
            else:
                # Ruling 13: a tie or nobody holding the bank leaves the tile out of the game.
                self.log(
                    f"award slot={bank} none",
                    say(
                        "Nobody holds the most {bank} money: {tile} leaves the game",
                        bank=words.BANK_WORDS[bank],
                        tile=words.the_tile(tile),
                    ),
                )
        self.chain_open = False
        if any(self.pending):
            self.phase = "final"
        else:
            self.finish()

    def finish(self) -> None:
        """Scoring round C and the winner (§5.4 step 3, §5.5)."""
        self.scoring_round("C")
        best = max(self.scores)
        winners = [seat_label(s) for s in range(self.seats) if self.scores[s] == best]
        self.result.append("final " + " ".join(f"{seat_label(s)}={p}" for s, p in enumerate(self.scores)))
        if self.st.two_player:
            self.result[-1] += f" dirk={self.dirk_score}"
        # Who won is the first line of the final post, with the standings: the log only records it.
        self.log(f"winner {','.join(winners)}", SILENT)
        self.phase = "over"

    def end_chain(self) -> None:
        """The action chain is over: placement if tiles are pending, else upkeep (§4.1)."""
        self.chain_open = False
        if self.pending[self.active]:
            self.phase = "placement"
        else:
            self.upkeep()


# ---------------------------------------------------------------------------------------------
# Setup (§3)


def deal_starting_money(deck: Sequence[str], seats: int) -> tuple[list[list[str]], list[str]]:
    """§3.1 step 5: seat by seat, cards from the top until the hand totals at least 20 (banks ignored).

    Returns the hands (in dealing order) and the rest of the deck.
    """
    rest = list(deck)
    hands: list[list[str]] = []
    for _ in range(seats):
        hand: list[str] = []
        while sum(card_value(c) for c in hand) < DEAL_TARGET:
            hand.append(rest.pop(0))
        hands.append(hand)
    return hands, rest


def first_player(hands: Sequence[Sequence[str]]) -> int:
    """§3.1 step 6 / ruling 15: fewest cards, then lowest total, then lowest seat."""
    return min(range(len(hands)), key=lambda s: (len(hands[s]), sum(card_value(c) for c in hands[s]), s))


def _opening(seats: int, seed: int) -> tuple[HennState, list[Event]]:
    rng = Rng.from_seed(seed)
    events: list[Event] = []
    # §3.1 step 1: seats come shuffled from the host; the engine's own draws start with the bag.
    bag = rng.shuffled(TILE_IDS)  # step 2
    market, bag = bag[:4], bag[4:]  # step 3
    offer = items(
        say("{bank}: {tile}", bank=words.BANK_WORDS[b], tile=words.tile(t))
        for b, t in zip(BANKS, market, strict=True)
    )
    events.append(
        public(
            "market " + " ".join(f"{b}={t}" for b, t in zip(BANKS, market, strict=True)),
            say("The market offers {tiles}", tiles=offer),
        )
    )
    dirk: list[str] = []
    if seats == 2:  # §3.2, ruling 21: Dirk's 6 tiles after the market is filled
        dirk, bag = bag[:DIRK_SETUP], bag[DIRK_SETUP:]
        events.append(public(f"dirk gets {','.join(dirk)}", _dirk_gets(dirk)))
    deck = rng.shuffled(money_deck(seats))  # step 4 (§3.2: 72 cards for two)
    hands, deck = deal_starting_money(deck, seats)
    events += [
        public(
            f"deal {seat_label(s)} {','.join(h)}",
            say("{player} is dealt {cards}", player=who(s), cards=words.cards(sort_hand(h))),
        )
        for s, h in enumerate(hands)
    ]
    first = first_player(hands)
    events.append(public(f"first {seat_label(first)}", say("{player} plays first", player=who(first))))
    display, deck = deck[:DISPLAY_SIZE], deck[DISPLAY_SIZE:]  # step 7
    shown = words.cards(display, "comma")
    events.append(public(f"display {','.join(display)}", say("Money on display: {cards}", cards=shown)))
    # Step 8 / ruling 16: five piles via divmod, larger piles on top; A in pile 2, B in pile 4.
    q, r = divmod(len(deck), 5)
    piles: list[list[str]] = []
    at = 0
    for p in range(5):
        size = q + 1 if p < r else q
        piles.append(deck[at : at + size])
        at += size
    for p, card in ((1, SCORE_A), (3, SCORE_B)):
        piles[p].insert(rng.below(len(piles[p]) + 1), card)
    deck = [c for pile in piles for c in pile]
    state = HennState(
        seats=seats,
        phase="action",
        active=first,
        hands=tuple(sort_hand(h) for h in hands),
        deck=tuple(deck),
        display=tuple(display),
        market=tuple(market),
        bag=tuple(bag),
        cities=tuple(((0, 0, start_tile(s)),) for s in range(seats)),
        reserves=tuple(() for _ in range(seats)),
        pending=tuple(() for _ in range(seats)),
        dirk=tuple(dirk),
        scores=(0,) * seats,
        first=first,
        rng=rng.state,
    )
    return state, events


# ---------------------------------------------------------------------------------------------
# Legal actions (§4.10)


def placements(st: HennState, seat: int, tile: str) -> list[tuple[int, int]]:
    """Empty cells of ``seat``'s city where ``tile`` may go now (§4.7), sorted by row then column."""
    city = city_map(st, seat)
    return [c for c in frontier(city) if place_error(city, tile, c) is None]


def _place_actions(st: HennState, seat: int) -> list[Action]:
    out: list[Action] = []
    for tile in dict.fromkeys(st.pending[seat]):
        out += [place(tile, "city", c) for c in placements(st, seat, tile)]
        out.append(place(tile, "reserve"))
        if st.two_player and st.phase == "placement":
            out.append(place(tile, "dirk"))  # §4.8: only tiles bought this turn, only in 2p
    return out


def redesign_actions(st: HennState, seat: int) -> list[Action]:
    """§4.6 redesigns: add (reserve -> empty cell), remove, swap (reserve tile for a city tile)."""
    city = city_map(st, seat)
    out: list[Action] = []
    reserve = list(dict.fromkeys(st.reserves[seat]))
    cells = frontier(city) if reserve else []
    for tile in reserve:
        out += [redesign("add", c, tile) for c in cells if place_error(city, tile, c) is None]
    built = sorted((c for c in city if c != (0, 0)), key=lambda c: (c[1], c[0]))
    out += [redesign("remove", c) for c in built if remove_error(city, c) is None]
    for tile in reserve:
        out += [redesign("swap", c, tile) for c in built if swap_error(city, tile, c) is None]
    return out


def _legal(st: HennState, seat: int) -> list[Action]:
    if seat not in acting_seats(st):
        return []
    if st.phase in ("placement", "final"):
        return _place_actions(st, seat)
    out = [take(cards) for cards in take_options(st.display)]
    hand = st.hands[seat]
    for bank, tile in zip(BANKS, st.market, strict=True):
        if tile is not None:
            out += [buy(bank, p) for p in payment_options(hand, bank, BUILDING_TILES[tile].price)]
    out += redesign_actions(st, seat)
    if can_pass(st, seat):
        out.append(PASS)
    return out


# ---------------------------------------------------------------------------------------------
# Checking and resolving one action


def _illegal(st: HennState, seat: int, message: str, said: Say | None = None) -> IllegalAction:
    """A refusal listing the legal notations; ``said`` is the message as a sentence to translate."""
    return IllegalAction(message, [notation(a) for a in _legal(st, seat)], said or city_say(message))


_CITY_SAYS = {
    "touches the city only at a corner": say("the tile would touch your city only at a corner"),
    "not adjacent to the city": say("the tile would not touch your city"),
    "not reachable without crossing a street": say(
        "a tile would not be reachable on foot without crossing a street"
    ),
    "the start tile can never be removed or exchanged": say("Times Square can never be moved or exchanged"),
}


def city_say(message: str) -> Say:
    """A building-rule refusal of ``engine.ny_henn.city`` as a sentence (cells named by compass steps)."""
    found = re.search(r"\((-?\d+),(-?\d+)\)", message)
    where = words.position(int(found[1]), int(found[2])) if found else ""
    if message.startswith("edge mismatch"):
        return say("the streets would not match the tile at {where}", where=where)
    if message.startswith("cell ") and message.endswith("occupied"):
        return say("there is already a building at {where}", where=where)
    if message.startswith("creates an enclosed"):
        return say("it would enclose an empty space at {where}", where=where)
    if message.startswith("no tile at"):
        return say("there is no building at {where}", where=where)
    return _CITY_SAYS.get(message, say("that breaks a building rule"))


def _check_reserve_tile(st: HennState, seat: int, tile: str | None) -> str:
    assert tile is not None
    if tile not in st.reserves[seat]:
        if tile in st.pending[seat]:
            raise _illegal(  # §4.6, ruling 8
                st,
                seat,
                f"tile {tile} is pending, not in reserve",
                say("{tile} is waiting to be placed, not in your reserve", tile=words.the_tile(tile)),
            )
        raise _illegal(
            st,
            seat,
            f"tile {tile} is not in your reserve",
            say("{tile} is not in your reserve", tile=words.the_tile(tile)),
        )
    return tile


def _do_action_phase(st: HennState, seat: int, a: Action, quiet: bool = False) -> _Work:
    """§4.2-§4.6: one action of the chain (``quiet``: without the log)."""
    kind = a.kind
    label = seat_label(seat)
    if kind == "place":
        raise _illegal(
            st,
            seat,
            "place comes after your actions: finish them first (§4.8)",
            say("placing comes after your actions: finish them first"),
        )
    w = _Work(st, quiet)
    if kind == "take":
        if all(c is None for c in st.display):
            raise _illegal(st, seat, "the display is empty", say("there is no money on display"))
        missing = _missing([c for c in st.display if c is not None], a.cards)
        if missing is not None:
            raise _illegal(
                st,
                seat,
                f"{missing} is not on the display",
                say("{card} is not on display", card=words.card(missing)),
            )
        total = sum(card_value(c) for c in a.cards)
        if len(a.cards) > 1 and total > TAKE_LIMIT:
            raise _illegal(
                st,
                seat,
                f"several cards total {total} > {TAKE_LIMIT}",
                say(
                    "several cards may be worth at most {limit} together, these are worth {total}",
                    limit=TAKE_LIMIT,
                    total=total,
                ),
            )
        for card in a.cards:
            w.display[w.display.index(card)] = None
            w.hands[seat].append(card)
        if not quiet:
            w.log(
                f"{label}: take {_cards_text(a.cards)}",
                say("{player} takes {cards}", player=who(seat), cards=words.cards(a.cards)),
            )
        w.tell_hand(seat)
        w.end_chain()
        return w
    if kind == "buy":
        slot = str(a.slot)
        i = BANKS.index(slot)
        tile = st.market[i]
        if tile is None:
            raise _illegal(
                st,
                seat,
                f"market slot {slot} is empty",
                say("the {bank} slot of the market is empty", bank=words.SLOT_WORDS[slot]),
            )
        if any(card_bank(c) != slot for c in a.cards):
            raise _illegal(
                st,
                seat,
                f"payment must use bank {slot} only",
                say(
                    "you pay the {bank} slot with {colour} money only",
                    bank=words.SLOT_WORDS[slot],
                    colour=words.BANK_WORDS[slot],
                ),
            )
        missing = _missing(st.hands[seat], a.cards)
        if missing is not None:
            raise _illegal(
                st,
                seat,
                f"you do not hold {missing}",
                say("you do not hold {card}", card=words.card(missing)),
            )
        price = BUILDING_TILES[tile].price
        total = sum(card_value(c) for c in a.cards)
        if total < price:
            raise _illegal(
                st,
                seat,
                f"payment {total} < price {price}",
                say("you pay {total}, but the price is {price}", total=total, price=price),
            )
        for card in a.cards:
            w.hands[seat].remove(card)
            w.discard.append(card)
        w.market[i] = None
        w.pending[seat].append(tile)
        exact = total == price
        if not quiet:
            bought = say(
                "{player} buys {tile} from the {bank} slot, paying {cards}",
                player=who(seat),
                tile=words.the_tile(tile),
                bank=words.SLOT_WORDS[slot],
                cards=words.cards(a.cards),
            )
            if exact:
                bought = say("{move}: exact payment, another action", move=bought)
            w.log(
                f"{label}: buy slot={slot} pay={_cards_text(a.cards)} {tile}" + (" exact" if exact else ""),
                bought,
            )
        w.tell_hand(seat)
        if exact:
            w.chain_open = True  # §4.2, ruling 7: an exact payment earns a further action
        else:
            w.end_chain()
        return w
    if kind == "pass":
        if not can_pass(st, seat):
            raise _illegal(
                st,
                seat,
                "pass is allowed only when you can neither take money nor buy (§4.5)",
                say("you may pass only when you can neither take money nor buy"),
            )
        w.log(f"{label}: pass", say("{player} passes", player=who(seat)))
        w.end_chain()
        return w
    city = w.cities[seat]
    at = a.cell
    if kind == "add":
        tile = _check_reserve_tile(st, seat, a.tile)
        error = place_error(city, tile, at)
        if error:
            raise _illegal(st, seat, error)
        w.reserves[seat].remove(tile)
        city[at] = tile
        w.log(
            f"{label}: redesign add tile={tile} at={at[0]},{at[1]}",
            say(
                "{player} builds {tile} from their reserve at {where}",
                player=who(seat),
                tile=words.the_tile(tile),
                where=words.position(*at),
            ),
        )
    elif kind == "remove":
        error = remove_error(city, at)
        if error:
            raise _illegal(st, seat, error)
        w.reserves[seat].append(city.pop(at))
        w.log(
            f"{label}: redesign remove at={at[0]},{at[1]} ({w.reserves[seat][-1]})",
            say(
                "{player} moves {tile} at {where} to their reserve",
                player=who(seat),
                tile=words.the_tile(w.reserves[seat][-1]),
                where=words.position(*at),
            ),
        )
    else:
        tile = _check_reserve_tile(st, seat, a.tile)
        error = swap_error(city, tile, at)
        if error:
            raise _illegal(st, seat, error)
        w.reserves[seat].remove(tile)
        w.reserves[seat].append(city[at])
        city[at] = tile
        w.log(
            f"{label}: redesign swap tile={tile} at={at[0]},{at[1]} ({w.reserves[seat][-1]} to reserve)",
            say(
                "{player} swaps {old} at {where} for {tile} from their reserve",
                player=who(seat),
                old=words.the_tile(w.reserves[seat][-1]),
                tile=words.the_tile(tile),
                where=words.position(*at),
            ),
        )
    w.end_chain()  # §4.6: a redesign ends the chain
    return w


def _do_place(st: HennState, seat: int, a: Action, quiet: bool = False) -> _Work:
    """§4.8 / §5.4 step 2: put one pending tile into the city, the reserve or (2p, bought) to Dirk
    (``quiet``: without the log)."""
    if a.kind != "place":
        step = "final placement" if st.phase == "final" else "placement"
        raise _illegal(
            st,
            seat,
            f"only place is possible in the {step} step",
            say("now you can only place the buildings you bought"),
        )
    tile = str(a.tile)
    if a.to == "dirk" and (not st.two_player or st.phase != "placement" or tile not in st.pending[seat]):
        if not st.two_player:
            raise _illegal(
                st,
                seat,
                "Dirk takes part only in the 2-player game",
                say("Dirk plays only in the 2-player game"),
            )
        raise _illegal(  # ruling 21
            st,
            seat,
            "only tiles bought this turn can be given to Dirk",
            say("only buildings bought this turn can go to Dirk"),
        )
    if tile not in st.pending[seat]:
        raise _illegal(
            st,
            seat,
            f"tile {tile} is not pending",
            say("{tile} is not waiting to be placed", tile=words.the_tile(tile)),
        )
    w = _Work(st, quiet)
    label = seat_label(seat)
    if a.to == "city":
        at = a.cell
        error = place_error(w.cities[seat], tile, at)
        if error:
            raise _illegal(st, seat, error)
        w.cities[seat][at] = tile
    elif a.to == "reserve":
        w.reserves[seat].append(tile)
    else:
        w.dirk.append(tile)
    w.pending[seat].remove(tile)
    if not quiet:
        w.log(f"{label}: {notation(a)}", _placed(seat, a))
    if st.phase == "placement":
        if not w.pending[seat]:
            w.upkeep()
    elif not any(w.pending):
        w.finish()
    return w


# ---------------------------------------------------------------------------------------------
# The rules object


class NyHennRules(RulesDefaults):
    """Dirk Henn's *New York*: base game for 3–6 players, the Dirk variant for 2."""

    name: ClassVar[str] = "ny_henn"
    title: ClassVar[str] = "New York (Dirk Henn)"
    summary: ClassVar[str] = (
        "Take money from the display (one card, or several totalling at most 5) or buy a building tile "
        "from the market, paying at least its price in the slot's bank with no change; an exact payment "
        "earns another action. Build outward from Times Square: streets must match, every tile must be "
        "reachable on foot and no empty space may be enclosed. Majorities of each building type and your "
        "longest outer street score in rounds A, B and the final C. Two players add the collector Dirk."
    )
    seat_counts: ClassVar[range] = range(2, 7)
    options: ClassVar[Mapping[str, str]] = {}
    state_model: ClassVar[type[BaseModel]] = HennState
    # §6: the money deck and the tile bag are face down (the display and market refill from them).
    hidden_piles: ClassVar[Mapping[str, HiddenPile] | None] = {
        "deck": HiddenPile(),
        "bag": HiddenPile(holds="tile"),
    }

    def setup(self, seats: int, seed: int, options: frozenset[str]) -> HennState:
        """The opening state after §3 (the first player to act)."""
        self.validate_setup(seats, options)
        return _opening(seats, seed)[0]

    def setup_events(self, seats: int, seed: int, options: frozenset[str] = frozenset()) -> list[Event]:
        """The public setup log (market, Dirk's tiles, face-up deals, first player, display)."""
        return _opening(seats, seed)[1]

    def to_act(self, state: HennState) -> frozenset[int]:
        """The active player, or in the final placement every seat still holding awarded tiles."""
        return acting_seats(state)

    def legal_actions(self, state: HennState, seat: int) -> Sequence[Action]:
        """Legal actions in a stable order: takes, buys (exact first), redesigns, pass; or placements.

        Buys list the minimal payments only; ``apply`` also accepts any larger payment (ruling 6),
        offered through ``multi_selects``.
        """
        return _legal(state, seat)

    def apply(self, state: HennState, seat: int, action: Action) -> Step[HennState]:
        """Resolve ``action`` and every automatic step after it (upkeep, scoring, game end).

        Raises ``NotYourTurn`` or ``IllegalAction`` (naming the failed rule, listing legal notations).
        """
        if state.phase == "over":
            raise IllegalAction("the game is over", say=say("the game is over"))
        if seat not in acting_seats(state):
            raise NotYourTurn("not your turn", say=say("it is not your turn"))
        if state.phase == "action":
            w = _do_action_phase(state, seat, action)
        else:
            w = _do_place(state, seat, action)
        after = w.freeze()
        # Remember the move for the board image's highlight (§9: the last move is shown).
        line = next((e.text for e in w.events if e.is_public and e.text.startswith(f"P{seat + 1}:")), "")
        cells = tuple(
            sorted(
                {
                    (s, x, y)
                    for s in range(state.seats)
                    for x, y, _ in set(state.cities[s]) ^ set(after.cities[s])
                }
            )
        )
        return Step(after.model_copy(update={"last_move": line, "changed": cells}), tuple(w.events))

    def advance(self, state: HennState, seat: int, action: Action) -> HennState:
        """The state after ``action``, as ``apply`` gives it but without the log and the board image's
        note of the last move: what a search's simulations need, at a fraction of the cost."""
        if state.phase == "over":
            raise IllegalAction("the game is over", say=say("the game is over"))
        if seat not in acting_seats(state):
            raise NotYourTurn("not your turn", say=say("it is not your turn"))
        if state.phase == "action":
            return _do_action_phase(state, seat, action, quiet=True).freeze()
        return _do_place(state, seat, action, quiet=True).freeze()

    def outcome(self, state: HennState) -> Outcome | None:
        """Scores and places of the real players once over (Dirk cannot win, ruling 18)."""
        if state.phase != "over":
            return None
        return Outcome(
            scores=state.scores,
            places=places_of(state.scores),
            reason="the market could not be refilled",
            details=state.result,
            reason_say=say("a market slot could not be refilled"),
            breakdown=_breakdown(state),
        )

    def view(self, state: HennState, seat: int | None) -> BaseModel:
        """``PublicView`` for ``None``; ``PrivateView`` (hand, legal actions, targets) for a seat."""
        if seat is None:
            return views.public_view(state)
        legal = [notation(a) for a in self.legal_actions(state, seat)]
        return views.private_view(state, seat, legal)

    def notation(self, action: Action) -> str:
        """Canonical text of ``action`` (§8)."""
        return notation(action)

    def parse(self, text: str) -> Action:
        """The action written as ``text``; raises ``NotationError`` with the expected syntax."""
        return parse(text)

    def resample_secrets(self, state: HennState, seat: int, rng: Rng) -> HennState:
        """``seat``'s hand redrawn from its cards and the deck's money cards (same count), deck reshuffled.

        Outsiders see hand sizes, deck size and the remaining scoring cards only, which stay the same.
        """
        hand = list(state.hands[seat])
        money = [c for c in state.deck if c not in SCORING_CARDS]
        pool = rng.shuffled(hand + money)
        new_hand, rest = pool[: len(hand)], pool[len(hand) :]
        deck = rng.shuffled(rest + [c for c in state.deck if c in SCORING_CARDS])
        hands = list(state.hands)
        hands[seat] = sort_hand(new_hand)
        return state.model_copy(update={"hands": tuple(hands), "deck": tuple(deck)})

    def scored(self, before: HennState, after: HennState) -> bool:
        """A scoring round (A, B or C) was played."""
        return len(after.scored) > len(before.scored)

    def revealed(
        self, before: HennState, seat: int, action: Action, after: HennState, events: Sequence[Event]
    ) -> Reveal | None:
        """As the default, and the game's end (§5.4) shows every player's money, so it is final too."""
        if before.phase not in ("final", "over") and after.phase in ("final", "over"):
            return "secret"
        return super().revealed(before, seat, action, after, events)
