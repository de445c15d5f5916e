"""What a match's players read outside its board post, in the reader's language, for every front end: the
match's heading, the private message of a notice (a hand, a turn), the note when a match moves to a new
thread or channel, and the messages when the bot can no longer reach a player or the match's place.

Front ends pass what only they know (the server's name, a link to the thread, how they mention a person)
as ready text; the host decides what is said and in which order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.core.say import Say
from engine.host.marks import Marks
from engine.host.ports import MatchRecord, Notice
from engine.host.service import GameHost
from engine.host.text import HOST, clip_lines, notice_heading, notice_lines
from lang import t
from lang.says import Namer

# How many characters of a notice's lines a private message carries at most.
PRIVATE_LINES_BUDGET = 1200


def humans(match: MatchRecord) -> list[int]:
    """The user ids of the people (not computers) playing ``match``."""
    return [p.user_id for p in match.players if p.user_id is not None and p.bot is None]


def private_reader(match: MatchRecord, seat: int, notice: Notice) -> int | None:
    """Who reads the private message of ``seat`` for ``notice``: its player's user id, or None when
    nobody does (a computer's hand; but a person away whose seat a computer plays still reads what is
    addressed to them)."""
    player = match.player_at(seat)
    if player is None or player.user_id is None:
        return None
    if player.bot is not None and not (player.absent and notice.personal):
        return None  # nobody reads a computer player's hand
    return player.user_id


def call_list(match: MatchRecord, seats: Sequence[int], mention: Callable[[int], str]) -> str:
    """The players of ``seats`` as a post calls them: people by ``mention(user_id)``, computers by their
    name in bold."""
    names = []
    for seat in seats:
        player = match.player_at(seat)
        if player is None:
            continue
        names.append(mention(player.user_id) if player.user_id and not player.bot else f"**{player.name}**")
    return ", ".join(names)


def match_heading(locale: str, title: str, number: int) -> str:
    """ "**Game title** · match #N", in ``locale`` (``title``: the game's title as its rules give it)."""
    return f"**{t(locale, title)}** · " + t(locale, "match #{number}", number=number)


def heading_of(host: GameHost, match: MatchRecord, locale: str) -> str:
    """``match_heading`` of ``match``."""
    return match_heading(locale, host.rules(match.game).title, match.id)


def private_text(
    locale: str,
    heading: str,
    seat: int,
    notice: Notice,
    name: Namer,
    server: str | None = None,
    thread_link: str | None = None,
) -> str:
    """A private message: which match it is about (``heading``) and on which ``server``, the link to its
    thread, the notice's private lines, and whether it is the reader's (``seat``'s) turn."""
    where = " " + t(locale, "on **{server}**", server=server) if server else ""
    parts = [heading + where]
    said = notice_heading(locale, notice, name)
    if said:
        parts[0] += f" · {said}"
    if thread_link:
        parts.append(t(locale, "Thread: {link}", link=thread_link))
    lines = notice_lines(locale, notice, name)
    if lines:
        parts.extend(f"• {line}" for line in clip_lines(lines, PRIVATE_LINES_BUDGET, locale))
    if seat in notice.to_act:
        parts.append("▶ " + t(locale, "It is your turn: press **Play** below, or use `/move` in the thread."))
    return "\n".join(parts)


def seat_names(host: GameHost, match: MatchRecord, marks: Marks) -> Namer:
    """Seat names as messages show them: display names (as plain text) with colour symbols."""
    name = host.namer(match)
    return lambda seat: marks.text(name(seat))


def private_message(
    host: GameHost, match: MatchRecord, seat: int, notice: Notice, locale: str, marks: Marks
) -> str:
    """``private_text`` of ``notice`` for ``seat`` of ``match``, its server, thread and players written
    with ``marks``."""
    server = marks.server(match.guild_id) if match.guild_id else None
    heading = heading_of(host, match, locale)
    return private_text(
        locale, heading, seat, notice, seat_names(host, match, marks), server, marks.address(match)
    )


def moved_note(number: int, deleted: bool, in_channel: bool) -> Say:
    """What the match's new place says when its thread was ``deleted`` (else closed to the bot): it goes
    on in a new thread, or (``in_channel``) in the channel itself, no thread being possible."""
    if in_channel:
        if deleted:
            return HOST.say(
                "The thread of match #{number} was deleted, and I cannot open a new one: "
                "the match goes on in this channel.",
                number=number,
            )
        return HOST.say(
            "The thread of match #{number} was closed to me, and I cannot open a new one: "
            "the match goes on in this channel.",
            number=number,
        )
    if deleted:
        return HOST.say("The thread of match #{number} was deleted; the match goes on here.", number=number)
    return HOST.say("The thread of match #{number} was closed to me; the match goes on here.", number=number)


def nowhere_left(locale: str, heading: str) -> str:
    """The private message to each player of a match that has no thread or channel left to post in."""
    return (
        heading
        + ": "
        + t(
            locale,
            "I can no longer post in its thread or channel. The match goes on: use `/board` to see "
            "it, `/hand` for your hand and `/move` to play.",
        )
    )


def dm_closed(player: str) -> Say:
    """What the thread says, once, to a ``player`` (as the front end mentions them) whose direct messages
    are closed."""
    return HOST.say(
        "{player}, I cannot send you direct messages, so your hand stays here behind the **My hand** "
        "button (or `/hand`); only you can see what it shows.",
        player=player,
    )
