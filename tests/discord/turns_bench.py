"""What a turn costs, for ``python bot.py bench --full``: three people play a match through the fake
Discord using only the menus (the Play button, the move selects, the one-move button), choosing what the
greedy computer player would. Counted: board posts and mentions per turn, REST requests and uploaded bytes
per move, and taps (a button is 1, a select 2) per step and per turn: a step counts the taps from the
decision shown to the move played; the Play that opens the menu counts once per turn, in the turn's taps,
as the menu then carries on through the turn.

Where the menu offers shortcuts (a run of moves as one choice), the player looks ahead at the moves the
greedy player would make for the rest of the turn and takes the shortcut that reaches the same position
as the most of them (the order of its moves may differ, e.g. floors bought in another order): one step,
counted once, for all the moves it plays."""

from __future__ import annotations

import contextlib
import functools
import statistics
import tempfile
from pathlib import Path
from typing import Any

from cogs._client import BigApple
from data.backend import open_stores
from engine.core.contract import GameRules, Policy
from engine.core.presentation import GamePresentation, Shortcut
from engine.core.rng import Rng
from engine.host.menus import parse_value
from engine.host.ports import MatchStatus
from engine.host.shortcuts import joined, playable, run_through, settle
from engine.registry import POLICIES
from tests.discord.fake import FakeDiscord, FakeTimeout
from tests.discord.harness import running_bot
from tests.discord.models import FakeChannel, FakeMessage, FakeUser, RecordedRequest

RECAP = "Since your last turn:"
BUTTON_TAPS = 1
SELECT_TAPS = 2


def _board_posts(thread: FakeChannel) -> list[FakeMessage]:
    return [m for m in thread.messages if any(a.filename == "board.png" for a in m.attachments)]


async def _final_post_settled(fake: FakeDiscord, thread: FakeChannel) -> None:
    """Wait until the final post (with the Rematch button) is the thread's last board post and the post
    before it has lost its controls, so both are counted as players end up seeing them. A bot that never
    gets there is left to the checks to report."""

    def settled() -> bool | None:
        posts = _board_posts(thread)
        final = bool(posts) and any(
            (b.get("custom_id") or "").startswith("ba:rematch:") for b in posts[-1].buttons
        )
        return True if final and not any(m.buttons for m in posts[:-1]) else None

    with contextlib.suppress(FakeTimeout):
        await fake.wait_until(settled, timeout=30)


def _button(message: FakeMessage, prefix: str) -> str | None:
    return next((b["custom_id"] for b in message.buttons if b["custom_id"].startswith(prefix)), None)


async def _latest_post(fake: FakeDiscord, thread: FakeChannel, version: int) -> FakeMessage:
    def found() -> FakeMessage | None:
        for message in reversed(thread.messages):
            custom_id = _button(message, "ba:play:")
            if custom_id and custom_id.endswith(f":{version}"):
                return message
        return None

    return await fake.wait_until(found, timeout=10)


def menu_choices(menu: FakeMessage) -> dict[str, tuple[str | None, str]]:
    """The values a private move menu offers: value -> (the select's custom id, or None for a button;
    the custom id to use)."""
    offered: dict[str, tuple[str | None, str]] = {}
    for select in menu.selects:
        for option in select["options"]:
            offered[option["value"]] = (select["custom_id"], select["custom_id"])
    for button in menu.buttons:
        if button["custom_id"].startswith("ba:pick:"):
            offered[button["custom_id"].split(":", 4)[4]] = (None, button["custom_id"])
    return offered


async def _reach(
    fake: FakeDiscord, menu: FakeMessage, user: FakeUser, notation: str, keys: list[str], patience: float
) -> tuple[FakeMessage, int]:
    """Play ``notation`` from ``menu`` through its groups (``keys``, coarsest first) and pages; returns
    the message after the move and the taps it took."""
    taps = 0
    for _ in range(20):
        one = _button(menu, "ba:one:")
        if one is not None:
            played = await (await fake.click(menu, one, user=user)).response(timeout=patience)
            return played, taps + BUTTON_TAPS
        offered = menu_choices(menu)
        wanted = "=" + notation
        if wanted not in offered:
            opens = [v for v in offered if v.startswith("?") and parse_value(v)[1] in keys]
            pages = [v for v in offered if v.startswith("?") and parse_value(v)[1] not in keys]
            wanted = opens[0] if opens else pages[-1]
        select, custom_id = offered[wanted]
        if select is None:
            menu = await (await fake.click(menu, custom_id, user=user)).response(timeout=patience)
            taps += BUTTON_TAPS
        else:
            menu = await (await fake.select(menu, select, [wanted], user=user)).response(timeout=patience)
            taps += SELECT_TAPS
        if wanted.startswith("="):
            return menu, taps
    raise AssertionError(f"{notation} could not be reached through the menus")


