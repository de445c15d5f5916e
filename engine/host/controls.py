"""Every control the bot shows, as host data: what it reads, and its address, which says what pressing it
does and carries the match (and the board version it was made for), so a control keeps working after a
restart and a stale one is refused by the host.

The addresses are fixed: posts made months ago still carry them. ``parse`` reads one back; a number
larger than the store holds was never one of ours, and its press is refused as stale without reaching
the store."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.host.menu_pages import CHOOSE_ITEMS, CHOOSE_MOVE, Grid, Picks, plan_menu
from engine.host.menus import (
    BUTTON_LABEL_LIMIT,
    BUTTONS_PER_ROW,
    MAX_ROWS,
    PLAY,
    MenuOption,
    clip,
    option_value,
)
from engine.host.outgoing import Control, Option, Outgoing, Style
from engine.host.ports import MatchRecord, MatchStatus
from engine.host.replay_steps import JUMP_PROMPT, JumpOption, step_targets, switch_label
from engine.host.replies import (
    ABANDON_LABEL,
    HAND_LABEL,
    PLAY_LABEL,
    REMATCH_LABEL,
    RESIGN_LABEL,
    UNDO_LABEL,
    undo_whose,
)
from engine.host.table import Table
from lang import N_, t
from lang.says import render

# The longest address: Discord's 100 characters of a custom id, less the bot's own prefix.
ADDRESS_LIMIT = 97
# The largest number of an address that reaches the store: ids are 64-bit integers in both stores, the
# other numbers (versions, moves, rounds) PostgreSQL INTEGERs, a version being looked up one past.
ID_LIMIT = 2**63 - 1
NUMBER_LIMIT = 2**31 - 2

_N = "[0-9]{1,20}"  # every number: ASCII digits only, so each one parses
ADDRESSES: dict[str, re.Pattern[str]] = {
    kind: re.compile(pattern)
    for kind, pattern in {
        "play": rf"play:(?P<match_id>{_N}):(?P<version>{_N})",
        "move": rf"move:(?P<match_id>{_N}):(?P<version>{_N})(?::(?P<slot>[0-9]))?",
        "pick": rf"pick:(?P<match_id>{_N}):(?P<version>{_N}):(?P<value>[=?].{{1,90}})",
        "one": rf"one:(?P<match_id>{_N}):(?P<version>{_N})",
        "multi": rf"multi:(?P<match_id>{_N}):(?P<version>{_N}):(?P<index>{_N})",
        "picks": rf"picks:(?P<match_id>{_N}):(?P<version>{_N}):(?P<index>{_N})",
        "undo": rf"undo:(?P<match_id>{_N}):(?P<version>{_N})(?::(?P<menu>m))?",
        "hand": rf"hand:(?P<match_id>{_N})",
        "web": rf"web:(?P<match_id>{_N})",
        "lobby": rf"lobby:(?P<action>join|leave|bot|start):(?P<match_id>{_N})",
        "computer": rf"lobby:add:(?P<match_id>{_N})",
        "abandon": rf"abandon:(?P<match_id>{_N}):(?P<version>{_N})",
        "resign": rf"resign:(?P<match_id>{_N})",
        "rematch": rf"rematch:(?P<match_id>{_N})",
        "seat": rf"seat:take:(?P<offer_id>{_N})",
        "tjoin": rf"tjoin:(?P<tournament_id>{_N})",
        "tadvance": rf"tadvance:(?P<action>end|keep):(?P<tournament_id>{_N}):(?P<round_number>{_N})"
        r":(?P<plan>p[0-9a-f]{10})",
        "replay": rf"replay:(?P<match_id>{_N}):(?P<move>{_N}):(?P<own>[po]):(?P<kind>[fpnlv])",
        "jump": rf"replay:jump:(?P<match_id>{_N}):(?P<own>[po])",
        "qleave": r"qleave:(?P<game>[a-z0-9_]{1,40})",
    }.items()
}


@dataclass(frozen=True, slots=True)
class Pressed:
    """A pressed address read back: its kind, its parts (numbers as ints), and whether a number was
    beyond what the store holds (``beyond``: the control is stale)."""

    kind: str
    parts: dict[str, int | str]
    beyond: bool = False

    def number(self, name: str) -> int:
        value = self.parts.get(name, 0)
        return value if isinstance(value, int) else 0

    def part(self, name: str) -> str:
        value = self.parts.get(name, "")
        return value if isinstance(value, str) else ""


def parse(address: str) -> Pressed | None:
    """The control ``address`` names; None when it names none of ours."""
    for kind, pattern in ADDRESSES.items():
        found = pattern.fullmatch(address)
        if found is None:
            continue
        parts: dict[str, int | str] = {}
        beyond = False
        for name, value in found.groupdict().items():
            if value is None:
                continue  # an optional part the address leaves out
            if value.isascii() and value.isdigit():
                number = int(value)
                if number > (ID_LIMIT if name.endswith("_id") else NUMBER_LIMIT):
                    beyond, number = True, 0
                parts[name] = number
            else:
                parts[name] = value
        return Pressed(kind, parts, beyond)
    return None


# The buttons under a board post, and their kin.


def play(match_id: int, version: int, locale: str) -> Control:
    return Control(f"play:{match_id}:{version}", render(locale, PLAY_LABEL), "▶️", "primary")


def hand(match_id: int, locale: str) -> Control:
    return Control(f"hand:{match_id}", render(locale, HAND_LABEL), "🂠")


def web_page(match_id: int, locale: str) -> Control:
    """Answers its presser with the link to their own seat's page on the web table."""
    return Control(f"web:{match_id}", t(locale, "Web"), "🌐")


