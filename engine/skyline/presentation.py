"""How Skyline of the World reads in chat: its moves in words, builds in lists that fit one select, the
runs of moves that finish a turn, the choices of several cards or floors at once, the seats' colours and
what ``/rules`` teaches."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from itertools import product
from typing import ClassVar

from engine.core.presentation import MultiSelect, PresentationDefaults, Shortcut
from engine.core.say import Level, Say, items
from engine.skyline import words
from engine.skyline.actions import ENDBUILD, ENDTURN, Action, buy, notation
from engine.skyline.cards import (
    COLOURED,
    EXCHANGE_COUNT,
    EXCHANGE_REWARD,
    PRICE,
    SELL,
    SITE_BY_NAME,
    SITES,
    piece_order,
    site_name,
)
from engine.skyline.rules import (
    SkylineRules,
    build_say,
    buy_error,
    legal_builds,
    satisfied_placement,
    sellable,
)
from engine.skyline.state import SkylineState, colour
from engine.skyline.words import say

# The rules the menus try their runs of moves against.
_RULES = SkylineRules()

MENU_LIST = 25  # options in one chat select
WEST = len(SITES) // 2  # site indices run column by column, so columns A-C come first


@lru_cache(maxsize=256)
def build_levels(st: SkylineState, seat: int) -> Mapping[str, Level]:
    """The menu level of each legal build of ``seat``, by notation: pieces in stock order, as many to a
    list as one select holds; a piece with more sites than that is split into columns A-C and D-F."""
    by_piece: dict[str, list[Action]] = {}
    for a in legal_builds(st, seat):
        by_piece.setdefault(str(a.piece), []).append(a)
    lists: list[tuple[list[str], list[Action], str]] = []  # pieces, builds, columns ("" for all)
    for piece, builds in by_piece.items():
        if len(builds) > MENU_LIST:
            west = [a for a in builds if SITE_BY_NAME[str(a.site)] < WEST]
            lists.append(([piece], west, "A-C"))
            lists.append(([piece], [a for a in builds if a not in west], "D-F"))
        elif lists and not lists[-1][2] and len(lists[-1][1]) + len(builds) <= MENU_LIST:
            lists[-1][0].append(piece)
            lists[-1][1].extend(builds)
        else:
            lists.append(([piece], builds, ""))
    levels: dict[str, Level] = {}
    for pieces, builds, columns in lists:
        key = "build " + "+".join(pieces) + (f" {columns}" if columns else "")
        if len(pieces) > 1:
            label = say("Build a floor: {pieces}", pieces=items(map(words.piece, pieces), "comma"))
        elif columns:
            label = say("Build a {piece} in columns {columns}", piece=words.piece(pieces[0]), columns=columns)
        else:
            label = say("Build a {piece}", piece=words.piece(pieces[0]))
        levels.update((notation(a), Level(key=key, label=label)) for a in builds)
    return levels


def purchases(st: SkylineState, seat: int) -> list[tuple[str, ...]]:
    """The sets of floors ``seat`` can buy together now (§4.3: cash, supply, one neutral floor a turn),
    with at most two 1 M floors and one of each other piece (a stock for the levels of a building),
    fewest first, each in stock order."""
    out: list[tuple[str, ...]] = []
    for counts in product(range(3), *([range(2)] * (len(COLOURED) - 1 + 1))):
        pieces = tuple(p for p, n in zip((*COLOURED, "N"), counts, strict=True) for _ in range(n))
        cash, supply, neutral, bought_neutral = (
            st.cash[seat],
            list(st.supply[seat]),
            st.neutral_supply,
            st.bought_neutral,
        )
        for p in pieces:
            if buy_error(st, seat, p, cash, supply, neutral, bought_neutral):
                break
            cash -= PRICE[p]
            if p == "N":
                neutral, bought_neutral = neutral - 1, True
            else:
                supply[COLOURED.index(p)] -= 1
        else:
            if pieces:
                out.append(pieces)
    return sorted(out, key=lambda ps: (-len(ps), [piece_order(p) for p in ps]))


def finishing(st: SkylineState, seat: int) -> list[Shortcut]:
    """Runs of moves that end ``seat``'s turn from here: stop building if need be, buy nothing or some
    floors, end the turn. Only runs the rules accept move by move are listed."""
    if st.phase == "over" or seat != st.active:
        return []
    legal = _RULES.legal_actions(st, seat)
    if st.phase == "build":
        if ENDBUILD not in legal:
            return []
        first: tuple[Action, ...] = (ENDBUILD,)
        investing = _RULES.apply(st, seat, ENDBUILD).state
    else:
        first, investing = (), st
    if _RULES.automatic(investing, seat) is not None:
        return []  # the host ends the turn at once: nothing to shorten
    out: list[Shortcut] = []
    if first and ENDTURN in _RULES.legal_actions(investing, seat):
        out.append(Shortcut(moves=(notation(ENDBUILD), notation(ENDTURN)), label=say("End your turn")))
    listed = Level(key="buy and end", label=say("Buy floors and end your turn"))
    in_list = 0
    for pieces in purchases(investing, seat):
        # While building, one floor bought on the way out stands alone (a button where there is room);
        # the rest share one list.
        alone = len(pieces) == 1
        if not alone and in_list == MENU_LIST:
            continue
        in_list += not alone
        if len(pieces) == 1:
            label = say("Buy a {piece}, end turn", piece=words.piece(pieces[0]))
        else:
            spent = sum(PRICE[p] for p in pieces)
            label = say("Buy {pieces} for {amount} M, end turn", pieces=words.pieces(pieces), amount=spent)
        moves = (*first, *(buy([p]) for p in pieces), ENDTURN)
        out.append(Shortcut(moves=tuple(map(notation, moves)), label=label, path=() if alone else (listed,)))
    return out


class SkylinePresentation(PresentationDefaults):
    """*Skyline of the World* in words and menus."""

    how_to: ClassVar[Sequence[Say]] = words.HOW_TO
    glossary: ClassVar[Sequence[Say]] = words.GLOSSARY
    option_says: ClassVar[Mapping[str, Say]] = words.OPTIONS

    def multi_selects(self, state: SkylineState, seat: int) -> Sequence[MultiSelect]:
        """Exchange any three bonus cards (§4.8), and in phase 3 sell several pieces at once (§4.3)."""
        if state.phase == "over" or seat != state.active:
            return []
        out: list[MultiSelect] = []
        hand = state.hands[seat]
        # With three cards the one exchange there is is a legal action of its own: nothing to choose.
        if len(hand) > EXCHANGE_COUNT:
            out.append(
                MultiSelect(
                    label="Exchange three bonus cards for 5 M",
                    template="exchange {}",
                    items=hand,
                    min_items=EXCHANGE_COUNT,
                    max_items=EXCHANGE_COUNT,
                    title=say("Exchange three bonus cards for {amount} M", amount=EXCHANGE_REWARD),
                    item_labels=tuple(map(words.card, hand)),
                )
            )
        selling = sellable(state, seat)
        if state.phase == "invest" and selling:
            out.append(
                MultiSelect(
                    label="Sell pieces from your stock",
                    template="sell {}",
                    items=selling,
                    max_items=len(selling),
                    title=say("Sell floors from your stock"),
                    item_labels=tuple(
                        say("{piece} for {amount} M", piece=words.piece(p), amount=SELL[p]) for p in selling
                    ),
                )
            )
        return out

    def describe(self, state: SkylineState, seat: int, action: Action) -> Say:
        """The action in words, e.g. "Build a 2 M floor on C4, paying Bob 2 M"."""
        kind = action.kind
        if kind == "build":
            return build_say(state, seat, action)
        if kind == "endbuild":
            return say("Stop building")
        if kind == "buy":
            spent = sum(PRICE[p] for p in action.pieces)
            return say("Buy {pieces} for {amount} M", pieces=words.pieces(action.pieces), amount=spent)
        if kind == "sell":
            earned = sum(SELL[p] for p in action.pieces)
            return say("Sell {pieces} for {amount} M", pieces=words.pieces(action.pieces), amount=earned)
        if kind == "claim":
            card = str(action.card)
            return say("Claim {card}", card=words.card(card))
        if kind == "exchange":
            if len(state.hands[seat]) == EXCHANGE_COUNT and sorted(state.hands[seat]) == sorted(action.cards):
                # The whole hand: the short label leaves room for the turn's other choices.
                return say("Exchange your three bonus cards for {amount} M", amount=EXCHANGE_REWARD)
            return say(
                "Exchange {cards} for {amount} M", cards=words.cards(action.cards), amount=EXCHANGE_REWARD
            )
        return say("End your turn")

    def menu_path(self, state: SkylineState, seat: int, action: Action) -> Sequence[Level]:
        """Builds by piece (then the site), buys, sells and claims each under one heading."""
        kind = action.kind
        if kind == "build":
            level = build_levels(state, seat).get(notation(action))
            if level is not None:
                return (level,)
            piece = str(action.piece)
            return (Level(key=f"build {piece}", label=say("Build a {piece}", piece=words.piece(piece))),)
        if kind in ("buy", "sell"):
            # One list for trading floors one at a time: the ways to end the turn take the buttons.
            return (Level(key="trade", label=say("Buy or sell a floor")),)
        if kind == "claim":
            return (Level(key="claim", label=say("Claim a bonus card")),)
        return ()

    def shortcuts(self, state: SkylineState, seat: int) -> Sequence[Shortcut]:
        """Ways to finish the turn in one choice: stop building (in phase 2), buy nothing or one or two
        floors, and end the turn; each move is checked and logged on its own."""
        return finishing(state, seat)

    def places_of(self, state: SkylineState, seat: int, action: Action) -> tuple[str, ...]:
        """The site a floor goes on, or the sites a bonus card is claimed for."""
        if action.kind == "build":
            return (str(action.site),)
        if action.kind == "claim":
            # A card claimed without naming its sites scores the first shape it finds, as the rules do.
            found = () if action.at else satisfied_placement(state, seat, str(action.card)) or ()
            return action.at or tuple(site_name(site) for site in found)
        return ()  # stopping, buying, selling, exchanging and ending the turn

    def place_name(self, state: SkylineState, place: str) -> Say:
        """A site by the letters and numbers along the board's edges: "site C4"."""
        return say("site {site}", site=place)

    def seat_colour(self, state: SkylineState, seat: int) -> str | None:
        return colour(state, seat)
