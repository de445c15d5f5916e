"""A whole match as its players read it: every public post, every private message and, at every decision,
the menu the deciding player is offered, in one language. Computer policies decide for people named
Ann, Bob, ..., through the host exactly as Discord players do, so the transcript shows what they would.

Output goes through injected callbacks (write a line, save an image), so this module does no I/O itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core.rng import bot_rng
from engine.host.demo import RenderFn
from engine.host.menus import build_menu
from engine.host.ports import Delivery, MatchRecord, MatchStatus, MatchStore, Notice, Player
from engine.host.service import GameHost
from engine.host.text import post_lines, said_lines
from engine.registry import get_policy
from lang import t
from lang.says import render

PEOPLE = ("Ann", "Bob", "Carla", "Dario", "Eve", "Franco")
FIRST_USER_ID = 1_000


class TranscriptNotifier:
    """Writes each delivery as its reader sees it: thread posts for everyone, messages for one seat."""

    def __init__(
        self,
        host: GameHost,
        locale: str,
        write: Callable[[str], None],
        save_image: Callable[[str, bytes], None] | None = None,
        render_image: RenderFn | None = None,
    ) -> None:
        self.host = host
        self.locale = locale
        self.write = write
        self.save_image = save_image
        self.render_image = render_image
        self.images = 0

    async def deliver(self, match: MatchRecord, delivery: Delivery, notice: Notice) -> None:
        locale = self.locale
        name = self.host.namer(match)
        if delivery.seat is None:
            self.write("[" + t(locale, "post in the thread") + "]")
            outcome = self.host.outcome(await self.host.match(match.id)) if notice.finished else None
            lines = post_lines(locale, match, notice, name, outcome)
        else:
            self.write("[" + t(locale, "message to {player}", player=name(delivery.seat)) + "]")
            lines = said_lines(locale, notice, name)
        for line in lines:
            self.write(line)
        await self._image(match, delivery)

    async def _image(self, match: MatchRecord, delivery: Delivery) -> None:
        if self.render_image is None or self.save_image is None:
            return
        state = await self.host.state_at(match, delivery.version)
        view = self.host.view(match, delivery.seat, state)
        image = self.render_image(match.game, view, match.seat_names(), self.locale)
        if image is not None:
            self.images += 1
            who = "board" if delivery.seat is None else f"seat{delivery.seat}"
            self.save_image(f"{self.images:04d}-{who}.png", image)


async def run_transcript(
    store: MatchStore,
    game: str,
    players: int,
    options: frozenset[str],
    seed: int,
    locale: str,
    write: Callable[[str], None],
    save_image: Callable[[str, bytes], None] | None = None,
    render_image: RenderFn | None = None,
    policies: tuple[str, ...] = ("greedy", "random"),
) -> int:
    """Play one match and write what its players read; returns 0 when it finished."""
    host = GameHost(store)
    rules = host.rules(game)
    match = await host.create_match(game, players, options, seed=seed)
    for seat in range(players):
        person = Player(user_id=FIRST_USER_ID + seat, name=PEOPLE[seat % len(PEOPLE)])
        match = await host.join(match.id, person)
    write(t(locale, "{game}, match #{number}", game=t(locale, rules.title), number=match.id))
    notifier = TranscriptNotifier(host, locale, write, save_image, render_image)
    await host.start(match.id)
    while await host.flush(notifier):
        pass
    choosers: dict[int, Any] = {}
    for move in range(10_000):
        match = await host.match(match.id)
        if match.status is not MatchStatus.ACTIVE:
            break
        seat = host.to_act(match)[0]
        player = match.player_at(seat)
        assert player is not None and player.user_id is not None
        # The person's menu as the Discord side gets it: one host call.
        table = await host.menu(match, player.user_id, locale)
        name = table.name
        write("[" + t(locale, "menu of {player}", player=name(seat)) + "]")
        for option in build_menu(table.menu, "", 0, locale):
            write(f"option: {option.label}")
        for choice in table.choices:
            title = render(locale, choice.title, name) if choice.title else choice.label
            write(f"option: {title} ✳️")
        # What the person picks, a computer player's policy decides here.
        if seat not in choosers:
            choosers[seat] = get_policy(game, policies[seat % len(policies)])
        state = host.state_of(match)
        legal = rules.legal_actions(state, seat)
        action = choosers[seat].choose(rules, state, seat, legal, bot_rng(seed, move))
        result = await host.act(match.id, player.user_id, rules.notation(action), locale=locale)
        if result.trouble is not None:
            raise result.trouble  # a transcript stops where the computer players failed
        write(f"{name(seat)}: ✅ {result.label}")
        while await host.flush(notifier):
            pass
    match = await host.match(match.id)
    return 0 if match.status is MatchStatus.FINISHED else 1
