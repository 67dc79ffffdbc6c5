"""What ``deckgen check`` says about a deck's own look once it is placed on the cards: the
resolution of every image at its printed size and the back image's shape (what each face shows
is the face audit's, :mod:`deckgen.render.audit`)."""

from __future__ import annotations

import math
from pathlib import Path

from deckgen.errors import DeckgenError, Finding, warning
from deckgen.model import Deck
from deckgen.render.faces import face_ids, face_spec
from deckgen.render.geometry import Frame, card_size_mm

CHECK_DPI = 300           # the print resolution the checks measure against
BLEED_MM = SAFE_MM = 3.0


def look_check(deck: Deck) -> list[Finding]:
    if not _has_look(deck):
        return []
    from deckgen.images import MIN_DPI, effective_dpi
    from deckgen.render.draw import placements, plan_face

    file = str(deck.source) if deck.source else None
    try:
        frame = Frame(card_size_mm(deck.card_size), CHECK_DPI, BLEED_MM, SAFE_MM)
    except DeckgenError:
        return []                       # the card-size check reports it
    out: list[Finding] = []
    seen: set[tuple[str, str]] = set()
    symbols = deck.shape_cues
    for fid in face_ids(deck):
        spec = face_spec(deck, fid, symbols)
        plan = plan_face(spec, frame)
        for ref, box, fit in placements(spec, frame, plan):
            dpi = effective_dpi(ref, box, CHECK_DPI, fit)
            if dpi is not None and dpi < MIN_DPI and (ref.where, "dpi") not in seen:
                seen.add((ref.where, "dpi"))
                w, h = (math.ceil(side * MIN_DPI / dpi - 1e-6) for side in ref.size)
                out.append(warning("image-dpi", ref.where,
                                   f"{_shown(ref.path, deck)} prints at {dpi:.0f} dpi here ({ref.size[0]}x{ref.size[1]} "
                                   f"px); it may look blurred", file=file,
                                   hint=f"make it at least {w}x{h} px, {MIN_DPI} dpi at the printed size, or use an SVG"))
    if deck.back_image is not None:
        iw, ih = deck.back_image.size
        fw, fh = frame.full
        if abs(iw / ih - fw / fh) > 0.02 * (fw / fh):
            out.append(warning("back-image-crop", "deck.back_image",
                               f"{_shown(deck.back_image.path, deck)} is {iw}x{ih}, not the shape of the card with its bleed "
                               f"({frame.trim_mm[0] + 2 * BLEED_MM:g}x{frame.trim_mm[1] + 2 * BLEED_MM:g} mm): "
                               "it is cropped to cover the card", file=file,
                               hint=f"make it {fw}x{fh} px (300 dpi) to print all of it"))
    return out


def _shown(path: str, deck: Deck) -> str:
    """An image's path as the manifest names it: from the deck's folder (the whole path when it
    lies elsewhere, or the deck has no file)."""
    if deck.source is None:
        return path
    try:
        return Path(path).resolve().relative_to(Path(deck.source).resolve().parent).as_posix()
    except ValueError:
        return path


def _has_look(deck: Deck) -> bool:
    return (deck.back_image is not None or deck.logo is not None
            or any(c.art or c.text for c in deck.cards)
            or any(k.art or k.icon or k.text for k in deck.kinds.values()))
