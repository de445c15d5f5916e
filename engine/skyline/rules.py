"""The rules of Skyline of the World (spec: shared/games/skyline.md) behind the ``GameRules`` contract."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import ClassVar

from pydantic import BaseModel

from engine.core.contract import (
    Event,
    HiddenPile,
    Outcome,
    RulesDefaults,
    Step,
    private,
    public,
)
from engine.core.errors import IllegalAction, NotYourTurn
from engine.core.rng import Rng
from engine.core.say import SILENT, Say, items, who
from engine.skyline import views, words
from engine.skyline.actions import (
    ENDBUILD,
    ENDTURN,
    Action,
    build,
    buy,
    claim,
    exchange,
    notation,
    parse,
    sell,
)
from engine.skyline.cards import (
    BONUS_CARDS,
    BONUS_IDS,
    CASH_CAP,
    COLOURED,
    EXCHANGE_COUNT,
    EXCHANGE_REWARD,
    FEE,
    HAND_SIZE,
    LEVEL,
    MAX_HEIGHT,
    MISSION_IDS,
    MISSION_PP,
    MISSIONS,
    NEUTRAL_COUNT,
    ORANGE,
    PENTHOUSES_TO_END,
    PIECES,
    PLACEMENT_MASKS,
    PRICE,
    SELL,
    SITE_BY_NAME,
    SITES,
    START_CASH,
    START_STOCK,
    SUPPLY_PER_COLOUR,
    piece_order,
    site_name,
)
from engine.skyline.scoring import TieBreak, places, score, tiebreak, tiebreak_notes
from engine.skyline.state import SkylineState, Stack, code, colour, income_groups, owner, topped_mask
from engine.skyline.words import say, say_n

LEVEL_NAMES = {
    "1": "a 1 M floor",
    "2": "a 2 M floor",
    "4": "a 4 M floor",
    "6": "a 6 M floor",
    "PH": "a penthouse",
}


def _sort_stock(stock: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(stock, key=piece_order))


def _sites_text(sites: Sequence[int]) -> str:
    return ",".join(site_name(k) for k in sites)


# ---------------------------------------------------------------------------------------------
# Build legality (§4.2)


def fee_for(board: tuple[Stack, ...], seat: int, piece: str, k: int) -> tuple[int, int | None]:
    """The fee and its recipient (``None`` = bank) for ``piece`` on site ``k`` (§4.5).

    Assumes the build is otherwise legal: the fee is the new piece's value, paid to the owner of the
    piece below, to the bank on an empty site or a neutral, and 0 on the builder's own piece.
    """
    stack = board[k]
    below = owner(stack[-1]) if stack else None
    if below == seat:
        return 0, None
    return FEE[piece], below


def build_error(st: SkylineState, seat: int, piece: str, k: int) -> str | None:
    """Why ``build <piece> <site k>`` is illegal for ``seat`` now, or ``None`` (§4.2 tables)."""
    name = site_name(k)
    if piece not in st.stock[seat]:
        return f"you have no {piece} in stock"
    stack = st.board[k]
    h = len(stack)
    if h >= MAX_HEIGHT:
        return f"{name} is complete (5 floors)"
    top = stack[-1] if stack else None
    top_owner = owner(top) if top else None
    top_code = code(top) if top else None
    if piece in LEVEL:
        if top is not None and top_code != "N":
            if top_owner == seat and top_code != "S":
                return "cannot build on your own floor"
            if top_owner != seat and top_code == "S":
                return "cannot build on another player's Skyline floor"
        if h + 1 != LEVEL[piece]:
            if piece == "1":
                return f"a 1 M floor starts a building; {name} has height {h}"
            return f"{LEVEL_NAMES[piece]} belongs on level {LEVEL[piece]}; {name} has height {h}"
        if piece == "PH" and not any(
            p != "N" and int(p[0]) == seat for p in stack[: MAX_HEIGHT - 1]
        ):  # §2.8 participation: own coloured or Skyline floor in levels 1-4 (ruling 10)
            return "penthouse needs one of your floors lower in this building"
    else:
        if top_code == "S":
            kind = "neutral" if piece == "N" else "Skyline"
            return f"{kind} floors may not go on Skyline floors"  # ruling 7
        if piece == "S":
            if k in ORANGE:
                return "Skyline floors may not go on orange sites"  # ruling 8
            if st.built_skyline:
                return "only one Skyline floor per turn"
    fee, _to = fee_for(st.board, seat, piece, k)
    if fee > st.cash[seat]:
        return f"you cannot pay the {fee} M fee (you have {st.cash[seat]} M)"
    return None


def legal_builds(st: SkylineState, seat: int) -> list[Action]:
    """Every legal build of ``seat``, by piece (1 2 4 6 PH N S) then site (A1 … F6)."""
    out: list[Action] = []
    for piece in dict.fromkeys(st.stock[seat]):
        for site in SITES:
            if build_error(st, seat, piece, site.k) is None:
                out.append(build(piece, site.id))
    return out


def first_build(st: SkylineState, seat: int) -> Action | None:
    """One legal build, or ``None`` (the forced-build check of §4.2)."""
    for piece in dict.fromkeys(st.stock[seat]):
        for site in SITES:
            if build_error(st, seat, piece, site.k) is None:
                return build(piece, site.id)
    return None


def build_say(st: SkylineState, seat: int, a: Action) -> Say:
    """The build ``a`` of ``seat`` in words with the fee it pays, e.g. "Build a 2 M floor on C4, paying
    Bob 2 M"."""
    assert a.piece is not None and a.site is not None
    fee, to = fee_for(st.board, seat, a.piece, SITE_BY_NAME[a.site])
    built = say("Build a {piece} on {site}", piece=words.piece(a.piece), site=a.site)
    if not fee:
        return built
    if to is None or to == seat:
        return say("{move}, paying the bank {amount} M", move=built, amount=fee)
    return say("{move}, paying {player} {amount} M", move=built, player=who(to), amount=fee)


