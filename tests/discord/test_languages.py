"""The bot speaks Italian and English: command names and descriptions are localised in the synced
commands, and replies follow the user's choice, their Discord language, or the server's default."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.host.replies import rules_text
from engine.registry import GAMES, PRESENTATIONS
from tests.discord.fake import FakeDiscord
from tests.discord.test_bigapple import big_apple, new_match


def every_entry(commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Commands, subcommands and options of a synced payload, depth first."""
    found = []
    for command in commands:
        found.append(command)
        found.extend(every_entry(command.get("options") or []))
    return found


async def test_synced_commands_carry_italian_names_and_descriptions(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite"):
        synced = fake.requests_to("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")[-1].json
    entries = every_entry(synced)
    assert len(entries) > 60
    for entry in entries:
        assert entry["name_localizations"].get("it"), entry["name"]
        assert entry["description"] != "…", f"{entry['name']} has no description"
        assert entry["description_localizations"].get("it"), entry["description"]
        for choice in entry.get("choices") or []:
            if choice["name"] not in ("Italiano", "English") and not choice["name"].startswith(
                ("New York", "Fifth", "Sky")
            ):
                assert choice["name_localizations"].get("it"), choice["name"]
    game = next(c for c in synced if c["name"] == "game")
    assert game["name_localizations"]["it"] == "partita"
    assert {o["name_localizations"]["it"] for o in game["options"]} >= {"nuova", "entra", "elenco"}


async def test_replies_follow_the_choice_then_discord_then_the_server(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    fake.bob.locale = "it"
    async with big_apple(fake, tmp_path / "db.sqlite"):
        listing = await (await fake.slash("game list", {}, user=fake.bob)).response()
        assert listing.content == "Nessuna partita aperta qui. Aprine una con `/partita nuova`."
        english = await (await fake.slash("game list", {}, user=fake.alice)).response()
        assert english.content == "No open matches here. Start one with `/game new`."
        chosen = await (await fake.slash("settings language", {"language": "it"}, user=fake.alice)).response()
        assert chosen.content == "D’ora in poi ti parlo in italiano."
        again = await (await fake.slash("game list", {}, user=fake.alice)).response()
        assert again.content and again.content.startswith("Nessuna partita")
        refused = await (
            await fake.slash("settings server-language", {"language": "it"}, user=fake.bob)
        ).response()
        assert "amministratori" in (refused.content or "")
        await (await fake.slash("settings server-language", {"language": "it"}, user=fake.admin)).response()
        # A public lobby message speaks the server's language; a German client reads the server's too.
        match_id, thread = await new_match(fake, fake.admin, players=3)
        lobby = await fake.wait_for_message(thread)
        assert "in attesa di giocatori" in (lobby.content or "") and f"partita n. {match_id}" in (
            lobby.content or ""
        )
        fake.owner.locale = "de"
        status = await (await fake.slash("game status", {"match": match_id}, user=fake.owner)).response()
        assert "Giocatori 1/3" in (status.content or "")


async def test_posts_speak_the_servers_language_and_dms_the_players_own(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite"):
        await (await fake.slash("settings language", {"language": "it"}, user=fake.alice)).response()
        match_id, thread = await new_match(fake, fake.bob, "fifth_avenue", players=3, computers=1)
        lobby = await fake.wait_for_message(thread)
        assert "Join with the button" in (lobby.content or "")  # the server speaks English
        assert [b["label"] for b in lobby.buttons] == ["Join", "Leave", "Start"]
        assert [s["placeholder"] for s in lobby.selects] == ["Add a computer player…"]
        lobby = await (await fake.click(lobby, lobby.buttons[0]["custom_id"], user=fake.alice)).response()
        assert not lobby.selects  # every seat is taken
        started = await (await fake.click(lobby, lobby.buttons[2]["custom_id"], user=fake.bob)).response()
        assert "The match has started" in (started.content or "")
        dm = await fake.wait_for_dm(fake.alice)
        assert f"partita n. {match_id}" in (dm.content or "") and "Thread:" in (dm.content or "")
        assert f"match #{match_id}" in ((await fake.wait_for_dm(fake.bob)).content or "")
        post = await fake.wait_for_message(thread, lambda m: "Players:" in (m.content or ""))
        assert [b["label"] for b in post.buttons] == ["Play", "My hand"]
        hand = await (await fake.click(post, post.buttons[1]["custom_id"], user=fake.alice)).response()
        assert (hand.content or "").startswith(f"La tua vista della partita n. {match_id}.")


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_rules_teach_each_game_in_both_languages_within_one_message(slug: str) -> None:
    rules, presentation = GAMES[slug], PRESENTATIONS[slug]
    texts = {
        locale: rules_text(rules, presentation, locale, frozenset(rules.options)) for locale in ("en", "it")
    }
    for locale, text in texts.items():
        assert len(text) < 2000, (locale, len(text))  # said in full, never cut at Discord's limit
        assert text.count("\n") >= len(presentation.how_to) + len(rules.options)
        assert all(f"`{option}`" in text for option in rules.options)
        assert text.count("✅") == len(rules.options)
    english, italian = (texts[locale].splitlines() for locale in ("en", "it"))
    assert len(presentation.how_to) >= 3 and len(presentation.glossary) >= 2
    assert not set(english[1:]) & set(italian[1:])  # every line after the title is translated


async def test_with_no_setting_the_thread_speaks_the_servers_preferred_language_and_dms_the_players_app(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    fake.guild.preferred_locale = "it"
    fake.alice.locale = "it"
    async with big_apple(fake, tmp_path / "db.sqlite"):
        await (await fake.slash("game list", {}, user=fake.alice)).response()  # Alice's app speaks Italian
        match_id, thread = await new_match(fake, fake.bob, "fifth_avenue", players=3, computers=1)
        lobby = await fake.wait_for_message(thread)
        assert "in attesa di giocatori" in (lobby.content or "")  # the server prefers Italian
        joined = await (await fake.click(lobby, lobby.buttons[0]["custom_id"], user=fake.alice)).response()
        await (await fake.click(joined, joined.buttons[2]["custom_id"], user=fake.bob)).response()
        italian = await fake.wait_for_dm(fake.alice)
        english = await fake.wait_for_dm(fake.bob)
        assert f"partita n. {match_id}" in (italian.content or "")
        assert "match #" not in (italian.content or "")
        assert f"match #{match_id}" in (english.content or "") and "partita" not in (english.content or "")
        post = await fake.wait_for_message(thread, lambda m: "Giocatori:" in (m.content or ""))
        assert [b["label"] for b in post.buttons] == ["Gioca", "La mia mano"]
