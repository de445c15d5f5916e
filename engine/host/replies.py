"""What the host answers a person with around playing: the labels and confirmations of the buttons that end
a match, the lines above a hand, the replies of /log, and what /rules teaches, in words every front end
shows the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.contract import GameRules
from engine.core.presentation import GamePresentation
from engine.core.say import Say
from engine.host.service import GameHost
from engine.host.table import Table
from engine.host.text import HOST
from lang import t
from lang.says import render

# The labels of the buttons that confirm ending a match, and the one under its last post.
ABANDON_LABEL = HOST.say("Yes, abandon it")
RESIGN_LABEL = HOST.say("Yes, resign")
REMATCH_LABEL = HOST.say("Rematch")
# The refusal of a confirmation pressed after the match changed.
ABANDON_CHANGED = HOST.say("the match changed since you asked; ask again with /game abandon")


def abandoned(match_id: int) -> Say:
    return HOST.say("Match #{number} was abandoned.", number=match_id)


def resigned(match_id: int) -> Say:
    return HOST.say(
        "You resigned match #{number}: a computer plays your seat until the end.", number=match_id
    )


def rematched(match_id: int) -> Say:
    """The rematch ``match_id`` was made."""
    return HOST.say("Match #{number} is the rematch: everyone is mentioned in its thread.", number=match_id)


# The labels of the buttons under a board post.
PLAY_LABEL = HOST.say("Play")
HAND_LABEL = HOST.say("My hand")
UNDO_LABEL = HOST.say("Undo")


def undo_whose(player: str) -> Say:
    """The label of a post's Undo: whose move it takes back."""
    return HOST.say("Undo {player}'s move", player=player)


def hand_lines(table: Table) -> list[Say]:
    """The lines above a person's private view: whose view it is and, on their turn, what to press."""
    lines = [HOST.say("Your view of match #{number}.", number=table.match.id)]
    if table.my_turn:
        lines.append(HOST.say("It is your turn: press Play to choose your move."))
    return lines


# What /log says of a match where nothing has happened.
NOTHING_YET = HOST.say("nothing has happened yet")


def log_heading(match_id: int, lines: int, as_file: bool) -> Say:
    """The line above /log's ``lines``: in the message itself, or (``as_file``) above them as a file."""
    if as_file:
        return HOST.say_n(
            "Match #{number}, the last line:",
            "Match #{number}, the last {count} lines:",
            lines,
            number=match_id,
        )
    return HOST.say("Match #{number}:", number=match_id)


def rules_text(
    rules: GameRules[Any, Any],
    presentation: GamePresentation[Any, Any],
    locale: str,
    in_play: frozenset[str] = frozenset(),
    limit: int = 2000,
) -> str:
    """/rules in ``locale``: the game's title, how to play, what its board and menus show, and its
    options (those of the match marked), within ``limit`` characters."""
    players = t(locale, "{low}-{high} players", low=min(rules.seat_counts), high=max(rules.seat_counts))
    lines = [f"**{t(locale, rules.title)}** (`{rules.name}`), {players}"]
    lines.extend(render(locale, sentence) for sentence in presentation.how_to)
    if presentation.glossary:
        lines.append("**" + t(locale, "On the board and in the menus") + "**")
        lines.extend("• " + render(locale, sentence) for sentence in presentation.glossary)
    if rules.options:
        lines.append("**" + t(locale, "Options") + "**")
        for option, about in rules.options.items():
            said = presentation.option_says.get(option)
            mark = " ✅ " + t(locale, "in play") if option in in_play else ""
            lines.append(f"• `{option}`: {render(locale, said) if said else about}{mark}")
    lines.append(t(locale, "Play with the Play button under the board, or type a move's words with `/move`."))
    return "\n".join(lines)[:limit]


def rendered(locale: str, says: Sequence[Say]) -> str:
    """``says`` in ``locale``, one a line."""
    return "\n".join(render(locale, say) for say in says)


def rules_reply(host: GameHost, game: str, locale: str, in_play: frozenset[str] = frozenset()) -> str:
    """``rules_text`` of ``game``, with the options of the match in play marked."""
    return rules_text(host.rules(game), host.presentation(game), locale, in_play)
