"""The rulebook: jinja2 templates -> a printable PDF in Spanish or English, checked against the deck.

Public API::

    write_rulebook(deck, lang, out_path, *, paper="a4", booklet=False, progress=None) -> Path
    crosscheck(deck) -> list[Finding]
    check_stage(deck, options, report) -> list[Finding]     (plugged into ``deckgen check``)

The package only gathers its modules' public names: :mod:`.document` typesets one rulebook,
:mod:`.step` writes a build's rulebooks (through the cache), :mod:`.text` runs the templates,
:mod:`.lookup` finds them. The names of :mod:`.document` and :mod:`.text` are imported when first
used (they import jinja2): a build whose rulebooks come from the cache never imports them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from deckgen.errors import DeckgenError
from deckgen.model import Deck
from deckgen.rulebook.lookup import RulebookSummary, languages

if TYPE_CHECKING:
    from deckgen.rulebook.document import PAPERS, build_rulebook, write_rulebook
    from deckgen.rulebook.text import checked_text, crosscheck, render_text
    from deckgen.stages import CheckOptions, StageResult

__all__ = ["PAPERS", "build_rulebook", "check_stage", "checked_text", "crosscheck", "languages", "render_text",
           "write_rulebook"]

_LAZY = {"PAPERS": "document", "build_rulebook": "document", "write_rulebook": "document",
         "checked_text": "text", "crosscheck": "text", "render_text": "text"}


def __getattr__(name: str) -> object:
    """The names of :mod:`.document` and :mod:`.text`, imported when first used."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if module == "document":
        from deckgen.rulebook import document

        return getattr(document, name)
    from deckgen.rulebook import text

    return getattr(text, name)


def check_stage(deck: Deck, options: CheckOptions) -> StageResult:
    """``deckgen check``'s rulebook step: the cross-check, summarised in the JSON report, and
    the cover logo's contrast against the page (:mod:`deckgen.rulebook.cover`, imported only for
    a deck with a logo: it imports Pillow's filters)."""
    from deckgen.rulebook.step import crosscheck_cached

    try:
        findings = crosscheck_cached(deck)
        langs = languages(deck)
    except DeckgenError as exc:
        findings, langs = exc.findings, []
    if deck.cover_logo is not None or deck.logo is not None:
        from deckgen.rulebook.cover import cover_findings

        findings = [*findings, *cover_findings(deck)]
    from deckgen.stages import StageResult

    return StageResult(findings, {"rulebook": RulebookSummary(tuple(langs), sum(1 for f in findings if f.is_error))})