def queue_leave(game: str, title: str, locale: str, row: int | None = None) -> Control:
    """Takes its presser out of their server's queue for ``game`` (called ``title``)."""
    return Control(f"qleave:{game}", t(locale, "Leave the queue for {game}", game=title), "🚪", row=row)


def watch_link(url: str, locale: str) -> Control:
    """A link to a match's public page on the web table, at ``url``."""
    return Control("", t(locale, "Watch on the web"), "👀", url=url)


def undo(
    match_id: int,
    version: int,
    locale: str,
    menu: bool = False,
    row: int | None = None,
    whose: str | None = None,
) -> Control:
    """Takes back the presser's latest move on board ``version``; with ``menu``, the button of a private
    menu, whose message the answer replaces; ``whose``: the name of the player whose move it takes back
    (on a post that everyone sees)."""
    address = f"undo:{match_id}:{version}" + (":m" if menu else "")
    label = render(locale, UNDO_LABEL if whose is None else undo_whose(whose))
    # Red in a menu, and after every move on its row, so it is never taken for one of the moves.
    style: Style = "danger" if menu else "secondary"
    return Control(address, label[:BUTTON_LABEL_LIMIT], "↩️", style, row=row)


def board(
    match_id: int,
    version: int,
    locale: str,
    undoer: str | None = None,
    web: bool = False,
    watch_url: str | None = None,
) -> tuple[Control, ...]:
    """Play and My hand under a board post, with ``web`` the Web button beside it, and Undo, named for
    the player who may take their latest move back (``undoer``; anyone else who presses it is told why
    not); with ``watch_url``, last, the link to the match's public page at that address."""
    shown = [play(match_id, version, locale), hand(match_id, locale)]
    if web:
        shown.append(web_page(match_id, locale))
    if undoer is not None:
        shown.append(undo(match_id, version, locale, whose=undoer))
    if watch_url is not None:
        shown.append(watch_link(watch_url, locale))
    return tuple(shown)


def playing(match_id: int, version: int, locale: str, my_turn: bool) -> tuple[Control, ...]:
    """A private answer's Play button, while it is the reader's turn."""
    return (play(match_id, version, locale),) if my_turn else ()


def final(match_id: int, locale: str) -> tuple[Control, ...]:
    """Under a finished match's last post: the same players and options again, in a new thread."""
    return (Control(f"rematch:{match_id}", render(locale, REMATCH_LABEL), "🔁", "primary"),)


def resign(match_id: int, locale: str) -> tuple[Control, ...]:
    return (Control(f"resign:{match_id}", render(locale, RESIGN_LABEL), style="danger"),)


def abandon(match_id: int, version: int, locale: str) -> tuple[Control, ...]:
    return (Control(f"abandon:{match_id}:{version}", render(locale, ABANDON_LABEL), style="danger"),)


def take_seat(offer_id: int, locale: str) -> tuple[Control, ...]:
    """Under a seat's offer (``/game replace``): the first eligible person who presses it plays the seat."""
    return (Control(f"seat:take:{offer_id}", t(locale, "Take this seat"), "🪑", "success"),)


# The lobby.

LOBBY_LABELS = {"join": N_("Join"), "leave": N_("Leave"), "bot": N_("Add computer"), "start": N_("Start")}
LOBBY_STYLES: dict[str, Style] = {"join": "success", "start": "primary"}


def lobby(match: MatchRecord, locale: str, levels: Sequence[tuple[str, str]] = ()) -> tuple[Control, ...]:
    """Join, Leave and Start while the match waits for players, with a choice of computer players of
    ``levels`` (each its value and its label) while a seat is free; nothing once it has started.
    (``bot``, a normal computer player, is the button of lobbies posted before the levels came: its
    address still works.)"""
    if match.status is not MatchStatus.LOBBY:
        return ()
    controls = [
        Control(
            f"lobby:{action}:{match.id}",
            t(locale, LOBBY_LABELS[action]),
            style=LOBBY_STYLES.get(action, "secondary"),
        )
        for action in ("join", "leave", "start")
    ]
    if levels and len(match.players) < match.seat_count:
        options = tuple(Option(label, value) for value, label in levels)
        controls.append(
            Control(f"lobby:add:{match.id}", placeholder=t(locale, "Add a computer player…"), options=options)
        )
    return tuple(controls)


# Tournaments.

ADVANCE_LABELS = {"end": N_("End the round"), "keep": N_("Let them play on")}


