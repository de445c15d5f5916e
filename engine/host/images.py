"""Which images a front end sends again: a board or hand image goes only when it differs from the last one
sent for that seat (the board's own seat being ``BOARD_IMAGE_SEAT``), told apart by their digests."""

from __future__ import annotations

import hashlib

from engine.host.ledgers import PostLedger


def digest(png: bytes) -> str:
    """What tells an image from another: its SHA-256, in hexadecimal."""
    return hashlib.sha256(png).hexdigest()


async def new_image(posts: PostLedger, match_id: int, seat: int, png: bytes | None) -> str | None:
    """The digest of ``png`` when it is not the image last sent for ``seat`` of the match; None when
    there is no image, or the same one was sent."""
    if png is None:
        return None
    fresh = digest(png)
    return fresh if fresh != await posts.sent_image(match_id, seat) else None
