"""What a deck's outputs are made from: the deck model, the files it names, the bundled data
and the code. One list serves two users: the cache keys of built documents
(:func:`fingerprint`) and the files ``--watch`` watches (:func:`deck_files`).

The files a deck names are the ones its file keys name: the manifest itself, a palette file,
every image (found by walking the model for images, whichever key holds them), the fonts
folder and the deck's own rulebook templates. Free text is never taken for a path. Only regular
files are read (:mod:`deckgen.safefile`): a FIFO or a device inside a named folder is skipped.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from deckgen import safefile
from deckgen.memo import IdentityMemo
from deckgen.model import Deck, ImageRef

MAX_DIR_FILES = 500          # a named folder larger than this is not read into a key (it is no deck input)
_SKIP_DIRS = {".git", "__pycache__", ".venv", "node_modules", "output"}


@functools.lru_cache(maxsize=256)
def _field_names(cls: type) -> tuple[str, ...]:
    """The names of a dataclass's fields (:func:`dataclasses.fields`), once per class."""
    return tuple(f.name for f in dataclasses.fields(cls))


_LEAVES = (str, bytes, int, float, Path)      # values that hold no image (enums and paths included)
_LEAF_TYPES = {str, bytes, int, float, bool, type(None)}


def _image_refs(obj: object) -> list[ImageRef]:
    """Every image a model object holds (dataclasses, mappings, sequences), wherever its key is,
    in the order a depth-first walk meets them (a loop with its own stack: a deck has thousands
    of values, and a generator per value cost more than the rest of a warm build's signature)."""
    found: list[ImageRef] = []
    seen: set[int] = set()
    stack = [obj]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind in _LEAF_TYPES:
            continue
        if isinstance(item, ImageRef):
            found.append(item)
            continue
        if isinstance(item, _LEAVES) or id(item) in seen:
            continue
        seen.add(id(item))
        if dataclasses.is_dataclass(item) and not isinstance(item, type):
            stack.extend(getattr(item, name) for name in reversed(_field_names(type(item))))
        elif isinstance(item, Mapping):
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, (list, tuple, set, frozenset)):
            stack.extend(reversed(list(item)))
    return found


def declared_images(deck: Deck) -> frozenset[str]:
    """The files of every image the manifest declares (absolute, resolved): the only pictures a
    rulebook's inline ``<img src=...>`` may show."""
    return frozenset(str(ref.path) for ref in _image_refs(deck))


def deck_files(deck: Deck) -> list[Path]:
    """The files and folders a deck reads, absolute, in a stable order (the manifest first).

    Only the keys that name files count: the manifest, the palette file, every image (art,
    icons, back image, logo), the fonts folder and the template folder. A free text that happens
    to name a file (``back_text = "/dev/zero"``) is text, and is never opened."""
    base = deck.source.parent if deck.source else Path.cwd()
    found: dict[Path, None] = {}
    named: list[tuple[str | Path, bool]] = []      # (path, must lie inside the deck folder)
    if deck.source:
        found[Path(deck.source).resolve()] = None
    if deck.palette.source:
        named.append((deck.palette.source, False))  # checked when read: the deck's own, or a named one
    named += [(ref.path, True) for ref in _image_refs(deck)]
    if deck.fonts:
        named.append((deck.fonts, True))
    if deck.template_dir:
        named.append((deck.template_dir, True))     # not checked yet: templates = "/etc" is never hashed
    try:
        root = base.resolve()
    except (OSError, RuntimeError):
        root = base.absolute()
    for text, inside in dict.fromkeys(named):
        try:
            path = (base / text).resolve()
            if not path.exists():
                continue
        except (OSError, ValueError, RuntimeError):
            continue
        if inside and not (path == root or root in path.parents):
            continue
        if path not in found and not _is_ancestor(path, base):
            found[path] = None
    return list(found)


def _is_ancestor(path: Path, base: Path) -> bool:
    """A folder that holds the manifest (".", "..") is no input of its own."""
    base = base.resolve()
    return path == base or path in base.parents


