"""Lengths, parsed once at the edge. The core works in millimetres."""

from __future__ import annotations

import math
import re

from deckgen.errors import DeckgenError, error

MM_PER = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72.0}
MAX_MM = 10_000.0       # 10 m: longer than any paper or card; a larger number would feed loops and allocations
_NUMBER = r"[0-9]*\.?[0-9]+(?:e[-+]?[0-9]+)?"
_LENGTH = re.compile(rf"^\s*({_NUMBER})\s*(mm|cm|in|pt)\s*$", re.IGNORECASE)
_BARE = re.compile(rf"^\s*{_NUMBER}\s*$", re.IGNORECASE)
_PAIR = re.compile(r"^\s*(.+?)\s*[x×,]\s*(.+?)\s*$", re.IGNORECASE)


def parse_length(text: str | float | int, where: str = "length", default_unit: str | None = "mm") -> float:
    """``"63mm"``, ``"2.5in"``, ``"0.3cm"``, ``"9pt"`` -> millimetres.

    A bare number is in ``default_unit``: millimetres everywhere deckgen reads a length
    (``None`` refuses a bare number). A length over :data:`MAX_MM` (or not finite) is refused.
    """
    return _bounded(_parse_length(text, where, default_unit), text, where)


def _bounded(mm: float, text: object, where: str) -> float:
    if not mm <= MAX_MM:          # also NaN
        raise DeckgenError(error("length", where, f"'{text}' is too long (at most {MAX_MM / 1000:g} m)",
                                 hint="a length in millimetres, e.g. '3mm'"))
    return mm


def _parse_length(text: str | float | int, where: str, default_unit: str | None) -> float:
    if isinstance(text, bool):
        raise DeckgenError(error("length", where, f"expected a length such as '3mm', got {text!r}"))
    if isinstance(text, (int, float)):
        if default_unit is None:
            raise DeckgenError(error("length", where, f"'{text}' has no unit",
                                     hint="write it with a unit: mm, cm, in or pt, e.g. '3mm'"))
        return float(text) * MM_PER[default_unit]
    m = _LENGTH.match(str(text))
    if not m:
        try:
            value = float(str(text))
        except ValueError:
            value = None
        if value is not None and default_unit and value >= 0 and value == value and value != float("inf"):
            return value * MM_PER[default_unit]
        raise DeckgenError(error("length", where, f"'{text}' is not a length",
                                 hint="a number of millimetres, or a number and a unit (mm, cm, in, pt): "
                                      "'3', '3mm' or '0.125in'"))
    return float(m.group(1)) * MM_PER[m.group(2).lower()]


def parse_size(text: str, where: str = "size") -> tuple[float, float]:
    """``"56mm x 87mm"``, ``"2.5in,3.5in"``, ``"63x88"`` (millimetres) or ``"2.5 x 3.5 in"`` (a unit
    written once, after both numbers, is both sides' unit, as sizes are written) -> (width_mm, height_mm)."""
    m = _PAIR.match(str(text))
    if not m:
        raise DeckgenError(error("size", where, f"'{text}' is not a size",
                                 hint="write WIDTHxHEIGHT, e.g. '63x88' (mm), '63.5mmx88.9mm' or '2.5 x 3.5 in'"))
    first, second = m.group(1), m.group(2)
    unit = _LENGTH.match(second)
    if unit and _BARE.match(first):
        first += unit.group(2)
    return parse_length(first, where), parse_length(second, where)


def mm_to_pt(mm: float) -> float:
    return mm * 72.0 / 25.4


def mm_to_px(mm: float, dpi: int) -> int:
    """A length in whole pixels, rounded half up (Python's round() would send 36.5 down and 37.5 up);
    a hair of tolerance keeps a length that is an exact half in decimal from being rounded down."""
    return math.floor(mm * dpi / 25.4 + 0.5 + 1e-9)
