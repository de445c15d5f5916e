"""The greedy computer player: deterministic, sensible, and clearly stronger than random play."""

from __future__ import annotations

from engine.core.rng import Rng, bot_rng
from engine.ny_henn import POLICIES, RULES
from engine.ny_henn.bots import GreedyPolicy

from .helpers import build


def greedy_match(seats: int, seed: int, greedy_seat: int) -> tuple[int, ...]:
    state = RULES.setup(seats, seed, frozenset())
    ply = 0
    while (outcome := RULES.outcome(state)) is None:
        seat = min(RULES.to_act(state))
        policy = POLICIES["greedy" if seat == greedy_seat else "random"]
        action = policy.choose(RULES, state, seat, RULES.legal_actions(state, seat), bot_rng(seed, ply))
        state = RULES.apply(state, seat, action).state
        ply += 1
    return outcome.places


def test_greedy_beats_random_players() -> None:
    games = 15
    wins = sum(greedy_match(3, 500 + i, i % 3)[i % 3] == 1 for i in range(games))
    assert wins >= 0.7 * games, f"greedy won {wins} of {games}"


def test_greedy_prefers_an_exact_buy_and_places_in_the_city() -> None:
    st = build(hands={0: ["B4", "Y8"]}, market={"B": "T09"})
    legal = RULES.legal_actions(st, 0)
    policy = GreedyPolicy()
    first = policy.choose(RULES, st, 0, legal, Rng(1))
    assert all(policy.choose(RULES, st, 0, legal, Rng(s)) == first for s in range(5))
    assert RULES.notation(first) == "buy slot=B pay=B4"
    placing = build(pending={0: ["T09"]}, phase="placement")
    choice = policy.choose(RULES, placing, 0, RULES.legal_actions(placing, 0), Rng(1))
    assert choice.to == "city"
