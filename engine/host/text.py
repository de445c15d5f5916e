"""What a post or a message says, in the reader's language, shared by every front end (the Discord posts,
the CLI demo and transcript): the lines of a notice, the final standings and the winner's line."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence

import lang
from engine.core.contract import Event, Outcome
from engine.core.errors import EngineError, StaleVersion
from engine.core.say import SILENT, Say, Speaker
from engine.host.marks import Dated, Marks
from engine.host.ports import MatchRecord, Notice
from lang import N_, t, tn
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
    written with ``marks``), then what is allowed, starting with a capital letter."""
    said = error.say
    if said is not None and marks is not None and isinstance(error, Dated):
        written = {key: marks.moment(when, "full") for key, when in error.moments.items()}
        said = said.model_copy(update={"args": {**said.args, **written}})
    message = render(locale, said, name or _numbered) if said is not None else error.message
    more = lang.catalogue(locale).gettext(N_("(and {count} more)"))
    text = error.describe(message=message, allowed_word=t(locale, "Allowed"), more=more)
    return text[:1].upper() + text[1:]


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
    """What a person reads for ``error`` when it came after their move (or undo) was stored: logged here
    with an incident id, like any surprise, but the person learns that what they did stands."""
    incident = secrets.token_hex(4)
    log.error("incident %s: unexpected error after a stored change", incident, exc_info=error)
    return t(
        locale,
        "Sorry, something went wrong on our side afterwards (incident `{incident}`), but that was done "
        "and stands. Press Play under the latest post to go on.",
        incident=incident,
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


def winners_line(locale: str, outcome: Outcome, name: Namer) -> str:
    """The first line of a finished match: who won, with how many points."""
    first = [seat for seat, place in enumerate(outcome.places) if place == 1]
    points = outcome.scores[first[0]] if first else 0
    names = [name(seat) for seat in first]
    if len(names) == 1:
        return "🏆 " + tn(
            locale,
            "{winner} wins with {count} point",
            "{winner} wins with {count} points",
            points,
            winner=names[0],
        )
    return "🏆 " + tn(
        locale,
        "{winners} share first place with {count} point",
        "{winners} share first place with {count} points",
        points,
        winners=" · ".join(names),
    )


def standings_lines(locale: str, match: MatchRecord, outcome: Outcome, name: Namer) -> list[str]:
    """Place, name and score per player, best first, then the game's own breakdown, in ``locale``."""
    rows = sorted(range(len(outcome.places)), key=lambda s: (outcome.places[s], s))
    lines = [t(locale, "Final standings:")]
    for seat in rows:
        score = tn(locale, "{count} point", "{count} points", outcome.scores[seat])
        lines.append(f"{outcome.places[seat]}. {name(seat)} · {score}")
    if outcome.breakdown:
        lines.extend(render(locale, line, name) for line in outcome.breakdown)
    else:
        lines.extend(outcome.details)
    return lines


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
