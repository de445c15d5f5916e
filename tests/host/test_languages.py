"""Which language a person reads, decided once for every front end."""

from __future__ import annotations

from data.settings import SqliteSettings
from data.store import SqliteMatchStore
from engine.host.languages import LANGUAGE, reader_locale, recipient_locale

ANN, SERVER = 101, 7


async def test_a_choice_beats_the_app_language_which_beats_the_server(store: SqliteMatchStore) -> None:
    settings = SqliteSettings.beside(store)
    assert await reader_locale(settings, ANN, SERVER, "en-GB") == "en"
    assert await reader_locale(settings, ANN, SERVER, "it") == "it"
    assert await recipient_locale(settings, ANN, SERVER) == "en"
    await settings.set("guild", SERVER, LANGUAGE, "it")
    # An app language we do not speak gives way to the server's; a post follows the server.
    assert await reader_locale(settings, ANN, SERVER, "ja") == "it"
    assert await reader_locale(settings, ANN, SERVER, "en-US") == "en"
    assert await recipient_locale(settings, ANN, SERVER) == "it"
    assert await recipient_locale(settings, None, None) == "en"
    await settings.set("user", ANN, LANGUAGE, "en")
    assert await reader_locale(settings, ANN, SERVER, "it") == "en"
    assert await recipient_locale(settings, ANN, SERVER) == "en"
