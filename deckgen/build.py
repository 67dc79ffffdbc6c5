"""``deckgen build``: check a deck, render its faces, lay out the print-and-play PDF, write
its rulebooks.

A build of one deck or several (:func:`build_decks`) is a set of jobs on one pool of workers
(:mod:`deckgen.workers`): each group of faces to draw, each deck's card sheets (once its faces
are drawn) and each rulebook (from :mod:`deckgen.rulebook.step`, once its deck is checked). The
card sheets and the rulebooks are kept in the cache under keys that hash everything they are
made from, so a build of an unchanged deck copies bytes instead of typesetting them again.
Every file is written atomically; a deck with errors is not built unless ``force``.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from deckgen import cache, manifest, outputs
from deckgen.check import CheckOptions, CheckReport, check, check_many
from deckgen.errors import DeckgenError, DeckHasErrors, Finding, warning
from deckgen.layout import LayoutOptions, cards_pdf_for_deck, parse_paper, write_bytes
from deckgen.manifest import LoadResult
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
    verdict: bool = True                      # the check's simulated games too (--watch plays them afterwards)


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
    # seconds: "check" this deck's checks; "render" from the start until its last face was drawn
    # (faces are drawn while decks are checked); "write" from then until its last output was written
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


CardsMeta = dict    # pages, cards, faces, notes, sheet: what the summary says of the card sheets


def _cards_path(deck: Deck, options: BuildOptions) -> Path:
    return outputs.cards_pdf(deck.id, options.out_dir, only=bool(options.only))


def cards_from_cache(deck: Deck, rendered: RenderResult, options: BuildOptions) -> tuple[OutputFile, CardsMeta] | None:
    """The card sheets written from the cache (kept under a key made of the faces' own content
    keys, the deck and the layout options), or None when they are not there."""
    if not options.use_cache or options.layout.cut_file != "none":      # cut files are written with the PDF
        return None
    key = _cards_key(deck, rendered, options.layout)
    meta_bytes = cache.get_bytes("documents", key, "json", options.cache_dir)
    data = cache.get_bytes("documents", key, "pdf", options.cache_dir) if meta_bytes is not None else None
    if meta_bytes is None or data is None:
        return None
    meta = json.loads(meta_bytes)
    path = write_bytes(_cards_path(deck, options), data)
    return OutputFile("cards", path, meta["pages"], len(data)), meta


def make_cards(deck: Deck, rendered: RenderResult, options: BuildOptions) -> tuple[OutputFile, CardsMeta]:
    """``<deck>-cards.pdf``: every card copy, fronts and backs, on print-and-play sheets
    (``<deck>-cards-only.pdf`` for an ``--only`` reprint, so the full sheets are kept), laid out,
    kept in the cache and written."""
    pdf = cards_pdf_for_deck(deck, rendered.paths, rendered.trim_mm, rendered.bleed_mm, options.layout)
    meta = {"pages": pdf.pages, "cards": pdf.cards, "faces": pdf.faces, "notes": list(pdf.notes),
            "sheet": f"{pdf.paper.name}, {pdf.sheet.describe()}"}
    if options.use_cache:
        key = _cards_key(deck, rendered, options.layout)
        cache.put_bytes("documents", key, "pdf", pdf.data, options.cache_dir)
        cache.put_bytes("documents", key, "json", json.dumps(meta).encode("utf-8"), options.cache_dir)
    path = write_bytes(_cards_path(deck, options), pdf.data)
    meta["cut_files"] = [[str(write_bytes(outputs.cut_file(path, no), svg)), len(svg)]
                         for no, svg in pdf.cut_files]          # --cut-file svg: one per sheet
    return OutputFile("cards", path, pdf.pages, len(pdf.data)), meta


def _apply_cards(result: BuildResult, made: tuple[OutputFile, CardsMeta]) -> OutputFile:
    out, meta = made
    result.cards, result.faces, result.sheet = meta["cards"], meta["faces"], meta["sheet"]
    result.outputs.extend(OutputFile("cut", Path(p), None, n) for p, n in meta.get("cut_files", []))
    result.warnings.extend(warning("layout", "sheet", note) for note in meta["notes"])
    return out


def check_options(options: BuildOptions) -> CheckOptions:
    """The check a build runs: every check and the playability verdict (docs/checks.md), the
    verdict of an unchanged deck read from the cache."""
    return CheckOptions(simulate=options.verdict, palette=options.palette, jobs=options.jobs,
                        use_cache=options.use_cache, cache_dir=options.cache_dir)


def load_checked(ref: str | Path, options: BuildOptions, loaded: LoadResult | None = None,
                 report: CheckReport | None = None) -> tuple[Deck, list[Finding], list[Finding]]:
    """The deck after every check and the verdict (``report``, when the caller ran them already);
    raises DeckHasErrors unless forced. A forced deck with errors is marked so on its cover."""
    if report is None:
        report = check(ref, check_options(options), loaded)
    if report.deck is None or (report.errors and not options.force):
        raise DeckHasErrors(report.errors or report.findings)
    deck = report.deck
    return deck, report.errors, report.warnings


def forced_layout(options: BuildOptions, errors: list[Finding]) -> BuildOptions:
    """With --force and errors, the cover of the cards PDF says which checks failed."""
    if not errors:
        return options
    codes = tuple(dict.fromkeys(f.code for f in errors))
    return replace(options, layout=replace(options.layout, forced=codes))


def build_deck(ref: str | Path, options: BuildOptions = BuildOptions(),
               progress: Progress | None = None) -> BuildResult:
    """Check, render and write every output of one deck (raises what stopped it)."""
    (outcome,) = build_decks([(ref, options)], progress, options.jobs)
    if isinstance(outcome, DeckgenError):
        raise outcome
    return outcome


# ---------------------------------------------------------------- several decks, one pool of workers

def _faces_job(group: list, root: str) -> int:
    """Draw a group of faces into the cache (or scratch folder)."""
    from deckgen.render.batch import cache_write_error, draw_group

    try:
        return draw_group(group)
    except OSError as exc:
        raise cache_write_error(Path(root), exc) from None


FACES_PER_JOB = 3      # faces without images are drawn a few to a job: each job costs ~1 ms of passing it around


def _batches(face_groups: list[list]) -> list[list]:
    """Groups of faces sharing images stay whole; single faces without images go a few to a job."""
    out: list[list] = []
    batch: list = []
    for group in face_groups:
        spec = group[0][0]
        if len(group) == 1 and not any((spec.art, spec.icon, spec.back_image, spec.logo)):
            batch.append(group[0])
            if len(batch) == FACES_PER_JOB:
                out.append(batch)
                batch = []
        else:
            out.append(group)
    return out + ([batch] if batch else [])


# Which queued job a free worker takes: a deck's card sheets as soon as its faces are drawn, then
# the rulebooks (the longest jobs, best started early), then faces, the largest deck's first: the
# last jobs of a build are then small faces and small card sheets, and both workers end together.
CARDS_FIRST = 1 << 30
BOOKS_NEXT = 1 << 29


@dataclass
class _Deck:
    """One deck of a build on its way through the workers."""

    slot: int
    ref: str | Path
    options: BuildOptions
    loaded: LoadResult | None = None
    deck: Deck | None = None
    plan: Any = None                    # render.batch.FacePlan
    waiting: set = field(default_factory=set)      # its faces not drawn yet (some by another deck's jobs)
    drawn: int = 0                      # faces its own jobs draw
    cards_queued: bool = False
    result: BuildResult | None = None
    error: DeckgenError | None = None
    cards: OutputFile | None = None
    books: dict = field(default_factory=dict)      # book -> RulebookFile
    book_order: list = field(default_factory=list)
    times: dict[str, float] = field(default_factory=dict)


def build_decks(requests: list[tuple[str | Path, BuildOptions]], progress: Progress | None = None,
                jobs: int | None = None) -> list[BuildResult | DeckgenError]:
    """:func:`_build_decks` holding the output folders' locks (a second build into one stops at once)."""
    from deckgen.atomic import output_lock

    with output_lock(sorted({Path(o.out_dir) for _, o in requests})):
        return _build_decks(requests, progress, jobs)


