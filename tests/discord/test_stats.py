"""/stats: how often each place in the order of play wins, from the table shipped with the project, in the
reader's language."""

from __future__ import annotations

from pathlib import Path

from engine.host.seat_advantage import measured
from tests.discord.fake import FakeDiscord
from tests.discord.test_bigapple import big_apple


def percent(rate: float) -> int:
    return round(rate * 100)


async def test_stats_tells_each_seats_share_of_wins_in_english_and_italian(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    fake.bob.locale = "it"
    figures = measured("skyline", 3)
    assert figures is not None
    rates = [percent(rate) for rate in figures.first_rate_by_seat]
    bounds = [(percent(low), percent(high)) for low, high in figures.ci95]
    async with big_apple(fake, tmp_path / "db.sqlite"):
        english = await (
            await fake.slash("stats", {"game": "skyline", "players": 3}, user=fake.alice)
        ).response()
        assert english.ephemeral
        text = english.content or ""
        assert text.startswith("**Skyline of the World**: how much it matters to play first\n")
        assert (
            f"In a 3-player match, whoever plays first wins {rates[0]}% of the time "
            f"(between {bounds[0][0]}% and {bounds[0][1]}%), "
            f"the second {rates[1]}% ({bounds[1][0]}–{bounds[1][1]}%) "
            f"and the third {rates[2]}% ({bounds[2][0]}–{bounds[2][1]}%). "
            f"Measured on {figures.matches} matches; if the order of play did not matter, each would win "
            "33% of the time." in text
        )
        assert "“Strong: thinks several moves ahead”" in text and "95 times in 100" in text
        assert "2-player" not in text and "4-player" not in text

        italian = await (await fake.slash("stats", {"game": "skyline"}, user=fake.bob)).response()
        text = italian.content or ""
        assert text.startswith("**Skyline of the World**: quanto conta il primo turno\n")
        for players in (2, 3, 4):
            assert f"In una partita a {players} giocatori, chi ha il primo turno vince " in text
        assert (
            f"chi ha il primo turno vince {rates[0]} volte su 100 (tra {bounds[0][0]} e {bounds[0][1]}), "
            f"chi ha il secondo {rates[1]} ({bounds[1][0]}–{bounds[1][1]}) "
            f"e chi ha il terzo {rates[2]} ({bounds[2][0]}–{bounds[2][1]})." in text
        )
        assert f"Misurato su {figures.matches} partite" in text and "“Forte: pensa" in text
        assert not any(word in text for word in ("whoever", "match", "Measured", "between"))


async def test_stats_of_every_seat_count_of_the_largest_game_fits_one_message(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    fake.bob.locale = "it"
    async with big_apple(fake, tmp_path / "db.sqlite"):
        for user in (fake.alice, fake.bob):
            reply = await (await fake.slash("stats", {"game": "ny_henn"}, user=user)).response()
            paragraphs = (reply.content or "").splitlines()
            assert len(paragraphs) == 7  # the title, seat counts 2 to 6, what the figures come from
            assert ("the sixth" if user is fake.alice else "chi ha il sesto") in paragraphs[5]


async def test_stats_refuses_a_seat_count_the_game_is_not_played_with(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite"):
        reply = await (
            await fake.slash("stats", {"game": "skyline", "players": 6}, user=fake.alice)
        ).response()
        assert reply.ephemeral
        assert "Skyline of the World is played by 2, 3 or 4 players, not 6" in (reply.content or "")
