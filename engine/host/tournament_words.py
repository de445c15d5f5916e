"""What people read about a tournament, shared by every front end: the answers to the organisers' and
players' commands, the standings as a table of text (and the rows of their image), the question before
a round is ended, the names of the tables' threads, and the round's pairings, reminders and final line.

Short answers are sentences (``Say``) rendered where they are shown; the longer texts are built here in
the reader's language. A front end gives what only it knows: how it writes a person, a thread or a moment
(its ``Marks``) and how long one message may be."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from engine.core.errors import LobbyError
from engine.core.say import Say, items
from engine.host.marks import Marks
from engine.host.service import GameHost
from engine.host.text import HOST
from engine.host.tournament_records import (
    AdvancePlan,
    Entrant,
    RoundRecord,
    RoundReport,
    TableRecord,
    TournamentRecord,
    TournamentStatus,
)
from engine.tournament import Standing, standings
from lang import N_, join, t, tn
from lang.says import render

# The longest message a chat front end takes (Discord's).
MESSAGE_LIMIT = 2000
# The longest name of a thread (Discord's).
THREAD_NAME_LIMIT = 100


def titled(record: TournamentRecord) -> str:
    """The tournament's name as it stands in a sentence (in bold)."""
    return f"**{record.name}**"


def called(entrant: Entrant, marks: Marks) -> str:
    """A player as a post names them: a person called by name, a computer (or anyone the front end
    cannot call) set apart."""
    if entrant.user_id and not entrant.bot:
        return marks.person(entrant.user_id)
    return marks.strong(entrant.name)


# ------------------------------------------------------------------------------ the commands' answers


def created_of(host: GameHost, record: TournamentRecord) -> Say:
    """``created`` with the title of ``record``'s game."""
    return created(record, host.rules(record.game).title)


def created(record: TournamentRecord, game_title: str) -> Say:
    """The answer to creating ``record``: its game, format and table sizes, and what to do next."""
    config = record.config
    return HOST.say(
        "Created tournament #{number} {tournament}: {game}, {format}, tables of {low}-{high} "
        "(best {best}). Open registration with `/tournament open`.",
        number=record.id,
        tournament=titled(record),
        game=HOST.say(game_title),
        format=HOST.say(config.format),
        low=config.min_size,
        high=config.max_size,
        best=config.preferred,
    )


def registration_opened(record: TournamentRecord) -> Say:
    return HOST.say(
        "Registration for {tournament} is open: press the button or use `/tournament join`.",
        tournament=titled(record),
    )


def registration_closed(record: TournamentRecord) -> Say:
    return HOST.say_n(
        "Registration for {tournament} is closed with {count} player.",
        "Registration for {tournament} is closed with {count} players.",
        len(record.entrants),
        tournament=titled(record),
    )


def started(record: TournamentRecord) -> Say:
    return HOST.say_n(
        "{tournament} has started with {count} player.",
        "{tournament} has started with {count} players.",
        len(record.entrants),
        tournament=titled(record),
    )


def registered(record: TournamentRecord, counted: bool = False) -> Say:
    """The answer to joining; ``counted``: with how many players are registered so far."""
    if counted:
        return HOST.say_n(
            "You are registered for {tournament} ({count} player so far).",
            "You are registered for {tournament} ({count} players so far).",
            len(record.entrants),
            tournament=titled(record),
        )
    return HOST.say("You are registered for {tournament}.", tournament=titled(record))


def left(record: TournamentRecord) -> Say:
    return HOST.say("You left {tournament}.", tournament=titled(record))


def computer_joins(record: TournamentRecord) -> Say:
    """That the computer entered last joins ``record``."""
    return HOST.say(
        "{player} joins {tournament}.", player=record.entrants[-1].name, tournament=titled(record)
    )


def dropped(record: TournamentRecord, entrant: Entrant) -> Say:
    return HOST.say("{player} is dropped from {tournament}.", player=entrant.name, tournament=titled(record))


def takes_over(entrant: Entrant, newcomer: str) -> Say:
    """That ``newcomer`` (as the front end names them) takes over ``entrant``'s place."""
    return HOST.say("{newcomer} takes over from {player}.", newcomer=newcomer, player=entrant.name)


def computer_plays_on(entrant: Entrant) -> Say:
    return HOST.say("A computer plays on for {player} at their table.", player=entrant.name)


def decided(record: TournamentRecord, table: int) -> Say:
    return HOST.say("Table {table} of {tournament} is decided.", table=table, tournament=titled(record))


def cancelled(record: TournamentRecord) -> Say:
    return HOST.say("{tournament} is cancelled.", tournament=titled(record))


def organiser_role_set(role: str | None) -> Say:
    """That the role ``role`` (as the front end names it) now runs tournaments; None: only admins."""
    if role is None:
        return HOST.say("Only admins can run tournaments now.")
    return HOST.say("{role} can now run tournaments.", role=role)


