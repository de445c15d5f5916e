"""The catalogues: every message the code says exists in Italian and English, with the same
placeholders, and the helpers pick the reader's language."""

from __future__ import annotations

import re
from pathlib import Path
from typing import cast

import pytest
from babel.messages.catalog import Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

import lang

ROOT = Path(__file__).resolve().parents[1]
# The keywords docs/translating.md gives pybabel, besides Babel's own (pgettext for command metadata).
KEYWORDS = {
    "t": (2,),
    "tn": (2, 3),
    "N_": None,
    "say": None,
    "say_n": (1, 2),
    "word": (1, (2, "c")),
    "gettext": None,
    "pgettext": ((1, "c"), 2),
}
PLACEHOLDER = re.compile(r"\{(\w*)\}")


def catalogue(locale: str):  # type: ignore[no-untyped-def]
    with lang.po_path(locale).open("rb") as source:
        return read_po(source, locale=locale)


def said_in_code() -> set[tuple[str | None, str | tuple[str, ...]]]:
    """(context, message) of everything the code says, found as ``pybabel extract -F lang/babel.cfg``
    finds it: messages in code, slash-command metadata and game titles."""
    with (ROOT / "lang" / "babel.cfg").open() as config:
        method_map, options_map = parse_mapping_cfg(config)
    found: set[tuple[str | None, str | tuple[str, ...]]] = set()
    for _, _, message, _, context in extract_from_dir(ROOT, method_map, options_map, keywords=KEYWORDS):
        found.add((context, message))
    return found


@pytest.mark.parametrize("locale", lang.SUPPORTED)
def test_every_message_the_code_says_is_in_the_catalogue(locale: str) -> None:
    said = said_in_code()
    assert ("command", "game") in said and (None, "New York (Dirk Henn)") in said  # metadata and titles too
    known = {(m.context, m.id) for m in catalogue(locale) if m.id}
    missing = sorted(str(m) for m in said - known)
    assert not missing, f"run the update of docs/translating.md and translate: {missing}"


def assert_translated(message: Message) -> None:
    """``message`` has every Italian form, with the placeholders of its English (a singular may leave out
    ``{count}``)."""
    ids = message.id if isinstance(message.id, tuple) else (cast(str, message.id),)
    texts = message.string if isinstance(message.string, tuple) else (cast(str, message.string),)
    assert all(texts), f"no Italian for {message.id!r}"
    wanted = set(PLACEHOLDER.findall(ids[-1]))
    for text in texts:
        assert set(PLACEHOLDER.findall(text)) <= wanted | {"count"}, (message.id, text)
        assert wanted - {"count"} <= set(PLACEHOLDER.findall(text)), (message.id, text)


def test_every_italian_message_is_translated_with_the_same_placeholders() -> None:
    for message in catalogue("it"):
        if not message.id:
            continue
        assert_translated(message)


def test_the_reader_gets_their_language_and_plural_forms() -> None:
    assert lang.pick("it") == lang.pick("it-IT") == lang.pick(None, "it_IT") == "it"
    assert lang.pick("de", None) == lang.pick() == "en"
    assert lang.t("it", "Match #{number} has started.", number=4) == "La partita n. 4 è iniziata."
    assert lang.t("en", "Match #{number} has started.", number=4) == "Match #4 has started."
    assert lang.t("fr", "Waiting for {players}.", players="Ann") == "Waiting for Ann."
    one = lang.tn("it", "{seated}/{count} player", "{seated}/{count} players", 1, seated=0)
    two = lang.tn("it", "{seated}/{count} player", "{seated}/{count} players", 2, seated=1)
    assert (one, two) == ("0/1 giocatore", "1/2 giocatori")
    assert lang.join("it", ["Ann", "Bob", "Cy"]) == "Ann, Bob e Cy" and lang.join("en", ["Ann"]) == "Ann"


# The keywords of the rules' sentences (engine.core.say.Speaker), as docs/translating.md gives them.
GAME_KEYWORDS = {"say": None, "say_n": (1, 2), "word": (1, (2, "c"))}


def said_by_game(slug: str) -> set[tuple[str | None, str | tuple[str, ...]]]:
    found: set[tuple[str | None, str | tuple[str, ...]]] = set()
    for _, _, message, _, context in extract_from_dir(ROOT / "engine" / slug, keywords=GAME_KEYWORDS):
        found.add((context, message))
    return found


@pytest.mark.parametrize("slug", ["fifth_avenue", "ny1901", "ny_henn", "ny_piatnik", "skyline"])
def test_every_sentence_of_every_game_is_in_italian(slug: str) -> None:
    said = said_by_game(slug)
    assert said, f"{slug} says nothing through its Speaker"
    with lang.po_path("it", slug).open("rb") as source:
        italian = read_po(source, locale="it")
    known = {(m.context, m.id): m for m in italian if m.id}
    missing = sorted(str(m) for m in said - set(known))
    assert not missing, f"run the game update of docs/translating.md and translate: {missing[:10]}"
    for key in said:
        message = known[key]
        assert_translated(message)


# Italian pronouns and participles that would give a player a gender; a player is named, or the sentence
# is neutral ("▶ = di turno", "{player} riprende a giocare").
# ("Il tempo di {player} è scaduto" is the time's, not the player's.)
GENDERED = re.compile(
    r"\b(lui|lei|egli|ella)\b|(?<!di )\{player\} (è|si è) \w+[oa]\b|\b(sono|per) prim[oaie]\b"
)


def test_no_italian_sentence_gives_a_player_a_gender() -> None:
    found = []
    for path in sorted((Path(lang.__file__).parent / "locales" / "it" / "LC_MESSAGES").glob("*.po")):
        with path.open("rb") as source:
            for message in read_po(source):
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                found += [text for text in strings if isinstance(text, str) and GENDERED.search(text)]
    assert not found, found
