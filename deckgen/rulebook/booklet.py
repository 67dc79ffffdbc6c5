"""Saddle-stitch imposition: the rulebook's half-size pages, 2-up on landscape sheets in booklet order.

The reading-order PDF (A5 pages for A4 sheets, half-letter pages for Letter) is padded with
blank pages to a multiple of four, then each sheet gets four pages: on its front the last
unplaced page on the left and the first on the right, on its back the next two the other way
round. Printed double-sided with a short-edge flip, folded in half and stapled on the fold,
the sheets read 1, 2, 3 ... in order.

pypdf places the pages (as form content, fonts and images kept once per sheet); ReportLab
cannot read a PDF back in. This module knows nothing of how the pages were made:
:func:`deckgen.rulebook.pdf.build_booklet` hands it the reading-order PDF.
"""

from __future__ import annotations

import io

from pypdf import PageObject, PdfReader, PdfWriter, Transformation
from pypdf.generic import NameObject

SHEETS = {"a4": (841.8898, 595.2756), "letter": (792.0, 612.0)}   # landscape sheet, points


def padded(n: int) -> int:
    """The page count rounded up to a multiple of four."""
    return -(-n // 4) * 4


def booklet_order(n: int) -> list[tuple[int, int]]:
    """(left, right) page numbers (1-based; pages past ``n`` are blank) for each sheet side,
    sheet 1 front, sheet 1 back, sheet 2 front ..."""
    total = padded(n)
    sides = []
    for i in range(total // 4):
        sides.append((total - 2 * i, 2 * i + 1))
        sides.append((2 * i + 2, total - 2 * i - 1))
    return sides


def impose(data: bytes, paper: str) -> tuple[bytes, int]:
    """The booklet: ``data``'s pages imposed 2-up in booklet order on landscape ``paper`` sheets,
    as (PDF bytes, number of sheet sides)."""
    reader = PdfReader(io.BytesIO(data))
    pages = list(reader.pages)
    sw, sh = SHEETS[paper]
    writer = PdfWriter()
    writer.pdf_header = reader.pdf_header       # the source's version (1.4: soft masks, output intents)
    for left, right in booklet_order(len(pages)):
        sheet = PageObject.create_blank_page(width=sw, height=sh)
        for number, x0 in ((left, 0.0), (right, sw / 2)):
            if number > len(pages):
                continue
            page = pages[number - 1]
            pw, ph = float(page.mediabox.width), float(page.mediabox.height)
            # centre the page in its half (A5 on A4 and half-letter on Letter fit exactly)
            sheet.merge_transformed_page(page, Transformation().translate(x0 + (sw / 2 - pw) / 2, (sh - ph) / 2))
        writer.add_page(sheet)
    root = reader.root_object
    for key in ("/OutputIntents", "/Lang"):
        if key in root:
            writer.root_object[NameObject(key)] = root[key].clone(writer)   # the source's colour intent and language
    info: dict[str, str] = {k: str(v) for k, v in (reader.metadata or {}).items()
                            if k in ("/Title", "/Author", "/Subject", "/Creator")}
    writer.add_metadata({**info, "/Producer": "deckgen (booklet imposition with pypdf)"})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue(), len(writer.pages)


