"""``deckgen build``: check a deck, render its faces, lay out the print-and-play PDF, write
its rulebooks.

The outputs are plain calls in order: the card sheets (:func:`cards_output`), then the
rulebooks (:func:`rulebook_outputs`, from :mod:`deckgen.rulebook.step`). Both are kept in the
cache under keys that hash everything they are made from, so a build of an unchanged deck
copies bytes instead of typesetting them again. Every file is written atomically; a deck with
errors is not built unless ``force``.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from deckgen import cache
from deckgen.check import CheckOptions, check
from deckgen.errors import DeckHasErrors, Finding, warning
from deckgen.layout import LayoutOptions, cards_pdf_for_deck, parse_paper, write_bytes
from deckgen.model import Deck, Palette
from deckgen.progress import Progress
from deckgen.render import RenderResult
from deckgen.selection import select


@dataclass(frozen=True)
class BuildOptions:
    out_dir: Path = Path("output")
    dpi: int = 300
    bleed_mm: float = 3.0
    card_size: str | None = None              # None: the deck's own card_size
    layout: LayoutOptions = field(default_factory=LayoutOptions)
    palette: Palette | None = None
    force: bool = False
    use_cache: bool = True
    cache_dir: Path | None = None
    jobs: int | None = None
    rulebook: bool = True                     # also write the rulebook in every language
    only: str | None = None                   # --only ID[xN],...: just those cards (a reprint; no rulebook)
    booklet: bool = False                     # and each rulebook as a saddle-stitched booklet


@dataclass(frozen=True)
class OutputFile:
    kind: str            # "cards", "rulebook", ...
    path: Path
    pages: int | None
    size_bytes: int


@dataclass
class BuildResult:
    deck_id: str
    name: str
    outputs: list[OutputFile] = field(default_factory=list)
    cards: int = 0                  # physical cards laid out, components included
    faces: int = 0                  # distinct face images
    drawn: int = 0                  # faces drawn now (the rest came from the cache)
    errors: list[Finding] = field(default_factory=list)     # deck errors (only when forced)
    warnings: list[Finding] = field(default_factory=list)   # deck warnings and layout notes
    seconds: float = 0.0
    timings: dict[str, float] = field(default_factory=dict)
    sheet: str = ""                 # the card sheet's real figures (orientation, grid, bleed, gap)
    deck: Deck | None = field(default=None, repr=False, compare=False)    # the deck as built (for --watch)

    @property
    def pages(self) -> int:
        return sum(o.pages or 0 for o in self.outputs)

    @property
    def size_bytes(self) -> int:
        return sum(o.size_bytes for o in self.outputs)


    def to_json(self) -> dict:
        """The summary as plain data (``deckgen build --json``)."""
        return {
            "deck": self.deck_id, "name": self.name, "cards": self.cards, "faces": self.faces,
            "drawn": self.drawn, "pages": self.pages, "bytes": self.size_bytes,
            "seconds": round(self.seconds, 3), "sheet": self.sheet,
            "outputs": [{"kind": o.kind, "path": str(o.path), "pages": o.pages, "bytes": o.size_bytes}
                        for o in self.outputs],
            "errors": [f.to_json() for f in self.errors],
            "warnings": [f.to_json() for f in self.warnings],
        }


def _cards_key(deck: Deck, rendered: RenderResult, layout: LayoutOptions) -> str:
    from deckgen import inputs

    faces = "\n".join(f"{fid}={path.name}" for fid, path in sorted(rendered.paths.items()))
    layout = replace(layout, paper=parse_paper(layout.paper))
    return inputs.fingerprint(deck, "cards", repr(layout), repr(rendered.trim_mm), repr(rendered.bleed_mm),
                              str(rendered.dpi), faces, templates=False)


def cards_output(deck: Deck, rendered: RenderResult, options: BuildOptions, result: BuildResult,
                 progress: Progress | None = None) -> OutputFile:
    """``<deck>-cards.pdf``: every card copy, fronts and backs, on print-and-play sheets
    (``<deck>-cards-only.pdf`` for an ``--only`` reprint, so the full sheets are kept).

    With the cache on, the PDF (and its summary) is kept under a key made of the faces' own
    content keys, the deck and the layout options, so an unchanged deck is not laid out again.
    """
    key = _cards_key(deck, rendered, options.layout) if options.use_cache else ""
    meta_bytes = cache.get_bytes("documents", key, "json", options.cache_dir) if options.use_cache else None
    data = cache.get_bytes("documents", key, "pdf", options.cache_dir) if meta_bytes is not None else None
    if meta_bytes is not None and data is not None:
        meta = json.loads(meta_bytes)
        if progress:
            progress("Laying out sheets", 1, 1)
    else:
        pdf = cards_pdf_for_deck(deck, rendered.paths, rendered.trim_mm, rendered.bleed_mm, options.layout, progress)
        data = pdf.data
        meta = {"pages": pdf.pages, "cards": pdf.cards, "faces": pdf.faces, "notes": list(pdf.notes),
                "sheet": f"{pdf.paper.name}, {pdf.sheet.describe()}"}
        if options.use_cache:
            cache.put_bytes("documents", key, "pdf", data, options.cache_dir)
            cache.put_bytes("documents", key, "json", json.dumps(meta).encode("utf-8"), options.cache_dir)
    name = f"{deck.id}-cards-only.pdf" if options.only else f"{deck.id}-cards.pdf"
    path = write_bytes(Path(options.out_dir) / deck.id / name, data)
    result.cards, result.faces, result.sheet = meta["cards"], meta["faces"], meta["sheet"]
    result.warnings.extend(warning("layout", "sheet", note) for note in meta["notes"])
    return OutputFile("cards", path, meta["pages"], len(data))


def rulebook_outputs(deck: Deck, options: BuildOptions, result: BuildResult,
                     progress: Progress | None = None) -> list[OutputFile]:
    """``<deck>-rulebook-<lang>.pdf`` in every language the deck's templates exist in (and with
    ``booklet`` each as ``<deck>-rulebook-<lang>-booklet.pdf`` too)."""
    from deckgen.rulebook.step import paper_for_sheets, write_rulebooks

    paper = paper_for_sheets(parse_paper(options.layout.paper).width_mm)
    books, notes = write_rulebooks(deck, Path(options.out_dir) / deck.id, paper=paper,
                                   force=options.force, use_cache=options.use_cache, cache_dir=options.cache_dir,
                                   progress=progress, jobs=options.jobs, booklet=options.booklet)
    result.warnings.extend(notes)
    return [OutputFile("rulebook", b.path, b.pages, b.size_bytes) for b in books]


def load_checked(ref: str | Path, options: BuildOptions) -> tuple[Deck, list[Finding], list[Finding]]:
    """The deck after the static checks (no simulation); raises DeckHasErrors unless forced."""
    report = check(ref, CheckOptions(simulate=False, palette=options.palette))
    if report.deck is None or (report.errors and not options.force):
        raise DeckHasErrors(report.errors or report.findings)
    return report.deck, report.errors, report.warnings


def build_deck(ref: str | Path, options: BuildOptions = BuildOptions(),
               progress: Progress | None = None) -> BuildResult:
    """Check, render and write every output of one deck."""
    from deckgen.render import RenderSettings, render_deck

    start = time.perf_counter()
    deck, errors, warnings = load_checked(ref, options)
    deck = select(deck, options.only)
    result = BuildResult(deck.id, deck.name(), errors=list(errors), warnings=list(warnings), deck=deck)
    t_check = time.perf_counter()
    settings = RenderSettings(dpi=options.dpi, bleed_mm=options.bleed_mm, card_size=options.card_size)
    rendered = render_deck(deck, settings, None, use_cache=options.use_cache, cache_dir=options.cache_dir,
                           progress=progress, jobs=options.jobs)
    result.drawn = rendered.drawn
    t_render = time.perf_counter()
    result.outputs.append(cards_output(deck, rendered, options, result, progress))
    if options.rulebook and not options.only:      # a reprint of a few cards needs no rulebook
        result.outputs.extend(rulebook_outputs(deck, options, result, progress))
    if options.use_cache:
        cache.auto_prune(options.cache_dir)
    end = time.perf_counter()
    result.seconds = end - start
    result.timings = {"check": t_check - start, "render": t_render - t_check, "write": end - t_render}
    return result


def bundled_refs() -> list[str]:
    from deckgen import manifest

    return list(manifest.bundled_decks())
