"""Embedding face PNGs in a ReportLab PDF without re-compressing them.

An 8-bit, non-interlaced RGB PNG already holds exactly what a PDF image with
``/FlateDecode`` and PNG predictors (``/Predictor 15``) expects: its IDAT chunks are copied
into the PDF as they are, which costs a file read instead of a zlib pass over megapixels.
Other PNGs (grey, alpha, palette, 16-bit, interlaced) are flattened onto white as RGB with
Pillow and compressed once. Every image is written in the sRGB ICC colour space
(:class:`deckgen.pdfkit.FlateImage`). Each image is registered under a name derived from its content, so a face
drawn on many pages is stored once.
"""

from __future__ import annotations

import hashlib
import struct
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

from deckgen import pdfkit
from deckgen.errors import DeckgenError, error
from deckgen.pdfkit import ImageData

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

_SIG = b"\x89PNG\r\n\x1a\n"


def read_png(path: Path) -> ImageData:
    """The image stream to embed for a face PNG."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise DeckgenError(error("image", str(path), f"cannot read face image: {exc.strerror}")) from None
    digest = hashlib.sha1(data).hexdigest()
    passthrough = _passthrough(data, digest)
    return passthrough if passthrough is not None else _flatten(path, digest)


def _passthrough(data: bytes, digest: str) -> ImageData | None:
    if not data.startswith(_SIG):
        return None
    pos, idat, header = 8, [], None
    while pos + 8 <= len(data):
        length, ctype = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if ctype == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif ctype == b"IDAT":
            idat.append(body)
        elif ctype in (b"tRNS", b"PLTE"):
            return None
        elif ctype == b"IEND":
            break
        pos += 12 + length
    if header is None or not idat:
        return None
    width, height, depth, ctype, _, _, interlace = header
    if depth != 8 or interlace or ctype != 2:
        return None
    return ImageData(width, height, 3, b"".join(idat), True, digest)


def _flatten(path: Path, digest: str) -> ImageData:
    from PIL import Image

    try:
        with Image.open(path) as im:
            im.load()
            if im.mode in ("RGBA", "LA", "P", "PA") or "transparency" in im.info:
                rgba = im.convert("RGBA")
                im = Image.new("RGB", rgba.size, "white")
                im.paste(rgba, mask=rgba.getchannel("A"))
            else:
                im = im.convert("RGB")
    except OSError as exc:
        raise DeckgenError(error("image", str(path), f"not a readable image: {exc}")) from None
    return ImageData(im.width, im.height, 3, zlib.compress(im.tobytes(), 6), False, digest)


def register_image(canvas: Canvas, img: ImageData) -> str:
    """Add the image to the document once; returns the name to pass to ``canvas.doForm``."""
    return pdfkit.register_image(canvas, img)


def draw_image(canvas: Canvas, name: str, x: float, y: float, w: float, h: float) -> None:
    """Draw a registered image XObject into the rectangle (points)."""
    canvas.saveState()
    canvas.transform(w, 0, 0, h, x, y)
    canvas.doForm(name)
    canvas.restoreState()
