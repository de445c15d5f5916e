"""A seat's session in one browser: after a private link has opened its page once, a cookie (HttpOnly,
SameSite=Strict) that the moves sent from the page must carry, with a form token derived from it, so that
another site can neither send a move for the seat nor read what it would need to.

The cookie names the match, the seat and when it was issued, signed like the links (``web.links``); the
form token is the cookie's own signature under another purpose, so it changes with every session.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import datetime

from web.links import LINK_LIFETIME, SeatPass


@dataclass(frozen=True, slots=True)
class Session:
    """Seat ``seat`` of match ``match_id`` in one browser, since ``issued`` (Unix seconds)."""

    match_id: int
    seat: int
    issued: int

    @property
    def expires(self) -> int:
        return self.issued + int(LINK_LIFETIME.total_seconds())


def _mac(secret: bytes, purpose: str, message: str) -> str:
    return hmac.new(secret, f"{purpose}|{message}".encode(), hashlib.sha256).hexdigest()


def cookie_name(seat_pass: SeatPass) -> str:
    """The cookie of one seat's session: a browser may hold several seats (several matches) at once."""
    return f"seat-{seat_pass.match_id}-{seat_pass.seat}"


def new_session(secret: bytes, seat_pass: SeatPass, now: datetime) -> str:
    """The value of a new session cookie for the seat ``seat_pass`` opens, issued at ``now``."""
    message = f"{seat_pass.match_id}.{seat_pass.seat}.{int(now.timestamp())}"
    return f"{message}.{_mac(secret, 'session', message)}"


def session_of(secret: bytes, value: str | None, seat_pass: SeatPass, now: datetime) -> Session | None:
    """The session a cookie ``value`` holds, when it is signed right, is for the seat of ``seat_pass`` and
    has not expired at ``now``; None otherwise."""
    parts = (value or "").split(".")
    if len(parts) != 4 or not all(part.isascii() and part.isdigit() for part in parts[:3]):
        return None
    message = ".".join(parts[:3])
    if not hmac.compare_digest(_mac(secret, "session", message), parts[3]):
        return None
    session = Session(int(parts[0]), int(parts[1]), int(parts[2]))
    if (session.match_id, session.seat) != (seat_pass.match_id, seat_pass.seat):
        return None
    return session if session.issued <= now.timestamp() < session.expires else None


def form_token(secret: bytes, cookie: str) -> str:
    """The token the page's forms carry for the session whose cookie is ``cookie``."""
    return _mac(secret, "form", cookie)


def form_token_matches(secret: bytes, cookie: str, sent: str | None) -> bool:
    """Whether a form sent ``sent`` as the token of the session ``cookie`` (compared in constant time)."""
    return sent is not None and hmac.compare_digest(form_token(secret, cookie), sent)
