"""The DriveThruCards print file is PDF/X-1a:2003, checked requirement by requirement with pypdf
(which shares nothing with the code that wrote it): PDF 1.4 at most, the PDF/X version key and
trapping state in the information dictionary, a document ID, one GTS_PDFX output intent with an
embedded CMYK output profile, TrimBox and BleedBox on every page, images in DeviceCMYK only,
no transparency of any kind, no RGB or ICC-based colour anywhere, every font embedded.
Other shops keep sRGB."""

from __future__ import annotations

import dataclasses
import io

import pypdf
import pytest
from pypdf.generic import ContentStream

from deckgen import manifest
from deckgen.export import ExportRun, export_cards, get_service
from deckgen.icc import CMYK_CONDITION, cmyk_profile
from deckgen.selection import select


@pytest.fixture(scope="module")
def dtc(tmp_path_factory):
    folder = tmp_path_factory.mktemp("dtc")
    deck = select(manifest.load_deck("flex-spectrum"), "red-1,power x1")
    svc = dataclasses.replace(get_service("dtc-poker"), dpi=100, pixels=None)
    res = export_cards(deck, svc, folder, run=ExportRun(cache_dir=folder / "cache"))
    return res, res.pdf.read_bytes()


def _walk(obj, seen=None):
    """Every dictionary reachable from ``obj`` (indirect objects once)."""
    seen = set() if seen is None else seen
    stack = [obj]
    while stack:
        o = stack.pop()
        if isinstance(o, pypdf.generic.IndirectObject):
            if o.idnum in seen:
                continue
            seen.add(o.idnum)
            o = o.get_object()
        if isinstance(o, pypdf.generic.DictionaryObject):
            yield o
            stack.extend(o.values())
        elif isinstance(o, pypdf.generic.ArrayObject):
            stack.extend(o)


def test_dtc_poker_is_pdfx_1a_2003(dtc):
    res, data = dtc
    _assert_pdfx_1a(data, boxes=True)


