"""The headers every answer of the web table carries: no scripts but the table's own files, no frames from
anywhere, no guessing of content types, no address (which may hold a private link) sent on to another site."""

from __future__ import annotations

from aiohttp import web
from aiohttp.typedefs import Handler

HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


@web.middleware
async def secure_headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    """``HEADERS`` on every answer, errors included."""
    try:
        response = await handler(request)
    except web.HTTPException as exc:
        exc.headers.update(HEADERS)
        raise
    response.headers.update(HEADERS)
    return response
