"""What people read about matches outside the board: a match's lobby message, the lists of ``/game list``,
``/game history`` and ``/mygames``, a match's status, the questions before resigning or abandoning and the
answers after, and the lobby's own refusals (who may add computer players, which levels there are).

Every front end shows these texts as they are; what only a front end knows how to write (a person's
mention, a thread, a moment, a link) it writes through its ``Marks``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from babel.numbers import format_percent
from pydantic import ValidationError

from engine.core.errors import CorruptRecord, LobbyError
from engine.core.say import Say
from engine.host import controls
from engine.host.clock import Pace
from engine.host.clock_words import clock_notes
from engine.host.marks import Marks
from engine.host.outgoing import Outgoing
from engine.host.ports import MatchRecord, MatchStatus, MatchSummary, Player, Scope
from engine.host.posts import duration
from engine.host.ratings import places_as_rated
from engine.host.refusals import CHOOSE_A_LEVEL, NO_SUCH_LEVEL, require_seat
from engine.host.service import GameHost
from engine.host.text import HOST, standings_lines, winners_line
from lang import DEFAULT, N_, join, t, tn
from lang.says import Namer, render

# How strong each computer player is, as people choose it: (its level, the level and what it does).
LEVEL_WORDS = {
    "random": (N_("easy"), N_("easy: plays at random")),
    "greedy": (N_("normal"), N_("normal: takes the move that looks best right now")),
    "strong": (N_("strong"), N_("strong: thinks several moves ahead")),
}

# What a match's status is called, for the catalogue.
STATUS_WORDS = {
    MatchStatus.LOBBY: N_("waiting for players"),
    MatchStatus.ACTIVE: N_("in play"),
    MatchStatus.FINISHED: N_("finished"),
    MatchStatus.ABANDONED: N_("abandoned"),
}

PACE_WORDS = {
    Pace.NONE: N_("no clock"),
    Pace.RELAXED: N_("relaxed: 3 days per move"),
    Pace.DAILY: N_("daily: 24 hours per move"),
    Pace.FAST: N_("fast: 1 hour per move"),
}

# /game history shows this many finished matches, the last to end first.
HISTORY_SHOWN = 15
# /game list shows at most this many open matches.
LIST_SHOWN = 20
# Each list of /mygames shows at most this many matches, so the answer fits one message.
MINE_SHOWN = 10


def levels_of(host: GameHost, game: str) -> list[str]:
    """The computer players a person may choose for ``game``, weakest first."""
    available = host.policies.get(game, {})
    return [name for name in LEVEL_WORDS if name in available]


def first_up(text: str) -> str:
    return text[:1].upper() + text[1:]


def level_name(locale: str, policy: str) -> str:
    """A computer player's level in ``locale`` ("normal"); a policy of no level as it is called."""
    words = LEVEL_WORDS.get(policy)
    return t(locale, words[0]) if words else policy


def level_choice(locale: str, policy: str) -> str:
    """A level as a choice offers it: its name and what it does ("Normal: takes the move …")."""
    return first_up(t(locale, LEVEL_WORDS[policy][1]))


def game_title(host: GameHost, game: str, locale: str) -> str:
    """A game's title in ``locale``."""
    return t(locale, host.rules(game).title)


def option_suggestions(host: GameHost, game: str | None, typed: str, locale: str) -> list[tuple[str, str]]:
    """What to offer someone typing the options of ``game``: (what they read, what is filled in) for each
    option id that completes the last item of the comma-separated list ``typed``, with what it does."""
    rules = host.games.get(game or "")
    if rules is None:
        return []
    presentation = host.presentation(rules.name)
    done, _, last = typed.rpartition(",")
    head = f"{done}," if done else ""

    def about(option: str) -> str:
        said = presentation.option_says.get(option)
        return render(locale, said) if said else rules.options[option]

    return [
        (f"{head}{option} — {about(option)}"[:100], f"{head}{option}"[:100])
        for option in rules.options
        if option.startswith(last.strip().lower())
    ][:25]


# ------------------------------------------------------------------ opening and filling a lobby


def require_a_free_seat(seats: int, computers: int) -> None:
    """Refuses a new match whose computer players would take every seat, leaving none for its creator."""
    if computers >= seats:
        raise LobbyError(
            HOST.say_n(
                "{count} computer player leaves no seat for you in a {seats}-seat match",
                "{count} computer players leave no seat for you in a {seats}-seat match",
                computers,
                seats=seats,
            )
        )