def _assert_pdfx_1a(data: bytes, boxes: bool) -> None:
    """Each PDF/X-1a:2003 requirement, read with pypdf; ``boxes``: a shop's card file, with a BleedBox too."""
    assert data.startswith(b"%PDF-1.") and int(data[7:8]) <= 4          # PDF/X-1a:2003 is PDF 1.4 at most
    reader = pypdf.PdfReader(io.BytesIO(data))
    info = reader.trailer["/Info"].get_object()
    assert info["/GTS_PDFXVersion"] == "PDF/X-1a:2003"
    assert info["/Trapped"] in ("/False", "/True")
    assert info["/Title"] and info["/CreationDate"] and info["/ModDate"]
    assert "/ID" in reader.trailer
    intents = reader.trailer["/Root"]["/OutputIntents"]
    assert [str(i.get_object()["/S"]) for i in intents] == ["/GTS_PDFX"]
    intent = intents[0].get_object()
    assert intent["/OutputConditionIdentifier"] == CMYK_CONDITION
    profile = intent["/DestOutputProfile"].get_object()
    assert profile["/N"] == 4
    icc = profile.get_data()
    assert icc == cmyk_profile() and icc[12:20] == b"prtrCMYK" and icc[36:40] == b"acsp"
    for page in reader.pages:
        media = [float(v) for v in page.mediabox]
        bleed = [float(v) for v in page["/BleedBox"]] if boxes else media
        trim = [float(v) for v in page["/TrimBox"]]
        assert media[0] <= bleed[0] <= trim[0] < trim[2] <= bleed[2] <= media[2]
        assert media[1] <= bleed[1] <= trim[1] < trim[3] <= bleed[3] <= media[3]
        assert "/Group" not in page
        for args, op in ContentStream(page.get_contents(), reader).operations:
            assert op not in (b"rg", b"RG", b"sc", b"SC", b"scn", b"SCN", b"cs", b"CS", b"BI", b"sh"), op
            if op in (b"k", b"K"):                     # vector colours within the ink limit too
                assert sum(float(v) for v in args) <= 2.4 + 1e-6, args
        res_ = page.get("/Resources") or {}
        for gs in (res_.get("/ExtGState") or {}).values():
            gs = gs.get_object()
            assert float(gs.get("/ca", 1)) == 1 and float(gs.get("/CA", 1)) == 1
            assert gs.get("/SMask", "/None") == "/None" and gs.get("/BM", "/Normal") in ("/Normal", "/Compatible")
        images = [x.get_object() for x in (res_.get("/XObject") or {}).values()]
        assert images or not boxes
        for im in images:
            assert im["/Subtype"] == "/Image" and im["/ColorSpace"] == "/DeviceCMYK" and im["/BitsPerComponent"] == 8
            assert "/SMask" not in im and "/Mask" not in im
    for d in _walk(reader.trailer["/Root"]):
        if d.get("/Subtype") == "/Image":            # every image, page level or inside a form
            assert "/SMask" not in d and d.get("/ColorSpace") in ("/DeviceCMYK", "/DeviceGray"), d.get("/ColorSpace")
        assert d.get("/Type") != "/Font" or "/FontDescriptor" not in d or any(
            k in d["/FontDescriptor"].get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3"))
        for v in d.values():
            v = v.get_object() if isinstance(v, pypdf.generic.IndirectObject) else v
            if isinstance(v, pypdf.generic.ArrayObject) and v and v[0] == "/ICCBased":
                raise AssertionError("an ICC-based colour space (PDF/X-1a allows device CMYK only)")
            assert v not in ("/DeviceRGB", "/CalRGB", "/Lab")


def test_dtc_images_are_cmyk_of_the_faces(dtc):
    """The CMYK data is the faces' colours: white paper stays without ink, a red face gets magenta and yellow."""
    res, data = dtc
    reader = pypdf.PdfReader(io.BytesIO(data))
    for page in reader.pages:
        for x in page["/Resources"]["/XObject"].values():
            im = x.get_object().decode_as_image()
            assert im.mode == "CMYK"
    first = reader.pages[1]["/Resources"]["/XObject"]            # back first, then the red 1's front
    im = next(iter(first.values())).get_object().decode_as_image()
    c, m, y, k = im.getpixel((2, 2))                             # the red card's corner: red
    assert m > 150 and y > 150 and c < 60


def _max_total_ink(data: bytes) -> float:
    """The most ink any pixel of any image in the PDF asks for, C + M + Y + K in %, read with pypdf."""
    from PIL import ImageMath

    reader = pypdf.PdfReader(io.BytesIO(data))
    most, seen = 0, set()
    for page in reader.pages:
        for ref in (page["/Resources"].get("/XObject") or {}).values():
            if ref.idnum in seen:
                continue
            seen.add(ref.idnum)
            im = ref.get_object().decode_as_image()
            assert im.mode == "CMYK"
            c, m, y, k = (band.convert("I") for band in im.split())
            total = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"], c=c, m=m, y=y, k=k)
            most = max(most, total.getextrema()[1])
    return most * 100 / 255


def test_dtc_total_ink_is_within_the_shops_240_percent(dtc, tmp_path):
    """Every pixel of every image in the DriveThruCards PDF carries at most 240 % ink (the preset's ink_limit,
    what the shop asks for); the same faces without the limit reach the SWOP condition's ~300 % in the black."""
    res, data = dtc
    assert get_service("dtc-poker").ink_limit == 240
    limited = _max_total_ink(data)
    assert 230 <= limited <= 240, limited
    deck = select(manifest.load_deck("flex-spectrum"), "red-1,power x1")
    loose = dataclasses.replace(get_service("dtc-poker"), dpi=100, pixels=None, ink_limit=400)
    free = _max_total_ink(export_cards(deck, loose, tmp_path, run=ExportRun(cache_dir=tmp_path / "cache")).pdf.read_bytes())
    assert free > 245, free          # the limit bites: without it the same faces go over 240 %


@pytest.mark.parametrize("value,message", [("500%", "from 100% to 400%"), ("lots", "from 100% to 400%")])
def test_a_bad_ink_limit_is_refused_with_its_key(tmp_path, value, message):
    from deckgen.errors import DeckgenError
    from deckgen.export.services import load_services

    path = tmp_path / "services.toml"
    path.write_text(f'[cmyk]\ndpi = 300\nbleed = "3mm"\npdf = "pdfx-1a"\nink_limit = "{value}"\n\n'
                    '[rgb]\ndpi = 300\nbleed = "3mm"\nink_limit = "240%"\n', encoding="utf-8")
    with pytest.raises(DeckgenError) as exc:
        load_services(path)
    found = {f.where: f.message for f in exc.value.findings}
    assert message in found["cmyk.ink_limit"] and "CMYK files" in found["rgb.ink_limit"]


def test_other_shops_keep_srgb(tmp_path):
    deck = select(manifest.load_deck("classic"), "red-1")
    svc = dataclasses.replace(get_service("tgc-poker"), dpi=72, pixels=None)
    res = export_cards(deck, svc, tmp_path, run=ExportRun(cache_dir=tmp_path / "cache"))
    reader = pypdf.PdfReader(res.pdf)
    assert "/GTS_PDFXVersion" not in reader.trailer["/Info"].get_object()
    space = next(iter(reader.pages[0]["/Resources"]["/XObject"].values())).get_object()["/ColorSpace"]
    assert space[0] == "/ICCBased"


def test_a_rulebook_for_a_pdfx_shop_is_pdfx_1a_without_soft_masks_or_rgb(tmp_path):
    """deckgen rulebook --service dtc-poker: the rulebook as DriveThruCards takes a file: every requirement
    of PDF/X-1a:2003 (no soft mask, no RGB or ICC-based colour, CMYK images, TrimBox, intent and key), every
    image pixel and every vector colour within 240 % ink; the rulebook made for home printing keeps its soft
    masks (its card pictures' round corners) and sRGB."""
    from click.testing import CliRunner

    from deckgen.cli import main

    out = tmp_path / "rules.pdf"
    res = CliRunner().invoke(main, ["rulebook", "flex-spectrum", "--lang", "en", "--service", "dtc-poker", "-o", str(out)])
    assert res.exit_code == 0, res.output
    data = out.read_bytes()
    _assert_pdfx_1a(data, boxes=False)
    assert 100 < _max_total_ink(data) <= 240
    home = tmp_path / "home.pdf"
    assert CliRunner().invoke(main, ["rulebook", "flex-spectrum", "--lang", "en", "-o", str(home)]).exit_code == 0
    reader = pypdf.PdfReader(home)
    masks = [x.get_object() for p in reader.pages for x in (p["/Resources"].get("/XObject") or {}).values()
             if "/SMask" in x.get_object()]
    assert masks and "/OutputIntents" not in reader.trailer["/Root"]
    refused = CliRunner().invoke(main, ["rulebook", "classic", "--service", "dtc-poker", "--booklet"])
    assert refused.exit_code == 2 and "--booklet" in refused.output


def test_a_pdfx_intent_needs_an_output_profile_and_the_version_key():
    """Output intents only where they are honest: GTS_PDFX with an ICC v2 output-device profile and the
    PDF/X version key; a display profile (the sRGB one every image carries) or a missing key is refused."""
    from deckgen.icc import srgb_profile
    from deckgen.pdfkit import CMYK_INTENT, OutputIntent, check_intent

    check_intent(CMYK_INTENT, "PDF/X-1a:2003")
    display = OutputIntent("sRGB IEC61966-2.1", "sRGB", srgb_profile, 3, "x")
    for intent, key in ((display, "PDF/X-1a:2003"), (CMYK_INTENT, None)):
        with pytest.raises(ValueError):
            check_intent(intent, key)
