"""The shared drawing kit."""

from __future__ import annotations

import io

from PIL import Image

from render.canvas import SEAT_STYLES, encode_png, font, legend, new_canvas, seat_style


def test_every_seat_has_its_own_colour_and_symbol() -> None:
    assert (
        len({s.colour for s in SEAT_STYLES}) == len({s.symbol for s in SEAT_STYLES}) == len(SEAT_STYLES) == 6
    )
    assert seat_style(7) is SEAT_STYLES[1]


def test_the_bundled_font_draws_the_symbols() -> None:
    regular = font(24)
    notdef = regular.getmask("\U0010fffd").getbbox()
    for style in SEAT_STYLES:
        assert regular.getmask(style.symbol).getbbox() not in (None, notdef), style.symbol


def test_a_legend_draws_and_encodes() -> None:
    image, draw = new_canvas(300, 200)
    bottom = legend(draw, (10, 10), [(0, "ann"), (1, "bob")], 20)
    assert bottom == 70
    png = encode_png(image)
    with Image.open(io.BytesIO(png)) as decoded:
        assert decoded.size == (300, 200) and decoded.getpixel((22, 22)) != (244, 241, 234)