def plays_on(record: TournamentRecord, number: int) -> Say:
    """That an organiser called off ending round ``number``."""
    return HOST.say(
        "Nothing changed: round {number} of {tournament} plays on.", number=number, tournament=titled(record)
    )


def round_ended(record: TournamentRecord, number: int, report: RoundReport) -> Say:
    """That round ``number`` was ended: over, or over once the computers that took seats finish."""
    if number in report.finished_rounds:
        return HOST.say("Round {number} of {tournament} is over.", number=number, tournament=titled(record))
    return HOST.say(
        "Round {number} of {tournament} ends as soon as the computer players finish its open tables.",
        number=number,
        tournament=titled(record),
    )


def my_table(record: TournamentRecord, user_id: int) -> Say:
    """Where the person ``user_id`` plays in the current round: their table, its match and state and
    whom they play, or their bye. ``LobbyError`` when they do not play or the tournament has not started."""
    entrant = record.entrant_of_user(user_id)
    if entrant is None:
        raise LobbyError(HOST.say("you are not playing in {tournament}", tournament=titled(record)))
    if not record.rounds:
        raise LobbyError(HOST.say("{tournament} has not started yet", tournament=titled(record)))
    rnd = record.rounds[-1]
    table = table_of(rnd, entrant.key)
    if table is None:
        return HOST.say("You have a bye in round {number}.", number=rnd.round.number)
    # Two whole sentences, so each language words the table's state its own way.
    sentence = (
        N_("Round {number}, table {table} (match #{match}), finished, with {players}.")
        if table.result
        else N_("Round {number}, table {table} (match #{match}), playing, with {players}.")
    )
    others = [record.name_of(k) for k in table.players if k != entrant.key]
    return HOST.say(
        sentence,
        number=rnd.round.number,
        table=table.number,
        match=str(table.match_id),
        players=items(others),
    )


def table_of(rnd: RoundRecord, key: str) -> TableRecord | None:
    """The table of round ``rnd`` the entrant ``key`` plays at; None for a bye (or no place in it)."""
    return next((table for table in rnd.tables if key in table.players), None)


# ------------------------------------------------------------------------------ the standings

# The standings' columns, as their headings read; ``standings_legend`` says what each one means.
STANDING_COLUMNS = {
    "player": HOST.word("player", "standings column"),
    "points": HOST.word("points", "standings column"),
    "score": HOST.word("score", "standings column"),
    "opponents": HOST.word("opp.", "standings column"),
    "games": HOST.word("games", "standings column"),
}
DROPPED = HOST.word("dropped", "standings")


def column(locale: str, key: str) -> str:
    """A standings column's heading in ``locale``."""
    return render(locale, STANDING_COLUMNS[key])


def standings_of(record: TournamentRecord, after_round: int | None = None) -> list[Standing]:
    """The standings now, or as they stood after round ``after_round``."""
    history = record.history() if after_round is None else record.history()[:after_round]
    return standings(record.config, record.keys, history, record.dropped, seed=record.seed)


def standings_subtitle(locale: str, record: TournamentRecord, after_round: int | None = None) -> str:
    """ "final standings" once the tournament is over, else "standings after round N" (the last round
    played, or ``after_round``)."""
    if after_round is None and record.status is TournamentStatus.FINISHED:
        return t(locale, "final standings")
    number = len(record.rounds) if after_round is None else after_round
    return t(locale, "standings after round {number}", number=number)


def nobody_yet(locale: str, record: TournamentRecord) -> str:
    """The standings of a tournament nobody has registered for."""
    return f"{titled(record)} · " + t(locale, "nobody has registered yet")


def standings_rows(locale: str, record: TournamentRecord, after_round: int | None = None) -> list[str]:
    """The standings as a fixed-width table, headings first: rank, player, points, game score,
    opponents' strength and games played (now, or as they stood after ``after_round``)."""
    keys = ("points", "score", "opponents", "games")
    heads = [column(locale, key) for key in keys]
    widths = [max(6, len(head)) for head in heads]
    rows = [
        "  # "
        + f"{column(locale, 'player'):<16}"
        + "".join(f" {head:>{width}}" for head, width in zip(heads, widths, strict=True))
    ]
    for s in standings_of(record, after_round):
        figures = (f"{s.points:.2f}", str(s.game_score), f"{s.opponents_strength:.2f}", str(s.played))
        # The note goes last, so a long name never cuts it off.
        note = f" ({render(locale, DROPPED)})" if s.dropped else ""
        rows.append(
            f"{s.rank:>3} {record.name_of(s.player)[:16]:<16}"
            + "".join(f" {figure:>{width}}" for figure, width in zip(figures, widths, strict=True))
            + note
        )
    return rows


