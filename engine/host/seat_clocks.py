"""The seat clocks of running matches, beside the timekeeper that fires them: how the clocks change when
whose turn it is changes, and what happens when a person's time runs out (a computer plays their turn,
and after ``TIMEOUTS_TO_KEEP`` timeouts in a row keeps their seat until they come back).

It reaches the store only through ``ClockStore``: the seat clocks, the absences and a seat's handover.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Sequence
from datetime import datetime
from typing import Any, Protocol

from pydantic import BaseModel

from engine.core.contract import GameRules
from engine.core.errors import LobbyError, NotSeated
from engine.core.say import Say
from engine.host.clock import (
    ALLOWANCES,
    TIMEOUTS_TO_KEEP,
    AbsencesSeen,
    ClockChange,
    Pace,
    SeatClock,
    begin_turn,
    clocks_after,
    end_turn,
)
from engine.host.computers import StandIn
from engine.host.lobby import judged_afresh, unless_moved
from engine.host.locks import MatchLocks
from engine.host.names import COMPUTER_SUFFIX
from engine.host.ports import DeliveryDraft, MatchRecord, MatchStatus, Notice, Player, Scope, payload
from engine.host.refusals import require_active
from engine.host.text import HOST

log = logging.getLogger(__name__)


class ClockStore(Protocol):
    """The part of a ``MatchStore`` that the seat clocks read and write."""

    async def seat_clocks(self, match_id: int) -> list[SeatClock]: ...

    async def due_clocks(self, now: datetime, limit: int = 100) -> list[SeatClock]: ...

    async def settle_clock(self, old: SeatClock, new: SeatClock) -> bool: ...

    async def absences(
        self, user_ids: Sequence[int], ending_after: datetime
    ) -> dict[int, list[tuple[datetime, datetime]]]: ...

    async def replace_player(
        self,
        match_id: int,
        expected_version: int,
        seat: int,
        player: Player,
        deliveries: Sequence[DeliveryDraft] = (),
        clocks: ClockChange | None = None,
    ) -> MatchRecord: ...


class ClockedHost(Protocol):
    """What the seat clocks need of the host: its time, its matches and their computer players."""

    clock: Callable[[], datetime]

    async def match(self, match_id: int, scope: Scope | None = None) -> MatchRecord: ...

    def rules(self, game: str) -> GameRules[Any, Any]: ...

    def state_of(self, match: MatchRecord) -> BaseModel: ...

    def strongest_policy(self, game: str) -> str: ...

    async def not_playing(self, match: MatchRecord, user_id: int, refusal: Say) -> NotSeated: ...

    async def play_computers(
        self, match: MatchRecord, state: BaseModel, lines: list[str], stand_in: StandIn | None = None
    ) -> MatchRecord: ...


class SeatClocks:
    """Moves the seat clocks of a host's matches, and plays the turns whose time ran out."""

    def __init__(self, host: ClockedHost, store: ClockStore, locks: MatchLocks) -> None:
        """``locks``: the host's own, so that a timeout never overlaps a move."""
        self.host = host
        self.store = store
        self.locks = locks

    async def due(self, now: datetime, limit: int = 100) -> list[SeatClock]:
        """The seat clocks whose reminder or deadline has fallen by ``now``, the earliest first."""
        return await self.store.due_clocks(now, limit)

    async def settle(self, old: SeatClock, new: SeatClock) -> bool:
        """Replace ``old`` by ``new`` if it is still as read; whether it was."""
        return await self.store.settle_clock(old, new)

    async def by_seat(self, match: MatchRecord) -> dict[int, SeatClock]:
        """``match``'s seat clocks by seat (none without a clock)."""
        return {clock.seat: clock for clock in await self.store.seat_clocks(match.id)}

    async def expire(self, due: SeatClock) -> MatchRecord | None:
        """The time of ``due``'s seat has run out: a computer plays that turn for its player, who is told,
        and after ``TIMEOUTS_TO_KEEP`` timeouts in a row keeps the seat until they come back (``back``).
        None when the clock moved on since ``due`` was read (the player moved, or it already fired)."""
        async with self.locks(due.match_id):
            match = await self.host.match(due.match_id)
            if match.status is not MatchStatus.ACTIVE or match.pace is Pace.NONE:
                return None
            current = (await self.by_seat(match)).get(due.seat)
            now = self.host.clock()
            if current != due or current.deadline is None or current.deadline > now:
                return None
            player = match.player_at(due.seat)
            rules = self.host.rules(match.game)
            state = self.host.state_of(match)
            if player is None or player.bot is not None or due.seat not in rules.to_act(state):
                await self.store.settle_clock(current, end_turn(current, ALLOWANCES[match.pace], now))
                return None
            policy = self.host.strongest_policy(match.game)
            keep = current.timeouts + 1 >= TIMEOUTS_TO_KEEP
            log.info(
                "match %s: the time of seat %s ran out (timeout %s in a row)",
                match.id,
                due.seat,
                current.timeouts + 1,
            )
            if keep:
                said = HOST.say(
                    "{player} let the time run out twice in a row: a computer plays their seat until they "
                    "come back with /game return",
                    player=player.name,
                )
                ended = end_turn(current, ALLOWANCES[match.pace], now, timed_out=True)
                away = player.model_copy(
                    update={"bot": policy, "name": f"{player.name}{COMPUTER_SUFFIX}", "absent": True}
                )
                to_act = tuple(sorted(rules.to_act(state)))
                notices = [
                    DeliveryDraft(payload=payload(Notice(says=(said,), to_act=to_act))),
                    DeliveryDraft(
                        seat=due.seat, payload=payload(Notice(says=(said,), to_act=to_act, personal=True))
                    ),
                ]
                match = await self.store.replace_player(
                    match.id,
                    match.version,
                    due.seat,
                    away,
                    deliveries=notices,
                    clocks=ClockChange(clocks=(ended,), timeouts=(ended,)),
                )
                return await self.host.play_computers(match, state, [])
            said = HOST.say("Time ran out for {player}: a computer played their turn", player=player.name)
            return await self.host.play_computers(match, state, [], StandIn(due.seat, policy, (said,)))

    async def back(self, match_id: int, user_id: int, scope: Scope | None = None) -> MatchRecord:
        """Give ``user_id`` back the seat a computer kept after their timeouts (``/game return``)."""
        return await judged_afresh(lambda: self._back(match_id, user_id, scope))

    async def _back(self, match_id: int, user_id: int, scope: Scope | None) -> MatchRecord:
        async with self.locks(match_id):
            match = await self.host.match(match_id, scope)
            require_active(match)
            seat = match.seat_of(user_id)
            player = match.player_at(seat) if seat is not None else None
            if seat is None or player is None:
                not_seated = HOST.say("you are not playing in match #{number}", number=match_id)
                raise await self.host.not_playing(match, user_id, not_seated)
            if not player.absent:
                if player.resigned:
                    raise LobbyError(
                        HOST.say(
                            "you resigned from match #{number}: a computer plays your seat", number=match_id
                        )
                    )
                raise LobbyError(HOST.say("your seat in match #{number} is already yours", number=match_id))
            returned = player.model_copy(
                update={"bot": None, "name": player.name.removesuffix(COMPUTER_SUFFIX), "absent": False}
            )
            said = HOST.say("{player} is back and plays their seat again", player=returned.name)
            rules = self.host.rules(match.game)
            state = self.host.state_of(match)
            to_act = tuple(sorted(rules.to_act(state)))
            reset = None
            if match.pace is not Pace.NONE:
                rows = await self.by_seat(match)
                clock = rows.get(seat) or SeatClock(match_id=match.id, seat=seat, user_id=user_id)
                clock = clock.model_copy(update={"timeouts": 0, "user_id": user_id})
                if seat in to_act and not clock.running:
                    clock = begin_turn(clock, ALLOWANCES[match.pace], self.host.clock())
                reset = ClockChange(clocks=(clock,))
            notice = Notice(says=(said,), to_act=to_act)
            return await unless_moved(
                self.store.replace_player(
                    match_id,
                    match.version,
                    seat,
                    returned,
                    deliveries=[DeliveryDraft(payload=payload(notice))],
                    clocks=reset,
                )
            )

    async def stop_clock(self, match: MatchRecord, seat: int) -> ClockChange | None:
        """The seat's clock stopped (a computer takes the seat over), its bank kept."""
        if match.pace is Pace.NONE:
            return None
        rows = await self.by_seat(match)
        if seat not in rows or not rows[seat].running:
            return None
        return ClockChange(clocks=(end_turn(rows[seat], ALLOWANCES[match.pace], self.host.clock()),))

    async def clock_change(
        self,
        match: MatchRecord,
        before: Collection[int],
        after: Collection[int],
        timed_out: Collection[int] = (),
        undone: bool = False,
    ) -> ClockChange | None:
        """The seat clocks that change when the seats to act go from ``before`` to ``after``; None for a
        match without a clock, or when nobody's turn begins or ends. ``undone``: moves taken back made
        the change (see ``engine.host.clock.clocks_after``)."""
        if match.pace is Pace.NONE or (set(before) == set(after) and not timed_out):
            return None
        people = {
            p.seat: p.user_id
            for p in match.players
            if p.user_id is not None and p.bot is None and p.seat is not None
        }
        if not people:
            return None
        now = self.host.clock()
        beginning = sorted({people[s] for s in after if s in people and s not in before})
        found = await self.store.absences(beginning, now)
        away = {
            user: max(end for start, end in spans if start <= now)
            for user, spans in found.items()
            if any(start <= now for start, _ in spans)
        }
        rows = await self.by_seat(match)
        allowance = ALLOWANCES[match.pace]
        changed = clocks_after(
            match.id, rows, people, before, after, allowance, now, away, timed_out, undone=undone
        )
        return ClockChange(
            clocks=tuple(changed),
            timeouts=tuple(c for c in changed if c.seat in timed_out),
            absences_seen=AbsencesSeen(users=tuple(beginning), as_of=now, found=found) if beginning else None,
        )
