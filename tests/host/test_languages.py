"""Which language a person reads, decided once for every front end."""

from __future__ import annotations

from data.settings import SqliteSettings
from data.store import SqliteMatchStore
from engine.host.languages import LANGUAGE, reader_locale, recipient_locale

ANN, BEA, SERVER = 101, 102, 7


async def test_a_choice_beats_the_app_language_which_beats_the_server(store: SqliteMatchStore) -> None:
    settings = SqliteSettings.beside(store)
    assert await reader_locale(settings, ANN, SERVER, "en-GB") == "en"
    assert await recipient_locale(settings, ANN, SERVER) == "en"
    assert await reader_locale(settings, ANN, SERVER, "it") == "it"
    # A message Ann did not ask for speaks the language her app last spoke to us.
    assert await recipient_locale(settings, ANN, SERVER) == "it"
    await settings.set("guild", SERVER, LANGUAGE, "it")
    # An app language we do not speak gives way to the server's; a post follows the server.
    assert await reader_locale(settings, ANN, SERVER, "ja") == "it"
    assert await reader_locale(settings, ANN, SERVER, "en-US") == "en"
    assert await recipient_locale(settings, None, SERVER) == "it"
    assert await recipient_locale(settings, None, None) == "en"
    await settings.set("user", ANN, LANGUAGE, "en")
    assert await reader_locale(settings, ANN, SERVER, "it") == "en"
    assert await recipient_locale(settings, ANN, SERVER) == "en"


async def test_a_server_without_a_setting_speaks_the_language_discord_says_it_prefers(
    store: SqliteMatchStore,
) -> None:
    settings = SqliteSettings.beside(store)
    assert await recipient_locale(settings, None, SERVER) == "en"
    # Someone uses a command there: Discord tells their app's language and the server's preferred one.
    assert await reader_locale(settings, ANN, SERVER, "ja", "it") == "it"
    assert await recipient_locale(settings, None, SERVER) == "it"  # the thread's posts
    assert await recipient_locale(settings, BEA, SERVER) == "it"  # someone we never heard from
    # The admins' choice wins over what Discord says.
    await settings.set("guild", SERVER, LANGUAGE, "en")
    assert await recipient_locale(settings, None, SERVER) == "en"
    assert await reader_locale(settings, BEA, SERVER, "de", "it") == "en"
