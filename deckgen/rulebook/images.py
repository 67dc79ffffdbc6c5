"""Card pictures for the rulebook, from the card renderer, at a small resolution.

Only the faces the rulebook shows are drawn (one card per group, the back, the printed
extras), so a rulebook costs a few dozen small renders, not the whole deck.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from deckgen.model import Deck
from deckgen.rulebook.groups import groups

DPI = 100


def showcase(deck: Deck, n: int = 5) -> list[str]:
    """The back and a handful of cards spread over the deck, each in another colour."""
    gs = groups(deck)
    picks = sorted({round(i * (len(gs) - 1) / max(1, n - 1)) for i in range(n)}) if gs else []
    colors = deck.palette.ids()
    faces = ["back"]
    for j, i in enumerate(picks):
        cards = gs[i].cards
        want = colors[j % len(colors)] if colors else None
        faces.append(next((c.id for c in cards if c.color == want), cards[0].id))
    return faces


def needed_faces(deck: Deck) -> list[str]:
    faces = showcase(deck) + [g.first.id for g in groups(deck)]
    faces = list(dict.fromkeys(faces))
    for comp in deck.components:
        faces += list(comp.faces)
    return faces


def card_images(deck: Deck, dpi: int = DPI, progress: Callable[[str, int, int], None] | None = None) -> dict[str, Any]:
    """face id -> PIL image, drawn by :func:`deckgen.render.render_face` without bleed."""
    from deckgen.render import RenderSettings, render_face

    settings = RenderSettings(dpi=dpi, bleed_mm=0)
    faces = needed_faces(deck)
    out: dict[str, Any] = {}
    for i, face in enumerate(faces, 1):
        out[face] = render_face(deck, face, settings)
        if progress:
            progress("rulebook images", i, len(faces))
    return out


LOGO_MM = 38.0          # the longer side of the logo on the rulebook's cover (rulebook/pdf.py)
