"""Card geometry: size presets (``card-sizes.toml``, read by :mod:`deckgen.presets`) and the pixel frame of a face.

Everything here is in millimetres until :class:`Frame` turns it into pixels at one DPI.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from deckgen import presets
from deckgen.datafile import read_toml
from deckgen.errors import Collector, DeckgenError, Finding, did_you_mean, error
from deckgen.units import mm_to_px, parse_length, parse_size

SIZE_KEYS = {"width", "height", "description"}


def _parse_sizes(path: str) -> list[tuple[str, tuple[float, float]]]:
    """One card-sizes file -> [(name, (width_mm, height_mm))]; DeckgenError listing every problem."""
    data = read_toml(Path(path))
    out = Collector(path)
    sizes: list[tuple[str, tuple[float, float]]] = []
    table = data.get("sizes")
    if not isinstance(table, dict) or not table:
        raise DeckgenError(error("card-sizes", "sizes", "expected a [sizes.<name>] table per preset",
                                 file=str(path)))
    for name, entry in table.items():
        where = f"sizes.{name}"
        if not isinstance(entry, dict):
            out.error("type", where, "expected a table with width and height")
            continue
        for key in sorted(set(entry) - SIZE_KEYS):
            out.error("unknown-key", f"{where}.{key}", f"unknown key '{key}'",
                      hint=did_you_mean(key, SIZE_KEYS) or "accepted keys: " + ", ".join(sorted(SIZE_KEYS)))
        dims = []
        for key in ("width", "height"):
            if key not in entry:
                out.error("missing", f"{where}.{key}", f"'{key}' is required", hint="e.g. '63.5mm'")
                continue
            try:
                value = parse_length(entry[key], f"{where}.{key}")
            except DeckgenError as exc:
                out.findings.extend(_with_file(exc, str(path)))
                continue
            if not 20.0 <= value <= 400.0:
                out.error("value", f"{where}.{key}", f"{value:g} mm is not a card size",
                          hint="expected 20mm to 400mm")
                continue
            dims.append(value)
        if len(dims) == 2:
            sizes.append((name.lower(), (dims[0], dims[1])))
    if out.errors:
        raise DeckgenError(out.errors)
    return sizes


CARD_SIZES: presets.PresetFile[tuple[float, float]] = presets.PresetFile("card size", "card-sizes.toml", _parse_sizes)


def load_sizes(path: Path | None = None, *, base: Path | None = None) -> dict[str, tuple[float, float]]:
    """Every preset as name -> (width_mm, height_mm): the bundled, user and (with ``base``) the
    manifest folder's, or only those of ``path``. Raises DeckgenError listing every problem."""
    if path is not None:
        return dict(presets.load_file(CARD_SIZES, Path(path)))
    return presets.catalogue(CARD_SIZES, base).values()


def _with_file(exc: DeckgenError, file: str) -> list[Finding]:
    return [error(f.code, f.where, f.message, file=file, hint=f.hint) for f in exc.findings]


def card_size_mm(name_or_size: str, *, base: Path | None = None) -> tuple[float, float]:
    """A preset name (``"poker"``) or ``"WxH"`` (bare numbers are millimetres) -> (width_mm, height_mm).

    ``base``: the manifest's folder, whose own ``card-sizes.toml`` is read too.
    """
    sizes = load_sizes(base=base)
    key = str(name_or_size).strip()
    if key.lower() in sizes:
        return sizes[key.lower()]
    if any(ch.isdigit() for ch in key):
        w, h = parse_size(key, "card size")
        if not (20.0 <= w <= 400.0 and 20.0 <= h <= 400.0):
            raise DeckgenError(error("card-size", "card size", f"'{key}' is {w:g} × {h:g} mm: not a card size",
                                     hint="each side between 20 and 400 mm; a bare number is millimetres, so for "
                                          "inches write '2.5 x 3.5 in'"))
        return w, h
    hint = did_you_mean(key, sizes) or "presets: " + ", ".join(sizes) + ", or WIDTHxHEIGHT such as '63x88' (mm)"
    raise DeckgenError(error("card-size", "card size", f"unknown card size '{key}'", hint=hint))


@dataclass(frozen=True)
class Frame:
    """One face's pixel frame: trim, bleed and safe zone at a DPI.

    Lengths become whole pixels rounded half up (:func:`deckgen.units.mm_to_px`), each length
    as one: the image is ``full`` pixels, the trim plus both bleeds rounded together (a 62 × 93
    mm face at 300 dpi is 732 × 1098 px, as the millimetres say; a shop's template size is met
    exactly); the trim box starts ``bleed`` pixels in and is ``trim`` pixels wide, so the pixel
    the parts' rounding gains or loses goes to the right and bottom bleed; the safe box (where
    every symbol and text lives) starts ``bleed + safe`` pixels in from every edge, that sum
    rounded as one length, as a shop's safe zone is measured. The pixel sizes are worked out
    once per frame (planning a face asks for them thousands of times); equality, hash and repr
    stay those of the fields, the rounding rule's name among them (faces cached under the older
    rule, which rounded trim and bleed apart, are drawn again).
    """

    trim_mm: tuple[float, float]
    dpi: int
    bleed_mm: float
    safe_mm: float
    rounding: str = "whole-lengths-half-up"     # in the repr, so the face cache keys faces by the rule too

    def px(self, mm: float) -> int:
        """``mm`` in whole pixels, rounded half up."""
        return mm_to_px(mm, self.dpi)

    @cached_property
    def bleed(self) -> int:
        return self.px(self.bleed_mm)

    @cached_property
    def trim(self) -> tuple[int, int]:
        return self.px(self.trim_mm[0]), self.px(self.trim_mm[1])

    @cached_property
    def full(self) -> tuple[int, int]:
        b2 = 2 * self.bleed_mm
        return self.px(self.trim_mm[0] + b2), self.px(self.trim_mm[1] + b2)

    @cached_property
    def safe_box(self) -> tuple[int, int, int, int]:
        """(left, top, right, bottom) in image pixels, right/bottom exclusive."""
        inset = self.px(self.bleed_mm + self.safe_mm)
        w, h = self.full
        return inset, inset, w - inset, h - inset

    @cached_property
    def center(self) -> tuple[float, float]:
        w, h = self.full
        return w / 2.0, h / 2.0

    def unit(self) -> float:
        """A length unit that scales with the card: 1/100 of the trim width in pixels."""
        return self.trim[0] / 100.0
