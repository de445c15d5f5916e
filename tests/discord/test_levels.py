"""Choosing how computer players play: the lobby offers every level, the strong one thinks in a process,
and tournaments and absent players get the strongest."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.discord.fake import FakeDiscord
from tests.discord.test_bigapple import big_apple, new_match

LEVEL_LABELS = [
    "Easy: plays at random",
    "Normal: takes the move that looks best right now",
    "Strong: thinks several moves ahead",
]


async def test_the_creator_adds_computers_of_each_level_from_the_lobby(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread = await new_match(fake, fake.bob, "ny1901", players=3)
        lobby = await fake.wait_for_message(thread)
        (chooser,) = lobby.selects
        assert [o["label"] for o in chooser["options"]] == LEVEL_LABELS
        assert [o["value"] for o in chooser["options"]] == ["random", "greedy", "strong"]

        refused = await (
            await fake.select(lobby, chooser["custom_id"], ["strong"], user=fake.alice)
        ).response()
        assert refused.ephemeral and "Only the player who created the match" in (refused.content or "")
        assert [p.bot for p in (await bot.host.match(match_id)).players] == [None]

        lobby = await (await fake.select(lobby, chooser["custom_id"], ["strong"], user=fake.bob)).response()
        assert "Astor (computer) · strong" in (lobby.content or "")
        assert len(lobby.selects) == 1  # a seat is still free
        lobby = await (await fake.select(lobby, chooser["custom_id"], ["random"], user=fake.bob)).response()
        assert "Vanderbilt (computer) · easy" in (lobby.content or "")
        assert not lobby.selects  # every seat is taken
        assert [p.bot for p in (await bot.host.match(match_id)).players] == [None, "strong", "random"]


async def test_an_italian_lobby_names_the_levels_in_italian(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite"):
        await (await fake.slash("settings server-language", {"language": "it"}, user=fake.admin)).response()
        _, thread = await new_match(fake, fake.bob, "ny1901", players=3, computers=1, level="strong")
        lobby = await fake.wait_for_message(thread)
        assert "Astor (computer) · forte" in (lobby.content or "")
        (chooser,) = lobby.selects
        assert chooser["placeholder"] == "Aggiungi un giocatore computer…"
        assert [o["label"] for o in chooser["options"]][2] == "Forte: pensa diverse mosse in anticipo"


@pytest.mark.think_processes
async def test_a_strong_computer_thinks_in_a_process_and_plays_legal_moves(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        match_id, _ = await new_match(fake, fake.bob, "ny1901", players=2, computers=1, level="strong")
        await bot.host.start(match_id, by_user=fake.bob.id)
        # Whoever starts, the person plays until the strong computer has moved at least once.
        for _ in range(8):
            if bot.thinker.ran_in_processes:
                break
            match = await bot.host.match(match_id)
            state = bot.host.state_of(match)
            rules = bot.host.rules(match.game)
            seat = match.seat_of(fake.bob.id)
            assert seat is not None and seat in rules.to_act(state)
            await bot.host.act(match_id, fake.bob.id, rules.notation(rules.legal_actions(state, seat)[0]))
        assert bot.thinker.ran_in_processes >= 1 and bot.thinker.ran_in_threads == 0
        match = await bot.host.match(match_id)
        log = await bot.store.action_log(match_id)
        computer = next(p.seat for p in match.players if p.bot == "strong")
        assert any(entry.seat == computer for entry in log)  # it moved, and the rules accepted its move


async def test_tournament_computers_and_resigned_seats_are_strong(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        match_id, _ = await new_match(fake, fake.bob, "ny1901", players=3, computers=2, level="greedy")
        await bot.host.start(match_id, by_user=fake.bob.id)
        match = await bot.host.match(match_id)
        seat = match.seat_of(fake.bob.id)
        match = await bot.host.resign(match_id, fake.bob.id)
        assert [p.bot for p in match.players if p.seat == seat] == ["strong"]

        options = {"name": "Cup", "game": "ny1901", "format": "swiss", "table_size": 3, "rounds": 1}
        for command, given in (("tournament create", options), ("tournament open", {})):
            await (await fake.slash(command, given, user=fake.admin)).response()
        await (await fake.slash("tournament add-computer", {}, user=fake.admin)).response()
        await (await fake.slash("tournament add-computer", {"level": "random"}, user=fake.admin)).response()
        [record] = await bot.tournament_store.list_tournaments(limit=5)
        assert [e.bot for e in record.entrants] == ["strong", "random"]
