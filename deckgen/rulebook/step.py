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
import io
import json
import multiprocessing
import os
from dataclasses import dataclass
from pathlib import Path

from deckgen import cache
from deckgen.atomic import write_bytes
from deckgen.errors import DeckgenError, DeckHasErrors, Finding, warning
from deckgen.model import Deck
from deckgen.progress import Progress
from deckgen.rulebook import build_rulebook, languages


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


def page_count(data: bytes) -> int:
    """The pages of a rulebook PDF: known when deckgen typeset it (:class:`~deckgen.rulebook.pdf.PDFBytes`),
    read with pypdf otherwise."""
    known = getattr(data, "pages", None)
    if known is not None:
        return int(known)
    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(data)).pages)


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


_JOB: tuple[Deck, str, dict] | None = None        # what forked workers typeset (inherited, never pickled)
Book = tuple[str, bool]                      # (language, booklet)


def _shared(deck: Deck) -> dict:
    """What every language's rulebook of a deck shares, made once (before the workers fork, so
    they inherit it): the card pictures, the fonts registered with ReportLab and the typesetting
    modules imported. Each forked worker used to import and draw all of it again."""
    from deckgen.fonts import deck_fonts, register_pdf
    from deckgen.rulebook import pdf  # noqa: F401  (imported here, once, not in every worker)
    from deckgen.rulebook.images import card_images

    register_pdf(deck_fonts(deck))
    return card_images(deck)


def _typeset(book: Book) -> tuple[str, object]:
    """Worker: one rulebook's bytes, or its findings when the cross-check fails."""
    assert _JOB is not None
    deck, paper, images = _JOB
    try:
        return "pdf", build_rulebook(deck, book[0], paper=paper, images=images, booklet=book[1])
    except DeckgenError as exc:
        return ("has-errors" if isinstance(exc, DeckHasErrors) else "error"), [dataclasses.asdict(f) for f in exc.findings]


def _typeset_here(deck: Deck, book: Book, paper: str, images: dict,
                  progress: Progress | None) -> bytes | DeckgenError:
    try:
        return build_rulebook(deck, book[0], paper=paper, images=images, progress=progress, booklet=book[1])
    except DeckgenError as exc:
        return exc


def _typeset_all(deck: Deck, books: list[Book], paper: str, jobs: int | None,
                 progress: Progress | None) -> dict[Book, bytes | DeckgenError]:
    """Typeset several rulebooks on up to ``jobs`` processes: this one takes every n-th book and
    forked workers (which inherit the deck and :func:`_shared`, nothing goes through a pipe) the
    rest, all at the same time. Same bytes either way."""
    global _JOB
    n_proc = min(jobs or os.cpu_count() or 1, len(books))
    methods = multiprocessing.get_all_start_methods()
    out: dict[Book, bytes | DeckgenError] = {}
    try:
        images = _shared(deck)
    except DeckgenError as exc:
        return {book: exc for book in books}
    if n_proc <= 1 or "fork" not in methods:
        return {book: _typeset_here(deck, book, paper, images, progress) for book in books}
    mine, theirs = books[::n_proc], [b for i, b in enumerate(books) if i % n_proc]
    _JOB = (deck, paper, images)
    try:
        with multiprocessing.get_context("fork").Pool(n_proc - 1) as pool:
            results = pool.imap(_typeset, theirs)          # the workers start now ...
            done = 0
            for book in mine:                               # ... while this process typesets its share
                out[book] = _typeset_here(deck, book, paper, images, None)
                done += 1
                if progress:
                    progress("rulebooks", done, len(books))
            for book, (kind, value) in zip(theirs, results):
                if kind == "pdf":
                    assert isinstance(value, bytes)
                    out[book] = value
                else:
                    findings = [Finding(**f) for f in value]  # type: ignore[attr-defined]
                    out[book] = DeckHasErrors(findings) if kind == "has-errors" else DeckgenError(findings)
                done += 1
                if progress:
                    progress("rulebooks", done, len(books))
    finally:
        _JOB = None
    return out


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


def store(deck: Deck, book: Book, data: bytes, key: str | None, out_dir: Path,
          cache_dir: Path | None) -> RulebookFile:
    """A freshly typeset rulebook: kept in the cache (when ``key``) and written."""
    pages = page_count(data)
    if key:
        cache.put_bytes("documents", key, "pdf", data, cache_dir)
        cache.put_bytes("documents", key, "json", json.dumps({"pages": pages}).encode(), cache_dir)
    path = write_bytes(book_path(deck, out_dir, book), data)
    return RulebookFile(book[0], path, pages, len(data), book[1])


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
    """Typeset, cache and write one rulebook (a job of :func:`deckgen.build.build_decks`). ``text``
    is the templates' text and recorder, made by the process that checked the deck."""
    data = build_rulebook(deck, book[0], paper=paper, images=images_for(slot, deck), booklet=book[1], text=text)
    return store(deck, book, data, key, out_dir, cache_dir)


def write_rulebooks(deck: Deck, out_dir: Path, *, paper: str = "a4", force: bool = False, use_cache: bool = True,
                    cache_dir: Path | None = None, progress: Progress | None = None, jobs: int | None = None,
                    booklet: bool = False) -> tuple[list[RulebookFile], list[Finding]]:
    """``<out_dir>/<deck>-rulebook-<lang>.pdf`` for each language the templates exist in, and with
    ``booklet`` ``<deck>-rulebook-<lang>-booklet.pdf`` too.

    Rulebooks not in the cache are typeset in parallel (``jobs`` processes at most). A failed
    cross-check raises DeckHasErrors, unless ``force``: then that language is left out and its
    problems come back as warnings.
    """
    books = books_of(deck, booklet)
    keys = {book: rulebook_key(deck, book[0], paper, book[1]) for book in books} if use_cache else {}
    written: dict[Book, RulebookFile] = {}
    if use_cache:
        for book in books:
            hit = from_cache(deck, book, keys[book], out_dir, cache_dir)
            if hit is not None:
                written[book] = hit
    missing = [book for book in books if book not in written]
    made = _typeset_all(deck, missing, paper, jobs, progress) if missing else {}
    out: list[RulebookFile] = []
    notes: list[Finding] = []
    failed: set[str] = set()
    for book in books:
        if book in written:
            out.append(written[book])
            continue
        result = made[book]
        if isinstance(result, DeckgenError):
            if not force or not isinstance(result, DeckHasErrors):
                raise result
            if book[0] not in failed:
                failed.add(book[0])
                notes.extend(not_written(result.findings))
            continue
        out.append(store(deck, book, result, keys.get(book), out_dir, cache_dir))
    return out, notes
