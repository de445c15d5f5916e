"""``clock-sim``: a whole match on a virtual clock, where every seat but one answers in time and that one
never does, to watch the reminders, timeouts and the takeover that keep a match from blocking."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from engine.core.rng import Rng, bot_rng
from engine.host.clock import ALLOWANCES, Pace, Reminder, SeatClock
from engine.host.ports import MatchRecord, MatchStatus, MatchStore, Player
from engine.host.service import GameHost
from engine.host.timekeeper import Happened, Timekeeper

# The virtual clock starts here; only the hours since matter.
EPOCH = datetime(2026, 1, 5, 9, tzinfo=UTC)
# The stream of the seed that decides how soon each answering player moves.
ANSWER_STREAM = 7
# A safety net against a match that would never end.
MAX_STEPS = 100_000


class VirtualClock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


class _Silence:
    """The herald of the simulation: reminders are only counted."""

    async def remind(self, match: MatchRecord, clock: SeatClock, reminder: Reminder, left: timedelta) -> None:
        return None


async def simulate(
    store: MatchStore,
    game: str,
    players: int,
    pace: Pace,
    silent_seat: int,
    seed: int,
    emit: Callable[[dict[str, Any]], None],
) -> dict[str, Any]:
    """Play the match; ``emit`` gets one record per reminder, timeout, takeover and the finish. Returns
    the summary."""
    if pace is Pace.NONE:
        raise ValueError("clock-sim needs a clock: relaxed, daily or fast")
    clock = VirtualClock(EPOCH)
    host = GameHost(store, seed_source=lambda: seed, clock=clock)
    keeper = Timekeeper(host, _Silence())
    people = [Player(user_id=1000 + n, name=f"P{n + 1}") for n in range(players)]
    if not 0 <= silent_seat < players:
        raise ValueError(f"--silent-seat must be a seat from 0 to {players - 1}")
    match = await host.create_match(game, players, creator=people[0], pace=pace)
    for person in people[1:]:
        await host.join(match.id, person)
    match = (await host.start(match.id)).match
    rules = host.rules(game)
    per_move = ALLOWANCES[pace].per_move
    answers = Rng.from_seed(seed, ANSWER_STREAM)
    answer_at: dict[int, datetime] = {}  # when each answering seat to act will move
    counts = {event: 0 for event in Happened}

    def hours() -> float:
        return round((clock.now - EPOCH) / timedelta(hours=1), 3)

    for _ in range(MAX_STEPS):
        match = await host.match(match.id)
        if match.status is not MatchStatus.ACTIVE:
            break
        to_act = rules.to_act(host.state_of(match))
        for seat in list(answer_at):
            if seat not in to_act:
                del answer_at[seat]
        for seat in to_act:
            player = match.player_at(seat)
            if seat != silent_seat and player is not None and player.bot is None and seat not in answer_at:
                # An answering player moves within the first half of their time.
                answer_at[seat] = clock.now + per_move * (5 + answers.below(46)) / 100
        due = await store.next_clock_due()
        moments = [*answer_at.values(), *([due] if due is not None else [])]
        if not moments:
            raise RuntimeError(f"match {match.id} waits for nobody and nothing is due")
        clock.now = max(clock.now, min(moments))
        answering = [seat for seat, at in answer_at.items() if at <= clock.now]
        if answering:
            seat = answering[0]
            del answer_at[seat]
            await _play_turn(host, match, seat)
            continue
        for fired in await keeper.sweep():
            counts[fired.event] += 1
            emit({"t_hours": hours(), "event": fired.event.value, "seat": fired.seat})
    match = await host.match(match.id)
    finished = match.status is MatchStatus.FINISHED
    if finished:
        emit({"t_hours": hours(), "event": "finished", "seat": None})
    return {
        "reminders": counts[Happened.REMINDER],
        "timeouts": counts[Happened.TIMEOUT] + counts[Happened.TAKEOVER],
        "takeovers": counts[Happened.TAKEOVER],
        "finished": finished,
        "t_hours": hours(),
    }


async def _play_turn(host: GameHost, match: MatchRecord, seat: int) -> None:
    """The seat's player plays their whole turn as the greedy computer player would."""
    rules = host.rules(match.game)
    player = match.player_at(seat)
    assert player is not None and player.user_id is not None
    policy = host.policy(match.game, "greedy")
    while match.status is MatchStatus.ACTIVE:
        state = host.state_of(match)
        if seat not in rules.to_act(state):
            return
        legal = rules.legal_actions(state, seat)
        action = policy.choose(rules, state, seat, legal, bot_rng(match.seed, match.version))
        match = (await host.act(match.id, player.user_id, rules.notation(action))).match
