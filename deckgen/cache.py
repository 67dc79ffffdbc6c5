"""deckgen's cache folder: drawn faces and built documents, named by hashes of their inputs.

Where it is: ``$DECKGEN_CACHE`` when set, else the user cache folder of the platform
(platformdirs: ``~/.cache/deckgen`` or ``$XDG_CACHE_HOME/deckgen`` on Linux,
``~/Library/Caches/deckgen`` on macOS, ``%LOCALAPPDATA%\\deckgen\\Cache`` on Windows).

Each kind of entry has its own section (a sub-folder): ``faces/`` holds face PNGs,
``documents/`` holds PDFs (rulebooks, card sheets). An entry is ``<section>/<key[:2]>/<key>.<ext>``
where ``key`` is a SHA-256 of everything the entry was made from, so an entry never goes stale:
a changed input gives another key. Entries are written atomically.

The cache is capped: after a run that added entries, the least recently used ones (by file
modification time, refreshed on every hit) are removed until the cache is at most
``$DECKGEN_CACHE_MAX_SIZE`` (default :data:`DEFAULT_MAX_SIZE`). ``deckgen cache`` shows, clears
and prunes it by hand.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from deckgen.errors import DeckgenError, error

SECTIONS = ("faces", "documents")
DEFAULT_MAX_SIZE = 1_000_000_000          # 1 GB: a few thousand print-resolution faces
ENV_DIR = "DECKGEN_CACHE"
ENV_MAX = "DECKGEN_CACHE_MAX_SIZE"

_STARTED = time.time() - 2.0        # entries used since the process started are never pruned automatically
_added = 0                          # entries written since the last automatic prune

_UNITS = {"": 1_000_000, "b": 1, "k": 1000, "kb": 1000, "kib": 1024, "m": 1_000_000, "mb": 1_000_000,
          "mib": 1024 ** 2, "g": 1_000_000_000, "gb": 1_000_000_000, "gib": 1024 ** 3}


def cache_root(cache_dir: Path | str | None = None) -> Path:
    """``cache_dir``, else ``$DECKGEN_CACHE``, else the platform's user cache folder for deckgen."""
    if cache_dir is not None:
        return Path(cache_dir)
    if os.environ.get(ENV_DIR):
        return Path(os.environ[ENV_DIR])
    import platformdirs

    return Path(platformdirs.user_cache_dir("deckgen", appauthor=False))


def parse_size(text: str, where: str = "--max-size") -> int:
    """``500MB``, ``1.5GB``, ``800KiB``, ``0``; a bare number is megabytes."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d*)?|\.\d+)\s*([a-zA-Z]*)\s*", str(text))
    unit = m.group(2).lower() if m else ""
    if not m or unit not in _UNITS:
        raise DeckgenError(error("size", where, f"'{text}' is not a size",
                                 hint="a number with a unit, e.g. 500MB, 2GB or 800KB; a bare number is megabytes"))
    return int(float(m.group(1)) * _UNITS[unit])


def format_size(n: int) -> str:
    for unit, step in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= step:
            return f"{n / step:.1f} {unit}"
    return f"{n} B"


def max_size() -> int:
    """The automatic cap: ``$DECKGEN_CACHE_MAX_SIZE`` or :data:`DEFAULT_MAX_SIZE`."""
    text = os.environ.get(ENV_MAX)
    return parse_size(text, ENV_MAX) if text else DEFAULT_MAX_SIZE


def digest(*parts: str | bytes) -> str:
    """A cache key: SHA-256 over the parts, each length-prefixed so no two part lists collide."""
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()


def entry_path(root: Path, section: str, key: str, ext: str) -> Path:
    return root / section / key[:2] / f"{key}.{ext}"


def touch(path: Path) -> None:
    """Mark an entry as just used (its mtime orders the pruning); a read-only cache is fine."""
    with contextlib.suppress(OSError):
        os.utime(path)


def get_bytes(section: str, key: str, ext: str, cache_dir: Path | None = None) -> bytes | None:
    """A cached entry's bytes, or None when it is not there (or cannot be read)."""
    path = entry_path(cache_root(cache_dir), section, key, ext)
    try:
        data = path.read_bytes()
    except OSError:
        return None
    touch(path)
    return data


