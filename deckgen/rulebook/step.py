"""The rulebook as a ``deckgen build`` output step: one PDF per language, beside the card sheets.

Register it with ``deckgen.build.register_output("rulebook", rulebook_output)``.
"""

from __future__ import annotations

from deckgen.atomic import write_bytes
from deckgen.errors import DeckHasErrors, warning
from deckgen.rulebook import build_rulebook, languages


def _paper(ctx) -> str:
    """The rulebook's paper: letter when the sheets are on US paper, else A4."""
    paper = getattr(getattr(ctx.options, "layout", None), "paper", None)
    width = getattr(paper, "width_mm", None)
    return "letter" if width and abs(float(width) - 215.9) < 1 else "a4"


def rulebook_output(ctx) -> list:
    """``<deck>-rulebook-<lang>.pdf`` for each language the templates exist in, and with the
    build's ``booklet`` option ``<deck>-rulebook-<lang>-booklet.pdf`` too."""
    from deckgen.build import OutputFile

    out = []
    kinds = [False, True] if getattr(ctx.options, "booklet", False) else [False]
    for lang in languages(ctx.deck):
        for booklet in kinds:
            suffix = "-booklet" if booklet else ""
            path = ctx.deck_dir / f"{ctx.deck.id}-rulebook-{lang}{suffix}.pdf"
            try:
                data = build_rulebook(ctx.deck, lang, paper=_paper(ctx), progress=ctx.progress, booklet=booklet)
            except DeckHasErrors as exc:
                if not ctx.options.force:
                    raise
                ctx.result.warnings.extend(warning(f.code, f.where, f"rulebook not written: {f.message}", file=f.file,
                                                   line=f.line) for f in exc.findings)
                break
            write_bytes(path, data)
            out.append(OutputFile("rulebook", path, _pages(data), len(data)))
    return out


def _pages(data: bytes) -> int:
    import io

    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(data)).pages)
