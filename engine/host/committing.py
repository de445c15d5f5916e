"""Committing a move: the action with its snapshot, the notices it causes and the clocks it moves, in
one transaction, after which the end of a finished match is announced to the host's listeners."""

from __future__ import annotations

import itertools
import logging
from collections.abc import Awaitable, Callable, Collection, Sequence
from typing import Any

from pydantic import BaseModel

from engine.core.contract import Event, GameRules, dump_state
from engine.core.errors import AbsencesChanged
from engine.core.replay import LoggedAction
from engine.core.say import Say
from engine.host.ports import DeliveryDraft, MatchRecord, MatchStatus, MatchStore, Notice, payload
from engine.host.reading import RECENT_STATES, MatchReader
from engine.host.recent import Recent
from engine.host.seat_clocks import SeatClocks
from engine.host.text import HOST, sentence, told
from engine.host.undo import Taken, judged

log = logging.getLogger(__name__)

# How many times a move's clocks are worked out when the people whose turn it begins keep going away
# or coming back while it is written (each time the store refuses the clocks, not the move).
CLOCK_ATTEMPTS = 3


class Committer:
    """Commits the moves of a host's matches."""

    def __init__(
        self,
        store: MatchStore,
        reader: MatchReader,
        clocks: SeatClocks,
        finish_listeners: list[Callable[[MatchRecord], Awaitable[object]]],
    ) -> None:
        """``finish_listeners`` are awaited after the commit that finishes a match."""
        self.store = store
        self.reader = reader
        self.clocks = clocks
        self.finish_listeners = finish_listeners
        # What the moves committed lately revealed, by (match id, version): every board post asks
        # whether its latest move may be taken back, and playing the move again to find out was the
        # larger part of a post's own work.
        self.judged: Recent[tuple[int, int], Taken] = Recent(RECENT_STATES)

    async def commit(
        self,
        match: MatchRecord,
        rules: GameRules[Any, Any],
        seat: int,
        action: BaseModel,
        before: BaseModel,
        after: BaseModel,
        events: Sequence[Event],
        timed_out: Collection[int] = (),
        preface: Sequence[Say] = (),
    ) -> tuple[MatchRecord, list[str]]:
        """Store one accepted action with its snapshot, the notices it causes and the clocks it moves,
        in one transaction. ``timed_out``: seats a computer plays because their time ran out; ``preface``:
        sentences for the thread before the move's own."""
        notation = rules.notation(action)
        outcome = rules.outcome(after)
        to_act = tuple(sorted(rules.to_act(after)))
        turn_goes_on = outcome is None and to_act == tuple(sorted(rules.to_act(before)))
        public_lines = [e.text for e in events if e.is_public]
        headline = heading = None
        if outcome is not None:
            headline = f"game over: {outcome.reason}"
            reason = outcome.reason_say
            heading = HOST.say("Game over: {reason}", reason=reason) if reason else HOST.say("Game over")
        post = Notice(
            lines=tuple(public_lines),
            says=(*preface, *(sentence(e) for e in told(events) if e.is_public)),
            headline=headline,
            heading=heading,
            to_act=to_act,
            finished=outcome is not None,
        )
        notices = [DeliveryDraft(payload=payload(post))]
        if preface:
            # A player whose turn a computer played hears of it in private too.
            notices += [
                DeliveryDraft(seat=s, payload=payload(Notice(says=tuple(preface), to_act=to_act)))
                for s in sorted(timed_out)
            ]
        # Computer seats get private notices too: the notifier decides whether anyone reads them. Once
        # the match is over nothing is secret any more, and the final post says it all.
        for target in range(match.seat_count if outcome is None else 0):
            own = [e for e in events if e.audience is not None and target in e.audience]
            if own:
                secret = Notice(
                    lines=tuple(e.text for e in own),
                    says=tuple(map(sentence, told(own))),
                    to_act=to_act,
                    turn_goes_on=turn_goes_on,
                )
                notices.append(DeliveryDraft(seat=target, payload=payload(secret)))
        status = MatchStatus.FINISHED if outcome is not None else MatchStatus.ACTIVE
        snapshot = dump_state(after)
        player = match.player_at(seat)
        # A computer playing a person's seat (their time ran out, or it keeps or took over the seat)
        # plays for them: the log remembers it, so the move is never theirs to take back.
        stand_in = seat in timed_out or (
            player is not None and player.user_id is not None and player.bot is not None
        )
        logged = LoggedAction(seat=seat, notation=notation, stand_in=stand_in)
        for attempt in itertools.count(1):
            # Worked out again if a person whose turn this begins went away meanwhile (the store checks).
            clocks = await self.clocks.clock_change(
                match, rules.to_act(before), () if outcome is not None else to_act, timed_out
            )
            try:
                committed = await self.store.commit_action(
                    match.id,
                    match.version,
                    logged,
                    snapshot,
                    status=status,
                    result_json=outcome.model_dump_json() if outcome is not None else None,
                    deliveries=notices,
                    clocks=clocks,
                )
                break
            except AbsencesChanged:
                if attempt == CLOCK_ATTEMPTS:
                    raise
        self.reader.remember(committed, snapshot, after)
        self.judged.keep(
            (committed.id, committed.version),
            judged(rules, before, committed.version, logged, action, after, events),
        )
        # A log line names a move only when everyone may know it (the engine says which are secret).
        move = notation if rules.is_public_action(before, seat, action) else "a private move"
        log.info("match %s: seat %s played %s (version %s)", match.id, seat, move, committed.version)
        if committed.status is MatchStatus.FINISHED:
            await self._announce_finish(committed)
        return committed, public_lines

    async def _announce_finish(self, match: MatchRecord) -> None:
        for listener in self.finish_listeners:
            try:
                await listener(match)
            except Exception:
                log.exception("a listener failed for the end of match %s", match.id)
