"""The rulebooks ``deckgen build`` writes beside the card sheets: one PDF per language.

Typesetting a rulebook is the slowest part of a build, and its inputs rarely change while a
deck is being edited, so each PDF is kept in the cache (section ``documents``) under a key that
hashes everything it is made from (:func:`deckgen.inputs.fingerprint`: the deck model, the
files it names, the templates and fonts, the options and the code). A cached rulebook is the
same bytes a fresh one would be.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from deckgen import cache
from deckgen.atomic import write_bytes
from deckgen.errors import DeckHasErrors, Finding, warning
from deckgen.model import Deck
from deckgen.progress import Progress
from deckgen.rulebook import build_rulebook, languages


@dataclass(frozen=True)
class RulebookFile:
    lang: str
    path: Path
    pages: int
    size_bytes: int


def paper_for_sheets(width_mm: float | None) -> str:
    """The rulebook's paper: letter when the card sheets are on US paper, else A4."""
    return "letter" if width_mm and abs(float(width_mm) - 215.9) < 1 else "a4"


def page_count(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", data))


def rulebook_key(deck: Deck, lang: str, paper: str) -> str:
    from deckgen import inputs
    from deckgen.rulebook import images

    return inputs.fingerprint(deck, "rulebook", lang, paper, f"dpi={images.DPI}")


def rulebook_bytes(deck: Deck, lang: str, paper: str = "a4", *, use_cache: bool = True,
                   cache_dir: Path | None = None, progress: Progress | None = None) -> bytes:
    """The rulebook PDF, from the cache when nothing it is made from has changed."""
    key = rulebook_key(deck, lang, paper) if use_cache else ""
    if use_cache:
        data = cache.get_bytes("documents", key, "pdf", cache_dir)
        if data is not None:
            if progress:
                progress(f"rulebook ({lang})", 1, 1)
            return data
    data = build_rulebook(deck, lang, paper=paper, progress=progress)
    if use_cache:
        cache.put_bytes("documents", key, "pdf", data, cache_dir)
    return data


def crosscheck_cached(deck: Deck) -> list[Finding]:
    """:func:`deckgen.rulebook.crosscheck`, kept in the cache under the same kind of key as the
    rulebooks: running every template in every language is most of ``check``'s time."""
    import dataclasses
    import json

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


def write_rulebooks(deck: Deck, out_dir: Path, *, paper: str = "a4", force: bool = False, use_cache: bool = True,
                    cache_dir: Path | None = None, progress: Progress | None = None,
                    ) -> tuple[list[RulebookFile], list[Finding]]:
    """``<out_dir>/<deck>-rulebook-<lang>.pdf`` for each language the templates exist in.

    A failed cross-check raises DeckHasErrors, unless ``force``: then that rulebook is left
    out and its problems come back as warnings.
    """
    out: list[RulebookFile] = []
    notes: list[Finding] = []
    for lang in languages(deck):
        path = Path(out_dir) / f"{deck.id}-rulebook-{lang}.pdf"
        try:
            data = rulebook_bytes(deck, lang, paper, use_cache=use_cache, cache_dir=cache_dir, progress=progress)
        except DeckHasErrors as exc:
            if not force:
                raise
            notes.extend(warning(f.code, f.where, f"rulebook not written: {f.message}", file=f.file, line=f.line)
                         for f in exc.findings)
            continue
        write_bytes(path, data)
        out.append(RulebookFile(lang, path, page_count(data), len(data)))
    return out, notes
