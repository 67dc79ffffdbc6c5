"""ReportLab pieces every deckgen PDF is made with, through ReportLab's public API and subclasses
(nothing of ReportLab is patched, so nothing changes for other code in the process):

- :class:`PrintCanvas`: the canvas of the card sheets, calibration sheet, shop files and rulebooks.
  It writes PDF 1.4 (the version of soft masks and output intents) and the images it draws in
  the sRGB ICC colour space (``[/ICCBased <sRGB>]``, through :class:`FlateImage`), transparency
  as a soft mask. Colour is defined by those ICC-tagged images, so a file carries an output
  intent only where its purpose needs one: a PDF/X print file names its printing condition (a
  GTS_PDFX intent with the condition's output profile and the PDF/X version key, :func:`prepare`);
  home-printing sheets and rulebooks, which claim no PDF/X or PDF/A conformance, carry none;
- :class:`TaggedTTFont`: the TrueType font class :mod:`deckgen.fonts` registers. ReportLab names
  subset *n* of every font alike (``AAAAAA+``, ``AAAAAB+`` ...), so two fonts in one file share a
  tag, which preflight tools flag; this class derives each tag from the font's name and the
  subset number instead (:func:`subset_tag`).

Everything is deterministic: the same inputs give byte-identical files.
"""

from __future__ import annotations

import hashlib
import inspect
import io
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportlab.pdfbase import pdfdoc
from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFImageXObject, PDFName, PDFObject, PDFStream, PDFString
from reportlab.pdfbase.ttfonts import TTFont, makeToUnicodeCMap
from reportlab.pdfgen.canvas import Canvas

from deckgen.icc import CMYK_CONDITION, CMYK_INFO, cmyk_profile, srgb_profile

PDF_VERSION = (1, 4)
_ICC_NAME = "DeckgenICCsRGB"


# ---------------------------------------------------------------- colour


def icc_reference(document: Any) -> Any:
    """The indirect reference to the document's one sRGB ICC stream (registered on first use)."""
    stream = document.idToObject.get(_ICC_NAME)
    if stream is None:
        data = zlib.compress(srgb_profile(), 9)
        stream = PDFStream(PDFDictionary({"N": 3, "Alternate": PDFName("DeviceRGB"), "Filter": PDFName("FlateDecode"),
                                          "Length": len(data)}), data, filters=())
    return document.Reference(stream, _ICC_NAME)


def icc_colorspace(document: Any) -> PDFArray:
    return PDFArray([PDFName("ICCBased"), icc_reference(document)])


@dataclass(frozen=True)
class OutputIntent:
    """The printing condition a document's colours are meant for, with the profile that describes it."""

    identifier: str                  # OutputConditionIdentifier (the ICC registry's name where there is one)
    info: str
    profile: Callable[[], bytes]
    components: int                  # 3 RGB, 4 CMYK
    name: str                        # the profile stream's name in the document
    kinds: tuple[str, ...] = ("GTS_PDFX",)


CMYK_INTENT = OutputIntent(CMYK_CONDITION, CMYK_INFO, cmyk_profile, 4, "DeckgenICCcmyk")   # PDF/X-1a print files


def check_intent(intent: OutputIntent, pdfx: str | None) -> None:
    """A PDF/X output intent needs the PDF/X version key and an output-device ('prtr') profile of ICC
    version 2 (what PDF 1.4 reads); a programming error otherwise, not bad input."""
    profile = intent.profile()
    if "GTS_PDFX" in intent.kinds and (not pdfx or profile[12:16] != b"prtr" or profile[8] != 2):
        raise ValueError(f"a GTS_PDFX output intent needs a PDF/X version key and an ICC v2 output profile "
                         f"({intent.identifier}: class {profile[12:16]!r}, version {profile[8]}, key {pdfx!r})")


def _profile_reference(document: Any, intent: OutputIntent) -> Any:
    if intent.name == _ICC_NAME:
        return icc_reference(document)
    stream = document.idToObject.get(intent.name)
    if stream is None:
        data = zlib.compress(intent.profile(), 9)
        alternate = {3: "DeviceRGB", 4: "DeviceCMYK", 1: "DeviceGray"}[intent.components]
        stream = PDFStream(PDFDictionary({"N": intent.components, "Alternate": PDFName(alternate),
                                          "Filter": PDFName("FlateDecode"), "Length": len(data)}), data, filters=())
    return document.Reference(stream, intent.name)


