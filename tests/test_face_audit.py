"""Every face audited as drawn (deckgen/render/audit.py, docs/checks.md "The faces as drawn"): each
mistake a new designer made in issue 32 is a finding with its file and line, or prints right, and
none crashes; the bundled decks and the woodland example pass under every bundled layout."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_check_claims import HEAD

from deckgen import manifest
from deckgen.check import check
from deckgen.cli import main
from deckgen.errors import DeckgenError
from deckgen.render import RenderSettings, render_face
from deckgen.render.audit import MIN_TEXT_PT, audit
from deckgen.render.draw import plan_face, style_font
from deckgen.render.faces import face_spec, in_language, inline_icon
from deckgen.render.layout import layouts
from deckgen.stages import CheckOptions
from tests.conftest import ROOT

LOW = RenderSettings(dpi=60)
FACE_LAYOUTS = sorted(n for n, lay in layouts().items() if lay.target == "face")


def _check(path: Path, **kw):
    return check(path, CheckOptions(simulate=False, **kw))


def _deck(tmp_path: Path, extra: str = "", layout: str | None = None, deck_keys: str = "") -> Path:
    text = HEAD.replace('palette = "classic"\n', 'palette = "classic"\n' + deck_keys
                        + (f'layout = "{layout}"\n' if layout else ""))
    path = tmp_path / "deck.toml"
    path.write_text(text + extra, encoding="utf-8")
    return path


def with_layout(deck, name):
    return replace(deck, layout=name, kinds={k: replace(v, layout=None) for k, v in deck.kinds.items()},
                   cards=tuple(replace(c, layout=None) for c in deck.cards))


# ---------------------------------------------------------------- the bundled decks

@pytest.mark.parametrize("layout", FACE_LAYOUTS)
def test_the_bundled_decks_and_woodland_pass_the_audit_under_every_bundled_layout(layout):
    """The table of the closing note: no finding for any bundled deck under any bundled layout."""
    for name in ("classic", "no-mercy", "flex-spectrum", "woodland"):
        deck = with_layout(manifest.load_deck(name), layout)
        assert audit(deck, use_cache=False) == [], (layout, name)


# ---------------------------------------------------------------- crashes and the plain Wild

def test_a_newline_in_a_kind_name_under_full_art_is_one_line_and_json_stays_json(tmp_path):
    path = _deck(tmp_path, 'label = "+3"\n', layout="full-art")
    path.write_text(path.read_text("utf-8").replace('name = { en = "Grab", es = "Agarra" }',
                                                    'name = { en = "Grab\\nMore", es = "Agarra\\tmás" }'), "utf-8")
    res = CliRunner().invoke(main, ["check", str(path), "--no-sim", "--json"])
    data = json.loads(res.output)                          # one JSON object, no traceback
    assert res.exception is None or isinstance(res.exception, SystemExit)
    assert not [f for f in data["errors"] if f["code"] in ("missing-glyph", "internal")]
    deck = manifest.load_deck(path)
    assert face_spec(deck, "red-grab", False).caption == "GRAB MORE"
    assert face_spec(in_language(deck, "es"), "red-grab", False).caption == "AGARRA MÁS"   # a tab: a space
    assert render_face(deck, "red-grab", LOW).size == LOW.frame(deck).full


@pytest.mark.parametrize("layout", ["minimal", "full-art"])
def test_a_plain_wild_without_a_coloured_frame_shows_the_colour_wheel(layout):
    deck = with_layout(manifest.load_deck("classic"), layout)
    plan = plan_face(face_spec(deck, "wild", False), LOW.frame(deck))
    assert [it[1] for it in plan.get("symbol").data["items"]] == ["wheel"]
    img = render_face(deck, "wild", LOW)
    x0, y0, x1, y1 = (round(v) for v in plan.get("symbol").rects[0])
    colours = {c for _, c in img.crop((x0, y0, x1, y1)).getcolors(1 << 16)}
    assert {c.rgb for c in deck.palette.colors} <= colours


def test_a_face_with_nothing_in_its_centre_is_an_error(tmp_path):
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "layouts").mkdir()
    text = (ROOT / "decks" / "layouts" / "minimal.toml").read_text("utf-8").replace(
        '[elements.symbol]\n', '[elements.symbol]\nhide = ["wild", "art"]\n').replace('hide = ["art"]\n', '', 1)
    (folder / "layouts" / "bare.toml").write_text(text, "utf-8")
    rep = _check(_deck(folder, layout="bare"))
    (f,) = [f for f in rep.errors if f.code == "no-centre"]
    assert f.where == "kinds.wild-draw-four" and "'wild-draw-four'" in f.message


# ---------------------------------------------------------------- rules text markup

def test_icon_names_are_read_in_any_case_and_an_unknown_one_is_an_error(tmp_path):
    rep = _check(_deck(tmp_path, 'text = { en = "Then {SKIP} and {Lantern}.", es = "Luego {Red}." }\n'))
    deck = rep.deck
    assert dict(face_spec(deck, "red-grab", False).rules_icons)["SKIP"] == ("symbol", "skip")
    assert inline_icon(deck, "Red")[0] == "color"
    (f,) = [f for f in rep.errors if f.code == "text-icon"]
    assert f.where == "kinds.grab.text" and "{Lantern}" in f.message and f.line is not None


def test_an_unclosed_bold_is_an_error_quoting_the_text_and_prints_as_written(tmp_path):
    rep = _check(_deck(tmp_path, 'text = { en = "Draw 3 and **steal one.", es = "Roba 3 y roba una." }\n'))
    (f,) = [f for f in rep.errors if f.code == "text-markup"]
    assert f.where == "kinds.grab.text" and "unclosed **" in f.message and "“Draw 3 and **steal one.”" in f.message
    plan = plan_face(face_spec(rep.deck, "red-grab", False), LOW.frame(rep.deck))
    words = [t.text for line in plan.get("rules").data["lines"] for t in line]
    assert "**steal" in words                            # not the rest of the text in bold


def test_a_stray_brace_is_an_error(tmp_path):
    rep = _check(_deck(tmp_path, 'text = { en = "Draw 3 { and steal.", es = "Roba 3 y roba." }\n'))
    assert any(f.code == "text-markup" and "'{'" in f.message for f in rep.errors)


def test_a_card_text_is_bounded_in_length_and_in_icons(tmp_path):
    rep = _check(_deck(tmp_path, 'text = "' + "word " * 200_000 + '"\n'))
    assert rep.deck is None and any(f.code == "too-long" and f.where == "kinds.grab.text" for f in rep.findings)
    icons = " ".join(f"{{i{i}}}" for i in range(30))
    rep = _check(_deck(tmp_path, f'text = "{icons}"\n'))
    assert any(f.code == "text-markup" and "inline icons" in f.message for f in rep.errors)
    (unknown,) = [f for f in rep.errors if f.code == "text-icon"]           # one finding naming them
    assert "'{i0}'" in unknown.message


# ---------------------------------------------------------------- what a kind shows

def test_a_kinds_icon_replaces_its_derived_plus_n_in_the_centre_and_corners(tmp_path):
    shutil.copy(ROOT / "decks" / "examples" / "woodland" / "icons" / "steal.svg", tmp_path / "grab.svg")
    rep = _check(_deck(tmp_path, 'icon = "grab.svg"\n'))
    spec = face_spec(rep.deck, "red-grab", False)
    assert spec.centre.text == "" and spec.index.text == ""
    plan = plan_face(spec, LOW.frame(rep.deck))
    assert plan.get("index").data["mode"] == "icon"
    assert [it[1] for it in plan.get("symbol").data["items"]] == ["icon"]


def test_a_named_symbol_is_drawn_beside_a_derived_label(tmp_path):
    rep = _check(_deck(tmp_path, 'symbol = "steal"\n'))
    spec = face_spec(rep.deck, "red-grab", False)
    assert spec.centre.text == "+3" and spec.centre.symbol == "steal"


def test_a_ten_letter_label_too_small_in_the_corners_is_an_error(tmp_path):
    rep = _check(_deck(tmp_path, 'label = "STEALTHREE"\n'))
    found = [f for f in rep.errors if f.code == "small-text"]
    assert found and all(f.where == "kinds.grab.label" for f in found)
    assert any("index" in f.message and f"{MIN_TEXT_PT:g} pt" in f.message for f in found)


def test_face_bold_uses_the_decks_bold_font(tmp_path):
    fonts = tmp_path / "fonts"
    fonts.mkdir()
    vera = Path(__import__("reportlab").__file__).parent / "fonts"
    shutil.copy(vera / "VeraBd.ttf", fonts / "MyBold.ttf")
    (fonts / "fonts.toml").write_text('bold = "MyBold.ttf"\n', "utf-8")
    deck = manifest.load_deck(_deck(tmp_path, 'text = "Draw **3**."\n', deck_keys='fonts = "fonts"\n'))
    spec = face_spec(deck, "red-grab", False)
    assert Path(style_font(spec, "text", 1, 20).path).name == "MyBold.ttf"
    plain = manifest.load_deck("classic")
    assert "LeagueSpartan-Black" in style_font(face_spec(plain, "red-7", False), "text", 1, 20).path


# ---------------------------------------------------------------- layouts

BAD_LAYOUT = """[layout]
name = "Bad"

