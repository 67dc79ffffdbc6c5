"""One loader for every preset file: card sizes, papers, print-shop presets, palettes and kinds.

Each preset file is read from up to three folders, later ones overriding earlier ones entry by
entry:

1. ``bundled``: the data shipped with deckgen (``decks/`` in a checkout);
2. ``user``: the user data folder (``$DECKGEN_DATA``, else the platform's, e.g.
   ``~/.local/share/deckgen/`` on Linux);
3. ``deck``: the folder of the manifest being read, when there is one.

In each folder the files have the bundled names (``card-sizes.toml``, ``papers.toml``,
``services.toml``, ``kinds.toml``) and palettes are one file each in ``palettes/``. A user or
deck entry with a bundled name replaces it, and a note says so. Every file is validated when
read, with every problem reported at once, and cached while it is unchanged on disk.

A deck folder is untrusted (``docs/security.md``): its preset files are read only when they lie
inside it (a ``kinds.toml`` or ``layouts/`` that is a symlink leading out is refused, like every
other file a deck names), and a problem in one is an error. A problem in a file of your own user
folder is a warning instead: that file is left out (the bundled entries it would replace stay),
so one broken file of yours does not stop every build.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from deckgen import deckfs
from deckgen.datafile import with_lines
from deckgen.errors import DeckgenError, Finding, error, note, printable, warning
from deckgen.resources import decks_dir

T = TypeVar("T")

BUNDLED = "bundled"
USER = "user"
DECK = "deck"


def user_dir() -> Path:
    """The user data folder: ``$DECKGEN_DATA`` if set, else the platform's user data folder."""
    if os.environ.get("DECKGEN_DATA"):
        return Path(os.environ["DECKGEN_DATA"])
    import platformdirs

    return Path(platformdirs.user_data_dir("deckgen", appauthor=False))


def search_dirs(base: Path | None = None) -> list[tuple[str, Path]]:
    """(origin, folder) in the order they are read; a folder is listed once."""
    dirs = [(BUNDLED, decks_dir()), (USER, user_dir())]
    if base is not None:
        dirs.append((DECK, Path(base)))
    seen: set[Path] = set()
    out = []
    for origin, d in dirs:
        key = _resolved(d)
        if key not in seen:
            seen.add(key)
            out.append((origin, d))
    return out


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except OSError:
        return path.absolute()


# A file parser: a file's path -> its entries in file order, or DeckgenError with every problem.
Parser = Callable[[str], Iterable[tuple[str, Any]]]


@dataclass(frozen=True)
class PresetFile(Generic[T]):
    """One kind of preset: where it is stored in each folder and how one file is read."""

    label: str                  # "card size", for messages
    filename: str               # "card-sizes.toml", or "palettes" for a folder of one-entry files
    parse: Parser
    folder: bool = False        # entries are the *.toml files of a folder, named by file stem

    def files(self, folder: Path) -> list[Path]:
        place = folder / self.filename
        if self.folder:      # a folder on disk or in a mounted pack (deckgen.deckfs)
            return [place / n for n in deckfs.listdir(place) if n.endswith(".toml")] if deckfs.is_dir(place) else []
        return [place] if deckfs.is_file(place) else []


@dataclass(frozen=True)
class Entry(Generic[T]):
    """One preset with where it came from."""

    name: str
    value: T
    origin: str       # bundled, user or deck
    file: Path
    replaces: Entry[T] | None = None


@dataclass
class Catalogue(Generic[T]):
    """Every preset of one kind, with notes about user entries that replace bundled ones."""

    kind: PresetFile[T]
    entries: dict[str, Entry[T]] = field(default_factory=dict)
    notes: list[Finding] = field(default_factory=list)

    def __contains__(self, name: object) -> bool:
        return name in self.entries

    def __iter__(self) -> Iterator[str]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def get(self, name: str) -> T:
        return self.entries[name].value

    def values(self) -> dict[str, T]:
        return {name: e.value for name, e in self.entries.items()}

    def notes_for(self, names: set[str] | list[str]) -> list[Finding]:
        """The override notes of the given entries only (what a deck actually uses)."""
        return [n for n in self.notes if n.where in {f"{self.kind.label}.{name}" for name in names}]


