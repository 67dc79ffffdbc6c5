"""Fonts for card faces: from ``fonts/`` (which users may fill), then from the dependencies.

Resolution order for each role (``display`` for big numbers and indices, ``text`` for labels):

1. the folder in ``$DECKGEN_FONTS``, then the bundled ``fonts/`` folder: a ``fonts.toml`` there
   may name a file per role (``display = "MyFont.ttf"``); otherwise League Spartan;
2. Bitstream Vera Sans Bold, shipped inside ReportLab.

Nothing is downloaded. A font without the Spanish letters is skipped.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

from PIL import ImageFont

from deckgen.errors import DeckgenError, error
from deckgen.manifest.reader import read_toml
from deckgen.resources import fonts_dir

ROLES = {"display": "LeagueSpartan-Black.otf", "text": "LeagueSpartan-Bold.otf"}
SPANISH = "áéíóúñÁÉÍÓÚÑ¿¡ü"


def font_dirs() -> list[Path]:
    dirs = []
    if os.environ.get("DECKGEN_FONTS"):
        dirs.append(Path(os.environ["DECKGEN_FONTS"]))
    dirs.append(fonts_dir())
    return dirs


def _fallback() -> Path:
    import reportlab

    return Path(reportlab.__file__).resolve().parent / "fonts" / "VeraBd.ttf"


def _configured(folder: Path) -> dict[str, str]:
    conf = folder / "fonts.toml"
    if not conf.is_file():
        return {}
    data = read_toml(conf)
    unknown = sorted(set(data) - set(ROLES))
    if unknown:
        raise DeckgenError(error("unknown-key", unknown[0], f"unknown font role '{unknown[0]}'", file=str(conf),
                                 hint="roles: " + ", ".join(ROLES)))
    bad = [k for k, v in data.items() if not isinstance(v, str)]
    if bad:
        raise DeckgenError(error("type", bad[0], "expected a font file name", file=str(conf),
                                 hint='e.g. display = "MyFont-Black.ttf"'))
    return dict(data)


def covers_spanish(path: Path) -> bool:
    try:
        font = ImageFont.truetype(str(path), 40)
    except OSError:
        return False
    notdef = font.getmask("\uffff").getbbox()
    for ch in SPANISH:
        box = font.getmask(ch).getbbox()
        if box is None or box == notdef:
            return False
    return True


@functools.lru_cache(maxsize=8)
def font_path(role: str) -> Path:
    """The font file used for a role (``display`` or ``text``)."""
    for folder in font_dirs():
        if not folder.is_dir():
            continue
        chosen = _configured(folder).get(role)
        path = folder / (chosen or ROLES[role])
        if chosen:
            _check_chosen(folder, role, path)
            return path
        if path.is_file() and covers_spanish(path):
            return path
    return _fallback()


def _check_chosen(folder: Path, role: str, path: Path) -> None:
    """A font a user named in fonts.toml must exist, load and have the Spanish letters."""
    conf = str(folder / "fonts.toml")
    if not path.is_file():
        there = sorted(p.name for p in folder.iterdir() if p.suffix.lower() in (".ttf", ".otf"))
        raise DeckgenError(error("font", role, f"no font file '{path.name}' in {folder}", file=conf,
                                 hint=("fonts there: " + ", ".join(there)) if there else
                                 "copy the .ttf or .otf file into that folder"))
    if not covers_spanish(path):
        raise DeckgenError(error("font", role, f"'{path.name}' cannot be loaded or lacks Spanish letters "
                                 f"({SPANISH})", file=conf, hint="choose a font with full Latin-1 coverage"))


@functools.lru_cache(maxsize=256)
def font(role: str, size_px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(font_path(role)), max(4, int(size_px)))


def fonts_signature() -> str:
    """What the cache key needs to know about fonts: the files used and their sizes."""
    parts = []
    for role in sorted(ROLES):
        p = font_path(role)
        parts.append(f"{role}={p.name}:{p.stat().st_size}")
    return ";".join(parts)
