"""Atomic file writing for every output deckgen makes: a temp file in the same folder (named by
the process id and a counter, made with ``O_EXCL``), then ``os.replace``, with the ordinary
permissions the umask gives.

An interrupted or failed write leaves the previous file untouched and no temp file behind.
The data of an output reaches the disk (``fsync``) before the rename, so a crash never leaves
a file of the right name with the wrong bytes; the cache's entries skip the ``fsync``
(:func:`write_unsynced`): their checksums catch a torn one. Only a regular file is ever replaced: a path that names a
symlink, a FIFO, a device or a folder is refused (``-o /dev/full`` as root replaced the device).
A regular file that already holds exactly the bytes, with the permissions a write gives, is left
as it is: a build of an unchanged deck neither rewrites nor syncs its outputs again.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import stat
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

from deckgen.errors import DeckgenError, error
from deckgen.safefile import describe_mode, read_bytes

CHUNK = 1 << 20
_UMASK = os.umask(0)
os.umask(_UMASK)
OUTPUT_MODE = 0o666 & ~_UMASK          # the permissions a write gives a new file


def _write_chunks(fh: BinaryIO, data: bytes) -> None:
    view = memoryview(data)
    for start in range(0, len(view), CHUNK):
        fh.write(view[start:start + CHUNK])


def _kind(mode: int) -> str | None:
    """What a path is when it is something deckgen will not replace, else None."""
    return None if stat.S_ISREG(mode) else describe_mode(mode)


def check_replaceable(path: Path) -> None:
    """DeckgenError unless ``path`` is missing or a regular file (what an output may replace)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    except (OSError, ValueError):
        return                              # the write itself reports it
    kind = _kind(st.st_mode)
    if kind is not None:
        raise DeckgenError(error("output", str(path), f"is {kind}; deckgen replaces only regular files",
                                 hint="choose another file name with -o"))


MARKER = ".deckgen-output"
LOCK_NAME = ".deckgen-build.lock"
MARKER_TEXT = (b"deckgen made this folder (or found it empty) and writes its outputs here; "
               b"deckgen replaces files in a folder given with -o only if this file is in it.\n")


ZIP_TIME = (1980, 1, 1, 0, 0, 0)        # the earliest time a zip entry can hold: no clock in the file


def zip_entry(name: str, compress_type: int) -> zipfile.ZipInfo:
    """A zip entry that is the same bytes whenever and wherever it is written: a fixed time, a
    regular file's mode, made on "Unix" (Python says 0 on Windows)."""
    info = zipfile.ZipInfo(name, ZIP_TIME)
    info.compress_type = compress_type
    info.external_attr = (stat.S_IFREG | 0o644) << 16
    info.create_system = 3
    return info


def _not_a_folder(path: Path) -> DeckgenError | None:
    """The error for a path that cannot be a folder because it, or a folder it would sit in, is
    something else that exists (a file, a device): named after that one; None otherwise."""
    for above in (path, *path.parents):
        try:
            st = os.stat(above)
        except (OSError, ValueError):
            continue
        if stat.S_ISDIR(st.st_mode):
            return None
        what = describe_mode(st.st_mode) if not stat.S_ISREG(st.st_mode) else "a file"
        where = "" if above == path else f" (it would hold {path})"
        return DeckgenError(error("output", str(above), f"is {what}, not a folder{where}",
                                  hint="choose another folder with -o"))
    return None


def make_folder(folder: Path) -> None:
    """Make a folder the user named for an output file (and those above it), unmarked: a clear
    error when it, or a folder above it, is a file or a device."""
    problem = _not_a_folder(folder)
    if problem is not None:
        raise problem
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DeckgenError(error("output", str(folder), f"cannot write here: {exc.strerror}",
                                 hint="choose another folder with -o")) from None


def _make_marked(folder: Path) -> None:
    """Make ``folder`` and the folders above it that are missing, a marker in each one made."""
    problem = _not_a_folder(folder)
    if problem is not None:
        raise problem
    missing: list[Path] = []
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    for made in reversed(missing):
        try:
            made.mkdir(exist_ok=True)
        except OSError as exc:
            raise DeckgenError(error("output", str(made), f"cannot write here: {exc.strerror}",
                                     hint="choose another folder with -o")) from None
        write_bytes(made / MARKER, MARKER_TEXT)


def _holds_only_dotfiles_or_ours(folder: Path) -> bool:
    """Whether every entry of the folder is a dotfile or a folder deckgen made (marked)."""
    with os.scandir(folder) as entries:
        return all(e.name.startswith(".") or (e.is_dir(follow_symlinks=False) and os.path.isfile(
            os.path.join(e.path, MARKER))) for e in entries)


