"""The card renderer: every distinct face of a deck as a print-ready PNG.

Public API (other stages code against exactly this)::

    RenderSettings, card_size_mm, face_ids, render_face, render_deck, RenderResult, preview
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from deckgen.model import Deck
from deckgen.render.faces import face_ids, face_spec
from deckgen.render.geometry import card_size_mm
from deckgen.render.settings import RENDERER_VERSION, RenderResult, RenderSettings, settings_check

if TYPE_CHECKING:
    from PIL import Image

    from deckgen.progress import Progress

__all__ = ["RENDERER_VERSION", "RenderResult", "RenderSettings", "card_size_mm", "face_ids", "preview",
           "render_deck", "render_face", "settings_check"]


def render_face(deck: Deck, face_id: str, settings: RenderSettings | None = None) -> Image.Image:
    """One face as an RGB image: trim + 2 x bleed at the settings' DPI."""
    from deckgen.render.draw import draw_face

    settings = settings or RenderSettings()
    settings_check(settings)
    spec = face_spec(deck, face_id, settings.symbols_on(deck))
    return draw_face(spec, settings.frame(deck), settings.corner_guide)


def render_deck(deck: Deck, settings: RenderSettings | None = None, out_dir: Path | None = None, *,
                use_cache: bool = True, cache_dir: Path | None = None, progress: Progress | None = None,
                jobs: int | None = None) -> RenderResult:
    """Every distinct face as a PNG (in ``out_dir`` and/or the cache); see :mod:`deckgen.render.batch`."""
    from deckgen.render.batch import render_all

    return render_all(deck, settings or RenderSettings(), out_dir, use_cache=use_cache, cache_dir=cache_dir,
                      progress=progress, jobs=jobs)


def preview(deck: Deck, settings: RenderSettings | None = None, out_path: Path | None = None,
            progress: Progress | None = None, *,
            use_cache: bool = True) -> Path:
    """A contact sheet of every distinct face with its copy count; returns the PNG path."""
    from deckgen.render.sheet import contact_sheet

    return contact_sheet(deck, settings or RenderSettings(), out_path, progress, use_cache=use_cache)
