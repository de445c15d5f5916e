"""The faster render paths draw what the plain ones drew: cached text masks and repeated renders."""

from __future__ import annotations

import io
from collections.abc import Callable
from importlib import resources
from typing import Any, cast

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont

from engine.host.selfplay import play_match
from engine.registry import GAMES, POLICIES
from render import canvas
from render import since as since_marks
from render.registry import render_view
from render.since import Since


def sample_views(slug: str) -> tuple[list[tuple[Any, str, Since | None]], list[str]]:
    """Boards and a hand at a few points of a seeded match, in both languages, and one marked board."""
    rules = GAMES[slug]
    seats = max(n for n in rules.seat_counts if n <= 4)
    states: list[Any] = []
    play_match(rules, seats, 3, frozenset(), [POLICIES[slug]["greedy"]], on_state=states.append)
    picked = [states[0], states[len(states) // 2], states[-1]]
    jobs: list[tuple[Any, str, Since | None]] = [
        (rules.view(state, seat), locale, None)
        for state in picked
        for seat in (None, 0)
        for locale in ("en", "it")
    ]
    before = rules.view(states[len(states) // 3], None)
    jobs.append((rules.view(states[-1], None), "en", Since(before, 1)))
    return jobs, [f"Player {n + 1}" for n in range(seats)]


def lossless_renders(slug: str, monkeypatch: pytest.MonkeyPatch) -> Callable[[], list[bytes]]:
    """A call that renders ``slug``'s sample views in full colour (equal bytes, equal pixels) as the
    canvas draws them at the time of the call."""
    jobs, names = sample_views(slug)
    monkeypatch.setattr(canvas, "palette_of", lambda image: None)
    return lambda: [
        cast(bytes, render_view(slug, view, names, locale, since)) for view, locale, since in jobs
    ]


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_cached_masks_draw_the_same_bytes_as_fresh_ones(slug: str, monkeypatch: pytest.MonkeyPatch) -> None:
    jobs, names = sample_views(slug)
    monkeypatch.setattr(canvas, "MASKS", canvas.MaskCache(budget=0))
    fresh = [render_view(slug, view, names, locale, since) for view, locale, since in jobs]
    assert canvas.MASKS.hits == 0 and canvas.MASKS.pixels == 0
    cache = canvas.MaskCache()
    monkeypatch.setattr(canvas, "MASKS", cache)
    first = [render_view(slug, view, names, locale, since) for view, locale, since in jobs]
    second = [render_view(slug, view, names, locale, since) for view, locale, since in jobs]
    assert cache.hits > cache.misses > 0
    assert first == fresh and second == fresh


def uncached_font(size: int, bold: bool) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(
        io.BytesIO(resources.files("render").joinpath("assets", name).read_bytes()), size
    )


def test_a_cached_mask_is_drawn_like_pillows_own_text() -> None:
    """Fractional positions, anchors and both weights, drawn twice over (the second time from the cache)
    and compared with Pillow drawing the same text with an uncached font."""
    cases = [
        ((10.0, 10.0), "Broadway", 18, False, "la"),
        ((10.25, 40.5), "Broadway", 18, False, "la"),
        ((150.7, 80.0), "42nd ▲ ● ★", 22, True, "mm"),
        ((290.0, 120.3), "Spesa: 12 €", 20, False, "rm"),
        ((5.5, 150.9), "…", 26, True, "ls"),
    ]
    plain = {(size, bold): uncached_font(size, bold) for *_, size, bold, _ in cases}
    for _ in range(2):
        cached_image, cached_draw = canvas.new_canvas(300, 200, scale=1.0)
        plain_image = cached_image.copy()
        plain_draw = ImageDraw.Draw(plain_image, "RGBA")
        for xy, content, size, bold, anchor in cases:
            for ink in ("#0072B2", "#D5530080"):  # opaque, and translucent
                canvas.text(cached_draw, xy, content, size, ink, bold, anchor)
                plain_draw.text(xy, content, font=plain[size, bold], fill=ink, anchor=anchor)
        assert cached_image.tobytes() == plain_image.tobytes()


def test_the_mask_cache_keeps_to_its_budget() -> None:
    cache = canvas.MaskCache(budget=1_000)
    mask = Image.new("L", (20, 20)).im
    for n in range(10):
        cache.put(("key", n), (mask, (0, 0)))
    assert cache.pixels <= 1_000 and cache.get(("key", 9)) is not None and cache.get(("key", 0)) is None


def decoded(png: bytes | None) -> Image.Image:
    assert png is not None
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGB")


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_palette_images_look_the_same_as_full_colour(slug: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every sampled image, decoded, is within the documented tolerance of its full-colour render, and the
    "changed since your last turn" mark keeps its exact magenta."""
    jobs, names = sample_views(slug)
    paletted = [render_view(slug, view, names, locale, since) for view, locale, since in jobs]
    monkeypatch.setattr(canvas, "palette_of", lambda image: None)
    full = [render_view(slug, view, names, locale, since) for view, locale, since in jobs]
    modes = []
    for small, big in zip(paletted, full, strict=True):
        assert small is not None and big is not None
        with Image.open(io.BytesIO(small)) as image:
            modes.append(image.mode)
        if small == big:
            continue  # kept in full colour
        shown, truth = decoded(small), decoded(big)
        assert len(small) < 0.7 * len(big)
        moved = ImageChops.difference(shown, truth).histogram()
        per_level = [sum(moved[n::256]) for n in range(256)]
        assert not any(per_level[canvas.PALETTE_TOLERANCE + 1 :])
        assert (
            sum(per_level[canvas.PALETTE_NEAR + 1 :])
            <= canvas.PALETTE_SPREAD * 3 * truth.width * truth.height
        )
        magenta = Image.new("RGB", truth.size, since_marks.CHANGED)
        exact = ImageChops.difference(truth, magenta).convert("L").point(lambda v: 255 if v == 0 else 0)
        kept = ImageChops.difference(shown, magenta).convert("L").point(lambda v: 255 if v == 0 else 0)
        assert exact.histogram()[255] == kept.histogram()[255]
    # The boards of every game are sent in 256 colours.
    assert modes.count("P") >= len(modes) // 2, modes


def test_a_picture_that_would_lose_detail_keeps_full_colour() -> None:
    """A smooth ramp of thousands of colours with small dots of rare ones: 256 colours cannot hold it."""
    image = Image.new("RGB", (256, 256))
    image.putdata([(x, y, (x * y) % 256) for y in range(256) for x in range(256)])
    for n in range(40):
        image.putpixel((n * 6, n * 6), (255, 0, 204))
    assert canvas.palette_of(image) is None
    with Image.open(io.BytesIO(canvas.encode_png(image))) as png:
        assert png.mode == "RGB" and png.convert("RGB").tobytes() == image.tobytes()


def test_a_drawing_becomes_a_palette_image_the_same_bytes_each_time() -> None:
    image, draw = canvas.new_canvas(400, 300, scale=1.0)
    canvas.legend(draw, (10, 10), [(0, "ann"), (1, "bob")], 20)
    since_marks.mark(draw, (100, 100, 200, 180), 20)
    png = canvas.encode_png(image)
    assert png == canvas.encode_png(image.copy())
    with Image.open(io.BytesIO(png)) as paletted:
        assert paletted.mode == "P"


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_the_same_view_gives_the_same_bytes(slug: str) -> None:
    jobs, names = sample_views(slug)
    view, locale, since = jobs[-1]
    canvas.MASKS.clear()
    first = render_view(slug, view, names, locale, since)
    assert render_view(slug, view, names, locale, since) == first


def test_a_colour_the_sampled_palette_misses_is_kept_by_a_larger_sample() -> None:
    """Dots of a rare colour between the sampled pixels: the palette of the sample lacks it, so the
    palette of the three checked lattices is taken instead, and the dots keep their exact colour."""
    image, draw = canvas.new_canvas(300, 300, scale=1.0)
    draw.rectangle((0, 150, 299, 299), fill=(30, 60, 90))
    between = range(2, 300, canvas.SAMPLE_STEP * 4)  # the sample takes columns and rows 1, 4, 7, …
    dots = [(x, y) for x in between for y in between]
    for dot in dots:
        image.putpixel(dot, (255, 0, 204))
    sample = image.resize((100, 100), Image.Resampling.NEAREST)
    assert (255, 0, 204) not in {colour for _, colour in sample.getcolors(1000) or []}
    paletted = canvas.palette_of(image)
    assert paletted is not None
    shown = paletted.convert("RGB")
    assert all(shown.getpixel(dot) == (255, 0, 204) for dot in dots)
    assert canvas.palette_of(image.copy()).tobytes() == paletted.tobytes()  # type: ignore[union-attr]


def test_a_small_dot_off_the_sample_and_its_checked_diagonal_keeps_its_colour() -> None:
    """2×2 dots of a rare colour placed so that neither the sample (rows and columns 1, 4, 7, …) nor the
    lattice checked alongside it holds a pixel of theirs: the lattices along the diagonal still meet
    every dot, so a palette of more of the pixels is taken and the dots keep their exact colour."""
    image, draw = canvas.new_canvas(300, 300, scale=1.0)
    draw.rectangle((0, 150, 299, 299), fill=(30, 60, 90))
    dots = [(x, y) for x in range(5, 290, 12) for y in range(6, 290, 12)]  # columns ≡ 2, rows ≡ 0 (mod 3)
    pixels = [(x + dx, y + dy) for x, y in dots for dx in (0, 1) for dy in (0, 1)]
    for pixel in pixels:
        image.putpixel(pixel, (255, 0, 204))
    sampled = {colour for _, colour in canvas.lattice(image, 1).getcolors(1000) or []}
    beside = {colour for _, colour in canvas.lattice(image, 2).getcolors(1000) or []}
    assert (255, 0, 204) not in sampled | beside
    paletted = canvas.palette_of(image)
    assert paletted is not None
    shown = paletted.convert("RGB")
    assert all(shown.getpixel(pixel) == (255, 0, 204) for pixel in pixels)


def test_a_palette_the_checked_lattices_hold_spares_quantising_every_pixel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """When the sample's palette misses a colour that the checked lattices hold, their palette is
    enough: the whole picture is only mapped to it, never quantised on its own."""
    image, draw = canvas.new_canvas(300, 300, scale=1.0)
    draw.rectangle((0, 150, 299, 299), fill=(30, 60, 90))
    dots = [(x, y) for x in range(5, 290, 12) for y in range(6, 290, 12)]
    for x, y in dots:
        draw.rectangle((x, y, x + 1, y + 1), fill=(255, 0, 204))
    quantised: list[tuple[tuple[int, int], bool]] = []
    original = Image.Image.quantize

    def recorded(picture: Image.Image, *args: Any, **kwargs: Any) -> Image.Image:
        quantised.append((picture.size, kwargs.get("palette") is None))
        return original(picture, *args, **kwargs)

    monkeypatch.setattr(Image.Image, "quantize", recorded)
    paletted = canvas.palette_of(image)
    assert paletted is not None and all(
        paletted.convert("RGB").getpixel(dot) == (255, 0, 204) for dot in dots
    )
    made = [size for size, own in quantised if own]
    assert made == [(100, 100), (100, 300)]  # the sample's palette, then the three lattices'
    assert image.size not in made


def test_a_lattice_holds_every_third_pixel_from_its_offset() -> None:
    image = Image.new("L", (10, 8))
    image.frombytes(bytes(10 * y + x for y in range(8) for x in range(10)))
    for offset in (0, 1, 2):
        picked = canvas.lattice(image, offset)
        columns, rows = range(offset, 10, 3), range(offset, 8, 3)
        assert picked.size == (len(columns), len(rows))
        assert list(picked.tobytes()) == [10 * y + x for y in rows for x in columns]


class BlendingEverything(canvas.Draw):
    """The canvas's drawing as ImageDraw does it in RGBA mode: every colour blended, opaque ones too."""

    def _getink(self, ink: Any, fill: Any = None) -> tuple[int | None, int | None]:
        result = super()._getink(ink, fill)
        self.draw = self._blending
        return result


class WorkingOutEveryInk(canvas.Draw):
    """The canvas's drawing without the inks it keeps: each colour is turned into ink afresh."""

    def _getink(self, ink: Any, fill: Any = None) -> tuple[int | None, int | None]:
        self.__dict__["_inks"] = {}  # shadows the inks the class keeps
        return super()._getink(ink, fill)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_the_inks_kept_from_earlier_drawings_give_the_pixels_of_working_them_out(
    slug: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    renders = lossless_renders(slug, monkeypatch)
    monkeypatch.setattr(canvas.Draw, "_inks", {})
    first = renders()
    assert canvas.Draw._inks, "the inks drawn were kept"
    again = renders()
    monkeypatch.setattr(canvas, "Draw", WorkingOutEveryInk)
    assert first == again == renders()


class TextThroughPillow(canvas.Draw):
    """The canvas's drawing with every line of text drawn by Pillow's own ``text``."""

    def line_of_text(
        self, xy: tuple[float, float], content: str, face: ImageFont.FreeTypeFont, fill: Any, anchor: str
    ) -> None:
        self.text(xy, content, font=face, fill=fill, anchor=anchor)


class RectanglesThroughPillow(canvas.Draw):
    """The canvas's drawing with every rectangle drawn by Pillow's own ``rectangle``."""

    def rectangle(self, xy: Any, fill: Any = None, outline: Any = None, width: float = 1) -> None:
        if not self._drawing and self.scale != 1.0:
            xy, width = self._at(xy), self._thick(width)
        ImageDraw.ImageDraw.rectangle(self, xy, fill, outline, int(width))


class PolygonsThroughPillow(canvas.Draw):
    """The canvas's drawing with every polygon drawn by Pillow's own ``polygon`` on the whole canvas."""

    def polygon(self, xy: Any, fill: Any = None, outline: Any = None, width: float = 1) -> None:
        if not self._drawing and self.scale != 1.0:
            xy, width = self._at(xy), self._thick(width)
        ImageDraw.Draw(self.image, "RGBA").polygon(xy, fill, outline, int(width))


@pytest.mark.parametrize(
    "plain",
    [BlendingEverything, TextThroughPillow, RectanglesThroughPillow, PolygonsThroughPillow],
    ids=["blending everything", "Pillow's text", "Pillow's rectangles", "Pillow's polygons"],
)
@pytest.mark.parametrize("slug", sorted(GAMES))
def test_the_canvas_draws_the_pixels_of_drawing_the_plain_way(
    slug: str, plain: type[canvas.Draw], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opaque colours written straight in, as blending every colour would draw them; lines of text pasted
    straight in, as Pillow's ``text`` would draw them; rectangles and polygons as Pillow draws them."""
    renders = lossless_renders(slug, monkeypatch)
    fast = renders()
    monkeypatch.setattr(canvas, "Draw", plain)
    assert renders() == fast


def test_text_of_several_lines_is_drawn_as_pillow_draws_it() -> None:
    drawn, draw = canvas.new_canvas(200, 100, scale=1.0)
    canvas.text(draw, (10.5, 10), "Wall Street\nBroadway", 20)
    plain = Image.new("RGB", (200, 100), canvas.PAPER)
    ImageDraw.Draw(plain, "RGBA").text(
        (10.5, 10), "Wall Street\nBroadway", font=uncached_font(20, False), fill=canvas.INK
    )
    assert drawn.tobytes() == plain.tobytes()
    inked = ImageChops.difference(drawn, Image.new("RGB", (200, 100), canvas.PAPER)).getbbox()
    assert inked is not None and inked[3] > 40, "both lines were drawn, one under the other"


def tiles(budget: int) -> canvas.PixelCache[Image.Image]:
    return canvas.PixelCache(lambda tile: tile.width * tile.height, budget)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_parts_of_boards_drawn_before_give_the_pixels_of_drawing_them_again(
    slug: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    renders = lossless_renders(slug, monkeypatch)
    monkeypatch.setattr(canvas, "TILES", tiles(budget=0))  # nothing kept: every part drawn afresh
    drawn = renders()
    kept = tiles(budget=6_000_000)
    monkeypatch.setattr(canvas, "TILES", kept)
    assert drawn == renders() == renders()
    if slug != "ny_henn":  # its board has no part that stays the same
        assert kept.hits > 0


def test_a_translucent_colour_is_blended_and_an_opaque_one_written_in() -> None:
    image, draw = canvas.new_canvas(40, 20, (0, 0, 200), scale=1.0)
    draw.rectangle((0, 0, 19, 19), fill=(255, 255, 255, 128))
    draw.rectangle((20, 0, 39, 19), fill="#FF000080")
    draw.rectangle((25, 5, 34, 14), fill="#00FF00")
    assert image.getpixel((10, 10)) == (128, 128, 228)
    assert image.getpixel((21, 10)) == (128, 0, 100)
    assert image.getpixel((30, 10)) == (0, 255, 0)
    colours = ("#FF000080", "#FF0000", (1, 2, 3, 255), (1, 2, 3), None, [1, 2, 3, 9], [1, 2, 3])
    assert [canvas.translucent(c) for c in colours] == [True, False, False, False, False, True, False]
    # Asked again, the kept answers are the same.
    assert [canvas.translucent(c) for c in colours] == [True, False, False, False, False, True, False]
