"""A newcomer who does everything wrong, in English and in Italian: every answer is private, in the reader's
language only, free of notation, and says what they can do instead."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from engine.registry import GAMES
from tests.discord.fake import FakeDiscord, FakeInteraction
from tests.discord.test_bigapple import big_apple, board_post, button, started_match, whose_turn

# Words that only one of the two languages uses, as whole words (names of places and players aside).
ENGLISH_ONLY = re.compile(r"\b(the|you|your|is|not|press|match|move|moves|with|seat|cannot|allowed)\b", re.I)
ITALIAN_ONLY = re.compile(
    r"\b(il|non|sei|tuo|tua|tue|partita|mossa|mosse|premi|posto|nella|della|consentito)\b", re.I
)
# Engine notation: key=value pairs, seat codes, option ids and the old "Allowed: …" lists.
NOTATION = re.compile(r"\w=\w|\b[a-z]+_[a-z_]+\b|\bS\d\b|[A-Z0-9]{2,}-[A-Z0-9]{2,}")
# What a person can do, as the answers word it.
WHAT_TO_DO = {
    "en": re.compile(r"\b(press\w*|use|type|choose|wait|follow|open|ask)\b|/\w", re.I),
    "it": re.compile(r"\b(prem\w+|usa|scrivi|scegli|aspetta|segui\w*|apri\w*|chiedi|invia)\b|/\w", re.I),
}


@dataclass
class Transcript:
    """What the confused newcomer read, case by case, in one language."""

    language: str
    said: list[tuple[str, str]] = field(default_factory=list)

    async def read(self, case: str, interaction: FakeInteraction, refusal: bool = True) -> str:
        reply = await interaction.response()
        text = reply.content or ""
        assert reply.ephemeral, (case, text)
        self.said.append((case, text))
        wrong_language = ITALIAN_ONLY if self.language == "en" else ENGLISH_ONLY
        assert not wrong_language.findall(text), (case, text)
        shown = re.sub(r"`[^`]*`|“[^”]*”|«[^»]*»", "", text)  # what the person typed or may type, quoted
        assert not NOTATION.findall(shown), (case, text)
        if refusal:
            assert WHAT_TO_DO[self.language].search(text), (case, text)
        return text


def speaking(fake: FakeDiscord, locale: str) -> str:
    """Every person's Discord speaks ``locale``; returns the bot's language for it."""
    for user in (fake.alice, fake.bob, fake.admin, fake.owner):
        user.locale = locale
    return "it" if locale == "it" else "en"


@pytest.mark.parametrize("locale", ["en-US", "it"])
async def test_a_confused_newcomer_in_the_lobby(
    fake_discord: FakeDiscord, tmp_path: Path, locale: str
) -> None:
    fake = fake_discord
    said = Transcript(speaking(fake, locale))
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        turbo = {"game": "fifth_avenue", "players": 3, "options": "turbo"}
        text = await said.read(
            "an option that does not exist", await fake.slash("game new", turbo, user=fake.alice)
        )
        assert "`turbo`" in text and "`six_lots`" in text
        too_many = {"game": "fifth_avenue", "players": 5}
        await said.read("too many players", await fake.slash("game new", too_many, user=fake.alice))
        await (await fake.slash("game new", {"game": "ny_piatnik", "players": 3}, user=fake.alice)).response()
        thread = await fake.wait_for_thread(fake.general)
        lobby = await fake.wait_for_message(thread)
        join, start = button(lobby, "ba:lobby:join:"), button(lobby, "ba:lobby:start:")
        await said.read("start with too few", await fake.click(lobby, start, user=fake.alice))
        await said.read("join one's own match", await fake.click(lobby, join, user=fake.alice))
        await (await fake.click(lobby, join, user=fake.bob)).response()
        await said.read("join twice", await fake.click(lobby, join, user=fake.bob))
        await said.read("start someone else's match", await fake.click(lobby, start, user=fake.bob))
        await (await fake.click(lobby, join, user=fake.owner)).response()
        await said.read("join a full lobby", await fake.click(lobby, join, user=fake.admin))
        await said.read(
            "leave a lobby one is not in", await fake.slash("game leave", {}, user=fake.admin, channel=thread)
        )
        record = await bot.host.match(1)
        seated = {p.user_id for p in record.players}
        assert seated == {fake.alice.id, fake.bob.id, fake.owner.id}  # nothing a refusal asked for was done
        assert record.status.value == "lobby"
        print("\n".join(f"{case}: {text}" for case, text in said.said))


@pytest.mark.parametrize("locale", ["en-US", "it"])
@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_confused_newcomer_at_the_table(
    fake_discord: FakeDiscord, tmp_path: Path, game: str, locale: str
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread = await started_match(fake, bot, game)
        said = Transcript(speaking(fake, locale))
        first, other, version = await whose_turn(fake, bot, match_id)
        post = await board_post(fake, thread, version)
        play = button(post, "ba:play:")
        await said.read("a spectator presses Play", await fake.click(post, play, user=fake.admin))
        if (await whose_turn(fake, bot, match_id))[0] is first and other is not first:
            to_act = bot.host.to_act(await bot.host.match(match_id))
            record = await bot.host.match(match_id)
            if record.seat_of(other.id) not in to_act:
                await said.read("Play out of turn", await fake.click(post, play, user=other))
        await said.read(
            "garbage in /move", await fake.slash("move", {"notation": "dance"}, user=first, channel=thread)
        )
        await said.read(
            "notation that means nothing",
            await fake.slash("move", {"notation": "x=1"}, user=first, channel=thread),
        )
        assert (await bot.host.match(match_id)).version == version
        # The list offered while typing is the menu's words; typing one of them plays it.
        offered = await (
            await fake.autocomplete("move", "notation", "", user=first, channel=thread)
        ).choices()
        assert offered
        for choice in offered:
            assert not NOTATION.findall(choice["name"]), choice["name"]
        label = offered[0]["name"]
        typed = await said.read(
            "the menu's words typed",
            await fake.slash("move", {"notation": label}, user=first, channel=thread),
            False,
        )
        assert typed.startswith("✅") and label.rstrip("…") in typed
        undo = await fake.slash("game undo", {}, user=first, channel=thread)
        await said.read("undo at once", undo, refusal=False)
        # The first board's Play button, once the board has moved on.
        record = await bot.host.match(match_id)
        if record.version != version and any(b["custom_id"] == play for b in post.buttons):
            # It opens the menu of the turn at hand for its player (one tap less), else says it is old.
            old = await said.read("an old Play button", await fake.click(post, play, user=first), False)
            assert (await bot.host.match(match_id)).version == record.version, old
        # Resigning, then trying to play on.
        ask = await fake.slash("game resign", {}, user=other, channel=thread)
        question = await said.read("resign", ask, refusal=False)
        assert question
        confirm = await ask.response()
        await said.read(
            "resign confirmed", await fake.click(confirm, button(confirm, "ba:resign:"), user=other), False
        )
        now = await bot.host.match(match_id)
        latest = await board_post(fake, thread, now.version) if now.status.value == "active" else post
        if latest.buttons:
            await said.read(
                "Play after resigning", await fake.click(latest, button(latest, "ba:play:"), user=other)
            )
        await said.read(
            "a move after resigning",
            await fake.slash("move", {"notation": "dance"}, user=other, channel=thread),
        )
        await said.read("resign again", await fake.slash("game resign", {}, user=other, channel=thread))
        print("\n".join(f"{case}: {text}" for case, text in said.said))