def plan(
    rules: GameRules[Any, Any], policy: Policy[Any, Any], state: Any, seat: int, moves: int
) -> list[Any]:
    """The positions after each move ``policy`` would make for ``seat`` from ``state`` until the turn
    passes (the rules' automatic moves made in between, as the host makes them); the move numbered
    ``moves`` is chosen with the generator the bench gives it."""
    positions = []
    for ahead in range(MAX_PLAN):
        if seat not in rules.to_act(state):
            break
        legal = rules.legal_actions(state, seat)
        action = policy.choose(rules, state, seat, legal, Rng.from_seed(moves + ahead))
        state = settle(rules, rules.apply(state, seat, action).state)
        positions.append(state)
    return positions


def covering(
    rules: GameRules[Any, Any],
    presentation: GamePresentation[Any, Any],
    state: Any,
    seat: int,
    positions: list[Any],
) -> tuple[Shortcut, int] | None:
    """The offered shortcut that reaches the furthest of ``positions`` (ties: the first offered), with
    how many moves of the plan it stands for; None when none reaches any."""
    best: tuple[Shortcut, int] | None = None
    for shortcut in playable(rules, presentation, state, seat):
        after = run_through(rules, state, seat, shortcut.moves)
        reached = max((n for n, position in enumerate(positions, 1) if position == after), default=0)
        if reached and (best is None or reached > best[1]):
            best = (shortcut, reached)
    return best


# Discord's flag for a message that arrives without a push notification.
SUPPRESS_NOTIFICATIONS = 1 << 12
MAX_PLAN = 20  # moves of one turn looked ahead at most


def _turn_dm(fake: FakeDiscord, user: FakeUser, version: int) -> tuple[FakeMessage, str] | None:
    """The DM that tells ``user`` it is their turn at ``version``, with its Play button, if one came."""
    for message in reversed(fake.dm_messages(user)):
        play = _button(message, "ba:play:")
        if play is not None and play.endswith(f":{version}"):
            return message, play
    return None


