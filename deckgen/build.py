"""``deckgen build``: check a deck, render its faces, lay out the print-and-play PDF, write
its rulebooks.

A build of one deck or several (:func:`build_decks`) is a set of jobs on one pool of workers
(:mod:`deckgen.workers`): each group of faces to draw, each deck's card sheets (once its faces
are drawn) and each deck's rulebooks (from :mod:`deckgen.rulebook.step`, once its deck is checked). The
card sheets and the rulebooks are kept in the cache under keys that hash everything they are
made from, so a build of an unchanged deck copies bytes instead of typesetting them again.
Every file is written atomically; a deck with errors is not built unless ``force``.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckgen import cache, manifest, outputs
from deckgen.check import CheckReport, check, check_many
from deckgen.errors import DeckgenError, DeckHasErrors, Finding, exit_code, note
from deckgen.layout import LayoutOptions, cards_pdf_for_deck, parse_paper, write_bytes
from deckgen.manifest import LoadResult
from deckgen.model import Deck, Palette
from deckgen.progress import Progress
from deckgen.render import RenderResult
from deckgen.selection import select
from deckgen.stages import CheckOptions

if TYPE_CHECKING:
    from deckgen.render.batch import FaceJob, FacePlan
    from deckgen.rulebook.step import Book, RulebookFile
    from deckgen.workers import Workers


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
    lang: str | None = None                   # --lang: the faces' words in this language (None: the deck's)
    sizes: tuple[str, ...] = ()               # more sizes the faces are audited at (an export's shop preset)


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


    def to_json(self) -> dict[str, Any]:
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


CardsMeta = dict[str, Any]    # pages, cards, faces, notes, sheet: what the summary says of the card sheets


def _cards_path(deck: Deck, options: BuildOptions) -> Path:
    return outputs.cards_pdf(deck.id, options.out_dir, only=bool(options.only))


def cards_from_cache(deck: Deck, rendered: RenderResult, options: BuildOptions) -> tuple[OutputFile, CardsMeta] | None:
    """The card sheets written from the cache (kept under a key made of the faces' own content
    keys, the deck and the layout options), or None when they are not there."""
    if not _sheets_cacheable(options):
        return None
    key = _cards_key(deck, rendered, options.layout)
    meta_bytes = cache.get_bytes("documents", key, "json", options.cache_dir)
    path = _cards_path(deck, options)
    size = cache.write_output("documents", key, "pdf", path, options.cache_dir) if meta_bytes is not None else None
    if meta_bytes is None or size is None:
        return None
    meta = json.loads(meta_bytes)
    return OutputFile("cards", path, meta["pages"], size), meta


def _sheets_cacheable(options: BuildOptions) -> bool:
    return options.use_cache and options.layout.cut_file == "none"      # cut files are written with the PDF


def sheets_in_cache(deck: Deck, rendered: RenderResult, options: BuildOptions) -> bool:
    """Whether the card sheets of these faces are in the cache (their entries there; whether they
    are whole is checked when they are written)."""
    if not _sheets_cacheable(options):
        return False
    key = _cards_key(deck, rendered, options.layout)
    return all(cache.has_entry("documents", key, ext, options.cache_dir) for ext in ("json", "pdf"))


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
    meta["cut_files"] = [[str(write_bytes(outputs.cut_file(path, no, pdf.cut_format), data)), len(data)]
                         for no, data in pdf.cut_files]         # --cut-file svg|dxf: one per sheet
    return OutputFile("cards", path, pdf.pages, len(pdf.data)), meta


def _apply_cards(result: BuildResult, made: tuple[OutputFile, CardsMeta]) -> OutputFile:
    out, meta = made
    result.cards, result.faces, result.sheet = meta["cards"], meta["faces"], meta["sheet"]
    result.outputs.extend(OutputFile("cut", Path(p), None, n) for p, n in meta.get("cut_files", []))
    result.warnings.extend(note("layout", "sheet", text) for text in meta["notes"])   # trade-offs, not problems
    return out


def check_options(options: BuildOptions) -> CheckOptions:
    """The check a build runs: every check and the playability verdict (docs/checks.md), the
    verdict of an unchanged deck read from the cache."""
    sizes = options.sizes + ((options.card_size,) if options.card_size else ())      # the faces as drawn
    return CheckOptions(simulate=options.verdict, palette=options.palette, jobs=options.jobs,
                        use_cache=options.use_cache, cache_dir=options.cache_dir, sizes=sizes,
                        size_option="--card-size")      # (the other sizes are presets the caller chose)


def load_checked(ref: str | Path, options: BuildOptions, loaded: LoadResult | None = None,
                 report: CheckReport | None = None) -> tuple[Deck, list[Finding], list[Finding]]:
    """The deck after every check and the verdict (``report``, when the caller ran them already);
    raises DeckHasErrors unless forced (DeckgenError, exit code 2, for a bad option or a file it
    cannot use, forced or not). A forced deck with errors is marked so on its cover."""
    if report is None and loaded is None and options.lang:
        loaded = load_in_language(ref, options)
    if report is None:
        report = check(ref, check_options(options), loaded)
    if exit_code(report.errors) == 2:
        raise DeckgenError(report.errors)         # a bad option or a file it cannot use: --force cannot help
    if report.deck is None:
        exc = DeckHasErrors(report.errors or report.findings)
        exc.forceable = False                     # nothing was read that --force could build
        raise exc
    if report.errors and not options.force:
        raise DeckHasErrors(report.errors)
    deck = report.deck
    return deck, report.errors, report.warnings


def load_in_language(ref: str | Path, options: BuildOptions) -> LoadResult:
    """The manifest read with the faces' words in ``options.lang`` (``--lang``): the check's face
    audit and every face then read and print that language."""
    from deckgen.render.faces import in_language

    loaded = manifest.load(ref, options.palette)
    if loaded.deck is None or not options.lang:
        return loaded
    return replace(loaded, deck=in_language(loaded.deck, options.lang))


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

def _faces_job(group: list[FaceJob], root: str) -> int:
    """Draw a group of faces into the cache (or scratch folder)."""
    from deckgen.render.batch import cache_write_error, draw_group

    try:
        return draw_group(group)
    except OSError as exc:
        raise cache_write_error(Path(root), exc) from None


FACES_PER_JOB = 3      # faces without images are drawn a few to a job: each job costs ~1 ms of passing it around


def _batches(face_groups: list[list[FaceJob]]) -> list[list[FaceJob]]:
    """Groups of faces sharing images stay whole; single faces without images go a few to a job."""
    out: list[list[FaceJob]] = []
    batch: list[FaceJob] = []
    for group in face_groups:
        if len(group) == 1 and not any(group[0].images()):
            batch.append(group[0])
            if len(batch) == FACES_PER_JOB:
                out.append(batch)
                batch = []
        else:
            out.append(group)
    return out + ([batch] if batch else [])


# Which queued job a free worker takes: a deck's card sheets as soon as its faces are drawn, then
# the rulebooks (the longest jobs, best started early), then the verdicts' games (a deck's
# rulebooks wait for its check), then faces, the largest deck's first: the last jobs of a build
# are then small faces and small card sheets, and both workers end together.
CARDS_FIRST = 1 << 30
BOOKS_NEXT = 1 << 29


@dataclass(frozen=True)
class FacesJob:
    """A job drawing one group of faces (``group``: its index in the build's list)."""

    slot: int                   # the deck whose plan queued it (other decks may wait for those faces too)
    group: int


@dataclass(frozen=True)
class CardsJob:
    """A job laying out a deck's card sheets."""

    slot: int


@dataclass(frozen=True)
class BookJob:
    """A job typesetting a deck's rulebooks (every language: its card pictures are then drawn and
    compressed once, rulebook/step.py's ``books_job``)."""

    slot: int
    books: tuple[Book, ...]


Tag = FacesJob | CardsJob | BookJob


@dataclass
class _DeckBuild:
    """One deck of a build on its way through the workers."""

    slot: int
    ref: str | Path
    options: BuildOptions
    loaded: LoadResult | None = None
    deck: Deck | None = None
    plan: FacePlan | None = None
    waiting: set[str] = field(default_factory=set)     # its faces not drawn yet (some by another deck's jobs)
    drawn: int = 0                      # faces its own jobs draw
    cards_queued: bool = False
    named_only: bool = False            # its faces only named: its card sheets are to come from the cache
    result: BuildResult | None = None
    error: DeckgenError | None = None
    cards: OutputFile | None = None
    books: dict[Book, RulebookFile] = field(default_factory=dict)
    book_order: list[Book] = field(default_factory=list)
    times: dict[str, float] = field(default_factory=dict)

    def read(self) -> Deck | None:
        """Read the manifest; the deck when it can be drawn before its check."""
        try:
            self.loaded = load_in_language(self.ref, self.options)
        except DeckgenError as exc:
            self.error = exc
            return None
        if self.loaded.deck is None or self.loaded.errors:
            return None
        try:
            return select(self.loaded.deck, self.options.only)
        except DeckgenError:                    # said again, in its place, after the check,
            self.options = replace(self.options, verdict=False)     # which plays no game for it
            return None

    def checked(self, report: CheckReport | DeckgenError, seconds: float) -> None:
        """The deck as its check left it (raises what stops it)."""
        if isinstance(report, DeckgenError):
            raise report
        deck, errors, warnings = load_checked(self.ref, self.options, self.loaded, report)
        self.options = forced_layout(self.options, errors)
        self.deck = select(deck, self.options.only)
        self.result = BuildResult(self.deck.id, self.deck.name(), errors=list(errors), warnings=list(warnings),
                                  deck=self.deck)
        self.times["check"] = seconds

    def wants_books(self) -> bool:
        return self.options.rulebook and not self.options.only    # a reprint of a few cards needs no rulebook

    def got(self, tag: Tag, outcome: object) -> None:
        """A card-sheet or rulebook job of this deck is back."""
        self.times["end"] = time.perf_counter()
        assert self.result is not None
        if isinstance(tag, CardsJob):
            self.cards = _apply_cards(self.result, outcome)     # type: ignore[arg-type]  # make_cards's result
        elif isinstance(tag, BookJob):
            for book, got in zip(tag.books, outcome):          # type: ignore[call-overload]  # books_job's result
                if isinstance(got, list):                     # a failed cross-check (a forced build goes on)
                    from deckgen.rulebook.step import not_written

                    if not self.options.force:
                        raise DeckHasErrors(got)
                    self.result.warnings.extend(not_written(got))
                else:
                    self.books[book] = got

    def outcome(self, start: float, end: float) -> BuildResult | DeckgenError:
        if self.error is not None or self.result is None:
            return self.error or DeckgenError([])
        res = self.result
        assert self.cards is not None
        res.outputs = [self.cards, *res.outputs] + [OutputFile("rulebook", b.path, b.pages, b.size_bytes)
                                                    for b in (self.books.get(k) for k in self.book_order) if b]
        finished = self.times.get("end", end)
        res.seconds = finished - start
        faces_at = self.times.get("render", start)
        res.timings = {"check": self.times.get("check", 0.0), "render": faces_at - start, "write": finished - faces_at}
        return res


class _Build:
    """Several decks built at once on one pool of workers (see :func:`build_decks`)."""

    def __init__(self, requests: list[tuple[str | Path, BuildOptions]], progress: Progress | None, n: int):
        self.decks = [_DeckBuild(i, ref, opts) for i, (ref, opts) in enumerate(requests)]
        self.progress = progress
        self.n = n
        self.done = self.total = 0
        self.planned: set[str] = set()          # faces some job draws
        self.face_groups: list[set[str]] = []   # the faces of each face job
        self.primed = False
        self.start = time.perf_counter()
        first = Path(str(requests[0][0])).stem if requests else ""
        self.label = f"Building {first}" if len(requests) == 1 else f"Building {len(requests)} decks"

    def tick(self) -> None:
        if self.progress:
            self.progress(self.label, self.done, max(self.total, 1))

    def submit(self, pool: Workers, tag: Tag, fn: Callable[..., Any], args: tuple[Any, ...], priority: int) -> None:
        self.total += 1
        pool.submit(tag, fn, args, priority=priority)

    def run(self) -> list[BuildResult | DeckgenError]:
        from deckgen import verdict
        from deckgen.rulebook.step import forget_images
        from deckgen.workers import Workers

        forget_images()
        with Workers(self.n) as pool, verdict.sharing(pool):
            for st in self.decks:                      # read every deck; start drawing the clean ones
                deck = st.read()
                if deck is not None:
                    with contextlib.suppress(DeckgenError):
                        self.queue_faces(st, deck, pool)
            self.tick()
            self.check_all(pool)
            while pool.pending:
                tag, outcome = pool.wait()
                self.done += 1
                self.tick()
                self.back(tag, outcome, pool)
        if any(st.options.use_cache for st in self.decks):
            cache.note_added(self.done)       # the workers' cache entries (a build from the cache adds none)
            cache.auto_prune(next(st.options.cache_dir for st in self.decks if st.options.use_cache))
        end = time.perf_counter()
        return [st.outcome(self.start, end) for st in self.decks]

    def prime(self) -> None:
        """Import what the workers will run before they are forked (they inherit it), once the build
        is known to draw: a build whose every output is in the cache imports none of it."""
        if self.primed or self.n == 1:
            return
        self.primed = True
        from deckgen.render import draw  # noqa: F401
        if any(st.options.verdict for st in self.decks):
            from deckgen.rules import agents, engine, simulate  # noqa: F401
        if any(st.wants_books() for st in self.decks):
            from deckgen.rulebook import pdf  # noqa: F401

    def check_all(self, pool: Workers) -> None:
        """Check every deck while the faces are drawn (the verdicts' games on the same workers);
        queue each checked deck's rulebooks and card sheets."""
        began = time.perf_counter()
        asked = [st for st in self.decks if st.error is None]
        reports = check_many([(st.ref, check_options(st.options), st.loaded) for st in asked])
        for st, rep in zip(asked, reports):
            try:
                st.checked(rep, time.perf_counter() - began)
                assert st.deck is not None and st.result is not None
                if st.plan is None:
                    self.queue_faces(st, st.deck, pool)
                st.result.drawn = st.drawn
                if st.wants_books():
                    self.queue_books(st, pool)
                self.queue_cards(st, pool)
            except DeckgenError as exc:
                self.fail(st, exc, pool)
            self.tick()

    def fail(self, st: _DeckBuild, exc: DeckgenError, pool: Workers) -> None:
        """The deck stops: its queued jobs are dropped, but for its faces (other decks may share them)."""
        if st.error is None:
            st.error = exc
        pool.cancel(lambda tag: isinstance(tag, FacesJob) or getattr(tag, "slot", None) != st.slot)

    def queue_faces(self, st: _DeckBuild, deck: Deck, pool: Workers) -> None:
        """Plan the deck's faces and queue those not drawn yet; a face another deck shows too is drawn
        once. When the deck's card sheets are in the cache no face is read (nor drawn): the faces
        are only named, for the sheets' key (:meth:`queue_cards` plans them again if the sheets
        turn out not to be there)."""
        from deckgen.render import RenderSettings
        from deckgen.render.batch import groups, plan_faces

        o = st.options
        settings = RenderSettings(dpi=o.dpi, bleed_mm=o.bleed_mm, card_size=o.card_size)
        if st.plan is None and _sheets_cacheable(o) and cache.usable(cache.cache_root(o.cache_dir) / "faces"):
            named = plan_faces(deck, settings, cache_dir=o.cache_dir, verify=False)
            if sheets_in_cache(deck, replace(named.result, scratch=None), o):
                st.plan, st.named_only, st.waiting, st.drawn = named, True, set(), 0
                return
        st.named_only = False
        st.plan = plan_faces(deck, settings, use_cache=o.use_cache, cache_dir=o.cache_dir)
        root = str(st.plan.root)
        st.waiting = {job.path for job in st.plan.todo}
        own = [job for job in st.plan.todo if job.path not in self.planned]
        self.planned.update(job.path for job in own)
        st.drawn = len(own)
        if own:
            self.prime()
        for group in _batches(groups(own)):
            self.face_groups.append({job.path for job in group})
            self.submit(pool, FacesJob(st.slot, len(self.face_groups) - 1), _faces_job, (group, root), len(own))

    def queue_cards(self, st: _DeckBuild, pool: Workers) -> None:
        """The deck's card sheets, once it is checked and its faces are drawn: from the cache, or a job."""
        from deckgen.render.batch import settle

        if st.error is not None or st.result is None or st.waiting or st.cards_queued:
            return
        st.cards_queued = True
        st.times["render"] = time.perf_counter()
        assert st.deck is not None and st.plan is not None
        rendered = replace(settle(st.plan), scratch=None)
        hit = cards_from_cache(st.deck, rendered, st.options)
        if hit is not None:
            st.cards = _apply_cards(st.result, hit)
            return
        if st.named_only:                   # the sheets were not in the cache after all: the faces are needed
            st.cards_queued = False
            self.queue_faces(st, st.deck, pool)
            st.result.drawn = st.drawn
            self.queue_cards(st, pool)
            return
        self.submit(pool, CardsJob(st.slot), make_cards, (st.deck, rendered, st.options), CARDS_FIRST)

    def queue_books(self, st: _DeckBuild, pool: Workers) -> None:
        """The deck's rulebooks: the cached ones written now, the others queued with the text the check made."""
        from deckgen.rulebook.step import books_job, paper_for_sheets, plan_books

        o = st.options
        assert st.deck is not None and st.result is not None
        paper = paper_for_sheets(parse_paper(o.layout.paper).width_mm)
        plan = plan_books(st.deck, Path(o.out_dir) / st.deck.id, paper=paper, booklet=o.booklet, force=o.force,
                          use_cache=o.use_cache, cache_dir=o.cache_dir, slot=st.slot)
        st.book_order = plan.books
        st.books.update(plan.written)
        st.result.warnings.extend(plan.notes)
        if plan.jobs:
            books = tuple(book for book, _ in plan.jobs)
            self.submit(pool, BookJob(st.slot, books), books_job, (tuple(a for _, (a,) in plan.jobs),), BOOKS_NEXT)

    def back(self, tag: Tag, outcome: object, pool: Workers) -> None:
        """A job is back: faces free the decks waiting for them; a deck's other jobs finish it."""
        if isinstance(tag, FacesJob):
            paths = self.face_groups[tag.group]
            for other in self.decks:
                if other.error is None and other.waiting & paths:
                    if isinstance(outcome, DeckgenError):
                        self.fail(other, outcome, pool)
                        continue
                    other.waiting -= paths
                    self.queue_cards(other, pool)
            return
        st = self.decks[tag.slot]
        if st.error is not None:
            return
        if isinstance(outcome, DeckgenError):
            if isinstance(tag, BookJob) and isinstance(outcome, DeckHasErrors) and st.options.force:
                from deckgen.rulebook.step import not_written

                assert st.result is not None
                st.result.warnings.extend(not_written(outcome.findings))
                return
            self.fail(st, outcome, pool)
            return
        try:
            st.got(tag, outcome)
        except DeckgenError as exc:
            self.fail(st, exc, pool)


def build_decks(requests: list[tuple[str | Path, BuildOptions]], progress: Progress | None = None,
                jobs: int | None = None) -> list[BuildResult | DeckgenError]:
    """Build several decks at once: each deck's result, or the error that stopped it, in order;
    the output folders are locked meanwhile (a second build into one stops at once).

    Every deck is read first; its faces start drawing on the workers while this process runs the
    checks (the verdicts' games on the same workers). A deck that fails its check (unless forced)
    has its queued jobs dropped and writes nothing. As each deck is checked its rulebooks are
    queued (their text, made by the check, goes with them), and as each deck's faces are done its
    card sheets. Outputs found in the cache are written here without a job. Same bytes whatever
    the number of workers.
    """
    from deckgen.atomic import output_lock

    n = jobs if jobs is not None else (requests[0][1].jobs if requests else None)
    with output_lock(sorted({Path(o.out_dir) for _, o in requests})):
        return _Build(requests, progress, max(1, n or os.cpu_count() or 1)).run()


def bundled_refs() -> list[str]:
    from deckgen import manifest

    return list(manifest.bundled_decks())
