"""A deck's own look in the manifest: art, icons, back image, logo, rules text, fonts folder;
and everything ``check`` says about the image files (never a traceback, never a fetch)."""

from __future__ import annotations

import io
import shutil
import struct
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from deckgen import images, manifest
from deckgen.check import check
from deckgen.errors import Collector
from deckgen.model import ImageRef
from deckgen.stages import CheckOptions
from tests.conftest import MINIMAL, ROOT

EXAMPLE = ROOT / "decks" / "examples" / "woodland"


# The example's cards as [[cards]] tables with art on each entry (the example itself keeps them in
# cards.ods with the number cards' art by pattern: tests/test_sheets.py and test_sheet_roundtrip.py)
TOML_CARDS = """
# Number cards: each colour's animal, as art on the card entries.
[[cards]]
kind = \"number\"
color = \"fox\"
values = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
count = 2
art = \"art/fox.svg\"
art_fit = \"cover\"

[[cards]]
kind = \"number\"
color = \"frog\"
values = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
count = 2
art = \"art/frog.svg\"

[[cards]]
kind = \"number\"
color = \"fish\"
values = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
count = 2
art = \"art/fish.svg\"

[[cards]]
kind = \"number\"
color = \"owl\"
values = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
count = 2
art = \"art/owl.svg\"

# A standard kind with a rules line given on the card entry.
[[cards]]
kind = \"skip\"
colors = \"all\"
count = 2
text = { es = \"El siguiente jugador pierde su turno.\", en = \"The next player loses their turn.\" }

[[cards]]
kind = \"acorns\"
colors = \"all\"
count = 2

[[cards]]
kind = \"steal\"
colors = \"all\"
count = 1

[[cards]]
kind = \"night\"
count = 4
"""


@pytest.fixture
def deck_dir(tmp_path):
    """A copy of the example deck's folder (manifest, art, icons, fonts) to break things in, its
    cards written as [[cards]] tables."""
    target = tmp_path / "woodland"
    shutil.copytree(EXAMPLE, target)
    path = target / "woodland.toml"
    text = path.read_text("utf-8").replace('cards = "cards.ods"\n', "")
    text = text[:text.index("# Number cards: each colour's animal")]
    path.write_text(text + TOML_CARDS, "utf-8")
    (target / "cards.ods").unlink()
    return target


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), "utf-8")


def findings(path: Path, code: str | None = None):
    report = check(path, CheckOptions(simulate=False))
    return [f for f in report.findings if code is None or f.code == code], report


def test_example_deck_uses_every_key_of_its_own_look():
    deck = manifest.load_deck("woodland")
    assert deck.back_image.vector and deck.logo.vector and deck.fonts.endswith("fonts")
    steal, acorns, night = deck.kinds["steal"], deck.kinds["acorns"], deck.kinds["night"]
    assert steal.icon is not None and steal.text.get("es").startswith("Elige")
    assert acorns.art is not None and acorns.art_fit == "contain"
    assert night.art is not None and night.art_fit == "cover"
    fox = deck.card("fox-7")
    assert fox.art is not None and fox.art_fit == "cover" and fox.art.where == "kinds.number.art"   # by pattern
    assert deck.card("owl-skip").text.get("en") == "The next player loses their turn."
    assert set(deck.kinds["steal"].text.values) == {"es", "en"}


def test_example_deck_is_clean_and_listed():
    from click.testing import CliRunner

    from deckgen.cli import main

    errors = [f for f in findings(EXAMPLE / "woodland.toml")[0] if f.is_error or f.code.startswith(("image", "rules"))]
    assert errors == []
    listing = CliRunner().invoke(main, ["list"])
    assert listing.exit_code == 0 and "woodland" in listing.output


def test_back_image_is_a_known_key_now(write_manifest, tmp_path):
    Image.new("RGB", (744, 1098), "navy").save(tmp_path / "back.png")
    path = write_manifest(MINIMAL.replace('palette = "classic"', 'palette = "classic"\nback_image = "back.png"'))
    result = manifest.load(path)
    assert result.deck is not None and result.deck.back_image.format == "png"
    assert not [f for f in result.findings if f.code == "unknown-key"]


