"""A replay step as a front end shows it: which view a person may ask for, the moves its step buttons go
to, what the step says above the board, and the places to jump to, in words.

The board of the step is drawn elsewhere (``render``); this module words and decides around it, so that
every front end steps through a match the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.core.errors import NotSeated, StaleVersion
from engine.core.say import Say
from engine.host.history import Jump
from engine.host.ports import MatchRecord
from engine.host.text import HOST
from lang.says import Namer, render

# The last move, whatever number it has.
LATEST = 10**9
# The steps around the move shown: first, previous, next and last.
STEP_KINDS = ("f", "p", "n", "l")
# A jump's label and description: a select option's limit.
OPTION_LIMIT = 100


def viewer_seat(match: MatchRecord, user_id: int, own: bool) -> int | None:
    """The seat whose own view the replay shows (None: the public board). Asking for one's own view of a
    match one does not play in is refused."""
    seat = match.seat_of(user_id)
    if own and seat is None:
        raise NotSeated(
            HOST.say("you are not playing in match #{number}, so it has no view of your own", number=match.id)
        )
    return seat if own else None


def step_targets(move: int, moves: int) -> dict[str, int]:
    """The move each step button goes to from ``move`` of ``moves``: first, previous, next, last (a button
    whose target is ``move`` itself has nowhere to go)."""
    return {"f": 0, "p": max(0, move - 1), "n": min(moves, move + 1), "l": moves}


def step_title(move: int, moves: int) -> Say:
    """Where the step stands: the opening, or move ``move`` of ``moves``."""
    if move == 0:
        return HOST.say("the opening")
    return HOST.say("move {move} of {moves}", move=move, moves=moves)


# Said under a step that shows the player's own view.
OWN_VIEW = HOST.say("Your own view at that moment: nobody else sees it.")


def step_lines(
    locale: str, heading: str, move: int, moves: int, says: Sequence[Say], own: bool, name: Namer
) -> list[str]:
    """What a step says above its board, in ``locale``: the match's ``heading`` and where the step stands,
    what the move said (``says``), and for the player's ``own`` view that nobody else sees it."""
    lines = [f"{heading} · {render(locale, step_title(move, moves))}"]
    lines.extend(render(locale, say, name) for say in says)
    if own:
        lines.append(render(locale, OWN_VIEW))
    return lines


def switch_label(own: bool) -> Say:
    """The label of the switch between the public board and the player's own view, from ``own``."""
    return HOST.say("Public board") if own else HOST.say("My view")


# The placeholder of the select of jumps.
JUMP_PROMPT = HOST.say("Jump to a turn or a scoring…")
# The refusal of a jump whose value is not one the select offers.
OUT_OF_DATE = HOST.say("that choice is out of date: ask for /replay again")


@dataclass(frozen=True, slots=True)
class JumpOption:
    """One place to jump to, in words: ``label`` and ``about`` (within an option's limit), ``value`` ``t``
    or ``s`` with the move (the end of a turn, a scoring), ``chosen`` for the one holding the move shown."""

    label: str
    value: str
    about: str
    chosen: bool = False


def clipped(text: str, most: int = OPTION_LIMIT) -> str:
    """``text`` within ``most`` characters, cut with an ellipsis."""
    return text if len(text) <= most else text[: most - 1] + "…"


def jump_options(places: Sequence[Jump], move: int, name: Namer, locale: str) -> list[JumpOption]:
    """The places to jump to in ``locale``: each turn's end and each scoring, the one holding ``move``
    chosen (at most one: a scoring shown is chosen rather than the turn that holds it)."""
    options = []
    for place in places:
        if place.final:
            label = render(locale, HOST.say("🏆 Final scoring, move {move}", move=place.move))
            value = f"s{place.move}"
        elif place.scoring:
            label = render(locale, HOST.say("🏆 Scoring, move {move}", move=place.move))
            value = f"s{place.move}"
        else:
            turn = HOST.say("Turn {turn}: {player}", turn=place.turn, player=name(place.seat or 0))
            label, value = render(locale, turn), f"t{place.move}"
        if place.scoring and place.says:
            about = render(locale, place.says[0], name)
        elif place.first >= place.move:
            about = render(locale, HOST.say("move {move}", move=place.move))
        else:
            about = render(locale, HOST.say("moves {first} to {last}", first=place.first, last=place.move))
        here = place.move == move if place.scoring else place.first <= move <= place.move
        options.append(JumpOption(clipped(label), value, clipped(about), here))
    chosen = [o for o in options if o.chosen]
    keep = next((o for o in reversed(chosen) if o.value.startswith("s")), chosen[0] if chosen else None)
    return [JumpOption(o.label, o.value, o.about, o is keep) for o in options]


def jump_target(value: str) -> int:
    """The move a jump's ``value`` goes to; refused as out of date when it is not one a select offers."""
    if not (value[:1] in ("t", "s") and value[1:].isascii() and value[1:].isdigit() and len(value) <= 12):
        raise StaleVersion(OUT_OF_DATE)
    return int(value[1:])