def catalogue(kind: PresetFile[T], base: Path | None = None) -> Catalogue[T]:
    """Every entry of ``kind`` from the bundled, user and (with ``base``) deck folders."""
    cat: Catalogue[T] = Catalogue(kind)
    for origin, folder in search_dirs(base):
        for path in confined_files(kind, folder) if origin == DECK else kind.files(folder):
            try:
                entries = load_file(kind, path)
            except DeckgenError as exc:
                if origin != USER:
                    raise
                cat.notes.extend(_left_out(kind, path, exc))
                continue
            for name, value in entries:
                prev = cat.entries.get(name)
                entry = Entry(name, value, origin, path, prev)
                if prev is not None:
                    cat.notes.append(note(
                        "override", f"{kind.label}.{name}",
                        f"{origin} {kind.label} '{name}' replaces the {prev.origin} one from {prev.file}",
                        file=str(path)))
                cat.entries[name] = entry
    cat.notes = with_lines(cat.notes)
    return cat


def confined_files(kind: PresetFile[T], folder: Path) -> list[Path]:
    """``kind``'s files in a deck folder, each of which must lie inside it: a file, or a folder of
    files, that is a symlink leading out is refused (DeckgenError), never read nor listed."""
    _inside(kind, folder, kind.filename)
    files = kind.files(folder)
    for path in files if kind.folder else ():
        _inside(kind, folder, f"{kind.filename}/{path.name}")
    return files


def _inside(kind: PresetFile[Any], folder: Path, name: str) -> None:
    from deckgen.images import ImageProblem, resolve_inside

    if not deckfs.exists(folder / name) and not (folder / name).is_symlink():
        return
    try:
        resolve_inside(name, folder)
    except ImageProblem as exc:         # named by the deck's folder: the file it leads to is never read
        what = "folder" if kind.folder and name == kind.filename else "file"
        raise DeckgenError(error("file", name, f"the {kind.label} {what} {exc}", file=str(folder),
                                 hint="keep preset files inside the deck's folder, as real files")) from None


_warned: set[tuple[str, tuple[int, int]]] = set()


def _left_out(kind: PresetFile[Any], path: Path, exc: DeckgenError) -> list[Finding]:
    """A file of the user folder that cannot be used: left out. Each of its problems becomes a
    warning (``deckgen list`` shows them), and one line on stderr (once per process and version
    of the file) says so."""
    first = exc.findings[0]
    more = f" (and {len(exc.findings) - 1} more problems: deckgen list shows them)" if len(exc.findings) > 1 else ""
    text = (f"your {kind.label} file {path} is not used: {first.where + ': ' if first.where else ''}{first.message}"
            f"{more}; deckgen goes on without it")
    key = (str(path), deckfs.stamp(path))
    if key not in _warned:
        _warned.add(key)
        import logging

        logging.getLogger("deckgen.presets").warning("deckgen: %s", printable(text))
    return [warning("preset", f.where, f"{f.message} (so this {kind.label} file is not used)", file=f.file or str(path),
                    line=f.line, hint=f.hint) for f in exc.findings]


def load_file(kind: PresetFile[T], path: Path) -> tuple[tuple[str, T], ...]:
    """One preset file's entries (cached while the file is unchanged)."""
    return _load(kind, str(path), deckfs.stamp(path))


@functools.lru_cache(maxsize=64)
def _load(kind: PresetFile[Any], path: str, stamp: tuple[int, int]) -> tuple[tuple[str, Any], ...]:
    try:
        return tuple(kind.parse(path))
    except DeckgenError as exc:
        raise DeckgenError(with_lines(exc.findings)) from None

