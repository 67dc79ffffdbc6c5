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

import json
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from deckgen.errors import DeckgenError, Finding, error
from deckgen.model import Deck
from deckgen.render.faces import FaceSpec
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


def face_problems(spec: FaceSpec, frame: Frame) -> list[tuple[str, str]]:
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


FIT_FORMAT = "fit-1"


def check_fit(deck: Deck, sizes: Iterable[str] | None = None, *, use_cache: bool = True,
              cache_dir: Path | None = None) -> list[Finding]:
    """Errors for every face that does not fit at each of ``sizes`` (default: the deck's own card
    size at 300 dpi), each naming the card, the element and the size. The answer is kept in the
    cache under what it is worked out from (each face's spec, the sizes, deckgen's code), like the
    faces themselves, so an unchanged deck is measured once."""
    from deckgen.render.batch import face_specs

    names = list(sizes) if sizes is not None else [deck.card_size]
    targets = [t for t in (_target_or_none(name, deck) for name in names) if t is not None]
    specs = face_specs(deck, len(deck.palette.colors) > 4)
    key = _fit_key(targets, specs) if use_cache else None
    found = _from_cache(key, cache_dir) if key else None
    if found is None:
        found = [(fid, tgt.label, element, problem) for tgt in targets for fid, element, problem in _misfits(specs, tgt)]
        if key:
            from deckgen import cache

            cache.put_bytes("documents", key, "fit.json", json.dumps(found).encode("utf-8"), cache_dir)
    file = str(deck.source) if deck.source else None
    return [error("fit", _where(deck, fid), f"card '{fid}' at {label}: the {element} {problem}", file=file,
                  hint=_hint(element)) for fid, label, element, problem in found]


def _target_or_none(name: str, deck: Deck) -> Target | None:
    try:
        return target(name, deck)
    except DeckgenError:
        return None                     # an unknown size is the card-size check's finding


def _misfits(specs: dict[str, FaceSpec], tgt: Target) -> list[tuple[str, str, str]]:
    """(face, element, problem) of every face at one size."""
    frame = tgt.frame()
    seen: dict[FaceSpec, list[tuple[str, str]]] = {}
    out: list[tuple[str, str, str]] = []
    for fid, spec in specs.items():
        # faces that differ only in their colours have the same geometry: planned once
        shape = replace(spec, face_id="", field=(0, 0, 0), ink=(0, 0, 0), segments=(), title_ink=(0, 0, 0))
        if shape not in seen:
            seen[shape] = face_problems(spec, frame)
        out.extend((fid, element, problem) for element, problem in seen[shape])
    return out


def _fit_key(targets: list[Target], specs: dict[str, FaceSpec]) -> str:
    from deckgen.cache import digest
    from deckgen.inputs import code_version
    from deckgen.render.batch import spec_repr

    # a spec's repr names its fonts and images by content digest (as the faces' cache keys do);
    # the text is repr(sorted(specs.items())), each spec's repr made once (spec_repr)
    items = ", ".join(f"({fid!r}, {spec_repr(spec)})" for fid, spec in sorted(specs.items(), key=lambda kv: kv[0]))
    return digest(FIT_FORMAT, code_version(), repr(targets), f"[{items}]")


def _from_cache(key: str, cache_dir: Path | None) -> list[tuple[str, str, str, str]] | None:
    from deckgen import cache

    data = cache.get_bytes("documents", key, "fit.json", cache_dir)
    if data is None:
        return None
    try:
        return [(str(a), str(b), str(c), str(d)) for a, b, c, d in json.loads(data)]
    except (ValueError, TypeError):
        return None


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
