"""The animation of a whole match: every board in order, made smaller until it fits."""

from __future__ import annotations

import io
import weakref
from collections.abc import Iterator, Sequence
from typing import Any, cast

import pytest
from PIL import Image, ImageDraw
from PIL.GifImagePlugin import GifImageFile

from bench.render import played_match
from engine.host.history import Mark
from engine.host.selfplay import play_match
from engine.registry import GAMES, POLICIES
from render.animation import (
    WIDTHS,
    DoesNotFit,
    GifWriter,
    Shows,
    Still,
    _gif,
    animate,
    animate_frames,
    animate_match,
    board_palette,
    drawing,
    finished,
    frame,
    frames_of,
    looked_at,
)
from render.canvas import encode_png
from render.registry import board_image


def board(step: int, noisy: bool = False) -> bytes:
    """A 1000 px board with a piece that moves each step (and, if ``noisy``, detail that compresses badly)."""
    image = Image.new("RGB", (1000, 700), (244, 241, 234))
    draw = ImageDraw.Draw(image)
    draw.rectangle((40 + step * 30, 200, 140 + step * 30, 300), fill=(0, 114, 178))
    if noisy:
        for n in range(0, 1000, 3):
            draw.line((n, 400, (n * 7 + step * 13) % 1000, 699), fill=((n * 5) % 256, (step * 40) % 256, 90))
    return encode_png(image)


def frames_of_gif(data: bytes) -> tuple[int, tuple[int, int]]:
    with cast(GifImageFile, Image.open(io.BytesIO(data))) as gif:
        assert gif.format == "GIF"
        return gif.n_frames, gif.size


def test_every_board_is_a_frame_at_the_largest_width_that_fits() -> None:
    stills = [Still(board(n), turn_ends=n % 3 == 0) for n in range(8)]
    count, size = frames_of_gif(animate(stills))
    assert count == 8 and size[0] == WIDTHS[0]


def test_a_large_match_is_scaled_down_then_told_turn_by_turn() -> None:
    stills = [Still(board(n, noisy=True), turn_ends=n % 4 == 3) for n in range(12)]
    frames, palette = frames_of(stills)
    whole = {width: len(_gif(frames, palette, width)) for width in WIDTHS}
    assert list(whole.values()) == sorted(whole.values(), reverse=True)
    count, size = frames_of_gif(animate(stills, max_bytes=whole[WIDTHS[1]]))
    assert (count, size[0]) == (12, WIDTHS[1])  # scaled down, every move kept
    count, size = frames_of_gif(animate(stills, max_bytes=whole[WIDTHS[-1]] - 1))
    assert count == 3  # even the smallest is too big: only the moves that ended a turn
    with pytest.raises(ValueError, match="does not fit"):
        animate(stills, max_bytes=100)
    with pytest.raises(ValueError, match="at least one board"):
        animate([])


