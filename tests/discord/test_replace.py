"""A new person in an empty seat (``/game replace``) and "while you were away", through Discord: the offer
in the thread, who may take it, the newcomer's hand and summary, the rating from their first move, and
the summary of a player back with ``/game return``."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

from cogs._client import BigApple
from engine.core.rng import Rng
from engine.host.ports import MatchStatus
from engine.registry import POLICIES
from tests.discord.fake import FakeDiscord
from tests.discord.models import FakeChannel, FakeMessage, FakeUser
from tests.discord.test_bigapple import big_apple, button, new_match, started_match
from tests.discord.test_clocks import fast_match, said
from tests.discord.test_match_life import play_out
from tests.discord.test_notify import Clock, bot_at

TAKE = "ba:seat:take:"
# How long a test waits for an answer or a delivery: long enough for a busy machine.
WAIT = 20.0


async def play_people_until(bot: BigApple, match_id: int, seat: int, moves: int) -> None:
    """The people play greedy moves until a computer has played ``moves`` moves for ``seat``."""
    for step in range(500):
        kept = await bot.store.kept_actions(match_id)
        if sum(1 for _, entry in kept if entry.seat == seat and entry.stand_in) >= moves:
            return
        record = await bot.host.match(match_id)
        assert record.status is MatchStatus.ACTIVE
        rules, greedy = bot.host.rules(record.game), POLICIES[record.game]["greedy"]
        state = bot.host.state_of(record)
        acting = min(rules.to_act(state))
        player = record.player_at(acting)
        assert player is not None and player.user_id is not None and player.bot is None
        action = greedy.choose(rules, state, acting, rules.legal_actions(state, acting), Rng.from_seed(step))
        await bot.host.act(match_id, player.user_id, rules.notation(action))
    raise AssertionError("the computer never played that often for the seat")


async def people_play_until_turn_of(bot: BigApple, match_id: int, seat: int) -> None:
    """The people play greedy moves until it is ``seat``'s turn."""
    for step in range(500):
        record = await bot.host.match(match_id)
        rules = bot.host.rules(record.game)
        state = bot.host.state_of(record)
        if seat in rules.to_act(state):
            return
        acting = min(rules.to_act(state))
        player = record.player_at(acting)
        assert player is not None and player.user_id is not None
        greedy = POLICIES[record.game]["greedy"]
        action = greedy.choose(rules, state, acting, rules.legal_actions(state, acting), Rng.from_seed(step))
        await bot.host.act(match_id, player.user_id, rules.notation(action))
    raise AssertionError("the seat's turn never came")


async def answer(fake: FakeDiscord, message: FakeMessage, user: FakeUser) -> str:
    return (
        await (await fake.click(message, button(message, TAKE), user=user)).response(timeout=WAIT)
    ).content or ""


def offers(thread: FakeChannel) -> list[FakeMessage]:
    return [m for m in thread.messages if any(b.get("custom_id", "").startswith(TAKE) for b in m.buttons)]


