"""What every PDF deckgen writes carries for print shops and preflight tools.

:func:`prepare` (call it once on a ReportLab canvas, before saving) gives the document

- an sRGB output intent (``/OutputIntents`` in the catalog, with :mod:`deckgen.icc`'s profile
  embedded once), so a shop's RIP converts from a known source;
- ICC-tagged images: every RGB image XObject is written with ``[/ICCBased <sRGB>]`` instead of
  ``/DeviceRGB`` (the card faces in :mod:`deckgen.layout.pdfimage` directly; images ReportLab
  writes itself, such as the rulebook's, through :func:`_image_format`);
- distinct font subset tags: ReportLab names subset *n* of every font ``AAAAAA+`` ... (its
  ``ttfonts.SUBSETN``), so two fonts in one file share a tag, which preflight tools flag.
  :func:`_add_objects` wraps ``TTFont.addObjects`` to derive each tag from the font's name and
  the subset number (a hash, made unique within the document), so tags stay deterministic.

Everything is deterministic: the same inputs still give byte-identical files.
"""

from __future__ import annotations

import hashlib
import zlib
from typing import Any

from reportlab.pdfbase import pdfdoc, ttfonts
from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFStream, PDFString

from deckgen.icc import DESCRIPTION, srgb_profile

_ICC_NAME = "DeckgenICCsRGB"
_FLAG = "_deckgen_srgb"


def icc_reference(document: Any) -> Any:
    """The indirect reference to the document's one sRGB ICC stream (registered on first use)."""
    stream = getattr(document, _FLAG, None)
    if stream is None:
        data = zlib.compress(srgb_profile(), 9)
        stream = PDFStream(PDFDictionary({"N": 3, "Alternate": PDFName("DeviceRGB"), "Filter": PDFName("FlateDecode"),
                                          "Length": len(data)}), data, filters=())
        setattr(document, _FLAG, stream)
    return document.Reference(stream, _ICC_NAME)


def icc_colorspace(document: Any) -> PDFArray:
    return PDFArray([PDFName("ICCBased"), icc_reference(document)])


def prepare(canvas: Any) -> None:
    """Give the canvas's document an sRGB output intent and ICC-tagged images (idempotent)."""
    _install()
    doc = canvas._doc
    if getattr(doc, "_deckgen_prepared", False):
        return
    doc._deckgen_prepared = True
    ref = icc_reference(doc)
    intents = []
    for kind in ("GTS_PDFX", "GTS_PDFA1"):
        intents.append(PDFDictionary({
            "Type": PDFName("OutputIntent"), "S": PDFName(kind),
            "OutputConditionIdentifier": PDFString(DESCRIPTION), "Info": PDFString(DESCRIPTION),
            "RegistryName": PDFString("http://www.color.org"), "DestOutputProfile": ref}))
    catalog = doc.Catalog
    catalog.OutputIntents = PDFArray(intents)
    if "OutputIntents" not in catalog.__NoDefault__:
        catalog.__NoDefault__ = [*catalog.__NoDefault__, "OutputIntents"]


# ---- the two ReportLab hooks, installed once per process ----

_original_image_format = pdfdoc.PDFImageXObject.format
_original_add_objects = ttfonts.TTFont.addObjects
_installed = False


def _image_format(self: Any, document: Any) -> bytes:
    """ReportLab's image XObject, with the sRGB ICC colour space in a prepared document."""
    if getattr(document, _FLAG, None) is None or self.colorSpace != "DeviceRGB":
        return _original_image_format(self, document)
    s = PDFStream(content=self.streamContent)
    d = s.dictionary
    d["Type"] = PDFName("XObject")
    d["Subtype"] = PDFName("Image")
    d["Width"] = self.width
    d["Height"] = self.height
    d["BitsPerComponent"] = self.bitsPerComponent
    d["ColorSpace"] = icc_colorspace(document)
    if getattr(self, "_decode", None):
        d["Decode"] = PDFArray(self._decode)
    d["Filter"] = PDFArray(map(PDFName, self._filters))
    d["Length"] = len(self.streamContent)
    if self.mask:
        d["Mask"] = PDFArray(self.mask)
    if getattr(self, "smask", None):
        d["SMask"] = self.smask
    return s.format(document)


def subset_tag(font_name: str, n: int, taken: set[bytes]) -> bytes:
    """Six capital letters for subset ``n`` of ``font_name``, unlike every tag in ``taken``."""
    salt = 0
    while True:
        digest = hashlib.sha256(f"{font_name}/{n}/{salt}".encode()).digest()
        tag = bytes(65 + b % 26 for b in digest[:6])
        if tag not in taken:
            taken.add(tag)
            return tag
        salt += 1


def _add_objects(self: Any, doc: Any) -> Any:
    taken = doc.__dict__.setdefault("_deckgen_subset_tags", set())
    saved = ttfonts.SUBSETN
    ttfonts.SUBSETN = lambda n, *_: subset_tag(self.fontName, n, taken)
    try:
        return _original_add_objects(self, doc)
    finally:
        ttfonts.SUBSETN = saved


def _install() -> None:
    global _installed
    if _installed:
        return
    pdfdoc.PDFImageXObject.format = _image_format
    ttfonts.TTFont.addObjects = _add_objects
    _installed = True
