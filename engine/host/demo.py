"""The offline demo: one whole match between computer players, through the host and a real store.

Output goes through injected callbacks (print a line, save an image), so this module does no I/O itself
and the same flow drives the CLI and its tests.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel

import lang
from engine.host.ports import Delivery, MatchRecord, MatchStore, Notice
from engine.host.service import GameHost
from engine.host.text import standings_notation

# Renders a view model of the given game, with the players' names by seat and its words in a locale,
# to PNG bytes; None when the game has no renderer yet.
RenderFn = Callable[[str, BaseModel, Sequence[str], str], bytes | None]


class DemoNotifier:
    """Prints public lines and saves the board after each public update and each seat's changed hand."""

    def __init__(
        self,
        host: GameHost,
        print_line: Callable[[str], None],
        save_image: Callable[[str, bytes], None] | None = None,
        render: RenderFn | None = None,
    ) -> None:
        self.host = host
        self.print_line = print_line
        self.save_image = save_image
        self.render = render
        self.boards = 0
        self.hands: dict[int, int] = {}
        self.last_state: BaseModel | None = None

    async def deliver(self, match: MatchRecord, delivery: Delivery, notice: Notice) -> None:
        if delivery.seat is None:
            if notice.headline:
                self.print_line(f"== {notice.headline}")
            for line in notice.lines:
                self.print_line(line)
        if self.render is None or self.save_image is None:
            return
        state = await self.host.state_at(match, delivery.version)
        self.last_state = state
        view = self.host.view(match, delivery.seat, state)
        image = self.render(match.game, view, match.seat_names(), lang.DEFAULT)
        if image is None:
            return
        if delivery.seat is None:
            self.boards += 1
            self.save_image(f"board-{self.boards:04d}.png", image)
        else:
            count = self.hands.get(delivery.seat, 0) + 1
            self.hands[delivery.seat] = count
            self.save_image(f"hand-seat{delivery.seat}-{count:04d}.png", image)


async def run_demo(
    store: MatchStore,
    game: str,
    players: int,
    options: frozenset[str],
    seed: int,
    print_line: Callable[[str], None],
    save_image: Callable[[str, bytes], None] | None = None,
    render: RenderFn | None = None,
    policies: tuple[str, ...] = ("greedy", "random"),
) -> int:
    """Play one match with computer players; returns 0 when it finished."""
    host = GameHost(store)
    match = await host.create_match(game, players, options, seed=seed)
    for seat in range(players):
        match = await host.add_computer(match.id, policies[seat % len(policies)])
    rules = host.rules(game)
    option_text = ",".join(sorted(options)) or "none"
    print_line(f"{rules.title} ({rules.name}), {players} players, options {option_text}, seed {seed}")
    await host.start(match.id)
    notifier = DemoNotifier(host, print_line, save_image, render)
    while await host.flush(notifier):
        pass
    match = await host.match(match.id)
    outcome = host.outcome(match)
    if outcome is None:
        print_line(f"the match did not finish (status {match.status.value})")
        return 1
    if render is not None and save_image is not None:
        final: Any = render(game, host.view(match, None), match.seat_names(), lang.DEFAULT)
        if final is not None:
            save_image("final.png", final)
    for line in standings_notation(match, outcome):
        print_line(line)
    return 0