async def measure_turns(
    game: str, max_moves: int = 150, seed: int = 1, bob_by_dm: bool = False, patience: float = 3.0
) -> dict[str, Any]:
    """The per-turn figures of ``bench --full`` for ``game``. With ``bob_by_dm``, Bob chooses to be told
    of his turns by direct message (``/settings notify``) and starts each of them from that message.
    Besides the figures, the result's ``checks`` say what a test looks at: ``stale_controls`` (older
    posts that still have buttons), ``recaps`` (posts that recap the moves since a player's last turn,
    with the names they mention), ``carried_steps`` (moves played on a menu that carried on) and
    ``dm_turns`` and ``shortcuts`` (steps that played a run of moves)."""
    # Discord forgets a press not answered within three seconds; ``patience`` lets a test that counts
    # (not one that times) wait longer for a busy machine's answers to the menu's presses.
    fake = FakeDiscord(ack_deadline=patience)
    await fake.start()
    cy = fake.add_user("cy")
    people = {u.id: u for u in (fake.alice, fake.bob, cy)}
    greedy = POLICIES[game]["greedy"]
    step_taps: list[int] = []
    turn_taps: list[int] = []
    moves = turns = carried_steps = dm_turns = shortcuts = 0
    person_turns = {fake.alice.id: 0, fake.bob.id: 0, cy.id: 0}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            bot = BigApple(
                Path(tmp) / "bench.db", open_stores, dev_guild=fake.guild.id, seed_source=lambda: seed
            )
            async with running_bot(bot, fake):
                if bob_by_dm:
                    how = {"how": "dm"}
                    await (
                        await fake.slash("settings notify", how, user=fake.bob, channel=fake.general)
                    ).response()
                choice = {"game": game, "players": 3}
                await (await fake.slash("game new", choice, user=fake.alice, channel=fake.general)).response()
                thread = await fake.wait_for_thread(fake.general)
                lobby = await fake.wait_for_message(thread)
                for joiner in (fake.bob, cy):
                    join = _button(lobby, "ba:lobby:join:")
                    assert join is not None
                    lobby = await (await fake.click(lobby, join, user=joiner)).response()
                start = _button(lobby, "ba:lobby:start:")
                assert start is not None
                await (await fake.click(lobby, start, user=fake.alice)).response()
                match_id = (await bot.store.list_matches(limit=1))[0].id
                first_request = len(fake.requests)
                menu: FakeMessage | None = None
                previous: int | None = None
                while moves < max_moves:
                    record = await bot.host.match(match_id)
                    if record.status is not MatchStatus.ACTIVE:
                        break
                    rules, state = bot.host.rules(record.game), bot.host.state_of(record)
                    presentation = bot.host.presentation(record.game)
                    seat = min(rules.to_act(state))
                    player = record.player_at(seat)
                    assert player is not None and player.user_id is not None
                    user = people[player.user_id]
                    action = greedy.choose(
                        rules, state, seat, rules.legal_actions(state, seat), Rng.from_seed(moves)
                    )
                    if seat != previous:
                        turns += 1
                        turn_taps.append(0)
                        person_turns[user.id] += 1
                    carries_on = (
                        seat == previous
                        and menu is not None
                        and bool(menu.selects or _button(menu, "ba:one:") or _button(menu, "ba:pick:"))
                    )
                    if not carries_on:
                        post = await _latest_post(fake, thread, record.version)
                        play = _button(post, "ba:play:")
                        dm = None
                        if bob_by_dm and user is fake.bob:
                            # Every turn of his comes with a direct message that has its controls.
                            dm = await fake.wait_until(
                                functools.partial(_turn_dm, fake, fake.bob, record.version), timeout=10
                            )
                        if dm is not None:
                            post, play = dm
                            dm_turns += 1
                        assert play is not None
                        menu = await (await fake.click(post, play, user=user)).response(timeout=patience)
                        turn_taps[-1] += BUTTON_TAPS  # opening the menu is the turn's, not a step's
                    else:
                        carried_steps += 1
                    assert menu is not None
                    keys = [level.key for level in presentation.menu_path(state, seat, action)]
                    notation, played = rules.notation(action), 1
                    if playable(rules, presentation, state, seat):
                        found = covering(
                            rules, presentation, state, seat, plan(rules, greedy, state, seat, moves)
                        )
                        if found is not None:
                            shortcut, played = found
                            notation, keys = joined(shortcut.moves), [level.key for level in shortcut.path]
                            shortcuts += 1
                    menu, taps = await _reach(fake, menu, user, notation, keys, patience)
                    step_taps.append(taps)
                    turn_taps[-1] += taps
                    previous = seat
                    moves += played
                final = await bot.host.match(match_id)
                if final.status is MatchStatus.ACTIVE:
                    await _latest_post(fake, thread, final.version)  # the last move's post is counted too
                elif final.status is MatchStatus.FINISHED:
                    await _final_post_settled(fake, thread)
                requests = fake.requests[first_request:]
                posts = _board_posts(thread)
                stale_controls = sum(1 for m in posts[:-1] if m.buttons)
                names = [u.global_name or u.username for u in people.values()]
                recaps = [
                    [n for n in names if n in (m.content or "").split(RECAP)[1]]
                    for m in posts
                    if RECAP in (m.content or "")
                ]
                finished = final.status is MatchStatus.FINISHED
                repeated_uploads = _repeated_uploads(requests)
    finally:
        await fake.stop()
    thread_posts = [
        r
        for r in requests
        if r.method == "POST"
        and r.route == "/channels/{channel_id}/messages"
        and r.param("channel_id") == thread.id
        and r.files
    ]
    mentions = [r for r in thread_posts if ((r.json or {}).get("allowed_mentions") or {}).get("users")]
    pinged_alone = [(r.json or {}).get("allowed_mentions", {}).get("users") for r in mentions]
    bob_pinged = sum(1 for users in pinged_alone if users == [str(fake.bob.id)] or users == [fake.bob.id])
    uploaded = sum(len(upload.data) for r in requests for upload in r.files)
    loud, new_dms = _calls(fake, requests, thread.id, set(people))
    # Interaction responses and follow-ups answer a person's tap and are outside the bot's global rate
    # limit; the bot's own requests (posts, edits, DMs) are what its budget is about.
    answers = [r for r in requests if r.route.startswith(("/interactions/", "/webhooks/"))]
    return {
        "posts_per_turn": round(len(thread_posts) / max(1, turns), 2),
        "mentions_per_turn": round(len(mentions) / max(1, turns), 2),
        "requests_per_move": round((len(requests) - len(answers)) / max(1, moves), 2),
        "interaction_requests_per_move": round(len(answers) / max(1, moves), 2),
        "uploads_per_move": round(sum(len(r.files) for r in requests) / max(1, moves), 2),
        "bytes_uploaded_per_move": round(uploaded / max(1, moves)),
        "taps_per_step_p50": statistics.median(step_taps) if step_taps else 0,
        "taps_per_step_p90": percentile(step_taps, 0.9),
        "taps_per_turn_p50": statistics.median(turn_taps) if turn_taps else 0,
        "taps_per_turn_p90": percentile(turn_taps, 0.9),
        "taps_per_turn_max": max(turn_taps, default=0),
        # A person is called (a push notification) by a mention in the thread or a direct message that is
        # not silent; edits never call.
        "loud_per_turn": round(sum(loud.values()) / max(1, sum(person_turns.values())), 2),
        "dm_messages_per_match": round(sum(new_dms.values()) / len(people), 1),
        "moves": moves,
        "turns": turns,
        "checks": {
            "finished": finished,
            "thread_posts": len(thread_posts),
            "mentions": len(mentions),
            "stale_controls": stale_controls,
            "recaps": recaps,
            "carried_steps": carried_steps,
            "dm_turns": dm_turns,
            "shortcuts": shortcuts,
            "repeated_uploads": repeated_uploads,
            "bob_pinged": bob_pinged,
            "calls": {str(user): count for user, count in loud.items()},
            "person_turns": {str(user): count for user, count in person_turns.items()},
            "new_dms": {str(user): count for user, count in new_dms.items()},
        },
    }


