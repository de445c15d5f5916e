"""An image is sent again only when it differs from the last one sent for that seat."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

from engine.host.images import digest, new_image


async def test_only_a_changed_image_is_new() -> None:
    sent = {(1, 0): digest(b"hand")}

    async def sent_image(match_id: int, seat: int) -> str | None:
        return sent.get((match_id, seat))

    posts = cast(Any, SimpleNamespace(sent_image=sent_image))
    assert await new_image(posts, 1, 0, b"hand") is None
    assert await new_image(posts, 1, 0, b"other hand") == digest(b"other hand")
    assert await new_image(posts, 1, 1, b"hand") == digest(b"hand")  # never sent to that seat
    assert await new_image(posts, 1, 0, None) is None
    assert digest(b"hand") != digest(b"hand ") and len(digest(b"")) == 64
