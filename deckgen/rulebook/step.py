"""The rulebooks ``deckgen build`` writes beside the card sheets: one PDF per language (and with
``booklet`` each also imposed as a saddle-stitched booklet).

Typesetting a rulebook is the slowest part of a build, and its inputs rarely change while a
deck is being edited, so each PDF is kept in the cache (section ``documents``) under a key that
hashes everything it is made from (:func:`deckgen.inputs.fingerprint`: the deck model, the
files it names, the templates and fonts, the options and the code). A cached rulebook is the
same bytes a fresh one would be.
"""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

from deckgen import cache, outputs
from deckgen.atomic import write_bytes
from deckgen.errors import DeckgenError, DeckHasErrors, Finding, warning
from deckgen.model import Deck
from deckgen.progress import Progress
from deckgen.rulebook.lookup import languages

if TYPE_CHECKING:
    from PIL.Image import Image
    from typing_extensions import Unpack

    from deckgen.rulebook.context import Recorder
    from deckgen.rulebook.pdf import PDFBytes


@dataclass(frozen=True)
class RulebookFile:
    lang: str
    path: Path
    pages: int
    size_bytes: int
    booklet: bool = False


def paper_for_sheets(width_mm: float | None) -> str:
    """The rulebook's paper: letter when the card sheets are on US paper, else A4."""
    return "letter" if width_mm and abs(float(width_mm) - 215.9) < 1 else "a4"


def rulebook_key(deck: Deck, lang: str, paper: str, booklet: bool = False) -> str:
    from deckgen import inputs
    from deckgen.rulebook import images

    return inputs.fingerprint(deck, "rulebook", lang, paper, f"dpi={images.DPI}", f"booklet={booklet}")


def crosscheck_cached(deck: Deck) -> list[Finding]:
    """:func:`deckgen.rulebook.crosscheck`, kept in the cache under the same kind of key as the
    rulebooks: running every template in every language is most of ``check``'s time."""
    from deckgen import inputs

    key = inputs.fingerprint(deck, "crosscheck")
    data = cache.get_bytes("documents", key, "json")
    if data is not None:
        try:
            return [Finding(**item) for item in json.loads(data)]
        except (ValueError, TypeError):
            pass
    from deckgen.rulebook.text import crosscheck

    findings = crosscheck(deck)
    cache.put_bytes("documents", key, "json",
                    json.dumps([dataclasses.asdict(f) for f in findings], ensure_ascii=False).encode("utf-8"))
    return findings


def build_rulebook(deck: Deck, lang: str, **kw: Any) -> PDFBytes:
    """:func:`deckgen.rulebook.document.build_rulebook`, imported when a rulebook is typeset (it
    imports jinja2): a build whose rulebooks all come from the cache never imports it."""
    from deckgen.rulebook.document import build_rulebook as build

    return build(deck, lang, **kw)


Book = tuple[str, bool]                      # (language, booklet)
Text = tuple[str, "Recorder"]                # the templates' text and what they named (rulebook.text.checked_text)
Images = dict[str, "Image"]                  # face id -> the card picture the rulebook shows


class BookKeywords(TypedDict, total=False):
    """The keyword arguments of :func:`plan_books` and :func:`write_rulebooks` (:class:`BookSettings`)."""

    paper: str
    booklet: bool
    force: bool
    use_cache: bool
    cache_dir: Path | None


@dataclass(frozen=True)
class BookSettings:
    """How a build writes its rulebooks: on which paper, whether as booklets too, whether a failed
    cross-check only leaves a language out (``force``), and through which cache."""

    paper: str = "a4"
    booklet: bool = False
    force: bool = False
    use_cache: bool = True
    cache_dir: Path | None = None


def _shared(deck: Deck) -> Images:
    """What every rulebook of a deck shares, made once per process (:func:`images_for`): the card
    pictures and the fonts registered with ReportLab."""
    from deckgen.fonts import deck_fonts, register_pdf
    from deckgen.rulebook.images import card_images

    register_pdf(deck_fonts(deck))
    return card_images(deck)


def books_of(deck: Deck, booklet: bool = False) -> list[Book]:
    """The rulebooks a build writes: every language, and with ``booklet`` each as a booklet too."""
    return [(lang, b) for lang in languages(deck) for b in ([False, True] if booklet else [False])]


def book_path(deck: Deck, out_dir: Path, book: Book) -> Path:
    """Where a build writes a rulebook: ``out_dir`` is the deck's own folder (:mod:`deckgen.outputs`)."""
    return outputs.rulebook_pdf(deck.id, book[0], book[1], folder=Path(out_dir))


def from_cache(deck: Deck, book: Book, key: str, out_dir: Path, cache_dir: Path | None) -> RulebookFile | None:
    """The rulebook written from the cache, or None when it is not there."""
    meta = cache.get_bytes("documents", key, "json", cache_dir)
    path = book_path(deck, out_dir, book)
    size = cache.write_output("documents", key, "pdf", path, cache_dir) if meta is not None else None
    if meta is None or size is None:
        return None
    return RulebookFile(book[0], path, json.loads(meta)["pages"], size, book[1])


def store(deck: Deck, book: Book, data: PDFBytes, key: str | None, out_dir: Path,
          cache_dir: Path | None) -> RulebookFile:
    """A freshly typeset rulebook (its page count known from typesetting): kept in the cache
    (when ``key``) and written."""
    if key:
        cache.put_bytes("documents", key, "pdf", data, cache_dir)
        cache.put_bytes("documents", key, "json", json.dumps({"pages": data.pages}).encode(), cache_dir)
    path = write_bytes(book_path(deck, out_dir, book), data)
    return RulebookFile(book[0], path, data.pages, len(data), book[1])


