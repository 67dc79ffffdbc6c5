"""Every kind of PDF deckgen writes, checked by tools that share nothing with the code that wrote
it: ``qpdf --check`` (structure; skipped where qpdf is not installed) and, read with pypdf, the
version in the header against the features the file uses (output intents and soft masks need
PDF 1.4)."""

from __future__ import annotations

import io
import shutil
import subprocess

import pypdf
import pytest
from PIL import Image

from deckgen import manifest
from deckgen.layout import LayoutOptions, calibration_pdf, cards_pdf_for_deck
from deckgen.selection import select

UNO = (56.0, 87.0)


def _faces(deck, folder):
    ids = [c.id for c in deck.cards] + ["back"] + [f for comp in deck.components for f in comp.faces]
    out = {}
    for i, face in enumerate(ids):
        out[face] = folder / f"{face}.png"
        Image.new("RGBA" if i % 3 == 0 else "RGB", (40, 60), (30 + i % 200, 120, 90)).save(out[face])
    return out


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory):
    """name -> bytes of one PDF of every kind."""
    folder = tmp_path_factory.mktemp("pdfs")
    deck = select(manifest.load_deck("flex-spectrum"), "red-1x3,blue-2x2,power x3")
    faces = _faces(deck, folder)
    out = {
        "cards": cards_pdf_for_deck(deck, faces, UNO, 3.0, LayoutOptions()).data,
        "cards-letter-full-bleed": cards_pdf_for_deck(deck, faces, UNO, 3.0,
                                                      LayoutOptions(paper="letter", fit="full-bleed")).data,
        "cards-fold": cards_pdf_for_deck(deck, faces, UNO, 3.0, LayoutOptions(layout="fold")).data,
        "cards-fronts": cards_pdf_for_deck(deck, faces, UNO, 3.0, LayoutOptions(backs="none")).data,
        "calibration": calibration_pdf("letter", "short", orientation="landscape"),
    }
    import dataclasses

    from deckgen.export import ExportRun, export_cards, get_service

    tiny = select(manifest.load_deck("classic"), "red-1x2")
    for sid in ("dtc-poker", "tgc-poker"):        # PDF/X-1a (CMYK) and RGB
        small = dataclasses.replace(get_service(sid), dpi=72, pixels=None)
        shop = export_cards(tiny, small, folder / sid, run=ExportRun(cache_dir=folder / "cache"))
        out[sid] = shop.pdf.read_bytes()
    from deckgen.rulebook import build_rulebook

    out["rulebook"] = build_rulebook(manifest.load_deck("classic"), "en", image_dpi=30)
    from deckgen.rulebook.booklet import impose

    out["booklet"] = impose(out["rulebook"], "a4")[0]
    return out


def _uses_pdf14(reader: pypdf.PdfReader) -> list[str]:
    """PDF 1.4 features found in the file."""
    found = []
    if "/OutputIntents" in reader.trailer["/Root"]:
        found.append("output intents")
    for page in reader.pages:
        xobjects = (page.get("/Resources") or {}).get("/XObject") or {}
        for ref in xobjects.values():
            obj = ref.get_object()
            if "/SMask" in obj:
                found.append("soft masks")
            if "/Group" in obj:
                found.append("transparency groups")
        if "/Group" in page:
            found.append("transparency groups")
    return sorted(set(found))


KINDS = ["cards", "cards-letter-full-bleed", "cards-fold", "cards-fronts", "calibration", "dtc-poker", "tgc-poker",
         "rulebook", "booklet"]


@pytest.mark.parametrize("kind", KINDS)
def test_the_header_declares_the_version_of_the_features_used(pdfs, kind):
    data = pdfs[kind]
    reader = pypdf.PdfReader(io.BytesIO(data))
    header = data[:9].decode("ascii")
    version = tuple(int(v) for v in header[5:8].split("."))
    features = _uses_pdf14(reader)
    assert ("output intents" in features) == (kind == "dtc-poker")      # only the PDF/X print file names a condition
    assert version >= (1, 4), f"{kind}: {header} but uses {', '.join(features)}"
    assert "/Version" not in reader.trailer["/Root"] or str(reader.trailer["/Root"]["/Version"]) >= "/1.4"


@pytest.mark.skipif(shutil.which("qpdf") is None, reason="qpdf is not installed")
@pytest.mark.parametrize("kind", KINDS)
def test_qpdf_check_is_clean(pdfs, kind, tmp_path):
    path = tmp_path / f"{kind}.pdf"
    path.write_bytes(pdfs[kind])
    run = subprocess.run(["qpdf", "--check", str(path)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "WARNING" not in run.stdout + run.stderr, run.stdout + run.stderr
    assert "No syntax or stream encoding errors found" in run.stdout
