"""What ``/game find`` answers, in the reader's language: the table a person was seated at, or where
they wait and until when, with the control that takes them out of the queue."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Collection, Sequence

from babel.numbers import format_percent

from engine.host.avoidance import AvoidChange
from engine.host.controls import queue_leave
from engine.host.languages import recipient_locale
from engine.host.lobby_words import PACE_WORDS, level_name
from engine.host.marks import Marks
from engine.host.outgoing import Outgoing, Refused, Sender, TryLater
from engine.host.ports import MatchRecord, SettingsStore
from engine.host.queue_desk import Waiting
from engine.host.service import GameHost
from lang import N_, join, t, tn

log = logging.getLogger(__name__)

# The level of ``/game find`` that keeps computer players away from a person's table.
PEOPLE_ONLY = N_("people only: no computer players")
PEOPLE_ONLY_VALUE = "none"


def seated(host: GameHost, match: MatchRecord, user_id: int, place: str | None, locale: str) -> str:
    """The table ``user_id`` was seated at: the game, the others at it, and where it is played."""
    others = [p.name for p in match.players if p.user_id != user_id]
    said = t(
        locale,
        "Your table is ready: match #{number} of {game}, with {others}.",
        number=match.id,
        game=host.rules(match.game).title,
        others=join(locale, others),
    )
    if place is None:
        return said
    return f"{said} {t(locale, 'It is played in {place}.', place=place)}"


def waiting_lines(host: GameHost, waiting: Waiting, locale: str, marks: Marks) -> list[str]:
    """Where a person waits for one game: what for, how many wait with them, what happens next."""
    entry = waiting.entry
    sizes = sorted(entry.seat_counts)
    seats = (
        tn(locale, "{count} player", "{count} players", sizes[0])
        if len(sizes) == 1
        else t(locale, "{fewest} to {most} players", fewest=sizes[0], most=sizes[-1])
    )
    lines = [
        t(
            locale,
            "You wait for a table of {game} ({seats}, {clock}), since {since}.",
            game=host.rules(entry.game).title,
            seats=seats,
            clock=t(locale, PACE_WORDS[entry.pace]),
            since=marks.moment(entry.since, "full"),
        ),
        tn(
            locale,
            "{count} other person waits for it too.",
            "{count} other people wait for it too.",
            waiting.others,
        )
        if waiting.others
        else t(locale, "Nobody else waits for it yet."),
    ]
    if entry.least_reliability > 0:
        lines.append(
            t(
                locale,
                "You asked for players who played at least {share} of their turns in time.",
                share=format_percent(entry.least_reliability, locale=locale),
            )
        )
    if waiting.computers_at is not None and entry.computers is not None:
        lines.append(
            t(
                locale,
                "If not enough people come, computer players ({level}) fill your table from {when}.",
                level=level_name(locale, entry.computers),
                when=marks.moment(waiting.computers_at, "full"),
            )
        )
    else:
        lines.append(t(locale, "Your table waits for people only."))
    return lines


def waiting_reply(host: GameHost, queues: Sequence[Waiting], locale: str, marks: Marks) -> Outgoing:
    """Every queue a person waits in on a server, each with its own button to leave it."""
    if not queues:
        return Outgoing(t(locale, "You wait in no queue on this server: /game find puts you in one."))
    paragraphs = ["\n".join(waiting_lines(host, w, locale, marks)) for w in queues]
    controls = tuple(
        queue_leave(w.entry.game, host.rules(w.entry.game).title, locale, row=n // 5)
        for n, w in enumerate(queues)
    )
    return Outgoing("\n\n".join(paragraphs), controls)


def left(host: GameHost, game: str | None, count: int, locale: str) -> str:
    """What leaving a queue (``game``) or every queue (None) did."""
    if not count:
        return t(locale, "You were not waiting in that queue.")
    if game is None:
        return t(locale, "You left every queue on this server.")
    return t(locale, "You left the queue for {game}.", game=host.rules(game).title)


def avoid_said(change: AvoidChange, locale: str, marks: Marks) -> str:
    """What ``/game avoid player:`` did: the person is on the list now, or off it."""
    person = marks.person(change.other)
    if change.listed:
        return t(
            locale,
            "{person} is on your list now: /game find never seats the two of you at one table. Nobody "
            "else sees your list, and {person} is not told.",
            person=person,
        )
    return t(
        locale, "{person} is off your list: /game find may seat the two of you together again.", person=person
    )


def avoid_list(avoided: Collection[int], locale: str, marks: Marks) -> str:
    """What ``/game avoid`` alone shows: who is on the person's list."""
    if not avoided:
        return t(
            locale,
            "Nobody is on your list. /game avoid with a player keeps /game find from seating you with them.",
        )
    people = join(locale, [marks.person(user_id) for user_id in sorted(avoided)])
    return t(
        locale,
        "/game find never seats you with: {people}. /game avoid with one of them takes them off the list.",
        people=people,
    )


class SeatedHerald:
    """Tells the people a queue seated where their table is, each privately in their own language: the
    one who asked hears it in the answer to their command, the others by direct message (a closed one
    leaves them the thread's own call). ``place_of`` opens (or finds) the match's thread."""

    def __init__(
        self,
        host: GameHost,
        settings: SettingsStore,
        sender: Sender,
        marks: Marks,
        place_of: Callable[[MatchRecord], Awaitable[int | None]],
    ) -> None:
        self.host, self.settings, self.sender, self.marks = host, settings, sender, marks
        self.place_of = place_of

    async def tell(self, match: MatchRecord, but: int | None = None) -> None:
        """Tell every person seated in ``match`` but ``but`` (who asked) where it is played."""
        thread = await self.place_of(match)
        place = self.marks.thread(thread) if thread is not None else None
        for player in match.players:
            if player.user_id is None or player.user_id == but:
                continue
            locale = await recipient_locale(self.settings, player.user_id, match.guild_id)
            said = seated(self.host, match, player.user_id, place, locale)
            try:
                await self.sender.to_person(player.user_id, Outgoing(said))
            except (Refused, TryLater) as exc:
                log.info("a seated player of match %s was not told privately: %s", match.id, exc)
