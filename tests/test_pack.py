"""A deck as one file: deckgen pack, reading a .deck.zip in memory, and every hostile pack refused."""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import os
import stat
import zipfile
from pathlib import Path

import hostile
import pytest
from click.testing import CliRunner

from deckgen import deckfs, manifest, pack
from deckgen.atomic import ZIP_TIME
from deckgen.cli import main
from deckgen.errors import DeckgenError

BUILD = ["--dpi", "40", "--no-rulebook", "-j", "1"]


def packed(ref: str, tmp_path: Path) -> Path:
    path = Path(manifest.find_deck(ref))
    out = tmp_path / f"{ref}.deck.zip"
    out.write_bytes(pack.pack_bytes(manifest.load_deck(path), path))
    return out


@pytest.fixture(scope="module")
def woodland_zip(tmp_path_factory):
    return packed("woodland", tmp_path_factory.mktemp("pack"))


def test_a_pack_holds_the_manifest_the_files_it_uses_and_an_index(woodland_zip):
    with zipfile.ZipFile(woodland_zip) as zf:
        names = zf.namelist()
        index = json.loads(zf.read(pack.INDEX))
        infos = zf.infolist()
    assert names == sorted(names)
    assert {"woodland.toml", "cards.ods", "art/fox.svg", "icons/steal.svg", "fonts/fonts.toml",
            "fonts/DejaVuSerifCondensed.ttf", "fonts/DejaVu-LICENSE.txt", pack.INDEX} <= set(names)
    assert all(i.date_time == ZIP_TIME for i in infos)
    assert index["manifest"] == "woodland.toml" and set(index["files"]) == set(names) - {pack.INDEX}
    assert index["files"]["art/fox.svg"] == hashlib.sha256(
        (Path(manifest.find_deck("woodland")).parent / "art/fox.svg").read_bytes()).hexdigest()


def test_a_pack_is_byte_identical_for_the_same_folder(tmp_path, woodland_zip):
    again = packed("woodland", tmp_path)
    assert again.read_bytes() == woodland_zip.read_bytes()


@pytest.mark.parametrize("ref", ["classic", "no-mercy", "flex-spectrum", "woodland"])
def test_every_bundled_deck_reads_the_same_from_its_pack(tmp_path, ref):
    zipped = packed(ref, tmp_path)
    folder, inside = manifest.load_deck(ref), manifest.load_deck(zipped)
    assert inside.source == zipped.absolute() / Path(manifest.find_deck(ref)).name
    assert _placeless(inside) == _placeless(folder)


def _placeless(deck):
    """The deck without where its files lie (images and fonts compare by content already)."""
    return dataclasses.replace(deck, source=None, fonts=None, palette=dataclasses.replace(deck.palette, source=None))


def test_check_and_build_read_the_pack_without_unpacking_it(tmp_path, woodland_zip):
    runner = CliRunner()
    checked = runner.invoke(main, ["check", str(woodland_zip), "--no-sim"])
    assert checked.exit_code == 0, checked.output
    only = ["--only", "fox-7,owl-steal,night"]
    folder = runner.invoke(main, ["build", "woodland", "-o", str(tmp_path / "a"), *BUILD, *only])
    zipped = runner.invoke(main, ["build", str(woodland_zip), "-o", str(tmp_path / "b"), *BUILD, *only])
    assert folder.exit_code == 0 and zipped.exit_code == 0, zipped.output
    a, b = (tmp_path / d / "woodland" / "woodland-cards-only.pdf" for d in "ab")
    assert a.read_bytes() == b.read_bytes()
    assert sorted(p.name for p in woodland_zip.parent.iterdir()) == ["woodland.deck.zip"]


def test_unpack_writes_a_new_folder_that_builds_the_same_deck(tmp_path, woodland_zip):
    result = CliRunner().invoke(main, ["unpack", str(woodland_zip), str(tmp_path / "copy")])
    assert result.exit_code == 0, result.output
    assert _placeless(manifest.load_deck(tmp_path / "copy" / "woodland.toml")) == _placeless(manifest.load_deck("woodland"))
    again = CliRunner().invoke(main, ["unpack", str(woodland_zip), str(tmp_path / "copy")])
    assert again.exit_code == 2 and "already exists" in again.output


# ---------------------------------------------------------------- hostile packs


def _entry(name: str, data: bytes, mode: int = stat.S_IFREG | 0o644) -> tuple[zipfile.ZipInfo, bytes]:
    info = zipfile.ZipInfo(name, ZIP_TIME)
    info.external_attr = mode << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    return info, data


def _zip(entries: list[tuple[zipfile.ZipInfo, bytes]], index: dict | None = None) -> bytes:
    files = {i.filename: d for i, d in entries}
    if index is None:
        index = {"format": 1, "deck": "hostile", "manifest": "deck.toml",
                 "files": {n: hashlib.sha256(d).hexdigest() for n, d in files.items()}}
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for info, data in entries:
            zf.writestr(info, data)
        zf.writestr(_entry(pack.INDEX, b"")[0], json.dumps(index).encode())
    return out.getvalue()


