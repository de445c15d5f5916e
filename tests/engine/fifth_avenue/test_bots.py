"""The greedy player beats random players clearly."""

from __future__ import annotations

from engine.core.rng import bot_rng
from engine.fifth_avenue import POLICIES, RULES


def test_greedy_beats_random() -> None:
    firsts = 0
    matches = 30
    for m in range(matches):
        greedy = m % 3
        st = RULES.setup(3, 500 + m, frozenset())
        for ply in range(3000):
            outcome = RULES.outcome(st)
            if outcome is not None:
                firsts += outcome.places[greedy] == 1
                break
            (seat,) = RULES.to_act(st)
            policy = POLICIES["greedy" if seat == greedy else "random"]
            legal = RULES.legal_actions(st, seat)
            st = RULES.apply(st, seat, policy.choose(RULES, st, seat, legal, bot_rng(m, ply))).state
    assert firsts >= 0.8 * matches
