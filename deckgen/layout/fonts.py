"""The TrueType fonts the PDFs use, embedded (subset) in every file.

The bundled fonts folder is searched first; ReportLab's own Bitstream Vera (shipped with
ReportLab, so always present) is the fallback. Nothing is read from the system or network.
"""

from __future__ import annotations

import functools
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from deckgen.resources import fonts_dir

REGULAR = "DeckgenLayout"
BOLD = "DeckgenLayout-Bold"

_PAIRS = (
    ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"),
    ("NotoSans-Regular.ttf", "NotoSans-Bold.ttf"),
    ("Roboto-Regular.ttf", "Roboto-Bold.ttf"),
    ("OpenSans-Regular.ttf", "OpenSans-Bold.ttf"),
    ("LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf"),
)


def font_files() -> tuple[Path, Path]:
    """(regular, bold) font files."""
    folder = fonts_dir()
    if folder.is_dir():
        found = {p.name: p for p in sorted(folder.rglob("*.ttf"))}
        for regular, bold in _PAIRS:
            if regular in found and bold in found:
                return found[regular], found[bold]
    import reportlab

    rl = Path(reportlab.__file__).parent / "fonts"
    return rl / "Vera.ttf", rl / "VeraBd.ttf"


@functools.lru_cache(maxsize=1)
def register_fonts() -> tuple[str, str]:
    """Register the fonts with ReportLab once per process; returns (regular, bold) names."""
    regular, bold = font_files()
    pdfmetrics.registerFont(TTFont(REGULAR, str(regular)))
    pdfmetrics.registerFont(TTFont(BOLD, str(bold)))
    return REGULAR, BOLD
