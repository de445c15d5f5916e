"""The words players read, in their language: gettext catalogues for Italian and English, kept with
Babel (see docs/translating.md).

Code says what to tell; the catalogue says how, per language. A message id is the English sentence
with named placeholders ("{player} joined match #{match}"), the way Board Game Arena writes its
notification templates, so the English catalogue may leave a translation empty and fall back to it.
Locale-free code (the rules) never imports this package; the edges (host text helpers, cogs, render)
translate in the reader's language.
"""

from __future__ import annotations

import functools
import gettext
import io
from collections.abc import Iterable, Mapping
from importlib import resources
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

DOMAIN = "bigapple"
SUPPORTED = ("en", "it")
DEFAULT = "en"


def pick(*candidates: str | None) -> str:
    """The first candidate locale we speak (``"it"``, ``"it-IT"`` and ``"it_IT"`` all mean Italian),
    else English."""
    for candidate in candidates:
        if candidate:
            language = candidate.replace("_", "-").split("-")[0].lower()
            if language in SUPPORTED:
                return language
    return DEFAULT


# Where a process's environment says which language its user reads, the strongest first (as gettext).
LANGUAGE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def from_environment(environment: Mapping[str, str]) -> str:
    """The language the environment's first set variable of ``LANGUAGE_VARIABLES`` names (``LANGUAGE``
    may list several, "it:en": the first counts), if we speak it; else English."""
    for variable in LANGUAGE_VARIABLES:
        value = environment.get(variable, "").strip()
        if value:
            return pick(value.split(":")[0])
    return DEFAULT


def po_path(locale: str, domain: str = DOMAIN) -> resources.abc.Traversable:
    """The catalogue file of ``locale`` for ``domain`` (the bot's own, or a game's slug)."""
    return resources.files(__package__ or "lang").joinpath("locales", locale, "LC_MESSAGES", f"{domain}.po")


@functools.cache
def catalogue(locale: str, domain: str = DOMAIN) -> gettext.NullTranslations:
    """The compiled catalogue of ``locale`` and ``domain`` (English for a language we do not speak, and
    for a game without a catalogue in it: its message ids are English), built with Babel."""
    locale = pick(locale)
    path = po_path(locale, domain)
    if not path.is_file():
        return gettext.NullTranslations()
    with path.open("rb") as source:
        parsed = read_po(source, locale=locale, domain=domain)
    compiled = io.BytesIO()
    write_mo(compiled, parsed)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def t(locale: str, message: str, /, **args: Any) -> str:
    """``message`` (an English template) in ``locale``, its ``{placeholders}`` filled from ``args``."""
    return catalogue(locale).gettext(message).format(**args)


def tn(locale: str, singular: str, plural: str, count: int, /, **args: Any) -> str:
    """The form of ``singular``/``plural`` that ``count`` takes in ``locale``; ``{count}`` is filled too."""
    return catalogue(locale).ngettext(singular, plural, count).format(count=count, **args)


def N_(message: str) -> str:
    """Marks ``message`` for the catalogue where it is defined, when it is said elsewhere with ``t``."""
    return message


def join(locale: str, items: Iterable[str]) -> str:
    """``items`` as a list a person reads: "a, b and c" / "a, b e c"."""
    words = list(items)
    if len(words) <= 1:
        return "".join(words)
    return t(locale, "{items} and {last}", items=", ".join(words[:-1]), last=words[-1])


def join_or(locale: str, items: Iterable[str]) -> str:
    """``items`` as alternatives a person reads: "a, b or c" / "a, b o c"."""
    words = list(items)
    if len(words) <= 1:
        return "".join(words)
    return t(locale, "{items} or {last}", items=", ".join(words[:-1]), last=words[-1])
