"""What the shared match store keeps around the matches: the outbox's reads, direct-message refusals,
turn pings, live posts, sent images, seat clocks and absences."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

from data import clocks as clockrows
from data import rows, sql
from data.clocks import utc_text
from data.quarantine import Unreadable, read_each, unreadable_row
from data.sql import Program
from data.sql_store.core import REMEMBER_IMAGE, D, StoreCore, save_turn_pings
from engine.core.errors import CorruptRecord
from engine.host.clock import ClockChange, SeatClock, paused
from engine.host.notify import TurnPing, Via
from engine.host.ports import AbsenceCheck, Delivery, LivePost, LivePrivate

log = logging.getLogger(__name__)

_DELIVERY_COLUMNS = ", ".join(f"d.{c.strip()}" for c in rows.DELIVERY_COLUMNS.split(","))
_PING_COLUMNS = ", ".join(f"p.{c.strip()}" for c in rows.PING_COLUMNS.split(","))


class NoticeMethods(StoreCore[D]):
    """The ``MatchStore`` methods around the matches (see ``SqlMatchStore``)."""

    def _owned_through(self, alias: str) -> tuple[str, str, tuple[object, ...]]:
        """The join from table ``alias`` to its match and the condition on it that keep the rows whose
        duties this store does (no join when every row is kept)."""
        owned, params = self._owned("m.guild_id")
        return (f"JOIN matches m ON m.id = {alias}.match_id" if owned else ""), owned, params

    # ------------------------------------------------------------------------------ deliveries

    async def pending_deliveries(self, limit: int = 100) -> list[Delivery]:
        """Up to ``limit`` deliveries still to send of the matches whose duties this store does, oldest
        first. A row that cannot be read is left out (and logged); ``pending_by_destination`` settles
        such rows."""
        join, owned, params = self._owned_through("d")
        statement = (
            f"SELECT {_DELIVERY_COLUMNS} FROM deliveries d {join} WHERE d.status = 'pending' {owned} "
            "ORDER BY d.id LIMIT ?"
        )

        def body() -> Program[list[Delivery]]:
            return rows.readable_deliveries((yield sql.rows(statement, *params, max(0, limit))))[0]

        return await self._read(body)

    async def has_private_notice(self, match_id: int, version: int, seat: int) -> bool:
        """Whether a private message to ``seat`` was recorded at ``version`` (sent or still to send)."""

        def body() -> Program[bool]:
            found = yield sql.value(
                "SELECT 1 FROM deliveries "
                "WHERE match_id = ? AND version = ? AND seat = ? AND status != 'failed' LIMIT 1",
                match_id,
                version,
                seat,
            )
            return found is not None

        return await self._read(body)

    async def forget_sent(self, before: datetime, limit: int = 5000) -> int:
        """Delete up to ``limit`` notices settled (sent, or given up) before ``before``; how many. The
        action log and snapshots are the truth of a match: a sent notice is only a record of a post."""
        cutoff = utc_text(before)

        def body() -> Program[int]:
            gone = yield sql.count(
                "DELETE FROM deliveries WHERE id IN (SELECT id FROM deliveries "
                "WHERE status IN ('sent', 'failed') AND COALESCE(sent_at, created_at) < ? LIMIT ?)",
                cutoff,
                self.dialect.limit(limit),
            )
            return int(gone)

        return await self._write(body)

    async def dm_refused(self, match_id: int, user_id: int) -> bool:
        """Whether ``user_id`` was already told that their direct messages refuse ``match_id``'s notices."""

        def body() -> Program[bool]:
            found = yield sql.value(
                "SELECT 1 FROM dm_refusals WHERE match_id = ? AND user_id = ?", match_id, user_id
            )
            return found is not None

        return await self._read(body)

    async def remember_dm_refused(self, match_id: int, user_id: int) -> bool:
        """Record that ``user_id``'s direct messages refused ``match_id``'s notices; True the first time
        only, so they are told about it once, restarts included."""
        now = self._clock()
        statement = self.dialect.insert_ignoring("dm_refusals (match_id, user_id, told_at) VALUES (?, ?, ?)")

        def body() -> Program[bool]:
            return bool((yield sql.count(statement, match_id, user_id, now)) == 1)

        return await self._write(body)

    # ----------------------------------------------------------------------------- turn pings

    async def turn_pings(self, match_id: int, turn: int | None = None) -> list[TurnPing]:
        """The pings of ``match_id``'s latest turn that has any (or of ``turn``), by seat."""
        where = (
            "turn = ?" if turn is not None else "turn = (SELECT MAX(turn) FROM turn_pings WHERE match_id = ?)"
        )
        statement = f"SELECT {rows.PING_COLUMNS} FROM turn_pings WHERE match_id = ? AND {where} ORDER BY seat"

        def body() -> Program[list[TurnPing]]:
            found = yield sql.rows(statement, match_id, match_id if turn is None else turn)
            return [rows.to_ping(row) for row in found]

        return await self._read(body)

    async def due_pings(self, now: datetime, limit: int = 100) -> list[TurnPing]:
        """Held pings of the matches whose duties this store does due by ``now``, the longest due first."""
        join, owned, params = self._owned_through("p")
        statement = (
            f"SELECT {_PING_COLUMNS} FROM turn_pings p {join} WHERE p.sent = 0 AND p.due_at <= ? "
            f"AND p.quarantined IS NULL {owned} ORDER BY p.due_at LIMIT ?"
        )

        def body() -> Program[tuple[list[TurnPing], list[Unreadable]]]:
            found = yield sql.rows(statement, utc_text(now), *params, max(0, limit))
            return read_each("turn_pings", found, rows.to_ping)

        readable, unreadable = await self._read(body)
        await self._set_aside(unreadable)
        return readable

    async def next_ping_due(self) -> datetime | None:
        """When the first held ping of the matches whose duties this store does comes due (None: none is
        held)."""
        join, owned, params = self._owned_through("p")
        statement = (
            f"SELECT {_PING_COLUMNS} FROM turn_pings p {join} WHERE p.sent = 0 AND p.quarantined IS NULL "
            f"{owned} ORDER BY p.due_at LIMIT 1 OFFSET "
        )

        def body() -> Program[tuple[datetime | None, list[Unreadable]]]:
            unreadable: list[Unreadable] = []
            while (found := (yield sql.row(statement + str(len(unreadable)), *params))) is not None:
                try:
                    return rows.to_ping(found).due_at, unreadable
                except CorruptRecord as exc:
                    unreadable.append(unreadable_row("turn_pings", tuple(found[:3]), exc))
            return None, unreadable

        due, unreadable = await self._read(body)
        await self._set_aside(unreadable)
        return due

    async def ping_user_now(self, user_id: int, now: datetime) -> None:
        """Make ``user_id``'s held pings due at ``now``, to be decided again (their settings changed)."""
        statement = "UPDATE turn_pings SET due_at = ? WHERE user_id = ? AND sent = 0"
        await self._write(lambda: sql.changing(statement, utc_text(now), user_id))

    async def settle_ping(self, ping: TurnPing, via: Via, due_at: datetime | None = None) -> bool:
        """Mark a held ping told ``via`` (or, with ``Via.HELD``, hold it until ``due_at``). True when it
        was still held: whoever gets True tells the player, so nobody tells them twice."""
        statement = (
            "UPDATE turn_pings SET via = ?, sent = ?, due_at = ? "
            "WHERE match_id = ? AND turn = ? AND seat = ? AND sent = 0"
        )
        params = rows.settle_params(ping, via, due_at)
        return await self._write(lambda: sql.changing(statement, *params)) == 1

    async def release_ping(self, ping: TurnPing, due_at: datetime) -> None:
        """Hold again a ping whose sending failed, to retry at ``due_at``."""
        statement = (
            "UPDATE turn_pings SET via = '', sent = 0, due_at = ? "
            "WHERE match_id = ? AND turn = ? AND seat = ?"
        )
        params = (utc_text(due_at), ping.match_id, ping.turn, ping.seat)
        await self._write(lambda: sql.changing(statement, *params))

    async def drop_pings(self, match_id: int, before: int | None = None) -> None:
        """Forget the pings of a match's turns (those before turn ``before`` only, when given)."""
        if before is None:
            await self._write(lambda: sql.changing("DELETE FROM turn_pings WHERE match_id = ?", match_id))
        else:
            statement = "DELETE FROM turn_pings WHERE match_id = ? AND turn < ?"
            await self._write(lambda: sql.changing(statement, match_id, before))

    # ------------------------------------------------------------------------ posts and images

    async def live_post(self, match_id: int) -> LivePost | None:
        """The post showing ``match_id``'s current turn, if one was made (``None`` if it cannot be read)."""

        def body() -> Program[LivePost | None]:
            found = yield sql.row(
                f"SELECT {rows.LIVE_POST_COLUMNS} FROM live_posts WHERE match_id = ?", match_id
            )
            if found is None:
                return None
            post = rows.live_post_of(match_id, found)
            if post is None:
                log.warning("the live post of match %s cannot be read; a new post will replace it", match_id)
            return post

        return await self._read(body)

    async def save_live_post(
        self, post: LivePost, pings: Sequence[TurnPing] | None = None, board_image: str | None = None
    ) -> None:
        """Remember ``post`` as the one showing its match's current turn (replacing the previous one).

        With ``pings`` the post begins a turn (``post.version``): in the same transaction, earlier turns'
        pings are dropped and these recorded; a ping already sent stays sent (a retried post). With
        ``board_image``, the digest of the board the post shows is remembered in it too (see
        ``remember_sent_image``)."""

        def body() -> Program[None]:
            if pings is not None:
                yield from save_turn_pings(post.match_id, post.version, pings)
            if board_image is not None:
                yield sql.count(REMEMBER_IMAGE, post.match_id, rows.BOARD_IMAGE_SEAT, board_image)
            yield sql.count(
                f"INSERT INTO live_posts (match_id, {rows.LIVE_POST_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (match_id) DO UPDATE SET "
                "channel_id = excluded.channel_id, message_id = excluded.message_id, "
                "to_act = excluded.to_act, lines = excluded.lines, version = excluded.version, "
                "history = excluded.history",
                *rows.live_post_params(post),
            )

        await self._write(body)

    async def live_private(self, match_id: int, seat: int) -> LivePrivate | None:
        """``seat``'s living private message about ``match_id``, if one was sent."""

        def body() -> Program[LivePrivate | None]:
            found = yield sql.row(
                "SELECT channel_id, message_id, version, turn, text, image, user_id FROM private_messages "
                "WHERE match_id = ? AND seat = ?",
                match_id,
                seat,
            )
            if found is None:
                return None
            channel_id, message_id, version, turn, text, image, user_id = found
            return LivePrivate(
                match_id=match_id,
                seat=seat,
                channel_id=int(channel_id),
                message_id=int(message_id),
                version=int(version),
                turn=bool(turn),
                text=str(text),
                image=bool(image),
                user_id=None if user_id is None else int(user_id),
            )

        return await self._read(body)

    async def save_live_private(self, message: LivePrivate) -> None:
        """Remember ``message`` as its seat's living private message (replacing the previous one)."""
        await self._write(
            lambda: sql.changing(
                "INSERT INTO private_messages "
                "(match_id, seat, channel_id, message_id, version, turn, text, image, user_id) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (match_id, seat) DO UPDATE SET "
                "channel_id = excluded.channel_id, message_id = excluded.message_id, "
                "version = excluded.version, turn = excluded.turn, text = excluded.text, "
                "image = excluded.image, user_id = excluded.user_id",
                message.match_id,
                message.seat,
                message.channel_id,
                message.message_id,
                message.version,
                int(message.turn),
                message.text,
                int(message.image),
                message.user_id,
            )
        )

    async def sent_image(self, match_id: int, seat: int) -> str | None:
        """The digest of the last image of ``match_id`` sent to ``seat`` (-1: the live post's board)."""

        def body() -> Program[str | None]:
            digest = yield sql.value(
                "SELECT digest FROM sent_images WHERE match_id = ? AND seat = ?", match_id, seat
            )
            return None if digest is None else str(digest)

        return await self._read(body)

    async def remember_sent_image(self, match_id: int, seat: int, digest: str) -> None:
        """Record ``digest`` as the last image of ``match_id`` that ``seat`` (-1: the board) received."""
        await self._write(lambda: sql.changing(REMEMBER_IMAGE, match_id, seat, digest))

    # ---------------------------------------------------------------------------------- clocks

    async def seat_clocks(self, match_id: int) -> list[SeatClock]:
        """The match's seat clocks, by seat (none for a match without a clock)."""
        return await self._read(lambda: clockrows.seat_clocks(match_id))

    async def due_clocks(self, now: datetime, limit: int = 100) -> list[SeatClock]:
        """The seat clocks of the matches whose duties this store does whose reminder or deadline has
        fallen by ``now``, the earliest first."""
        owned = self._owned("m.guild_id")
        readable, unreadable = await self._read(lambda: clockrows.due_clocks(self.dialect, now, limit, owned))
        await self._set_aside(unreadable)
        return readable

    async def next_clock_due(self) -> datetime | None:
        """When the first clock of the matches whose duties this store does comes due (None: none is
        running)."""
        owned = self._owned("m.guild_id")
        due, unreadable = await self._read(lambda: clockrows.next_due(owned))
        await self._set_aside(unreadable)
        return due

    async def settle_clock(self, old: SeatClock, new: SeatClock) -> bool:
        """Move a clock on past a reminder; False (nothing written) when the row changed since ``old``
        was read, so a reminder is never sent twice."""
        return await self._write(lambda: clockrows.replace_if_unchanged(self.dialect, old, new))

    async def timeouts_of(self, user_id: int, guild_id: int | None = None) -> int:
        """How many turns a computer played for ``user_id`` because their time ran out (with
        ``guild_id``, in that server's matches only)."""
        return await self._read(lambda: clockrows.timeouts_of(user_id, guild_id))

    async def absences(
        self, user_ids: Sequence[int], ending_after: datetime
    ) -> dict[int, list[tuple[datetime, datetime]]]:
        """The absences (start, end) of ``user_ids`` that end after ``ending_after``, by user id."""
        return await self._read(lambda: clockrows.absences(user_ids, ending_after))

    async def begin_absence(
        self,
        user_id: int,
        starts: datetime,
        ends: datetime,
        check: AbsenceCheck | None = None,
        considering: datetime | None = None,
    ) -> list[SeatClock]:
        """Record an absence and move the user's running turns on by its length, in one transaction
        that no other absence of the user's runs beside; ``check`` first judges the user's absences
        ending after ``considering`` (default ``starts``) and raises to refuse. Returns the clocks as
        moved."""
        length = ends - starts
        dialect = self.dialect

        def body() -> Program[list[SeatClock]]:
            yield from clockrows.hold_absences_of(dialect, user_id)
            if check is not None:
                spans = yield from clockrows.absences([user_id], considering or starts)
                check(spans.get(user_id, []))
            yield sql.count(
                "INSERT INTO absences (user_id, starts_at, ends_at) VALUES (?, ?, ?)",
                user_id,
                utc_text(starts),
                utc_text(ends),
            )
            running = yield from clockrows.running_clocks_of(dialect, user_id, hold=True)
            moved = [paused(clock, length) for clock in running]
            yield from clockrows.write_change(dialect, ClockChange(clocks=tuple(moved)), self._clock())
            return moved

        return await self._write(body)

    async def end_absence(self, user_id: int, now: datetime) -> list[SeatClock] | None:
        """End the user's current absence at ``now`` and move their running turns back by the time it
        had left; None when they are not away."""
        dialect = self.dialect

        def body() -> Program[list[SeatClock] | None]:
            yield from clockrows.hold_absences_of(dialect, user_id)
            found = yield sql.row(
                "SELECT starts_at, ends_at FROM absences "
                "WHERE user_id = ? AND starts_at <= ? AND ends_at > ?",
                user_id,
                utc_text(now),
                utc_text(now),
            )
            if found is None:
                return None
            starts, ends = found
            unused = datetime.fromisoformat(ends) - now
            yield sql.count(
                "UPDATE absences SET ends_at = ? WHERE user_id = ? AND starts_at = ?",
                utc_text(now),
                user_id,
                starts,
            )
            running = yield from clockrows.running_clocks_of(dialect, user_id, hold=True)
            moved = [paused(clock, -unused) for clock in running]
            yield from clockrows.write_change(dialect, ClockChange(clocks=tuple(moved)), self._clock())
            return moved

        return await self._write(body)