def standings_legend(locale: str, record: TournamentRecord) -> str:
    """What the standings' columns mean and how ties are broken, in ``locale``."""
    legend = t(
        locale,
        "{points}: tournament points for your places at the tables (a bye counts as a middle place). "
        "Ties go to the higher {score}, the sum of your own game scores, then to the higher {opp}, the "
        "average points of the opponents you met, then to a coin tossed when the tournament began. "
        "{games}: games played.",
        points=column(locale, "points"),
        score=column(locale, "score"),
        opp=column(locale, "opponents"),
        games=column(locale, "games"),
    )
    if record.config.format == "elimination":
        legend += " " + t(
            locale, "In an elimination, the round a player reached counts before everything else."
        )
    return "ℹ️ " + legend


def standings_message(
    locale: str, record: TournamentRecord, after_round: int | None = None, limit: int = MESSAGE_LIMIT
) -> str:
    """The tournament's name and the standings' subtitle, the table in a code block and the legend,
    within one message of ``limit`` characters: when the table is too long, its last rows give way to a
    note of how many were left out."""
    head = f"{titled(record)} · {standings_subtitle(locale, record, after_round)}"
    rows = standings_rows(locale, record, after_round)
    legend = standings_legend(locale, record)
    room = limit - len(head) - len(legend) - len("\n```\n\n```\n") - 40
    kept: list[str] = []
    for row in rows:
        if sum(len(r) + 1 for r in kept) + len(row) + 1 > room:
            break
        kept.append(row)
    if len(kept) < len(rows):
        kept.append(tn(locale, "… and {count} more", "… and {count} more", len(rows) - len(kept)))
    body = "\n".join(kept)
    return f"{head}\n```\n{body}\n```\n{legend}"[:limit]


ImageRow = tuple[int, str, float, int, float, str]


def standings_image(
    locale: str, record: TournamentRecord, after_round: int | None = None
) -> tuple[tuple[str, ...], list[ImageRow]]:
    """The headings and rows of the standings' image: rank, player, points, game score, opponents'
    strength and a note for a dropped player."""
    rows = [
        (
            s.rank,
            record.name_of(s.player),
            s.points,
            s.game_score,
            s.opponents_strength,
            render(locale, DROPPED) if s.dropped else "",
        )
        for s in standings_of(record, after_round)
    ]
    headings = ("#", *(column(locale, key) for key in ("player", "points", "score", "opponents")))
    return headings, rows


# ------------------------------------------------------------------------------ ending a round


def advance_question(
    locale: str,
    record: TournamentRecord,
    plan: AdvancePlan,
    threads: dict[int, int],
    marks: Marks,
    limit: int = MESSAGE_LIMIT,
) -> str:
    """What ending the round now would do, for the organiser to confirm: the round's deadline, each
    table still playing (linked to its thread in ``threads``, by match id) and whose seats a computer
    takes there; the question last, within ``limit`` characters."""
    lines = [
        t(
            locale,
            "Round {number} of {tournament} still has tables playing.",
            number=plan.round,
            tournament=titled(record),
        )
    ]
    if plan.deadline is not None:
        due = f"{plan.deadline:%Y-%m-%d %H:%M}"
        if plan.deadline_passed:
            lines.append(t(locale, "Its deadline passed at {due} UTC.", due=due))
        else:
            lines.append(t(locale, "Its deadline is {due} UTC: its players still have time.", due=due))
    for table in plan.open_tables:
        where = t(locale, "match #{number}", number=table.match_id)
        thread = threads.get(table.match_id) if table.match_id is not None else None
        where += f", {marks.thread(thread)}" if thread is not None else ""
        if table.people:
            lines.append(
                "• "
                + t(
                    locale,
                    "Table {table} ({where}): a computer takes the seats of {players}.",
                    table=table.number,
                    where=where,
                    players=join(locale, [f"**{record.name_of(k)}**" for k in table.people]),
                )
            )
        else:
            lines.append(
                "• "
                + t(locale, "Table {table} ({where}): computers finish it.", table=table.number, where=where)
            )
    question = t(
        locale,
        "End round {number} now? Computers play these tables to the end and the tournament moves on. "
        "Nothing changes until you confirm.",
        number=plan.round,
    )
    budget = limit - len(question) - 1
    while len("\n".join(lines)) > budget:
        lines.pop()
    return "\n".join([*lines, question])


# ------------------------------------------------------------------------------ the announcements


def thread_name(locale: str, tournament: str, round_number: int, table: int) -> str:
    """The name of a tournament table's thread, "Big Apple Cup · R1 · T2", within the longest name a
    thread may have: a long tournament name is shortened, never the round and table that tell the
    threads apart."""
    template = N_("{tournament} · R{round} · T{table}")
    rest = len(t(locale, template, tournament="", round=round_number, table=table))
    room = THREAD_NAME_LIMIT - rest
    if len(tournament) > room:
        tournament = tournament[: max(0, room - 1)].rstrip() + "…"
    return t(locale, template, tournament=tournament, round=round_number, table=table)


