"""Files, numbers and names from a stranger's deck: nothing hangs on a FIFO or a device, no
number feeds a loop unbounded, no name writes to the terminal, no output replaces a special file,
no traceback (docs/security.md)."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hostile import MINIMAL, assert_no_marker_in, assert_refused, make_deck, run

from deckgen import atomic, datafile
from deckgen.cli import main
from deckgen.errors import DeckgenError, error, printable

BUILD = ("--dpi", "30", "--no-rulebook", "--jobs", "1")


# ------------------------------------------------------------------ free text, FIFOs, devices

@pytest.mark.parametrize("text", ["/dev/zero", "/dev/urandom", "pipe", "."])
def test_a_text_naming_a_file_is_never_opened(tmp_path, text):
    deck = make_deck(tmp_path, f'back_text = "{text}"')
    os.mkfifo(deck.folder / "pipe")
    start = time.monotonic()
    result = run(deck, "check", str(deck.manifest), "--no-sim", seconds=60)
    assert result.code == 0 and "Traceback" not in result.text, result.text
    result = run(deck, "build", str(deck.manifest), "-o", str(deck.home / "out"), *BUILD, seconds=120)
    assert result.code == 0, result.text
    assert time.monotonic() - start < 120


def test_a_fifo_as_the_manifest_is_refused_at_once(tmp_path):
    deck = make_deck(tmp_path)
    deck.manifest.unlink()
    os.mkfifo(deck.manifest)
    assert_refused(run(deck, "check", str(deck.manifest), "--no-sim", seconds=60), "FIFO", codes=(2,))


def test_a_fifo_or_device_in_a_read_folder_blocks_nothing(tmp_path):
    deck = make_deck(tmp_path, 'fonts = "fonts"\ntemplates = "rules"')
    (deck.folder / "fonts").mkdir()
    os.mkfifo(deck.folder / "fonts" / "fonts.toml")
    (deck.folder / "rules" / "en").mkdir(parents=True)
    (deck.folder / "rules" / "en" / "rulebook.j2").write_text('{% extends "shared/rulebook.j2" %}\n', encoding="utf-8")
    os.mkfifo(deck.folder / "rules" / "en" / "notes.txt")
    os.symlink("/dev/zero", deck.folder / "rules" / "zero.j2")
    result = run(deck, "check", str(deck.manifest), "--no-sim", seconds=90)
    assert result.code in (0, 1, 2) and "Traceback" not in result.text


def test_datafile_reads_only_regular_files(tmp_path):
    os.mkfifo(tmp_path / "p.toml")
    for path, words in ((tmp_path / "p.toml", "FIFO"), (Path("/dev/zero"), "device"), (tmp_path, "folder")):
        with pytest.raises(DeckgenError) as info:
            datafile.read_toml(path)
        assert words in info.value.findings[0].message
    big = tmp_path / "big.toml"
    big.write_bytes(b"# " + b"x" * (9 * 1024 * 1024))
    with pytest.raises(DeckgenError) as info:
        datafile.read_toml(big)
    assert "over the limit" in info.value.findings[0].message


# ------------------------------------------------------------------ fonts: check opens them as build does

def _font_without_post(dest: Path) -> None:
    """Vera with its 'post' table renamed: FreeType draws it, ReportLab cannot read it."""
    import reportlab

    data = bytearray((Path(reportlab.__file__).parent / "fonts" / "Vera.ttf").read_bytes())
    n = struct.unpack(">H", data[4:6])[0]
    for i in range(n):
        at = 12 + 16 * i
        if data[at:at + 4] == b"post":
            data[at:at + 4] = b"xost"
    dest.write_bytes(bytes(data))


def _font_without_widths(dest: Path) -> None:
    """A TrueType font whose every advance width is zero: Pillow and ReportLab open it, and the
    rulebook's dot leaders (ReportLab's table of contents) divided by its zero width at build."""
    woodland = Path(__file__).parent.parent / "decks" / "examples" / "woodland"
    data = bytearray((woodland / "fonts" / "DejaVuSerifCondensed.ttf").read_bytes())
    tables = {}
    for i in range(struct.unpack(">H", data[4:6])[0]):
        at = 12 + 16 * i
        tables[bytes(data[at:at + 4])] = struct.unpack(">I", data[at + 8:at + 12])[0]
    metrics = struct.unpack(">H", data[tables[b"hhea"] + 34:tables[b"hhea"] + 36])[0]
    for i in range(metrics):
        data[tables[b"hmtx"] + 4 * i:tables[b"hmtx"] + 4 * i + 2] = b"\0\0"
    dest.write_bytes(bytes(data))


@pytest.mark.parametrize("make, words", [
    (_font_without_post, "cannot be opened: KeyError: 'post'"),
    (_font_without_widths, "gives no width to 'a', 'b'"),           # issue 38: a crash at build before
], ids=["reportlab-rejects", "no-widths"])
def test_a_font_the_build_would_fail_on_fails_at_check(tmp_path, make, words):
    deck = make_deck(tmp_path, 'fonts = "fonts"')
    (deck.folder / "fonts").mkdir()
    make(deck.folder / "fonts" / "Odd.ttf")
    (deck.folder / "fonts" / "fonts.toml").write_text('body = "Odd.ttf"\n', encoding="utf-8")
    result = run(deck, "check", str(deck.manifest), "--no-sim")
    assert_refused(result, "Odd.ttf", words)
    result = run(deck, "build", str(deck.manifest), "-o", str(deck.home / "out"), "--dpi", "30")
    assert_refused(result, words.split(":")[0])


def test_a_font_that_crashes_or_runs_away_is_a_finding(tmp_path, monkeypatch):
    import ctypes

    from deckgen import fonts

    folder = tmp_path / "f"
    folder.mkdir()
    shutil.copy(fonts.font_path("display"), folder / "A.ttf")
    (folder / "fonts.toml").write_text('display = "A.ttf"\n', encoding="utf-8")
    fonts.clear_caches()
    monkeypatch.setattr(fonts, "_opens", lambda path, pdf: ctypes.string_at(0))
    with pytest.raises(DeckgenError) as info:
        fonts.font_set(folder)
    assert "cannot be opened: crashed (SIGSEGV)" in info.value.findings[0].message
    fonts.clear_caches()
    monkeypatch.setattr(fonts, "_opens", lambda path, pdf: bytearray(8 * 1024 ** 3))
    with pytest.raises(DeckgenError) as info:
        fonts.font_set(folder)
    assert "MB of memory" in info.value.findings[0].message
    fonts.clear_caches()


def test_the_same_font_bytes_are_opened_in_a_child_once_per_process(tmp_path, monkeypatch):
    from deckgen import fonts, probe

    opened = []
    monkeypatch.setattr(probe, "run", lambda fn, path, pdf, **kw: opened.append((Path(path).parent.name, pdf)) or b"[]")
    fonts.clear_caches()
    for name in ("one", "two", "three"):      # the same font copied into deck folders; the third's differs
        folder = tmp_path / name
        folder.mkdir()
        shutil.copy(fonts.font_path("display"), folder / "A.ttf")
        if name == "three":
            with open(folder / "A.ttf", "ab") as f:
                f.write(b"\0")
        (folder / "fonts.toml").write_text('display = "A.ttf"\n', encoding="utf-8")
        assert fonts.font_set(folder).path("display") == folder / "A.ttf"
    assert opened == [("one", False), ("three", False)]
    fonts.clear_caches()


# ------------------------------------------------------------------ -o never replaces a special file

@pytest.mark.parametrize("kind", ["fifo", "symlink", "device", "folder"])
def test_o_refuses_to_replace_anything_but_a_regular_file(tmp_path, kind):
    deck = make_deck(tmp_path)
    target = deck.home / "target.pdf"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "symlink":
        os.symlink(deck.secret, target)
    elif kind == "device":
        os.symlink("/dev/null", deck.home / "null-link")
        target = Path("/dev/null")
    else:
        target.mkdir()
    args = ["rulebook", str(deck.manifest), "--lang", "en", "-o", str(target)]
    if kind == "device":
        with pytest.raises(DeckgenError) as info:
            atomic.write_bytes(target, b"x")
        assert "is a device" in info.value.findings[0].message
        return
    result = run(deck, *args)
    assert_refused(result, codes=(2,))
    assert "deckgen replaces only regular files" in result.text or "is a directory" in result.text
    if kind == "fifo":
        assert target.is_fifo()
    if kind == "symlink":
        assert target.is_symlink() and deck.secret.read_text().startswith("MARKER")


def test_a_regular_file_is_replaced_as_before(tmp_path):
    target = tmp_path / "x.pdf"
    target.write_bytes(b"old")
    atomic.write_bytes(target, b"new")
    assert target.read_bytes() == b"new"


def test_a_file_that_holds_the_bytes_already_is_left_as_it_is(tmp_path):
    target = tmp_path / "x.pdf"
    atomic.write_bytes(target, b"same bytes")
    before = target.stat()
    atomic.write_bytes(target, b"same bytes")            # a warm build: not written (nor synced) again
    assert (target.stat().st_ino, target.stat().st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    atomic.write_bytes(target, b"same bytez")            # other bytes of the same length: replaced
    assert target.read_bytes() == b"same bytez" and target.stat().st_ino != before.st_ino
    os.chmod(target, 0o600)                              # the right bytes, another mode: written as always
    atomic.write_bytes(target, b"same bytez")
    assert target.stat().st_mode & 0o777 == 0o666 & ~atomic._UMASK
    link = tmp_path / "link.pdf"                         # a symlink to the very bytes is still refused
    os.symlink(target, link)
    with pytest.raises(DeckgenError):
        atomic.write_bytes(link, b"same bytez")


# ------------------------------------------------------------------ -o writes only into deckgen's own folders

def test_a_folder_is_claimed_only_when_new_empty_or_deckgen_s(tmp_path):
    new = atomic.claim_output(tmp_path / "new" / "deeper", folder=True)
    assert (new / atomic.MARKER).is_file()
    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / ".gitkeep").touch()                              # dotfiles only: as good as empty
    atomic.claim_output(kept, folder=True)
    (kept / "classic").mkdir()
    atomic.claim_output(kept, folder=True)                   # a second run: the marker is there
    built = tmp_path / "built"
    built.mkdir()
    (built / atomic.LOCK_NAME).touch()
    (built / "cards.pdf").write_bytes(b"%PDF")               # an earlier build's folder (its lock file)
    atomic.claim_output(built, folder=True)
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.odt").write_bytes(b"mine")
    with pytest.raises(DeckgenError) as info:
        atomic.claim_output(mine, folder=True)
    (found,) = info.value.findings
    assert "deckgen did not make" in found.message and atomic.MARKER in found.hint
    assert sorted(p.name for p in mine.iterdir()) == ["thesis.odt"]     # nothing written into it
    with pytest.raises(DeckgenError, match="not a folder"):
        atomic.claim_output(mine / "thesis.odt", folder=True)
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(DeckgenError, match="FIFO"):
        atomic.claim_output(tmp_path / "pipe", folder=False)
    assert atomic.claim_output(mine / "thesis.odt", folder=False) == mine / "thesis.odt"


def test_an_output_below_a_file_or_a_device_names_the_one_that_is_no_folder(tmp_path):
    """A target whose folder, or a folder above it, is a file or a device: the message names
    that one ("is a file, not a folder"), for a folder target, a file target and a file the
    user named (export sheet -o), never an errno's words such as "File exists"; nothing is
    written."""
    afile = tmp_path / "notes.txt"
    afile.write_bytes(b"mine")
    for claim in (lambda: atomic.claim_output(afile / "out" / "deeper", folder=True),
                  lambda: atomic.claim_output(afile / "out" / "cards.pdf", folder=False),
                  lambda: atomic.make_folder(afile / "sub")):
        with pytest.raises(DeckgenError) as info:
            claim()
        (found,) = info.value.findings
        assert found.where == str(afile) and found.message.startswith("is a file, not a folder"), found
    with pytest.raises(DeckgenError) as info:
        atomic.make_folder(Path(os.devnull))
    assert "is a device, not a folder" in info.value.findings[0].message
    result = CliRunner().invoke(main, ["export", "sheet", "classic", "-o", str(afile / "cards.csv")])
    assert result.exit_code == 2 and f"{afile}: is a file, not a folder" in result.output, result.output
    assert "File exists" not in result.output and afile.read_bytes() == b"mine"


def test_the_folders_a_target_needs_are_made_marked_so_any_command_may_come_next(tmp_path):
    """A file or folder target in folders that do not exist yet: each folder made is marked as
    deckgen's; a folder holding only dotfiles and deckgen's own folders may be claimed; one with
    any other entry may not."""
    report = atomic.claim_output(tmp_path / "output" / "classic" / "classic-report.pdf", folder=False)
    assert (tmp_path / "output" / atomic.MARKER).is_file() and (report.parent / atomic.MARKER).is_file()
    atomic.claim_output(tmp_path / "output" / "no-mercy" / "tts", folder=True)
    assert (tmp_path / "output" / "no-mercy" / atomic.MARKER).is_file()
    assert not (tmp_path / atomic.MARKER).exists()                  # a folder that was there is left alone
    repo = tmp_path / "repo" / "output"
    repo.mkdir(parents=True)
    (repo / ".gitkeep").touch()
    atomic.claim_output(repo / "classic" / "classic-rulebook-en.pdf", folder=False)
    assert not (repo / atomic.MARKER).exists()                      # existing: not taken by a file's claim
    atomic.claim_output(repo, folder=True)                          # ... but its entries are all deckgen's
    assert (repo / atomic.MARKER).is_file()
    (repo / "no-mercy").mkdir()                                     # a build's deck folder (unmarked) ...
    (repo / "no-mercy" / "no-mercy-cards.pdf").write_bytes(b"%PDF")
    atomic.claim_output(repo / "no-mercy", folder=True)             # ... in deckgen's folder: deckgen's
    mixed = tmp_path / "mixed"
    (mixed / "ours").mkdir(parents=True)
    (mixed / "ours" / atomic.MARKER).touch()
    (mixed / "theirs").mkdir()                                      # a folder deckgen did not make
    with pytest.raises(DeckgenError, match="did not make"):
        atomic.claim_output(mixed, folder=True)


def test_a_rulebook_then_a_build_into_the_default_output_folder(tmp_path, monkeypatch):
    """The README's commands in any order: a rulebook, a report or an export written first into
    the default output/ (a clone's holds only .gitkeep) leaves it one a build may write into."""
    from click.testing import CliRunner

    from deckgen.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "output").mkdir()
    (tmp_path / "output" / ".gitkeep").touch()
    runner = CliRunner()
    assert runner.invoke(main, ["rulebook", "classic", "--lang", "en"]).exit_code == 0
    assert runner.invoke(main, ["export", "sheet", "classic"]).exit_code == 0
    result = runner.invoke(main, ["build", "classic"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "output" / "classic" / "classic-cards.pdf").is_file()
    result = runner.invoke(main, ["export", "sheet", "classic", "--format", "xlsx"])      # after the build
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("command", [("build",), ("render",), ("export", "tts"),
                                     ("export", "cards", "--service", "tgc-poker")])
def test_every_folder_command_refuses_a_foreign_folder(tmp_path, command):
    deck = make_deck(tmp_path)
    mine = deck.home / "documents"
    mine.mkdir()
    (mine / "letter.txt").write_text("mine", encoding="utf-8")
    args = [*command[:2], str(deck.manifest), *command[2:]] if command[0] == "export" else [command[0], str(deck.manifest)]
    result = run(deck, *args, "-o", str(mine), seconds=60)
    assert_refused(result, "deckgen did not make", codes=(2,))
    assert sorted(p.name for p in mine.iterdir()) == ["letter.txt"]


@pytest.mark.parametrize("command", [("preview",), ("rulebook", "--lang", "en"), ("report", "--games", "10"),
                                     ("calibrate",)])
def test_every_file_command_refuses_a_special_file_before_any_work(tmp_path, command):
    deck = make_deck(tmp_path)
    target = deck.home / "out.file"
    os.mkfifo(target)
    deck_arg = [] if command[0] == "calibrate" else [str(deck.manifest)]
    result = run(deck, command[0], *deck_arg, *command[1:], "-o", str(target), seconds=60)
    assert_refused(result, "FIFO", codes=(2,))
    assert target.is_fifo()


def test_the_default_output_folder_with_its_gitkeep_builds_twice(tmp_path):
    deck = make_deck(tmp_path)
    (deck.home / "output").mkdir()
    (deck.home / "output" / ".gitkeep").touch()
    for _ in range(2):
        result = run(deck, "build", str(deck.manifest), *BUILD, cwd=deck.home, seconds=120)
        assert result.code == 0, result.text
    assert (deck.home / "output" / atomic.MARKER).is_file()
    assert list((deck.home / "output").glob("*/*-cards.pdf"))


# ------------------------------------------------------------------ two builds into one folder

def test_a_second_build_into_a_locked_folder_stops_with_a_clear_message(tmp_path):
    deck = make_deck(tmp_path)
    out = deck.home / "out"
    with atomic.output_lock([out]):
        result = run(deck, "build", str(deck.manifest), "-o", str(out), *BUILD)
    assert_refused(result, "another deckgen build is writing into this folder", codes=(2,))
    assert run(deck, "build", str(deck.manifest), "-o", str(out), *BUILD).code == 0


def test_two_builds_at_once_give_the_bytes_of_one(tmp_path):
    deck = make_deck(tmp_path)
    alone = deck.home / "alone"
    assert run(deck, "build", str(deck.manifest), "-o", str(alone), *BUILD).code == 0
    expected = (alone / "hostile" / "hostile-cards.pdf").read_bytes()
    shutil.rmtree(deck.home / "cache")
    out = deck.home / "both"
    results = []
    threads = [threading.Thread(target=lambda: results.append(run(deck, "build", str(deck.manifest), "-o", str(out),
                                                                      *BUILD))) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r.code == 0 or "another deckgen build" in r.text for r in results), [r.text for r in results]
    assert any(r.code == 0 for r in results)
    assert (out / "hostile" / "hostile-cards.pdf").read_bytes() == expected


# ------------------------------------------------------------------ numbers that feed loops

def test_toml_nested_too_deep_is_a_message(tmp_path):
    deck = make_deck(tmp_path, extra="\n[x]\ny = " + "[" * 5000 + "]" * 5000 + "\n")
    assert_refused(run(deck, "check", str(deck.manifest), "--no-sim"), "nested more than 32 deep", codes=(2,))
    (deck.folder / "papers.toml").write_text("[a4]\nsize = " + "[" * 3000 + "]" * 3000 + "\n", encoding="utf-8")
    deck.manifest.write_text(MINIMAL, encoding="utf-8")
    result = run(deck, "build", str(deck.manifest), "-o", str(deck.home / "out"), *BUILD)
    assert_refused(result, "papers.toml", "nested more than 32 deep", codes=(2,))


def test_a_header_with_twenty_thousand_dotted_parts_is_quick(tmp_path):
    text = MINIMAL + "\n[" + ".".join(["a"] * 20000) + "]\nz = 1\n"
    start = time.monotonic()
    index = datafile.LineIndex(text)
    assert time.monotonic() - start < 5
    assert index.line("a.a.a") == text.count("\n", 0, text.index("[a.a")) + 1
    deck = make_deck(tmp_path, extra="\n[" + ".".join(["a"] * 20000) + "]\n")
    assert_refused(run(deck, "check", str(deck.manifest), "--no-sim", seconds=60), "nested more than", codes=(2,))


@pytest.mark.parametrize("option", ["--mark-offset", "--gap", "--margin", "--mark-length", "--bleed"])
def test_huge_lengths_on_the_command_line_are_refused(tmp_path, option):
    deck = make_deck(tmp_path)
    result = run(deck, "build", str(deck.manifest), "-o", str(deck.home / "out"), *BUILD, option, "1e308")
    assert_refused(result, option, codes=(2,))


def test_a_deck_paper_or_card_of_a_billion_millimetres_is_refused(tmp_path):
    deck = make_deck(tmp_path)
    (deck.folder / "papers.toml").write_text('[a4]\nname = "A4"\nsize = "1000000000mm x 1000000000mm"\n', encoding="utf-8")
    result = run(deck, "build", str(deck.manifest), "-o", str(deck.home / "out"), *BUILD, seconds=60)
    assert_refused(result, "papers.toml", "too long (at most 10 m)", codes=(2,))
    deck2 = make_deck(tmp_path / "two", 'card_size = "1000000000x1000000000mm"')
    assert_refused(run(deck2, "check", str(deck2.manifest), "--no-sim"), "deck.card_size", codes=(1, 2))


def test_a_palette_that_names_itself_or_loops_is_an_error(tmp_path):
    deck = make_deck(tmp_path)
    deck.manifest.write_text(MINIMAL.replace('palette = "classic"', 'palette = "deck.toml"'), encoding="utf-8")
    assert_refused(run(deck, "check", str(deck.manifest), "--no-sim"), "names itself as its palette", codes=(1,))
    (deck.folder / "b.toml").write_text(MINIMAL.replace('palette = "classic"', 'palette = "c.toml"'), encoding="utf-8")
    (deck.folder / "c.toml").write_text(MINIMAL.replace('palette = "classic"', 'palette = "b.toml"'), encoding="utf-8")
    assert_refused(run(deck, "check", str(deck.folder / "b.toml"), "--no-sim"), "in a loop", codes=(1,))
    assert_refused(run(deck, "palette", "check", str(deck.folder / "b.toml")), "in a loop")


def test_a_palette_file_outside_the_deck_is_not_read(tmp_path):
    deck = make_deck(tmp_path)
    deck.secret.with_suffix(".toml").write_text(f'[palette]\nid = "x"\nname = "{MARKERNAME}"\n', encoding="utf-8")
    deck.manifest.write_text(MINIMAL.replace('palette = "classic"', 'palette = "../secret.toml"'), encoding="utf-8")
    result = run(deck, "check", str(deck.manifest), "--no-sim")
    assert_refused(result, "outside the manifest's folder")
    assert MARKERNAME not in result.text


MARKERNAME = "Marker-Palette-Name"


@pytest.mark.parametrize("key", ["logo", "fonts", "templates", "back_image"])
def test_a_nul_byte_in_a_path_key_is_a_message(tmp_path, key):
    deck = make_deck(tmp_path, f'{key} = "a\\u0000b"')
    assert_refused(run(deck, "check", str(deck.manifest), "--no-sim"), f"deck.{key}")


def test_a_deck_folder_whose_name_is_not_utf8(tmp_path):
    folder = os.fsencode(tmp_path) + b"/deck-\xff\xfe"
    os.mkdir(folder)
    with open(folder + b"/deck.toml", "w", encoding="utf-8") as fh:
        fh.write(MINIMAL)
    env = {**os.environ, "DECKGEN_CACHE": str(tmp_path / "cache")}
    for args in (["check", "--no-sim"], ["build", "-o", str(tmp_path / "out"), *BUILD]):
        proc = subprocess.run([sys.executable, "-m", "deckgen", args[0], folder + b"/deck.toml", *args[1:]],
                              capture_output=True, env=env, timeout=120)
        assert proc.returncode == 0 and b"Traceback" not in proc.stderr, proc.stderr[-2000:]


# ------------------------------------------------------------------ the terminal

OSC52 = "\x1b]52;c;aGVsbG8=\x07"


def test_a_deck_name_with_a_terminal_escape_never_reaches_the_terminal(tmp_path):
    deck = make_deck(tmp_path)
    deck.manifest.write_text(MINIMAL.replace('name = "Hostile"', 'name = "Evil\\u001b]52;c;aGVsbG8=\\u0007"'),
                             encoding="utf-8")
    for args in (["check", str(deck.manifest), "--no-sim"], ["build", str(deck.manifest), "-o", str(deck.home / "o"),
                                                              *BUILD], ["list"]):
        result = run(deck, *args, cwd=deck.folder)
        assert "\x1b" not in result.text and "\x07" not in result.text
    result = run(deck, "check", str(deck.manifest), "--no-sim")
    assert_refused(result, "deck.name", "control character U+001B", codes=(1,))


def test_every_message_escapes_control_characters():
    for bad in (OSC52, "\x1b[2J", "a\rb", "\x9b31m", "\u202e", "\x00"):
        text = error("unknown-key", f"cards[0].{bad}", f"unknown key '{bad}'", file=f"/x/{bad}.toml",
                     hint=bad).format()
        assert not any(ch in text for ch in bad if ch not in "abm[]=;2J31ch5Gb8VsG"), repr(text)
    assert printable("line one\nline two\ttab") == "line one\nline two\ttab"
    assert printable(OSC52) == "\\x1b]52;c;aGVsbG8=\\x07"


def test_a_folder_name_with_an_escape_is_shown_escaped(tmp_path):
    deck = make_deck(tmp_path, name="deck\x1b]0;pwned\x07")
    deck.manifest.write_text(MINIMAL.replace("hand_size = 5", "hand_size = 500"), encoding="utf-8")
    result = run(deck, "check", str(deck.manifest), "--no-sim")
    assert result.code == 1 and "\x1b" not in result.text and "\\x1b]0;pwned" in result.text
    assert_no_marker_in(deck.home)


def test_a_template_folder_outside_the_deck_is_never_hashed(tmp_path):
    from deckgen import inputs, manifest

    deck_dir = make_deck(tmp_path, 'templates = "../elsewhere"')
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "secret.j2").write_text("x", encoding="utf-8")
    deck = manifest.load_deck(deck_dir.manifest)
    assert all(tmp_path / "elsewhere" not in [p, *p.parents] for p in inputs.deck_files(deck))
    for i, value in enumerate(("/etc", "/")):
        other = make_deck(tmp_path / f"t{i}", f'templates = "{value}"')
        loaded = manifest.load_deck(other.manifest)
        assert inputs.deck_files(loaded) == [other.manifest.resolve(), Path(loaded.palette.source).resolve()]
