"""What a deck's outputs are made from: the deck model, the files it names, the bundled data
and the code. One list serves two users: the cache keys of built documents
(:func:`fingerprint`) and the files ``--watch`` watches (:func:`deck_files`).

The files a deck names are found by walking the model: every text value that names an
existing file or folder, relative to the manifest's folder (the manifest itself, a palette
file, artwork, fonts, the deck's own rulebook templates) counts, whichever key holds it.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import os
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from deckgen.model import Deck

MAX_DIR_FILES = 500          # a named folder larger than this is not read into a key (it is no deck input)
_SKIP_DIRS = {".git", "__pycache__", ".venv", "node_modules", "output"}


def _values(obj: object, seen: set[int]) -> Iterator[str]:
    """Every text value inside a model object (dataclasses, mappings, sequences)."""
    if isinstance(obj, (str, Path)):
        yield str(obj)
        return
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from _values(getattr(obj, f.name), seen)
    elif isinstance(obj, Mapping):
        for k, v in obj.items():
            yield from _values(k, seen)
            yield from _values(v, seen)
    elif isinstance(obj, (list, tuple, set, frozenset)):
        for v in obj:
            yield from _values(v, seen)


def _looks_like_path(text: str) -> bool:
    return 0 < len(text) < 1024 and "\n" not in text and "\0" not in text and text.strip() == text


def deck_files(deck: Deck) -> list[Path]:
    """The files and folders a deck names, absolute, in a stable order (the manifest first)."""
    base = deck.source.parent if deck.source else Path.cwd()
    found: dict[Path, None] = {}
    if deck.source:
        found[Path(deck.source).resolve()] = None
    folder = str(base)
    for text in dict.fromkeys(_values(deck, set())):
        if not _looks_like_path(text):
            continue
        try:
            if not os.path.exists(os.path.join(folder, text)):      # one stat; most texts are names, not files
                continue
            path = (base / text).resolve()
        except (OSError, ValueError):
            continue
        if path not in found and not _is_ancestor(path, base):
            found[path] = None
    return list(found)


def _is_ancestor(path: Path, base: Path) -> bool:
    """A folder that holds the manifest (".", "..") is no input of its own."""
    base = base.resolve()
    return path == base or path in base.parents


def _dir_files(folder: Path) -> list[Path]:
    out: list[Path] = []
    for dirpath, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not d.startswith("."))
        out += [Path(dirpath) / f for f in sorted(files) if not f.startswith(".")]
        if len(out) > MAX_DIR_FILES:
            return []
    return out


@functools.lru_cache(maxsize=4096)
def _file_hash(path: str, size: int, mtime_ns: int) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def file_hash(path: Path) -> str:
    """SHA-256 of a file's bytes (memoised on its size and modification time); "unreadable" if it cannot be read."""
    try:
        st = path.stat()
        return _file_hash(str(path), st.st_size, st.st_mtime_ns)
    except OSError:
        return "unreadable"


def files_signature(paths: Iterable[Path]) -> str:
    """One line per file (folders expanded): path and content hash."""
    lines = []
    for p in paths:
        files = _dir_files(p) if p.is_dir() else [p]
        lines += [f"{f}\t{file_hash(f)}" for f in files]
    return "\n".join(lines)


@functools.lru_cache(maxsize=1)
def code_version() -> str:
    """A hash of deckgen's own source and the versions of the libraries that make its files."""
    import jinja2
    import PIL
    import reportlab

    import deckgen

    root = Path(deckgen.__file__).resolve().parent
    h = hashlib.sha256()
    h.update(f"{deckgen.__version__}|{reportlab.Version}|{PIL.__version__}|{jinja2.__version__}".encode())
    for path in sorted(root.rglob("*.py")):
        h.update(str(path.relative_to(root)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def bundled_signature() -> str:
    """The bundled templates, fonts and data files a document may read."""
    from deckgen.resources import decks_dir, fonts_dir, templates_dir

    return files_signature([templates_dir(), fonts_dir(), decks_dir()])


_RECENT: dict[tuple[int, bool], tuple[Deck, str]] = {}


def template_files(deck: Deck) -> list[Path]:
    """The deck's own rulebook template folder, if it names one."""
    if not deck.template_dir:
        return []
    base = deck.source.parent if deck.source else Path.cwd()
    return [(base / deck.template_dir).resolve()]


def deck_signature(deck: Deck, templates: bool = True) -> str:
    """The model, every file it names (its own templates only if ``templates``), the bundled data
    and the code, as one hash; remembered for the last few deck objects (a build asks once per document)."""
    from deckgen.cache import digest

    memo = (id(deck), templates)
    hit = _RECENT.get(memo)
    if hit is not None and hit[0] is deck:
        return hit[1]
    files = deck_files(deck)
    if not templates:
        skip = set(template_files(deck))
        files = [f for f in files if f not in skip]
    from deckgen.fonts import deck_fonts  # the fonts in use: the deck's folder, the user's, the bundled ones

    sig = digest(code_version(), bundled_signature(), deck_fonts(deck).signature(), repr(deck), files_signature(files))
    if len(_RECENT) >= 16:
        _RECENT.pop(next(iter(_RECENT)))
    _RECENT[memo] = (deck, sig)
    return sig


def fingerprint(deck: Deck, *parts: str, templates: bool = True) -> str:
    """A cache key for a document made from ``deck``: :func:`deck_signature` and the caller's
    own ``parts`` (what the document is, language, paper, options). Documents that do not read
    the rulebook templates (the card sheets) pass ``templates=False``."""
    from deckgen.cache import digest

    return digest("deckgen-document-1", deck_signature(deck, templates), *parts)
