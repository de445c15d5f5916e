"""A finished match in numbers, as the image under its final post: per player the place, the score, the
time their turns took, the turns a computer played for them and the game's own figure; the score track of
every player over the match; and the points each made at each scoring. Laid out to be read on a phone
(the smallest text is 1/50 of the width), each player known by colour and symbol together."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from engine.host.match_stats import FIGURE_WORDS, TRACK_WORDS, MatchStats, SeatStats, stats_of
from engine.host.ports import MatchRecord, TimedAction
from engine.host.posts import duration
from lang import t, tn
from render.canvas import (
    INK,
    MUTED,
    Draw,
    encode_png,
    fit_text,
    game_title,
    new_canvas,
    seat_style,
    seat_token,
    text,
)

WIDTH = 900
MARGIN = 24
SMALL = 20  # more than WIDTH / 50
BODY = 22
NAME = 26
PLAYER_ROW = 140
# A seat's token: its symbol is text, as large as the smallest text.
TOKEN = 17
CHART_HEIGHT = 300
# At most this many columns of scorings; earlier ones are added up into the first column.
SCORING_COLUMNS = 8
SCORING_ROW = 40
# Where along each curve its player's symbol is drawn again, so that lines are told apart without colour.
MARKS_AT = (0.25, 0.5, 0.75, 1.0)


def match_stats_image(match: MatchRecord, log: Sequence[TimedAction], locale: str) -> bytes:
    """The statistics image of finished ``match`` from its timed kept ``log``, worked out and drawn in
    one go (in a render process: replaying a long match takes a good part of a second)."""
    return render_match_stats(stats_of(match, log), locale)


def render_match_stats(stats: MatchStats, locale: str) -> bytes:
    """The statistics image of ``stats`` with its words in ``locale``, as PNG bytes."""
    ranked = sorted(stats.seats, key=lambda s: (s.place, s.seat))
    scorings = scoring_columns(stats, locale)
    height = 110 + PLAYER_ROW * len(ranked) + 70 + CHART_HEIGHT + 70
    if scorings:
        height += 60 + SCORING_ROW * (len(ranked) + 1)
    image, draw = new_canvas(WIDTH, height)
    title = t(locale, "Match #{number} in numbers", number=stats.match)
    text(draw, (MARGIN, 16), fit_text(title, 30, WIDTH - 2 * MARGIN, bold=True), 30, INK, bold=True)
    text(draw, (MARGIN, 56), fit_text(game_title(stats.game, locale), BODY, WIDTH - 2 * MARGIN), BODY, MUTED)
    y = 100.0
    for index, seat in enumerate(ranked):
        if index % 2 == 0:
            draw.rectangle((10, y - 8, WIDTH - 10, y + PLAYER_ROW - 14), fill=(0, 0, 0, 14))
        player_rows(draw, y, seat, stats, locale)
        y += PLAYER_ROW
    y += 16
    text(draw, (MARGIN, y), t(locale, TRACK_WORDS[stats.track]), NAME, INK, bold=True)
    y += 44
    chart(draw, y, stats, locale)
    y += CHART_HEIGHT + 60
    if scorings:
        scoring_table(draw, y, ranked, scorings, locale)
    return encode_png(image)


def player_rows(draw: Draw, y: float, seat: SeatStats, stats: MatchStats, locale: str) -> None:
    """One player's three lines: place, name and score; time per turn; turns and the game's figure."""
    seat_token(draw, (MARGIN + TOKEN, y + 14), seat.seat, TOKEN)
    score = tn(locale, "{count} point", "{count} points", seat.score)
    score_width = 200
    head = f"{seat.place}. {seat.name}"
    text(draw, (MARGIN + 44, y), fit_text(head, NAME, WIDTH - 2 * MARGIN - 44 - score_width, bold=True), NAME,
         INK, bold=True)  # fmt: skip
    text(draw, (WIDTH - MARGIN, y), score, NAME, INK, bold=True, anchor="ra")
    if seat.computer:
        timing = t(locale, "A computer player")
    elif seat.turn_median_s is None:
        timing = t(locale, "Time per turn: not known")
    else:
        timing = t(
            locale,
            "Time per turn: {median} (median), {total} in all",
            median=duration(locale, timedelta(seconds=seat.turn_median_s)),
            total=duration(locale, timedelta(seconds=seat.turn_total_s)),
        )
    text(draw, (MARGIN + 44, y + 36), fit_text(timing, BODY, WIDTH - 2 * MARGIN - 44), BODY, INK)
    turns = tn(locale, "{count} turn", "{count} turns", seat.turns)
    if seat.stand_in_turns:
        turns += " · " + tn(
            locale,
            "{count} played by a computer after a timeout",
            "{count} played by a computer after timeouts",
            seat.stand_in_turns,
        )
    text(draw, (MARGIN + 44, y + 66), fit_text(turns, BODY, WIDTH - 2 * MARGIN - 44), BODY, MUTED)
    figure = f"{t(locale, FIGURE_WORDS[stats.figure])}: {seat.figure}"
    text(draw, (MARGIN + 44, y + 96), fit_text(figure, BODY, WIDTH - 2 * MARGIN - 44), BODY, MUTED)


def chart(draw: Draw, top: float, stats: MatchStats, locale: str) -> None:
    """Every player's score track over the match's moves, with the axis figures."""
    left, right, bottom = MARGIN + 60, WIDTH - MARGIN - 20, top + CHART_HEIGHT - 40
    highest = max([1, *(max(s.track, default=0) for s in stats.seats)])
    lowest = min([0, *(min(s.track, default=0) for s in stats.seats)])
    moves = max(stats.track_moves[-1], 1) if stats.track_moves else 1

    def at(move: int, value: int) -> tuple[float, float]:
        x = left + (right - left) * move / moves
        y = bottom - (bottom - top) * (value - lowest) / (highest - lowest)
        return x, y

    draw.line([(left, top), (left, bottom), (right, bottom)], fill=MUTED, width=2)
    for value in sorted({lowest, (lowest + highest) // 2, highest}):
        _, y = at(0, value)
        draw.line([(left - 6, y), (left, y)], fill=MUTED, width=2)
        text(draw, (left - 10, y), str(value), SMALL, MUTED, anchor="rm")
    text(draw, (left, bottom + 8), "0", SMALL, MUTED, anchor="ma")
    text(
        draw,
        (right, bottom + 8),
        tn(locale, "{count} move", "{count} moves", moves),
        SMALL,
        MUTED,
        anchor="ra",
    )
    for seat in stats.seats:
        points = [at(move, value) for move, value in zip(stats.track_moves, seat.track, strict=True)]
        if len(points) > 1:
            draw.line(points, fill=seat_style(seat.seat).colour, width=4, joint="curve")
    for seat in stats.seats:
        for share in MARKS_AT:
            index = round(share * (len(seat.track) - 1))
            seat_token(draw, at(stats.track_moves[index], seat.track[index]), seat.seat, TOKEN)


def scoring_columns(stats: MatchStats, locale: str) -> list[tuple[str, list[int]]]:
    """The columns of the scoring table: a heading and each seat's points (by seat), the earlier
    scorings added up into the first column when there are more than ``SCORING_COLUMNS``."""
    count = len(stats.scoring_moves)
    if not count:
        return []
    merged = max(0, count - SCORING_COLUMNS + 1)
    columns: list[tuple[str, list[int]]] = []
    if merged > 1:
        columns.append((f"1–{merged}", [sum(s.scorings[:merged]) for s in stats.seats]))
    for number in range(merged if merged > 1 else 0, count):
        columns.append((str(number + 1), [s.scorings[number] for s in stats.seats]))
    columns.append((t(locale, "total"), [sum(s.scorings) for s in stats.seats]))
    return columns


def scoring_table(
    draw: Draw, top: float, ranked: Sequence[SeatStats], columns: Sequence[tuple[str, list[int]]], locale: str
) -> None:
    """Points by scoring: one row per player (in place order), one column per scoring and the total."""
    text(draw, (MARGIN, top), t(locale, "Points by scoring"), NAME, INK, bold=True)
    y = top + 44
    first = MARGIN + 280
    step = (WIDTH - MARGIN - first) / len(columns)
    for k, (heading, _) in enumerate(columns):
        text(draw, (first + step * (k + 1) - 8, y), heading, SMALL, MUTED, bold=True, anchor="ra")
    y += SCORING_ROW
    for seat in ranked:
        seat_token(draw, (MARGIN + TOKEN, y + 12), seat.seat, TOKEN)
        text(draw, (MARGIN + 44, y), fit_text(seat.name, BODY, first - MARGIN - 52), BODY, INK)
        for k, (_, points) in enumerate(columns):
            last = k == len(columns) - 1
            text(
                draw,
                (first + step * (k + 1) - 8, y),
                str(points[seat.seat]),
                BODY,
                INK,
                bold=last,
                anchor="ra",
            )
        y += SCORING_ROW