async def open_match(
    host: GameHost,
    game: str,
    seats: int,
    options: frozenset[str],
    creator: Player,
    guild_id: int | None,
    channel_id: int | None,
    pace: Pace,
    computers: int = 0,
    level: str = "greedy",
    least_reliability: float = 0.0,
) -> MatchRecord:
    """A new match of ``game`` opened by ``creator``, with ``computers`` computer players of ``level``
    seated at once, for people who played at least ``least_reliability`` of their turns in time; refused
    when the computers would leave the creator no seat."""
    require_a_free_seat(seats, computers)
    match = await host.create_match(
        game,
        seats,
        options,
        creator=creator,
        guild_id=guild_id,
        channel_id=channel_id,
        pace=pace,
        least_reliability=least_reliability,
    )
    for _ in range(computers):
        match = await host.add_computer(match.id, level)
    return match


def thread_title(host: GameHost, match: MatchRecord) -> str:
    """The name of a match's thread: its game and its number."""
    return f"{host.rules(match.game).title} #{match.id}"


async def require_creator(host: GameHost, match_id: int, scope: Scope) -> MatchRecord:
    """The match, when the person asking (``scope``) created it or nobody did; refused otherwise."""
    match = await host.match(match_id, scope)
    if match.creator_id not in (None, scope.user_id):
        raise LobbyError(HOST.say("only the player who created the match can add computer players"))
    return match


async def add_computer_of_level(host: GameHost, match_id: int, level: str, scope: Scope) -> MatchRecord:
    """A computer player of ``level`` seated by the match's creator; refused for anyone else and for a
    level the game has not (the levels it has listed)."""
    match = await require_creator(host, match_id, scope)
    levels = levels_of(host, match.game)
    if level not in levels:
        raise LobbyError(NO_SUCH_LEVEL, [level_name(DEFAULT, n) for n in levels], hint=CHOOSE_A_LEVEL)
    return await host.add_computer(match_id, level, scope=scope)


def opened(match_id: int, thread: str) -> Say:
    """The answer to the creator of a match opened in ``thread``."""
    return HOST.say("Match #{number} is open in {thread}.", number=match_id, thread=thread)


def started(match_id: int) -> Say:
    return HOST.say("Match #{number} has started.", number=match_id)


def lobby_text(host: GameHost, match: MatchRecord, locale: str, marks: Marks) -> str:
    """The lobby message of a match: who sits, which options, and what happens next."""
    options = ", ".join(sorted(match.options)) or t(locale, "none")
    seated = ", ".join(
        f"{p.name} · {level_name(locale, p.bot)}" if p.bot else p.name for p in match.players
    ) or t(locale, "nobody yet")
    status = t(locale, STATUS_WORDS[match.status])
    lines = [
        f"**{game_title(host, match.game, locale)}** · "
        + t(locale, "match #{number}", number=match.id)
        + f" · {status}",
        t(
            locale,
            "Players {seated}/{seats}: {names}",
            seated=len(match.players),
            seats=match.seat_count,
            names=seated,
        ),
        t(locale, "Options: {options}", options=options),
        t(locale, "Clock: {clock}.", clock=t(locale, PACE_WORDS[match.pace])),
    ]
    if match.status is MatchStatus.LOBBY:
        if match.least_reliability > 0:
            lines.append(
                t(
                    locale,
                    "Open to players who played at least {share} of their turns in time.",
                    share=format_percent(match.least_reliability, locale=locale),
                )
            )
        creator = marks.person(match.creator_id) if match.creator_id else t(locale, "the creator")
        lines.append(
            t(locale, "Join with the button; {creator} starts when every seat is taken.", creator=creator)
        )
    elif match.status is MatchStatus.ACTIVE:
        lines.append(t(locale, "The match has started: the board is posted below."))
    return "\n".join(lines)


def lobby_message(host: GameHost, match: MatchRecord, locale: str, marks: Marks) -> Outgoing:
    """The lobby message: its text, and the lobby's controls with the computer players of the game."""
    levels = [(level, level_choice(locale, level)) for level in levels_of(host, match.game)]
    return Outgoing(lobby_text(host, match, locale, marks), controls.lobby(match, locale, levels))


# ------------------------------------------------------------------ lists and status


def unreadable_lines(locale: str, match_ids: Sequence[int]) -> list[str]:
    """A listing's line for each match that cannot be read: named, never hidden, so an admin knows what
    to abandon."""
    return [
        t(locale, "#{number} cannot be read; an admin can abandon it with `/game abandon`", number=n)
        for n in match_ids
    ]


