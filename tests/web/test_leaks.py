"""No hidden information on a public page: over 1,000 random positions of every game and variant, the
page's HTML holds none of the secrets of that position (the cards in hands, a partner's hand, secret
missions)."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from aiohttp.test_utils import TestClient
from pydantic import BaseModel

from engine.core.rng import Rng
from engine.host.ports import MatchStatus
from engine.host.service import GameHost
from tests.web.conftest import people_match, play_moves

# The fields of a seat's view that hold its secrets, and of the items in them, what names each one.
SECRET_FIELDS = ("hand", "partner_hand", "mission")
NAMING = ("id", "name")
# Each game with its set-ups (seat count and options: every variant), played one after another until
# the game has given ``POSITIONS`` positions; over the five games, 1,000 positions.
SETUPS: dict[str, list[tuple[int, frozenset[str]]]] = {
    "ny_henn": [(3, frozenset()), (2, frozenset())],  # 2 players: the Dirk variant
    # Nothing is hidden in this game: its pages are read all the same.
    "ny1901": [(3, frozenset({"expert"})), (2, frozenset({"intro"}))],
    "ny_piatnik": [
        (4, frozenset({"team", "events"})),
        (2, frozenset()),
        (3, frozenset({"chosen_colours"})),
    ],
    "fifth_avenue": [(3, frozenset({"six_lots"})), (2, frozenset())],  # 2 players: Asso
    "skyline": [(3, frozenset({"hidden"})), (2, frozenset({"hidden", "tournament"}))],
}
POSITIONS = 200  # per game
STRIDE = 2  # moves between two positions looked at


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


@pytest.mark.parametrize("game", sorted(SETUPS))
async def test_no_public_page_shows_a_secret(host: GameHost, client: TestClient, game: str) -> None:  # type: ignore[type-arg]
    rng = Rng.from_seed(36)
    looked = 0
    secrets_checked = 0
    setups = itertools.cycle(enumerate(SETUPS[game] * 20))
    match = None
    while looked < POSITIONS:
        if match is None or match.status is not MatchStatus.ACTIVE:
            number, (seats, options) = next(setups)
            match = await people_match(host, game, seats, options, seed=number + 1)
        hidden = hidden_values(host, match)
        locale = ("en", "it")[looked % 2]
        answer = await client.get(f"/m/{match.id}?lang={locale}")
        assert answer.status == 200
        page = await answer.text()
        leaked = sorted(value for value in hidden if shown(value, page))
        assert leaked == [], f"{game} at version {match.version} ({locale}) shows {leaked}"
        looked += 1
        secrets_checked += len(hidden)
        match = await play_moves(host, match, STRIDE, rng)
    if game != "ny1901":
        assert secrets_checked > POSITIONS  # the positions did hold secrets to look for