# ---------------------------------------------------------------------------------------------
# Invest legality (§4.3)


def buy_error(
    st: SkylineState,
    seat: int,
    piece: str,
    cash: int,
    supply: Sequence[int],
    neutral: int,
    bought_neutral: bool,
) -> str | None:
    """Why buying one ``piece`` is illegal given the running cash and supplies, or ``None``."""
    if piece == "S":
        return "Skyline floors cannot be bought"
    if piece == "N":
        if bought_neutral:
            return "only one neutral floor may be bought per turn"
        if neutral <= 0:
            return "the neutral supply is empty"
    elif supply[COLOURED.index(piece)] <= 0:
        return f"your supply has no {piece} left"
    if PRICE[piece] > cash:
        return f"a {piece} costs {PRICE[piece]} M; you have {cash} M"
    return None


def sellable(st: SkylineState, seat: int) -> tuple[str, ...]:
    """The floors in ``seat``'s stock it may sell (§4.3), each as many times as it holds it."""
    return tuple(p for p in st.stock[seat] if p != "S")


def affordable(st: SkylineState, seat: int) -> str | None:
    """The cheapest piece ``seat`` could buy now (forced buy, §4.3), or ``None``."""
    options = [
        p
        for p in (*COLOURED, "N")
        if buy_error(st, seat, p, st.cash[seat], st.supply[seat], st.neutral_supply, st.bought_neutral)
        is None
    ]
    return min(options, key=lambda p: PRICE[p]) if options else None


def satisfied_placement(st: SkylineState, seat: int, card: str) -> tuple[int, ...] | None:
    """The engine's placement for ``card`` (smallest sorted site list, §8), or ``None`` if unsatisfied."""
    mask = topped_mask(st.board, seat)
    for need, sites in PLACEMENT_MASKS[card]:
        if mask & need == need:
            return sites
    return None


# ---------------------------------------------------------------------------------------------
# Mutable scratch copy used while one action resolves


