"""The crop marks' style: the one part of a sheet's geometry that the layout options hold.

Kept apart from :mod:`deckgen.layout.geometry` so that the options of a build (a build whose card
sheets come from the cache plans no sheet) do not import the sheet planner.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MarkStyle:
    """Crop marks: length, stroke width and the distance kept from the block's bleed edge."""

    length_mm: float = 5.0
    stroke_mm: float = 0.3
    offset_mm: float = 1.0
