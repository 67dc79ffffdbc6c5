"""Reading card sheets back from the PDF, independently of the code that wrote them.

A small interpreter of the page content streams (pypdf parses them; the q/Q/cm/re/W/Do logic
is here) gives every image drawn on a page with its transformation matrix and its clip, and
pypdf decodes each image so tests can tell faces apart by their pixels.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import pypdf
from pypdf.generic import ContentStream

MM = 72 / 25.4


@dataclass(frozen=True)
class Drawn:
    name: str                                  # XObject name
    matrix: tuple[float, ...]                  # a b c d e f: the unit square -> the page (points)
    clip: tuple[float, float, float, float] | None   # x0 y0 x1 y1 (points), the intersection of rectangles

    @property
    def corners(self) -> list[tuple[float, float]]:
        a, b, c, d, e, f = self.matrix
        return [(a * u + c * v + e, b * u + d * v + f) for u, v in ((0, 0), (1, 0), (0, 1), (1, 1))]

    @property
    def box(self) -> tuple[float, float, float, float]:
        xs, ys = zip(*self.corners)
        return min(xs), min(ys), max(xs), max(ys)

    @property
    def centre(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.box
        return (x0 + x1) / 2, (y0 + y1) / 2

    @property
    def up(self) -> tuple[int, int]:
        """Where the image's top points on the page, as a unit direction (0, 1), (0, -1), ..."""
        _, _, c, d, _, _ = self.matrix
        return (round(c / max(abs(c), abs(d))), round(d / max(abs(c), abs(d))))

    @property
    def visible(self) -> tuple[float, float, float, float]:
        box = self.box
        if self.clip is None:
            return box
        return max(box[0], self.clip[0]), max(box[1], self.clip[1]), min(box[2], self.clip[2]), min(box[3], self.clip[3])


def _mul(m: tuple[float, ...], n: tuple[float, ...]) -> tuple[float, ...]:
    """m then n (PDF row-vector convention: cm premultiplies the CTM)."""
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (a * p + b * r, a * q + b * s, c * p + d * r, c * q + d * s, e * p + f * r + t, e * q + f * s + u)


def drawn_images(page) -> list[Drawn]:
    content = ContentStream(page.get_contents(), page.pdf)
    ctm: tuple[float, ...] = (1, 0, 0, 1, 0, 0)
    clip = None
    stack = []
    pending = None
    out = []
    for operands, op in content.operations:
        if op == b"q":
            stack.append((ctm, clip))
        elif op == b"Q":
            ctm, clip = stack.pop()
        elif op == b"cm":
            ctm = _mul(tuple(float(v) for v in operands), ctm)
        elif op == b"re":
            x, y, w, h = (float(v) for v in operands)
            pts = [(x, y), (x + w, y + h)]
            a, b, c, d, e, f = ctm
            pts = [(a * u + c * v + e, b * u + d * v + f) for u, v in pts]
            pending = (min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts))
        elif op == b"W":
            if pending is not None:
                clip = pending if clip is None else (max(clip[0], pending[0]), max(clip[1], pending[1]),
                                                     min(clip[2], pending[2]), min(clip[3], pending[3]))
        elif op == b"n":
            pending = None
        elif op == b"Do":
            name = str(operands[0]).lstrip("/")
            xobj = page["/Resources"]["/XObject"][f"/{name}"].get_object()
            if xobj.get("/Subtype") == "/Image":
                out.append(Drawn(name, ctm, clip))
    return out


class FaceColours:
    """Face of an image XObject, told by the colour at its centre (faces in these tests are flat)."""

    def __init__(self, reader: pypdf.PdfReader, colours: dict[tuple[int, int, int], str]):
        self.colours = colours
        self._cache: dict[int, str] = {}
        self.reader = reader

    def face(self, page, name: str) -> str:
        ref = page["/Resources"]["/XObject"].raw_get(f"/{name}")
        key = ref.idnum
        if key not in self._cache:
            im = ref.get_object().decode_as_image().convert("RGB")
            px = im.getpixel((im.width // 2, im.height // 2))
            best = min(self.colours, key=lambda c: sum((a - b) ** 2 for a, b in zip(c, px)))
            self._cache[key] = self.colours[best]
        return self._cache[key]


def reader_of(data: bytes) -> pypdf.PdfReader:
    return pypdf.PdfReader(io.BytesIO(data))