class _Work:
    """A mutable copy of the state for one resolution; ``freeze`` gives the new immutable state."""

    def __init__(self, st: SkylineState) -> None:
        self.st = st
        self.board = list(st.board)
        self.cash = list(st.cash)
        self.stock = [list(s) for s in st.stock]
        self.supply = [list(s) for s in st.supply]
        self.neutral = st.neutral_supply
        self.skyline = list(st.skyline_received)
        self.hands = [list(h) for h in st.hands]
        self.deck = list(st.deck)
        self.claimed = [list(c) for c in st.claimed]
        self.claimed_at = [list(c) for c in st.claimed_at]
        self.exchanged = list(st.exchanged)
        self.ph_seq = [list(p) for p in st.penthouse_seq]
        self.income = list(st.last_income)
        self.upd: dict[str, object] = {}
        self.events: list[Event] = []

    def freeze(self) -> SkylineState:
        return self.st.model_copy(
            update={
                "board": tuple(self.board),
                "cash": tuple(self.cash),
                "stock": tuple(_sort_stock(s) for s in self.stock),
                "supply": tuple(tuple(s) for s in self.supply),
                "neutral_supply": self.neutral,
                "skyline_received": tuple(self.skyline),
                "hands": tuple(tuple(sorted(h)) for h in self.hands),
                "deck": tuple(self.deck),
                "claimed": tuple(tuple(c) for c in self.claimed),
                "claimed_at": tuple(tuple(c) for c in self.claimed_at),
                "exchanged": tuple(self.exchanged),
                "penthouse_seq": tuple(tuple(p) for p in self.ph_seq),
                "last_income": tuple(self.income),
                **self.upd,
            }
        )

    def get(self, key: str) -> object:
        return self.upd.get(key, getattr(self.st, key))

    @property
    def hidden(self) -> bool:
        return self.st.hidden

    def log(self, text: str, said: Say) -> None:
        self.events.append(public(text, said))

    def secret(self, text: str, said: Say, *seats: int) -> None:
        """A line that only ``seats`` may read."""
        self.events.append(private(text, *seats, say=said))

    def money_line(self, text: str, said: Say, *seats: int) -> None:
        """§6 hidden variant: money lines go only to the players concerned; public otherwise."""
        if self.hidden:
            self.secret(text, said, *seats)
        else:
            self.log(text, said)

    def credit(self, seat: int, amount: int) -> None:
        """§2.4: every credit is capped at 30 M; the rest stays with the bank."""
        self.cash[seat] = min(CASH_CAP, self.cash[seat] + amount)

    def pay(self, payer: int, to: int | None, amount: int) -> None:
        self.cash[payer] -= amount
        if to is not None:
            self.credit(to, amount)
        who_gets = colour(self.st, to) if to is not None else "bank"
        seats = (payer,) if to is None else (payer, to)
        said = (
            say("{player} pays {amount} M to {payee}", player=who(payer), amount=amount, payee=who(to))
            if to is not None
            else say("{player} pays {amount} M to the bank", player=who(payer), amount=amount)
        )
        self.money_line(f"pay {colour(self.st, payer)} {who_gets} {amount}", said, *seats)

    # -- §4.1 start of a turn ----------------------------------------------------------------

    def start_turn(self, seat: int) -> None:
        """Phase 1 (income, automatic), then phase 2 begins with fresh per-turn flags."""
        amount, sites = income_groups(tuple(self.board), seat)
        self.credit(seat, amount)
        self.income[seat] = amount
        line = f"income {colour(self.st, seat)} {amount}" + (f" {_sites_text(sites)}" if sites else "")
        said = (
            say(
                "{player} earns {amount} M from the buildings on {sites}",
                player=who(seat),
                amount=amount,
                sites=words.sites(sites),
            )
            if sites
            else say("{player} earns no income yet", player=who(seat))
        )
        if self.hidden:
            self.log(
                f"income {colour(self.st, seat)}", say("{player} receives their income", player=who(seat))
            )
            self.secret(line, said, seat)
        else:
            self.log(line, said)
        self.upd.update(
            active=seat,
            phase="build",
            built_any=False,
            built_skyline=False,
            bought_any=False,
            bought_neutral=False,
            claimed_this_turn=False,
        )

    # -- §4.2 effects of a build ------------------------------------------------------------

    def do_build(self, seat: int, piece: str, k: int) -> None:
        fee, to = fee_for(tuple(self.board), seat, piece, k)
        self.stock[seat].remove(piece)
        tag = "N" if piece == "N" else f"{seat}{piece}"
        self.board[k] = (*self.board[k], tag)
        seq = int(str(self.get("seq"))) + 1
        self.upd.update(seq=seq, built_any=True, last_build=k)
        if piece == "S":
            self.upd["built_skyline"] = True
        self.log(
            f"{colour(self.st, seat)}: build {piece} {site_name(k)}",
            say(
                "{player} builds a {piece} on {site}",
                player=who(seat),
                piece=words.piece(piece),
                site=site_name(k),
            ),
        )
        if fee:
            self.pay(seat, to, fee)
        if piece == "PH":
            self.penthouse(seat, seq)

    def penthouse(self, seat: int, seq: int) -> None:
        """§4.2 effect 2: bonus draws for the others, then the first/third penthouse Skyline floors."""
        self.ph_seq[seat].append(seq)
        n = self.st.seats
        for i in range(1, n):
            other = (seat + i) % n  # ruling 17: clockwise from the builder's left
            if not self.deck:
                break  # ruling 16: no reshuffle
            card = self.deck.pop(0)
            self.hands[other].append(card)
            self.log(f"draw {colour(self.st, other)}", say("{player} draws a bonus card", player=who(other)))
            self.secret(f"draw {card}", say("You draw {card}", card=words.card(card)), other)
        count = len(self.ph_seq[seat])
        if count == 1:
            self.give_skyline(seat)
        if count == PENTHOUSES_TO_END and self.get("trigger") is None:
            self.give_skyline(seat)
            queue = tuple((seat + i) % n for i in range(1, n))
            self.upd.update(trigger=seat, final_queue=queue)
            self.log(
                f"trigger {colour(self.st, seat)}",
                say(
                    "{player} has built a third penthouse: everyone else plays one last turn",
                    player=who(seat),
                ),
            )

    def give_skyline(self, seat: int) -> None:
        self.skyline[seat] += 1
        self.stock[seat].append("S")
        self.log(
            f"skyline {colour(self.st, seat)} +1", say("{player} receives a Skyline floor", player=who(seat))
        )

    # -- §5 end of a turn and end of the game ------------------------------------------------

    def end_turn(self, seat: int) -> None:
        stall = 0 if self.get("built_any") else int(str(self.get("stall"))) + 1
        self.upd["stall"] = stall
        trigger = self.get("trigger")
        queue: tuple[int, ...] = self.get("final_queue")  # type: ignore[assignment]
        if stall >= 2 * self.st.seats:
            self.log("stall-end", say("No floor was built for two full rounds: the game ends"))
            self.finish("no floor was built for two full rounds")
            return
        if trigger is not None:
            if not queue:
                self.finish(f"{colour(self.st, int(str(trigger)))} built a third penthouse")
                return
            nxt, rest = queue[0], queue[1:]
            self.upd["final_queue"] = rest
            self.upd["turn"] = self.st.turn + 1
            self.log(f"final-turn {colour(self.st, nxt)}", say("Last turn for {player}", player=who(nxt)))
            self.start_turn(nxt)
            return
        self.upd["turn"] = self.st.turn + 1
        self.start_turn((seat + 1) % self.st.seats)

    def finish(self, reason: str) -> None:
        """§5.2/§5.3: reveal missions, score, name the winner(s)."""
        self.upd["phase"] = "over"
        self.upd["end_reason"] = reason
        final = self.freeze()
        lines: list[str] = []
        for s in range(self.st.seats):
            m = final.missions[s]
            sc = score(final, s)
            self.log(
                f"mission {colour(final, s)} {m} {'complete' if sc.mission else 'failed'}",
                say("{player}: mission {mission} complete", player=who(s), mission=words.MISSIONS[m])
                if sc.mission
                else say("{player}: mission {mission} failed", player=who(s), mission=words.MISSIONS[m]),
            )
            lines.append(
                f"score {colour(final, s)} ph={sc.penthouses} orange={sc.orange} "
                f"mission={2 if sc.mission else 0} total={sc.total}"
            )
        # Each seat's score, the tie-breaks and the winner are the final post's standings (the
        # outcome's breakdown): the log only records them.
        for line in lines:
            self.log(line, SILENT)
        pl = places(final)
        winners = [colour(final, s) for s in range(self.st.seats) if pl[s] == 1]
        notes = tiebreak_notes(final)
        for note in notes:
            self.log(note, SILENT)
        self.log(f"winner {','.join(winners)}", SILENT)
        self.upd["result"] = (*lines, *notes, f"winner {','.join(winners)}")


