"""What a post or a message says, in the reader's language, shared by every front end (the Discord posts,
the CLI demo and transcript): the lines of a notice, the final standings and the winner's line."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence

import lang
from engine.core.contract import Event, Outcome
from engine.core.errors import DESCRIBE_BUDGET, EngineError, StaleVersion
from engine.core.say import SILENT, Say, Speaker
from engine.host.marks import Dated, Marks
from engine.host.names import COMPUTER_SUFFIX
from engine.host.ports import MatchRecord, Notice
from lang import join, t, tn
from lang.says import Namer, render

log = logging.getLogger(__name__)

# The host's own sentences in notices (the bot's catalogue), translated where they are shown.
HOST = Speaker(lang.DOMAIN)


def sentence(event: Event) -> Say:
    """What a person reads for ``event``: its sentence (an event without one reads as it is stored)."""
    return event.say or HOST.say(event.text)


def told(events: Sequence[Event]) -> list[Event]:
    """The events people read: all but those whose sentence is ``SILENT``."""
    return [e for e in events if e.say != SILENT]


def refusal(locale: str, error: EngineError, name: Namer | None = None, marks: Marks | None = None) -> str:
    """A refusal in ``locale``: what is wrong (translated when the raiser gave a sentence, its moments
    written with ``marks``), then what the person can do instead, starting with a capital letter. What
    the error allows in notation (``error.allowed``) is for programs, never shown."""
    said = error.say
    if said is not None and marks is not None and isinstance(error, Dated):
        written = {key: marks.moment(when, "full") for key, when in error.moments.items()}
        said = said.model_copy(update={"args": {**said.args, **written}})
    namer = name or _numbered
    message = render(locale, said, namer) if said is not None else error.message
    text = message[: DESCRIBE_BUDGET // 2].rstrip(" ")
    text = text[:1].upper() + text[1:]
    if error.hint is None:
        return text
    hint = render(locale, error.hint, namer)
    ended = text if text.endswith((".", "?", "!", "…")) else text + "."
    return f"{ended} {hint[:1].upper()}{hint[1:]}"


def answer_to(error: BaseException, locale: str, marks: Marks | None = None) -> str:
    """What a person reads for ``error``: a refusal says what is wrong and what is allowed (⏳ for a
    control that no longer fits the board); anything unexpected is logged here with an incident id, and
    the person gets a short apology naming it."""
    if isinstance(error, StaleVersion):
        return "⏳ " + refusal(locale, error, marks=marks)
    if isinstance(error, EngineError):
        return "⚠️ " + refusal(locale, error, marks=marks)
    incident = secrets.token_hex(4)
    log.error("incident %s: unexpected error", incident, exc_info=error)
    return t(
        locale,
        "Sorry, something went wrong on our side (incident `{incident}`). Nothing was changed.",
        incident=incident,
    )


def answer_after_change(error: BaseException, locale: str) -> str:
    """What a person reads for ``error`` when it came after their move (or undo) was stored (see
    ``stands_after``)."""
    return render(locale, stands_after(error))


# How a person goes on after a surprise that followed their move: in Discord, from the match's thread;
# on the web table, from the page, which shows the match as it stands once the move is played.
GO_ON_IN_THREAD = HOST.say("Press Play under the latest post to go on.")
GO_ON_ON_PAGE = HOST.say("The board below shows the match as it stands now.")


def stands_after(error: BaseException, go_on: Say = GO_ON_IN_THREAD) -> Say:
    """The sentence for ``error`` when it came after a person's move (or undo) was stored: logged here
    with an incident id, like any surprise, but the person learns that what they did stands, and how to
    go on (``go_on``)."""
    incident = secrets.token_hex(4)
    log.error("incident %s: unexpected error after a stored change", incident, exc_info=error)
    return HOST.say(
        "Sorry, something went wrong on our side afterwards (incident `{incident}`), but that was done "
        "and stands. {go_on}",
        incident=incident,
        go_on=go_on,
    )


def _numbered(seat: int) -> str:
    return f"#{seat + 1}"


def notice_lines(locale: str, notice: Notice, name: Namer) -> list[str]:
    """The notice's lines as sentences in ``locale`` (older notices, stored before sentences: as stored)."""
    if notice.says:
        return [render(locale, say, name) for say in notice.says]
    return list(notice.lines)


def notice_heading(locale: str, notice: Notice, name: Namer) -> str | None:
    if notice.heading is not None:
        return render(locale, notice.heading, name)
    return notice.headline


def said_lines(locale: str, notice: Notice, name: Namer) -> list[str]:
    """A notice as plain text in ``locale``: its heading, then one bulleted line per sentence."""
    heading = notice_heading(locale, notice, name)
    lines = [heading] if heading else []
    lines.extend(f"• {line}" for line in notice_lines(locale, notice, name))
    return lines


