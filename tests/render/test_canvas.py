"""The shared drawing kit."""

from __future__ import annotations

import io
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

from render.canvas import (
    INK,
    SCALE,
    SEAT_STYLES,
    abbreviated,
    encode_png,
    fit_text,
    font,
    legend,
    names_in,
    new_canvas,
    recording,
    seat_style,
    short_name,
    text,
    text_width,
    trimmed,
    wrapped,
)


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
    image, draw = new_canvas(300, 200, scale=1.0)
    bottom = legend(draw, (10, 10), [(0, "ann"), (1, "bob")], 20)
    assert bottom == 70
    png = encode_png(image)
    with Image.open(io.BytesIO(png)) as decoded:
        assert decoded.size == (300, 200) and decoded.getpixel((22, 22)) != (244, 241, 234)


def test_text_drawn_from_the_font_cache_is_the_text_freetype_draws() -> None:
    """The canvas font keeps rendered texts; a text drawn again (cached) or at a fractional position has
    exactly the pixels and width of Pillow's own font."""
    data = resources.files("render").joinpath("assets", "DejaVuSans-Bold.ttf").read_bytes()
    plain = ImageFont.truetype(io.BytesIO(data), 17)
    cached = font(17, bold=True)
    drawn = []
    for face in (plain, cached, cached):
        image = Image.new("RGB", (240, 90), (244, 241, 234))
        draw = ImageDraw.Draw(image, "RGBA")
        for xy, anchor in (((5, 5), "la"), ((120.5, 45.25), "mm"), ((235, 85), "rs")):
            draw.text(xy, "Park Ave ● 42", font=face, fill="#0072B2", anchor=anchor)
        drawn.append(image.tobytes())
    assert drawn[0] == drawn[1] == drawn[2]
    assert (
        cached.getlength("Park Ave ● 42")
        == cached.getlength("Park Ave ● 42")
        == plain.getlength("Park Ave ● 42")
    )


def test_a_trimmed_picture_keeps_what_was_drawn_and_a_margin_of_paper() -> None:
    image, draw = new_canvas(1000, 300, scale=1.0)
    draw.rectangle((450, 100, 480, 120), fill="#0072B2")
    cut = trimmed(image, margin=20, least=400, scale=1.0)
    assert cut.size == (501, 300)  # the rectangle's last column is 480
    assert cut.tobytes() == image.crop((0, 0, 501, 300)).tobytes()
    # A narrow drawing keeps the least width; one reaching the edge (or nothing at all) keeps it all.
    small, draw = new_canvas(1000, 300, scale=1.0)
    draw.rectangle((10, 10, 50, 50), fill="#0072B2")
    assert trimmed(small, scale=1.0).width == 400
    draw.rectangle((990, 10, 999, 50), fill="#0072B2")
    assert trimmed(small, scale=1.0).width == 1000
    assert trimmed(new_canvas(1000, 300, scale=1.0)[0], scale=1.0).width == 400


def test_a_canvas_draws_in_units_at_its_scale() -> None:
    image, draw = new_canvas(100, 50, scale=0.5)
    assert image.size == (50, 25)
    draw.rectangle((10, 10, 29, 29), fill="#0072B2")
    inside, outside = (0, 114, 178), (244, 241, 234)
    assert image.getpixel((5, 5)) == image.getpixel((14, 14)) == inside
    assert image.getpixel((4, 4)) == image.getpixel((16, 16)) == outside
    # A line keeps at least one pixel however thin it is drawn.
    draw.line((0, 40, 99, 40), fill="#0072B2", width=1)
    assert image.getpixel((30, 20)) == inside


def test_a_shape_pillow_draws_as_another_is_scaled_once() -> None:
    """ImageDraw draws a rounded rectangle without a radius as a plain rectangle: that is not scaled
    again on the way."""
    rounded, draw = new_canvas(100, 50, scale=0.5)
    draw.rounded_rectangle((10, 10, 89, 39), radius=0, fill="#0072B2", outline=INK, width=4)
    plain, draw = new_canvas(100, 50, scale=0.5)
    draw.rectangle((10, 10, 89, 39), fill="#0072B2", outline=INK, width=4)
    assert rounded.tobytes() == plain.tobytes()


