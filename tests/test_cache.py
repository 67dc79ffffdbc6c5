"""The cache folder: where it is, its automatic cap (least recently used first), ``deckgen cache``,
``--no-cache`` with a cache folder that cannot be written, and cached documents that are the same
bytes as fresh ones and are made again when any input changes."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from deckgen import cache, manifest
from deckgen.build import BuildOptions, build_deck
from deckgen.cli import main
from deckgen.errors import DeckgenError
from deckgen.render import RenderSettings, render_deck

LOW = RenderSettings(dpi=30)


@pytest.fixture
def classic():
    return manifest.load_deck("classic")


# ------------------------------------------------------------------ sizes and location

@given(st.integers(0, 10**6), st.sampled_from([("B", 1), ("kB", 1000), ("MB", 10**6), ("GB", 10**9), ("KiB", 1024),
                                               ("MiB", 1024**2), ("", 10**6), ("mb", 10**6)]), st.booleans())
def test_parse_size(n, unit, space):
    text, factor = unit
    assert cache.parse_size(f"{n}{' ' if space and text else ''}{text}") == n * factor


@pytest.mark.parametrize("bad", ["", "MB", "ten MB", "5 XB", "-5MB", "1e3"])
def test_parse_size_rejects_what_is_not_a_size(bad):
    with pytest.raises(DeckgenError) as exc:
        cache.parse_size(bad)
    assert exc.value.findings[0].where == "--max-size" and "500MB" in exc.value.findings[0].hint


def test_the_cache_is_in_the_user_cache_folder_unless_deckgen_cache_says(tmp_path, monkeypatch):
    monkeypatch.setenv("DECKGEN_CACHE", str(tmp_path / "mine"))
    assert cache.cache_root() == tmp_path / "mine"
    monkeypatch.delenv("DECKGEN_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    import platformdirs

    assert cache.cache_root() == Path(platformdirs.user_cache_dir("deckgen", appauthor=False))
    if sys.platform.startswith("linux"):
        assert cache.cache_root() == tmp_path / "xdg" / "deckgen"


# ------------------------------------------------------------------ pruning

def _entry(root: Path, section: str, name: str, size: int, age: float) -> Path:
    path = cache.entry_path(root, section, name * 8, "png")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"x" * size)
    when = time.time() - age
    os.utime(path, (when, when))
    return path


def test_prune_removes_the_least_recently_used_first(tmp_path):
    old = _entry(tmp_path, "faces", "aa", 1000, 3000)
    used = _entry(tmp_path, "faces", "bb", 1000, 2000)
    doc = _entry(tmp_path, "documents", "cc", 1000, 1000)
    new = _entry(tmp_path, "faces", "dd", 1000, 10)
    stranger = tmp_path / "notes.txt"                   # not deckgen's: never touched
    stranger.write_text("keep", encoding="utf-8")
    cache.touch(old)                                     # a hit makes it the most recently used
    done = cache.prune(2500, tmp_path)
    assert done.removed == 2 and done.freed == 2000 and done.left == 2000
    assert old.exists() and new.exists() and not used.exists() and not doc.exists() and stranger.exists()
    assert cache.usage(tmp_path).files == 2


def test_the_automatic_cap_keeps_what_the_running_build_uses(tmp_path, monkeypatch, classic):
    root = tmp_path / "cache"
    stale = [_entry(root, "faces", f"{i:02d}", 50_000, 86400 + i) for i in range(20)]   # yesterday's faces: 1 MB
    monkeypatch.setenv(cache.ENV_MAX, "1kB")                   # smaller than one deck
    res = render_deck(classic, LOW, cache_dir=root, jobs=1)
    assert res.drawn == 55
    assert not any(p.exists() for p in stale)                  # old entries went first ...
    assert all(p.exists() for p in res.paths.values())         # ... the faces just drawn stayed
    assert cache.usage(root).bytes == sum(p.stat().st_size for p in res.paths.values())


def test_clear_removes_every_entry(tmp_path):
    _entry(tmp_path, "faces", "aa", 10, 0)
    _entry(tmp_path, "documents", "bb", 10, 0)
    before = cache.clear(tmp_path)
    assert before.files == 2 and cache.usage(tmp_path).files == 0


# ------------------------------------------------------------------ the command

def test_deckgen_cache_shows_clears_and_prunes(tmp_path, monkeypatch):
    monkeypatch.setenv("DECKGEN_CACHE", str(tmp_path))
    for i, name in enumerate(["aa", "bb", "cc"]):
        _entry(tmp_path, "faces", name, 400_000, 100 - i)
    runner = CliRunner()
    shown = runner.invoke(main, ["cache"])
    assert shown.exit_code == 0 and str(tmp_path) in shown.output and "1.2 MB in 3 files" in shown.output
    data = json.loads(runner.invoke(main, ["cache", "--json"]).output)
    assert data["path"] == str(tmp_path) and data["files"] == 3 and data["sections"]["faces"]["bytes"] == 1_200_000
    pruned = runner.invoke(main, ["cache", "prune", "--max-size", "0.5MB"])
    assert pruned.exit_code == 0 and "removed 2 files" in pruned.output
    assert runner.invoke(main, ["cache", "prune", "--max-size", "lots"]).exit_code == 2
    cleared = runner.invoke(main, ["cache", "clear"])
    assert cleared.exit_code == 0 and "removed 1 file " in cleared.output
    assert cache.usage(tmp_path).files == 0


# ------------------------------------------------------------------ --no-cache, unwritable cache

@pytest.fixture
def unwritable_cache(tmp_path, monkeypatch):
    """A cache folder that cannot be made (its parent is a file), even for root."""
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("DECKGEN_CACHE", str(blocker / "cache"))
    return blocker / "cache"


def test_no_cache_works_with_an_unwritable_cache_folder(tmp_path, unwritable_cache):
    runner = CliRunner()
    out = tmp_path / "faces"
    rendered = runner.invoke(main, ["render", "classic", "-o", str(out), "--dpi", "30", "--no-cache", "--jobs", "1"])
    assert rendered.exit_code == 0, rendered.output
    assert len(list(out.glob("*.png"))) == 55
    built = runner.invoke(main, ["build", "classic", "-o", str(tmp_path / "out"), "--dpi", "30", "--no-cache",
                                 "--no-rulebook", "--jobs", "1"])
    assert built.exit_code == 0, built.output
    assert (tmp_path / "out" / "classic" / "classic-cards.pdf").stat().st_size > 0
    preview = runner.invoke(main, ["preview", "classic", "-o", str(tmp_path / "p.png"), "--dpi", "30", "--no-cache"])
    assert preview.exit_code == 0 and (tmp_path / "p.png").is_file()
    assert not unwritable_cache.exists()


def test_without_no_cache_an_unwritable_cache_is_skipped_with_one_warning(tmp_path, unwritable_cache, caplog):
    result = CliRunner().invoke(main, ["render", "classic", "-o", str(tmp_path / "f"), "--dpi", "30", "--jobs", "1"])
    assert result.exit_code == 0 and "Traceback" not in result.output
    assert len(list((tmp_path / "f").glob("*.png"))) == 55
    warned = [r.getMessage() for r in caplog.records if r.name == "deckgen.cache"]
    assert len(warned) == 1 and str(unwritable_cache) in warned[0] and "going on without it" in warned[0]


def test_a_build_with_a_cache_it_cannot_make_goes_on_without_it(tmp_path, unwritable_cache, caplog):
    """It said "going on without it" and then stopped with exit 2 (issue 38): the card sheets'
    lookup in the cache asked for the cache's folder even after it was found unusable."""
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", "classic", "-o", str(out), "--dpi", "30", "--no-rulebook",
                                       "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert (out / "classic" / "classic-cards.pdf").stat().st_size > 0
    warned = [r.getMessage() for r in caplog.records if r.name == "deckgen.cache"]
    assert len(warned) == 1 and "going on without it" in warned[0]
    assert not unwritable_cache.exists()