def not_written(findings: list[Finding]) -> list[Finding]:
    """A forced build's warnings for a language whose rulebook fails the cross-check."""
    return [warning(f.code, f.where, f"rulebook not written: {f.message}", file=f.file, line=f.line) for f in findings]


_IMAGES: dict[object, Images] = {}       # the card pictures of the decks this process typesets, by the build's key


def images_for(key: object, deck: Deck) -> Images:
    """:func:`_shared` once per deck and process (a build clears it: :func:`forget_images`)."""
    if key not in _IMAGES:
        _IMAGES[key] = _shared(deck)
    return _IMAGES[key]


def forget_images() -> None:
    _IMAGES.clear()


@dataclass(frozen=True)
class BookJob:
    """One rulebook to typeset in a worker (:func:`book_job`): the deck, the templates' text and
    recorder made by the process that checked the deck, its cache key (None: not cached) and where
    it goes. ``slot`` names the deck among a build's, for :func:`images_for`."""

    slot: object
    deck: Deck
    book: Book
    text: Text
    paper: str
    key: str | None
    out_dir: Path
    cache_dir: Path | None


def book_job(job: BookJob) -> RulebookFile:
    """Typeset, cache and write one rulebook (a job on :class:`deckgen.workers.Workers`)."""
    data = build_rulebook(job.deck, job.book[0], paper=job.paper, images=images_for(job.slot, job.deck),
                          booklet=job.book[1], text=job.text)
    return store(job.deck, job.book, data, job.key, job.out_dir, job.cache_dir)


def books_job(jobs: tuple[BookJob, ...]) -> list[RulebookFile | list[Finding]]:
    """Typeset a deck's rulebooks one after another (a job on :class:`deckgen.workers.Workers`):
    its card pictures are drawn, and compressed into a PDF, once for all its languages instead of
    once per worker. Each book's file, or the findings of one whose cross-check failed (the
    others are written all the same); any other error stops the job."""
    return [_book_or_findings(job) for job in jobs]


def _book_or_findings(job: BookJob) -> RulebookFile | list[Finding]:
    try:
        return book_job(job)
    except DeckHasErrors as exc:
        return list(exc.findings)


@dataclass
class BookPlan:
    """A deck's rulebooks: the ones written from the cache, the :func:`book_job` arguments of the
    ones to typeset, and (when forced) the warnings of languages whose cross-check fails."""

    books: list[Book]
    written: dict[Book, RulebookFile] = field(default_factory=dict)
    jobs: list[tuple[Book, tuple[BookJob]]] = field(default_factory=list)
    notes: list[Finding] = field(default_factory=list)


def _text_of(deck: Deck, lang: str, force: bool, plan: BookPlan) -> Text | None:
    """The checked text of one language; None (and the plan's notes) when it fails and ``force``."""
    from deckgen.rulebook.text import checked_text

    try:
        return checked_text(deck, lang)
    except DeckHasErrors as exc:
        if not force:
            raise
        plan.notes.extend(not_written(exc.findings))
        return None


def plan_books(deck: Deck, out_dir: Path, *, slot: object = 0, **settings: Unpack[BookKeywords]) -> BookPlan:
    """Write the cached rulebooks and make the text of the others (once per language). A failed
    cross-check raises DeckHasErrors, unless ``force``: then that language is left out and its
    problems are the plan's notes. ``settings``: the fields of :class:`BookSettings`."""
    how = BookSettings(**settings)
    plan = BookPlan(books_of(deck, how.booklet))
    texts: dict[str, Text | None] = {}
    for book in plan.books:
        key = rulebook_key(deck, book[0], how.paper, book[1]) if how.use_cache else None
        hit = from_cache(deck, book, key, out_dir, how.cache_dir) if key else None
        if hit is not None:
            plan.written[book] = hit
            continue
        lang = book[0]
        if lang not in texts:
            texts[lang] = _text_of(deck, lang, how.force, plan)
        text = texts[lang]
        if text is not None:
            plan.jobs.append((book, (BookJob(slot, deck, book, text, how.paper, key, out_dir, how.cache_dir),)))
    return plan


def write_rulebooks(deck: Deck, out_dir: Path, *, progress: Progress | None = None, jobs: int | None = None,
                    **settings: Unpack[BookKeywords]) -> tuple[list[RulebookFile], list[Finding]]:
    """``<out_dir>/<deck>-rulebook-<lang>.pdf`` for each language the templates exist in, and with
    ``booklet`` ``<deck>-rulebook-<lang>-booklet.pdf`` too (``settings``: :class:`BookSettings`).

    Rulebooks not in the cache are typeset on up to ``jobs`` processes. A failed cross-check
    raises DeckHasErrors, unless ``force``: then that language is left out and its problems come
    back as warnings.
    """
    from deckgen.workers import Workers

    force = BookSettings(**settings).force
    forget_images()
    plan = plan_books(deck, out_dir, slot=0, **settings)
    with Workers(min(jobs or os.cpu_count() or 1, len(plan.jobs))) as pool:
        for book, args in plan.jobs:
            pool.submit(book, book_job, args)
        while pool.pending:
            book, outcome = pool.wait()
            if progress:
                progress("rulebooks", len(plan.jobs) - pool.pending, len(plan.jobs))
            if isinstance(outcome, DeckgenError):
                if not force or not isinstance(outcome, DeckHasErrors):
                    raise outcome
                plan.notes.extend(not_written(outcome.findings))
                continue
            plan.written[book] = outcome
    return [plan.written[book] for book in plan.books if book in plan.written], plan.notes
