"""Hostile pictures: an SVG cannot read files through data: URLs, crash the renderer or smuggle a
huge raster in; a deck's images have a total budget; extreme shapes are refused at check
(docs/security.md, "Images")."""

from __future__ import annotations

import base64
import os
import struct
import time
import zlib

import pytest
from hostile import MARKER, assert_no_marker_in, assert_refused, make_deck, run
from PIL import Image

from deckgen import images
from deckgen.errors import Collector
from deckgen.images import ImageProblem, load_image, svg_check

SVG = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="64" height="64">{}</svg>'


def _png_header(w: int, h: int) -> bytes:
    """A PNG whose header claims w x h pixels (Pillow sizes images from the header alone)."""
    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 16)) + chunk(b"IEND", b"")


def _png_bytes(w: int, h: int, colour: str = "red") -> bytes:
    import io

    buf = io.BytesIO()
    Image.new("RGB", (w, h), colour).save(buf, "PNG")
    return buf.getvalue()


_ROWS: dict[tuple[int, int], bytes] = {}


def _solid_png(path, w: int, h: int, rgb: tuple[int, int, int]) -> None:
    """A real w x h PNG of one colour (what Image.new(...).save() gives, pixel for pixel), written in
    a fraction of the time: the first row as it is, every other row filtered 'Up' (all zeros), and
    the deflate stream of those zero rows made once per size and reused."""
    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    first, rest = b"\0" + bytes(rgb) * w, (b"\2" + bytes(3 * w)) * (h - 1)
    if (w, h) not in _ROWS:
        z = zlib.compressobj(1, zlib.DEFLATED, -15)
        _ROWS[w, h] = z.compress(rest) + z.flush()
    z = zlib.compressobj(1, zlib.DEFLATED, -15)
    head = z.compress(first) + z.flush(zlib.Z_FULL_FLUSH)        # byte-aligned, not the last block
    adler = zlib.adler32(rest, zlib.adler32(first))
    idat = b"\x78\x01" + head + _ROWS[w, h] + struct.pack(">I", adler)
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b""))


def test_the_solid_png_helper_writes_the_picture_it_says(tmp_path):
    _solid_png(tmp_path / "a.png", 40, 30, (30, 225, 90))
    with Image.open(tmp_path / "a.png") as im:
        assert im.size == (40, 30) and im.mode == "RGB"
        assert im.tobytes() == Image.new("RGB", (40, 30), (30, 225, 90)).tobytes()


def _data(kind: str, raw: bytes) -> str:
    return f"data:{kind};base64," + base64.b64encode(raw).decode()


def _svg_deck(tmp_path, body: str, key: str = "back_image"):
    deck = make_deck(tmp_path, f'{key} = "art/back.svg"')
    (deck.folder / "art").mkdir()
    (deck.folder / "art" / "back.svg").write_text(SVG.format(body), encoding="utf-8")
    return deck


def test_a_deeply_nested_svg_is_refused_before_the_renderer_sees_it(tmp_path):
    deck = _svg_deck(tmp_path, "<g>" * 1024 + '<rect width="9" height="9"/>' + "</g>" * 1024)
    result = run(deck, "check", str(deck.manifest), "--no-sim")
    assert_refused(result, "deck.back_image", "nests its elements", f"limit of {images.MAX_SVG_DEPTH}", codes=(1,))
    result = run(deck, "build", str(deck.manifest), "-o", str(deck.home / "out"), "--no-rulebook")
    assert_refused(result, "nests its elements")


def test_a_crash_inside_the_renderer_is_a_finding(monkeypatch):
    import ctypes

    monkeypatch.setattr(images, "_drawn", {})           # nothing drawn safely before in this process
    monkeypatch.setattr(images, "_probe_svg", lambda data, size, fraction: ctypes.string_at(0))   # a resvg crash
    with pytest.raises(ImageProblem) as info:
        svg_check(SVG.format('<rect width="9" height="9"/>').encode(), "crash.svg")
    assert "cannot be rendered: crashed (SIGSEGV)" in str(info.value)
    with pytest.raises(ImageProblem):                    # a refused drawing is not remembered as safe
        svg_check(SVG.format('<rect width="9" height="9"/>').encode(), "crash.svg")