class _OutputIntents(PDFObject):  # type: ignore[misc]  # reportlab ships no type stubs
    """The catalog's /OutputIntents, built when the document is written."""

    def __init__(self, intent: OutputIntent):
        self.intent = intent

    def format(self, document: Any) -> bytes:
        i = self.intent
        ref = _profile_reference(document, i)
        out: bytes = PDFArray([PDFDictionary({
            "Type": PDFName("OutputIntent"), "S": PDFName(kind),
            "OutputConditionIdentifier": PDFString(i.identifier), "OutputCondition": PDFString(i.info),
            "Info": PDFString(i.info), "RegistryName": PDFString("http://www.color.org"), "DestOutputProfile": ref})
            for kind in i.kinds]).format(document)
        return out


class _PdfxInfo(pdfdoc.PDFInfo):  # type: ignore[misc]  # reportlab ships no type stubs
    """ReportLab's document information dictionary with the PDF/X version key."""

    pdfx = "PDF/X-1a:2003"

    def format(self, document: Any) -> bytes:
        plain: bytes = super().format(document)   # << ... >>: the same entries, then the version
        version: bytes = PDFString(self.pdfx).format(document)
        return plain[:plain.rindex(b">>")] + b"/GTS_PDFXVersion " + version + b" >>"


def prepare(canvas: Canvas, intent: OutputIntent | None = None, pdfx: str | None = None) -> None:
    """Make a canvas's document declare PDF 1.4; with ``intent``, give it that output intent, and with
    ``pdfx`` (e.g. ``"PDF/X-1a:2003"``) the PDF/X version key (:func:`check_intent`). Idempotent.

    ReportLab's catalog writes the keys listed in its instance's ``__NoDefault__`` (its own
    comment: "to override, set as attributes"); the list is extended on this document's
    catalog only, and the information dictionary is replaced on this document only."""
    doc = canvas._doc
    doc.ensureMinPdfVersion("transparency")       # ReportLab's name for its PDF 1.4 features
    catalog = doc.Catalog
    if intent is None or getattr(catalog, "OutputIntents", None) is not None:
        return
    check_intent(intent, pdfx)
    catalog.__NoDefault__ = [*catalog.__NoDefault__, "OutputIntents"]
    canvas.setCatalogEntry("OutputIntents", _OutputIntents(intent))
    if pdfx:
        info = _PdfxInfo()
        info.__dict__.update(doc.info.__dict__)
        info.pdfx = pdfx
        doc.info = info


# ---------------------------------------------------------------- images


@dataclass(frozen=True)
class ImageData:
    width: int
    height: int
    colors: int               # 1 grey, 3 RGB (sRGB), 4 CMYK (the document's output intent)
    stream: bytes             # FlateDecode data
    predictor: bool           # PNG predictors in the data (pass-through)
    digest: str
    alpha: bytes = b""        # FlateDecode 8-bit alpha (a soft mask), if the image has transparency


class FlateImage(PDFImageXObject):  # type: ignore[misc]  # reportlab ships no type stubs
    """An image XObject whose stream is already Flate-encoded (optionally with PNG predictors),
    RGB in the document's sRGB ICC colour space, with an optional soft mask."""

    def __init__(self, name: str, img: ImageData):
        super().__init__(name)
        self.width, self.height = img.width, img.height
        self.bitsPerComponent = 8
        self.colorSpace = {3: "DeviceRGB", 4: "DeviceCMYK"}.get(img.colors, "DeviceGray")
        self.streamContent = img.stream
        self._filters = ("FlateDecode",)
        self.image = img

    def format(self, document: Any) -> bytes:
        img = self.image
        d = PDFDictionary()
        d["Type"] = PDFName("XObject")
        d["Subtype"] = PDFName("Image")
        d["Width"] = img.width
        d["Height"] = img.height
        d["BitsPerComponent"] = 8
        d["ColorSpace"] = (icc_colorspace(document) if img.colors == 3
                           else PDFName("DeviceCMYK" if img.colors == 4 else "DeviceGray"))
        d["Filter"] = PDFName("FlateDecode")
        if img.predictor:
            d["DecodeParms"] = PDFDictionary({"Predictor": 15, "Colors": img.colors,
                                              "BitsPerComponent": 8, "Columns": img.width})
        if img.alpha:
            mask = PDFStream(PDFDictionary({"Type": PDFName("XObject"), "Subtype": PDFName("Image"),
                                            "Width": img.width, "Height": img.height, "BitsPerComponent": 8,
                                            "ColorSpace": PDFName("DeviceGray"), "Filter": PDFName("FlateDecode")}),
                             img.alpha, filters=())
            d["SMask"] = document.Reference(mask, "SMask" + img.digest[:16])
        out: bytes = PDFStream(d, self.streamContent, filters=()).format(document)
        return out


