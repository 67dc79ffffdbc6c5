"""The sizes a deck's faces are made at (:class:`Target`: a card-size preset, ``WxH``, or a
print-shop preset such as ``tgc-poker`` with its own resolution, bleed and safe zone), and the
file a layout comes from: what the face audit (:mod:`deckgen.render.audit`) measures at.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from deckgen.errors import DeckgenError
from deckgen.model import Deck
from deckgen.render.geometry import Frame, card_size_mm

CONTAINERS = ("background", "frame", "art", "image", "pattern")
CHECK_DPI = 300
BLEED_MM = SAFE_MM = 3.0


@dataclass(frozen=True)
class Target:
    """One size a deck's faces are made at."""

    label: str                 # "poker", "tgc-poker (300 dpi)"
    trim_mm: tuple[float, float]
    dpi: int = CHECK_DPI
    bleed_mm: float = BLEED_MM
    safe_mm: float = SAFE_MM

    def frame(self) -> Frame:
        return Frame(self.trim_mm, self.dpi, self.bleed_mm, self.safe_mm)


def target(name: str, deck: Deck, dpi: int = CHECK_DPI) -> Target:
    """A card-size preset or ``WxH`` (at ``dpi``, 3 mm bleed and safe margin), or a print-shop
    preset with its own resolution, bleed, safe zone and card size (else the deck's)."""
    base = deck.source.parent if deck.source else None
    from deckgen.export.services import load_services

    services = load_services(base=base)
    if name in services:
        from deckgen.export.printshop import DEFAULT_SAFE_MM

        svc = services[name]
        trim = card_size_mm(svc.card_size or deck.card_size, base=base)
        safe = max(DEFAULT_SAFE_MM, svc.safe_mm or 0.0)
        return Target(f"{name} ({svc.dpi} dpi)", trim, svc.dpi, svc.bleed_mm, safe)
    return Target(name, card_size_mm(name, base=base), dpi)


def target_or_none(name: str, deck: Deck) -> Target | None:
    try:
        return target(name, deck)
    except DeckgenError:
        return None                     # an unknown size is the card-size check's finding


def layout_path(name: str, base: Path | None = None) -> Path | None:
    """The file a layout comes from (for messages)."""
    from deckgen.render.layout import catalogue

    cat = catalogue(base)
    return cat.entries[name].file if name in cat else None