# ------------------------------------------------------------------ cached documents

@pytest.fixture
def own_deck(tmp_path, minimal_text, monkeypatch):
    monkeypatch.setattr("deckgen.rulebook.images.DPI", 30)
    folder = tmp_path / "deck"
    folder.mkdir()
    (folder / "colours.toml").write_text((Path(__file__).parent.parent / "decks" / "palettes" / "classic.toml")
                                         .read_text(encoding="utf-8"), encoding="utf-8")
    text = minimal_text.replace('palette = "classic"', 'palette = "colours.toml"\ntemplates = "rules"')
    (folder / "rules" / "en").mkdir(parents=True)
    (folder / "rules" / "en" / "rulebook.j2").write_text(
        '{% extends "preset/rulebook.j2" %}\n{% block intro %}\nWe play it on Sundays.\n{% endblock %}\n',
        encoding="utf-8")
    path = folder / "mini.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.slow
def test_documents_come_from_the_cache_byte_identical_and_are_made_again_when_an_input_changes(
        own_deck, tmp_path, monkeypatch):
    import deckgen.build as build_mod
    import deckgen.rulebook.step as step

    calls: list[str] = []
    real_rulebook, real_cards = step.build_rulebook, build_mod.cards_pdf_for_deck
    monkeypatch.setattr(step, "build_rulebook", lambda deck, lang, **kw: calls.append(lang) or
                        real_rulebook(deck, lang, **kw))
    monkeypatch.setattr(build_mod, "cards_pdf_for_deck", lambda *a, **kw: calls.append("cards") or real_cards(*a, **kw))
    opts = BuildOptions(out_dir=tmp_path / "a", dpi=30, cache_dir=tmp_path / "cache", jobs=1)

    def build(out: str) -> dict[str, bytes]:
        res = build_deck(own_deck, BuildOptions(**{**opts.__dict__, "out_dir": tmp_path / out}))
        return {o.path.name: o.path.read_bytes() for o in res.outputs}

    cold = build("cold")
    assert sorted(calls) == ["cards", "en", "es"]
    calls.clear()
    assert build("warm") == cold and calls == []                   # nothing typeset again, same bytes
    fresh = build_deck(own_deck, BuildOptions(**{**opts.__dict__, "out_dir": tmp_path / "fresh", "use_cache": False}))
    assert {o.path.name: o.path.read_bytes() for o in fresh.outputs} == cold
    calls.clear()

    template = own_deck.parent / "rules" / "en" / "rulebook.j2"
    template.write_text(template.read_text(encoding="utf-8").replace("Sundays", "Fridays"), encoding="utf-8")
    changed = build("template")
    assert sorted(calls) == ["en", "es"]                          # the sheets do not read templates
    assert changed["mini-rulebook-en.pdf"] != cold["mini-rulebook-en.pdf"]
    calls.clear()

    palette = own_deck.parent / "colours.toml"
    palette.write_text(palette.read_text(encoding="utf-8").replace("#E0242B", "#B71C1C"), encoding="utf-8")
    build("palette")
    assert sorted(calls) == ["cards", "en", "es"]                 # the pictures in both rulebooks changed


