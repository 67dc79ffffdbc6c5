"""Where deckgen writes: every output file's and folder's name, decided here and nowhere else.

A command with no ``-o`` writes under ``output/<deck>/``; ``deckgen build -o OUT`` under
``OUT/<deck>/``. The commands (:mod:`deckgen.cli`) and the steps (the build's card sheets and
rulebooks, the report, the preview) ask this module for a name instead of spelling one out.
The names are part of deckgen's interface (docs/cli.md lists them): changing one here changes
it for every command at once.
"""

from __future__ import annotations

from pathlib import Path

OUTPUT = Path("output")            # the folder every command writes under when not given -o


def deck_folder(deck_id: str, out_dir: str | Path = OUTPUT) -> Path:
    """``<out_dir>/<deck>``: the folder of one deck's files."""
    return Path(out_dir) / deck_id


def cards_pdf(deck_id: str, out_dir: str | Path = OUTPUT, *, only: bool = False) -> Path:
    """The card sheets: ``<out_dir>/<deck>/<deck>-cards.pdf`` (``-cards-only.pdf`` for an --only reprint)."""
    return deck_folder(deck_id, out_dir) / f"{deck_id}-cards{'-only' if only else ''}.pdf"


def cut_file(cards: Path, sheet: int, ext: str = "svg") -> Path:
    """``--cut-file svg|dxf``: the outlines of sheet ``sheet`` beside the card sheets' PDF (``…-cut-01.svg``)."""
    return cards.with_name(f"{cards.stem}-cut-{sheet:02d}.{ext}")


def rulebook_name(deck_id: str, lang: str, booklet: bool = False) -> str:
    """``<deck>-rulebook-<lang>.pdf``, or ``<deck>-rulebook-<lang>-booklet.pdf``."""
    return f"{deck_id}-rulebook-{lang}{'-booklet' if booklet else ''}.pdf"


def rulebook_pdf(deck_id: str, lang: str, booklet: bool = False, *, folder: Path | None = None) -> Path:
    """A rulebook in ``folder`` (a build's deck folder), by default ``output/<deck>/``."""
    return (deck_folder(deck_id) if folder is None else Path(folder)) / rulebook_name(deck_id, lang, booklet)


def report_pdf(deck_id: str) -> Path:
    """``deckgen report``: ``output/<deck>/<deck>-report.pdf``."""
    return deck_folder(deck_id) / f"{deck_id}-report.pdf"


def tune_files(deck_id: str) -> tuple[Path, Path, Path]:
    """``deckgen tune``: ``output/<deck>/<deck>-tune.json``, ``-tune.pdf`` and the study file ``-tune-study.log``."""
    folder = deck_folder(deck_id)
    return folder / f"{deck_id}-tune.json", folder / f"{deck_id}-tune.pdf", folder / f"{deck_id}-tune-study.log"


def preview_png(deck_id: str) -> Path:
    """``deckgen preview``: ``<deck>-preview.png`` in the current folder."""
    return Path(f"{deck_id}-preview.png")


def tts_folder(deck_id: str) -> Path:
    """``deckgen export tts``: ``output/<deck>/tts``."""
    return deck_folder(deck_id) / "tts"


def print_shop_folder(deck_id: str, service_id: str) -> Path:
    """``deckgen export cards``: ``output/<deck>/print-<service>``."""
    return deck_folder(deck_id) / f"print-{service_id}"


def sheet_file(deck_id: str, fmt: str) -> Path:
    """``deckgen export sheet``: ``output/<deck>/<deck>-cards.<csv|xlsx|ods>``."""
    return deck_folder(deck_id) / f"{deck_id}-cards.{fmt}"


def pack_file(deck_id: str) -> Path:
    """``deckgen pack``: ``output/<deck>/<deck>.deck.zip``."""
    return deck_folder(deck_id) / f"{deck_id}.deck.zip"


__all__ = ["OUTPUT", "cards_pdf", "cut_file", "deck_folder", "pack_file", "preview_png", "print_shop_folder", "report_pdf",
           "rulebook_name", "rulebook_pdf", "sheet_file", "tts_folder"]