def test_a_thick_polygon_drawn_on_its_piece_of_the_canvas_is_the_one_pillow_draws() -> None:
    """Translucent or opaque, wholly on the canvas or running off its edge."""
    shapes: list[tuple[list[tuple[int, int]], str | tuple[int, ...] | None, str | tuple[int, ...], int]] = [
        ([(10, 10), (40, 10), (10, 40)], "#FF00CC", "#111111", 2),
        ([(5, 30), (45, 22), (30, 48), (8, 44)], (0, 114, 178, 128), (17, 17, 17, 200), 3),
        ([(-10, -5), (20, 0), (0, 25)], "#FF00CC", "#111111", 4),
        ([(35, 35), (70, 40), (40, 70)], None, "#111111", 2),
    ]
    ours, draw = new_canvas(50, 50, scale=1.0)
    pillows = ours.copy()
    plain = ImageDraw.Draw(pillows, "RGBA")
    for points, fill, outline, width in shapes:
        draw.polygon(points, fill=fill, outline=outline, width=width)
        plain.polygon(points, fill=fill, outline=outline, width=width)
    assert ours.tobytes() == pillows.tobytes()
    assert ours.getpixel((10, 10)) == (17, 17, 17)  # the outline was drawn


def test_text_at_a_scale_is_the_text_of_the_scaled_size_at_the_scaled_place() -> None:
    half, draw = new_canvas(200, 80, scale=0.5)
    text(draw, (20, 30), "Park Ave ● 42", 24, INK, bold=True)
    whole, draw = new_canvas(100, 40, scale=1.0)
    text(draw, (10, 15), "Park Ave ● 42", 12, INK, bold=True)
    assert half.tobytes() == whole.tobytes()
    # Widths are in units, as the layout measures them, at the scale boards are drawn.
    assert text_width("Park Ave", 20) == font(20 * SCALE).getlength("Park Ave") / SCALE


def test_a_wrapped_text_keeps_every_word_and_each_line_fits() -> None:
    legend = "dark edge = street (↑ → ↓ ← in the menus) · ▶ = to act · orange frame = last move"
    lines = wrapped(legend, 20, 500)
    # Broken between the items of the list, every item whole.
    assert lines == ("dark edge = street (↑ → ↓ ← in the menus)", "▶ = to act · orange frame = last move")
    tiles = "Tiles left: bronze square, silver bar of 3, silver T of 4, gold block of 6"
    lines = wrapped(tiles, 20, 400)
    assert len(lines) > 1 and all(text_width(line, 20) <= 400 for line in lines)
    # A line broken inside a list ends with its comma; no word is lost or cut.
    assert all(line.endswith(",") for line in lines[:-1])
    assert " ".join(lines).replace(",,", ",") == tiles
    # A word wider than a line is broken between its letters, every letter kept.
    long = wrapped("W" * 40, 20, 200)
    assert "".join(long) == "W" * 40 and all(text_width(line, 20) <= 200 for line in long)


def test_a_name_is_shortened_by_the_rule_only_when_the_line_is_too_wide() -> None:
    with recording() as log:
        assert short_name("Ann", 22, 300, True, "▶ ", " (red)") == "▶ Ann (red)"
        assert not log.shortened
        kept = short_name("Vanderbilt the Third (computer)", 22, 320, True, "▶ ", " (red)")
    assert kept.startswith("▶ Van") and kept.endswith("… (computer) (red)")
    assert text_width(kept, 22, True) <= 320
    assert log.shortened == [("▶ Vanderbilt the Third (computer) (red)", kept)]
    assert abbreviated("Vanderbilt (computer)", 4) == "Vand… (computer)"
    assert abbreviated("Ann", 4) == "Ann"
    # Several names on a line are shortened alike, the rest of the line kept whole.
    line = names_in(lambda shown: f"Turn 12 · {' and '.join(shown)} to act", ["W" * 30, "Bob"], 20, 400)
    assert line.startswith("Turn 12 · W") and line.endswith("… and Bob to act")


def test_the_record_holds_the_smallest_text_every_cut_and_what_runs_off_the_edge() -> None:
    _, draw = new_canvas(200, 100, scale=0.5)
    with recording() as log:
        text(draw, (10, 10), fit_text("a text far too long for its room", 20, 100), 20)
        text(draw, (10, 50), "small", 16)
        text(draw, (150, 50), "past the edge", 20)
    assert log.smallest == 8  # 16 units at half a pixel a unit
    assert log.cut == [
        ("a text far too long for its room", fit_text("a text far too long for its room", 20, 100))
    ]
    assert log.overflowing == ["past the edge"]
    assert log.drawn == [log.cut[0][1], "small", "past the edge"]
    # Nothing is recorded outside a recording.
    fit_text("another text far too long for its room", 20, 100)
    assert len(log.cut) == 1