# ---------------------------------------------------------------------------------------------
# Setup (§3)


def _opening(seats: int, seed: int, options: frozenset[str]) -> tuple[SkylineState, list[Event]]:
    rng = Rng.from_seed(seed)
    # §3 determinism: mission shuffle, bonus shuffle, start player, in this order.
    missions = rng.shuffled(MISSION_IDS)
    bonus = rng.shuffled(BONUS_IDS)
    start = rng.below(seats)
    hands: list[list[str]] = [[] for _ in range(seats)]
    for _ in range(HAND_SIZE):
        for s in range(seats):
            hands[s].append(bonus.pop(0))
    supply = tuple(tuple(SUPPLY_PER_COLOUR[p] - START_STOCK.count(p) for p in COLOURED) for _ in range(seats))
    base = SkylineState(
        seats=seats,
        hidden="hidden" in options,
        tournament="tournament" in options,
        phase="build",
        active=start,
        start=start,
        board=((),) * len(SITES),
        cash=(START_CASH,) * seats,
        stock=(_sort_stock(START_STOCK),) * seats,
        supply=supply,
        neutral_supply=NEUTRAL_COUNT,
        skyline_received=(0,) * seats,
        missions=tuple(missions[:seats]),
        spare_missions=tuple(sorted(missions[seats:])),
        hands=tuple(tuple(sorted(h)) for h in hands),
        deck=tuple(bonus),
        claimed=((),) * seats,
        claimed_at=((),) * seats,
        exchanged=(0,) * seats,
        penthouse_seq=((),) * seats,
        last_income=(0,) * seats,
        rng=rng.state,
    )
    events: list[Event] = []
    for s in range(seats):
        mission = MISSIONS[missions[s]]
        events.append(
            private(
                f"mission {missions[s]}",
                s,
                say=say(
                    "Your secret mission: {mission}, topping {sites}",
                    mission=words.MISSIONS[missions[s]],
                    sites=", ".join(mission.sites),
                ),
            )
        )
        hand = sorted(hands[s])
        events.append(
            private(
                f"hand {','.join(hand)}", s, say=say("Your bonus cards: {cards}", cards=words.cards(hand))
            )
        )
    events.append(
        public(
            "deal " + " ".join(f"{colour(base, s)}=3" for s in range(seats)),
            say("Everyone is dealt a secret mission and three bonus cards"),
        )
    )
    events.append(public(f"start {colour(base, start)}", say("{player} starts", player=who(start))))
    w = _Work(base)
    w.start_turn(start)
    return w.freeze(), events + w.events


# ---------------------------------------------------------------------------------------------
# Legal actions