def put_bytes(section: str, key: str, ext: str, data: bytes, cache_dir: Path | None = None) -> bool:
    """Store an entry atomically; False when the cache cannot be written (the caller goes on)."""
    from deckgen.atomic import write_bytes

    try:
        write_bytes(entry_path(cache_root(cache_dir), section, key, ext), data)
    except DeckgenError:
        return False
    note_added()
    return True


def note_added(n: int = 1) -> None:
    """Record that entries were written (the next :func:`auto_prune` then looks at the size)."""
    global _added
    _added += n


@dataclass(frozen=True)
class Usage:
    root: Path
    files: int
    bytes: int
    sections: dict[str, tuple[int, int]]     # section -> (files, bytes)

    def to_json(self) -> dict:
        return {"path": str(self.root), "files": self.files, "bytes": self.bytes,
                "max_bytes": max_size(),
                "sections": {k: {"files": f, "bytes": b} for k, (f, b) in self.sections.items()}}


def _entries(root: Path) -> list[tuple[float, int, Path, str]]:
    """(mtime, size, path, section) of every entry, temp files of interrupted writes included."""
    out = []
    for section in SECTIONS:
        base = root / section
        if not base.is_dir():
            continue
        for dirpath, _dirs, files in os.walk(base):
            for name in files:
                path = Path(dirpath) / name
                try:
                    st = path.stat()
                except OSError:
                    continue
                out.append((st.st_mtime, st.st_size, path, section))
    return out


def usage(cache_dir: Path | None = None) -> Usage:
    root = cache_root(cache_dir)
    sections = {s: (0, 0) for s in SECTIONS}
    for _, size, _, section in _entries(root):
        f, b = sections[section]
        sections[section] = (f + 1, b + size)
    return Usage(root, sum(f for f, _ in sections.values()), sum(b for _, b in sections.values()), sections)


def _unwritable(root: Path, exc: OSError) -> DeckgenError:
    return DeckgenError(error("cache", "cache", f"cannot change the cache at {root}: {exc.strerror}",
                              hint=f"check the folder's permissions, or set {ENV_DIR} to another folder"))


def clear(cache_dir: Path | None = None) -> Usage:
    """Remove every entry; returns what was there. Files deckgen did not make are left alone."""
    before = usage(cache_dir)
    for section in SECTIONS:
        path = before.root / section
        if path.is_dir():
            try:
                shutil.rmtree(path)
            except OSError as exc:
                raise _unwritable(before.root, exc) from None
    return before


@dataclass(frozen=True)
class Pruned:
    removed: int
    freed: int
    left: int          # bytes left in the cache


def prune(max_bytes: int, cache_dir: Path | None = None, *, strict: bool = True,
          keep_since: float | None = None) -> Pruned:
    """Remove the least recently used entries until the cache holds at most ``max_bytes``.

    ``strict=False`` (the automatic cap) ignores entries it cannot remove instead of failing;
    entries used at or after ``keep_since`` (a time stamp) are kept whatever the size.
    """
    root = cache_root(cache_dir)
    entries = _entries(root)
    total = sum(size for _, size, _, _ in entries)
    removed = freed = 0
    for mtime, size, path, _ in sorted(entries, key=lambda e: (e[0], str(e[2]))):
        if total <= max_bytes or (keep_since is not None and mtime >= keep_since):
            break
        try:
            path.unlink()
        except FileNotFoundError:
            pass
        except OSError as exc:
            if strict:
                raise _unwritable(root, exc) from None
            continue
        total -= size
        removed += 1
        freed += size
    return Pruned(removed, freed, total)


def auto_prune(cache_dir: Path | None = None, keep_since: float | None = None) -> Pruned | None:
    """Apply the automatic cap when entries were added since the last time. Never fails.

    Entries used since ``keep_since`` (default: since this process started) are kept, so a
    cap smaller than one deck never removes a face the running build still needs.
    """
    global _added
    if not _added:
        return None
    _added = 0
    try:
        return prune(max_size(), cache_dir, strict=False, keep_since=_STARTED if keep_since is None else keep_since)
    except (DeckgenError, OSError):
        return None
