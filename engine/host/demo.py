"""The offline demo: one whole match between computer players, through the host and a real store.

It prints what the players read (each public post in words, in one language, down to the final
standings) or, on request, the engine's log notation. Output goes through injected callbacks (print a
line, save an image), so this module does no I/O itself and the same flow drives the CLI and its tests.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel

import lang
from engine.host.ports import Delivery, MatchRecord, MatchStore, Notice
from engine.host.service import GameHost
from engine.host.text import post_lines, standings_notation
from lang import t, tn
from lang.says import render as render_say

# Renders a view model of the given game, with the players' names by seat and its words in a locale,
# to PNG bytes; None when the game has no renderer yet.
RenderFn = Callable[[str, BaseModel, Sequence[str], str], bytes | None]


class DemoNotifier:
    """Prints each public post (in words in ``locale``, or in notation) and saves the board after each
    public update and each seat's private view when it has changed since that seat's last saved one."""

    def __init__(
        self,
        host: GameHost,
        print_line: Callable[[str], None],
        save_image: Callable[[str, bytes], None] | None = None,
        render: RenderFn | None = None,
        locale: str = lang.DEFAULT,
        notation: bool = False,
    ) -> None:
        self.host = host
        self.print_line = print_line
        self.save_image = save_image
        self.render = render
        self.locale = locale
        self.notation = notation
        self.boards = 0
        self.hands: dict[int, int] = {}
        self.last_hand: dict[int, bytes] = {}

    async def deliver(self, match: MatchRecord, delivery: Delivery, notice: Notice) -> None:
        if delivery.seat is None:
            for line in await self._post(match, notice):
                self.print_line(line)
        if self.render is None or self.save_image is None:
            return
        state = await self.host.state_at(match, delivery.version)
        view = self.host.view(match, delivery.seat, state)
        image = self.render(match.game, view, match.seat_names(), self.locale)
        if image is None:
            return
        if delivery.seat is None:
            self.boards += 1
            self.save_image(f"board-{self.boards:04d}.png", image)
        elif image != self.last_hand.get(delivery.seat):
            # A private view is sent after every move, mostly unchanged: only a new one is worth a file.
            self.last_hand[delivery.seat] = image
            count = self.hands.get(delivery.seat, 0) + 1
            self.hands[delivery.seat] = count
            self.save_image(f"hand-seat{delivery.seat}-{count:04d}.png", image)

    async def _post(self, match: MatchRecord, notice: Notice) -> list[str]:
        """The lines of one public post: in notation, its headline and log lines; in words, the post as
        players read it, after a blank line that parts it from the previous one."""
        if self.notation:
            headline = [f"== {notice.headline}"] if notice.headline else []
            return [*headline, *notice.lines]
        outcome = self.host.outcome(await self.host.match(match.id)) if notice.finished else None
        lines = post_lines(self.locale, match, notice, self.host.namer(match), outcome)
        return ["", *lines] if lines else []


def demo_title(
    host: GameHost, game: str, players: int, options: frozenset[str], seed: int, locale: str
) -> str:
    """The demo's first line in ``locale``: the game's title, the number of players, the seed and what
    each chosen option does (or that there are none)."""
    rules = host.rules(game)
    said = host.presentation(game).option_says
    title = tn(
        locale,
        "{game}, {count} player, seed {seed}",
        "{game}, {count} players, seed {seed}",
        players,
        game=t(locale, rules.title),
        seed=seed,
    )
    if not options:
        return title + " — " + t(locale, "no options")
    chosen = [render_say(locale, said[option]) if option in said else option for option in sorted(options)]
    return (
        title
        + " — "
        + tn(locale, "option: {options}", "options: {options}", len(chosen), options="; ".join(chosen))
    )


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
    locale: str = lang.DEFAULT,
    notation: bool = False,
) -> int:
    """Play one match with computer players, printing its public posts in ``locale`` (with ``notation``:
    the engine's log instead); returns 0 when it finished."""
    host = GameHost(store)
    match = await host.create_match(game, players, options, seed=seed)
    for seat in range(players):
        match = await host.add_computer(match.id, policies[seat % len(policies)])
    if notation:
        rules = host.rules(game)
        option_text = ",".join(sorted(options)) or "none"
        print_line(f"{rules.title} ({rules.name}), {players} players, options {option_text}, seed {seed}")
    else:
        print_line(demo_title(host, game, players, options, seed, locale))
    await host.start(match.id)
    notifier = DemoNotifier(host, print_line, save_image, render, locale, notation)
    while await host.flush(notifier):
        pass
    match = await host.match(match.id)
    outcome = host.outcome(match)
    if outcome is None:
        print_line(t(locale, "The match did not finish."))
        return 1
    if render is not None and save_image is not None:
        final: Any = render(game, host.view(match, None), match.seat_names(), locale)
        if final is not None:
            save_image("final.png", final)
    if notation:
        for line in standings_notation(match, outcome):
            print_line(line)
    return 0
