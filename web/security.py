"""The headers every answer of the web table carries: no scripts but the table's own files, no frames from
anywhere, no guessing of content types, no address (which may hold a private link) sent on to another
site; and no form sent from another site. The address goes to the table's own pages only: a browser that
sends none says its form comes from nowhere (``Origin: null``), which is refused."""

from __future__ import annotations

from urllib.parse import urlsplit

from aiohttp import web
from aiohttp.typedefs import Handler

HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
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


@web.middleware
async def same_origin(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Refuses a form sent from a page of another site (its ``Origin`` names another host), before the
    session and the form token are even looked at."""
    if request.method == "POST":
        origin = request.headers.get("Origin")
        if origin is not None and (origin == "null" or urlsplit(origin).netloc != request.host):
            raise web.HTTPForbidden(text="cross-site form refused")
    return await handler(request)
