"""The /tournament commands as the host runs them: a front end says who asks (a ``Caller``) and what
they typed, and gets the answer to show through its ``Replier``. The desk finds the tournament meant,
checks that the caller may run it, does the work, words the answer in the reader's language and has the
announcements that follow sent once the answer is out."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Protocol

from engine.core.options import parse_options
from engine.core.say import Say
from engine.host import controls
from engine.host import tournament_posts as tposts
from engine.host import tournament_words as words
from engine.host.clock import Pace
from engine.host.languages import reader_locale, recipient_locale
from engine.host.marks import Marks
from engine.host.outgoing import Outgoing
from engine.host.ports import SettingsStore
from engine.host.tournament_records import RoundReport, TournamentRecord, parse_points
from engine.host.tournament_sending import STANDINGS_FILE, DrawStandings, standings_png
from engine.host.tournaments import TournamentHost
from lang.says import render

# The longest name of a suggested choice (Discord's).
CHOICE_LIMIT = 100


@dataclass(frozen=True, slots=True)
class Caller:
    """Who runs a command, and from where: the server and channel (None in private messages), their
    name, whether they administer the server, the roles they hold and the language their app speaks."""

    user_id: int
    name: str
    guild_id: int | None = None
    channel_id: int | None = None
    is_admin: bool = False
    roles: tuple[int, ...] = ()
    spoken: str | None = None


@dataclass(frozen=True, slots=True)
class Person:
    """A member a command names (the player concerned, a newcomer)."""

    user_id: int
    name: str


@dataclass(frozen=True, slots=True)
class Answer:
    """A command's answer: ``message``, seen by the caller alone when ``private``; ``in_place`` replaces
    the message whose control was pressed."""

    message: Outgoing
    private: bool = False
    in_place: bool = False


class Replier(Protocol):
    """How a front end answers the command being run."""

    async def working(self) -> None:
        """Say that the answer is on its way: a long step comes first."""
        ...

    async def answer(self, answer: Answer) -> None:
        """Show ``answer`` to the caller (after ``working``, in its place)."""
        ...


class TournamentDesk:
    """Runs the /tournament commands. ``publish_soon`` has a tournament's due announcements sent,
    ``kick`` the outbox's pending deliveries; ``draw`` draws the standings' image."""

    def __init__(
        self,
        tournaments: TournamentHost,
        settings: SettingsStore,
        marks: Marks,
        draw: DrawStandings,
        publish_soon: Callable[[int], None],
        kick: Callable[[], None],
    ) -> None:
        self.tournaments = tournaments
        self.settings = settings
        self.marks = marks
        self.draw = draw
        self.publish_soon = publish_soon
        self.kick = kick

    # ------------------------------------------------------------------------------ shared steps

    async def find(self, caller: Caller, tournament: int | None, finished: bool = False) -> TournamentRecord:
        """The tournament numbered ``tournament`` on the caller's server, else the server's one under
        way (with ``finished``, when none is, the one that ended last)."""
        return await tposts.find_tournament(self.tournaments, caller.guild_id, tournament, finished)

    async def guard(self, caller: Caller) -> None:
        """``LobbyError`` unless the caller may run the server's tournaments."""
        await tposts.require_organiser(self.tournaments, caller.guild_id, caller.is_admin, caller.roles)

    async def organised(self, caller: Caller, tournament: int | None) -> TournamentRecord:
        """The tournament an organiser means (see ``find``); ``LobbyError`` for anyone else."""
        await self.guard(caller)
        return await self.find(caller, tournament)

    async def locale(self, caller: Caller) -> str:
        return await reader_locale(self.settings, caller.user_id, caller.guild_id, caller.spoken)

    async def said(
        self, caller: Caller, say: Say, private: bool = False, mentions: tuple[int, ...] = ()
    ) -> Answer:
        """``say`` in the caller's language."""
        return Answer(Outgoing(render(await self.locale(caller), say), mentions=mentions), private)

    # ------------------------------------------------------------------------------ the buttons

    async def join_pressed(self, caller: Caller, reply: Replier, tournament_id: int) -> None:
        """Join the tournament: registers the member who pressed."""
        await tposts.tournament_here(self.tournaments, caller.guild_id, tournament_id)
        record = await self.tournaments.join(tournament_id, caller.user_id, caller.name)
        await reply.answer(await self.said(caller, words.registered(record, counted=True), private=True))

    async def advance_pressed(
        self, caller: Caller, reply: Replier, tournament_id: int, round_number: int, plan: str, end: bool
    ) -> None:
        """Confirms (``end``) or calls off ending a round whose tables still have people at them; a press
        after the round or its tables changed (``plan``, the fingerprint the organiser read) is refused
        and changes nothing."""
        record = await tposts.tournament_here(self.tournaments, caller.guild_id, tournament_id)
        await self.guard(caller)
        if not end:
            kept = await self.said(caller, words.plays_on(record, round_number))
            await reply.answer(replace(kept, in_place=True))
            return
        confirmed = (round_number, plan.removeprefix("p"))
        # Checked before answering, so a stale press is refused at once; ``advance`` checks again.
        (await self.tournaments.advance_plan(record.id)).check(*confirmed, record.name)
        await reply.working()
        report = await self.tournaments.advance(record.id, force=True, confirmed=confirmed)
        ended = await self.said(caller, words.round_ended(record, round_number, report))
        await reply.answer(replace(ended, in_place=True))
        await reply.answer(await self.round_over(record, round_number, report))
        self.publish_soon(report.tournament.id)

    # ------------------------------------------------------------------------------ the organisers

    async def create(
        self,
        caller: Caller,
        reply: Replier,
        name: str,
        game: str,
        format: str,
        options: str = "",
        table_size: int | None = None,
        rounds: int | None = None,
        deadline_hours: float | None = None,
        rated: bool = True,
        points: str = "",
        clock: str = Pace.NONE.value,
    ) -> None:
        await self.guard(caller)
        record = await self.tournaments.create(
            name,
            game,
            format,
            parse_options(options),
            table_size=table_size,
            rounds=rounds,
            deadline_hours=deadline_hours,
            rated=rated,
            guild_id=caller.guild_id,
            channel_id=caller.channel_id,
            creator_id=caller.user_id,
            points=parse_points(points),
            pace=Pace(clock),
        )
        await reply.answer(await self.said(caller, words.created_of(self.tournaments.host, record)))

    async def open(self, caller: Caller, reply: Replier, tournament: int | None = None) -> None:
        """Opens registration, answering with a Join button."""
        record = await self.organised(caller, tournament)
        record = await self.tournaments.open_registration(record.id)
        locale = await self.locale(caller)
        text = render(locale, words.registration_opened(record))
        await reply.answer(Answer(Outgoing(text, controls.join_tournament(record.id, locale))))

    async def close(self, caller: Caller, reply: Replier, tournament: int | None = None) -> None:
        record = await self.organised(caller, tournament)
        record = await self.tournaments.close_registration(record.id)
        await reply.answer(await self.said(caller, words.registration_closed(record)))

    async def start(self, caller: Caller, reply: Replier, tournament: int | None = None) -> None:
        record = await self.organised(caller, tournament)
        await reply.working()
        report = await self.tournaments.start(record.id)
        await reply.answer(await self.said(caller, words.started(record)))
        self.publish_soon(report.tournament.id)

    async def add_computer(
        self, caller: Caller, reply: Replier, tournament: int | None = None, level: str | None = None
    ) -> None:
        record = await self.organised(caller, tournament)
        record = await self.tournaments.add_computer(record.id, level)
        await reply.answer(await self.said(caller, words.computer_joins(record)))

    async def drop(
        self, caller: Caller, reply: Replier, player: Person, tournament: int | None = None
    ) -> None:
        record = await self.organised(caller, tournament)
        entrant = tposts.entrant_for(record, player.user_id, player.name)
        await self.tournaments.drop(record.id, entrant.key)
        self.publish_soon(record.id)
        await reply.answer(await self.said(caller, words.dropped(record, entrant)))

    async def replace(
        self, caller: Caller, reply: Replier, player: Person, newcomer: Person, tournament: int | None = None
    ) -> None:
        """Lets ``newcomer`` take over ``player``'s place; the answer calls the newcomer."""
        record = await self.organised(caller, tournament)
        entrant = tposts.entrant_for(record, player.user_id, player.name)
        await self.tournaments.replace(
            record.id, entrant.key, newcomer.user_id, newcomer.name, by_user=caller.user_id
        )
        self.kick()  # the newcomer's hand, and the thread told who plays the seat now
        said = words.takes_over(entrant, self.marks.person(newcomer.user_id))
        await reply.answer(await self.said(caller, said, mentions=(newcomer.user_id,)))

    async def seat_computer(
        self,
        caller: Caller,
        reply: Replier,
        player: Person,
        tournament: int | None = None,
        level: str | None = None,
    ) -> None:
        record = await self.organised(caller, tournament)
        entrant = tposts.entrant_for(record, player.user_id, player.name)
        await reply.working()
        await self.tournaments.seat_computer(record.id, entrant.key, level)
        self.publish_soon(record.id)
        await reply.answer(await self.said(caller, words.computer_plays_on(entrant)))

    async def advance(self, caller: Caller, reply: Replier, tournament: int | None = None) -> None:
        """Ends the round at once when nobody loses a seat; else asks the organiser first, in private,
        naming whose seats a computer would take, with buttons to confirm or think again."""
        record = await self.organised(caller, tournament)
        plan = await self.tournaments.advance_plan(record.id)
        locale = await self.locale(caller)
        if plan.takes_seats:
            matches = [table.match_id for table in plan.open_tables]
            threads = await tposts.match_threads(self.tournaments, matches)
            text = words.advance_question(locale, record, plan, threads, self.marks)
            buttons = controls.advance(record.id, plan.round, plan.fingerprint, locale)
            await reply.answer(Answer(Outgoing(text, buttons), private=True))
            return
        await reply.working()
        report = await self.tournaments.advance(
            record.id, force=True, confirmed=(plan.round, plan.fingerprint)
        )
        await reply.answer(await self.round_over(record, plan.round, report))
        self.publish_soon(report.tournament.id)

    async def round_over(self, record: TournamentRecord, number: int, report: RoundReport) -> Answer:
        """The public line that round ``number`` was ended, in the server's language."""
        locale = await recipient_locale(self.settings, None, record.guild_id)
        return Answer(Outgoing(render(locale, words.round_ended(record, number, report))))

    async def decide(
        self, caller: Caller, reply: Replier, table: int, order: str, tournament: int | None = None
    ) -> None:
        """Decides a stuck table: ``order`` names its players, best first."""
        record = await self.organised(caller, tournament)
        keys = tposts.named_order(record, order)
        await reply.working()
        report = await self.tournaments.award(record.id, table, keys)
        await reply.answer(await self.said(caller, words.decided(record, table)))
        self.publish_soon(report.tournament.id)

    async def cancel(self, caller: Caller, reply: Replier, tournament: int | None = None) -> None:
        record = await self.organised(caller, tournament)
        record = await self.tournaments.cancel(record.id)
        self.kick()
        await reply.answer(await self.said(caller, words.cancelled(record)))

    async def organiser_role(self, caller: Caller, reply: Replier, role_id: int | None = None) -> None:
        """Sets the role whose members run the server's tournaments (None: admins only); admins only."""
        tposts.require_admin(caller.is_admin)
        await self.tournaments.set_organiser_role(caller.guild_id or 0, role_id)
        role = self.marks.role(role_id) if role_id is not None else None
        await reply.answer(await self.said(caller, words.organiser_role_set(role), private=True))

    # ------------------------------------------------------------------------------ the players

    async def join(self, caller: Caller, reply: Replier, tournament: int | None = None) -> None:
        record = await self.find(caller, tournament)
        record = await self.tournaments.join(record.id, caller.user_id, caller.name)
        await reply.answer(await self.said(caller, words.registered(record), private=True))

    async def leave(self, caller: Caller, reply: Replier, tournament: int | None = None) -> None:
        record = await self.find(caller, tournament)
        record = await self.tournaments.leave(record.id, caller.user_id)
        await reply.answer(await self.said(caller, words.left(record), private=True))

    async def my_table(self, caller: Caller, reply: Replier, tournament: int | None = None) -> None:
        record = await self.find(caller, tournament)
        await reply.answer(await self.said(caller, words.my_table(record, caller.user_id), private=True))

    async def standings(self, caller: Caller, reply: Replier, tournament: int | None = None) -> None:
        """The standings so far, or the final ones, with their image, in private."""
        record = await self.find(caller, tournament, finished=True)
        locale = await self.locale(caller)
        if not record.entrants:
            await reply.answer(Answer(Outgoing(words.nobody_yet(locale, record)), private=True))
            return
        text = words.standings_message(locale, record)
        png = await asyncio.to_thread(standings_png, self.draw, locale, record)
        await reply.answer(Answer(Outgoing(text, image=png, filename=STANDINGS_FILE), private=True))

    async def choices(self, caller: Caller, typed: str) -> list[tuple[str, int]]:
        """The server's tournaments whose name or number holds ``typed``, newest first: each as it is
        listed ("#3 Spring cup (running)") and its number."""
        found = await tposts.tournament_choices(self.tournaments, caller.guild_id, typed)
        locale = await self.locale(caller)
        return [
            (f"{name} ({render(locale, status)})"[:CHOICE_LIMIT], number) for number, status, name in found
        ]
