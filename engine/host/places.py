"""The places of a board in words, for a front end that lets people point at the board (the web table):
each place's name, and for a seat on its turn the moves of its menu that touch the place.

Which places a move touches is the game's presentation's to say (``GamePresentation.places_of``), by the
keys its board's renderer gives them. A place's name is public; its moves belong to the seat's page only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engine.host.menus import MenuEntry
from engine.host.ports import MatchRecord
from engine.host.service import GameHost
from engine.host.shortcuts import steps
from lang.says import render


@dataclass(frozen=True, slots=True)
class PlaceSight:
    """One place as a person reads it: its ``key`` (as the renderer and the moves name it), its ``name``
    in words, and the menu entries of the reader's moves now that touch it (none for a spectator, or
    off the reader's turn)."""

    key: str
    name: str
    moves: tuple[MenuEntry, ...] = ()


def touched_places(
    host: GameHost, match: MatchRecord, seat: int, locale: str
) -> list[tuple[MenuEntry, tuple[str, ...]]]:
    """Each entry of ``seat``'s menu now (``GameHost.legal_menu``, in ``locale``) with the places it
    touches; a run of moves offered as one choice touches what its first move touches. Empty off the
    seat's turn."""
    if seat not in host.to_act(match):
        return []
    rules = host.rules(match.game)
    presentation = host.presentation(match.game)
    state = host.state_of(match)
    return [
        (entry, tuple(presentation.places_of(state, seat, rules.parse(steps(entry.notation)[0]))))
        for entry in host.legal_menu(match, seat, locale)
    ]


def place_namer(host: GameHost, match: MatchRecord, locale: str) -> Callable[[str], str]:
    """Names a place of ``match``'s board as it stands, in ``locale``; it reads nothing more of the
    host, so it may name them off the event loop."""
    state = host.state_of(match)
    presentation = host.presentation(match.game)
    name = host.namer(match, state)
    return lambda key: render(locale, presentation.place_name(state, key), name)


def places_in_words(
    host: GameHost, match: MatchRecord, keys: Iterable[str], locale: str, seat: int | None = None
) -> dict[str, PlaceSight]:
    """The places ``keys`` of ``match``'s board, named in ``locale``; with ``seat``, each with the
    entries of its menu now that touch it (see ``touched_places``), in the menu's order."""
    say_place = place_namer(host, match, locale)
    touching: dict[str, list[MenuEntry]] = {}
    if seat is not None:
        for entry, places in touched_places(host, match, seat, locale):
            for place in places:
                touching.setdefault(place, []).append(entry)
    return {key: PlaceSight(key, say_place(key), tuple(touching.get(key, ()))) for key in keys}
