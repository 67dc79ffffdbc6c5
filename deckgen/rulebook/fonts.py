"""Embedded TrueType fonts for the rulebook (Spanish accents, ñ, ¿ ¡ « » included).

Bitstream Vera ships with ReportLab, so the rulebook needs nothing downloaded.
"""

from __future__ import annotations

from pathlib import Path

import reportlab
from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from deckgen.errors import DeckgenError, error

FAMILY = "DeckgenSans"
_FILES = {"": "Vera.ttf", "-Bold": "VeraBd.ttf", "-Italic": "VeraIt.ttf", "-BoldItalic": "VeraBI.ttf"}


def register() -> str:
    """Register the family once; return its name for paragraph styles."""
    if FAMILY in pdfmetrics.getRegisteredFontNames():
        return FAMILY
    folder = Path(reportlab.__file__).resolve().parent / "fonts"
    for suffix, file in _FILES.items():
        path = folder / file
        if not path.is_file():
            raise DeckgenError(error("font", "rulebook", f"font file {path} is missing",
                                     hint="reinstall reportlab, which ships the Vera fonts"))
        pdfmetrics.registerFont(TTFont(FAMILY + suffix, str(path)))
    for bold, italic, suffix in ((0, 0, ""), (1, 0, "-Bold"), (0, 1, "-Italic"), (1, 1, "-BoldItalic")):
        addMapping(FAMILY, bold, italic, FAMILY + suffix)
    return FAMILY