MANIFEST = hostile.MINIMAL.encode()


def _bomb_entry(name: str, size: int) -> tuple[zipfile.ZipInfo, bytes]:
    return _entry(name, b"\0" * size)


HOSTILE = {
    "outside": ([_entry("deck.toml", MANIFEST), _entry("../secret.txt", b"x")], "outside the pack's root"),
    "absolute": ([_entry("deck.toml", MANIFEST), _entry("/etc/passwd", b"x")], "absolute name"),
    "drive": ([_entry("deck.toml", MANIFEST), _entry("C:/x.png", b"x")], "absolute name"),
    "backslash": ([_entry("deck.toml", MANIFEST), _entry("art\\..\\x.png", b"x")], "backslash"),
    "link": ([_entry("deck.toml", MANIFEST), _entry("art/x.svg", b"/etc/passwd", stat.S_IFLNK | 0o777)],
             "symbolic link"),
    "device": ([_entry("deck.toml", MANIFEST), _entry("art/x.svg", b"", stat.S_IFCHR | 0o644)], "a device"),
    "fifo": ([_entry("deck.toml", MANIFEST), _entry("art/x.svg", b"", stat.S_IFIFO | 0o644)], "FIFO"),
    "duplicate": ([_entry("deck.toml", MANIFEST), _entry("deck.toml", MANIFEST)], "twice"),
    "case": ([_entry("deck.toml", MANIFEST), _entry("art/Fox.svg", b"<svg/>"), _entry("art/fox.svg", b"<svg/>")],
             "differs only in case"),
    "ratio": ([_entry("deck.toml", MANIFEST), _bomb_entry("art/bomb.png", 30_000_000)], "zip bomb"),
    "entry-size": ([_entry("deck.toml", MANIFEST), _bomb_entry("art/huge.png", pack.MAX_ENTRY + 1)], "over the limit"),
    "unused": ([_entry("deck.toml", MANIFEST), _entry("notes.txt", b"hello")], "does not use this entry"),
}


@pytest.fixture(scope="module")
def hostile_home(tmp_path_factory):
    return hostile.make_deck(tmp_path_factory.mktemp("hostile"))


@pytest.mark.filterwarnings("ignore:Duplicate name:UserWarning")   # the duplicate-entry case writes one on purpose
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_pack_is_refused_with_memory_bounded(tmp_path, hostile_home, case):
    entries, words = HOSTILE[case]
    path = tmp_path / f"{case}.deck.zip"
    path.write_bytes(_zip(entries))
    result = hostile.run(hostile_home, "check", str(path), "--no-sim")
    hostile.assert_refused(result, words, codes=(2,))


def test_a_total_size_bomb_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(pack, "MAX_TOTAL", 20_000_000)
    entries = [_entry("deck.toml", MANIFEST)] + [_entry(f"art/{i}.png", os.urandom(9_000_000)) for i in range(3)]
    path = tmp_path / "total.deck.zip"
    path.write_bytes(_zip(entries))
    with pytest.raises(DeckgenError, match="unpacks to 27 MB"):
        pack.open_pack(path)


def test_a_hash_that_does_not_match_is_refused(tmp_path):
    entries = [_entry("deck.toml", MANIFEST)]
    index = {"format": 1, "deck": "x", "manifest": "deck.toml", "files": {"deck.toml": "0" * 64}}
    path = tmp_path / "hash.deck.zip"
    path.write_bytes(_zip(entries, index))
    result = CliRunner().invoke(main, ["check", str(path), "--no-sim"])
    assert result.exit_code == 2 and "does not match its hash" in result.output


def test_an_entry_missing_from_the_index_is_refused(tmp_path):
    entries = [_entry("deck.toml", MANIFEST), _entry("extra.png", b"x")]
    index = {"format": 1, "deck": "x", "manifest": "deck.toml",
             "files": {"deck.toml": hashlib.sha256(MANIFEST).hexdigest()}}
    path = tmp_path / "index.deck.zip"
    path.write_bytes(_zip(entries, index))
    with pytest.raises(DeckgenError, match="not in the pack's index"):
        pack.open_pack(path)


def test_not_a_zip_and_a_pack_without_index_are_refused(tmp_path):
    (tmp_path / "a.deck.zip").write_bytes(b"hello")
    with pytest.raises(DeckgenError, match="not a zip file"):
        pack.open_pack(tmp_path / "a.deck.zip")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        zf.writestr("deck.toml", MANIFEST)
    (tmp_path / "b.deck.zip").write_bytes(out.getvalue())
    with pytest.raises(DeckgenError, match="no index"):
        pack.open_pack(tmp_path / "b.deck.zip")


def test_a_path_inside_a_pack_cannot_leave_it(tmp_path):
    entries = [_entry("deck.toml", MANIFEST + b'\n[kinds.skip]\nicon = "../secret.svg"\n')]
    (tmp_path / "secret.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>')
    path = tmp_path / "leave.deck.zip"
    path.write_bytes(_zip(entries))
    result = manifest.load(path)
    assert any("outside the manifest's folder" in f.message for f in result.errors)
    assert deckfs.locate(path / "../secret.svg") is None