def test_missing_file_names_the_key_and_the_file(deck_dir):
    (deck_dir / "art" / "fox.svg").unlink()
    found, report = findings(deck_dir / "woodland.toml", "image")
    assert report.deck is None
    assert [(f.where, f.severity) for f in found] == [("cards[0].art", "error")]
    assert "no such file" in found[0].message and str(deck_dir / "art" / "fox.svg") in found[0].message
    assert found[0].file == str(deck_dir / "woodland.toml") and found[0].line is not None


@pytest.mark.parametrize("value", ["../outside.png", "/etc/hostname", "art/../../outside.png"])
def test_a_path_leaving_the_manifest_folder_is_an_error(deck_dir, value):
    Image.new("RGB", (10, 10)).save(deck_dir.parent / "outside.png")
    edit(deck_dir / "woodland.toml", 'logo = "art/logo.svg"', f'logo = "{value}"')
    found, _ = findings(deck_dir / "woodland.toml", "image")
    assert [f.where for f in found] == ["deck.logo"]
    assert "outside the manifest's folder" in found[0].message


def test_a_symlink_out_of_the_folder_is_an_error(deck_dir):
    Image.new("RGB", (10, 10)).save(deck_dir.parent / "secret.png")
    (deck_dir / "art" / "link.png").symlink_to(deck_dir.parent / "secret.png")
    edit(deck_dir / "woodland.toml", 'icon = "icons/steal.svg"', 'icon = "art/link.png"')
    found, _ = findings(deck_dir / "woodland.toml", "image")
    assert [f.where for f in found] == ["kinds.steal.icon"]
    assert "symlink" in found[0].message and "outside" in found[0].message


def test_a_symlink_inside_the_folder_is_fine(deck_dir):
    (deck_dir / "art" / "same.svg").symlink_to(deck_dir / "art" / "fox.svg")
    edit(deck_dir / "woodland.toml", 'art = "art/frog.svg"', 'art = "art/same.svg"')
    assert not findings(deck_dir / "woodland.toml", "image")[0]


def _png(w: int, h: int, body: bytes = b"") -> bytes:
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", body) + chunk(b"IEND", b""))


def _gif() -> bytes:
    buf = io.BytesIO()
    Image.new("P", (4, 4)).save(buf, "GIF")
    return buf.getvalue()


@pytest.mark.parametrize("content,words", [
    (b"not an image at all", "not an image deckgen can read"),
    (_png(40, 40, zlib.compress(b"\x00" * 30)), "damaged"),            # truncated pixel data
    (_png(8000, 7000), "(56 megapixels), over the limit of 50"),        # caught from the header
    (_png(20000, 20000), "decompression bomb"),                       # Pillow's own limit, caught
    (_gif(), "is a GIF image"),
], ids=["not-an-image", "truncated", "over-50-megapixels", "bomb", "gif"])
def test_unusable_rasters_are_errors_before_any_decoding_goes_wrong(deck_dir, content, words):
    (deck_dir / "art" / "bad.png").write_bytes(content)
    edit(deck_dir / "woodland.toml", 'art = "art/fish.svg"', 'art = "art/bad.png"')
    found, report = findings(deck_dir / "woodland.toml", "image")
    assert report.deck is None
    assert [f.where for f in found] == ["cards[2].art"] and words in found[0].message


def test_corrupt_image_on_the_command_line_is_exit_1_without_traceback(deck_dir):
    from click.testing import CliRunner

    from deckgen.cli import main

    (deck_dir / "art" / "fox.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'><rect", "utf-8")
    result = CliRunner().invoke(main, ["build", str(deck_dir / "woodland.toml"), "-o", str(deck_dir / "out")])
    assert result.exit_code == 1, result.output
    assert "cards[0].art" in result.output + result.stderr and "Traceback" not in result.output + result.stderr