[elements.background]

[elements.frame]
shape = "none"

[elements.art]
place = "box"
box = { left = 10, right = 10, top = "60%", bottom = "60%" }

[elements.index]
box = { left = 0, top = 0, width = 20, height = 17 }

[elements.symbol]
box = { width = 60, height = 50 }
tilt = 0

[elements.rules]
box = { right = 0, bottom = 0, width = 40, height = 20 }
"""


def test_a_layout_overlap_is_one_finding_at_the_layout_file_naming_the_turned_copy(tmp_path):
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "bad.toml").write_text(BAD_LAYOUT, "utf-8")
    rep = _check(_deck(tmp_path, 'text = "Draw 3, then steal."\n', layout="bad"))
    overlaps = [f for f in rep.errors if f.code == "overlap"]
    assert len(overlaps) == 1
    (f,) = overlaps
    assert f.file == str(tmp_path / "layouts" / "bad.toml") and f.where.startswith("elements.index")
    assert f.line == BAD_LAYOUT.splitlines().index("[elements.index]") + 2      # its box = { ... } line
    assert "turned copy" in f.message and "rules" in f.message and "larger box" not in (f.hint or "")
    assert "4 cards" in f.message                          # once for the layout and size, not once per card


def test_an_art_box_with_no_area_is_a_finding_at_the_layout_file(tmp_path):
    shutil.copy(ROOT / "decks" / "examples" / "woodland" / "art" / "moon.svg", tmp_path / "moon.svg")
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "bad.toml").write_text(BAD_LAYOUT, "utf-8")
    rep = _check(_deck(tmp_path, 'art = "moon.svg"\n', layout="bad"))
    (f,) = [f for f in rep.errors if f.code == "layout-box"]
    assert f.where == "elements.art.box" and f.file.endswith("bad.toml") and "-" in f.message


def test_hide_naming_no_element_is_a_warning_with_a_suggestion(tmp_path):
    rep = _check(_deck(tmp_path, 'hide = ["sybmol"]\n'))
    (f,) = [f for f in rep.warnings if f.code == "hide"]
    assert f.where == "kinds.grab.hide" and "symbol" in (f.hint or "") and f.line is not None


# ---------------------------------------------------------------- pixels

DARK_ICON = ('<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64">'
             '<circle cx="32" cy="32" r="30" fill="#181818"/></svg>')


def test_a_dark_icon_on_a_dark_card_is_an_error(tmp_path):
    (tmp_path / "dark.svg").write_text(DARK_ICON, "utf-8")
    extra = '\n[kinds.wild-draw-four]\ncategory = "wild"\nname = "Dark"\n' \
            'effects = [{ op = "draw", n = 4 }, "challenge", "choose_color"]\nicon = "dark.svg"\nsymbol = "plus"\n'
    rep = _check(_deck(tmp_path, extra, layout="minimal"))          # no oval of colours behind it
    found = [f for f in rep.errors if f.code == "contrast"]
    assert found and found[0].where == "kinds.wild-draw-four.icon" and "stands out" in found[0].message
    assert not [f for f in rep.findings if f.code == "contrast" and "red-" in f.message]   # fine on the white chip


# ---------------------------------------------------------------- sizes and languages

def test_check_size_audits_at_a_print_shop_preset(tmp_path):
    path = _deck(tmp_path)
    res = CliRunner().invoke(main, ["check", str(path), "--no-sim", "--size", "tgc-square", "--json"])
    assert json.loads(res.output)["exit_code"] in (0, 1)
    rep = check("flex-spectrum", CheckOptions(simulate=False, sizes=("mini",)))
    assert any("size mini" in f.message and f.code == "small-text" for f in rep.errors)    # long names, small
    rep = check(path, CheckOptions(simulate=False, sizes=("tgc-pokr",)))
    assert any(f.code == "option" and f.where == "--size" and "poker" in (f.hint or "") for f in rep.errors)


@pytest.mark.parametrize("args", [["check", "--no-sim", "--size", "0x0"], ["build", "--card-size", "0x0"],
                                  ["build", "--card-size", "nope", "--force"], ["export", "tts", "--card-size", "0x0"]])
def test_a_card_size_that_is_none_is_a_bad_option_named_as_typed(tmp_path, args):
    """check --size, build --card-size and export --card-size: an unknown or impossible size is an
    error naming the option the user typed, exit code 2 (a bad option, never "the deck has
    errors"; --force does not build past it), as render --card-size does."""
    path = _deck(tmp_path)
    command = [*args[:2], str(path), *args[2:]] if args[0] == "export" else [args[0], str(path), *args[1:]]
    if args[0] != "check":
        command += ["-o", str(tmp_path / "out")]
    res = CliRunner().invoke(main, [*command, "--json"])
    assert res.exit_code == 2, res.output
    data = json.loads(res.output)
    option = "--size" if args[0] == "check" else "--card-size"
    assert any(e["code"] == "option" and e["where"] == option for e in data["errors"]), data["errors"]
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.pdf"))


def test_faces_in_another_language_of_the_deck():
    deck = manifest.load_deck("classic")
    assert face_spec(in_language(deck, "en"), "red-skip", False).caption == "SKIP"
    assert face_spec(deck, "red-skip", False).caption == "SALTA"
    with pytest.raises(DeckgenError, match="no texts in 'fr'"):
        in_language(deck, "fr")


def test_render_and_build_take_lang(tmp_path):
    res = CliRunner().invoke(main, ["render", "classic", "-o", str(tmp_path / "f"), "--only", "red-skip",
                                    "--dpi", "40", "--lang", "en", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)["faces"]["red-skip"]
    from PIL import Image

    en = Image.open(out).convert("RGB")
    es = render_face(manifest.load_deck("classic"), "red-skip", RenderSettings(dpi=40))
    assert en.size == es.size and en.tobytes() != es.tobytes()
    assert en.tobytes() == render_face(in_language(manifest.load_deck("classic"), "en"), "red-skip",
                                       RenderSettings(dpi=40)).tobytes()
    res = CliRunner().invoke(main, ["render", "classic", "-o", str(tmp_path / "g"), "--lang", "fr"])
    assert res.exit_code == 2 and "no texts in 'fr'" in res.output


def test_the_play_table_shows_the_faces_in_its_language():
    from deckgen.play.faces import Faces

    deck = manifest.load_deck("classic")
    assert Faces(deck, dpi=40, use_cache=False, lang="en").deck.language == "en"
    assert Faces(deck, dpi=40, use_cache=False, lang="fr").deck.language == "es"      # no such texts: as it is


# ---------------------------------------------------------------- colour-blind shapes

def test_the_deck_key_turns_the_shapes_on_for_every_output_and_the_rules_icons_follow(tmp_path):
    palette = tmp_path / "pal.toml"
    palette.write_text((ROOT / "decks" / "palettes" / "classic.toml").read_text("utf-8"), "utf-8")
    text = 'text = { en = "Play on {red}.", es = "Juega en {red}." }\n'
    off = manifest.load_deck(_deck(tmp_path, text))
    assert not off.shape_cues and inline_icon(off, "red")[2] is None
    assert face_spec(off, "red-grab", RenderSettings().symbols_on(off)).shape is None
    on = manifest.load_deck(_deck(tmp_path, text, deck_keys="symbols = true\n"))
    assert on.shape_cues and RenderSettings().symbols_on(on)
    shape = on.palette.get("red").symbol
    assert shape and inline_icon(on, "red")[2] == shape
    assert face_spec(on, "red-grab", RenderSettings().symbols_on(on)).shape == shape
    assert not RenderSettings(symbols=False).symbols_on(on)                    # --no-symbols for one run


def test_the_colour_blind_hint_names_what_works(tmp_path):
    """Woodland's fox and frog look alike under protanopia: with its shapes printed (symbols =
    true) the check is quiet; without them it warns, and its hint names the manifest key."""
    example = ROOT / "decks" / "examples" / "woodland"
    assert not [f for f in _check(example / "woodland.toml").findings if f.code == "palette-colorblind"]
    shutil.copytree(example, tmp_path / "woodland")
    manifest_file = tmp_path / "woodland" / "woodland.toml"
    text = manifest_file.read_text("utf-8")
    assert "\nsymbols = true" in text
    manifest_file.write_text(text.replace("\nsymbols = true", "\nsymbols = false"), "utf-8")
    hints = [f.hint for f in _check(manifest_file).findings if f.code == "palette-colorblind"]
    assert hints and all("--symbols" not in h.split("(")[0] and "symbols = true" in h for h in hints)


def test_the_gallery_shows_every_card_kind_of_each_bundled_deck_plain_wild_included():
    import importlib.util

    from PIL import Image

    spec = importlib.util.spec_from_file_location("gallery_make", ROOT / "docs" / "gallery" / "make.py")
    make = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make)
    widest = 0
    for name in make.DECKS:
        deck = manifest.load_deck(name)
        shown = make.kind_faces(deck)
        kinds = {c.kind for c in deck.cards if c.id in shown} | {c.flex.kind for c in deck.cards
                                                                  if c.id in shown and c.flex}
        assert kinds == {c.kind for c in deck.cards} | {c.flex.kind for c in deck.cards if c.flex}, name
        widest = max(widest, len(shown))
    assert "wild" in make.kind_faces(manifest.load_deck("classic"))
    w, h = render_face(manifest.load_deck("classic"), "red-7", RenderSettings(dpi=36, bleed_mm=0.0, card_size="uno")).size
    for layout in FACE_LAYOUTS:                           # the pictures in docs/ are the sheets make.py draws now
        with Image.open(ROOT / "docs" / "gallery" / f"{layout}.png") as img:
            assert img.size == (widest * w + (widest - 1) * make.GAP, 4 * h + 3 * make.GAP), layout


DEGENERATE = """[layout]
name = "Degenerate"
[elements.background]
[elements.frame]
shape = "rounded"
box = { left = 60, right = 60, top = "60%", bottom = "60%" }
[elements.index]
box = { left = 60, right = 60, top = 0, height = 13 }
[elements.flex]
box = { right = 0, top = 60, bottom = 60, width = 36 }
[elements.symbol]
box = { left = 55, right = 55, top = "60%", bottom = "60%" }
[elements.caption]
place = "box"
box = { left = 50, right = 60, bottom = 0, height = 11 }
[elements.rules]
box = { left = 70, right = 70, bottom = 0, height = 20 }
"""


def test_boxes_that_work_out_negative_are_findings_and_never_a_crash(tmp_path):
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "bad.toml").write_text(DEGENERATE, "utf-8")
    path = _deck(tmp_path, 'text = "Draw 3."\n', layout="bad")
    res = CliRunner().invoke(main, ["check", str(path), "--no-sim", "--json"])
    data = json.loads(res.output)
    boxes = {f["where"] for f in data["errors"] if f["code"] == "layout-box"}
    assert {"elements.index.box", "elements.symbol.box", "elements.caption.box", "elements.rules.box"} <= boxes
    assert all(f["file"].endswith("bad.toml") for f in data["errors"] if f["code"] == "layout-box")
    deck = manifest.load_deck(path)
    for fid in ("red-1", "red-grab", "wild-draw-four", "back"):
        assert render_face(deck, fid, LOW).size == LOW.frame(deck).full
    # a deck that prints anyway (--force) draws no element that has no area, and never crashes
    # (a plain Wild's colour wheel in a box of no size was a ValueError at build)
    classic = (ROOT / "decks" / "classic.toml").read_text("utf-8").replace("[deck]\n", '[deck]\nlayout = "bad"\n', 1)
    (tmp_path / "classic.toml").write_text(classic, "utf-8")
    res = CliRunner().invoke(main, ["build", str(tmp_path / "classic.toml"), "-o", str(tmp_path / "out"),
                                    "--no-rulebook", "--force", "--only", "wild,red-1", "-j", "1", "--no-cache"])
    assert res.exit_code == 0, res.output


