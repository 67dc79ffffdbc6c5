"""A deck as one file: ``deckgen pack`` writes ``<id>.deck.zip``; ``check``, ``build`` and the other
commands read one directly, in memory (:mod:`deckgen.deckfs`), and ``deckgen unpack`` extracts a
checked one into a new folder.

A pack holds the manifest, the files it uses (art, icons, the fonts with their licence files,
its own layouts, kinds, palettes and presets, rulebook templates, sheets) and
:data:`INDEX`, a small JSON file naming the manifest and every file's SHA-256. The same folder
always gives the same bytes: entries sorted by name, fixed times and permissions.

A pack from a stranger is untrusted input (``docs/security.md``). Before anything in it is used,
:func:`open_pack` refuses, each with a message naming the entry: a name outside the root
(``..``), an absolute name or one with a drive or backslash, a link, a device or any entry that
is not a plain file, a name given twice or twice up to case, an encrypted entry, a zip bomb (an
entry or the whole unpacking past :data:`MAX_ENTRY` / :data:`MAX_TOTAL` bytes, or compressed
more than :data:`MAX_RATIO` times), a file the index does not list or whose hash does not
match; and once the manifest is read, a file the manifest does not use.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import stat
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deckgen import deckfs, safefile
from deckgen.atomic import write_bytes, zip_entry
from deckgen.errors import DeckgenError, Finding, error

SUFFIX = ".deck.zip"
INDEX = "deckgen-pack.json"
FORMAT = 1
MAX_PACK = 256 * 1024 * 1024         # bytes of a pack file
MAX_ENTRY = safefile.MAX_FILE        # bytes one entry may unpack to
MAX_TOTAL = 512 * 1024 * 1024        # bytes every entry together may unpack to
MAX_RATIO = 100                      # unpacked / packed size of one entry (text compresses ~10x, fonts ~2x)
MAX_ENTRIES = 2000
MAX_INDEX = 1024 * 1024
LICENCE = re.compile(r"(licen[cs]e|copying|ofl|notice|readme|authors)", re.IGNORECASE)
PRESET_FILES = ("kinds.toml", "card-sizes.toml", "papers.toml", "services.toml")


def is_pack(ref: str | os.PathLike[str]) -> bool:
    return str(ref).lower().endswith(SUFFIX)


# ---------------------------------------------------------------- what a deck uses


def used_files(deck: Any, manifest: Path) -> tuple[Path, list[str]]:
    """The deck's folder and the files in it the (loaded) deck uses, as sorted names relative to it."""
    manifest = Path(os.path.abspath(manifest))
    root = _resolved(manifest.parent)
    found: set[str] = {manifest.name}
    for path in _named_paths(deck, manifest):
        name = _inside(path, root)
        if name is not None and deckfs.is_file(root / name):
            found.add(name)
    return root, sorted(found)


def _resolved(path: Path) -> Path:
    return Path(os.path.abspath(path)) if deckfs.is_virtual(path) else path.resolve()


def _named_paths(deck: Any, manifest: Path) -> list[Path]:
    from deckgen.datafile import read_toml
    from deckgen.inputs import _image_refs

    root = _resolved(manifest.parent)
    paths: list[Path] = [Path(ref.path) for ref in _image_refs(deck)]
    if deck.palette.source:
        paths.append(Path(deck.palette.source))
    if deck.fonts:
        folder = Path(deck.fonts)
        paths += [folder / n for n in deckfs.listdir(folder) if deckfs.is_file(folder / n)
                  and (n == "fonts.toml" or LICENCE.search(n) or _named_font(folder, n))]
    if deck.template_dir:
        paths += _walk(root / deck.template_dir)
    paths += [root / n for n in PRESET_FILES]
    paths += _layout_files(deck, root)
    paths += [root / name for name in sheet_names(read_toml(manifest))]
    return paths


def _named_font(folder: Path, name: str) -> bool:
    from deckgen.datafile import read_toml

    conf = folder / "fonts.toml"
    return deckfs.is_file(conf) and name in {v for v in read_toml(conf).values() if isinstance(v, str)}


def _walk(folder: Path) -> list[Path]:
    out: list[Path] = []
    for name in deckfs.listdir(folder):
        path = folder / name
        if deckfs.is_dir(path):
            out += _walk(path)
        elif deckfs.is_file(path):
            out.append(path)
    return out


def _layout_files(deck: Any, root: Path) -> list[Path]:
    """The deck folder's own layout files that the deck's faces or back use."""
    from deckgen.render.layout import LAYOUTS

    wanted = {deck.layout, deck.back_layout} | {k.layout for k in deck.kinds.values()} | {c.layout for c in deck.cards}
    return [p for p in LAYOUTS.files(root) if p.stem in wanted]