def pil_image_data(im: Any, digest: str | None = None) -> ImageData:
    """Any Pillow image as RGB (or grey) ImageData; transparency kept as a soft mask."""
    alpha = b""
    if im.mode in ("RGBA", "LA", "PA", "P") or "transparency" in im.info:
        rgba = im.convert("RGBA")
        a = rgba.getchannel("A")
        if a.getextrema() != (255, 255):
            alpha = zlib.compress(a.tobytes(), 6)
        im = rgba.convert("RGB")
    elif im.mode not in ("RGB", "L", "CMYK"):
        im = im.convert("RGB")
    colors = {"L": 1, "CMYK": 4}.get(im.mode, 3)
    raw = im.tobytes()
    if digest is not None:
        return ImageData(im.width, im.height, colors, zlib.compress(raw, 6), False, digest, alpha)
    digest = hashlib.sha1(raw + alpha + f"{im.width}x{im.height}".encode()).hexdigest()
    key = f"{digest}/{colors}"
    stream = _FLATE.get(key)
    if stream is None:
        stream = zlib.compress(raw, 6)
        if len(_FLATE) >= FLATE_KEPT:
            _FLATE.pop(next(iter(_FLATE)))
        _FLATE[key] = stream
    return ImageData(im.width, im.height, colors, stream, False, digest, alpha)


# The Flate streams of the last images compressed, by content (a rulebook's card pictures are
# the same in every language: compressing them was most of typesetting the second one).
FLATE_KEPT = 256
_FLATE: dict[str, bytes] = {}


def register_image(canvas: Canvas, img: ImageData) -> str:
    """Add the image to the document once; returns the name to pass to ``canvas.doForm``."""
    name = "face" + img.digest[:16]
    if not canvas.hasForm(name):
        canvas._doc.addForm(name, FlateImage(name, img))
    return name


def _pillow(image: Any) -> Any:
    """The Pillow image behind a drawImage argument (a path, a file object, a Pillow image or an
    ImageReader of a file), or None."""
    from PIL import Image
    from reportlab.lib.utils import ImageReader

    if isinstance(image, Image.Image):
        return image
    if isinstance(image, ImageReader):
        image = getattr(image, "fp", None)          # the file's bytes, kept by ReportLab (None for Pillow images)
        if image is None:
            return None
    if isinstance(image, (str, Path)):
        with Image.open(image) as im:
            im.load()
            return im
    if isinstance(image, io.IOBase) or hasattr(image, "read"):
        pos = image.tell()
        try:
            with Image.open(image) as im:
                im.load()
                return im
        finally:
            image.seek(pos)
    return None


_DRAW_IMAGE = inspect.signature(Canvas.drawImage)


def cmyk_colour(ink_limit: float | None) -> Callable[[Any], Any]:
    """ReportLab's ``enforceColorSpace`` hook for a CMYK print file: every colour set on the canvas
    becomes CMYK for the output condition (deckgen.icc.to_cmyk, within ``ink_limit`` %); a neutral
    grey becomes black ink alone, so text stays sharp whatever the press's registration."""
    from reportlab.lib.colors import CMYKColor, toColor

    from deckgen.icc import to_cmyk

    seen: dict[tuple[float, float, float], Any] = {}

    def convert(colour: Any) -> Any:
        c = toColor(colour)
        if isinstance(c, CMYKColor):
            return c
        rgb = (round(c.red, 4), round(c.green, 4), round(c.blue, 4))
        if rgb not in seen:
            if rgb[0] == rgb[1] == rgb[2]:
                seen[rgb] = CMYKColor(0, 0, 0, 1 - rgb[0])
            else:
                from PIL import Image

                px = to_cmyk(Image.new("RGB", (1, 1), tuple(round(v * 255) for v in rgb)), ink_limit).getpixel((0, 0))
                seen[rgb] = CMYKColor(*(v / 255 for v in px))
        return seen[rgb]

    return convert


def flat_cmyk(im: Any, ink_limit: float | None) -> Any:
    """A Pillow image as CMYK for the output condition, any transparency flattened onto white paper
    (PDF/X-1a allows no soft mask)."""
    from PIL import Image

    from deckgen.icc import to_cmyk

    if im.mode == "CMYK":
        return im
    if im.mode in ("RGBA", "LA", "PA", "P") or "transparency" in im.info:
        rgba = im.convert("RGBA")
        paper = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        im = Image.alpha_composite(paper, rgba)
    return to_cmyk(im.convert("RGB"), ink_limit)