def _dir_files(folder: Path) -> list[Path]:
    """The files in a named folder; a symlink that leads out of it is not followed."""
    out: list[Path] = []
    root = folder.resolve()
    for dirpath, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not d.startswith("."))
        for name in sorted(files):
            path = Path(dirpath) / name
            if name.startswith(".") or (path.is_symlink() and not _inside(path, root)):
                continue
            out.append(path)
        if len(out) > MAX_DIR_FILES:
            return []
    return out


def _inside(path: Path, root: Path) -> bool:
    try:
        resolved = path.resolve()
    except (OSError, RuntimeError):
        return False
    return resolved == root or root in resolved.parents


@functools.lru_cache(maxsize=4096)
def _file_hash(path: str, size: int, mtime_ns: int) -> str:
    return hashlib.sha256(safefile.read_bytes(path, safefile.MAX_FILE)).hexdigest()


def file_hash(path: Path) -> str:
    """SHA-256 of a file's bytes (memoised on its size and modification time); "unreadable" if it
    cannot be read, and "not-a-file" for a FIFO, a device or a file over the size cap (never opened
    for reading, so a named pipe cannot block the build)."""
    try:
        st = safefile.check_regular(path, safefile.MAX_FILE)
        return _file_hash(str(path), st.st_size, st.st_mtime_ns)
    except safefile.UnsafeFile:
        return "not-a-file"
    except (OSError, ValueError):
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
    import PIL

    import deckgen

    root = Path(deckgen.__file__).resolve().parent
    h = hashlib.sha256()
    h.update(f"{deckgen.__version__}|{library_version('reportlab', 'Version')}|{PIL.__version__}|"
             f"{library_version('jinja2', '__version__')}".encode())
    for path in sorted(root.rglob("*.py")):
        h.update(str(path.relative_to(root)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def library_version(package: str, name: str) -> str:
    """``package.name`` (a version string), read from the package's ``__init__`` source when the
    package is not imported yet: a build whose documents come from the cache uses neither jinja2
    nor ReportLab, and importing them only for their versions would cost as much as the rest of
    such a build's rulebook step (ReportLab's ``__init__`` alone looks for three optional modules
    along the whole path)."""
    import importlib
    import sys

    if package not in sys.modules:
        import importlib.util
        import re

        spec = importlib.util.find_spec(package)
        try:
            source = Path(spec.origin).read_text(encoding="utf-8") if spec and spec.origin else ""
        except (OSError, UnicodeDecodeError):
            source = ""
        found = re.search(rf'^{re.escape(name)} *= *"([^"\\]+)" *$', source, re.MULTILINE)
        if found:
            return found.group(1)
    return str(getattr(importlib.import_module(package), name))


def bundled_signature() -> str:
    """The bundled templates, fonts and data files a document may read."""
    from deckgen.resources import decks_dir, fonts_dir, templates_dir

    return files_signature([templates_dir(), fonts_dir(), decks_dir()])


_SIGNATURES: IdentityMemo[str] = IdentityMemo(16)


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

    def make() -> str:
        files, shared = _shared_parts(deck)
        if not templates:
            skip = set(template_files(deck))
            files = [f for f in files if f not in skip]
        return digest(*shared, files_signature(files))

    return _SIGNATURES.get(deck, make, tag=templates)


# The parts of a deck's signature both of its kinds share (with and without its own templates),
# worked out once per deck object like the signatures themselves.
_SHARED: IdentityMemo[tuple[list[Path], tuple[str, ...]]] = IdentityMemo(16)


def _shared_parts(deck: Deck) -> tuple[list[Path], tuple[str, ...]]:
    def make() -> tuple[list[Path], tuple[str, ...]]:
        from deckgen.fonts import deck_fonts  # the fonts in use: the deck's folder, the user's, the bundled ones

        return deck_files(deck), (code_version(), bundled_signature(), deck_fonts(deck).signature(), repr(deck))

    return _SHARED.get(deck, make)


def fingerprint(deck: Deck, *parts: str, templates: bool = True) -> str:
    """A cache key for a document made from ``deck``: :func:`deck_signature` and the caller's
    own ``parts`` (what the document is, language, paper, options). Documents that do not read
    the rulebook templates (the card sheets) pass ``templates=False``."""
    from deckgen.cache import digest

    return digest("deckgen-document-1", deck_signature(deck, templates), *parts)
