"""The animation of a whole match: every board in order, made smaller until it fits."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from render.animation import WIDTHS, Still, _gif, animate
from render.canvas import encode_png


def board(step: int, noisy: bool = False) -> bytes:
    """A 1000 px board with a piece that moves each step (and, if ``noisy``, detail that compresses badly)."""
    image = Image.new("RGB", (1000, 700), (244, 241, 234))
    draw = ImageDraw.Draw(image)
    draw.rectangle((40 + step * 30, 200, 140 + step * 30, 300), fill=(0, 114, 178))
    if noisy:
        for n in range(0, 1000, 3):
            draw.line((n, 400, (n * 7 + step * 13) % 1000, 699), fill=((n * 5) % 256, (step * 40) % 256, 90))
    return encode_png(image)


def frames_of(data: bytes) -> tuple[int, tuple[int, int]]:
    with Image.open(io.BytesIO(data)) as gif:
        assert gif.format == "GIF"
        return gif.n_frames, gif.size


def test_every_board_is_a_frame_at_the_largest_width_that_fits() -> None:
    stills = [Still(board(n), turn_ends=n % 3 == 0) for n in range(8)]
    count, size = frames_of(animate(stills))
    assert count == 8 and size[0] == WIDTHS[0]


def test_a_large_match_is_scaled_down_then_told_turn_by_turn() -> None:
    stills = [Still(board(n, noisy=True), turn_ends=n % 4 == 3) for n in range(12)]
    whole = {width: len(_gif(stills, width)) for width in WIDTHS}
    assert list(whole.values()) == sorted(whole.values(), reverse=True)
    count, size = frames_of(animate(stills, max_bytes=whole[WIDTHS[1]]))
    assert (count, size[0]) == (12, WIDTHS[1])  # scaled down, every move kept
    count, size = frames_of(animate(stills, max_bytes=whole[WIDTHS[-1]] - 1))
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
