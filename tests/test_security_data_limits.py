"""Every number and count in a data file is bounded, and a deck's preset files are read only
from inside the deck (docs/security.md, "Data files")."""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hostile import MARKER, MINIMAL, assert_refused, make_deck, run
from hypothesis import given
from hypothesis import strategies as st

from deckgen import datafile
from deckgen.cli import main
from deckgen.errors import DeckgenError
from deckgen.render import limits
from deckgen.render.layout import get_layout, parse_layout


def _layout_deck(tmp_path: Path, box: str, name: str = "x"):
    """A deck whose faces use its own layout ``name``, with ``box`` as the index's box."""
    folder = tmp_path / "deck"
    (folder / "layouts").mkdir(parents=True)
    manifest = folder / "deck.toml"
    manifest.write_text(MINIMAL.replace('palette = "classic"\n', f'palette = "classic"\nlayout = "{name}"\n'),
                        encoding="utf-8")
    (folder / "layouts" / f"{name}.toml").write_text(
        f'[layout]\nname = "X"\n\n[elements.background]\n\n[elements.index]\nbox = {box}\n', encoding="utf-8")
    return manifest


def _check(manifest: Path):
    result = CliRunner().invoke(main, ["check", str(manifest), "--no-sim"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


# Issue 38: each of these gave a traceback in check (16 runs).
@pytest.mark.parametrize("value, words", [
    ("nan", "nan is not a number"), ("inf", "inf is not a number"), ("-inf", "-inf is not a number"),
    ("1e308", "1e+308 is too large"), ("-1e308", "-1e+308 is too large"), ("9" * 5000, "thousands of digits"),
    ('"' + "9" * 5000 + 'mm"', "a length of 5002 characters is not one"),
])
def test_a_hostile_number_in_a_layout_box_is_a_finding_naming_file_and_key(tmp_path, value, words):
    manifest = _layout_deck(tmp_path, "{ left = " + value + ", top = 0, width = 20, height = 17 }")
    result = _check(manifest)
    assert result.exit_code in (1, 2) and "Traceback" not in result.output
    assert words in result.output and "layouts/x.toml:7" in result.output, result.output
    if "digits" not in words:
        assert "elements.index.box.left" in result.output


@pytest.mark.parametrize("box, words", [
    ("{ left = 151, top = 0, width = 20, height = 17 }", "151 is out of range: left is from -50 to 150"),
    ("{ left = 0, top = 0, width = 0, height = 17 }", "0 is out of range: width is from 1 to 200"),
    ('{ left = 0, top = 0, width = "401mm", height = 17 }', "'401mm' is out of range: width is from 1mm to 400mm"),
    ('{ cx = "-101%", width = 20, height = 17 }', "cx is from -100% to 100%"),
])
def test_a_box_far_outside_the_card_is_refused_before_any_face_is_drawn(tmp_path, box, words):
    result = _check(_layout_deck(tmp_path, box))
    assert result.exit_code in (1, 2) and words in result.output, result.output


def test_the_bundled_layouts_are_within_the_ranges():
    for path in sorted((Path(__file__).parent.parent / "decks" / "layouts").glob("*.toml")):
        parse_layout(str(path))


def test_ten_thousand_elements_are_refused_at_once(tmp_path):
    path = tmp_path / "many.toml"
    path.write_text('[layout]\nname = "Many"\n' + "".join(f"[elements.e{i}]\ntype = \"background\"\n"
                                                        for i in range(10_000)), encoding="utf-8")
    start = time.monotonic()
    with pytest.raises(DeckgenError) as info:
        parse_layout(str(path))
    assert time.monotonic() - start < 10
    found = info.value.findings[0]
    assert found.where == "elements" and f"over the limit of {limits.MAX_ELEMENTS}" in found.message


def test_a_user_layout_named_uno_that_is_broken_does_not_stop_every_build(tmp_path, monkeypatch, caplog):
    data = tmp_path / "data"
    (data / "layouts").mkdir(parents=True)
    bundled = (Path(__file__).parent.parent / "decks" / "layouts" / "uno.toml").read_text(encoding="utf-8")
    (data / "layouts" / "uno.toml").write_text(bundled.replace("left = 0, top = 0", "left = nan, top = 0"),
                                               encoding="utf-8")
    monkeypatch.setenv("DECKGEN_DATA", str(data))
    with caplog.at_level(logging.WARNING, logger="deckgen.presets"):
        layout = get_layout(None, None, "face")
    assert layout.name == "UNO" and layout.element("index") is not None
    warned = [r.getMessage() for r in caplog.records if r.name == "deckgen.presets"]
    assert len(warned) == 1 and str(data / "layouts" / "uno.toml") in warned[0]
    assert "elements.index.box.left: nan is not a number" in warned[0]
    out = tmp_path / "faces"
    result = CliRunner().invoke(main, ["render", "classic", "-o", str(out), "--dpi", "30", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert len(list(out.glob("*.png"))) == 55


def test_a_broken_layout_of_the_deck_itself_is_an_error(tmp_path):
    manifest = _layout_deck(tmp_path, "{ left = nan, top = 0, width = 20, height = 17 }", name="uno")
    result = _check(manifest)
    assert result.exit_code in (1, 2) and "layouts/uno.toml" in result.output and "nan is not a number" in result.output


@pytest.mark.parametrize("file, text, where", [
    ("deck.toml", None, "scoring.target"),
    ("kinds.toml", '[kinds.zap]\nname = "Zap"\ncategory = "action"\neffects = [{ op = "draw", n = inf }]\n',
     "kinds.zap.effects[0].n"),
    ("card-sizes.toml", "[sizes.big]\nwidth = nan\nheight = 88\n", "sizes.big.width"),
    ("papers.toml", "[huge]\nwidth = 1e300\nheight = 297\n", "huge.width"),
])
def test_every_data_file_refuses_numbers_that_are_no_numbers(tmp_path, file, text, where):
    deck = make_deck(tmp_path)
    if text is None:
        deck.manifest.write_text(deck.manifest.read_text(encoding="utf-8").replace("target = 100", "target = nan"),
                                 encoding="utf-8")
    else:
        (deck.folder / file).write_text(text, encoding="utf-8")
    result = _check(deck.manifest) if file != "papers.toml" else CliRunner().invoke(main, ["list", "--deck", str(deck.manifest)])
    assert result.exit_code in (1, 2) and "Traceback" not in result.output
    assert f"{file}:" in result.output and where in result.output, result.output


def test_an_array_of_more_than_ten_thousand_items_is_refused(tmp_path):
    path = tmp_path / "big.toml"
    path.write_text("values = [" + ", ".join(["1"] * 10_001) + "]\n", encoding="utf-8")
    with pytest.raises(DeckgenError) as info:
        datafile.read_toml(path)
    assert info.value.findings[0].where == "values" and "10,001 items" in info.value.findings[0].message


_leaf = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-10 ** 30, 10 ** 30),
                  st.text(max_size=5), st.booleans())
_key = st.text("abcxyz", min_size=1, max_size=4)


@given(st.dictionaries(_key, st.recursive(_leaf, lambda inner: st.lists(inner, max_size=4)
                                          | st.dictionaries(_key, inner, max_size=4), max_leaves=20), max_size=5))
def test_every_number_is_finite_and_at_most_a_billion_or_named(data):
    found = datafile.bounded(data, "x.toml")
    bad = []
    stack = [("", data)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, dict):
            stack += [(f"{where}.{k}" if where else k, v) for k, v in value.items()]
        elif isinstance(value, list):
            stack += [(f"{where}[{i}]", v) for i, v in enumerate(value)]
        elif isinstance(value, (int, float)) and not isinstance(value, bool) and \
                not (abs(value) <= datafile.MAX_NUMBER):          # NaN fails every comparison
            bad.append(where)
    assert sorted(f.where for f in found) == sorted(bad)


# A deck's preset files are read only from inside the deck, like every other file it names.
@pytest.mark.parametrize("case", ["kinds.toml", "layouts/x.toml", "layouts", "fonts/fonts.toml", "fonts/font.otf"])
def test_a_preset_file_that_leads_outside_the_deck_is_refused_unread(tmp_path, case):
    deck = make_deck(tmp_path, 'layout = "x"\nfonts = "fonts"' if case.startswith("fonts") or case.startswith("lay")
                     else "")
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = {"kinds.toml": f'[kinds.zap]\nname = "{MARKER}"\ncategory = "action"\neffects = ["skip"]\n',
              "layouts/x.toml": f'[layout]\nname = "{MARKER}"\n[elements.background]\n',
              "fonts/fonts.toml": f'display = "{MARKER}.ttf"\n'}
    if case == "layouts":
        (outside / "x.toml").write_text(secret["layouts/x.toml"], encoding="utf-8")
        os.symlink(outside, deck.folder / "layouts")
    elif case == "fonts/font.otf":
        (deck.folder / "fonts").mkdir()
        (deck.folder / "fonts" / "fonts.toml").write_text('display = "font.otf"\n', encoding="utf-8")
        (outside / "font.otf").write_bytes((Path(__file__).parent.parent / "fonts" / "LeagueSpartan-Bold.otf")
                                           .read_bytes())
        os.symlink(outside / "font.otf", deck.folder / "fonts" / "font.otf")
    else:
        target = outside / Path(case).name
        target.write_text(secret[case], encoding="utf-8")
        (deck.folder / case).parent.mkdir(exist_ok=True)
        os.symlink(target, deck.folder / case)
    if case.startswith("fonts") and not (deck.folder / "layouts").exists():
        deck.manifest.write_text(deck.manifest.read_text(encoding="utf-8").replace('layout = "x"\n', ""),
                                 encoding="utf-8")
    result = run(deck, "check", str(deck.manifest), "--no-sim")
    assert_refused(result, "leads outside", codes=(2,))
