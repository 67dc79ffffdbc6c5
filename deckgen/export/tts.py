"""``deckgen export tts``: Tabletop Simulator deck sheets.

TTS imports a custom deck from a grid image of at most 10 × 7 cells, no side above 4096 px,
whose last cell is the "hidden" image shown for cards in other players' hands. Each sheet
holds up to 69 cards (copies included); components with their own backs (Power cards) get
a front sheet and a matching back sheet ("unique backs").
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from deckgen.atomic import write_text
from deckgen.errors import DeckgenError, error
from deckgen.export.images import EXTENSIONS, save
from deckgen.layout.imposition import BACK, card_copies
from deckgen.model import Deck
from deckgen.progress import Progress
from deckgen.units import mm_to_px

MAX_COLS, MAX_ROWS, MAX_SIDE = 10, 7, 4096
PER_SHEET = MAX_COLS * MAX_ROWS - 1



@dataclass(frozen=True)
class TtsSheet:
    path: Path
    cards: int
    cols: int
    rows: int
    backs: Path | None = None     # unique-backs sheet, same grid
    label: str = "deck"


@dataclass(frozen=True)
class TtsResult:
    folder: Path
    sheets: tuple[TtsSheet, ...]
    back: Path
    howto: Path
    cell_px: tuple[int, int]

    @property
    def files(self) -> list[Path]:
        out = [s.path for s in self.sheets] + [s.backs for s in self.sheets if s.backs]
        return [*out, self.back, self.howto]


def tts_dpi(trim_mm: tuple[float, float], max_side: int = MAX_SIDE) -> int:
    """The highest resolution at which a 10 x 7 sheet of cards stays within ``max_side`` px."""
    cw, ch = max_side // MAX_COLS, max_side // MAX_ROWS
    dpi = int(min(cw / trim_mm[0], ch / trim_mm[1]) * 25.4)
    while mm_to_px(trim_mm[0], dpi) > cw or mm_to_px(trim_mm[1], dpi) > ch:
        dpi -= 1
    return dpi


def cell_px(trim_mm: tuple[float, float], max_side: int = MAX_SIDE) -> tuple[int, int]:
    """One cell: the card (no bleed) at :func:`tts_dpi`."""
    dpi = tts_dpi(trim_mm, max_side)
    return mm_to_px(trim_mm[0], dpi), mm_to_px(trim_mm[1], dpi)


def grid_for(cards: int) -> tuple[int, int]:
    """Columns and rows for ``cards`` cards plus the hidden cell."""
    cells = cards + 1
    cols = min(MAX_COLS, cells)
    return cols, math.ceil(cells / cols)


def _sheet(faces: list[str], images: dict[str, Image.Image], hidden: Image.Image, cell) -> Image.Image:
    cols, rows = grid_for(len(faces))
    sheet = Image.new("RGB", (cols * cell[0], rows * cell[1]), "white")
    for i, face in enumerate(faces):
        sheet.paste(images[face], ((i % cols) * cell[0], (i // cols) * cell[1]))
    sheet.paste(hidden, ((cols - 1) * cell[0], (rows - 1) * cell[1]))
    return sheet


def export_tts(deck: Deck, out_dir: Path, *, fmt: str = "png", use_cache: bool = True,
               cache_dir: Path | None = None, progress: Progress | None = None, jobs: int | None = None,
               card_size: str | None = None, max_side: int = MAX_SIDE) -> TtsResult:
    from deckgen.render import RenderSettings, card_size_mm, render_deck

    if not 1024 <= max_side <= MAX_SIDE:
        raise DeckgenError(error("option", "--max-side", f"{max_side} px is out of range",
                                 hint=f"Tabletop Simulator takes sheets from 1024 to {MAX_SIDE} px a side"))
    trim = card_size_mm(card_size or deck.card_size, base=deck.source.parent if deck.source else None)
    cell = cell_px(trim, max_side)
    rendered = render_deck(deck, RenderSettings(dpi=tts_dpi(trim, max_side), bleed_mm=0.0, card_size=card_size),
                           use_cache=use_cache, cache_dir=cache_dir, progress=progress, jobs=jobs)
    images: dict[str, Image.Image] = {}
    for face, path in rendered.paths.items():
        with Image.open(path) as im:
            im = im.convert("RGB")
            images[face] = im if im.size == cell else im.resize(cell, Image.LANCZOS)
    folder = Path(out_dir)
    ext = EXTENSIONS[fmt]
    hidden = images[BACK]
    copies = card_copies(deck)
    playing = [c.front for c in copies if not c.component]
    sheets = []
    chunks = [playing[i:i + PER_SHEET] for i in range(0, len(playing), PER_SHEET)]
    for n, chunk in enumerate(chunks, 1):
        path = save(_sheet(chunk, images, hidden, cell), folder / f"{deck.id}-tts-{n}{ext}", fmt)
        sheets.append(TtsSheet(path, len(chunk), *grid_for(len(chunk)), label=f"deck {n}/{len(chunks)}"))
        if progress:
            progress("TTS sheets", n, len(chunks))
    for comp in deck.components:
        mine = [c for c in copies if c.component and c.front == comp.faces[0]]
        parts = [mine[i:i + PER_SHEET] for i in range(0, len(mine), PER_SHEET)]
        for n, part in enumerate(parts, 1):
            suffix = f"-{n}" if len(parts) > 1 else ""
            front = save(_sheet([c.front for c in part], images, hidden, cell),
                         folder / f"{deck.id}-tts-{comp.id}{suffix}-front{ext}", fmt)
            back = save(_sheet([c.back for c in part], images, hidden, cell),
                        folder / f"{deck.id}-tts-{comp.id}{suffix}-back{ext}", fmt)
            sheets.append(TtsSheet(front, len(part), *grid_for(len(part)), backs=back, label=comp.id + suffix))
    back = save(hidden, folder / f"{deck.id}-tts-back{ext}", fmt)
    howto = write_text(folder / f"{deck.id}-tts-import.txt", howto_text(deck, sheets, back))
    return TtsResult(folder, tuple(sheets), back, howto, cell)


def howto_text(deck: Deck, sheets: list[TtsSheet], back: Path) -> str:
    lines = [f"{deck.name('en')}: Tabletop Simulator import", "",
             "For each file below, in Tabletop Simulator: Objects > Components > Custom > Deck,",
             "then set Face to the sheet file, Back to the back file, Width and Height to the grid,",
             "Number to the card count, leave 'Back is Hidden' off and press Import.",
             "Files on your disk can be chosen with the folder button (or upload them to the Steam",
             "Cloud / any web host and paste the address).", ""]
    for s in sheets:
        if s.backs:
            lines.append(f"- {s.label}: Face {s.path.name}, Back {s.backs.name} with 'Unique Backs' on, "
                         f"Width {s.cols}, Height {s.rows}, Number {s.cards}")
        else:
            lines.append(f"- {s.label}: Face {s.path.name}, Back {back.name}, "
                         f"Width {s.cols}, Height {s.rows}, Number {s.cards}")
    lines += ["", "After importing the playing-card sheets, stack the decks together and shuffle.", "",
              "En Tabletop Simulator: Objetos > Componentes > Personalizado > Mazo. Elige la hoja como",
              "cara, el dorso indicado como dorso, el ancho y alto de la cuadrícula y el número de cartas",
              "de cada línea de arriba, y pulsa Importar. Después junta los mazos y baraja.", ""]
    return "\n".join(lines)
