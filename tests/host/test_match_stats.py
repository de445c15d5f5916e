"""The numbers of a finished match (``engine.host.match_stats``) against the same numbers worked out
here on their own: each game self-played by computers, its moves given known times."""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from pydantic import BaseModel

from engine.core.errors import MatchClosed
from engine.core.replay import LoggedAction, replay
from engine.core.rng import bot_rng
from engine.host.match_stats import GAME_FIGURES, compute_stats
from engine.host.ports import MatchRecord, MatchStatus, Player, TimedAction
from engine.registry import GAMES, POLICIES

START = datetime(2026, 5, 1, 8, 0, tzinfo=UTC)
SEATS = 3


def henn(view: Any, seat: int) -> tuple[int, int]:
    panel = next(p for p in view.players if p.seat == seat)
    return panel.score, len(panel.city) - 1  # every tile of the city but the start tile


def ny1901(view: Any, seat: int) -> tuple[int, int]:
    score = view.final_scores[seat] if view.final_scores else view.players[seat].score
    return score, len([b for b in view.buildings if b.owner == seat])


def fifth(view: Any, seat: int) -> tuple[int, int]:
    mine = view.seats[seat]
    return mine.score, sum(lot.count for lot in view.lots if lot.owner == mine.colour)


def piatnik(view: Any, seat: int) -> tuple[int, int]:
    largest = [sum(line.largest) for line in view.scores if line.seat == seat]
    return view.players[seat].money, largest[0] if largest else 0


def skyline(view: Any, seat: int) -> tuple[int, int]:
    return view.players[seat].prestige_preview, len(view.players[seat].claimed)


# What each game's public view shows of a seat: (its score track, its figure), read straight off it.
SHOWN: dict[str, Callable[[Any, int], tuple[int, int]]] = {
    "ny_henn": henn,
    "ny1901": ny1901,
    "fifth_avenue": fifth,
    "ny_piatnik": piatnik,
    "skyline": skyline,
}


def self_played(game: str, seed: int) -> list[LoggedAction]:
    """A whole match between greedy computers; seat 2's moves in its second half stand-ins."""
    rules, policy = GAMES[game], POLICIES[game]["greedy"]
    state: BaseModel = rules.setup(SEATS, seed, frozenset())
    log: list[LoggedAction] = []
    while rules.outcome(state) is None:
        seat = min(rules.to_act(state))
        action = policy.choose(rules, state, seat, rules.legal_actions(state, seat), bot_rng(seed, len(log)))
        log.append(LoggedAction(seat=seat, notation=rules.notation(action)))
        state = rules.apply(state, seat, action).state
    half = len(log) // 2
    return [a.model_copy(update={"stand_in": a.seat == 2 and n >= half}) for n, a in enumerate(log)]


def timed(log: list[LoggedAction]) -> list[TimedAction]:
    """Seat s's every move takes s + 1 minutes."""
    moments = list(itertools.accumulate((timedelta(minutes=a.seat + 1) for a in log), initial=START))[1:]
    return [
        TimedAction(version=n + 2, action=a, at=at)
        for n, (a, at) in enumerate(zip(log, moments, strict=True))
    ]


def finished(game: str, seed: int) -> MatchRecord:
    players = tuple(Player(user_id=100 + s, name=f"p{s}", seat=s) for s in range(SEATS))
    return MatchRecord(
        id=7, game=game, options=frozenset(), seat_count=SEATS, seed=seed, status=MatchStatus.FINISHED,
        version=999, players=players, created_at="", updated_at="",
    )  # fmt: skip


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_numbers_of_a_match_are_those_its_replay_shows(game: str) -> None:
    seed = 11
    rules, log = GAMES[game], self_played(game, seed)
    stats = compute_stats(rules, GAME_FIGURES[game], finished(game, seed), timed(log), ["a", "b", "c"])
    end = replay(rules, SEATS, seed, frozenset(), log)[0]
    outcome = rules.outcome(end)
    assert outcome is not None and stats.moves == len(log)
    runs = [(seat, len(list(moves))) for seat, moves in itertools.groupby(a.seat for a in log)]
    stood_in = [any(a.stand_in for a in group) for _, group in itertools.groupby(log, key=lambda a: a.seat)]
    # The track is read at the end of every turn, and after the opening.
    assert stats.track_moves == (0, *itertools.accumulate(length for _, length in runs))
    for seat, shown in enumerate(stats.seats):
        assert (shown.name, shown.place, shown.score) == (
            "abc"[seat],
            outcome.places[seat],
            outcome.scores[seat],
        )
        own = [
            length * (seat + 1) * 60 for k, (s, length) in enumerate(runs) if s == seat and not stood_in[k]
        ]
        if runs[0][0] == seat and not stood_in[0]:
            own = own[1:]  # the match's first turn has no known beginning
            assert shown.turns == len(own) + 1
        else:
            assert shown.turns == len(own)
        assert shown.stand_in_turns == sum(1 for k, (s, _) in enumerate(runs) if s == seat and stood_in[k])
        assert shown.stand_in_turns > 0 if seat == 2 else shown.stand_in_turns == 0
        assert shown.turn_median_s == statistics.median(own) and shown.turn_total_s == sum(own)
        assert shown.figure == SHOWN[game](rules.view(end, None), seat)[1]
        assert len(shown.track) == len(stats.track_moves)
    # Some points of the track, each from a replay of the moves up to it.
    picked = sorted({1, len(stats.track_moves) // 3, len(stats.track_moves) // 2, len(stats.track_moves) - 1})
    for point in picked:
        upto = replay(rules, SEATS, seed, frozenset(), log[: stats.track_moves[point]])[0]
        view = rules.view(upto, None)
        assert [s.track[point] for s in stats.seats] == [SHOWN[game](view, s)[0] for s in range(SEATS)]


@pytest.mark.parametrize("game", ["ny_henn", "fifth_avenue"])
def test_the_scorings_add_up_to_the_points_a_game_makes_only_by_scoring(game: str) -> None:
    seed = 5
    rules, log = GAMES[game], self_played(game, seed)
    stats = compute_stats(rules, GAME_FIGURES[game], finished(game, seed), timed(log), ["a", "b", "c"])
    assert stats.scoring_moves and stats.scoring_moves[-1] == len(log)
    for shown in stats.seats:
        assert len(shown.scorings) == len(stats.scoring_moves)
        assert sum(shown.scorings) == shown.track[-1]
    if game == "ny_henn":
        rounds = replay(rules, SEATS, seed, frozenset(), log)[0]
        henn_view: Any = rules.view(rounds, None)
        assert len(stats.scoring_moves) == len(henn_view.scoring_done)


def test_a_match_not_over_has_no_statistics() -> None:
    rules = GAMES["ny_henn"]
    running = finished("ny_henn", 1).model_copy(update={"status": MatchStatus.ACTIVE})
    with pytest.raises(MatchClosed, match="has not ended"):
        compute_stats(rules, GAME_FIGURES["ny_henn"], running, [], ["a", "b", "c"])
