"""Whether every face fits at a size: read from the same plan the renderer draws from.

For each face and each size (a card-size preset, ``WxH``, or a print-shop preset such as
``tgc-poker``), :func:`check_fit` plans the face (:func:`deckgen.render.draw.plan_face`: every
element placed in its layout box, every text fitted with the real font at that pixel size) and
reports, naming the card, the element and the size:

- a text (index, centre label, caption) that does not fit its box at the smallest size its
  layout allows, or only by overlapping another element;
- a text whose box overlaps another element (the frame, the art and the background hold the
  others, so they are not counted);
- an element that leaves the safe zone.

A rules text that does not fit is cut with an ellipsis and reported as a warning by
:mod:`deckgen.render.look`, so it is left out here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from deckgen.errors import DeckgenError, Finding, error
from deckgen.model import Deck
from deckgen.render.faces import FaceSpec, face_ids, face_spec
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


def face_problems(spec, frame: Frame) -> list[tuple[str, str]]:
    """(element, problem) for one face at one frame, from its plan."""
    from deckgen.render.draw import overlaps, plan_face

    plan = plan_face(spec, frame)
    out = [(m.element, m.message) for m in plan.misfits if m.element != "rules"]
    misfit = {m.element for m in plan.misfits}
    l, t, r, b = frame.safe_box
    for p in plan.placed:
        if p.el.type in ("background", "art", "image"):
            continue
        for x0, y0, x1, y1 in p.rects:
            if x0 < l - 1 or y0 < t - 1 or x1 > r + 1 or y1 > b + 1:
                out.append((p.el.name, "leaves the safe zone"))
                break
        if not p.text or p.el.name in misfit:
            continue
        hit = next((q for q in plan.placed if q is not p and q.el.type not in CONTAINERS
                    and any(overlaps(a, c) for a in p.rects for c in q.rects)), None)
        if hit is not None:
            out.append((p.el.name, f"overlaps the {hit.el.name}"))
    return list(dict.fromkeys(out))


def check_fit(deck: Deck, sizes: Iterable[str] | None = None) -> list[Finding]:
    """Errors for every face that does not fit at each of ``sizes`` (default: the deck's own card
    size at 300 dpi), each naming the card, the element and the size."""
    file = str(deck.source) if deck.source else None
    out: list[Finding] = []
    symbols = len(deck.palette.colors) > 4
    for name in (list(sizes) if sizes is not None else [deck.card_size]):
        try:
            tgt = target(name, deck)
        except DeckgenError:
            continue                    # an unknown size is the card-size check's finding
        frame = tgt.frame()
        seen: dict[FaceSpec, list[tuple[str, str]]] = {}
        for fid in face_ids(deck):
            spec = face_spec(deck, fid, symbols)
            # faces that differ only in their colours have the same geometry: planned once
            shape = replace(spec, face_id="", field=(0, 0, 0), ink=(0, 0, 0), segments=(), title_ink=(0, 0, 0))
            if shape not in seen:
                seen[shape] = face_problems(spec, frame)
            for element, problem in seen[shape]:
                out.append(error("fit", _where(deck, fid), f"card '{fid}' at {tgt.label}: the {element} {problem}",
                                 file=file, hint=_hint(element)))
    return out


def _where(deck: Deck, fid: str) -> str:
    if fid == "back":
        return "deck.back_layout"
    card = next((c for c in deck.cards if c.id == fid), None)
    return card.where if card is not None else "components"


def _hint(element: str) -> str:
    return (f"give the '{element}' element a larger box or a smaller 'size' in its layout (docs/layouts.md), "
            f"or hide it on this card (hide = [\"{element}\"])")


def layout_path(name: str, base: Path | None = None) -> Path | None:
    """The file a layout comes from (for messages)."""
    from deckgen.render.layout import catalogue

    cat = catalogue(base)
    return cat.entries[name].file if name in cat else None
