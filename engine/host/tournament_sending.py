"""What the bot says about tournaments of its own accord, sent through the front end's ``Sender``: each
round's pairings (to each player in private, then in the tournament's channel, calling whoever was not
reached), the standings with their image, the final post, the reminders at the tables before a round's
deadline, and telling the organiser once when the channel no longer takes the posts. Also the names of
the tables' threads. ``engine.host.tournament_posts`` plans the announcements and
``engine.host.tournament_words`` words them."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import Protocol

from engine.core.errors import EngineError
from engine.host import tournament_posts as tposts
from engine.host import tournament_words as words
from engine.host.languages import recipient_locale
from engine.host.marks import Marks
from engine.host.outbox import Backoff
from engine.host.outgoing import Outgoing, Refused, Sender, TryLater
from engine.host.ports import MatchRecord, SettingsStore
from engine.host.tournament_records import RoundRecord, TournamentRecord
from engine.host.tournaments import TournamentHost

log = logging.getLogger(__name__)

# Draws the standings' image (``render.standings.render_standings``, given by the front end): the
# tournament's name, the subtitle, the rows and their headings, as PNG bytes.
DrawStandings = Callable[[str, str, Sequence[words.ImageRow], Sequence[str]], bytes]
# The standings' image as it is attached.
STANDINGS_FILE = "standings.png"
# The most people one post may call (Discord's).
MENTION_LIMIT = 100


class Venue(Protocol):
    """Where a tournament is played, as the front end reaches it: its channel and the threads of its
    tables' matches."""

    async def reach(self, channel_id: int) -> None:
        """``Refused`` (``gone`` when deleted) when the channel no longer takes the front end's posts;
        ``TryLater`` when it cannot tell for now."""
        ...

    async def open_thread(self, match: MatchRecord) -> None:
        """Open ``match``'s thread now if it has none; ``Refused`` or ``TryLater`` when it cannot."""
        ...


def standings_png(
    draw: DrawStandings, locale: str, record: TournamentRecord, after_round: int | None = None
) -> bytes:
    """The standings' image, now or as they stood after ``after_round``. It takes a while to draw: run it
    off the event loop."""
    headings, rows = words.standings_image(locale, record, after_round)
    subtitle = words.standings_subtitle(locale, record, after_round)
    return draw(record.name, subtitle, rows, headings)


async def table_thread_name(
    tournaments: TournamentHost, settings: SettingsStore, match: MatchRecord
) -> str | None:
    """The thread name of a match played at a tournament table, in the server's language; None for any
    other match (or when its tournament cannot be read, so the match still gets its thread)."""
    try:
        found = await tournaments.table_of_match(match.id)
    except EngineError as exc:
        log.warning("match %s: its tournament cannot be read for the thread's name: %s", match.id, exc)
        return None
    if found is None:
        return None
    record, round_number, table = found
    locale = await recipient_locale(settings, None, record.guild_id)
    return words.thread_name(locale, record.name, round_number, table.number)


