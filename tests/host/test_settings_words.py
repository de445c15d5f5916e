"""The host checks and answers a person's settings (language, notifications, quiet hours, absences) in words
every front end shows as they are."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engine.core.errors import LobbyError
from engine.host import settings_words as words
from engine.host.notify import Channel, NotifyPrefs, QuietHours
from lang.says import render
from tests.host.test_lobby_words import MARKS


class Settings:
    """Settings kept in a dict, as the store keeps them."""

    def __init__(self) -> None:
        self.values: dict[tuple[str, int, str], str | None] = {}

    async def get(self, scope: str, owner: int, key: str) -> str | None:
        return self.values.get((scope, owner, key))

    async def set(self, scope: str, owner: int, key: str, value: str | None) -> None:
        self.values[(scope, owner, key)] = value


async def test_a_language_is_chosen_and_answered_in_itself() -> None:
    settings = Settings()
    said = await words.choose_language(settings, 5, "it")
    assert settings.values == {("user", 5, words.LANGUAGE): "it"}
    assert render("it", said) == "D’ora in poi ti parlo in italiano."
    assert render("en", said) == "From now on I speak to you in English."
    follow = await words.choose_language(settings, 5, "auto")
    assert settings.values[("user", 5, words.LANGUAGE)] is None
    assert render("it", follow) == "Seguirò la lingua del tuo Discord."
    with pytest.raises(LobbyError) as refused:
        await words.choose_server_language(settings, 9, "it", is_admin=False)
    assert refused.value.say is not None
    assert (
        render("it", refused.value.say) == "solo gli amministratori del server possono sceglierne la lingua"
    )
    assert ("guild", 9, words.LANGUAGE) not in settings.values
    server = await words.choose_server_language(settings, 9, "it", is_admin=True)
    assert settings.values[("guild", 9, words.LANGUAGE)] == "it"
    assert render("it", server) == "Ora i messaggi di questo server sono in italiano."


def test_time_zones_are_suggested_and_checked() -> None:
    assert words.zone_suggestions("  ") == list(words.COMMON_ZONES)
    assert words.zone_suggestions("new york") == ["America/New_York"]
    rome = words.zone_suggestions("rom")
    assert rome[0] == "Europe/Rome" and len(rome) <= words.ZONES_SUGGESTED
    assert words.quiet_hours(22, 7, " europe/rome ") == QuietHours(start=22, end=7, zone="Europe/Rome")
    with pytest.raises(LobbyError) as unknown:
        words.quiet_hours(22, 7, "Atlantis/" + "x" * 60)
    assert unknown.value.say is not None
    echoed = render("en", unknown.value.say)
    assert echoed.startswith("I do not know the time zone Atlantis/" + "x" * 30 + "…: write it like")
    with pytest.raises(LobbyError) as empty:
        words.quiet_hours(7, 7, "UTC")
    assert empty.value.say is not None
    assert render("it", empty.value.say) == "le ore di silenzio devono iniziare e finire a ore diverse"


def test_notification_settings_are_described_in_words() -> None:
    prefs = words.notify_by(NotifyPrefs(), Channel.WAITED.value, 3)
    assert prefs.channel is Channel.WAITED and prefs.after_hours == 3
    assert words.notify_by(prefs, Channel.DM.value).after_hours == 3
    assert words.describe_prefs("en", NotifyPrefs()) == "On your turn I will mention you in the match thread."
    assert (
        words.describe_prefs("it", NotifyPrefs())
        == "Quando tocca a te ti menzionerò nel thread della partita."
    )
    quiet = NotifyPrefs(quiet=QuietHours(start=22, end=7, zone="Europe/Rome"))
    assert (
        words.describe_prefs("en", quiet)
        .splitlines()[1]
        .startswith("Quiet hours from 22:00 to 07:00 (Europe/Rome)")
    )
    off = words.quiet_off_text("it", NotifyPrefs())
    assert off == "Ore di silenzio disattivate.\nQuando tocca a te ti menzionerò nel thread della partita."


def test_absences_are_answered_with_the_clocks_they_move() -> None:
    ends = datetime(2026, 3, 9, 12, tzinfo=UTC)
    assert words.away_text("en", ends, [], MARKS) == (
        "You are away until full 2026-03-09. "
        "Your clock stands still in 0 matches meanwhile, and in any turn that comes to you."
    )
    assert words.away_text("it", ends, [], MARKS).startswith("Sei assente fino a full 2026-03-09. ")
    assert words.back_text("it", []) == "Bentornato: il tuo tempo riprende in 0 partite."
