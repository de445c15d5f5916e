"""The one error responder's wording, for refusals and for surprises."""

from __future__ import annotations

import logging

import discord
import pytest
from discord import app_commands

from cogs.errors import error_text
from engine.core.errors import IllegalAction, NotSeated, StaleVersion
from engine.host.text import HOST


def test_refusals_say_what_is_wrong_and_what_to_do_never_the_notation_allowed() -> None:
    illegal = IllegalAction("building X is occupied", ["place at=8AV-34", "place at=8AV-38"])
    assert error_text(illegal) == "⚠️ Building X is occupied"  # the allowed notations are for programs
    stale = error_text(StaleVersion("this board has moved on (it is at move 9)"))
    assert stale == "⏳ This board has moved on (it is at move 9)"  # said once, not twice
    assert str(illegal) == "building X is occupied. Allowed: place at=8AV-34, place at=8AV-38"  # logs, CLI


def test_a_refusal_made_of_a_sentence_is_said_in_the_readers_language_with_what_to_do() -> None:
    refusal = NotSeated(
        HOST.say("you are not playing in match #{number}", number=4),
        ["join"],
        hint=HOST.say("To take a seat, press Join."),
    )
    assert refusal.message == "you are not playing in match #4"  # English for logs and the CLI
    assert error_text(refusal) == "⚠️ You are not playing in match #4. To take a seat, press Join."
    assert (
        error_text(refusal, "it")
        == "⚠️ Non stai giocando nella partita n. 4. Per prendere un posto, premi Entra."
    )


def test_a_surprise_is_logged_with_an_incident_id_the_user_also_sees(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.ERROR, logger="cogs.errors"):
        text = error_text(RuntimeError("disk on fire"))
    incident = text.split("`")[1]
    assert len(incident) == 8 and "disk on fire" not in text
    assert any(incident in r.getMessage() and r.exc_info for r in caplog.records)
    italian = error_text(RuntimeError("disk on fire"), "it")
    assert italian.startswith("Ci dispiace") and "Non è cambiato nulla" in italian


class _Number(app_commands.Transformer):
    async def transform(self, interaction: object, value: str) -> int:
        return int(value)


def test_discords_own_refusals_of_a_command_are_said_in_the_readers_language() -> None:
    private = app_commands.NoPrivateMessage()
    assert error_text(private) == (
        "⚠️ This command works in a server's channels, not in direct messages. Use it in the channel or "
        "thread of your match."
    )
    assert error_text(private, "it").startswith("⚠️ Questo comando funziona nei canali di un server")
    assert error_text(app_commands.CheckFailure("You are missing permissions"), "it") == (
        "⚠️ Qui non puoi usare questo comando"
    )
    unreadable = app_commands.TransformerError("tre", discord.AppCommandOptionType.integer, _Number())
    assert error_text(unreadable) == (
        "⚠️ “tre” cannot be read for this option. Choose one of the values the command offers."
    )
    assert "Failed" not in error_text(unreadable, "it") and "«tre»" in error_text(unreadable, "it")