def _build_decks(requests: list[tuple[str | Path, BuildOptions]], progress: Progress | None = None,
                 jobs: int | None = None) -> list[BuildResult | DeckgenError]:
    """Build several decks at once: each deck's result, or the error that stopped it, in order.

    Every deck is read first; its faces start drawing on the workers while this process runs the
    checks. A deck that fails its check (unless forced) has its queued jobs dropped and writes
    nothing. As each deck is checked its rulebooks are queued (their text, made by the check,
    goes with them), and as each deck's faces are done its card sheets. Outputs found in the
    cache are written here without a job. Same bytes whatever the number of workers.
    """
    from deckgen.render import RenderSettings
    from deckgen.render.batch import groups, plan_faces, settle
    from deckgen.rulebook.step import book_job, forget_images, not_written, paper_for_sheets, plan_books
    from deckgen.workers import Workers

    start = time.perf_counter()
    states = [_Deck(i, ref, opts) for i, (ref, opts) in enumerate(requests)]
    n = jobs if jobs is not None else (requests[0][1].jobs if requests else None)
    n = max(1, n or os.cpu_count() or 1)
    done = total = 0
    planned: set[str] = set()           # faces some job draws
    face_groups: list[set[str]] = []    # the faces of each face job

    label = f"Building {Path(str(requests[0][0])).stem}" if len(requests) == 1 else f"Building {len(requests)} decks"

    def tick() -> None:
        if progress:
            progress(label, done, max(total, 1))

    def fail(st: _Deck, exc: DeckgenError, pool: Workers) -> None:
        """The deck stops: its queued jobs are dropped, but for its faces (other decks may share them)."""
        if st.error is None:
            st.error = exc
        pool.cancel(lambda tag: tag[0] == "faces" or tag[1] != st.slot)

    def queue_faces(st: _Deck, deck: Deck, pool: Workers) -> None:
        """Plan the deck's faces and queue those not drawn yet; a face another deck shows too is drawn once."""
        nonlocal total
        o = st.options
        st.plan = plan_faces(deck, RenderSettings(dpi=o.dpi, bleed_mm=o.bleed_mm, card_size=o.card_size),
                             use_cache=o.use_cache, cache_dir=o.cache_dir)
        root = str(st.plan.root)
        st.waiting = {job[3] for job in st.plan.todo}
        own = [job for job in st.plan.todo if job[3] not in planned]
        planned.update(job[3] for job in own)
        st.drawn = len(own)
        for group in _batches(groups(own)):
            face_groups.append({job[3] for job in group})
            pool.submit(("faces", st.slot, len(face_groups) - 1), _faces_job, (group, root), priority=len(own))
            total += 1

    def faces_done(gidx: int, outcome: object, pool: Workers) -> None:
        """A face job ended: every deck waiting for those faces gets them, or fails with the job."""
        paths = face_groups[gidx]
        for other in states:
            if other.error is None and other.waiting & paths:
                if isinstance(outcome, DeckgenError):
                    fail(other, outcome, pool)
                    continue
                other.waiting -= paths
                queue_cards(other, pool)

    def queue_cards(st: _Deck, pool: Workers) -> None:
        nonlocal total
        if st.error is not None or st.result is None or st.waiting or st.cards_queued:
            return
        st.cards_queued = True
        st.times["render"] = time.perf_counter()
        assert st.deck is not None and st.result is not None
        rendered = replace(settle(st.plan), scratch=None)
        hit = cards_from_cache(st.deck, rendered, st.options)
        if hit is not None:
            st.cards = _apply_cards(st.result, hit)
            return
        pool.submit(("cards", st.slot), make_cards, (st.deck, rendered, st.options), priority=CARDS_FIRST)
        total += 1

    def queue_books(st: _Deck, pool: Workers) -> None:
        nonlocal total
        o = st.options
        assert st.deck is not None and st.result is not None
        paper = paper_for_sheets(parse_paper(o.layout.paper).width_mm)
        plan = plan_books(st.deck, Path(o.out_dir) / st.deck.id, paper=paper, booklet=o.booklet, force=o.force,
                          use_cache=o.use_cache, cache_dir=o.cache_dir, slot=st.slot)
        st.book_order = plan.books
        st.books.update(plan.written)
        st.result.warnings.extend(plan.notes)
        for book, args in plan.jobs:
            pool.submit(("book", st.slot, book), book_job, args, priority=BOOKS_NEXT)
            total += 1

    forget_images()
    if n > 1:       # imported once here: forked workers inherit them
        from deckgen.render import draw  # noqa: F401
        if any(o.rulebook and not o.only for _, o in requests):
            from deckgen.rulebook import pdf  # noqa: F401
    with Workers(n) as pool:
        for st in states:                                   # read every deck; start drawing the clean ones
            try:
                st.loaded = manifest.load(st.ref, st.options.palette)
            except DeckgenError as exc:
                st.error = exc
                continue
            if st.loaded.deck is None or st.loaded.errors:
                continue
            with contextlib.suppress(DeckgenError):         # said again, in its place, after the check
                queue_faces(st, select(st.loaded.deck, st.options.only), pool)
        tick()
        # check every deck while the faces are drawn; the verdicts' games of all the decks at once
        began = time.perf_counter()
        asked = [st for st in states if st.error is None]
        reports = dict(zip((st.slot for st in asked),
                           check_many([(st.ref, check_options(st.options), st.loaded) for st in asked])))
        for st in states:
            if st.error is not None:
                continue
            try:
                rep = reports[st.slot]
                if isinstance(rep, DeckgenError):
                    raise rep
                deck, errors, warnings = load_checked(st.ref, st.options, st.loaded, rep)
                st.options = forced_layout(st.options, errors)
                st.deck = select(deck, st.options.only)
                st.result = BuildResult(st.deck.id, st.deck.name(), errors=list(errors), warnings=list(warnings),
                                        deck=st.deck)
                st.times["check"] = time.perf_counter() - began
                if st.plan is None:
                    queue_faces(st, st.deck, pool)
                st.result.drawn = st.drawn
                if st.options.rulebook and not st.options.only:   # a reprint of a few cards needs no rulebook
                    queue_books(st, pool)
                queue_cards(st, pool)
            except DeckgenError as exc:
                fail(st, exc, pool)
            tick()
        while pool.pending:
            tag, outcome = pool.wait()
            done += 1
            tick()
            st = states[tag[1]]
            if tag[0] == "faces":
                faces_done(tag[2], outcome, pool)
                continue
            if st.error is not None:
                continue
            if isinstance(outcome, DeckgenError):
                if tag[0] == "book" and isinstance(outcome, DeckHasErrors) and st.options.force:
                    assert st.result is not None
                    st.result.warnings.extend(not_written(outcome.findings))
                    continue
                fail(st, outcome, pool)
                continue
            st.times["end"] = time.perf_counter()
            if tag[0] == "cards":
                assert st.result is not None
                st.cards = _apply_cards(st.result, outcome)
            else:
                st.books[tag[2]] = outcome
    if any(st.options.use_cache for st in states):
        cache.note_added(done)       # the workers' cache entries (a build from the cache adds none)
        cache.auto_prune(next(st.options.cache_dir for st in states if st.options.use_cache))
    outcomes: list[BuildResult | DeckgenError] = []
    end = time.perf_counter()
    for st in states:
        if st.error is not None or st.result is None:
            outcomes.append(st.error or DeckgenError([]))
            continue
        res = st.result
        assert st.cards is not None
        res.outputs = [st.cards, *res.outputs] + [OutputFile("rulebook", b.path, b.pages, b.size_bytes)
                                    for b in (st.books.get(book) for book in st.book_order) if b is not None]
        finished = st.times.get("end", end)
        res.seconds = finished - start
        faces_at = st.times.get("render", start)
        res.timings = {"check": st.times.get("check", 0.0), "render": faces_at - start, "write": finished - faces_at}
        outcomes.append(res)
    return outcomes


def bundled_refs() -> list[str]:
    from deckgen import manifest

    return list(manifest.bundled_decks())