class PrintCanvas(Canvas):  # type: ignore[misc]  # reportlab ships no type stubs
    """ReportLab's canvas writing PDF 1.4 with ICC-tagged images (and an output intent when given one).

    With a CMYK ``intent`` (a PDF/X-1a print file) it draws in CMYK alone: every colour through
    :func:`cmyk_colour`, every image through :func:`flat_cmyk` (no soft masks), within ``ink_limit``
    %, with a TrimBox on every page (the page itself, unless the caller sets another)."""

    def __init__(self, *args: Any, intent: OutputIntent | None = None, pdfx: str | None = None,
                 ink_limit: float | None = None, **kw: Any):
        kw.setdefault("pdfVersion", PDF_VERSION)
        self._cmyk = intent is not None and intent.components == 4
        self._ink_limit = ink_limit
        if self._cmyk:
            kw["enforceColorSpace"] = cmyk_colour(ink_limit)
        super().__init__(*args, **kw)
        prepare(self, intent, pdfx)
        if self._cmyk:
            w, h = self._pagesize
            self.setTrimBox((0, 0, w, h))

    def drawImage(self, image: Any, x: float, y: float, *args: Any, **kw: Any) -> Any:
        """ReportLab's ``drawImage`` (the same arguments): plain RGB, grey and transparent images go
        through :class:`FlateImage` (sRGB, soft mask); the placements ReportLab alone knows
        (aspect-ratio boxes, colour-key masks) go to ReportLab."""
        bound = _DRAW_IMAGE.bind(self, image, x, y, *args, **kw)
        bound.apply_defaults()
        a = bound.arguments
        mask, width, height = a["mask"], a["width"], a["height"]
        im = None if (a["preserveAspectRatio"] or a["showBoundary"] or a["extraReturn"] is not None
                      or mask not in (None, "auto")) else _pillow(image)
        if im is None:
            return super().drawImage(image, x, y, *args, **kw)
        if self._cmyk:
            im = flat_cmyk(im, self._ink_limit)
        data = pil_image_data(im)
        if mask is None and data.alpha:         # without mask="auto" ReportLab draws the image opaque
            data = ImageData(data.width, data.height, data.colors, data.stream, False, data.digest + "o")
        name = register_image(self, data)
        w = data.width if width is None else width
        h = data.height if height is None else height
        self.saveState()
        self.transform(w, 0, 0, h, x, y)
        self.doForm(name)
        self.restoreState()
        return (w, h)


# ---------------------------------------------------------------- fonts


def subset_tag(font_name: str, n: int) -> bytes:
    """Six capital letters for subset ``n`` of ``font_name`` (a hash: the same for the same font)."""
    digest = hashlib.sha256(f"{font_name}/{n}".encode()).digest()
    return bytes(65 + b % 26 for b in digest[:6])


class TaggedTTFont(TTFont):  # type: ignore[misc]  # reportlab ships no type stubs
    """ReportLab's TrueType font, with a subset tag per font and subset (:func:`subset_tag`)."""

    def addObjects(self, doc: Any) -> None:
        """ReportLab's ``TTFont.addObjects``, with :func:`subset_tag` naming the subsets."""
        state = self.state[doc]         # made when the document first used the font (that is why it is here)
        state.frozen = 1
        for n, subset in enumerate(state.subsets):
            internal = self.getSubsetInternalName(n, doc)[1:]
            base = (b"".join((subset_tag(self.fontName, n), b"+", self.face.name, self.face.subfontNameX))
                    ).decode("pdfdoc")
            font = pdfdoc.PDFTrueTypeFont()
            font.__Comment__ = f"Font {self.fontName} subset {n}"
            font.Name = internal
            font.BaseFont = base
            font.FirstChar = 0
            font.LastChar = len(subset) - 1
            font.Widths = PDFArray(list(map(self.face.getCharWidth, subset)))
            cmap = PDFStream()
            cmap.content = makeToUnicodeCMap(base, subset)
            if doc.compression:
                cmap.filters = [pdfdoc.PDFZCompress]
            font.ToUnicode = doc.Reference(cmap, "toUnicodeCMap:" + base)
            font.FontDescriptor = self.face.addSubsetObjects(doc, base, subset)
            doc.Reference(font, internal)
            doc.idToObject["BasicFonts"].dict[internal] = font
        del self.state[doc]
