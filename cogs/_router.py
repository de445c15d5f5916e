"""What a press of each kind of control does (the kinds are ``engine.host.controls``'s): every control of
ours reaches its route through ``cogs._components.Routed``."""

from __future__ import annotations

from cogs import replay
from cogs._components import Route
from cogs._final_ui import abandon, rematch, resign
from cogs._lobby_ui import add_computer, lobby_button
from cogs._move_menu import open_menu, open_picks, pick_move, play_one, play_picks, select_move, undo
from cogs._post_buttons import show_hand, show_web_link
from cogs._queue_ui import leave_pressed
from cogs._seat_offer import take_pressed
from cogs.tournaments import advance_pressed, join_pressed

ROUTES: dict[str, Route] = {
    "play": open_menu,
    "move": select_move,
    "pick": pick_move,
    "one": play_one,
    "multi": open_picks,
    "picks": play_picks,
    "undo": undo,
    "hand": show_hand,
    "web": show_web_link,
    "lobby": lobby_button,
    "computer": add_computer,
    "abandon": abandon,
    "resign": resign,
    "rematch": rematch,
    "seat": take_pressed,
    "tjoin": join_pressed,
    "tadvance": advance_pressed,
    "replay": replay.step,
    "jump": replay.jump,
    "qleave": leave_pressed,
}
