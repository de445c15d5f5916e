"""Every move menu fits Discord's grid: whatever a decision offers (groups, stand-alone moves, several-card
choices) and whether Undo is offered beside it, the menu is at most five rows of at most five buttons, as
the fake Discord checks every message."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from cogs._components import view_of
from data.store import SqliteMatchStore
from engine.core.rng import bot_rng
from engine.host.controls import menu
from engine.host.ports import MatchStatus, Player
from engine.host.service import GameHost
from tests.discord.validation import components_problem

# Long enough for every game to reach its several-card choices and scorings, short enough to stay quick.
MOVES = 400


async def check_every_menu(tmp_path: Path, game: str, seats: int, seed: int, policy: str) -> int:
    """Play a whole match by ``policy`` through the host, laying out the menu of each seat to act at every
    decision, with and without Undo, in both languages; returns how many menus were checked."""
    store = await SqliteMatchStore.open(tmp_path / f"{game}-{seats}-{seed}.db")
    try:
        host = GameHost(store)
        people = [Player(user_id=1000 + n, name=f"player {n}") for n in range(seats)]
        match = await host.create_match(game, seats, creator=people[0], seed=seed)
        for person in people[1:]:
            await host.join(match.id, person)
        await host.start(match.id, by_user=people[0].user_id)
        match = await host.match(match.id)
        rules = host.rules(game)
        chooser = host.policy(game, policy)
        checked = 0
        for _ in range(MOVES):
            if match.status is not MatchStatus.ACTIVE:
                break
            state = host.state_of(match)
            to_act = sorted(rules.to_act(state))
            for seat in to_act:
                seated = match.player_at(seat)
                assert seated is not None and seated.user_id is not None
                for locale in ("en", "it"):
                    table = await host.menu(match, seated.user_id, locale)
                    for undo in (False, True):
                        view = view_of(menu(replace(table, may_undo=undo), locale).controls)
                        problem = components_problem(view.to_components(), 0)
                        assert problem is None, f"version {match.version}, seat {seat}: {problem}"
                        checked += 1
            seat = to_act[0]
            action = chooser.choose(
                rules, state, seat, rules.legal_actions(state, seat), bot_rng(seed, match.version)
            )
            player = match.player_at(seat)
            assert player is not None and player.user_id is not None
            match = (await host.act(match.id, player.user_id, rules.notation(action))).match
        return checked
    finally:
        await store.close()


async def test_an_auction_with_five_bids_keeps_undo_on_a_row_of_its_own(tmp_path: Path) -> None:
    # Fifth Avenue, two players, seed 11, moves as the greedy player makes them: around turn 41 an auction
    # offers five several-card bids while the latest move may be taken back.
    assert await check_every_menu(tmp_path, "fifth_avenue", 2, 11, "greedy") > 0
