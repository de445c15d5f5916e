"""A newcomer's first match, with no Discord at all: on a table served on this computer only, one guest
picks a game, a seat count, its variants and how strong the computer players are, and plays against them.

Everything a front end offers here comes in words: the games' titles, their variants and the levels.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine.core.errors import EngineError
from engine.core.say import items
from engine.host.lobby_words import level_choice, levels_of, open_match
from engine.host.ports import MatchRecord, MatchStatus, Pace, Player, Scope
from engine.host.refusals import check_setup_in_words
from engine.host.service import GameHost
from engine.host.text import HOST
from lang import t
from lang.says import render

# The guest's id: below any Discord id (those are 17 digits or more), so never one of a Discord user.
GUEST_ID = 1
# The matches a guest's home lists, the newest first.
LISTED = 20

NO_SUCH_LEVEL = HOST.say("there is no such level of computer player")


@dataclass(frozen=True, slots=True)
class Choice:
    """One thing to choose: what is sent back (``value``) and its words."""

    value: str
    label: str


@dataclass(frozen=True, slots=True)
class GameChoices:
    """What a guest chooses for a match of one game: its title, seat counts, variants and levels."""

    game: str
    title: str
    seats: tuple[int, ...]
    variants: tuple[Choice, ...]
    levels: tuple[Choice, ...]


@dataclass(frozen=True, slots=True)
class GuestMatch:
    """One of the guest's matches: its number, game, whether it is still being played, and the guest's
    seat there."""

    number: int
    title: str
    playing: bool
    seat: int


def games(host: GameHost, locale: str) -> tuple[Choice, ...]:
    """Every game a guest may play, by its title in ``locale``."""
    return tuple(Choice(game, t(locale, host.rules(game).title)) for game in host.games)


def choices_of(host: GameHost, game: str, locale: str) -> GameChoices | None:
    """What a guest may choose for ``game`` in ``locale``; None for a game that does not exist."""
    rules = host.games.get(game)
    if rules is None:
        return None
    presentation = host.presentation(game)
    variants = tuple(
        Choice(option, render(locale, said) if (said := presentation.option_says.get(option)) else option)
        for option in rules.options
    )
    levels = tuple(Choice(level, level_choice(locale, level)) for level in levels_of(host, game))
    return GameChoices(game, t(locale, rules.title), tuple(rules.seat_counts), variants, levels)


async def open_first_match(
    host: GameHost, game: str, seats: int, variants: frozenset[str], level: str, name: str
) -> MatchRecord:
    """A match of ``game`` for ``seats`` with ``variants``, the guest called ``name`` in one seat and
    computer players of ``level`` in the others, started and waiting for the guest's first move.
    Refused in words (``EngineError``) for a setting the game does not allow."""
    rules, presentation = host.rules(game), host.presentation(game)
    limits: Mapping[str, Iterable[int]] = getattr(rules, "seats_for_option", None) or {}
    for variant in sorted(variants):
        fitting = sorted(limits.get(variant, ()))
        if fitting and seats not in fitting:
            said = presentation.option_says.get(variant)
            raise EngineError(
                HOST.say(
                    "the variant “{variant}” is played by {counts} players",
                    variant=said if said is not None else variant,
                    counts=items([str(n) for n in fitting], "or"),
                )
            )
    check_setup_in_words(rules, presentation, seats, variants)
    if level not in levels_of(host, game):
        raise EngineError(NO_SUCH_LEVEL, levels_of(host, game))
    guest = Player(user_id=GUEST_ID, name=name.strip()[:32] or "Guest")
    match = await open_match(host, game, seats, variants, guest, None, None, Pace.NONE, seats - 1, level)
    await host.start(match.id, by_user=GUEST_ID)
    return await host.match(match.id)


async def guest_matches(host: GameHost, locale: str) -> tuple[GuestMatch, ...]:
    """The guest's matches, the newest first: those under way, then those over."""
    listing = await host.survey(
        Scope(user_id=GUEST_ID), (MatchStatus.ACTIVE, MatchStatus.FINISHED), limit=LISTED
    )
    found = []
    for match in listing.matches:
        seat = match.seat_of(GUEST_ID)
        if seat is not None:
            title = t(locale, host.rules(match.game).title)
            found.append(GuestMatch(match.id, title, match.status is MatchStatus.ACTIVE, seat))
    return tuple(sorted(found, key=lambda one: not one.playing))
