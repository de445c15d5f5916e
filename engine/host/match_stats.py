"""The numbers behind a finished match, as its final post draws them and ``bot.py stats`` prints them:
per seat, the place and score, the time their turns took, the turns a computer played for them, the
game's score track over the match, the points of each scoring, and one figure the game's rules make
interesting. Everything comes from the stored log replayed (public views only: nothing hidden) and the
times the moves were committed (see ``engine.host.log_turns``)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine.core.contract import GameRules, Outcome
from engine.core.errors import CorruptRecord, MatchClosed
from engine.core.figures import Figures, GameFigures
from engine.core.model import Frozen
from engine.core.replay import advance
from engine.fifth_avenue.stats import FIGURES as FIFTH_AVENUE
from engine.host.log_turns import Turn, median_seconds, own_turns, total_seconds, turns_of
from engine.host.ports import MatchRecord, MatchStatus, TimedAction
from engine.host.ratings import places_as_rated
from engine.ny1901.stats import FIGURES as NY1901
from engine.ny_henn.stats import FIGURES as NY_HENN
from engine.ny_piatnik.stats import FIGURES as NY_PIATNIK
from engine.skyline.stats import FIGURES as SKYLINE
from lang import N_, t

if TYPE_CHECKING:
    from engine.host.service import GameHost

GAME_FIGURES: Mapping[str, GameFigures] = {
    "fifth_avenue": FIFTH_AVENUE,
    "ny1901": NY1901,
    "ny_henn": NY_HENN,
    "ny_piatnik": NY_PIATNIK,
    "skyline": SKYLINE,
}

# What a score track and a game's figure are called, by the ids the games give them.
TRACK_WORDS: Mapping[str, str] = {
    "points": N_("Points over the match"),
    "money": N_("Money over the match"),
    "prestige": N_("Prestige over the match"),
}
FIGURE_WORDS: Mapping[str, str] = {
    "buildings": N_("Buildings built"),
    "skyscrapers": N_("Skyscrapers standing"),
    "largest_group": N_("Largest group"),
    "bonus_cards": N_("Bonus cards claimed"),
}

NOT_FINISHED = "match #{number} has not ended: its statistics are drawn once it is over"


class SeatStats(Frozen):
    """One seat's numbers. Times are in seconds, over the turns its person played themselves whose
    beginning is known; ``track`` holds the score track at each of ``MatchStats.track_moves``;
    ``scorings`` the points the seat made at each of ``MatchStats.scoring_moves``."""

    seat: int
    name: str
    computer: bool
    place: int
    score: int
    turns: int
    stand_in_turns: int
    turn_median_s: float | None
    turn_total_s: float
    track: tuple[int, ...]
    scorings: tuple[int, ...]
    figure: int


class MatchStats(Frozen):
    """The statistics of a finished match: ``track`` and ``figure`` name what the seats' tracks and
    figures count (see ``TRACK_WORDS`` and ``FIGURE_WORDS``)."""

    match: int
    game: str
    moves: int
    track: str
    figure: str
    track_moves: tuple[int, ...]  # the move after which each point of a track was read (0: the opening)
    scoring_moves: tuple[int, ...]  # the move of each scoring during the match, the last one included
    seats: tuple[SeatStats, ...]


def compute_stats(
    rules: GameRules[Any, Any],
    figures: GameFigures,
    match: MatchRecord,
    log: Sequence[TimedAction],
    names: Sequence[str],
) -> MatchStats:
    """The statistics of finished ``match`` from its kept ``log`` (``rules``' game, read by ``figures``),
    naming seat ``s`` ``names[s]``. Raises ``MatchClosed`` when it is not finished, ``CorruptRecord``
    when the log cannot be replayed or gives no result."""
    if match.status is not MatchStatus.FINISHED:
        raise MatchClosed(NOT_FINISHED.format(number=match.id))
    turns = turns_of(log)
    turn_ends = {turn.last for turn in turns}
    state = rules.setup(match.seat_count, match.seed, match.options)
    seen = figures.read(rules.view(state, None))
    track_moves, tracks = [0], [seen.track]
    scoring_moves: list[int] = []
    gains: list[tuple[int, ...]] = []
    for number, entry in enumerate(log, start=1):
        after, _ = advance(rules, state, [entry.action], first=number)
        now = figures.read(rules.view(after, None))
        if rules.scored(state, after):
            scoring_moves.append(number)
            gains.append(tuple(n - b for n, b in zip(now.track, seen.track, strict=True)))
        if number in turn_ends:
            track_moves.append(number)
            tracks.append(now.track)
        state, seen = after, now
    outcome = rules.outcome(state)
    if outcome is None:
        raise CorruptRecord(f"match #{match.id} is stored as finished, but its moves do not end it")
    return MatchStats(
        match=match.id,
        game=match.game,
        moves=len(log),
        track=figures.track,
        figure=figures.figure,
        track_moves=tuple(track_moves),
        scoring_moves=tuple(scoring_moves),
        seats=tuple(
            seat_stats(match, seat, names[seat], places_as_rated(match, outcome), turns, tracks, gains, seen)
            for seat in range(match.seat_count)
        ),
    )


def seat_stats(
    match: MatchRecord,
    seat: int,
    name: str,
    outcome: Outcome,
    turns: Sequence[Turn],
    tracks: Sequence[tuple[int, ...]],
    gains: Sequence[tuple[int, ...]],
    final: Figures,
) -> SeatStats:
    """One seat's part of ``compute_stats``."""
    player = match.player_at(seat)
    own = own_turns(turns, seat)
    return SeatStats(
        seat=seat,
        name=name,
        computer=player is None or player.user_id is None,
        place=outcome.places[seat],
        score=outcome.scores[seat],
        turns=len(own),
        stand_in_turns=sum(1 for turn in turns if turn.seat == seat and turn.stand_in),
        turn_median_s=None if (median := median_seconds(own)) is None else round(median, 3),
        turn_total_s=round(total_seconds(own), 3),
        track=tuple(point[seat] for point in tracks),
        scorings=tuple(gain[seat] for gain in gains),
        figure=final.figure[seat],
    )


async def stored_log(host: GameHost, match: MatchRecord) -> list[TimedAction]:
    """The timed kept log the statistics of finished ``match`` are worked out from. Raises
    ``MatchClosed`` unless it is finished."""
    if match.status is not MatchStatus.FINISHED:
        raise MatchClosed(NOT_FINISHED.format(number=match.id))
    return (await host.store.timed_logs([match.id])).get(match.id, [])


def stats_of(match: MatchRecord, log: Sequence[TimedAction]) -> MatchStats:
    """``compute_stats`` with the game's registered rules and ``GAME_FIGURES``, its seats under their
    players' names (``SeatStats.computer`` tells computers apart); for a worker process."""
    from engine.registry import get_game

    return compute_stats(get_game(match.game), GAME_FIGURES[match.game], match, log, match.seat_names())


async def stored_match_stats(host: GameHost, match: MatchRecord) -> MatchStats:
    """The statistics of finished ``match`` from the host's store, worked out off the event loop.
    Raises ``MatchClosed`` unless it is finished, ``CorruptRecord`` when it cannot be replayed."""
    return await asyncio.to_thread(stats_of, match, await stored_log(host, match))


def statistics_text(match: MatchRecord, locale: str) -> str:
    """The words of the post that carries a finished match's statistics image."""
    return t(locale, "Match #{number} in numbers", number=match.id)
