"""No hidden information on a public page: over a few hundred random positions of every game, the page's
HTML holds none of the secrets of that position (the cards in hands, a partner's hand, secret missions)."""

from __future__ import annotations

import re
from typing import Any

from aiohttp.test_utils import TestClient
from pydantic import BaseModel

from engine.core.rng import Rng
from engine.host.ports import MatchStatus
from engine.host.service import GameHost
from tests.web.conftest import people_match, play_moves

# The fields of a seat's view that hold its secrets, and of the items in them, what names each one.
SECRET_FIELDS = ("hand", "partner_hand", "mission")
NAMING = ("id", "name")
# Each game with the options whose positions are looked at, and how many positions.
GAMES: list[tuple[str, int, frozenset[str]]] = [
    ("ny_henn", 3, frozenset()),
    ("ny1901", 3, frozenset()),  # nothing is hidden in this game: its pages are read all the same
    ("ny_piatnik", 4, frozenset({"team", "events"})),
    ("fifth_avenue", 3, frozenset()),
    ("skyline", 3, frozenset({"hidden"})),
]
POSITIONS = 60  # per game
STRIDE = 3  # moves between two positions looked at


def strings(value: Any, naming_only: bool = False) -> set[str]:
    """The strings in ``value`` (a view, a model, a collection); of a model inside a secret, only what
    names it (``NAMING``)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, BaseModel):
        fields = [f for f in type(value).model_fields if not naming_only or f in NAMING]
        return set().union(*(strings(getattr(value, f), naming_only) for f in fields))
    if isinstance(value, dict):
        return set().union(*(strings(k, naming_only) | strings(v, naming_only) for k, v in value.items()))
    if isinstance(value, list | tuple | set | frozenset):
        return set().union(*(strings(item, naming_only) for item in value))
    return set()


def hidden_values(host: GameHost, match: Any) -> set[str]:
    """What some seat's own view shows of its secrets and the public view does not show anywhere."""
    rules = host.rules(match.game)
    state = host.state_of(match)
    public = strings(rules.view(state, None))
    hidden: set[str] = set()
    for seat in range(match.seat_count):
        view = rules.view(state, seat)
        for field in SECRET_FIELDS:
            if field in type(view).model_fields:
                hidden |= strings(getattr(view, field), naming_only=True)
    # A bare number (Piatnik's street cards "34", "57") also reads as a count in any sentence ("a draw pile
    # of 38 cards"): only the cards and missions named by letters are looked for.
    return {value for value in hidden - public if len(value) >= 2 and not value.isdigit()}


def shown(value: str, page: str) -> bool:
    """Whether ``value`` stands on ``page`` as a word of its own (not inside a longer one)."""
    return re.search(rf"(?<![\w-]){re.escape(value)}(?![\w-])", page) is not None


async def test_no_public_page_shows_a_secret(host: GameHost, client: TestClient) -> None:
    rng = Rng.from_seed(36)
    looked = 0
    secrets_checked = 0
    for game, seats, options in GAMES:
        match = await people_match(host, game, seats, options, seed=len(game))
        for _ in range(POSITIONS):
            if match.status is not MatchStatus.ACTIVE:
                break
            hidden = hidden_values(host, match)
            for locale in ("en", "it"):
                answer = await client.get(f"/m/{match.id}?lang={locale}")
                assert answer.status == 200
                page = await answer.text()
                leaked = sorted(value for value in hidden if shown(value, page))
                assert leaked == [], f"{game} at version {match.version} ({locale}) shows {leaked}"
            looked += 1
            secrets_checked += len(hidden)
            match = await play_moves(host, match, STRIDE, rng)
    assert looked >= 250
    assert secrets_checked > 1000  # the positions did hold secrets to look for
