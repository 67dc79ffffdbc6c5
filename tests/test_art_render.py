"""Art on the faces: goldens of the example deck, the same pictures everywhere a face appears,
a cache that redraws exactly the faces whose images changed, one embedded image per distinct
face, and byte-identical builds."""

from __future__ import annotations

import hashlib
import io
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from deckgen import manifest
from deckgen.render import RenderSettings, render_deck, render_face
from deckgen.render.batch import face_key
from deckgen.render.faces import face_ids, face_spec
from tests.conftest import ROOT
from tests.test_render_golden import difference

GOLDENS = ROOT / "tests" / "goldens" / "woodland"
EXAMPLE = ROOT / "decks" / "examples" / "woodland"
FACES = ["fox-7", "frog-6", "owl-skip", "fish-acorns", "fox-steal", "night", "back"]
UPDATE = os.environ.get("DECKGEN_UPDATE_GOLDENS") == "1"


@pytest.fixture(scope="module")
def deck():
    return manifest.load_deck("woodland")


@pytest.mark.parametrize("face", FACES)
def test_example_face_matches_golden(deck, face):
    img = render_face(deck, face, RenderSettings(dpi=60))
    path = GOLDENS / f"{face}.png"
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        img.save(path, "PNG", optimize=True)
    with Image.open(path) as golden:
        assert golden.size == img.size
        mean, share = difference(golden, img)
    assert mean < 1.5 and share < 0.01, f"{face} differs from its golden (mean {mean:.2f}, {share:.1%} of pixels)"


def test_art_shows_in_the_oval_and_the_number_stays_readable(deck):
    from deckgen.render.draw import along

    settings = RenderSettings(dpi=100, bleed_mm=0)
    img = render_face(deck, "fox-7", settings)
    plain = render_face(manifest.load_deck("classic"), "red-7", settings)
    w, h = img.size
    frame = settings.frame(deck)
    # above the 7, where the plain card's oval is white, the fox's head shows (orange, not white)
    x, y = (round(v) for v in along(frame, frame.unit() * 40))
    assert plain.getpixel((x, y)) == (255, 255, 255)
    r, g, b = img.getpixel((x, y))
    assert r > 180 and b < 120, (r, g, b)
    # the number keeps its ink and dark outline: the digit's colour is the card colour
    assert deck.palette.get("fox").rgb in {img.getpixel((x, int(h * 0.5))) for x in range(w)}