@pytest.mark.parametrize("body,what", [
    ('<image href="https://example.com/tree.png" width="10" height="10"/>', "href="),
    ('<image xlink:href="tree.png" width="10" height="10"/>', "href="),
    ('<rect width="10" height="10" fill="url(other.svg#g)"/>', "url(other.svg#g)"),
    ('<rect width="10" height="10" style="fill: url(\'http://example.com/p.svg#x\')"/>', "url(http"),
    ("<style>@import url(https://example.com/a.css);</style>", "url(https"),
    ('<use href="shapes.svg#leaf"/>', "href="),
])
def test_an_svg_referring_outside_itself_is_an_error_and_nothing_is_fetched(deck_dir, body, what, monkeypatch):
    import resvg_py

    svg = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
           f'viewBox="0 0 10 10">{body}</svg>')
    (deck_dir / "icons" / "steal.svg").write_text(svg, "utf-8")
    calls = []
    real = resvg_py.svg_to_bytes

    def spy(**kw):
        calls.append(kw)
        return real(**kw)

    monkeypatch.setattr(resvg_py, "svg_to_bytes", spy)
    found, _ = findings(deck_dir / "woodland.toml", "image")
    assert [f.where for f in found] == ["kinds.steal.icon"]
    assert "outside its own file" in found[0].message and what in found[0].message
    assert not [c for c in calls if "example.com" in c.get("svg_string", "") or "tree.png" in c.get("svg_string", "")]


def test_svg_entities_are_refused(deck_dir):
    svg = ('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
           '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><text>&x;</text></svg>')
    (deck_dir / "icons" / "steal.svg").write_text(svg, "utf-8")
    found, _ = findings(deck_dir / "woodland.toml", "image")
    assert "entity" in found[0].message


def test_internal_references_and_data_uris_are_fine(tmp_path):
    pixel = io.BytesIO()
    Image.new("RGB", (2, 2), "red").save(pixel, "PNG")
    import base64

    uri = "data:image/png;base64," + base64.b64encode(pixel.getvalue()).decode()
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 20 10">'
           '<defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient>'
           '<circle id="c" r="3"/></defs><rect width="10" height="10" fill="url(#g)"/>'
           f'<use xlink:href="#c" x="5" y="5"/><image href="{uri}" width="4" height="4"/></svg>')
    (tmp_path / "ok.svg").write_text(svg, "utf-8")
    ref = images.read_image(tmp_path / "ok.svg")
    assert ref.format == "svg" and ref.size == (20, 10)


def test_low_resolution_is_a_warning_naming_the_image_and_its_dpi(deck_dir):
    Image.new("RGB", (200, 300), "darkgreen").save(deck_dir / "art" / "small.png")
    edit(deck_dir / "woodland.toml", 'back_image = "art/back.svg"', 'back_image = "art/small.png"')
    found, report = findings(deck_dir / "woodland.toml", "image-dpi")
    assert report.deck is not None
    assert [(f.where, f.severity) for f in found] == [("deck.back_image", "warning")]
    assert found[0].message.startswith("art/small.png prints at 82 dpi")   # as the manifest names it
    # the hint's size is enough: the picture saved at it prints at 300 dpi, and the warning goes
    import re

    w, h = map(int, re.search(r"at least (\d+)x(\d+) px", found[0].hint).groups())
    assert (w, h) == (732, 1098)        # the back with its bleed at 300 dpi (docs/manifest.md)
    Image.new("RGB", (w, h), "darkgreen").save(deck_dir / "art" / "small.png")
    assert findings(deck_dir / "woodland.toml", "image-dpi")[0] == []
    Image.new("RGB", (w - 8, h - 12), "darkgreen").save(deck_dir / "art" / "small.png")
    assert findings(deck_dir / "woodland.toml", "image-dpi")[0] != []


def test_back_image_of_another_shape_is_cropped_with_a_warning(deck_dir):
    Image.new("RGB", (3000, 3000), "darkgreen").save(deck_dir / "art" / "square.jpg")
    edit(deck_dir / "woodland.toml", 'back_image = "art/back.svg"', 'back_image = "art/square.jpg"')
    found, _ = findings(deck_dir / "woodland.toml", "back-image-crop")
    assert len(found) == 1 and "cropped to cover" in found[0].message


def test_rules_text_that_does_not_fit_at_6pt_is_a_warning_naming_the_card(deck_dir):
    long = " ".join(["Todos los jugadores roban cartas hasta que alguien grite el nombre del bosque."] * 4)
    edit(deck_dir / "woodland.toml", 'text = { es = "El siguiente jugador pierde su turno."',
         f'text = {{ es = "{long}"')
    found, _ = findings(deck_dir / "woodland.toml", "rules-text")
    (f,) = found                                  # one warning for the [[cards]] entry, naming each card
    assert f.where == "cards[4].text" and not f.is_error
    assert all(f"'{fid}'" in f.message for fid in ("fox-skip", "frog-skip", "fish-skip", "owl-skip"))
    assert "6 pt" in f.message