def _calls(
    fake: FakeDiscord, requests: list[RecordedRequest], thread_id: int, people: set[int]
) -> tuple[dict[int, int], dict[int, int]]:
    """Per person: how many times the bot called them (a mention in the thread, a direct message without
    Discord's silent flag), and how many direct messages it sent them."""
    dm_of = {channel.id: user for user, channel in fake.dm_channels.items()}
    calls = dict.fromkeys(people, 0)
    dms = dict.fromkeys(people, 0)
    for r in requests:
        if r.method != "POST" or r.route != "/channels/{channel_id}/messages":
            continue
        body = r.json or {}
        channel = r.param("channel_id")
        if channel == thread_id:
            for user in (body.get("allowed_mentions") or {}).get("users") or []:
                if int(user) in calls:
                    calls[int(user)] += 1
        elif channel in dm_of and dm_of[channel] in dms:
            dms[dm_of[channel]] += 1
            if not int(body.get("flags") or 0) & SUPPRESS_NOTIFICATIONS:
                calls[dm_of[channel]] += 1
    return calls, dms


def _repeated_uploads(requests: list[RecordedRequest]) -> int:
    """Uploads of an image identical to the last one of the same name sent to the same channel (the
    board of a thread, a hand in a DM): each should have been left out."""
    last: dict[tuple[int | None, str], bytes] = {}
    repeated = 0
    for request in requests:
        channel = request.param("channel_id") if "{channel_id}" in request.route else None
        for upload in request.files:
            key = (channel, upload.filename)
            repeated += last.get(key) == upload.data
            last[key] = upload.data
    return repeated


def percentile(values: list[int], fraction: float) -> int:
    """The value below which ``fraction`` of ``values`` lie (nearest rank); 0 when empty."""
    if not values:
        return 0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]