async def open_list(host: GameHost, scope: Scope, locale: str, marks: Marks) -> str:
    """``/game list``: the matches waiting for players or in play, newest first, each with its game, its
    status (how long it has waited for a move), its seats and its thread. A server lists its own
    matches; direct messages list the person's, wherever they are."""
    listing = await host.survey(scope, [MatchStatus.LOBBY, MatchStatus.ACTIVE], limit=LIST_SHOWN)
    lines = []
    unreadable = sorted(listing.unreadable)
    for m in listing.matches:
        if m.game not in host.games:
            unreadable.append(m.id)
            continue
        where = " " + t(locale, "in {thread}", thread=marks.thread(m.thread_id)) if m.thread_id else ""
        seats = tn(
            locale,
            "{seated}/{count} player",
            "{seated}/{count} players",
            m.seat_count,
            seated=len(m.players),
        )
        status = t(locale, STATUS_WORDS[m.status])
        if m.status is MatchStatus.ACTIVE:
            waited = duration(locale, host.clock() - datetime.fromisoformat(m.updated_at))
            status += " · " + t(locale, "waiting for {time}", time=waited)
        elif m.least_reliability > 0:
            share = format_percent(m.least_reliability, locale=locale)
            status += " · " + t(locale, "turns in time: at least {share}", share=share)
        lines.append(f"#{m.id} {game_title(host, m.game, locale)} · {status} · {seats}{where}")
    lines += unreadable_lines(locale, unreadable)
    if not lines:
        return t(locale, "No open matches here. Start one with `/game new`.")
    return "\n".join(lines)


async def history_list(
    host: GameHost, scope: Scope, locale: str, marks: Marks, namer: Callable[[MatchRecord], Namer]
) -> str:
    """``/game history``: the finished matches, the last to end first, each with its game, when it ended,
    who won (seats named by ``namer``) and its thread. As ``open_list``: a server's own matches; in
    direct messages, the person's anywhere."""
    listing = await host.survey(scope, limit=HISTORY_SHOWN, finished_by_end=True)
    lines = []
    unreadable = sorted(listing.unreadable)
    for m in listing.matches:
        try:
            outcome = host.outcome(m) if m.game in host.games else None
            outcome = places_as_rated(m, outcome) if outcome is not None else None
        except ValidationError:
            outcome = None
        if outcome is None:
            unreadable.append(m.id)
            continue
        ended = marks.moment(datetime.fromisoformat(m.updated_at), "date")
        where = " · " + t(locale, "in {thread}", thread=marks.thread(m.thread_id)) if m.thread_id else ""
        won = winners_line(locale, outcome, namer(m))
        lines.append(f"#{m.id} {game_title(host, m.game, locale)} · {ended} · {won}{where}")
    lines += unreadable_lines(locale, unreadable)
    if not lines:
        return t(locale, "No finished matches here yet.")
    return "\n".join(lines)


async def status_text(host: GameHost, match: MatchRecord, locale: str, marks: Marks) -> str:
    """``/game status``: the lobby text, then whom the match waits for (with their time left) or, once
    it is over, the winner and the standings."""
    lines = [lobby_text(host, match, locale, marks)]
    if match.status is MatchStatus.ACTIVE:
        to_act = host.to_act(match)
        name = host.namer(match)
        notes = await clock_notes(host, match, to_act, locale, marks)
        names = [f"{name(s)} · {notes[s]}" if s in notes else name(s) for s in to_act]
        lines.append(t(locale, "Waiting for {players}.", players=join(locale, names)))
    outcome = host.outcome(match)
    if outcome is not None:
        outcome = places_as_rated(match, outcome)
        name = host.namer(match)
        lines.append(winners_line(locale, outcome, name))
        lines.extend(standings_lines(locale, match, outcome, name))
    return "\n".join(lines)


# The link under /mygames to the first match waiting for the person.
NEXT_WAITING = HOST.say("Next match waiting for you")


@dataclass(frozen=True, slots=True)
class MyGames:
    """``/mygames``: its ``text``, and the address of the first match waiting for the person (None: no
    such match has an address), offered under the text as ``next_label``."""

    text: str
    next_address: str | None
    next_label: Say = NEXT_WAITING


def resigned_in(match: MatchRecord, user_id: int) -> bool:
    """Whether ``user_id`` gave up their seat in ``match`` to a computer."""
    seat = match.seat_of(user_id)
    player = match.player_at(seat) if seat is not None else None
    return player is not None and player.resigned


