"""Seats offered to new people in the shared match store (``engine.host.ports.SeatOfferStore``): the
offers, and a newcomer taking one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from data import clocks as clockrows
from data import rows, sql
from data.sql import Program
from data.sql_store.core import GUARD_ACTIVE, D, StoreCore, guard, load_match, queue
from engine.core.errors import StaleVersion
from engine.host.clock import ClockChange
from engine.host.ports import DeliveryDraft, MatchRecord, Player, SeatOffer

OFFER_COLUMNS = (
    "id, match_id, seat, offered_by, offered_version, taken_by, taken_version, taken_at, leaver_id, "
    "leaver_name, leaver_resigned"
)


def offer_of_row(row: Sequence[Any]) -> SeatOffer:
    fields = dict(zip([c.strip() for c in OFFER_COLUMNS.split(",")], row, strict=True))
    fields["leaver_resigned"] = bool(fields["leaver_resigned"])
    return SeatOffer.model_validate(fields)


class OfferMethods(StoreCore[D]):
    """The ``SeatOfferStore`` methods (see ``SqlMatchStore``)."""

    async def offer_seat(self, match_id: int, seat: int, offered_by: int, offered_version: int) -> SeatOffer:
        """Record an offer of ``seat`` of ``match_id``; raises ``MatchNotFound``."""
        now = self._clock()

        def body() -> Program[SeatOffer]:
            if (yield sql.value("SELECT 1 FROM matches WHERE id = ?", match_id)) is None:
                raise rows.not_found(match_id)
            offer_id = yield sql.new_id(
                "INSERT INTO seat_offers (match_id, seat, offered_by, offered_version, offered_at) "
                "VALUES (?, ?, ?, ?, ?)",
                match_id,
                seat,
                offered_by,
                offered_version,
                now,
            )
            found = yield sql.row(f"SELECT {OFFER_COLUMNS} FROM seat_offers WHERE id = ?", offer_id)
            return offer_of_row(found)

        return await self._write(body)

    async def seat_offer(self, offer_id: int) -> SeatOffer | None:
        """The offer ``offer_id``, None when there is none."""

        def body() -> Program[SeatOffer | None]:
            found = yield sql.row(f"SELECT {OFFER_COLUMNS} FROM seat_offers WHERE id = ?", offer_id)
            return None if found is None else offer_of_row(found)

        return await self._read(body)

    async def seat_offers(self, match_id: int) -> list[SeatOffer]:
        """Every offer of ``match_id``, in the order they were made."""

        def body() -> Program[list[SeatOffer]]:
            found = yield sql.rows(
                f"SELECT {OFFER_COLUMNS} FROM seat_offers WHERE match_id = ? ORDER BY id", match_id
            )
            return [offer_of_row(row) for row in found]

        return await self._read(body)

    async def in_tournament(self, match_id: int) -> bool:
        """Whether ``match_id`` is a tournament's table."""

        def body() -> Program[bool]:
            found = yield sql.value("SELECT 1 FROM tournament_matches WHERE match_id = ?", match_id)
            return found is not None

        return await self._read(body)

    async def take_seat(
        self,
        offer: SeatOffer,
        expected_version: int,
        newcomer: Player,
        leaver: Player,
        deliveries: Sequence[DeliveryDraft] = (),
        clocks: ClockChange | None = None,
    ) -> MatchRecord:
        """See ``engine.host.ports.SeatOfferStore.take_seat``."""
        now = self._clock()
        match_id, seat, version = offer.match_id, offer.seat, expected_version + 1

        def body() -> Program[MatchRecord]:
            yield from guard(
                GUARD_ACTIVE, (now, match_id, expected_version), match_id, expected_version, rows.no_moves
            )
            taken = yield sql.count(
                "UPDATE seat_offers SET taken_by = ?, taken_version = ?, taken_at = ?, leaver_id = ?, "
                "leaver_name = ?, leaver_resigned = ? WHERE id = ? AND taken_by IS NULL",
                newcomer.user_id,
                version,
                now,
                leaver.user_id,
                leaver.name,
                int(leaver.resigned),
                offer.id,
            )
            if taken != 1:
                raise StaleVersion(f"the offer of seat {seat + 1} of match {match_id} was taken already")
            changed = yield sql.Query(
                "UPDATE players SET user_id = ?, name = ?, bot = NULL, resigned = 0, absent = 0 "
                "WHERE match_id = ? AND seat = ?",
                (newcomer.user_id, newcomer.name, match_id, seat),
                sql.Want.COUNT,
                duplicate_is_none=True,
            )
            if changed is None:  # the newcomer holds another seat
                raise rows.seat_taken(match_id)
            if changed == 0:
                raise rows.no_such_seat(match_id, seat, ())
            # The newcomer's hand starts afresh. The leaver's living message stays on record as theirs,
            # so that the newcomer's first message can take its controls off.
            yield sql.count("DELETE FROM sent_images WHERE match_id = ? AND seat = ?", match_id, seat)
            yield from queue(match_id, version, deliveries, now)
            yield from clockrows.write_change(self.dialect, clocks, now)
            return (yield from load_match(match_id))

        return await self._known.track(match_id, self._write(body))
