"""The image-resolution check, again at an export's own size.

``deckgen check`` measures every image of the deck's look at the deck's card size and 300 dpi
(:mod:`deckgen.render.look`). An export lays the faces out again at another size (a print
shop's poker card, a Tabletop Simulator cell), where the same image may be stretched further:
this module measures each image where the export draws it, with the shop's or the export's
resolution, through :func:`deckgen.images.effective_dpi`.
"""

from __future__ import annotations

from deckgen.errors import Finding, warning
from deckgen.images import MIN_DPI, effective_dpi
from deckgen.model import Deck


def resolution_warnings(deck: Deck, trim_mm: tuple[float, float], bleed_mm: float, safe_mm: float, dpi: int,
                        where: str) -> list[Finding]:
    """One warning per image that prints below ``min(MIN_DPI, dpi)`` at this export's size.

    ``where`` names the export (``--service tgc-poker``, ``export tts``) in the message."""
    from deckgen.render.draw import placements
    from deckgen.render.faces import face_ids, face_spec
    from deckgen.render.geometry import Frame

    need = min(MIN_DPI, dpi)
    frame = Frame(trim_mm, dpi, bleed_mm, safe_mm)
    symbols = deck.shape_cues
    file = str(deck.source) if deck.source else None
    seen: set[str] = set()
    out: list[Finding] = []
    for fid in face_ids(deck):
        for ref, box, fit in placements(face_spec(deck, fid, symbols), frame):
            got = effective_dpi(ref, box, dpi, fit)
            if got is None or got >= need or ref.where in seen:
                continue
            seen.add(ref.where)
            out.append(warning(
                "image-dpi", ref.where,
                f"{ref.path} prints at {got:.0f} dpi in {where} ({trim_mm[0]:g} × {trim_mm[1]:g} mm cards, "
                f"{ref.size[0]}x{ref.size[1]} px); it may look blurred", file=file,
                hint=f"use at least {need} dpi at this size ({_px_needed(ref.size, got, need)}), or an SVG"))
    return out


def _px_needed(size: tuple[int, int], got: float, need: int) -> str:
    k = need / got
    return f"about {round(size[0] * k)}x{round(size[1] * k)} px"