def join_tournament(tournament_id: int, locale: str) -> tuple[Control, ...]:
    return (Control(f"tjoin:{tournament_id}", t(locale, "Join the tournament"), style="success"),)


def advance(tournament_id: int, round_number: int, fingerprint: str, locale: str) -> tuple[Control, ...]:
    """Confirm (``end``) or call off (``keep``) ending a round whose tables still have people at them.
    The address carries the round and the fingerprint of the plan the organiser read (prefixed with
    ``p`` so it is never read as a number): a press after the round or its tables changed is refused."""
    return tuple(
        Control(
            f"tadvance:{action}:{tournament_id}:{round_number}:p{fingerprint}",
            t(locale, label),
            style="danger" if action == "end" else "secondary",
        )
        for action, label in ADVANCE_LABELS.items()
    )


# A player's menu of moves.


def fits(match_id: int, version: int, option: MenuOption) -> bool:
    """Whether ``option`` can be a button: its label and address within the limits."""
    return len(option.label) <= BUTTON_LABEL_LIMIT and len(pick_address(match_id, version, option.value)) <= (
        ADDRESS_LIMIT
    )


def pick_address(match_id: int, version: int, value: str) -> str:
    return f"pick:{match_id}:{version}:{value}"


PLACEHOLDER_LIMIT = 150


def menu(table: Table, locale: str, prefix: str = "", page: int = 0) -> Outgoing:
    """``table``'s move menu at the ``prefix`` level (the top when empty), as ``plan_menu`` lays it out
    in the grid of a message's controls."""
    match = table.match
    key = f"{match.id}:{match.version}"
    grid = Grid(MAX_ROWS, BUTTONS_PER_ROW, lambda option: fits(match.id, match.version, option))
    planned = plan_menu(table, locale, prefix, page, grid)
    controls: list[Control] = []
    if planned.one_move is not None:
        controls.append(Control(f"one:{key}", clip(planned.one_move)[:BUTTON_LABEL_LIMIT], "▶️", "success"))
    for slot, control in enumerate(planned.controls):
        if control.kind == "button":
            option = control.options[0]
            style: Style = "primary" if option.value.startswith(PLAY) else "secondary"
            controls.append(
                Control(
                    pick_address(match.id, match.version, option.value),
                    option.label,
                    style=style,
                    row=control.row,
                )
            )
            continue
        controls.append(
            Control(
                f"move:{key}" + (f":{slot}" if slot else ""),
                row=control.row,
                placeholder=(control.placeholder or render(locale, CHOOSE_MOVE))[:PLACEHOLDER_LIMIT],
                options=distinct(
                    Option(option.label, option_value(option.value)) for option in control.options
                ),
            )
        )
    for choice in planned.choices:
        controls.append(
            Control(f"multi:{key}:{choice.index}", choice.label[:BUTTON_LABEL_LIMIT], "✳️", row=choice.row)
        )
    if planned.undo_row is not None:
        controls.append(undo(match.id, match.version, locale, menu=True, row=planned.undo_row))
    return Outgoing(render(locale, planned.text, table.name), tuple(controls))


def distinct(options: Iterable[Option]) -> tuple[Option, ...]:
    """``options`` but any whose value an earlier one already has: it would do the same, and a select that
    offers a value twice is refused."""
    kept: dict[str, Option] = {}
    for option in options:
        kept.setdefault(option.value, option)
    return tuple(kept.values())


def picks(match_id: int, version: int, index: int, chosen: Picks, locale: str) -> tuple[Control, ...]:
    """The select of a choice of several items at once (cards to exchange, to pay with, to bid)."""
    options = tuple(Option(label, str(position)) for position, label in enumerate(chosen.labels))
    return (
        Control(
            f"picks:{match_id}:{version}:{index}",
            placeholder=render(locale, CHOOSE_ITEMS),
            options=options,
            least=chosen.min_items,
            most=chosen.max_items,
        ),
    )


# The replay.

STEPS = {"f": "⏮", "p": "◀", "n": "▶", "l": "⏭"}


def replay(
    match_id: int,
    move: int,
    moves: int,
    own: bool,
    seated: bool,
    jumps: Sequence[JumpOption],
    locale: str,
) -> tuple[Control, ...]:
    """The ⏮ ◀ ▶ ⏭ buttons around ``move`` of ``moves``, for a seated player the switch between the public
    board and their own view, and the jumps to the ends of turns and scorings."""
    mode = "o" if own else "p"
    controls = [
        Control(f"replay:{match_id}:{target}:{mode}:{kind}", emoji=STEPS[kind], disabled=target == move)
        for kind, target in step_targets(move, moves).items()
    ]
    if seated:
        switch = "p" if own else "o"
        controls.append(Control(f"replay:{match_id}:{move}:{switch}:v", render(locale, switch_label(own))))
    if jumps:
        options = tuple(Option(o.label, o.value, o.about, o.chosen) for o in jumps)
        controls.append(
            Control(
                f"replay:jump:{match_id}:{mode}",
                row=1,
                placeholder=render(locale, JUMP_PROMPT),
                options=options,
            )
        )
    return tuple(controls)