def sheet_names(data: dict[str, Any]) -> list[str]:
    """The sheet files a manifest's ``cards``, ``kinds`` and ``components`` name."""
    names = []
    for key in ("cards", "kinds", "components"):
        value = data.get(key)
        items = value if isinstance(value, list) else [value]
        for item in items:
            if isinstance(item, str):
                names.append(item)
            elif isinstance(item, dict) and isinstance(item.get("file"), str):
                names.append(item["file"])
    return names


def _inside(path: Path, root: Path) -> str | None:
    try:
        resolved = _resolved(path)
    except (OSError, RuntimeError):
        return None
    if root not in resolved.parents:
        return None
    return resolved.relative_to(root).as_posix()


# ---------------------------------------------------------------- writing


def pack_bytes(deck: Any, manifest: Path) -> bytes:
    """The bytes of the pack of a loaded deck and its manifest."""
    root, names = used_files(deck, manifest)
    files = {name: safefile.read_bytes(root / name) for name in names}
    index = {"format": FORMAT, "deck": deck.id, "manifest": manifest.name,
             "files": {name: hashlib.sha256(data).hexdigest() for name, data in sorted(files.items())}}
    files[INDEX] = (json.dumps(index, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for name in sorted(files):
            zf.writestr(zip_entry(name, zipfile.ZIP_DEFLATED), files[name], compresslevel=9)
    return out.getvalue()


# ---------------------------------------------------------------- reading


@dataclass(frozen=True)
class Pack:
    """A checked pack: where it is, its manifest's name, and its entries."""

    path: Path
    manifest: str
    files: dict[str, bytes]

    @property
    def manifest_path(self) -> Path:
        return self.path / self.manifest


def _refuse(path: Path, where: str, message: str, hint: str | None = None) -> DeckgenError:
    return DeckgenError(error("file", where, message, file=str(path), hint=hint or
                              "a pack is what deckgen pack writes; ask its author for a new one"))


_opened: dict[str, tuple[tuple[int, int, int], Pack]] = {}


def open_pack(ref: str | os.PathLike[str]) -> Pack:
    """Check a pack file and mount it (:mod:`deckgen.deckfs`); DeckgenError naming what is wrong."""
    path = Path(os.path.abspath(ref))
    try:
        st = os.stat(path)
        key = (st.st_ino, st.st_size, st.st_mtime_ns)
        cached = _opened.get(str(path))
        if cached is not None and cached[0] == key and deckfs.mounted(path) is not None:
            return cached[1]
        data = safefile.read_disk(path, MAX_PACK)        # a regular file (no FIFO, no device), capped
    except FileNotFoundError:
        raise _refuse(path, "", "no such file", hint="give the path of a .deck.zip") from None
    except OSError as exc:
        raise _refuse(path, "", f"cannot be read: it {exc.strerror}") from None
    pack = _check(path, data)
    deckfs.mount(path, pack.files)
    _opened[str(path)] = (key, pack)
    return pack


def _check(path: Path, data: bytes) -> Pack:
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError):
        raise _refuse(path, "", "is not a zip file") from None
    with zf:
        infos = zf.infolist()
        if len(infos) > MAX_ENTRIES:
            raise _refuse(path, "", f"has {len(infos)} entries, over the limit of {MAX_ENTRIES}")
        problems = _entry_problems(path, infos)
        if problems:
            raise DeckgenError(problems)
        files = {info.filename: _read_entry(path, zf, info) for info in infos}
    return _check_index(path, files)


def _entry_problems(path: Path, infos: list[zipfile.ZipInfo]) -> list[Finding]:
    problems: list[Finding] = []
    seen: dict[str, str] = {}
    total = 0
    for info in infos:
        name = info.filename
        why = _name_problem(name) or _kind_problem(info) or _size_problem(info)
        if why is None and name in seen.values():
            why = "is in the pack twice"
        if why is None and name.casefold() in seen:
            why = f"differs only in case from '{seen[name.casefold()]}' (the same file on Windows and macOS)"
        if why is not None:
            problems.append(_refuse(path, _shown(name), f"the entry {why}").findings[0])
            continue
        seen[name.casefold()] = name
        total += info.file_size
    if total > MAX_TOTAL:
        problems.append(_refuse(path, "", f"unpacks to {total / 1e6:.0f} MB, over the limit of "
                                f"{MAX_TOTAL // 1_000_000} MB").findings[0])
    return problems


def _shown(name: str) -> str:
    return name.encode("unicode_escape").decode("ascii")[:200]


def _name_problem(name: str) -> str | None:
    if not name or "\x00" in name or len(name) > 255:
        return "has no usable name"
    if name.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", name):
        return "has an absolute name"
    if "\\" in name:
        return "has a backslash in its name"
    parts = name.split("/")
    if ".." in parts:
        return "lies outside the pack's root ('..' in its name)"
    if name.endswith("/"):
        return "is a folder entry (a pack holds files only)"
    if any(p in ("", ".") for p in parts):
        return "has an empty part or '.' in its name"
    return None


def _kind_problem(info: zipfile.ZipInfo) -> str | None:
    mode = info.external_attr >> 16
    if info.flag_bits & 0x1:
        return "is encrypted"
    kind = stat.S_IFMT(mode)           # 0: no file type recorded (a zip made on Windows)
    if kind == stat.S_IFLNK:
        return "is a symbolic link"
    if kind and kind != stat.S_IFREG:
        return f"is {safefile.describe_mode(mode)}, not a plain file"
    if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        return "uses a compression deckgen does not read (only stored and deflated)"
    return None


def _size_problem(info: zipfile.ZipInfo) -> str | None:
    if info.file_size > MAX_ENTRY:
        return f"unpacks to {info.file_size / 1e6:.0f} MB, over the limit of {MAX_ENTRY // 1_000_000} MB"
    if info.file_size > 1_000_000 and info.file_size > MAX_RATIO * max(info.compress_size, 1):
        return (f"unpacks {info.file_size // max(info.compress_size, 1)} times larger than it is stored, "
                f"over the limit of {MAX_RATIO} (a zip bomb?)")
    return None


def _read_entry(path: Path, zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    """An entry's bytes, never more than it declares (zipfile stops there and checks the CRC)."""
    try:
        with zf.open(info) as fh:
            data = fh.read(info.file_size + 1)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError) as exc:
        raise _refuse(path, _shown(info.filename), f"the entry is damaged ({exc})") from None
    if len(data) != info.file_size:
        raise _refuse(path, _shown(info.filename), "the entry is not the size it declares")
    return data


def _check_index(path: Path, files: dict[str, bytes]) -> Pack:
    raw = files.pop(INDEX, None)
    if raw is None:
        raise _refuse(path, INDEX, "the pack has no index of its files")
    try:
        if len(raw) > MAX_INDEX:
            raise ValueError("too large")
        index = json.loads(raw.decode("utf-8"))
        listed = index["files"]
        manifest = index["manifest"]
        if not isinstance(listed, dict) or not isinstance(manifest, str) or index.get("format") != FORMAT:
            raise ValueError("wrong shape")
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        raise _refuse(path, INDEX, "the index cannot be read") from None
    problems = []
    for name, data in sorted(files.items()):
        digest = listed.get(name)
        if digest is None:
            problems.append(_refuse(path, _shown(name), "the entry is not in the pack's index").findings[0])
        elif hashlib.sha256(data).hexdigest() != digest:
            problems.append(_refuse(path, _shown(name), "the entry's content does not match its hash in the index "
                                    "(changed after packing?)").findings[0])
    for name in sorted(set(listed) - set(files)):
        problems.append(_refuse(path, _shown(str(name)), "the index lists a file the pack does not hold").findings[0])
    if manifest not in files or not manifest.endswith(".toml") or "/" in manifest:
        problems.append(_refuse(path, INDEX, f"the index names the manifest '{_shown(manifest)}', which the pack "
                                "does not hold at its root").findings[0])
    if problems:
        raise DeckgenError(problems)
    return Pack(path, manifest, files)


def unused_entries(pack: Pack, deck: Any) -> list[Finding]:
    """An entry the manifest (once read into ``deck``) does not use: refused."""
    _, names = used_files(deck, pack.manifest_path)
    return [_refuse(pack.path, _shown(name), "the manifest does not use this entry",
                    hint="a pack holds the manifest and the files it uses, nothing else").findings[0]
            for name in sorted(set(pack.files) - set(names))]


def unpack(pack: Pack, dest: Path) -> list[Path]:
    """Extract a checked pack (whose deck was read, so its entries are all used) into the new
    folder ``dest``; the files written."""
    dest = Path(dest)
    if dest.exists():
        raise DeckgenError(error("file", "", "already exists: unpack writes a new folder", file=str(dest),
                                 hint="name a folder that does not exist yet"))
    written = []
    for name in sorted(pack.files):
        target = dest.joinpath(*name.split("/"))
        target.parent.mkdir(parents=True, exist_ok=True)
        written.append(write_bytes(target, pack.files[name]))
    return written
