"""The words of a board post as the host plans it (``engine.host.posts.plan_board_post``), laid out for
every front end: the winners' line on the final post, the match's heading, the post's lines within their
budget, and the call to act with the time left of each seat called."""

from __future__ import annotations

from collections.abc import Mapping

from engine.host.posts import BoardPost, Mentions
from engine.host.text import clip_lines, winners_line
from lang import t
from lang.says import Namer

# How many characters of a post's lines it carries at most.
BODY_BUDGET = 1400


def board_post_text(
    locale: str, plan: BoardPost, heading: str, name: Namer, mentions: Mentions, notes: Mapping[int, str]
) -> str:
    """The text of the post ``plan``: ``heading`` names the match, ``mentions`` calls seats as the front
    end does, ``notes`` are the time left of the seats called (see ``clock_words.clock_notes``)."""
    parts = [winners_line(locale, plan.outcome, name)] if plan.outcome is not None else []
    parts.append(heading)
    parts.extend(clip_lines(plan.body, BODY_BUDGET, locale))
    if plan.call:
        call = "▶ " + t(locale, "{players} to act", players=mentions(plan.call))
        parts.append(" · ".join([call, *notes.values()]))
    return "\n".join(parts)
