"""``deckgen build``: check a deck, render its faces, lay out the print-and-play PDF.

A build is a list of output steps run in order against one :class:`BuildContext`; the
cards PDF is the first. Another stage adds its own file (the rulebook) with
:func:`register_output`, and it appears in the summary like the rest::

    def rulebook_output(ctx: BuildContext) -> list[OutputFile]: ...
    register_output("rulebook", rulebook_output)

Every file is written atomically; a deck with errors is not built unless ``force``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from deckgen.check import CheckOptions, check
from deckgen.errors import DeckHasErrors, Finding, warning
from deckgen.layout import LayoutOptions, cards_pdf_for_deck, write_bytes
from deckgen.model import Deck, Palette
from deckgen.progress import Progress
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


@dataclass
class BuildContext:
    deck: Deck
    options: BuildOptions
    deck_dir: Path                  # <out_dir>/<deck id>
    render: object                  # deckgen.render.RenderResult
    result: BuildResult
    progress: Progress | None = None


OutputStep = Callable[[BuildContext], "list[OutputFile]"]
_STEPS: list[tuple[str, OutputStep]] = []


def register_output(name: str, step: OutputStep) -> None:
    """Add (or replace) a named output step; steps run in registration order."""
    for i, (existing, _) in enumerate(_STEPS):
        if existing == name:
            _STEPS[i] = (name, step)
            return
    _STEPS.append((name, step))


def output_steps() -> list[str]:
    return [name for name, _ in _STEPS]


def cards_output(ctx: BuildContext) -> list[OutputFile]:
    """``<deck>-cards.pdf``: every card copy, fronts and backs, on print-and-play sheets
    (``<deck>-cards-only.pdf`` for an ``--only`` reprint, so the full sheets are kept)."""
    deck, r = ctx.deck, cast(Any, ctx.render)       # a deckgen.render.RenderResult
    pdf = cards_pdf_for_deck(deck, r.paths, r.trim_mm, r.bleed_mm, ctx.options.layout, ctx.progress)
    name = f"{deck.id}-cards-only.pdf" if ctx.options.only else f"{deck.id}-cards.pdf"
    path = write_bytes(ctx.deck_dir / name, pdf.data)
    ctx.result.cards, ctx.result.faces = pdf.cards, pdf.faces
    ctx.result.sheet = f"{pdf.paper.name}, {pdf.sheet.describe()}"
    ctx.result.warnings.extend(warning("layout", "sheet", note) for note in pdf.notes)
    return [OutputFile("cards", path, pdf.pages, len(pdf.data))]


register_output("cards", cards_output)


def _rulebook_output(ctx: BuildContext) -> list[OutputFile]:
    """``<deck>-rulebook-<lang>.pdf`` in every language the deck's templates exist in."""
    if not ctx.options.rulebook or ctx.options.only:      # a reprint of a few cards needs no rulebook
        return []
    from deckgen.rulebook.step import rulebook_output

    return rulebook_output(ctx)


register_output("rulebook", _rulebook_output)


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
    result = BuildResult(deck.id, deck.name(), errors=list(errors), warnings=list(warnings))
    t_check = time.perf_counter()
    settings = RenderSettings(dpi=options.dpi, bleed_mm=options.bleed_mm, card_size=options.card_size)
    rendered = render_deck(deck, settings, None, use_cache=options.use_cache, cache_dir=options.cache_dir,
                           progress=progress, jobs=options.jobs)
    result.drawn = rendered.drawn
    t_render = time.perf_counter()
    ctx = BuildContext(deck, options, Path(options.out_dir) / deck.id, rendered, result, progress)
    for _, step in _STEPS:
        result.outputs.extend(step(ctx))
    end = time.perf_counter()
    result.seconds = end - start
    result.timings = {"check": t_check - start, "render": t_render - t_check, "write": end - t_render}
    return result


def bundled_refs() -> list[str]:
    from deckgen import manifest

    return list(manifest.bundled_decks())