def test_the_same_svg_bytes_are_drawn_in_a_child_once_per_process(monkeypatch):
    from deckgen import probe

    drawn = []

    def counting(fn, *args, **kw):
        drawn.append(args[0])
        return b"0.0"                         # the CPU seconds of a quarter-size drawing

    monkeypatch.setattr(images, "_drawn", {})
    monkeypatch.setattr(probe, "run", counting)
    first = SVG.format('<rect width="9" height="9"/>').encode()
    assert svg_check(first, "a.svg") == svg_check(first, "b/a.svg")
    assert drawn == [first]
    changed = first.replace(b'"9"', b'"8"', 1)          # one byte differs: drawn in a child again
    svg_check(changed, "a.svg")
    assert drawn == [first, changed]


def _filter_bomb(shapes: int, primitive: str) -> bytes:
    rects = "".join(f'<rect x="{i % 10}" y="{i // 10}" width="80" height="80" fill="red" filter="url(#f)"/>'
                    for i in range(shapes))
    return SVG.format(f'<filter id="f" x="-50%" y="-50%" width="200%" height="200%">{primitive}</filter>{rects}'
                      ).encode()


# Issue 38: drawn at 32 px, a filter bomb passed check and then took minutes for each face (20
# rectangles under a morphology filter: 0.03 s at 32 px, 200 s at 300 px); so did 20,000
# translucent rectangles on each other (0.6 s at 32 px, 336 s at the size a card's face prints).
@pytest.mark.parametrize("data", [
    _filter_bomb(20, '<feMorphology operator="dilate" radius="20"/>'),
    SVG.format("".join(f'<rect width="100" height="100" fill="#{i % 255:02x}0000" fill-opacity="0.5"/>'
                       for i in range(20000))).encode(),
], ids=["morphology", "layers"])
def test_an_svg_is_judged_at_the_size_it_is_printed(monkeypatch, data):
    monkeypatch.setattr(images, "SVG_SECONDS", 1.0)
    monkeypatch.setattr(images, "_drawn", {})
    start = time.monotonic()
    with pytest.raises(ImageProblem) as info:
        svg_check(data, "bomb.svg")
    assert time.monotonic() - start < 10
    assert "takes longer than 1 s to draw at the size it is printed (1110x1110 px" in str(info.value)


def test_only_a_slow_quarter_size_drawing_is_drawn_again_at_full_size(monkeypatch):
    from deckgen import probe

    sizes = []

    def timed(fn, data, size, fraction, **kw):
        sizes.append(fraction)
        return b"0.05"                    # 0.05 s at a quarter of the size: up to 12.8 s at full size

    monkeypatch.setattr(images, "_drawn", {})
    monkeypatch.setattr(probe, "run", timed)
    svg_check(SVG.format('<rect width="9" height="9"/>').encode(), "a.svg")
    assert sizes == [4, 1]
    monkeypatch.setattr(images, "SVG_SECONDS", 30.0)                   # 12.8 s is within 30 s: judged at once
    svg_check(SVG.format('<rect width="8" height="9"/>').encode(), "b.svg")
    assert sizes == [4, 1, 4]


def test_the_svgs_of_one_manifest_share_a_drawing_time_budget(tmp_path, monkeypatch):
    from deckgen import probe

    def slow(fn, *args, **kw):
        time.sleep(0.2)                        # a drawing that takes 0.2 s
        return b"0.0"

    monkeypatch.setattr(images, "DECK_SVG_SECONDS", 0.1)
    monkeypatch.setattr(images, "_drawn", {})
    monkeypatch.setattr(probe, "run", slow)
    for name in ("a", "b"):
        (tmp_path / f"{name}.svg").write_text(SVG.format(f'<rect width="9" height="{len(name) + 3}" id="{name}"/>'),
                                              encoding="utf-8")
    out = Collector("deck.toml")
    assert load_image("a.svg", "deck.logo", tmp_path, out) is not None      # the first one uses up the budget
    assert load_image("b.svg", "deck.back_image", tmp_path, out) is None
    assert "was not drawn: the manifest's SVG pictures took over" in out.errors[0].message