def claim_output(path: Path | str, *, folder: bool) -> Path:
    """Check the target of ``-o`` (or a command's default) before any work: the one rule for
    every command that writes. A file target must be missing or a regular file. A folder target
    must be missing, hold the marker file ``.deckgen-output`` that deckgen writes into every
    output folder it makes or takes (or sit right in such a folder: a build's deck folder), or
    hold nothing but dotfiles (such as ``.gitkeep``) and folders deckgen made (each marked);
    anything else is refused (exit 2), so ``-o ~`` never writes among your own files. The
    folders a target needs that do not exist yet are made here, each marked: whatever command
    writes first into ``output/``, a later one may write there too. Returns the path."""
    path = Path(path)
    if not folder:
        check_replaceable(path)
        _make_marked(path.parent)
        return path
    hint = (f"choose a new or empty folder with -o; if deckgen made this one, "
            f"add an empty file named {MARKER} to it")
    try:
        st = os.stat(path)              # a symlink to a folder is written into, never replaced
    except FileNotFoundError:
        st = None
    except (OSError, ValueError) as exc:
        raise _not_a_folder(path) or DeckgenError(error(
            "output", str(path), f"cannot use this folder: {getattr(exc, 'strerror', exc)}",
            hint="choose another folder with -o")) from None
    if st is not None and not stat.S_ISDIR(st.st_mode):
        raise _not_a_folder(path) or DeckgenError(error("output", str(path), "is not a folder",
                                                        hint="choose a folder with -o"))
    try:
        made = ((path / MARKER).is_file() or (path / LOCK_NAME).is_file()    # the lock: an earlier build's
                or (path.parent / MARKER).is_file())      # a deck's folder in a build's: deckgen's too
        if st is not None and not made and not _holds_only_dotfiles_or_ours(path):
            raise DeckgenError(error("output", str(path), "is a folder that deckgen did not make, and not empty; "
                                     "deckgen does not write among other files", hint=hint))
        _make_marked(path)
    except OSError as exc:
        raise DeckgenError(error("output", str(path), f"cannot write here: {exc.strerror}",
                                 hint="choose another folder with -o")) from None
    if not (path / MARKER).is_file():
        write_bytes(path / MARKER, MARKER_TEXT)
    return path


def _holds(path: Path, data: bytes) -> bool:
    """Whether ``path`` is a regular file with exactly ``data`` and the mode a write would give it."""
    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size != len(data) or stat.S_IMODE(st.st_mode) != OUTPUT_MODE:
            return False
        return read_bytes(path, len(data)) == data
    except (OSError, ValueError):
        return False


_tmp_names = itertools.count()
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


def _open_temp(path: Path) -> tuple[int, Path]:
    """A new temp file beside ``path``, named by this process's id and a counter and made with
    ``O_EXCL`` (no random names to try; a stale one of a dead process with the same id is
    refused and the next name tried), with the mode the umask gives any new file."""
    folder = path.parent
    for attempt in range(100):
        tmp = folder / f".{path.name}.{os.getpid()}-{next(_tmp_names)}.tmp"
        try:
            return os.open(tmp, _CREATE, 0o666), tmp
        except FileExistsError:
            continue
        except FileNotFoundError:
            if attempt:
                raise
            folder.mkdir(parents=True, exist_ok=True)
    raise FileExistsError(f"no free temp file name in {folder}")


def _fill_and_replace(fd: int, tmp: Path, path: Path, data: bytes, sync: bool) -> None:
    """Write ``data`` into the temp file (onto the disk first when ``sync``), then rename it over
    ``path``; on any failure the temp file goes and ``path`` is untouched."""
    try:
        with os.fdopen(fd, "wb") as fh:
            _write_chunks(fh, data)
            fh.flush()
            if sync:
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_bytes(path: Path, data: bytes) -> Path:
    """Write an output file atomically, its bytes on the disk (``fsync``) before the rename."""
    path = Path(path)
    check_replaceable(path)
    if _holds(path, data):
        return path
    try:
        fd, tmp = _open_temp(path)
    except OSError as exc:
        raise DeckgenError(error("output", str(path), f"cannot write here: {exc.strerror}",
                                 hint="choose another folder with -o")) from None
    try:
        _fill_and_replace(fd, tmp, path, data, sync=True)
    except OSError as exc:
        raise DeckgenError(error("output", str(path), f"cannot write: {exc.strerror}")) from None
    return path


def write_unsynced(path: Path, data: bytes) -> Path:
    """Write a file atomically as :func:`write_bytes` does, without waiting for the disk: for the
    cache's entries, whose checksum (:mod:`deckgen.cache`) catches a file a crash left torn, so
    they need integrity, not durability. Errors are raised as ``OSError``."""
    path = Path(path)
    check_replaceable(path)
    fd, tmp = _open_temp(path)
    _fill_and_replace(fd, tmp, path, data, sync=False)
    return path


def write_text(path: Path, text: str) -> Path:
    return write_bytes(path, text.encode("utf-8"))


def copy_file(src: Path, dst: Path) -> Path:
    """Copy a file atomically (a cached face into an output folder, say)."""
    from deckgen import safefile

    try:
        data = safefile.read_bytes(src, safefile.MAX_FILE * 4)
    except OSError as exc:
        raise DeckgenError(error("output", str(src), f"cannot read: {exc.strerror}")) from None
    return write_bytes(dst, data)


@contextlib.contextmanager
def output_lock(folders: Iterable[Path]) -> Iterator[None]:
    """Hold an exclusive lock on each output folder while a build writes into it: a second build
    into the same folder stops at once with a clear message (two builds at once could mix their
    files). The lock is the OS's (``flock``), so it goes with the process however it ends."""
    try:
        import fcntl
    except ImportError:              # Windows: no lock (the writes stay atomic)
        yield
        return
    held: list[int] = []
    try:
        for folder in folders:
            folder = Path(folder)
            try:
                folder.mkdir(parents=True, exist_ok=True)
                check_replaceable(folder / LOCK_NAME)
                fd = os.open(folder / LOCK_NAME, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o666 & ~_UMASK)
            except OSError as exc:
                raise DeckgenError(error("output", str(folder), f"cannot write here: {exc.strerror}",
                                         hint="choose another folder with -o")) from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                raise DeckgenError(error("output", str(folder), "another deckgen build is writing into this folder",
                                         hint="wait for it to finish, or build into another folder with -o")) from None
            held.append(fd)
        yield
    finally:
        for fd in held:
            os.close(fd)
