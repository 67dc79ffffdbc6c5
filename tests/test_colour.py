"""Colour and preflight: the sRGB profile in every PNG and PDF deckgen writes, the PDFs' output
intent, ICC-tagged images and distinct font subset tags, read back with Pillow and pypdf."""

from __future__ import annotations

import io
import zlib

import pypdf
import pytest
from PIL import Image, ImageCms

from deckgen import manifest
from deckgen.icc import srgb_profile
from deckgen.layout import LayoutOptions, calibration_pdf, cards_pdf_for_deck
from deckgen.render.pngfile import encode
from deckgen.selection import select


def test_profile_is_a_v2_srgb_profile_equal_to_littlecms_srgb():
    data = srgb_profile()
    assert data == srgb_profile() and len(data) == int.from_bytes(data[:4], "big")
    prof = ImageCms.ImageCmsProfile(io.BytesIO(data))
    assert prof.profile.profile_description == "sRGB IEC61966-2.1"
    assert prof.profile.version == pytest.approx(2.1)
    assert data[36:40] == b"acsp" and data[12:20] == b"mntrRGB "
    transform = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), prof, "RGB", "RGB")
    swatch = Image.new("RGB", (6, 1))
    colours = [(255, 0, 0), (0, 160, 0), (20, 40, 200), (200, 200, 200), (5, 5, 5), (250, 220, 30)]
    swatch.putdata(colours)
    out = ImageCms.applyTransform(swatch, transform)
    for a, b in zip(colours, (out.getpixel((i, 0)) for i in range(6))):
        assert max(abs(x - y) for x, y in zip(a, b)) <= 1


def test_face_pngs_carry_the_profile():
    png = encode(Image.new("RGB", (8, 4), (200, 30, 30)), 300, {"deckgen:face": "red-5"})
    with Image.open(io.BytesIO(png)) as im:
        assert im.info["icc_profile"] == srgb_profile()
        assert im.getpixel((0, 0)) == (200, 30, 30)


def _check_pdf(data: bytes) -> pypdf.PdfReader:
    reader = pypdf.PdfReader(io.BytesIO(data))
    # no PDF/X or PDF/A output intent pointing at a display profile: these files claim neither standard,
    # and their colour is defined by the ICC-tagged images below
    assert "/OutputIntents" not in reader.trailer["/Root"]
    tags = {}
    for page in reader.pages:
        res = page.get("/Resources") or {}
        for font in (res.get("/Font") or {}).values():
            name = str(font.get_object()["/BaseFont"])
            tag, _, face = name.lstrip("/").partition("+")
            assert len(tag) == 6 and tag.isupper()
            tags.setdefault(tag, set()).add(face)
        for xobj in (res.get("/XObject") or {}).values():
            xobj = xobj.get_object()
            if xobj.get("/Subtype") != "/Image":
                continue
            space = xobj["/ColorSpace"]
            assert space[0] == "/ICCBased", space
            assert space[1].get_object().get_data() == srgb_profile()
            assert space[1].get_object()["/N"] == 3
    assert tags and all(len(faces) == 1 for faces in tags.values()), f"a subset tag shared by fonts: {tags}"
    assert "AAAAAA" not in tags
    return reader


def test_card_sheets_have_output_intent_icc_images_and_distinct_subset_tags(tmp_path):
    deck = select(manifest.load_deck("classic"), "red-5,wild")
    faces = {}
    for i, face in enumerate(["red-5", "wild", "back"]):
        faces[face] = tmp_path / f"{face}.png"
        Image.new("RGB", (124, 184), (40 + 60 * i, 90, 160)).save(faces[face])
    data = cards_pdf_for_deck(deck, faces, (56.0, 87.0), 3.0, LayoutOptions()).data
    assert data == cards_pdf_for_deck(deck, faces, (56.0, 87.0), 3.0, LayoutOptions()).data    # still deterministic
    reader = _check_pdf(data)
    assert len(reader.pages) == 4


def test_calibration_has_the_output_intent():
    _check_pdf(calibration_pdf("letter", "short"))


@pytest.mark.slow
def test_rulebook_has_output_intent_icc_images_and_distinct_subset_tags():
    from deckgen.rulebook import build_rulebook

    deck = manifest.load_deck("classic")
    data = build_rulebook(deck, "en", image_dpi=30)
    reader = _check_pdf(data)
    assert any("/XObject" in (p.get("/Resources") or {}) for p in reader.pages)


def test_export_pngs_carry_the_profile():
    from deckgen.export.images import encode as export_encode

    for fmt in ("png", "jpeg"):
        with Image.open(io.BytesIO(export_encode(Image.new("RGB", (4, 4), "red"), fmt, 300))) as im:
            assert im.info["icc_profile"] == srgb_profile()


def test_profile_stream_is_compressed_once_per_pdf():
    from deckgen.rulebook import build_rulebook

    data = build_rulebook(manifest.load_deck("classic"), "en", image_dpi=30)      # many images, one profile
    compressed = zlib.compress(srgb_profile(), 9)
    assert data.count(compressed[:64]) == 1
    assert zlib.compress(srgb_profile(), 9)[:64] not in calibration_pdf("a4")      # no image, no profile
