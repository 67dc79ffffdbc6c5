"""A small, fast PNG writer for card faces (RGB, 8 bit, filter type 0, zlib).

Pillow's PNG encoder spends about two thirds of its time choosing a row filter per line, which
buys nothing on cards made of flat colour fields: writing unfiltered rows straight through zlib
is about 2.5x faster and gives smaller files. The rows are deflated in one call by zlib-ng
(``zlib-ng``, a maintained zlib with faster match finding) at its level 2: on card faces about
seven times faster than the standard library's zlib at level 1, with files about 5 % smaller.
Its output is a function of the bytes and the level alone (a one-shot call; a test repeats it
in processes with scrambled heaps). ISA-L (``isal``), used before, was faster still but gave now
and then other, equally valid, streams for the same rows, and the card sheets' PDF embeds these
streams as they are (:mod:`deckgen.layout.pdfimage`), so a build was not always byte-identical.
:data:`FORMAT` names the compressor, so a face cached by another is never mixed with a fresh one.

The output is deterministic (no time chunk) and records the colour space (iCCP: deckgen's fixed
sRGB profile, :mod:`deckgen.icc`), the DPI (pHYs) and the deckgen text chunks (tEXt).

A PNG carries its own checksums (a CRC-32 per chunk, and IEND last): :func:`whole_text` checks
them and reads the text chunks back, which is how the render cache knows a face it finds is
whole and is the face it was filed as (:mod:`deckgen.render.batch`).
"""

from __future__ import annotations

import functools
import struct
import zlib
from typing import TYPE_CHECKING

from zlib_ng import __version__ as _zlib_ng_version
from zlib_ng import zlib_ng as _deflate

from deckgen.icc import srgb_profile

if TYPE_CHECKING:
    from PIL import Image

COMPRESSOR = f"zlib-ng-{_zlib_ng_version}"
MAX_LEVEL = 9
FACE_LEVEL = 2        # zlib-ng's level 2: a few per cent smaller than ISA-L's level 1, about 1-2 ms a 300-dpi face

SIGNATURE = b"\x89PNG\r\n\x1a\n"
# part of the render cache key: a change to the chunks written or to the compressor (whose bytes
# go into the PDF as they are) redraws cached faces, so warm and cold builds stay byte-identical
FORMAT = f"png-srgb-3-{COMPRESSOR}"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


@functools.cache
def iccp_chunk() -> bytes:
    """The iCCP chunk naming the pixels sRGB (profile name, compression method 0, zlib data)."""
    return _chunk(b"iCCP", b"sRGB\x00\x00" + zlib.compress(srgb_profile(), 9))


def whole_text(data: bytes) -> dict[str, str] | None:
    """The tEXt chunks of a PNG written whole, or None: a wrong signature, a chunk whose CRC-32
    does not match its bytes, a chunk cut short, no IEND, or bytes after it (a torn or damaged file)."""
    if not data.startswith(SIGNATURE):
        return None
    view, pos, end, text = memoryview(data), len(SIGNATURE), len(data), {}
    while pos + 12 <= end:
        length, kind = struct.unpack_from(">I4s", data, pos)
        stop = pos + 8 + length
        if stop + 4 > end or zlib.crc32(view[pos + 4:stop]) & 0xFFFFFFFF != struct.unpack_from(">I", data, stop)[0]:
            return None
        if kind == b"tEXt":
            key, _, value = bytes(view[pos + 8:stop]).partition(b"\x00")
            text[key.decode("latin-1")] = value.decode("latin-1")
        elif kind == b"IEND":
            return text if stop + 4 == end else None
        pos = stop + 4
    return None


def as_written(text: dict[str, str]) -> dict[str, str]:
    """Text chunks as :func:`encode` writes them and :func:`whole_text` reads them back: each
    value in Latin-1, a character outside it as "?"."""
    return {k: v.encode("latin-1", "replace").decode("latin-1") for k, v in text.items()}


def encode(img: Image.Image, dpi: int, text: dict[str, str], level: int = FACE_LEVEL) -> bytes:
    """The PNG bytes of an RGB image, with its sRGB profile, DPI and Latin-1 text chunks."""
    if img.mode != "RGB":
        img = img.convert("RGB")
    w, h = img.size
    # Each row padded with one zero byte at its end (Pillow's raw encoder zero-fills a longer
    # stride): shifted right by one byte, every row starts with filter type 0 ("none").
    padded = img.tobytes("raw", ("RGB", w * 3 + 1))
    rows = b"\x00" + memoryview(padded)[:-1]          # one copy (a zero-filled bytearray took two)
    idat = _deflate.compress(rows, min(level, MAX_LEVEL))
    ppm = round(dpi / 0.0254)
    out = [SIGNATURE, _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)), iccp_chunk(),
           _chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1))]
    for key, value in as_written(text).items():
        out.append(_chunk(b"tEXt", key.encode("latin-1") + b"\x00" + value.encode("latin-1")))
    out.append(_chunk(b"IDAT", idat))
    out.append(_chunk(b"IEND", b""))
    return b"".join(out)