async def test_a_newcomer_takes_a_resigned_seat_plays_on_and_is_rated_from_their_first_move(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    cy, di = fake.add_user("cy"), fake.add_user("di")
    cy.locale = "it"
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread = await started_match(fake, bot, "ny1901")
        ask = await (await fake.slash("game resign", {}, user=fake.bob, channel=thread)).response(
            timeout=WAIT
        )
        await (await fake.click(ask, button(ask, "ba:resign:"), user=fake.bob)).response(timeout=WAIT)
        seat = (await bot.host.match(match_id)).seat_of(fake.bob.id)
        assert seat is not None
        await play_people_until(bot, match_id, seat, 3)
        # The command suggests the seats a computer holds for someone who left them, in words.
        suggested = await (
            await fake.autocomplete("game replace", "seat", "", {}, user=fake.alice, channel=thread)
        ).choices(timeout=WAIT)
        assert [c["value"] for c in suggested] == [str(seat + 1)]
        assert "Bob's seat (computer, after Bob resigned)" in suggested[0]["name"]
        # Only the creator (or an admin) offers it, and only a seat a computer holds.
        refused = await (
            await fake.slash("game replace", {"seat": "bob"}, user=fake.bob, channel=thread)
        ).response(timeout=WAIT)
        assert refused.ephemeral and "Only the match's creator or a server admin" in (refused.content or "")
        alice_seat = (await bot.host.match(match_id)).seat_of(fake.alice.id)
        assert alice_seat is not None
        held = await (
            await fake.slash("game replace", {"seat": str(alice_seat + 1)}, user=fake.alice, channel=thread)
        ).response(timeout=WAIT)
        assert "plays that seat" in (held.content or ""), held.content
        assert not offers(thread)
        # Offered twice: two posts, one seat.
        for _ in range(2):
            done = await (
                await fake.slash("game replace", {"seat": str(seat + 1)}, user=fake.alice, channel=thread)
            ).response(timeout=WAIT)
            assert done.ephemeral and "The seat is offered in the thread" in (done.content or "")
        first, second = await fake.wait_until(
            lambda: offers(thread) if len(offers(thread)) == 2 else None, timeout=WAIT
        )
        assert "Take this seat" in (first.content or "") and "Bob's seat" in (first.content or "")
        # Who plays in the match, and who resigned from it, cannot take it.
        assert "You already play in match" in await answer(fake, first, fake.alice)
        assert "You resigned from match" in await answer(fake, first, fake.bob)
        version = (await bot.host.match(match_id)).version
        # Cy takes it: the summary in Italian, privately; the hand by direct message; the thread is told.
        welcome = await answer(fake, first, cy)
        assert "Ora giochi il posto che Bob ha lasciato" in welcome, welcome
        assert re.search(r"Mentre eri via, un computer ha giocato \d+ mosse per il tuo posto", welcome), (
            welcome
        )
        assert "While you were away" not in welcome
        record = await bot.host.match(match_id)
        assert record.seat_of(cy.id) == seat and record.version == version + 1
        player = record.player_at(seat)
        assert player is not None and player.bot is None and not player.resigned and player.name == "Cy"
        await fake.wait_for_message(
            thread, lambda m: "Cy takes over the seat Bob left" in (m.content or ""), timeout=WAIT
        )
        # Cy's app speaks Italian, as the press told: the hand that follows is in Italian too.
        dm = await fake.wait_for_dm(
            cy, lambda m: "Ora giochi il posto che Bob ha lasciato" in (m.content or ""), timeout=WAIT
        )
        assert "You now play" not in (dm.content or "")
        assert dm.attachments, "the hand's image"
        assert not [m for m in fake.dm_messages(fake.bob) if "You now play" in (m.content or "")]
        taken_post = await fake.wait_until(
            lambda: next((m for m in thread.messages if m.id == first.id and not m.buttons), None),
            timeout=WAIT,
        )
        assert "Cy took this seat" in (taken_post.content or "")
        # The other offer is stale now.
        assert "This seat has been taken already" in await answer(fake, second, di)
        assert (await bot.host.match(match_id)).seat_of(di.id) is None
        # Cy plays on with Alice to the end; the rating counts Cy for the seat and Bob last.
        await play_out(bot, match_id)
        kept = await bot.store.kept_actions(match_id)
        assert any(v > version and e.seat == seat and not e.stand_in for v, e in kept)
        rated = {c.user_id: c for c in await bot.ratings.changes(match_id)}
        assert set(rated) == {fake.alice.id, fake.bob.id, cy.id}
        assert rated[cy.id].seat == seat and rated[fake.bob.id].seat == seat
        assert rated[fake.bob.id].place == 4 and rated[cy.id].place < 4 and rated[fake.alice.id].place < 4
        final = await bot.host.match(match_id)
        outcome = bot.host.outcome(final)
        assert outcome is not None and rated[cy.id].place == outcome.places[seat]


async def test_a_player_back_with_game_return_reads_what_the_computer_played_for_them(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    clock = Clock(datetime(2026, 5, 4, 10, tzinfo=UTC))
    async with bot_at(fake, tmp_path / "db.sqlite", clock) as bot:
        match_id, thread = await fast_match(fake)
        record = await bot.host.match(match_id)
        rules = bot.host.rules(record.game)
        to_act = min(rules.to_act(bot.host.state_of(record)))
        player = record.player_at(to_act)
        assert player is not None
        away = fake.alice if player.user_id == fake.alice.id else fake.bob
        # Their time runs out twice in a row: a computer plays their turn, then keeps the seat.
        clock.advance(hours=2)
        await bot.timekeeper.sweep()
        await fake.wait_until(lambda: said(thread, "a computer played their turn") or None, timeout=WAIT)
        await people_play_until_turn_of(bot, match_id, to_act)
        clock.advance(hours=2)
        await bot.timekeeper.sweep()
        await fake.wait_until(lambda: said(thread, "twice in a row") or None, timeout=WAIT)
        back = await (await fake.slash("game return", {}, user=away, channel=thread)).response(timeout=WAIT)
        text = back.content or ""
        assert back.ephemeral and "Welcome back" in text
        played = sum(1 for _, e in await bot.store.kept_actions(match_id) if e.seat == to_act and e.stand_in)
        assert f"a computer played {played} move" in text, text
        bullets = [line for line in text.splitlines() if line.startswith("• ")]
        assert 1 <= len(bullets) <= 9


async def test_an_admin_offers_a_timed_out_seat_whose_player_is_sent_to_game_return_instead(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    cy = fake.add_user("cy")
    clock = Clock(datetime(2026, 5, 4, 10, tzinfo=UTC))
    async with bot_at(fake, tmp_path / "db.sqlite", clock) as bot:
        match_id, thread = await new_match(fake, fake.alice, "ny1901", players=3, computers=1, clock="fast")
        lobby = await fake.wait_for_message(thread, timeout=WAIT)
        joined = await (await fake.click(lobby, button(lobby, "ba:lobby:join:"), user=fake.bob)).response(
            timeout=WAIT
        )
        await (await fake.click(joined, button(joined, "ba:lobby:start:"), user=fake.alice)).response(
            timeout=WAIT
        )
        record = await bot.host.match(match_id)
        rules = bot.host.rules(record.game)
        [computer] = [p.seat for p in record.players if p.user_id is None and p.seat is not None]
        await people_play_until_turn_of(bot, match_id, record.seat_of(fake.bob.id) or 0)
        seat = record.seat_of(fake.bob.id)
        assert seat is not None
        for _ in range(2):  # Bob lets the time run out twice in a row: a computer keeps the seat
            clock.advance(hours=2)
            await bot.timekeeper.sweep()
            record = await bot.host.match(match_id)
            if not (kept := record.player_at(seat)) or not kept.absent:
                await people_play_until_turn_of(bot, match_id, seat)
        kept = (await bot.host.match(match_id)).player_at(seat)
        assert kept is not None and kept.absent
        assert seat not in rules.to_act(bot.host.state_of(await bot.host.match(match_id)))

        async def offering(user: FakeUser, chosen: int) -> str:
            ix = await fake.slash("game replace", {"seat": str(chosen + 1)}, user=user, channel=thread)
            return (await ix.response(timeout=WAIT)).content or ""

        assert "since the start" in await offering(fake.alice, computer)
        assert "Only the match's creator or a server admin" in await offering(fake.bob, seat)
        assert "The seat is offered" in await offering(fake.admin, seat)
        [offer] = await fake.wait_until(lambda: offers(thread) or None, timeout=WAIT)
        assert "Bob's seat (computer, while Bob is away)" in (offer.content or "")
        assert "take it back with /game return" in await answer(fake, offer, fake.bob)
        fake.close_dms(cy)
        welcome = await answer(fake, offer, cy)
        assert "You now play the seat Bob left" in welcome and "While you were away" in welcome, welcome
        assert (await bot.host.match(match_id)).seat_of(cy.id) == seat
        # Cy's direct messages are closed: the hand waits behind the My hand button, for Cy alone.
        notice = await fake.wait_for_message(
            thread,
            lambda m: (
                "cannot send you direct messages" in (m.content or "") and f"<@{cy.id}>" in (m.content or "")
            ),
            timeout=WAIT,
        )
        hand = await (await fake.click(notice, button(notice, "ba:hand:"), user=cy)).response(timeout=WAIT)
        assert hand.ephemeral and hand.attachment("hand.png").data.startswith(b"\x89PNG")
        old_hand = await (await fake.click(notice, button(notice, "ba:hand:"), user=fake.bob)).response(
            timeout=WAIT
        )
        assert "Cy took over your seat" in (old_hand.content or "") and not old_hand.attachments
        back = await (await fake.slash("game return", {}, user=fake.bob, channel=thread)).response(
            timeout=WAIT
        )
        assert f"Cy took over your seat in match #{match_id}; you no longer play in it" in (
            back.content or ""
        ), back.content
        # Cy's clock is Cy's own now.
        clocks = await bot.host.seat_clocks(await bot.host.match(match_id))
        assert clocks[seat].user_id == cy.id and clocks[seat].timeouts == 0
        # A match that is over offers nothing.
        await bot.host.abandon(match_id, fake.alice.id)
        ix = await fake.slash("game replace", {"seat": str(seat + 1), "match": match_id}, user=fake.alice)
        assert "no more moves can be made" in ((await ix.response(timeout=WAIT)).content or "")
