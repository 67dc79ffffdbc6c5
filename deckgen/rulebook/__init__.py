"""The rulebook: jinja2 templates -> a printable PDF in Spanish or English, checked against the deck.

Public API::

    write_rulebook(deck, lang, out_path, *, paper="a4", booklet=False, progress=None) -> Path
    crosscheck(deck) -> list[Finding]
    check_stage(deck, options, report) -> list[Finding]     (plugged into ``deckgen check``)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckgen.atomic import write_bytes
from deckgen.errors import DeckgenError, Finding, error
from deckgen.model import Deck
from deckgen.rulebook.env import languages
from deckgen.rulebook.text import RulebookSummary, checked_text, crosscheck, render_text

if TYPE_CHECKING:
    from deckgen.check import CheckOptions, CheckReport
    from deckgen.rulebook.pdf import PDFBytes

__all__ = ["PAPERS", "build_rulebook", "check_stage", "crosscheck", "languages", "render_text", "write_rulebook"]

PAPERS = ("a4", "letter")


def build_rulebook(deck: Deck, lang: str, *, paper: str = "a4", images: Mapping[str, Any] | None = None,
                   image_dpi: int | None = None, progress: Callable[[str, int, int], None] | None = None,
                   booklet: bool = False, text: tuple[str, Any] | None = None) -> PDFBytes:
    """The rulebook PDF as bytes. Raises DeckHasErrors when the cross-check fails.

    ``text``: the templates' text and recorder (:func:`checked_text`) when already made, e.g. by
    the process that checked the deck.

    ``booklet``: half-size pages padded to a multiple of four and imposed 2-up on landscape
    ``paper`` sheets in saddle-stitch order."""
    from deckgen.rulebook.images import DPI, card_images
    from deckgen.rulebook.pdf import build_booklet, build_pdf

    if paper not in PAPERS:
        raise DeckgenError(error("option", "--paper", f"unknown paper size '{paper}'", hint="use a4 or letter"))
    body, rec = text if text is not None else checked_text(deck, lang)
    if images is None:
        images = card_images(deck, image_dpi or DPI, progress)
    data = build_pdf(deck, lang, (body, rec), images, paper, progress, booklet=booklet)
    return build_booklet(data, paper) if booklet else data


def write_rulebook(deck: Deck, lang: str, out_path: Path, *, paper: str = "a4", booklet: bool = False,
                   progress: Callable[[str, int, int], None] | None = None) -> Path:
    """Write the rulebook atomically (temp file + os.replace); same inputs -> same bytes."""
    out_path = Path(out_path)
    data = build_rulebook(deck, lang, paper=paper, progress=progress, booklet=booklet)
    write_bytes(out_path, data)
    return out_path


def check_stage(deck: Deck, options: CheckOptions, report: CheckReport) -> list[Finding]:
    """``deckgen check``'s rulebook step: the cross-check, summarised in the JSON report, and
    the cover logo's contrast against the page (:mod:`deckgen.rulebook.cover`)."""
    from deckgen.rulebook.cover import cover_findings
    from deckgen.rulebook.step import crosscheck_cached

    try:
        findings = crosscheck_cached(deck)
        langs = languages(deck)
    except DeckgenError as exc:
        findings, langs = exc.findings, []
    findings = [*findings, *cover_findings(deck)]
    report.rulebook = RulebookSummary(tuple(langs), sum(1 for f in findings if f.is_error))
    return findings