def test_bad_art_fit_is_an_error_with_a_suggestion(deck_dir):
    edit(deck_dir / "woodland.toml", 'art_fit = "contain"', 'art_fit = "contian"')
    found, _ = findings(deck_dir / "woodland.toml", "value")
    assert [f.where for f in found] == ["kinds.acorns.art_fit"] and "contain" in found[0].hint


# ---------------------------------------------------------------- formats


def _ref(path: Path) -> ImageRef:
    out = Collector(str(path))
    ref = images.load_image(path.name, "art", path.parent, out)
    assert ref is not None, out.findings
    return ref


def test_png_palette_with_transparency_keeps_its_transparency(tmp_path):
    im = Image.new("P", (20, 20), 0)
    im.putpalette([255, 0, 0, 0, 0, 255] + [0] * 762)
    im.paste(1, (10, 0, 20, 20))
    im.save(tmp_path / "pal.png", transparency=0)
    pic = images.picture(_ref(tmp_path / "pal.png"), (20, 20), "cover")
    assert pic.getpixel((2, 10))[3] == 0 and pic.getpixel((15, 10)) == (0, 0, 255, 255)


def test_jpeg_cmyk_becomes_rgb(tmp_path):
    Image.new("CMYK", (30, 30), (0, 255, 255, 0)).save(tmp_path / "cmyk.jpg", quality=95)
    ref = _ref(tmp_path / "cmyk.jpg")
    r, g, b, a = images.picture(ref, (30, 30), "cover").getpixel((15, 15))
    assert ref.format == "jpeg" and r > 200 and g < 60 and b < 60 and a == 255


def test_jpeg_exif_orientation_is_applied(tmp_path):
    im = Image.new("RGB", (40, 20), "white")
    im.paste((0, 0, 0), (0, 0, 10, 20))         # a black band on the left, as stored
    exif = Image.Exif()
    exif[0x0112] = 6                              # "rotate 90 degrees clockwise to display"
    im.save(tmp_path / "turned.jpg", exif=exif, quality=95)
    ref = _ref(tmp_path / "turned.jpg")
    assert ref.size == (20, 40)
    pic = images.picture(ref, (20, 40), "cover")
    assert sum(pic.getpixel((10, 3))[:3]) < 150 and sum(pic.getpixel((10, 36))[:3]) > 600


def test_webp_and_svg_load(tmp_path):
    Image.new("RGBA", (30, 20), (0, 128, 0, 128)).save(tmp_path / "a.webp", lossless=True)
    ref = _ref(tmp_path / "a.webp")
    assert ref.format == "webp" and ref.size == (30, 20)
    svg = _ref(EXAMPLE / "icons" / "steal.svg")
    pic = images.picture(svg, (100, 100), "contain")
    assert pic.size == (100, 100) and pic.getpixel((0, 0))[3] == 0 and pic.getchannel("A").getbbox()


def test_cover_crops_and_contain_fits(tmp_path):
    Image.new("RGB", (200, 100), "red").save(tmp_path / "wide.png")
    ref = _ref(tmp_path / "wide.png")
    assert images.picture(ref, (50, 50), "cover").size == (50, 50)
    assert images.picture(ref, (50, 50), "contain").size == (50, 25)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=400))
def test_any_bytes_as_an_image_give_a_finding_or_an_image_never_a_crash(tmp_path, data):
    (tmp_path / "x.png").write_bytes(data)
    out = Collector("m.toml")
    ref = images.load_image("x.png", "deck.logo", tmp_path, out)
    assert (ref is None) == bool(out.errors)
    assert all(f.where == "deck.logo" for f in out.findings)


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=40),
       st.sampled_from(["href", "xlink:href"]))
def test_any_outside_reference_in_an_svg_is_refused(target, attr):
    """Whatever an href names, unless it is #id inside the file or a data: URI, the SVG is refused."""
    from xml.sax.saxutils import quoteattr

    svg = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 4 4">'
           f'<image {attr}={quoteattr(target)} width="4" height="4"/></svg>').encode()
    inside = target.strip().startswith(("#", "data:"))
    try:
        images.svg_check(svg, "x.svg")
        refused = False
    except images.ImageProblem as exc:
        refused = "outside its own file" in str(exc)
    assert refused == (not inside)
