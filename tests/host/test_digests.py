"""The daily digest on a virtual clock, through a sender that records or refuses: in the reader's
language, listing only the matches waiting for them; a refused one is not tried again until the next
day, and one the front end could not send yet is tried again a few minutes later, once."""

from __future__ import annotations

from datetime import timedelta

from data.digests import SqliteDigests
from data.store import SqliteMatchStore
from engine.host.digests import RETRY_AFTER, Digests
from engine.host.languages import LANGUAGE
from engine.host.outgoing import Outgoing, Sent, TryLater
from tests.host.test_clock import START, Clock, started_match
from tests.host.test_reminders import Told


class Busy:
    """Wraps a sender: the next ``times`` direct messages are answered "try later"."""

    def __init__(self, told: Told, times: int) -> None:
        self.told = told
        self.times = times

    async def to_person(self, user_id: int, message: Outgoing) -> Sent:
        if self.times > 0:
            self.times -= 1
            raise TryLater("rate limited")
        return await self.told.sender.to_person(user_id, message)


async def digested(store: SqliteMatchStore) -> tuple[Told, Digests]:
    clock = Clock()
    host, match = await started_match(store, clock)
    told = Told(host, match, store, clock)
    return told, Digests(host, SqliteDigests.beside(store), told.pings, clock)


def digests_sent(told: Told) -> list[str]:
    return [m.text for kind, _, m in told.sender.sent if kind == "person"]


async def test_the_digest_is_in_the_readers_language_and_lists_what_waits_for_them(
    store: SqliteMatchStore,
) -> None:
    told, digests = await digested(store)
    told.settings.values[("user", told.user_id, LANGUAGE)] = "it"
    said = await digests.choose(told.user_id, "it", 10, None, False)
    assert said.startswith("Ogni giorno alle 10:00 (UTC)")
    other = next(p.user_id for p in told.match.players if p.user_id != told.user_id)
    assert other is not None
    await digests.choose(other, "en", 10, None, False)
    told.clock.now = START + timedelta(hours=1)  # 10:00
    assert await digests.sweep() == 1
    [text] = digests_sent(told)
    assert text.startswith("**Il tuo riepilogo quotidiano**: 1 partita ti aspetta.")
    assert f"#{told.match.id} New York 1901" in text


async def test_a_digest_the_front_end_cannot_send_yet_is_tried_again_once(store: SqliteMatchStore) -> None:
    told, digests = await digested(store)
    await digests.choose(told.user_id, "en", 10, None, False)
    told.reminders.sender = Busy(told, 1)  # type: ignore[assignment]
    told.clock.now = START + timedelta(hours=1)
    assert await digests.sweep() == 0
    assert await digests.sweep() == 0  # not on every pass
    told.clock.now += RETRY_AFTER
    assert await digests.sweep() == 1
    told.clock.now += RETRY_AFTER
    assert await digests.sweep() == 0
    assert len(digests_sent(told)) == 1
    # A refusal lasts: nothing more that day, and the next day's digest is tried again.
    told.sender.closed.add(told.user_id)
    told.clock.now = START + timedelta(days=1, hours=1)
    assert await digests.sweep() == 0
    told.sender.closed.clear()
    told.clock.now += RETRY_AFTER
    assert await digests.sweep() == 0
    told.clock.now = START + timedelta(days=2, hours=1)
    assert await digests.sweep() == 1
