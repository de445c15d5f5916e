"""Signed seat links: what they open, until when, and the secret kept in the store."""

from __future__ import annotations

from datetime import timedelta

from data.backend import Stores
from engine.host.link_secret import link_secret
from tests.web.conftest import NOW
from web.links import SeatPass, pass_for, verified


def test_a_link_opens_its_seat_until_it_expires() -> None:
    token = pass_for(b"k", 7, 2, NOW, timedelta(hours=1))
    assert verified(b"k", token, NOW) == SeatPass(7, 2, int((NOW + timedelta(hours=1)).timestamp()))
    assert verified(b"k", token, NOW + timedelta(minutes=59)) is not None
    assert verified(b"k", token, NOW + timedelta(hours=1)) is None
    assert verified(b"other", token, NOW) is None
    match_id, seat, expires, signature = token.split(".")
    assert verified(b"k", f"{match_id}.{seat}.{int(expires) + 3600}.{signature}", NOW) is None
    assert verified(b"k", f"{match_id}.3.{expires}.{signature}", NOW) is None
    assert verified(b"k", f"{match_id}.².{expires}.{signature}", NOW) is None


async def test_the_secret_is_made_once_and_kept(stores: Stores) -> None:
    first = await link_secret(stores.settings)
    assert len(first) >= 32
    assert await link_secret(stores.settings) == first
    assert await link_secret(stores.settings, "from the operator") == b"from the operator"
    assert await link_secret(stores.settings, "  ") == first
