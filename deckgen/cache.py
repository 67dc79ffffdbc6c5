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

Nothing read from the cache is trusted blindly (``docs/security.md``):

- every document entry has its content's SHA-256 beside it (``<entry>.sha256``, written after
  the entry, each to a temp file renamed into place; without ``fsync``: the checksum, not the
  disk's ordering, is what tells a torn entry from a good one); an entry whose bytes do not match,
  or that has no checksum, is not used: it is made again (a damaged one is removed first, with a
  one-line notice on the ``deckgen.cache`` logger, stderr);
- a face entry is a PNG, which carries checksums of its own (a CRC-32 per chunk, IEND last) and
  says which face it is (its text chunks): its caller passes a ``whole`` check instead
  (:func:`verified`), and no checksum file is written beside it (:func:`store` with
  ``checksum=False``): half the files a cold build creates, each a costly inode on a busy disk;
- an output written from an entry (:func:`write_output`) is trusted without being read only
  while its stamp (its inode, size, mode, mtime and ctime when its bytes were last found equal
  to the entry's) still matches;
- the cache folder is made private (0700); entries owned by another user, or in a folder that
  other users may write, are not used;
- a cache that cannot be read or written is skipped with one warning: the build goes on.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from deckgen import safefile
from deckgen.errors import DeckgenError, error

SECTIONS = ("faces", "documents")
DEFAULT_MAX_SIZE = 1_000_000_000          # 1 GB: a few thousand print-resolution faces
ENV_DIR = "DECKGEN_CACHE"
ENV_MAX = "DECKGEN_CACHE_MAX_SIZE"

_STARTED = time.time() - 2.0        # entries used since the process started are never pruned automatically
_added = 0                          # entries written since the last automatic prune

SUM = ".sha256"                     # the checksum file beside each entry
MAX_ENTRY = 512 * 1024 * 1024       # bytes of one entry (a rulebook PDF with card pictures is far less)
LOGGER = "deckgen.cache"           # the notices' logger (imported when one is given: most runs give none)
_warned: set[str] = set()

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
        data = part.encode("utf-8", "surrogateescape") if isinstance(part, str) else part   # a non-UTF-8 file name
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()


def entry_path(root: Path, section: str, key: str, ext: str) -> Path:
    return root / section / key[:2] / f"{key}.{ext}"


def touch(path: Path) -> None:
    """Mark an entry as just used (its mtime orders the pruning); a read-only cache is fine."""
    with contextlib.suppress(OSError):
        os.utime(path)


def sum_path(path: Path) -> Path:
    return path.with_name(path.name + SUM)


def _notice(message: str, *args: object) -> None:
    import logging

    logging.getLogger(LOGGER).warning(message, *args)


def _warn_once(what: str, message: str) -> None:
    if what not in _warned:
        _warned.add(what)
        _notice("deckgen: %s", message)


def trusted_folder(root: Path) -> bool:
    """The cache folder is this user's own and no one else may write in it (POSIX)."""
    if not hasattr(os, "getuid"):
        return True
    try:
        st = os.stat(root)
    except OSError:
        return True                         # not made yet: it is made private
    if st.st_uid != os.getuid() or st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        _warn_once(f"untrusted:{root}", f"the cache folder {root} belongs to another user or others may write in it: "
                   "the cache is not used (set DECKGEN_CACHE to a folder of your own)")
        return False
    return True


def make_root(root: Path) -> None:
    """Create the cache folder, private to this user (0700)."""
    root.mkdir(parents=True, exist_ok=True, mode=0o700)


Whole = Callable[[bytes], bool]
"""A check that an entry's bytes are whole and are what its name says, for entries that carry
their own checksums (face PNGs): it stands in for the checksum file."""


def read_entry(path: Path, whole: Whole | None = None) -> bytes | None:
    """An entry's bytes when its checksum matches (``whole``: when ``whole`` accepts them) and it
    is this user's, else None (a damaged entry is removed, with a notice)."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        _warn_once(f"owner:{path}", f"cache entry {path} belongs to another user: not used")
        return None
    try:
        data = safefile.read_bytes(path, MAX_ENTRY)
        expected = None if whole else safefile.read_bytes(sum_path(path), 200).decode("ascii", "replace").strip()
    except FileNotFoundError:               # no checksum: an older deckgen, a write cut short, or one
        return None                          # still under way (another job's); it is made again
    except OSError as exc:
        _warn_once(f"read:{path.parent}", f"cannot read the cache ({exc.strerror}): going on without it")
        return None
    if not (whole(data) if whole else hashlib.sha256(data).hexdigest() == expected):
        _discard(path, "damaged")
        return None
    return data


def verified(path: Path, whole: Whole | None = None) -> bool:
    """Whether a cache entry file can be used as it is (checksum or ``whole``, owner); a bad one
    is removed. ``whole`` must give the same answer for the same path and bytes (it is
    remembered by the file's inode, size and times)."""
    try:
        st = os.stat(path)
        sst = None if whole else os.stat(sum_path(path))
    except (OSError, ValueError):       # missing, or its checksum not written yet: drawn again (atomically)
        return False
    return _verified(str(path), st.st_mtime_ns, st.st_size, st.st_ino, sst.st_mtime_ns if sst else 0, whole)


@functools.lru_cache(maxsize=8192)
def _verified(path: str, mtime: int, size: int, ino: int, sum_mtime: int, whole: Whole | None) -> bool:
    return read_entry(Path(path), whole) is not None


def _discard(path: Path, why: str | None) -> None:
    if why:
        _notice("deckgen: cache entry %s was %s: made again", path.name, why)
    for p in (path, sum_path(path)):
        with contextlib.suppress(OSError):
            p.unlink()


def usable(folder: Path) -> bool:
    """Whether a cache section folder can be used: the cache is trusted and the folder can be made
    and written. False after one warning: the caller goes on without the cache."""
    root = folder.parent
    if not trusted_folder(root):
        return False
    try:
        make_root(root)
        folder.mkdir(exist_ok=True)
        import tempfile

        with tempfile.NamedTemporaryFile(dir=folder, prefix=".probe-"):
            pass
    except OSError as exc:
        _warn_once(f"write:{root}", f"cannot write to the cache at {root} ({exc.strerror}): going on without it "
                   f"(set {ENV_DIR} to a writable folder, or use --no-cache)")
        return False
    return True


def write_sum(path: Path, data: bytes) -> None:
    """Write an entry's checksum (after the entry itself); OSError when the cache cannot take it."""
    from deckgen.atomic import write_unsynced

    write_unsynced(sum_path(path), hashlib.sha256(data).hexdigest().encode("ascii") + b"\n")


def store(path: Path, data: bytes, *, checksum: bool = True) -> None:
    """Write an entry and then its checksum, each atomically but without waiting for the disk
    (no ``fsync``: a crash may leave an entry torn, and its checksum then says so); DeckgenError
    (a path that is not a regular file) or OSError when the cache cannot take it, e.g. a disk that
    filled up during a build. ``checksum=False``: an entry that carries its own (read back
    with a ``whole`` check, :func:`verified`)."""
    from deckgen.atomic import write_unsynced

    write_unsynced(path, data)
    if checksum:
        write_sum(path, data)


def write_entry(path: Path, data: bytes) -> bool:
    """Store an entry and then its checksum, each atomically; False (and one warning) when the
    cache cannot be written: the caller goes on without it."""
    try:
        store(path, data)
    except (DeckgenError, OSError) as exc:
        why = exc.findings[0].message if isinstance(exc, DeckgenError) else (exc.strerror or str(exc))
        with contextlib.suppress(OSError):
            path.unlink()
        _warn_once(f"write:{path.parent.parent.parent}", f"cannot write to the cache: {why}; "
                   "going on without it")
        return False
    return True


def get_bytes(section: str, key: str, ext: str, cache_dir: Path | None = None) -> bytes | None:
    """A cached entry's bytes, or None when it is not there, is damaged or cannot be read."""
    root = cache_root(cache_dir)
    if not trusted_folder(root):
        return None
    path = entry_path(root, section, key, ext)
    data = read_entry(path)
    if data is not None:
        touch(path)
    return data


def has_entry(section: str, key: str, ext: str, cache_dir: Path | None = None) -> bool:
    """Whether an entry and its checksum are in a trusted cache (neither is read: see :func:`get_bytes`)."""
    root = cache_root(cache_dir)
    path = entry_path(root, section, key, ext)
    return trusted_folder(root) and path.is_file() and sum_path(path).is_file()


def put_bytes(section: str, key: str, ext: str, data: bytes, cache_dir: Path | None = None) -> bool:
    """Store an entry atomically with its checksum; False when the cache cannot be written (the caller goes on)."""
    root = cache_root(cache_dir)
    if not trusted_folder(root):
        return False
    try:
        make_root(root)
    except OSError as exc:
        _warn_once(f"write:{root}", f"cannot create the cache at {root} ({exc.strerror}): going on without it")
        return False
    if not write_entry(entry_path(root, section, key, ext), data):
        return False
    note_added()
    return True


def write_output(section: str, key: str, ext: str, dest: Path, cache_dir: Path | None = None) -> int | None:
    """Write a cached entry's bytes to the output file ``dest`` (atomically, :mod:`deckgen.atomic`):
    its size, or None when the entry is not there (or damaged, or unreadable).

    When ``dest`` is known to hold those bytes already (:func:`_stamped`: the stamp a previous
    build left, and ``dest``'s size, times, inode and mode unchanged since), neither the entry
    nor ``dest`` is read: an unchanged deck's build does not read its 11 MB card sheets twice."""
    root = cache_root(cache_dir)
    if not trusted_folder(root):
        return None
    path = entry_path(root, section, key, ext)
    size = _stamped(path, dest)
    if size is not None:
        touch(path)
        return size
    data = read_entry(path)
    if data is None:
        return None
    touch(path)
    if not _stamp(path, dest, data):
        from deckgen.atomic import write_bytes

        write_bytes(dest, data)
        _stamp(path, dest, data)
    return len(data)


# An output stamp: the cache entry an output file was written from, and the output's stat fields
# as they were after its bytes were found equal to the entry's. A user's write, touch, chmod or
# replacement of the file changes its ctime (or its inode), which the kernel sets and no tool can
# set back, so an equal stat means the bytes are the ones checked. A file changed within the
# timestamp granularity of its previous change would keep its times (git's "racy" files): a
# stamp is only made once the file's last change is older than STAMP_SETTLED (whole-second
# file systems: STAMP_SETTLED_COARSE); until then every build compares the bytes.
STAMP_SETTLED = 100_000_000              # ns: many times the coarse clock tick (1-10 ms) of ns file systems
STAMP_SETTLED_COARSE = 2_500_000_000     # ns: file systems with whole (or even) second times (FAT, HFS+, ext3)
_STAMPED_FIELDS = ("st_dev", "st_ino", "st_size", "st_mode", "st_mtime_ns", "st_ctime_ns")


def _stamp_path(entry: Path, dest: Path) -> Path:
    name = digest("deckgen-output-stamp-1", str(entry), os.path.abspath(dest))
    return entry.with_name(f"{name}.stamp")


def _stat_fields(dest: Path) -> list[int] | None:
    try:
        st = os.lstat(dest)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    return [getattr(st, f) for f in _STAMPED_FIELDS]


def _entry_sum(entry: Path) -> str | None:
    try:
        return safefile.read_bytes(sum_path(entry), 200).decode("ascii", "replace").strip()
    except (OSError, ValueError):
        return None


def _stamped(entry: Path, dest: Path) -> int | None:
    """The size of ``dest`` when its stamp says it holds entry ``entry``'s bytes, the entry and its
    checksum are still in the cache, and ``dest`` has not changed since; else None."""
    raw = read_entry(_stamp_path(entry, dest))
    fields = _stat_fields(dest)
    if raw is None or fields is None:
        return None
    try:
        stamp = json.loads(raw)
        entry_size = os.stat(entry).st_size
    except (ValueError, OSError):
        return None
    from deckgen.atomic import OUTPUT_MODE

    if stamp.get("stat") != fields or entry_size != fields[2] or stat.S_IMODE(fields[3]) != OUTPUT_MODE \
            or stamp.get("sha256") != _entry_sum(entry):
        return None
    return entry_size


def _settled(fields: list[int], now_ns: int) -> bool:
    mtime, ctime = fields[4], fields[5]
    coarse = mtime % 1_000_000_000 == 0 and ctime % 1_000_000_000 == 0
    return now_ns - max(mtime, ctime) > (STAMP_SETTLED_COARSE if coarse else STAMP_SETTLED)


def _stamp(entry: Path, dest: Path, data: bytes) -> bool:
    """Leave the stamp of ``dest`` holding ``data`` (entry ``entry``'s bytes) when its last change
    has settled; the bytes are compared after the stat, and the stat taken again after them, so a
    change during the check is never stamped. A stamp that cannot be written is no loss. True when
    ``dest`` was found holding ``data`` with the mode a write gives (it need not be written again)."""
    from deckgen.atomic import OUTPUT_MODE

    now = time.time_ns()
    fields = _stat_fields(dest)
    if fields is None or not _settled(fields, now) or fields[2] != len(data) \
            or stat.S_IMODE(fields[3]) != OUTPUT_MODE:
        return False
    try:
        same = safefile.read_bytes(dest, len(data)) == data
    except (OSError, ValueError):
        return False
    if not same or _stat_fields(dest) != fields:
        return False
    expected = _entry_sum(entry)
    if expected is not None:
        stamp = json.dumps({"sha256": expected, "stat": fields}).encode("ascii")
        with contextlib.suppress(DeckgenError, OSError):
            store(_stamp_path(entry, dest), stamp)
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

    def to_json(self) -> dict[str, object]:
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
                if name.endswith(SUM):           # a checksum goes with its entry
                    continue
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
    import shutil

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
        with contextlib.suppress(OSError):
            sum_path(path).unlink()
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
