"""The log in words is worked out from the moves since it was last asked for, and always reads as a
replay of the whole match does: after moves, after a move taken back, from another host."""

from __future__ import annotations

from data.store import SqliteMatchStore
from engine.core.replay import replay
from engine.core.rng import Rng
from engine.host.ports import MatchRecord, MatchStatus, Player
from engine.host.public_events import Replayed, replayed
from engine.host.service import GameHost
from engine.registry import POLICIES

PEOPLE = [Player(user_id=100 + n, name=name) for n, name in enumerate(("ann", "bob", "cy"))]


async def started(host: GameHost, game: str, seed: int) -> MatchRecord:
    match = await host.create_match(game, 3, creator=PEOPLE[0], seed=seed)
    for person in PEOPLE[1:]:
        await host.join(match.id, person)
    return (await host.start(match.id, by_user=PEOPLE[0].user_id)).match


def user_at(match: MatchRecord, seat: int) -> int:
    player = match.player_at(seat)
    assert player is not None and player.user_id is not None
    return player.user_id


async def test_the_log_read_after_each_move_reads_as_a_whole_replay_does(store: SqliteMatchStore) -> None:
    host = GameHost(store)
    match = await started(host, "skyline", seed=5)
    rules, greedy = host.rules("skyline"), POLICIES["skyline"]["greedy"]
    undone = 0
    for step in range(40):
        if match.status is not MatchStatus.ACTIVE:
            break
        state = host.state_of(match)
        seat = min(rules.to_act(state))
        action = greedy.choose(rules, state, seat, rules.legal_actions(state, seat), Rng.from_seed(step))
        match = (await host.act(match.id, user_at(match, seat), rules.notation(action))).match
        if step % 7 == 3 and await host.can_undo(match, seat):
            match = await host.undo(match.id, user_at(match, seat))
            undone += 1
        for locale in ("en", "it"):
            lines = await host.public_log(match, limit=0, locale=locale)
            # A host that never read this match replays it from the opening.
            assert lines == await GameHost(store).public_log(match, limit=0, locale=locale)
        kept = host.public_events.last(match.id)
        assert kept is not None and list(kept.log) == await store.action_log(match.id)
    assert undone >= 2  # the log was shortened on the way, and read right after


async def test_a_kept_replay_is_built_on_only_when_the_log_goes_on_from_it(store: SqliteMatchStore) -> None:
    host = GameHost(store)
    match = await started(host, "ny_piatnik", seed=3)
    rules, greedy = host.rules("ny_piatnik"), POLICIES["ny_piatnik"]["greedy"]
    for step in range(6):
        state = host.state_of(match)
        seat = min(rules.to_act(state))
        action = greedy.choose(rules, state, seat, rules.legal_actions(state, seat), Rng.from_seed(step))
        match = (await host.act(match.id, user_at(match, seat), rules.notation(action))).match
    log = await store.action_log(match.id)
    whole = replayed(rules, match, log, None)
    state, _ = replay(rules, match.seat_count, match.seed, match.options, log)
    assert whole.state == state
    # Built on: what the kept replay holds is carried on (a marked state shows it was not redone).
    first_two = replayed(rules, match, log[:2], None)
    marked = first_two.public[:1]
    built = replayed(rules, match, log, Replayed(first_two.opening, first_two.log, first_two.state, marked))
    assert built.state == whole.state
    assert built.public == marked + whole.public[len(first_two.public) :]
    # Not built on: another opening, or a log that does not go on from the kept one.
    other_seed = Replayed((3, match.seed + 1, match.options), first_two.log, first_two.state, marked)
    assert replayed(rules, match, log, other_seed) == whole
    changed = (*log[:1], log[1].model_copy(update={"seat": (log[1].seat + 1) % 3}))
    elsewhere = Replayed(first_two.opening, changed, first_two.state, marked)
    assert replayed(rules, match, log, elsewhere) == whole
    shorter = replayed(rules, match, log[:1], whole)
    assert shorter == replayed(rules, match, log[:1], None)
