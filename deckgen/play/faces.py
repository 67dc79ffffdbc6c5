"""The deck's card faces at screen size: the print drawing (:mod:`deckgen.render`) at a screen DPI.

A face is drawn the first time the page asks for it, through the same face cache as
``deckgen render`` (so a face drawn once is never drawn again, here or by a build at that DPI),
without bleed: the page shows the card as it is after cutting.
"""

from __future__ import annotations

import threading
from pathlib import Path

from deckgen.atomic import write_bytes
from deckgen.model import Deck
from deckgen.render import RenderSettings
from deckgen.render.batch import face_key, png_text
from deckgen.render.faces import face_ids, face_spec

SCREEN_DPI = 120        # about 300 px wide for a poker-sized card: sharp at twice the page's card width


class Faces:
    """PNG bytes of each face of a deck, drawn on demand and kept."""

    def __init__(self, deck: Deck, dpi: int = SCREEN_DPI, use_cache: bool = True):
        self.deck = deck
        self.settings = RenderSettings(dpi=dpi, bleed_mm=0.0)
        self.frame = self.settings.frame(deck)
        self.symbols = self.settings.symbols_on(deck)
        self.ids = set(face_ids(deck))
        self.use_cache = use_cache
        self._png: dict[str, bytes] = {}
        self._lock = threading.Lock()

    @property
    def size(self) -> tuple[int, int]:
        """A face's pixel size (width, height)."""
        return self.frame.full

    def png(self, face_id: str) -> bytes | None:
        """The face as a PNG (None: the deck has no such face)."""
        if face_id not in self.ids:
            return None
        with self._lock:
            data = self._png.get(face_id)
            if data is None:
                data = self._png[face_id] = self._draw(face_id)
        return data

    def _draw(self, face_id: str) -> bytes:
        from deckgen import cache
        from deckgen.render import pngfile
        from deckgen.render.draw import draw_face

        spec = face_spec(self.deck, face_id, self.symbols)
        path: Path | None = None
        if self.use_cache:
            key = face_key(spec, self.frame, False)
            path = cache.cache_root() / "faces" / key[:2] / f"{key}.png"
            if path.is_file():
                cache.touch(path)
                return path.read_bytes()
        data = pngfile.encode(draw_face(spec, self.frame, False), self.frame.dpi, png_text(face_id, self.frame), 1)
        if path is not None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                write_bytes(path, data)
                cache.note_added(1)
            except OSError:
                pass                    # a read-only cache only costs drawing the face again next time
        return data


__all__ = ["SCREEN_DPI", "Faces"]