def free_actions(st: SkylineState, seat: int) -> list[Action]:
    """Claims (one per turn) and one exchange, allowed in either phase (§4.7, §4.8).

    Only one exchange is listed (the three cheapest cards, then by id) to keep the list short; any other
    three cards are offered through ``multi_selects`` and accepted by ``apply``.
    """
    out: list[Action] = []
    if not st.claimed_this_turn:
        out += [claim(c) for c in st.hands[seat] if satisfied_placement(st, seat, c) is not None]
    if len(st.hands[seat]) >= EXCHANGE_COUNT:
        cheapest = sorted(st.hands[seat], key=lambda c: (BONUS_CARDS[c].reward, c))[:EXCHANGE_COUNT]
        out.append(exchange(cheapest))
    return out


def _legal(st: SkylineState, seat: int) -> list[Action]:
    if st.phase == "over" or seat != st.active:
        return []
    if st.phase == "build":
        builds = legal_builds(st, seat)
        out = builds + free_actions(st, seat)
        if st.built_any or not builds:
            out.append(ENDBUILD)
        return out
    out = []
    for p in (*COLOURED, "N"):
        if (
            buy_error(st, seat, p, st.cash[seat], st.supply[seat], st.neutral_supply, st.bought_neutral)
            is None
        ):
            out.append(buy([p]))
    out += [sell([p]) for p in dict.fromkeys(st.stock[seat]) if p != "S"]
    out += free_actions(st, seat)
    if st.built_any or st.bought_any or affordable(st, seat) is None:
        out.append(ENDTURN)
    return out


# ---------------------------------------------------------------------------------------------
# Checking and resolving one action


def _illegal(st: SkylineState, seat: int, message: str, said: Say | None = None) -> IllegalAction:
    """A refusal listing the legal notations; ``said`` is the message as a sentence to translate (a
    building or buying rule's message is turned into one by ``rule_say``)."""
    return IllegalAction(message, [notation(a) for a in _legal(st, seat)], said or rule_say(message))


def _piece_in(message: str, pattern: str) -> Say | None:
    found = re.search(pattern, message)
    return words.piece(found[1]) if found and found[1] in words.PIECES else None


def rule_say(message: str) -> Say:
    """A message of ``build_error`` or ``buy_error`` as a sentence (pieces by name, sites as printed)."""
    numbers = re.findall(r"\d+", message)
    site = re.search(r"\b([A-F][1-6])\b", message)
    if message.startswith("you have no "):
        return say("you have no {piece} in stock", piece=_piece_in(message, r"you have no (\S+)") or "?")
    if message.endswith("is complete (5 floors)") and site:
        return say("the building on {site} is complete (5 floors)", site=site[1])
    if message.startswith("a 1 M floor starts") and site:
        return say("a 1 M floor starts a building, and {site} already has one", site=site[1])
    if "belongs on level" in message and site:
        return say_n(
            "that floor goes on level {level}, but the building on {site} has {count} floor",
            "that floor goes on level {level}, but the building on {site} has {count} floors",
            int(numbers[-1]),
            level=numbers[-3] if len(numbers) >= 3 else "?",
            site=site[1],
        )
    if message.startswith("you cannot pay the"):
        return say("you cannot pay the {fee} M fee (you have {cash} M)", fee=numbers[0], cash=numbers[1])
    if message.startswith("your supply has no"):
        return say("your supply has no {piece} left", piece=_piece_in(message, r"no (\S+) left") or "?")
    if message.startswith("a ") and " costs " in message:
        return say("that floor costs {price} M and you have {cash} M", price=numbers[-2], cash=numbers[-1])
    return _RULE_SAYS.get(message, say("that breaks a building rule"))


_RULE_SAYS = {
    "cannot build on your own floor": say("you cannot build on your own floor"),
    "cannot build on another player's Skyline floor": say(
        "you cannot build on another player's Skyline floor"
    ),
    "penthouse needs one of your floors lower in this building": say(
        "a penthouse needs one of your floors lower in the same building"
    ),
    "neutral floors may not go on Skyline floors": say("a neutral floor cannot go on a Skyline floor"),
    "Skyline floors may not go on Skyline floors": say("a Skyline floor cannot go on another Skyline floor"),
    "Skyline floors may not go on orange sites": say("Skyline floors cannot go on orange sites"),
    "only one Skyline floor per turn": say("only one Skyline floor per turn"),
    "Skyline floors cannot be bought": say("Skyline floors cannot be bought"),
    "only one neutral floor may be bought per turn": say("only one neutral floor may be bought per turn"),
    "the neutral supply is empty": say("there are no neutral floors left"),
}


