"""Moves the rules make for a person: the host plays them at once instead of waiting for a tap."""

from __future__ import annotations

from collections import Counter

from data.store import SqliteMatchStore
from engine.core.replay import replay
from engine.core.rng import Rng
from engine.host.ports import MatchStatus, Player
from engine.host.service import GameHost
from engine.registry import POLICIES

PEOPLE = [Player(user_id=100 + n, name=name) for n, name in enumerate(("ann", "bob", "cy"))]


async def test_a_forced_ending_is_played_for_the_person(store: SqliteMatchStore) -> None:
    host = GameHost(store)
    match = await host.create_match("skyline", 3, creator=PEOPLE[0], seed=5)
    for person in PEOPLE[1:]:
        await host.join(match.id, person)
    await host.start(match.id, by_user=PEOPLE[0].user_id)
    rules, greedy = host.rules("skyline"), POLICIES["skyline"]["greedy"]
    submitted: list[tuple[int, str]] = []
    for step in range(300):
        match = await host.match(match.id)
        if match.status is not MatchStatus.ACTIVE:
            break
        state = host.state_of(match)
        seat = min(rules.to_act(state))
        # Whenever a person is asked, the rules leave them a real choice.
        assert rules.automatic(state, seat) is None
        action = greedy.choose(rules, state, seat, rules.legal_actions(state, seat), Rng.from_seed(step))
        player = match.player_at(seat)
        assert player is not None and player.user_id is not None
        await host.act(match.id, player.user_id, rules.notation(action))
        submitted.append((seat, rules.notation(action)))
    log = await store.action_log(match.id)
    made_for_them = Counter((a.seat, a.notation) for a in log) - Counter(submitted)
    assert made_for_them, "no forced ending came up, so this test proves nothing"
    assert {notation for _, notation in made_for_them} <= {"endbuild", "endturn"}
    # The log holds those moves like any other, so the match replays exactly.
    final = await host.match(match.id)
    replayed, _ = replay(rules, 3, final.seed, final.options, log)
    assert replayed.model_dump() == host.state_of(final).model_dump()
