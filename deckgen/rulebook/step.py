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
from typing import TYPE_CHECKING

from deckgen import cache
from deckgen.atomic import write_bytes
from deckgen.errors import DeckgenError, DeckHasErrors, Finding, warning
from deckgen.model import Deck
from deckgen.progress import Progress
from deckgen.rulebook import build_rulebook, languages

if TYPE_CHECKING:
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
    from deckgen.rulebook import crosscheck

    key = inputs.fingerprint(deck, "crosscheck")
    data = cache.get_bytes("documents", key, "json")
    if data is not None:
        try:
            return [Finding(**item) for item in json.loads(data)]
        except (ValueError, TypeError):
            pass
    findings = crosscheck(deck)
    cache.put_bytes("documents", key, "json",
                    json.dumps([dataclasses.asdict(f) for f in findings], ensure_ascii=False).encode("utf-8"))
    return findings


Book = tuple[str, bool]                      # (language, booklet)


def _shared(deck: Deck) -> dict:
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
    return Path(out_dir) / f"{deck.id}-rulebook-{book[0]}{'-booklet' if book[1] else ''}.pdf"


def from_cache(deck: Deck, book: Book, key: str, out_dir: Path, cache_dir: Path | None) -> RulebookFile | None:
    """The rulebook written from the cache, or None when it is not there."""
    data = cache.get_bytes("documents", key, "pdf", cache_dir)
    meta = cache.get_bytes("documents", key, "json", cache_dir) if data is not None else None
    if data is None or meta is None:
        return None
    path = write_bytes(book_path(deck, out_dir, book), data)
    return RulebookFile(book[0], path, json.loads(meta)["pages"], len(data), book[1])


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


_IMAGES: dict[object, dict] = {}       # the card pictures of the decks this process typesets, by the build's key


def images_for(key: object, deck: Deck) -> dict:
    """:func:`_shared` once per deck and process (a build clears it: :func:`forget_images`)."""
    if key not in _IMAGES:
        _IMAGES[key] = _shared(deck)
    return _IMAGES[key]


def forget_images() -> None:
    _IMAGES.clear()


def book_job(slot: object, deck: Deck, book: Book, text: tuple, paper: str, key: str | None, out_dir: Path,
             cache_dir: Path | None) -> RulebookFile:
    """Typeset, cache and write one rulebook (a job on :class:`deckgen.workers.Workers`). ``text``
    is the templates' text and recorder, made by the process that checked the deck."""
    data = build_rulebook(deck, book[0], paper=paper, images=images_for(slot, deck), booklet=book[1], text=text)
    return store(deck, book, data, key, out_dir, cache_dir)


@dataclass
class BookPlan:
    """A deck's rulebooks: the ones written from the cache, the :func:`book_job` arguments of the
    ones to typeset, and (when forced) the warnings of languages whose cross-check fails."""

    books: list[Book]
    written: dict[Book, RulebookFile] = field(default_factory=dict)
    jobs: list[tuple[Book, tuple]] = field(default_factory=list)
    notes: list[Finding] = field(default_factory=list)


def plan_books(deck: Deck, out_dir: Path, *, paper: str, booklet: bool, force: bool, use_cache: bool,
               cache_dir: Path | None, slot: object) -> BookPlan:
    """Write the cached rulebooks and make the text of the others (once per language). A failed
    cross-check raises DeckHasErrors, unless ``force``: then that language is left out and its
    problems are the plan's notes."""
    from deckgen.rulebook.text import checked_text

    plan = BookPlan(books_of(deck, booklet))
    texts: dict[str, tuple | None] = {}
    for book in plan.books:
        key = rulebook_key(deck, book[0], paper, book[1]) if use_cache else None
        hit = from_cache(deck, book, key, out_dir, cache_dir) if key else None
        if hit is not None:
            plan.written[book] = hit
            continue
        lang = book[0]
        if lang not in texts:
            try:
                texts[lang] = checked_text(deck, lang)
            except DeckHasErrors as exc:
                if not force:
                    raise
                texts[lang] = None
                plan.notes.extend(not_written(exc.findings))
        text = texts[lang]
        if text is not None:
            plan.jobs.append((book, (slot, deck, book, text, paper, key, out_dir, cache_dir)))
    return plan


def write_rulebooks(deck: Deck, out_dir: Path, *, paper: str = "a4", force: bool = False, use_cache: bool = True,
                    cache_dir: Path | None = None, progress: Progress | None = None, jobs: int | None = None,
                    booklet: bool = False) -> tuple[list[RulebookFile], list[Finding]]:
    """``<out_dir>/<deck>-rulebook-<lang>.pdf`` for each language the templates exist in, and with
    ``booklet`` ``<deck>-rulebook-<lang>-booklet.pdf`` too.

    Rulebooks not in the cache are typeset on up to ``jobs`` processes. A failed cross-check
    raises DeckHasErrors, unless ``force``: then that language is left out and its problems come
    back as warnings.
    """
    from deckgen.workers import Workers

    forget_images()
    plan = plan_books(deck, out_dir, paper=paper, booklet=booklet, force=force, use_cache=use_cache,
                      cache_dir=cache_dir, slot=0)
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