def _resolve(st: SkylineState, seat: int, a: Action) -> _Work:
    name = colour(st, seat)
    kind = a.kind
    if kind == "claim":
        return _claim(st, seat, a)
    if kind == "exchange":
        missing = [c for c in a.cards if c not in st.hands[seat]]
        if missing:
            raise _illegal(
                st,
                seat,
                f"{missing[0]} is not in your hand",
                say(
                    "{card} is not in your hand",
                    card=words.card(missing[0]) if missing[0] in words.CARDS else missing[0],
                ),
            )
        w = _Work(st)
        for c in a.cards:
            w.hands[seat].remove(c)
        w.exchanged[seat] += 1
        w.credit(seat, EXCHANGE_REWARD)
        w.log(
            f"{name}: exchange 3 cards +{EXCHANGE_REWARD}",
            say(
                "{player} exchanges three bonus cards for {amount} M",
                player=who(seat),
                amount=EXCHANGE_REWARD,
            ),
        )
        w.secret(
            f"exchanged {','.join(a.cards)}", say("You exchanged {cards}", cards=words.cards(a.cards)), seat
        )
        return w
    if st.phase == "build":
        if kind == "build":
            assert a.piece is not None and a.site is not None
            error = build_error(st, seat, a.piece, SITE_BY_NAME[a.site])
            if error:
                raise _illegal(st, seat, error)
            w = _Work(st)
            w.do_build(seat, a.piece, SITE_BY_NAME[a.site])
            return w
        if kind == "endbuild":
            if not st.built_any:
                example = first_build(st, seat)
                if example is not None:
                    raise _illegal(
                        st,
                        seat,
                        f"you must build at least one floor: e.g. {notation(example)} is possible",
                        say(
                            "you must build at least one floor first, for example: {move}",
                            move=build_say(st, seat, example),
                        ),
                    )
            w = _Work(st)
            w.upd["phase"] = "invest"
            w.log(f"{name}: endbuild", say("{player} stops building and invests", player=who(seat)))
            return w
        raise _illegal(
            st,
            seat,
            f"{kind} belongs to phase 3 (Invest); finish building with endbuild first",
            say("buying and selling come after building: stop building first"),
        )
    if kind in ("build", "endbuild"):
        raise _illegal(
            st,
            seat,
            "building is over for this turn (phase 3: buy, sell, endturn)",
            say("building is over for this turn: buy, sell or end your turn"),
        )
    if kind == "buy":
        w = _Work(st)
        bought_neutral = st.bought_neutral
        for p in a.pieces:
            error = buy_error(st, seat, p, w.cash[seat], w.supply[seat], w.neutral, bought_neutral)
            if error:
                raise _illegal(st, seat, error)
            w.cash[seat] -= PRICE[p]
            if p == "N":
                w.neutral -= 1
                bought_neutral = True
            else:
                w.supply[seat][COLOURED.index(p)] -= 1
            w.stock[seat].append(p)
        w.upd.update(bought_any=True, bought_neutral=bought_neutral)
        spent = sum(PRICE[p] for p in a.pieces)
        said = say(
            "{player} buys {pieces} for {amount} M",
            player=who(seat),
            pieces=words.pieces(a.pieces),
            amount=spent,
        )
        _invest_line(w, seat, notation(a), f"-{spent}", said)
        return w
    if kind == "sell":
        w = _Work(st)
        for p in a.pieces:
            if p == "S":
                raise _illegal(
                    st, seat, "Skyline floors cannot be sold", say("Skyline floors cannot be sold")
                )
            if p not in w.stock[seat]:
                raise _illegal(
                    st,
                    seat,
                    f"you have no {p} in stock to sell",
                    say(
                        "you have no {piece} in stock to sell",
                        piece=words.piece(p) if p in words.PIECES else p,
                    ),
                )
            w.stock[seat].remove(p)
            if p == "N":
                w.neutral += 1
            else:
                w.supply[seat][COLOURED.index(p)] += 1
            w.credit(seat, SELL[p])
        earned = sum(SELL[p] for p in a.pieces)
        said = say(
            "{player} sells {pieces} for {amount} M",
            player=who(seat),
            pieces=words.pieces(a.pieces),
            amount=earned,
        )
        _invest_line(w, seat, notation(a), f"+{earned}", said)
        return w
    # endturn
    if not st.built_any and not st.bought_any:
        cheapest = affordable(st, seat)
        if cheapest is not None:
            price = PRICE[cheapest]
            what = "a neutral floor" if cheapest == "N" else f"a {price} M floor"
            raise _illegal(
                st,
                seat,
                f"you must buy a floor: you can afford {what}",
                say(
                    "you must buy a floor before ending your turn: you can afford a {piece}",
                    piece=words.piece(cheapest),
                ),
            )
    w = _Work(st)
    w.log(f"{name}: endturn", say("{player} ends the turn", player=who(seat)))
    w.end_turn(seat)
    return w


def score_say(state: SkylineState, seat: int) -> Say:
    """``seat``'s prestige: penthouses, orange sites, mission, total."""
    sc = score(state, seat)
    return say(
        "{player}: {penthouses} for penthouses + {orange} for orange sites + {mission} for mission = {total}",
        player=who(seat),
        penthouses=sc.penthouses,
        orange=sc.orange,
        mission=MISSION_PP if sc.mission else 0,
        total=sc.total,
    )


