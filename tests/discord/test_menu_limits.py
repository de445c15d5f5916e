"""No move menu can break Discord's limits: positions of every game, seat count and option, reached by
random and greedy self-play, have every menu a player can open there (each group and page, each choice
of several items, with and without Undo, in English and Italian) built into discord.py components and
checked by the same rules the fake Discord applies to every message. Every select's values are distinct
and each one still leads to a move or a group on offer."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from cogs._components import view_of
from data.store import SqliteMatchStore
from engine.core.contract import GameRules, dump_state
from engine.core.errors import SetupError
from engine.core.rng import bot_rng
from engine.host.controls import menu, picks
from engine.host.menu_pages import plan_picks
from engine.host.menus import MAX_OPTIONS, PLAY, MenuEntry, parse_value, unkey
from engine.host.outgoing import Outgoing
from engine.host.ports import MatchRecord, MatchStatus, Player
from engine.host.service import GameHost
from engine.host.table import Table
from engine.registry import GAMES, POLICIES
from tests.discord.validation import message_problem

# How often a position of a self-played match is checked, and how long a match is played at most: about
# a thousand positions in all (about ten thousand menus), in about a minute of a busy two-core machine.
SHARE_CHECKED = 0.05
MOVES = 1500
LOCALES = ("en", "it")


def setups() -> Iterator[tuple[GameRules[Any, Any], int, frozenset[str]]]:
    """Every game at every seat count, with no option and with each option its seat count allows."""
    for rules in GAMES.values():
        for seats in rules.seat_counts:
            for options in [frozenset(), *(frozenset({option}) for option in rules.options)]:
                try:
                    rules.validate_setup(seats, options)
                except SetupError:
                    continue
                yield rules, seats, options


def positions(
    rules: GameRules[Any, Any], seats: int, options: frozenset[str], policy: str, seed: int
) -> Iterator[tuple[int, BaseModel]]:
    """A share of the positions of one self-played match, with the number of moves before each."""
    chooser = POLICIES[rules.name][policy]
    sample = random.Random(seed)
    state = rules.setup(seats, seed, options)
    for moves in range(MOVES):
        if rules.outcome(state) is not None:
            return
        if sample.random() < SHARE_CHECKED:
            yield moves, state
        seat = min(rules.to_act(state))
        action = chooser.choose(rules, state, seat, rules.legal_actions(state, seat), bot_rng(seed, moves))
        state = rules.apply(state, seat, action).state


def every_menu(table: Table, locale: str) -> Iterator[Outgoing]:
    """Every message a player's menu can show at ``table``: each page of each group it opens, then the
    select of each choice of several items."""
    seen: set[tuple[str, int]] = set()
    waiting = [("", 0)]
    while waiting:
        prefix, page = waiting.pop()
        if (prefix, page) in seen:
            continue
        seen.add((prefix, page))
        shown = menu(table, locale, prefix, page)
        yield shown
        for control in shown.controls:
            values = [o.value for o in control.options or ()]
            if control.address.startswith("pick:"):
                values.append(control.address.split(":", 3)[3])
            for value in values:
                resolved = unkey(value, table.menu)
                assert resolved is not None, f"{value!r} leads nowhere"
                kind, target, to_page = parse_value(resolved)
                if kind == "open":
                    waiting.append((target, to_page))
                else:
                    assert any(target == entry.notation for entry in table.menu), f"{value!r} is no move"
    for index, choice in enumerate(table.choices):
        chosen = plan_picks(locale, choice, table.name, MAX_OPTIONS)
        yield Outgoing("", picks(table.match.id, table.match.version, index, chosen, locale))


def problem_of(shown: Outgoing) -> str | None:
    """What Discord would refuse in ``shown``, sent as the bot sends it (None: nothing)."""
    components = view_of(shown.controls).to_components()
    refused = message_problem(
        content=shown.text or "-", embeds=(), components=components, attachments=0, flags=0
    )
    return None if refused is None else refused[1]


async def test_every_menu_of_a_thousand_positions_is_within_discords_limits(tmp_path: Path) -> None:
    store = await SqliteMatchStore.open(tmp_path / "menus.db")
    host = GameHost(store)
    checked_positions = checked_menus = 0
    try:
        for number, (rules, seats, options) in enumerate(setups()):
            players = tuple(
                Player(user_id=1000 + seat, name=f"player {seat}", seat=seat) for seat in range(seats)
            )
            for policy in ("random", "greedy"):
                seed = 7919 * number + len(policy)
                for moves, state in positions(rules, seats, options, policy, seed):
                    match = MatchRecord(
                        id=2**40 + number,  # a long match number, for the longest addresses
                        game=rules.name,
                        options=options,
                        seat_count=seats,
                        seed=seed,
                        status=MatchStatus.ACTIVE,
                        version=moves + 1,
                        players=players,
                        state_json=dump_state(state),
                        created_at="",
                        updated_at="",
                    )
                    to_act = tuple(sorted(rules.to_act(state)))
                    for seat in to_act:
                        checked_positions += 1
                        for locale in LOCALES:
                            table = Table(
                                match,
                                seat,
                                to_act,
                                False,
                                host.namer(match),
                                tuple(host.legal_menu(match, seat, locale)),
                                tuple(host.multi_selects(match, seat)),
                            )
                            for undo in (False, True):
                                for shown in every_menu(replace(table, may_undo=undo), locale):
                                    checked_menus += 1
                                    problem = problem_of(shown)
                                    where = f"{rules.name} {seats}p {sorted(options)} {policy} move {moves}"
                                    assert problem is None, f"{where}, seat {seat}, {locale}: {problem}"
    finally:
        await store.close()
    assert checked_positions > 1000 and checked_menus > 4 * checked_positions


def test_two_long_moves_alike_for_their_first_hundred_characters_stay_apart_and_play_themselves() -> None:
    common = "build " + "floor " * 20
    entries = tuple(
        MenuEntry(notation=f"{common}{end}", label=f"Build it all, then the {end}")
        for end in ("lobby", "roof")
    )
    match = MatchRecord(
        id=7,
        game="skyline",
        options=frozenset(),
        seat_count=2,
        seed=1,
        status=MatchStatus.ACTIVE,
        version=3,
        created_at="",
        updated_at="",
    )
    table = Table(match, 0, (0,), False, lambda seat: f"player {seat}", entries)
    shown = menu(table, "en")
    assert problem_of(shown) is None
    [select] = [control for control in shown.controls if control.options is not None]
    assert select.options is not None
    values = [option.value for option in select.options]
    assert len(set(values)) == 2 and all(len(value) <= 100 for value in values)
    assert [unkey(value, entries) for value in values] == [PLAY + entry.notation for entry in entries]
    # Once the menu has moved on, a key names nothing: the choice is refused, never played as another.
    assert unkey(values[0], entries[1:]) is None