@pytest.mark.parametrize("href", ["data:secret.png", "data:/dev/zero", "data:image/png;base64", "data:",
                                  "data:text/plain,hello", "data:image/png;base64,@@@@"])
def test_a_data_url_must_be_a_real_one(tmp_path, href):
    with pytest.raises(ImageProblem) as info:
        svg_check(SVG.format(f'<image href="{href}" width="9" height="9"/>').encode(), "x.svg")
    assert "data: URL" in str(info.value)


def test_a_data_folder_in_the_deck_cannot_serve_an_outside_picture(tmp_path):
    deck = _svg_deck(tmp_path, '<image href="data:pic.png" width="64" height="64"/>')
    (deck.folder / "data:").mkdir()
    Image.new("RGB", (8, 8), "blue").save(tmp_path / "pic.png")
    os.symlink(tmp_path / "pic.png", deck.folder / "data:" / "pic.png")
    result = run(deck, "check", str(deck.manifest), "--no-sim", cwd=deck.folder)
    assert_refused(result, "data: URL that is not one", codes=(1,))


def test_data_dev_zero_does_not_grow_memory(tmp_path):
    deck = _svg_deck(tmp_path, '<image href="data:/dev/zero" width="64" height="64"/>')
    start = time.monotonic()
    assert_refused(run(deck, "check", str(deck.manifest), "--no-sim", cwd=deck.folder), "data: URL", codes=(1,))
    assert time.monotonic() - start < 60


def test_a_huge_raster_inside_an_svg_counts_against_the_pixel_cap(tmp_path):
    body = f'<image href="{_data("image/png", _png_header(20000, 20000))}" width="64" height="64"/>'
    deck = _svg_deck(tmp_path, body)
    result = run(deck, "check", str(deck.manifest), "--no-sim")
    assert_refused(result, "deck.back_image", "embeds a picture", codes=(1,))
    assert "too large to decode safely" in result.text or "20000x20000" in result.text


def test_embedded_rasters_add_up(tmp_path):
    one = _data("image/png", _png_header(6000, 5000))        # 30 MP each: two are over 50
    body = "".join(f'<image href="{one}" x="{i}" width="9" height="9"/>' for i in range(2))
    with pytest.raises(ImageProblem) as info:
        svg_check(SVG.format(body).encode(), "x.svg")
    assert "embeds pictures of 60 megapixels in all" in str(info.value)


def test_an_svg_inside_an_svg_is_checked_like_a_file(tmp_path):
    inner = SVG.format(f'<image href="{tmp_path / "secret.png"}" width="9" height="9"/>')
    with pytest.raises(ImageProblem) as info:
        svg_check(SVG.format(f'<image href="{_data("image/svg+xml", inner.encode())}"/>').encode(), "x.svg")
    assert "embedded in it" in str(info.value) and "refers to something outside" in str(info.value)
    fine = SVG.format(f'<image href="{_data("image/png", _png_bytes(4, 4))}" width="9" height="9"/>')
    assert svg_check(SVG.format(f'<image href="{_data("image/svg+xml", fine.encode())}"/>').encode(), "x.svg")


def test_a_long_thin_picture_is_refused_at_check_not_at_build(tmp_path):
    deck = make_deck(tmp_path, 'back_image = "thin.png"')
    Image.new("RGB", (50000, 1), "red").save(deck.folder / "thin.png")
    result = run(deck, "check", str(deck.manifest), "--no-sim")
    assert_refused(result, "50000x1", f"more than {images.MAX_ASPECT} times the other", codes=(1,))
    result = run(deck, "build", str(deck.manifest), "-o", str(deck.home / "out"), "--no-rulebook")
    assert_refused(result, "50000x1")


def test_extreme_svg_sizes_do_not_overflow(tmp_path):
    for attrs in ('width="1.2.3" height="5"', 'viewBox="0 0 inf 1"', 'viewBox="0 0 1e-9 1"', 'width="99999999999" height="1"'):
        data = f'<svg xmlns="http://www.w3.org/2000/svg" {attrs}><rect width="1" height="1"/></svg>'.encode()
        try:
            size = svg_check(data, "x.svg")
        except ImageProblem as exc:
            assert "times the other" in str(exc)
        else:
            assert max(size) <= images.MAX_ASPECT * min(size)