def test_a_document_key_covers_the_deck_its_files_and_the_options(own_deck):
    from deckgen.inputs import deck_files, fingerprint

    deck = manifest.load_deck(own_deck)
    folder = own_deck.parent.resolve()
    assert deck_files(deck) == [folder / "mini.toml", folder / "colours.toml", folder / "rules"]
    key = fingerprint(deck, "rulebook", "en")
    assert key == fingerprint(manifest.load_deck(own_deck), "rulebook", "en")      # stable across loads
    assert key != fingerprint(deck, "rulebook", "es")
    (folder / "rules" / "en" / "extra.j2").write_text("x", encoding="utf-8")
    assert fingerprint(manifest.load_deck(own_deck), "rulebook", "en") != key       # a new template file


def test_a_decks_images_are_found_in_the_order_a_depth_first_walk_meets_them(tmp_path):
    import dataclasses

    from deckgen import inputs
    from deckgen.model import ImageRef

    refs = [ImageRef(str(tmp_path / f"{n}.png"), f"{n:020d}", "png", (1, 1)) for n in range(5)]

    @dataclasses.dataclass(frozen=True)
    class Holder:
        first: object
        rest: object

    shared = (refs[2],)
    tree = Holder({"a": [refs[0], Holder(refs[1], shared)], "b": "art/x.png"}, (shared, 7, None, [refs[3]], refs[4]))
    assert [ref.path for ref in inputs._image_refs(tree)] == [ref.path for ref in refs]    # the shared one once


def test_deckgen_cache_warns_when_the_cache_path_is_a_file(tmp_path, monkeypatch):
    from deckgen.cli import main

    not_a_folder = tmp_path / "cache-file"
    not_a_folder.write_text("x", encoding="utf-8")
    monkeypatch.setenv("DECKGEN_CACHE", str(not_a_folder))
    result = CliRunner().invoke(main, ["cache"])
    assert result.exit_code == 0
    assert f"{not_a_folder} is not a folder" in result.output and "DECKGEN_CACHE" in result.output
    monkeypatch.setenv("DECKGEN_CACHE", str(tmp_path / "fine"))
    assert "not a folder" not in CliRunner().invoke(main, ["cache"]).output
