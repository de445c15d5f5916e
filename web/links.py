"""Signed links to one seat's private page: the match, the seat and when the link expires, signed with
HMAC-SHA256, so that nobody can make a link for a seat they were not given, nor reuse one past its time."""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

# How long a private link stays good.
LINK_LIFETIME = timedelta(days=30)


@dataclass(frozen=True, slots=True)
class SeatPass:
    """What a private link opens: seat ``seat`` of match ``match_id``, until ``expires`` (Unix seconds)."""

    match_id: int
    seat: int
    expires: int

    @property
    def issued(self) -> datetime:
        """When the link was made: its expiry, less the lifetime every link is given."""
        return datetime.fromtimestamp(self.expires, UTC) - LINK_LIFETIME


def _signature(secret: bytes, message: bytes) -> str:
    digest = hmac.new(secret, message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def sign(secret: bytes, seat_pass: SeatPass) -> str:
    """The token of ``seat_pass``: its fields in the clear, then their signature."""
    message = f"{seat_pass.match_id}.{seat_pass.seat}.{seat_pass.expires}"
    return f"{message}.{_signature(secret, message.encode())}"


def pass_for(
    secret: bytes, match_id: int, seat: int, now: datetime, lifetime: timedelta = LINK_LIFETIME
) -> str:
    """The token of a link to ``seat`` of ``match_id`` that expires ``lifetime`` after ``now``."""
    return sign(secret, SeatPass(match_id, seat, int((now + lifetime).timestamp())))


def verified(secret: bytes, token: str, now: datetime) -> SeatPass | None:
    """What ``token`` opens, when its signature is right (compared in constant time) and it has not
    expired at ``now``; None otherwise, whatever is wrong with it."""
    parts = token.split(".")
    if len(parts) != 4 or not all(part.isascii() and part.isdigit() for part in parts[:3]):
        return None
    message = ".".join(parts[:3])
    if not hmac.compare_digest(_signature(secret, message.encode()).encode(), parts[3].encode()):
        return None
    seat_pass = SeatPass(int(parts[0]), int(parts[1]), int(parts[2]))
    return seat_pass if now.timestamp() < seat_pass.expires else None