def _tiebreak_step(found: TieBreak) -> Say:
    """A §5.3 step in words: what separated the players tied on prestige."""
    match found.step:
        case "penthouses":
            return say("Tie-break: the most penthouses")
        case "mission":
            return say("Tie-break: the completed mission")
        case "shared":
            return say("Still tied: a shared victory")
        case "third penthouse":
            return say("Tie-break: the first to build a third penthouse")
        case "nth penthouse":
            return say_n(
                "Tie-break: the first to build {count} penthouse",
                "Tie-break: the first to build {count} penthouses",
                found.penthouses,
            )
        case "cash":
            return say("Tie-break: the most cash")
    return say("Tie-break: the latest in turn order from the start player")


def tiebreak_says(state: SkylineState) -> list[Say]:
    """The tie for first place on prestige, if any, then each §5.3 step that separated the tied players;
    the last one named is the step that decided."""
    first, steps = tiebreak(state)
    if not steps:
        return []
    tie = say_n(
        "Tie for first place on {count} prestige point: {players}",
        "Tie for first place on {count} prestige points: {players}",
        score(state, first[0]).total,
        players=items(map(who, first)),
    )
    return [tie, *map(_tiebreak_step, steps)]


def _invest_line(w: _Work, seat: int, text: str, amount: str, said: Say) -> None:
    """§6: buys and sells of a player are public, except in the hidden variant ("Blue invested")."""
    name = colour(w.st, seat)
    if w.hidden:
        w.log(f"{name} invested", say("{player} invests", player=who(seat)))
        w.secret(f"{name}: {text} {amount}", said, seat)
    else:
        w.log(f"{name}: {text} {amount}", said)


def _claim(st: SkylineState, seat: int, a: Action) -> _Work:
    """§4.7: one claim per turn, card in hand and satisfied now; the reward is capped."""
    card = str(a.card)
    if card not in st.hands[seat]:
        raise _illegal(
            st,
            seat,
            f"{card} is not in your hand",
            say("{card} is not in your hand", card=words.card(card) if card in words.CARDS else card),
        )
    if st.claimed_this_turn:
        raise _illegal(
            st,
            seat,
            "only one bonus card may be claimed per turn",
            say("only one bonus card may be claimed per turn"),
        )
    if a.at:
        sites = tuple(SITE_BY_NAME[s] for s in a.at)
        if sites not in {p for _m, p in PLACEMENT_MASKS[card]}:
            raise _illegal(
                st,
                seat,
                f"{','.join(a.at)} is not a placement of {card}",
                say("{sites} is not a shape of {card}", sites=", ".join(a.at), card=words.CARDS[card]),
            )
        mask = topped_mask(st.board, seat)
        if any(not mask >> k & 1 for k in sites):
            raise _illegal(
                st,
                seat,
                f"{card} is not satisfied at {','.join(a.at)}",
                say(
                    "you do not top all of {sites} for {card}", sites=", ".join(a.at), card=words.CARDS[card]
                ),
            )
        placement: tuple[int, ...] | None = sites
    else:
        placement = satisfied_placement(st, seat, card)
        if placement is None:
            raise _illegal(
                st,
                seat,
                f"{card} is not satisfied",
                say("you do not top the buildings {card} asks for", card=words.CARDS[card]),
            )
    assert placement is not None
    w = _Work(st)
    reward = BONUS_CARDS[card].reward
    w.hands[seat].remove(card)
    w.claimed[seat].append(card)
    w.claimed_at[seat].append(_sites_text(placement))
    w.credit(seat, reward)
    w.upd["claimed_this_turn"] = True
    w.log(
        f"{colour(st, seat)}: claim {card} at={_sites_text(placement)} +{reward}",
        say(
            "{player} claims {card} with the buildings on {sites} and earns {amount} M",
            player=who(seat),
            card=words.CARDS[card],
            sites=words.sites(placement),
            amount=reward,
        ),
    )
    return w


# ---------------------------------------------------------------------------------------------
# The rules object


