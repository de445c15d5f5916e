"""What everyone reads of a Piatnik draw in a seeded match between greedy players, in English and Italian:
the cards' count and backs, naming only the backs drawn, and no line at all for a draw of no card."""

from __future__ import annotations

from collections.abc import Iterator

from engine.core.contract import Event
from engine.core.rng import bot_rng
from engine.core.say import SILENT
from engine.ny_piatnik import RULES
from engine.registry import POLICIES
from lang.says import render

NAMES = ("Ann", "Bob", "Cy")


def name(seat: int) -> str:
    return NAMES[seat]


def public_draws(seed: int) -> Iterator[Event]:
    """The public draw events of a seeded 3-player match of greedy players, in order."""
    greedy = POLICIES["ny_piatnik"]["greedy"]
    state = RULES.setup(3, seed, frozenset())
    for ply in range(5000):
        if RULES.outcome(state) is not None:
            return
        seat = min(RULES.to_act(state))
        action = greedy.choose(RULES, state, seat, RULES.legal_actions(state, seat), bot_rng(seed, ply))
        step = RULES.apply(state, seat, action)
        yield from (e for e in step.events if e.is_public and "draw" in e.text and "backs=" in e.text)
        state = step.state


def read(event: Event) -> tuple[str, str]:
    assert event.say is not None
    return render("en", event.say, name), render("it", event.say, name)


def test_draws_name_only_the_backs_drawn_with_their_plural() -> None:
    said = {event.text: read(event) for event in public_draws(1)}
    assert said["red: draw n=1 backs=B"] == ("Cy draws 1 blue-backed card", "Cy pesca 1 carta a dorso blu")
    assert said["yellow: draw n=1 backs=R"] == (
        "Ann draws 1 red-backed card",
        "Ann pesca 1 carta a dorso rosso",
    )
    assert said["red: draw n=3 backs=R,R,B"] == (
        "Cy draws 3 cards (2 red-backed and 1 blue-backed)",
        "Cy pesca 3 carte (2 a dorso rosso e 1 a dorso blu)",
    )


def test_a_draw_of_no_card_has_no_line_to_read() -> None:
    # Seed 1 ends when Ann, already holding enough cards of each back, turns up the Stop card.
    empty = [event for event in public_draws(1) if " n=0 " in event.text]
    assert empty and all(event.say == SILENT for event in empty)