def last_move(match: MatchRecord, marks: Marks) -> str:
    """How long ago the match's last move was ("3 hours ago", in the reader's language)."""
    try:
        moment = datetime.fromisoformat(match.updated_at)
    except ValueError:
        return "?"
    return marks.moment(moment, "relative")


async def my_game_line(
    host: GameHost, match: MatchRecord, locale: str, marks: Marks, seat: int | None = None
) -> str:
    """One match of ``/mygames``: where it is, when its last move was, and (``seat``: it is theirs to
    play) how long they have left; it leads to the match's thread."""
    server = marks.server(match.guild_id) if match.guild_id else None
    where = " " + t(locale, "on **{server}**", server=server) if server else ""
    title = game_title(host, match.game, locale)
    text = f"#{match.id} {title}{where} · " + t(locale, "last move {when}", when=last_move(match, marks))
    if seat is not None:
        notes = await clock_notes(host, match, [seat], locale, marks)
        text += "".join(f" · {note}" for note in notes.values())
    address = marks.address(match)
    return f"• {marks.linked(text, address)}" if address else f"• {text}"


async def my_games(host: GameHost, user_id: int, locale: str, marks: Marks) -> MyGames:
    """The person's running matches on every server: those waiting for them, then those where they wait
    for others, each the longest wait first."""
    mine, waiting = await host.waiting_for(user_id)
    if not mine and not waiting:
        return MyGames(t(locale, "You are in no running match. Start one with `/game new`."), None)
    # A seat the person gave up plays on without them: listed apart, never as waiting for the others.
    resigned = [m for m in waiting if resigned_in(m, user_id)]
    others = [m for m in waiting if not resigned_in(m, user_id)]
    parts = []
    if mine:
        parts.append("**" + t(locale, "Your turn:") + "**")
        parts += [await my_game_line(host, m, locale, marks, m.seat_of(user_id)) for m in mine[:MINE_SHOWN]]
    if others:
        parts.append("**" + t(locale, "Waiting for the others:") + "**")
        parts += [await my_game_line(host, m, locale, marks) for m in others[:MINE_SHOWN]]
    if resigned:
        parts.append("**" + t(locale, "You resigned (a computer plays your seat):") + "**")
        parts += [await my_game_line(host, m, locale, marks) for m in resigned[:MINE_SHOWN]]
    first = next((address for m in mine if (address := marks.address(m))), None)
    return MyGames("\n".join(parts), first)


# ------------------------------------------------------------------ resigning, returning, abandoning


def resign_question(match: MatchRecord, user_id: int) -> Say:
    """What a player is asked before resigning ``match``; refused when it is not being played or they do
    not play there."""
    if match.status is not MatchStatus.ACTIVE:
        raise LobbyError(
            HOST.say("match #{number} is not being played: there is nothing to resign", number=match.id)
        )
    require_seat(match, user_id)  # not theirs, or already resigned: refused in words
    return HOST.say(
        "Resign match #{number}? A computer plays your seat until the end, and the rating counts you "
        "last, behind everyone who played on.",
        number=match.id,
    )


def welcome_back(match_id: int) -> Say:
    """The answer to a player who took back their seat from the computer that kept it."""
    return HOST.say("Welcome back: your seat in match #{number} is yours again.", number=match_id)


@dataclass(frozen=True, slots=True)
class AbandonQuestion:
    """What a person is asked before abandoning ``match`` (readable or not), in their language."""

    match: MatchSummary
    text: str


async def abandon_question(
    host: GameHost, match_id: int, scope: Scope, organiser: Callable[[], Awaitable[bool]], locale: str
) -> AbandonQuestion:
    """The question before abandoning match ``match_id``, for its creator or (``organiser``: whether the
    person asking is one of the server's) an organiser; refused for anyone else. A match whose row cannot
    be read can be abandoned too, and the question says why it cannot be read."""
    # The summary works on a match whose row cannot be read too, so an admin can clear it away.
    target = await host.summary(match_id, scope)
    if target.creator_id != scope.user_id and not await organiser():
        raise LobbyError(HOST.say("only the match's creator or a server admin can abandon it"))
    unreadable = ""
    try:
        await host.match(target.id, scope)
    except CorruptRecord as exc:
        unreadable = f"\n({exc.message})"
    asked = t(locale, "Abandon match #{number} for everyone? This cannot be undone.", number=target.id)
    return AbandonQuestion(target, asked + unreadable)
