"""How faces are rendered (:class:`RenderSettings`) and what rendering a deck gives
(:class:`RenderResult`): the renderer's shared types, in a module of their own so that the
renderer's parts (:mod:`deckgen.render.batch`) need not import the package that imports them."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from deckgen.model import Deck
from deckgen.render.geometry import Frame, card_size_mm

RENDERER_VERSION = "3"       # 2: faces drawn from layout files (deckgen/render/layout.py); 3: issue 32 (wheel, captions)


@dataclass(frozen=True)
class RenderSettings:
    dpi: int = 300
    bleed_mm: float = 3.0
    safe_mm: float = 3.0
    card_size: str | None = None      # preset name or "WxH" with units; None: the deck's card_size
    symbols: bool | None = None       # colour-blind shape cues; None: the deck's (deck.symbols, else > 4 colours)
    corner_guide: bool = False

    def frame(self, deck: Deck) -> Frame:
        from deckgen.errors import DeckgenError, error

        try:
            size = card_size_mm(self.card_size or deck.card_size, base=deck.source.parent if deck.source else None)
        except DeckgenError as exc:
            if self.card_size:
                raise
            file = str(deck.source) if deck.source else None
            raise DeckgenError([error(f.code, "deck.card_size", f.message, file=file, hint=f.hint)
                                for f in exc.findings]) from None
        return Frame(size, int(self.dpi), float(self.bleed_mm), float(self.safe_mm))

    def symbols_on(self, deck: Deck) -> bool:
        return deck.shape_cues if self.symbols is None else bool(self.symbols)


@dataclass(frozen=True)
class RenderResult:
    paths: dict[str, Path]
    size_px: tuple[int, int]
    trim_mm: tuple[float, float]
    bleed_mm: float
    dpi: int
    drawn: int
    # without the cache, the temporary folder holding the faces: it lives as long as the result
    scratch: object = field(default=None, repr=False, compare=False)


def settings_check(settings: RenderSettings) -> None:
    from deckgen.errors import DeckgenError, error

    problems = []
    if not 30 <= int(settings.dpi) <= 1200:
        problems.append(error("option", "dpi", f"{settings.dpi} dpi is out of range", hint="use 30 to 1200 (300 for print)"))
    if not 0 <= settings.bleed_mm <= 10:
        problems.append(error("option", "bleed", f"{settings.bleed_mm} mm bleed is out of range", hint="use 0mm to 10mm"))
    if not 0 <= settings.safe_mm <= 10:
        problems.append(error("option", "safe", f"{settings.safe_mm} mm safe margin is out of range",
                              hint="use 0mm to 10mm"))
    if problems:
        raise DeckgenError(problems)