class SkylineRules(RulesDefaults):
    """*Skyline of the World* (2nd edition) for 2–4 players, with the hidden and tournament options."""

    name: ClassVar[str] = "skyline"
    title: ClassVar[str] = "Skyline of the World"
    summary: ClassVar[str] = (
        "Build skyscrapers floor by floor on a 6×6 city: a 1 M floor starts a building, each higher floor "
        "pays its value to the owner of the floor below. Your largest connected group of topped buildings "
        "pays income every turn. Penthouses, orange sites and a secret mission give prestige; bonus cards "
        "pay for patterns of buildings. The first to build a third penthouse ends the game after one more "
        "turn for everyone else. Most prestige wins."
    )
    seat_counts: ClassVar[range] = range(2, 5)
    options: ClassVar[Mapping[str, str]] = {
        "hidden": "advanced game: cash and floor stock are hidden from the other players",
        "tournament": "tournament tie-break: a winner is always named (first third penthouse, ...)",
    }
    state_model: ClassVar[type[BaseModel]] = SkylineState
    # §6: bonus cards come off the face-down deck. The private events only tell a seat its own money,
    # stock and hand (the hidden option), which draws from the deck aside it knew already.
    hidden_piles: ClassVar[Mapping[str, HiddenPile] | None] = {"deck": HiddenPile()}
    private_events_reveal: ClassVar[bool] = False

    def setup(self, seats: int, seed: int, options: frozenset[str]) -> SkylineState:
        """The opening state after §3, with the start player's (empty) income resolved."""
        self.validate_setup(seats, options)
        return _opening(seats, seed, options)[0]

    def setup_events(self, seats: int, seed: int, options: frozenset[str] = frozenset()) -> list[Event]:
        """The setup log: private missions and hands, public deal sizes, the start player, first income."""
        self.validate_setup(seats, options)
        return _opening(seats, seed, options)[1]

    def to_act(self, state: SkylineState) -> frozenset[int]:
        """The active player; nobody once the game is over."""
        return frozenset() if state.phase == "over" else frozenset((state.active,))

    def legal_actions(self, state: SkylineState, seat: int) -> Sequence[Action]:
        """Phase 2: builds (piece then site), claims, one exchange, ``endbuild`` when allowed.
        Phase 3: single-piece buys and sells, claims, one exchange, ``endturn`` when allowed.

        ``apply`` also accepts multi-piece buy/sell lists, ``claim … at=…`` and any three-card exchange.
        """
        return _legal(state, seat)

    def apply(self, state: SkylineState, seat: int, action: Action) -> Step[SkylineState]:
        """Resolve ``action`` and every automatic step after it (income, final turns, scoring)."""
        if state.phase == "over":
            raise IllegalAction("the game is over", say=say("the game is over"))
        if seat != state.active:
            raise NotYourTurn(
                f"it is {colour(state, state.active)}'s turn",
                say=say("it is {player}'s turn", player=who(state.active)),
            )
        w = _resolve(state, seat, action)
        after = w.freeze()
        prefix = f"{colour(state, seat)}"
        line = next((e.text for e in w.events if e.is_public and e.text.startswith(prefix)), "")
        return Step(after.model_copy(update={"last_move": line}), tuple(w.events))

    def automatic(self, state: SkylineState, seat: int) -> Action | None:
        """``endbuild`` or ``endturn`` when ending is the seat's only choice: nothing to build, buy or
        sell, no claim, fewer than three bonus cards (§4.4 lets the host send it for the player)."""
        if state.phase == "over" or seat != state.active:
            return None
        legal = self.legal_actions(state, seat)
        ending = len(legal) == 1 and legal[0].kind in ("endbuild", "endturn")
        # Three cards of a larger hand to exchange, or floors to sell, are choices too, though
        # ``legal_actions`` does not list them one by one.
        exchanging = len(state.hands[seat]) > EXCHANGE_COUNT
        selling = state.phase == "invest" and bool(sellable(state, seat))
        if ending and not exchanging and not selling:
            return legal[0]
        return None

    def outcome(self, state: SkylineState) -> Outcome | None:
        """Prestige points and places once over (§5.2, §5.3)."""
        if state.phase != "over":
            return None
        trigger = state.trigger
        return Outcome(
            scores=tuple(score(state, s).total for s in range(state.seats)),
            places=places(state),
            reason=state.end_reason,
            details=state.result,
            reason_say=say("{player} built a third penthouse", player=who(trigger))
            if trigger is not None
            else say("no floor was built for two full rounds"),
            breakdown=(*(score_say(state, s) for s in range(state.seats)), *tiebreak_says(state)),
            unit="prestige",
        )

    def view(self, state: SkylineState, seat: int | None) -> BaseModel:
        """``PublicView`` for ``None``; ``PrivateView`` (mission, hand, own money, legal) for a seat."""
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

    def is_public_action(self, state: SkylineState, seat: int, action: Action) -> bool:
        """Bonus cards are exchanged from the secret hand; in the hidden variant (§6) buys and sells are
        secret too, the public learns only that the player invested."""
        if action.kind == "exchange":
            return False
        return not (state.hidden and action.kind in ("buy", "sell"))

    def resample_secrets(self, state: SkylineState, seat: int, rng: Rng) -> SkylineState:
        """``seat``'s bonus hand redrawn from its cards and the deck (same size, deck reshuffled) and,
        until the end reveals it, its mission redrawn from its own and the undealt missions."""
        pool = rng.shuffled([*state.hands[seat], *state.deck])
        n = len(state.hands[seat])
        hands = list(state.hands)
        hands[seat] = tuple(sorted(pool[:n]))
        update: dict[str, object] = {"hands": tuple(hands), "deck": tuple(pool[n:])}
        if state.phase != "over":
            missions = rng.shuffled([state.missions[seat], *state.spare_missions])
            mine = list(state.missions)
            mine[seat] = missions[0]
            update["missions"] = tuple(mine)
            update["spare_missions"] = tuple(sorted(missions[1:]))
        return state.model_copy(update=update)


__all__ = ["ENDBUILD", "ENDTURN", "PIECES", "SkylineRules", "buy", "sell"]