def test_a_box_length_out_of_its_range_is_an_error_in_the_layout_file(tmp_path):
    """A width or height given as nothing or less (0, -5) is out of its range when the layout is
    read (render/limits.py): an error at its key in the layout file."""
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "bad.toml").write_text(DEGENERATE.replace(
        "box = { left = 60, right = 60, top = 0, height = 13 }", "box = { left = 0, top = 0, width = 0, height = -5 }"),
        "utf-8")
    path = _deck(tmp_path, 'text = "Draw 3."\n', layout="bad")
    data = json.loads(CliRunner().invoke(main, ["check", str(path), "--no-sim", "--json"]).output)
    wrong = {f["where"]: f for f in data["errors"] if f["code"] == "value"}
    assert {"elements.index.box.width", "elements.index.box.height"} <= set(wrong)
    assert all(f["file"].endswith("bad.toml") for f in wrong.values())


def test_a_caption_in_the_colour_of_what_is_behind_it_is_an_error_and_the_large_index_one_reads():
    """The bundled large-index layout drew a white caption on its white panel on green, blue and red
    cards; a plain caption on a dark Wild is dark on dark."""
    from deckgen.render.draw import caption_style

    deck = with_layout(manifest.load_deck("classic"), "large-index")
    plan = plan_face(face_spec(deck, "green-reverse", False), LOW.frame(deck))
    assert caption_style(plan, plan.get("caption")).fill != (255, 255, 255)      # dark on the white panel
    assert audit(deck, use_cache=False) == []
    lay = replace(layouts()["minimal"], elements=tuple(
        replace(e, options=(*e.options, ("style", "plain"))) if e.type == "caption" else e
        for e in layouts()["minimal"].elements))
    spec = replace(face_spec(deck, "wild-draw-four", False), layout=lay)
    from deckgen.render.audit import pixel_problems

    found = pixel_problems(spec, LOW.frame(deck))
    assert [p.code for p in found] == ["contrast"] and "#111111 on #161616" in found[0].message
