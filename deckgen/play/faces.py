"""The deck's card faces at screen size: the print drawing (:mod:`deckgen.render`) at a screen DPI.

The faces are planned like ``deckgen render`` plans them (:func:`deckgen.render.batch.plan_faces`:
each face's file in the face cache, named by what it shows) and a face not drawn yet is drawn the
first time the page asks for it, by the renderer's own job, so a face drawn once is never drawn
again, here or by a build at that DPI. There is no bleed: the page shows the card as it is after
cutting.
"""

from __future__ import annotations

import threading
from pathlib import Path

from deckgen.model import Deck
from deckgen.render import RenderSettings

SCREEN_DPI = 120        # about 300 px wide for a poker-sized card: sharp at twice the page's card width


class Faces:
    """PNG bytes of each face of a deck, drawn on demand and kept."""

    def __init__(self, deck: Deck, dpi: int = SCREEN_DPI, use_cache: bool = True, lang: str | None = None):
        """``lang``: the faces' words in that language, when the deck has texts in it (default: the deck's)."""
        from deckgen.render.batch import plan_faces
        from deckgen.render.faces import in_language, languages_of

        if lang in languages_of(deck):
            deck = in_language(deck, lang)
        self.deck = deck
        self.settings = RenderSettings(dpi=dpi, bleed_mm=0.0)
        self.use_cache = use_cache
        self._plan = plan_faces(deck, self.settings, use_cache=use_cache)   # holds a scratch folder without the cache
        self._paths: dict[str, Path] = dict(self._plan.result.paths)
        self._todo = {job[0].face_id: job for job in self._plan.todo}
        self._png: dict[str, bytes] = {}
        self._lock = threading.Lock()

    @property
    def size(self) -> tuple[int, int]:
        """A face's pixel size (width, height)."""
        return self._plan.result.size_px

    def png(self, face_id: str) -> bytes | None:
        """The face as a PNG (None: the deck has no such face)."""
        if face_id not in self._paths:
            return None
        with self._lock:
            data = self._png.get(face_id)
            if data is None:
                data = self._png[face_id] = self._read(face_id)
        return data

    def _read(self, face_id: str) -> bytes:
        from deckgen import cache
        from deckgen.render.batch import draw_group

        job = self._todo.pop(face_id, None)
        try:
            if job is not None:
                draw_group([job])
                if self.use_cache:
                    cache.note_added(1)
            return self._paths[face_id].read_bytes()
        except OSError:                  # a cache that cannot be written: the face is drawn for this page only
            from deckgen.render import pngfile, render_face
            from deckgen.render.batch import png_text

            frame = self.settings.frame(self.deck)
            return pngfile.encode(render_face(self.deck, face_id, self.settings), frame.dpi, png_text(face_id, frame), 1)


__all__ = ["SCREEN_DPI", "Faces"]
