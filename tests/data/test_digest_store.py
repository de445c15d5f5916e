"""Each person's daily digest in the store, on every backend: kept, read back, found when due, moved on
once only, and dropped."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from data.digests import SqlDigests, SqliteDigests
from data.postgres.digests import PostgresDigests
from data.store import SqliteMatchStore
from engine.host.digests import Digest, DigestTime
from tests.data.backends import AnyStore

SEVEN = datetime(2026, 5, 4, 7, tzinfo=UTC)


def digests_beside(store: AnyStore) -> SqlDigests:
    if isinstance(store, SqliteMatchStore):
        return SqliteDigests.beside(store)
    return PostgresDigests(store.database)


async def test_digests_are_kept_found_when_due_and_moved_on_once(store: AnyStore) -> None:
    digests = digests_beside(store)
    ann = Digest(user_id=101, time=DigestTime(hour=7, zone="UTC"), next_at=SEVEN)
    bob = Digest(
        user_id=202, time=DigestTime(hour=9, zone="Europe/Rome"), next_at=SEVEN + timedelta(hours=0.5)
    )
    assert await digests.digest_of(101) is None and await digests.next_digest_due() is None
    await digests.save_digest(101, ann)
    await digests.save_digest(202, bob)
    assert await digests.digest_of(101) == ann
    assert await digests.next_digest_due() == SEVEN
    assert await digests.due_digests(SEVEN - timedelta(milliseconds=1)) == []
    assert await digests.due_digests(SEVEN + timedelta(hours=1)) == [ann, bob]
    # Moved on to the next day by one sweep: a second sweep that read it before finds it moved.
    tomorrow = SEVEN + timedelta(days=1)
    assert await digests.move_digest(ann, tomorrow)
    assert not await digests.move_digest(ann, tomorrow)
    assert await digests.due_digests(SEVEN + timedelta(hours=1)) == [bob]
    # A new hour replaces the old one; none drops it.
    later = ann.model_copy(
        update={"time": DigestTime(hour=8, zone="UTC"), "next_at": SEVEN + timedelta(hours=1)}
    )
    await digests.save_digest(101, later)
    assert await digests.digest_of(101) == later
    await digests.save_digest(101, None)
    assert await digests.digest_of(101) is None
    assert await digests.next_digest_due() == bob.next_at


def test_a_digest_comes_at_its_local_hour_across_a_clock_change() -> None:
    rome = DigestTime(hour=7, zone="Europe/Rome")
    # The night Rome moves to summer time (29 March 2026): 07:00 is 06:00 before it and 05:00 after.
    assert rome.next_after(datetime(2026, 3, 28, 6, tzinfo=UTC)) == datetime(2026, 3, 29, 5, tzinfo=UTC)
    assert rome.next_after(datetime(2026, 3, 28, 5, 59, tzinfo=UTC)) == datetime(2026, 3, 28, 6, tzinfo=UTC)
