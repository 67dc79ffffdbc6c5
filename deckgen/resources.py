"""Where the bundled data lives: in a wheel under ``deckgen/_data``, in a source
checkout (or an editable install) at the top of the repository."""

from __future__ import annotations

from pathlib import Path

_PKG = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """``decks``, ``templates`` or ``fonts``."""
    installed = _PKG / "_data" / name
    if installed.is_dir():
        return installed
    return _PKG.parent / name


def decks_dir() -> Path:
    return data_dir("decks")


def templates_dir() -> Path:
    return data_dir("templates")


def fonts_dir() -> Path:
    return data_dir("fonts")
