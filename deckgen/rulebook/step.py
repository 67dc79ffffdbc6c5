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


def write_rulebooks(deck: Deck, out_dir: Path, *, paper: str = "a4", force: bool = False, use_cache: bool = True,
                    cache_dir: Path | None = None, progress: Progress | None = None, jobs: int | None = None,
                    booklet: bool = False) -> tuple[list[RulebookFile], list[Finding]]:
    """``<out_dir>/<deck>-rulebook-<lang>.pdf`` for each language the templates exist in, and with
    ``booklet`` ``<deck>-rulebook-<lang>-booklet.pdf`` too.

    Rulebooks not in the cache are typeset in parallel (``jobs`` processes at most). A failed
    cross-check raises DeckHasErrors, unless ``force``: then that language is left out and its
    problems come back as warnings.
    """
    books: list[Book] = [(lang, b) for lang in languages(deck) for b in ([False, True] if booklet else [False])]
    keys = {book: rulebook_key(deck, book[0], paper, book[1]) for book in books} if use_cache else {}
    made: dict[Book, bytes | DeckgenError] = {}
    pages: dict[Book, int] = {}
    for book in books:
        data = cache.get_bytes("documents", keys[book], "pdf", cache_dir) if use_cache else None
        meta = cache.get_bytes("documents", keys[book], "json", cache_dir) if data is not None else None
        if data is not None and meta is not None:
            made[book] = data
            pages[book] = json.loads(meta)["pages"]
    missing = [book for book in books if book not in made]
    if missing:
        made.update(_typeset_all(deck, missing, paper, jobs, progress))
    out: list[RulebookFile] = []
    notes: list[Finding] = []
    failed: set[str] = set()
    for book in books:
        lang, is_booklet = book
        result = made[book]
        if isinstance(result, DeckgenError):
            if not force or not isinstance(result, DeckHasErrors):
                raise result
            if lang not in failed:
                failed.add(lang)
                notes.extend(warning(f.code, f.where, f"rulebook not written: {f.message}", file=f.file, line=f.line)
                             for f in result.findings)
            continue
        if book not in pages:
            pages[book] = page_count(result)
            if use_cache:
                cache.put_bytes("documents", keys[book], "pdf", result, cache_dir)
                cache.put_bytes("documents", keys[book], "json", json.dumps({"pages": pages[book]}).encode(), cache_dir)
        suffix = "-booklet" if is_booklet else ""
        path = write_bytes(Path(out_dir) / f"{deck.id}-rulebook-{lang}{suffix}.pdf", result)
        out.append(RulebookFile(lang, path, pages[book], len(result), is_booklet))
    return out, notes
