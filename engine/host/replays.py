"""What a replay shows a person: one step of a match (its board, what the move said, the steps around it
and the jumps to turns and scorings) and the animation of the whole match, as messages for any front end."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from engine.core.say import Say
from engine.host import controls
from engine.host.animations import shortened_note
from engine.host.exports import animation_caption
from engine.host.history import Jump
from engine.host.marks import Marks
from engine.host.outgoing import Outgoing
from engine.host.ports import MatchRecord
from engine.host.private import heading_of, seat_names
from engine.host.replay_steps import jump_options, step_lines
from engine.host.service import GameHost
from lang import t
from lang.says import render


class DrawnStep(Protocol):
    """A step as the front end drew it: the match after its ``move``-th move of ``moves``."""

    @property
    def move(self) -> int: ...

    @property
    def moves(self) -> int: ...

    @property
    def png(self) -> bytes | None: ...

    @property
    def says(self) -> Sequence[Say]: ...

    @property
    def places(self) -> Sequence[Jump]: ...


def step_message(
    host: GameHost, match: MatchRecord, user_id: int, step: DrawnStep, own: bool, locale: str, marks: Marks
) -> Outgoing:
    """``step`` for ``user_id``: its words above its board, the ⏮ ◀ ▶ ⏭ buttons, for a seated player the
    switch between the public board and their ``own`` view, and the jumps."""
    name = seat_names(host, match, marks)
    lines = step_lines(locale, heading_of(host, match, locale), step.move, step.moves, step.says, own, name)
    jumps = jump_options(step.places, step.move, name, locale) if step.places else []
    seated = match.seat_of(user_id) is not None
    shown = controls.replay(match.id, step.move, step.moves, own, seated, jumps, locale)
    return Outgoing("\n".join(lines), shown, step.png)


def animation_text(host: GameHost, match: MatchRecord, shows: str, locale: str) -> str:
    """The words sent with the animation of ``match`` (see ``animations.shortened_note`` for ``shows``)."""
    text = render(locale, animation_caption(heading_of(host, match, locale)))
    note = shortened_note(locale, shows)
    return f"{text}\n{note}" if note else text


def final_animation_text(shows: str, locale: str) -> str:
    """The words of the animation posted under a finished match's last post."""
    text = t(locale, "The whole match, move by move:")
    note = shortened_note(locale, shows)
    return f"{text}\n{note}" if note else text
