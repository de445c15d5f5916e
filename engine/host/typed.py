"""Moves typed in notation: the legal notations offered while a person types (each carrying the board it
was offered for), or one sentence saying why there is nothing to offer.

An offered move carries the board version its list was made for, as "<notation> @<version>", so that a
move chosen from an old list is bound to the board the person saw (see ``GameHost.act``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core.say import Say
from engine.host.ports import MatchRecord, MatchStatus
from engine.host.service import GameHost
from lang.says import Namer

SEEN_SUFFIX = re.compile(r" @(?P<version>[0-9]{1,18})$")
# A choice's value and label: Discord's autocomplete takes 100 characters, and a web page no fewer.
CHOICE_LIMIT = 100
MOST_OFFERED = 25


def with_seen_version(notation: str, version: int, limit: int = CHOICE_LIMIT) -> str:
    """The value of an offered move: the notation and the version it was offered at."""
    value = f"{notation} @{version}"
    return value if len(value) <= limit else notation[:limit]


def split_seen_version(text: str) -> tuple[str, int | None]:
    """A typed or offered move and the version it carries, if any."""
    found = SEEN_SUFFIX.search(text)
    if found is None:
        return text, None
    return text[: found.start()], int(found["version"])


@dataclass(frozen=True, slots=True)
class Offer:
    """What to offer someone typing a move: (label, value) pairs, or ``refusal`` (named by ``name``),
    why there is nothing to offer, as the one entry to show."""

    choices: tuple[tuple[str, str], ...] = ()
    refusal: Say | None = None
    name: Namer | None = None


async def offer_moves(
    host: GameHost, match: MatchRecord, user_id: int, typed: str, most: int = MOST_OFFERED
) -> Offer:
    """``user_id``'s legal notations in ``match`` containing what they ``typed`` so far (at most
    ``most``), each carrying the version of the board it was offered for; nothing for someone who does not
    play there or a match not under way."""
    table = await host.table(match, user_id)
    if table.seat is None or match.status is not MatchStatus.ACTIVE:
        return Offer()
    if table.refusal is not None:
        return Offer(refusal=table.refusal, name=table.name)
    wanted = split_seen_version(typed)[0].strip().lower()
    notations = host.legal_notations(match, table.seat)
    return Offer(
        tuple(
            (n[:CHOICE_LIMIT], with_seen_version(n, match.version)) for n in notations if wanted in n.lower()
        )[:most]
    )