def post_lines(
    locale: str, match: MatchRecord, notice: Notice, name: Namer, outcome: Outcome | None
) -> list[str]:
    """A thread post as plain text in ``locale`` (the CLI's demo and transcript): the winner once the
    match is over (``outcome``), what the notice says, then the final standings or whom it calls to act."""
    lines = [winners_line(locale, outcome, name)] if outcome is not None else []
    lines.extend(said_lines(locale, notice, name))
    if outcome is not None:
        lines.extend(standings_lines(locale, match, outcome, name))
    elif notice.to_act:
        players = lang.join(locale, [name(seat) for seat in notice.to_act])
        lines.append("▶ " + t(locale, "{players} to act", players=players))
    return lines


def _score(locale: str, outcome: Outcome, count: int) -> str:
    """A score in the game's own unit: "5 points", or Skyline's "5 prestige points"."""
    if outcome.unit == "prestige":
        return tn(locale, "{count} prestige point", "{count} prestige points", count)
    return tn(locale, "{count} point", "{count} points", count)


def _sides(outcome: Outcome) -> list[tuple[int, ...]]:
    """The sides that finished: the teams of a team game, else each seat alone."""
    return list(outcome.teams) if outcome.teams else [(seat,) for seat in range(len(outcome.places))]


def _side_place(outcome: Outcome, side: tuple[int, ...]) -> int:
    """A side's place: a seat's own, a team's among the teams (partners share it, so teams rank 1, 2)."""
    mine = outcome.places[side[0]]
    if not outcome.teams:
        return mine
    return 1 + sum(1 for other in _sides(outcome) if outcome.places[other[0]] < mine)


def winners_line(locale: str, outcome: Outcome, name: Namer) -> str:
    """The first line of a finished match: who won, with how many points (a team with its combined
    score)."""
    first = [side for side in _sides(outcome) if outcome.places[side[0]] == 1]
    points = sum(outcome.scores[seat] for seat in first[0]) if first else 0
    score = _score(locale, outcome, points)
    if outcome.teams and len(first) == 1:
        partners = join(locale, [name(seat) for seat in first[0]])
        return "🏆 " + t(locale, "{winners} win with {score}", winners=partners, score=score)
    names = [join(locale, [name(seat) for seat in side]) for side in first]
    if len(names) == 1:
        return "🏆 " + t(locale, "{winner} wins with {score}", winner=names[0], score=score)
    return "🏆 " + t(
        locale, "{winners} share first place with {score}", winners=" · ".join(names), score=score
    )


def standings_lines(locale: str, match: MatchRecord, outcome: Outcome, name: Namer) -> list[str]:
    """Place, name and score per player (per team in a team game, with its combined score), best first,
    then the game's own breakdown, in ``locale``."""
    sides = sorted(_sides(outcome), key=lambda side: (outcome.places[side[0]], side))
    lines = [t(locale, "Final standings:")]
    for side in sides:
        who = join(locale, [standing_name(locale, match, seat, name) for seat in side])
        score = _score(locale, outcome, sum(outcome.scores[seat] for seat in side))
        lines.append(f"{_side_place(outcome, side)}. {who} · {score}")
    if outcome.breakdown:
        lines.extend(render(locale, line, name) for line in outcome.breakdown)
    else:
        lines.extend(outcome.details)
    return lines


def standing_name(locale: str, match: MatchRecord, seat: int, name: Namer) -> str:
    """A seat's name in the standings: a seat given up to a computer says whose it was and why ("Carol's
    seat (computer, after Carol resigned)"), since its place is theirs."""
    player = match.player_at(seat)
    named = name(seat)
    if player is None or player.bot is None or not (player.resigned or player.absent):
        return named
    person = player.name.removesuffix(COMPUTER_SUFFIX)
    if player.resigned:
        seat_name = t(locale, "{person}'s seat (computer, after {person} resigned)", person=person)
    else:
        seat_name = t(locale, "{person}'s seat (computer, while {person} is away)", person=person)
    return named.replace(player.name, seat_name)


def standings_notation(match: MatchRecord, outcome: Outcome) -> list[str]:
    """The standings as the CLI prints them: place, seat, name, score, then the notation breakdown."""
    rows = sorted(range(len(outcome.places)), key=lambda s: (outcome.places[s], s))
    lines = ["Final standings:"]
    for seat in rows:
        player = match.player_at(seat)
        player_name = player.name if player else "?"
        lines.append(
            f"  {outcome.places[seat]}. S{seat + 1} {player_name:<12} {outcome.scores[seat]:>4} points"
        )
    lines.extend(f"  {detail}" for detail in outcome.details)
    return lines


def clip_lines(lines: Sequence[str], budget: int, locale: str = lang.DEFAULT) -> list[str]:
    """The last lines that fit in ``budget`` characters, preceded by a note of how many were left out."""
    kept: list[str] = []
    used = 0
    for line in reversed(lines):
        if used + len(line) + 1 > budget:
            break
        kept.append(line)
        used += len(line) + 1
    kept.reverse()
    skipped = len(lines) - len(kept)
    note = tn(locale, "… {count} earlier line", "… {count} earlier lines", skipped)
    return ([note] if skipped else []) + kept