def winner_of(record: TournamentRecord) -> Entrant:
    """Who tops the standings."""
    return record.entrant(standings_of(record)[0].player)


def final_line(locale: str, record: TournamentRecord, marks: Marks) -> str:
    """The tournament's last announcement: that it is over and who won, then the standings' legend."""
    winner = called(winner_of(record), marks)
    over = t(locale, "{tournament} is over: {winner} wins.", tournament=titled(record), winner=winner)
    return f"🏆 {over}\n{standings_legend(locale, record)}"


def pairings_post(
    locale: str,
    record: TournamentRecord,
    rnd: RoundRecord,
    threads: dict[int, int],
    marks: Marks,
    limit: int = MESSAGE_LIMIT,
) -> str:
    """Round ``rnd``'s pairings as posted in the tournament's channel: each table, its match, its thread
    (from ``threads``, by table number) and its players, then the byes; within ``limit`` characters."""
    number = rnd.round.number
    lines = [f"{titled(record)} · " + t(locale, "round {number}", number=number)]
    for table in rnd.tables:
        players = ", ".join(called(record.entrant(k), marks) for k in table.players)
        thread = threads.get(table.number)
        if thread is None:
            line = t(
                locale,
                "Table {table} (match #{match}): {players}",
                table=table.number,
                match=table.match_id,
                players=players,
            )
        else:
            line = t(
                locale,
                "Table {table} (match #{match}, {thread}): {players}",
                table=table.number,
                match=table.match_id,
                thread=marks.thread(thread),
                players=players,
            )
        lines.append(line)
    if rnd.round.byes:
        byes = ", ".join(called(record.entrant(k), marks) for k in rnd.round.byes)
        lines.append(t(locale, "Bye: {players}", players=byes))
    return "\n".join(lines)[:limit]


def pairing_message(
    locale: str,
    record: TournamentRecord,
    rnd: RoundRecord,
    entrant: Entrant,
    server: str | None,
    thread_url: str | None,
    limit: int = MESSAGE_LIMIT,
) -> str:
    """What ``entrant`` is told of round ``rnd`` in private: the tournament (on ``server``), where they
    play, against whom and the address of their table's thread, or their bye."""
    number = rnd.round.number
    where = " " + t(locale, "on **{server}**", server=server) if server else ""
    lines = [f"{titled(record)}{where} · " + t(locale, "round {number}", number=number)]
    table = table_of(rnd, entrant.key)
    if table is None:
        lines.append(t(locale, "You have a bye in round {number}.", number=number))
    else:
        others = join(locale, [record.name_of(k) for k in table.players if k != entrant.key])
        lines.append(
            t(
                locale,
                "You play at table {table} (match #{match}) with {players}.",
                table=table.number,
                match=table.match_id,
                players=others,
            )
        )
        if thread_url is not None:
            lines.append(t(locale, "Thread: {link}", link=thread_url))
    return "\n".join(lines)[:limit]


def reminder(
    locale: str,
    record: TournamentRecord,
    number: int,
    people: Sequence[int],
    deadline: datetime,
    marks: Marks,
) -> str:
    """The reminder at a table still playing round ``number``: that the round ends at ``deadline``,
    addressed to ``people`` (user ids)."""
    return "⏳ " + t(
        locale,
        "{players}: round {number} of {tournament} ends {when}; then computers finish the matches "
        "still being played.",
        players=", ".join(marks.person(user_id) for user_id in people),
        number=number,
        tournament=titled(record),
        when=marks.moment(deadline, "relative"),
    )


def channel_lost(locale: str, record: TournamentRecord, server: str | None, deleted: bool) -> str:
    """What the organiser is told when the tournament's channel was ``deleted`` or no longer takes the
    bot's posts: the tournament goes on, and where its players find their tables and the standings."""
    name = titled(record) + (" " + t(locale, "on **{server}**", server=server) if server else "")
    if deleted:
        return t(
            locale,
            "The channel of your tournament {tournament} was deleted, so I cannot post its pairings and "
            "standings there. The tournament goes on: players see their tables with `/tournament mytable` "
            "and the standings with `/tournament standings`.",
            tournament=name,
        )
    return t(
        locale,
        "The channel of your tournament {tournament} no longer lets me post, so I cannot post its "
        "pairings and standings there. The tournament goes on: players see their tables with "
        "`/tournament mytable` and the standings with `/tournament standings`. Give me back Send "
        "Messages and Attach Files in that channel for the next rounds' posts to appear there.",
        tournament=name,
    )