def test_a_colour_seen_only_early_keeps_its_own_in_the_animation() -> None:
    def drawn(step: int) -> bytes:
        image = Image.new("RGB", (800, 400), (244, 241, 234))
        if step == 0:  # a piece later gone, in a colour no later board has
            ImageDraw.Draw(image).rectangle((100, 100, 300, 300), fill=(204, 0, 153))
        ImageDraw.Draw(image).rectangle((400 + step * 10, 100, 500 + step * 10, 200), fill=(0, 114, 178))
        return encode_png(image)

    gif = animate([Still(drawn(n)) for n in range(10)])
    with Image.open(io.BytesIO(gif)) as frames:
        frames.seek(0)
        red, green, blue = frames.convert("RGB").getpixel((200, 200))  # type: ignore[misc]
    assert abs(red - 204) + abs(green - 0) + abs(blue - 153) <= 24


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_boards_drawn_one_at_a_time_as_frames_give_the_animation_of_the_whole_boards(slug: str) -> None:
    """What the bot does (a palette from a few boards, then each board drawn as a frame in it) makes the
    animation that the boards drawn in full colour make."""
    rules = GAMES[slug]
    states: list[Any] = []
    play_match(
        rules, min(rules.seat_counts), 2, frozenset(), [POLICIES[slug]["greedy"]], on_state=states.append
    )
    views = [rules.view(state, None) for state in states[:: max(1, len(states) // 12)]]
    names = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"]
    palette = board_palette(slug, looked_at(views), names)
    drawn = [frame(slug, view, names, palette, n % 2 == 0) for n, view in enumerate(views)]
    whole = []
    for n, view in enumerate(views):
        buffer = io.BytesIO()
        board_image(slug, view, names).save(buffer, format="PNG")  # every colour kept
        whole.append(Still(buffer.getvalue(), n % 2 == 0))
    assert animate_frames(drawn, palette) == animate(whole)
    count, size = frames_of_gif(animate(whole))
    assert count == len(views) and size[0] <= WIDTHS[0]


def test_the_gif_is_written_a_frame_at_a_time_holding_at_most_two_boards() -> None:
    """However many boards, the drawing takes the next one only once the one before is written, and
    keeps no more than the board before it: its memory does not grow with the match."""
    palette = Image.new("P", (1, 1))
    palette.putpalette([n % 256 for n in range(768)])
    live: list[weakref.ref[Image.Image]] = []
    most_alive = 0

    def boards(chosen: Sequence[int]) -> Iterator[Image.Image]:
        nonlocal most_alive
        for n in chosen:
            picture = Image.new("P", (300, 200), 7)
            ImageDraw.Draw(picture).rectangle((n % 280, 50, n % 280 + 20, 70), fill=200)
            live.append(weakref.ref(picture))
            most_alive = max(most_alive, sum(ref() is not None for ref in live))
            yield picture
            del picture

    marks = [Mark(n, True) for n in range(400)]
    animation = finished(drawing(marks, boards, palette=palette))
    assert most_alive <= 2  # the board being written and the one before it, never more
    assert animation.shows is Shows.MOVES and animation.frames == 400
    with cast(GifImageFile, Image.open(io.BytesIO(animation.gif))) as gif:
        assert gif.n_frames == 400 and gif.size == (300, 200)
        gif.seek(399)
        assert gif.convert("RGB").getpixel((399 % 280 + 5, 60)) == (88, 89, 90)  # colour 200


def test_a_frame_that_changed_nothing_makes_the_one_before_last_longer() -> None:
    palette = Image.new("P", (1, 1))
    palette.putpalette([n % 256 for n in range(768)])
    writer = GifWriter(palette)
    for colour in (1, 1, 2):
        writer.add(Image.new("P", (50, 40), colour))
    with cast(GifImageFile, Image.open(io.BytesIO(writer.finish()))) as gif:
        assert gif.n_frames == 2
        assert gif.info["duration"] == 1400
        gif.seek(1)
        assert gif.info["duration"] == 4000


def test_a_drawing_that_cannot_fit_stops_early_instead_of_drawing_everything() -> None:
    """The first fifth of a long animation says it will not fit: that try stops there."""
    asked: list[int] = []

    def boards(chosen: Sequence[int]) -> Iterator[Image.Image]:
        for n in chosen:
            asked.append(n)
            yield _decoded_board(n)

    marks = [Mark(n, True) for n in range(100)]
    with pytest.raises(DoesNotFit):
        finished(drawing(marks, boards, max_bytes=60_000))
    # Every try (each width, then the highlights at each) stopped after its first fifth or so.
    assert len(asked) < 100


def _decoded_board(step: int) -> Image.Image:
    with Image.open(io.BytesIO(board(step % 30, noisy=True))) as opened:
        return opened.convert("RGB")


def test_a_match_too_long_to_fit_gets_its_turns_or_highlights_instead() -> None:
    match, kept = played_match("ny_piatnik", 3, 7, "greedy", moves=40)
    whole = animate_match(match, kept)
    assert whole.shows is Shows.MOVES and whole.frames == len(kept) + 1
    # Only a little room: every move does not fit at any width, the ends of turns or the highlights do.
    small = animate_match(match, kept, max_bytes=len(whole.gif) // 2)
    assert small.shows in (Shows.TURNS, Shows.HIGHLIGHTS) and small.frames < whole.frames
    assert len(small.gif) <= len(whole.gif) // 2
    with cast(GifImageFile, Image.open(io.BytesIO(small.gif))) as gif:
        assert gif.n_frames <= small.frames