def test_icon_replaces_the_symbol_in_centre_and_corners(deck):
    spec = face_spec(deck, "fox-steal", False)
    assert spec.icon is not None and spec.icon == deck.kinds["steal"].icon
    img = render_face(deck, "fox-steal", RenderSettings(dpi=100, bleed_mm=0))
    corner = img.crop((0, 0, img.width // 4, img.height // 6))
    # the icon's pale yellow card shows in the top-left corner index
    assert any(abs(r - 255) < 8 and abs(g - 224) < 12 and abs(b - 138) < 16 for r, g, b in corner.get_flattened_data())


def test_cache_key_changes_exactly_for_the_faces_using_a_changed_image(tmp_path):
    folder = tmp_path / "woodland"
    shutil.copytree(EXAMPLE, folder)
    settings = RenderSettings(dpi=40)

    def keys():
        d = manifest.load_deck(folder / "woodland.toml")
        frame = settings.frame(d)
        return {f: face_key(face_spec(d, f, False), frame, False) for f in face_ids(d)}

    before = keys()
    svg = folder / "art" / "frog.svg"
    svg.write_text(svg.read_text("utf-8").replace("#F4A7A7", "#F49797"), "utf-8")
    after = keys()
    changed = {f for f in before if before[f] != after[f]}
    assert changed == {f"frog-{v}" for v in range(10)}
    (folder / "icons" / "steal.svg").touch()            # same content: nothing to redraw
    assert keys() == after


@pytest.mark.slow
def test_the_same_picture_everywhere_a_face_appears(deck, tmp_path):
    """render, export cards, export tts, preview, the cards PDF and the rulebook all show the
    face drawn from the same spec: compared pixel for pixel (after the same resampling)."""
    from deckgen.build import BuildOptions, build_deck
    from deckgen.export.printshop import export_cards
    from deckgen.export.run import ExportRun
    from deckgen.export.services import load_services
    from deckgen.export.tts import export_tts
    from deckgen.render import preview
    from deckgen.selection import select

    cache = tmp_path / "cache"
    rendered = render_deck(deck, RenderSettings(dpi=60), tmp_path / "render", cache_dir=cache)
    direct = render_face(deck, "fox-0", RenderSettings(dpi=60))
    with Image.open(rendered.paths["fox-0"]) as im:
        assert difference(im, direct)[0] < 0.5
    # export cards: the print-shop face file (at the shop's 300 dpi: of the one card compared, and the back)
    service = load_services()["own-size"]        # the deck's own card size: no template resize
    shop = export_cards(select(deck, "fox-0"), service, tmp_path / "shop", run=ExportRun(cache_dir=cache))
    face_file = next(p for p in shop.images if p.stem == "fox-0")
    from deckgen.export.printshop import geometry

    geo = geometry(deck, service)          # the face as the export draws it: the shop's bleed and safe zone
    with Image.open(face_file) as im:
        expect = render_face(deck, "fox-0", RenderSettings(dpi=service.dpi, bleed_mm=geo.bleed_mm,
                                                           safe_mm=geo.render_safe_mm,
                                                           card_size=f"{geo.trim_mm[0]!r}mm x {geo.trim_mm[1]!r}mm"))
        # the shop's template size may round one pixel differently from trim + 2 x bleed
        assert abs(im.size[0] - expect.size[0]) <= 1 and abs(im.size[1] - expect.size[1]) <= 1
        expect = expect.resize(im.size, Image.Resampling.LANCZOS)
        assert difference(im, expect)[0] < 1.0
    # export tts: the first cell of the first sheet is the first card, fox-0
    one = select(deck, "fox-0")            # the faces compared below: fox-0 first, and the back
    tts = export_tts(one, tmp_path / "tts", run=ExportRun(cache_dir=cache), max_side=2048)
    with Image.open(tts.sheets[0].path) as sheet:
        cell = sheet.convert("RGB").crop((0, 0, *tts.cell_px))
    from deckgen.export.tts import tts_dpi
    from deckgen.render import card_size_mm

    small = render_face(deck, "fox-0", RenderSettings(dpi=tts_dpi(card_size_mm(deck.card_size), 2048), bleed_mm=0))
    assert difference(cell, small.resize(tts.cell_px, Image.Resampling.LANCZOS))[0] < 2.0
    # preview: the contact sheet's first thumbnail
    sheet_path = preview(one, RenderSettings(dpi=60), tmp_path / "preview.png")
    bleed = round(3 * 60 / 25.4)
    trimmed = direct.crop((bleed, bleed, direct.width - bleed, direct.height - bleed))
    th = round(trimmed.height * 180 / trimmed.width)
    with Image.open(sheet_path) as im:
        thumb = im.convert("RGB").crop((14, 64, 14 + 180, 64 + th))       # GAP, header height (render/sheet.py)
    expect = trimmed.resize((180, th), Image.Resampling.BOX)
    inner = (12, 12, 168, th - 12)                                       # the rounded corners left out
    assert difference(thumb.crop(inner), expect.crop(inner))[0] < 1.0
    # the cards PDF embeds exactly the rendered face PNGs (pass-through)
    build = build_deck("woodland", BuildOptions(out_dir=tmp_path / "out", dpi=60, cache_dir=cache))
    cards_pdf = next(o.path for o in build.outputs if o.kind == "cards")
    embedded = _image_digests(cards_pdf)
    with Image.open(rendered.paths["fox-0"]) as im:
        assert _digest(im.convert("RGB")) in embedded
    # the rulebook's card pictures come from render_face (no bleed, 100 dpi)
    book = next(o.path for o in build.outputs if o.kind == "rulebook")
    back = render_face(deck, "back", RenderSettings(dpi=100, bleed_mm=0))
    assert any(im.size == back.size and difference(im, back)[0] < 1.0 for im in _images(book))
    # and the logo on its cover, drawn by the same image code as the card back's
    from deckgen.images import picture
    from deckgen.rulebook.images import LOGO_MM

    side = round(LOGO_MM / 25.4 * 300)
    fonts = tuple(s.path for s in face_spec(deck, "back", False).fonts[::-1])
    expect = picture(deck.logo, (side, side), "contain", fonts)
    first_page = PdfReader(io.BytesIO(book.read_bytes())).pages[0]
    cover = [img.image for img in first_page.images if img.image.size == expect.size]
    flat = Image.new("RGB", expect.size, "white")
    flat.paste(expect.convert("RGB"), (0, 0), expect.getchannel("A"))
    assert any(difference(im.convert("RGBA").convert("RGB") if im.mode != "RGBA" else _on_white(im), flat)[0] < 2.0
               for im in cover), [im.size for im in cover]


def _on_white(im: Image.Image) -> Image.Image:
    flat = Image.new("RGB", im.size, "white")
    flat.paste(im.convert("RGB"), (0, 0), im.getchannel("A"))
    return flat


def _images(pdf: Path, keep_alpha: bool = False) -> Iterator[Image.Image]:
    """Each image the PDF holds, once (decoded as it is reached, so any() can stop early)."""
    reader = PdfReader(io.BytesIO(pdf.read_bytes()))
    seen = set()
    for page in reader.pages:
        for img in page.images:
            if img.indirect_reference and img.indirect_reference.idnum in seen:
                continue
            if img.indirect_reference:
                seen.add(img.indirect_reference.idnum)
            yield img.image if keep_alpha and img.image.mode == "RGBA" else img.image.convert("RGB")


def _image_digests(pdf: Path) -> list[str]:
    """One digest per embedded picture, its transparency included (the colour legend's shapes
    are one ink colour each, told apart by their alpha alone)."""
    return [_digest(im) for im in _images(pdf, keep_alpha=True)]


def _digest(im: Image.Image) -> str:
    return hashlib.sha1(b"%s:%s" % (im.mode.encode(), im.tobytes())).hexdigest()


@pytest.mark.slow
def test_each_distinct_face_is_embedded_once_and_builds_are_byte_identical(tmp_path):
    from deckgen.build import BuildOptions, build_deck

    # the first build may take faces, sheets and rulebooks from the session's cache (test_fonts builds
    # the same); the second draws everything in a cache of its own: the same bytes either way
    first = build_deck("woodland", BuildOptions(out_dir=tmp_path / "a", dpi=40))
    second = build_deck("woodland", BuildOptions(out_dir=tmp_path / "b", dpi=40, cache_dir=tmp_path / "cold"))
    for one, two in zip(first.outputs, second.outputs):
        assert one.path.read_bytes() == two.path.read_bytes(), one.kind
    cards = next(o.path for o in first.outputs if o.kind == "cards")
    digests = _image_digests(cards)
    deck = manifest.load_deck("woodland")
    assert len(digests) == len(set(digests)) == len(face_ids(deck)) == first.faces
    for book in (o.path for o in first.outputs if o.kind == "rulebook"):
        pics = _image_digests(book)
        assert len(pics) == len(set(pics))          # a face shown twice is stored once
    for fid in ("fox-3", "back"):
        a = render_face(deck, fid, RenderSettings(dpi=50))
        b = render_face(manifest.load_deck("woodland"), fid, RenderSettings(dpi=50))
        assert a.tobytes() == b.tobytes()
