"""Which language a page is written in: the one the address asks for (``?lang=it``), else on a player's
private page the one they chose in their settings, else the first the browser accepts that we speak
(``Accept-Language``, by preference), else English."""

from __future__ import annotations

import lang
from engine.host.languages import understood


def accepted(header: str | None) -> list[str]:
    """The languages of an ``Accept-Language`` header, the most wanted first (refused ones, q=0, left
    out); a malformed weight counts as the least wanted."""
    ranked: list[tuple[float, int, str]] = []
    for order, entry in enumerate((header or "").split(",")):
        tag, _, params = entry.strip().partition(";")
        weight = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                weight = float(params[2:])
            except ValueError:
                weight = 0.001
        if tag and weight > 0:
            ranked.append((-weight, order, tag.strip()))
    return [tag for _, _, tag in sorted(ranked)]


def page_locale(asked: str | None, header: str | None, chosen: str | None = None) -> str:
    """The language of a page: ``asked`` (from the address) when we speak it, else the one its reader
    ``chosen`` in their settings (a private page's player), else the browser's first accepted language we
    speak, else English."""
    for candidate in (asked, chosen, *accepted(header)):
        language = understood(candidate)
        if language is not None:
            return language
    return lang.DEFAULT
