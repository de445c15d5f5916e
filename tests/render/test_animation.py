"""The animation of a whole match: every board in order, made smaller until it fits."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image, ImageDraw

from engine.host.selfplay import play_match
from engine.registry import GAMES, POLICIES
from render.animation import (
    WIDTHS,
    Still,
    _gif,
    animate,
    animate_frames,
    board_palette,
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
    with Image.open(io.BytesIO(data)) as gif:
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