class Announcements:
    """Sends a tournament's due announcements (the host's ``tposts.Announcer``). ``told`` holds the
    tournaments whose organiser already heard that their channel was lost; ``backoff`` spaces the tries
    of a tournament whose announcements failed."""

    def __init__(
        self,
        tournaments: TournamentHost,
        settings: SettingsStore,
        sender: Sender,
        marks: Marks,
        venue: Venue,
        draw: DrawStandings,
        backoff: Backoff[int],
        told: set[int] | None = None,
    ) -> None:
        self.tournaments = tournaments
        self.settings = settings
        self.sender = sender
        self.marks = marks
        self.venue = venue
        self.draw = draw
        self.backoff = backoff
        self.told = set() if told is None else told

    async def publish(self, tournament_id: int) -> bool:
        """Send the tournament's due announcements in order (see ``tposts.publish``); True when nothing
        is left to try again later.

        A failure stays with this tournament: a channel that no longer takes the posts (deleted, or a
        permission taken away) is reported to the organiser and its announcements are given up, while
        anything else is tried again after the tournament's back-off. The tournament goes on either way.
        """
        if not self.backoff.ready(tournament_id):
            return False
        try:
            await tposts.publish(self.tournaments, tournament_id, self)
        except Exception:
            wait = self.backoff.failed(tournament_id)
            log.exception("tournament %s: an announcement failed; retried in %.0f s", tournament_id, wait)
            return False
        self.backoff.succeeded(tournament_id)
        return True

    async def reach(self, record: TournamentRecord) -> None:
        assert record.channel_id is not None
        try:
            await self.venue.reach(record.channel_id)
        except Refused as refused:
            raise tposts.ChannelLost(refused.gone, refused) from refused

    async def tell_pairings(self, record: TournamentRecord, rnd: RoundRecord, open_threads: bool) -> set[int]:
        return await self.send_pairings(record, rnd, await self.table_threads(rnd, open_threads))

    async def announce(self, record: TournamentRecord, due: tposts.Announcement, reached: set[int]) -> None:
        try:
            await self.post(record, due, reached)
        except Refused as refused:
            raise tposts.ChannelLost(refused.gone, refused) from refused

    async def channel_lost(self, record: TournamentRecord, lost: tposts.ChannelLost) -> None:
        await self.tell_organiser(record, lost.deleted)

    async def post(self, record: TournamentRecord, due: tposts.Announcement, reached: set[int]) -> None:
        """Post one announcement in the tournament's channel; a reminder goes to its tables' threads."""
        assert record.channel_id is not None
        locale = await recipient_locale(self.settings, None, record.guild_id)  # announcements are public
        if due.kind == "reminder":
            await self.remind_tables(record, due)
            return
        if due.kind == "final":
            png = await asyncio.to_thread(standings_png, self.draw, locale, record)
            winner = words.winner_of(record)
            message = Outgoing(
                words.final_line(locale, record, self.marks),
                image=png,
                filename=STANDINGS_FILE,
                mentions=(winner.user_id,) if winner.user_id and not winner.bot else (),
                nonce=due.nonce,
            )
        elif due.kind == "standings":
            png = await asyncio.to_thread(standings_png, self.draw, locale, record, due.round)
            text = words.standings_message(locale, record, due.round)
            message = Outgoing(text, image=png, filename=STANDINGS_FILE, nonce=due.nonce)
        else:
            assert due.round is not None
            rnd = tposts.round_of(record, due.round)
            threads = await tposts.table_threads(self.tournaments, rnd)
            text = words.pairings_post(locale, record, rnd, threads, self.marks)
            called = tuple(tposts.unreached(record, rnd, reached)[:MENTION_LIMIT])
            message = Outgoing(text, mentions=called, nonce=due.nonce)
        await self.sender.to_channel(record.channel_id, message)

    async def remind_tables(self, record: TournamentRecord, due: tposts.Announcement) -> None:
        """Tell the people at the round's tables still playing, in each table's thread, when the round
        ends (then computers finish what is left). One thread that fails stops no other."""
        assert due.round is not None
        deadline, tables = await tposts.tables_to_remind(self.tournaments, record, due.round)
        if deadline is None:
            return
        locale = await recipient_locale(self.settings, None, record.guild_id)
        for table in tables:
            text = words.reminder(locale, record, due.round, table.people, deadline, self.marks)
            message = Outgoing(text, mentions=table.people, nonce=tposts.reminder_nonce(due, table.table))
            try:
                await self.sender.to_channel(table.thread_id, message)
            except (Refused, TryLater) as exc:
                log.info("tournament %s: table %s could not be reminded: %s", record.id, table.table, exc)

    async def table_threads(self, rnd: RoundRecord, open_missing: bool = False) -> dict[int, int]:
        """The thread of each table's match, by table number. With ``open_missing``, a table whose match
        has no thread yet gets it now (the match posts there later), so the pairings can link every table.

        A thread that cannot be opened is left out: the match opens one, or moves to the channel, when
        its first board is posted."""
        for match in await tposts.threadless(self.tournaments, rnd) if open_missing else []:
            try:
                await self.venue.open_thread(match)
            except (Refused, TryLater, EngineError) as exc:
                log.warning("match %s: no thread to link from the pairings: %s", match.id, exc)
        return await tposts.table_threads(self.tournaments, rnd)

    async def send_pairings(
        self, record: TournamentRecord, rnd: RoundRecord, threads: dict[int, int]
    ) -> set[int]:
        """Tell each person playing round ``rnd`` in private where they play, against whom, and where the
        thread is; returns the user ids reached. Each message on its own: closed private messages, or
        any other failure, leave the others to go out (the channel's post then calls whoever was not
        reached)."""
        number = rnd.round.number
        reached: set[int] = set()
        server = self.marks.server(record.guild_id) if record.guild_id else None
        for entrant, table in tposts.pairing_recipients(record, rnd):
            assert entrant.user_id is not None
            thread = threads.get(table.number) if table is not None else None
            url = self.marks.thread_address(record.guild_id, thread) if thread and record.guild_id else None
            try:
                locale = await recipient_locale(self.settings, entrant.user_id, record.guild_id)
                text = words.pairing_message(locale, record, rnd, entrant, server, url)
                nonce = tposts.pairing_nonce(record, number, entrant.user_id)
                await self.sender.to_person(entrant.user_id, Outgoing(text, nonce=nonce))
                reached.add(entrant.user_id)
            except Refused as exc:
                # Closed private messages, or a person who shares no server with the bot any more: the
                # channel's post calls them instead.
                log.info(
                    "tournament %s: round %s pairing message to user %s refused: %s",
                    record.id,
                    number,
                    entrant.user_id,
                    exc,
                )
            except Exception:
                log.exception(
                    "tournament %s: round %s pairing message to user %s failed; the others go on",
                    record.id,
                    number,
                    entrant.user_id,
                )
        return reached

    async def tell_organiser(self, record: TournamentRecord, deleted: bool) -> None:
        """Tell the tournament's creator in private, once, that its channel no longer takes the posts."""
        if record.id in self.told or record.creator_id is None:
            return
        self.told.add(record.id)
        locale = await recipient_locale(self.settings, record.creator_id, record.guild_id)
        server = self.marks.server(record.guild_id) if record.guild_id else None
        text = words.channel_lost(locale, record, server, deleted)
        try:
            await self.sender.to_person(record.creator_id, Outgoing(text))
        except (Refused, TryLater) as exc:
            log.warning("tournament %s: could not tell its organiser either: %s", record.id, exc)