def test_the_images_of_one_deck_share_a_pixel_budget(tmp_path, monkeypatch):
    monkeypatch.setattr(images, "MAX_DECK_PIXELS", 2500)
    for i in range(3):
        Image.new("RGB", (30, 30), (i * 60, 0, 0)).save(tmp_path / f"a{i}.png")    # 900 pixels each
    out = Collector("deck.toml")
    refs = [load_image(f"a{i}.png", f"cards[{i}].art", tmp_path, out) for i in range(3)]
    assert refs[0] and refs[1] and refs[2] is None
    assert "2700 pixels" in out.errors[0].message or "megapixels in all" in out.errors[0].message
    again = load_image("a0.png", "cards[9].art", tmp_path, out)        # the same picture again costs nothing
    assert again is not None
    other = Collector("other.toml")                                    # another manifest has its own budget
    assert load_image("a2.png", "deck.logo", tmp_path, other) is not None


def test_decoded_pictures_kept_in_memory_are_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(images, "DECODED_PIXELS", 2000)
    images._decoded.clear()
    for i in range(5):
        Image.new("RGB", (30, 30), (0, i * 40, 0)).save(tmp_path / f"b{i}.png")
        images.read_image(tmp_path / f"b{i}.png")
    assert images._decoded_pixels() <= 2000 and len(images._decoded) == 2


@pytest.mark.parametrize("kind", ["fifo", "dir", "dev"])
def test_an_image_that_is_no_regular_file_is_refused_without_blocking(tmp_path, kind):
    deck = make_deck(tmp_path, 'back_image = "back.png"')
    target = deck.folder / "back.png"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "dir":
        target.mkdir()
    else:
        os.symlink("/dev/zero", target)
        deck.manifest.write_text(deck.manifest.read_text().replace('"back.png"', '"back.png"'))
    result = run(deck, "check", str(deck.manifest), "--no-sim", seconds=60)
    assert_refused(result, "deck.back_image", codes=(1,))
    assert_no_marker_in(deck.home)


def test_a_symlink_to_the_secret_is_never_read(tmp_path):
    deck = make_deck(tmp_path, 'logo = "logo.png"')
    os.symlink(deck.secret, deck.folder / "logo.png")
    result = run(deck, "check", str(deck.manifest), "--no-sim")
    assert_refused(result, "outside the manifest's folder", codes=(1,))
    assert MARKER not in result.text


MANY = '''
[deck]
id = "many"
name = "Many"
language = "en"
players = { min = 2, max = 4 }
hand_size = 5
palette = "classic"
back_image = "p6.png"
logo = "p7.png"

[rules]
preset = "classic"
options = { challenge = false }

[scoring]
target = 100
[scoring.points]
number = "face"
skip = 20
wild = 50
''' + "".join(f'''
[[cards]]
kind = "number"
colors = "all"
values = {values}
count = 1
art = "p{i}.png"
''' for i, values in enumerate([[0, 1], [2, 3], [4, 5], [6, 7, 8, 9]])) + '''
[[cards]]
kind = "skip"
colors = "all"
count = 1
art = "p4.png"

[[cards]]
kind = "wild"
count = 4
art = "p5.png"
'''


def test_many_large_pictures_stay_within_the_deck_budget_and_the_memory_limit(tmp_path):
    deck = make_deck(tmp_path)
    deck.manifest.write_text(MANY, encoding="utf-8")
    for i in range(8):                                       # 36 megapixels each, 288 in all: over 250
        _solid_png(deck.folder / f"p{i}.png", 6000, 6000, (30 * i, 255 - 30 * i, 90))
    start = time.monotonic()
    result = run(deck, "check", str(deck.manifest), "--no-sim")          # under the 2 GB address-space limit
    assert_refused(result, "megapixels in all, over the limit of 250", codes=(1,))
    assert time.monotonic() - start < 120
