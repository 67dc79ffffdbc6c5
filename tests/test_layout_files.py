"""Face and back layouts as data (docs/layouts.md): the file format, where layouts come from,
how a deck, a kind or a card chooses one, and hiding elements."""

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from deckgen import manifest
from deckgen.errors import DeckgenError
from deckgen.model import Names
from deckgen.render import RenderSettings, render_face
from deckgen.render.draw import plan_face
from deckgen.render.faces import face_spec
from deckgen.render.layout import Box, Length, get_layout, layouts, parse_layout
from tests.conftest import ROOT

LOW = RenderSettings(dpi=60)
WOODLAND = ROOT / "decks" / "examples" / "woodland"


def write(tmp_path: Path, text: str, name: str = "mine") -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_bundled_layouts_parse_and_the_default_is_uno():
    found = layouts()
    assert {"uno", "full-art", "minimal", "large-index", "uno-back", "framed-back"} <= set(found)
    assert get_layout(None).id == "uno" and get_layout(None, target="back").id == "uno-back"
    assert [e.type for e in found["uno"].elements] == [
        "background", "frame", "art", "index", "flex", "symbol", "caption", "rules"]


def test_a_bad_layout_file_reports_every_problem_with_its_key_path(tmp_path):
    path = write(tmp_path, """
[layout]
name = "Broken"
colour = "red"

[elements.index]
box = { left = 0, top = "ten", width = 20, heigth = 17 }
cues = "yes"

[elements.sparkles]

[elements.rules]
size = [9, 6]
""")
    with pytest.raises(DeckgenError) as err:
        parse_layout(str(path))
    where = {f.where for f in err.value.findings}
    assert {"layout.colour", "elements.index.box.top", "elements.index.box.heigth", "elements.index.cues",
            "elements.sparkles", "elements.rules.size"} <= where
    assert all(f.file == str(path) for f in err.value.findings)
    hint = next(f.hint for f in err.value.findings if f.where == "elements.index.box.heigth")
    assert "height" in hint


def test_box_lengths_are_card_units_percent_of_the_safe_box_or_millimetres():
    frame = LOW.frame(manifest.load_deck("classic"))
    l, t, r, b = frame.safe_box
    x0, y0, x1, y1 = Box(left=Length(0), top=Length(50, "%"), width=Length(20), height=Length(10, "mm")).resolve(frame)
    assert x0 == l and x1 == pytest.approx(l + frame.unit() * 20)
    assert y0 == pytest.approx(t + (b - t) / 2) and y1 - y0 == pytest.approx(10 * 60 / 25.4)
    cx0, _, cx1, _ = Box(width=Length(40)).resolve(frame)          # centred when only a size is given
    assert (cx0 + cx1) / 2 == pytest.approx((l + r) / 2)


BOX_VALUES = st.one_of(st.integers(-50, 200), st.floats(-50, 200, allow_nan=False),
                       st.sampled_from(["10%", "5mm", "3u", "x", "", "-2%"]), st.booleans(), st.none())


@hsettings(max_examples=60, deadline=None)
@given(box=st.dictionaries(st.sampled_from(["left", "right", "top", "bottom", "width", "height", "cx", "cy", "size"]),
                           BOX_VALUES, max_size=5))
def test_any_box_table_is_read_or_refused_with_findings(tmp_path_factory, box):
    def toml(v):
        return json.dumps(v) if v is not None else '"?"'
    body = ", ".join(f"{k} = {toml(v)}" for k, v in box.items())
    path = write(tmp_path_factory.mktemp("box"), f'[layout]\nname = "x"\n[elements.index]\nbox = {{ {body} }}\n')
    try:
        (name, layout), = parse_layout(str(path))
    except DeckgenError as exc:
        assert exc.findings and all(f.where.startswith("elements.index.box") for f in exc.findings)
        return
    frame = LOW.frame(manifest.load_deck("classic"))
    x0, y0, x1, y1 = layout.elements[0].box.resolve(frame)
    assert all(isinstance(v, float) for v in (x0, y0, x1, y1))


def designer_deck(tmp_path: Path, layout_text: str, deck_keys: str = "", kind_keys: str = "") -> Path:
    """The woodland example copied with a layout of its own beside the manifest."""
    folder = tmp_path / "deck"
    shutil.copytree(WOODLAND, folder)
    (folder / "layouts").mkdir()
    (folder / "layouts" / "mine.toml").write_text(layout_text, encoding="utf-8")
    text = (folder / "woodland.toml").read_text(encoding="utf-8")
    text = text.replace('card_size = "uno"\n', f'card_size = "uno"\n{deck_keys}')
    text = text.replace('icon = "icons/steal.svg"\n', f'icon = "icons/steal.svg"\n{kind_keys}')
    (folder / "woodland.toml").write_text(text, encoding="utf-8")
    return folder / "woodland.toml"


MINE = """
[layout]
name = "Mine"
description = "a designer's own"

[elements.background]
[elements.frame]
shape = "rounded"
box = { left = 10, right = 10, top = "30%", bottom = "30%" }
[elements.index]
box = { left = 0, top = 0, width = 24, height = 20 }
[elements.symbol]
box = { width = 40, height = 36 }
tilt = 0
"""


def test_a_designers_layout_beside_the_manifest_is_used_and_listed(tmp_path):
    path = designer_deck(tmp_path, MINE, deck_keys='layout = "mine"\n')
    deck = manifest.load_deck(path)
    assert deck.layout == "mine"
    spec = face_spec(deck, "fox-7", False)
    assert spec.layout is not None and spec.layout.name == "Mine"
    assert {p.el.name for p in plan_face(spec, LOW.frame(deck)).placed} == {"background", "frame", "index", "symbol"}
    from click.testing import CliRunner

    from deckgen.cli import main

    out = CliRunner().invoke(main, ["list", "--deck", str(path), "--json"])
    assert out.exit_code == 0, out.output
    rows = {r["name"]: r for r in json.loads(out.output)["layouts"]}
    assert rows["mine"]["origin"] == "deck" and rows["uno"]["origin"] == "bundled"
    assert rows["mine"]["file"].endswith("layouts/mine.toml")


def test_an_unknown_layout_is_an_error_naming_the_key_with_a_suggestion(tmp_path):
    path = designer_deck(tmp_path, MINE, deck_keys='layout = "minimall"\n')
    result = manifest.load(path)
    assert result.deck is None
    f = next(f for f in result.errors if f.where == "deck.layout")
    assert "minimall" in f.message and "minimal" in (f.hint or "")


def test_a_kind_chooses_its_layout_and_hides_elements(tmp_path):
    path = designer_deck(tmp_path, MINE, kind_keys='layout = "full-art"\nhide = ["caption"]\n')
    deck = manifest.load_deck(path)
    spec = face_spec(deck, "fox-steal", False)
    assert spec.layout is not None and spec.layout.id == "full-art"
    assert "caption" not in {p.el.name for p in plan_face(spec, LOW.frame(deck)).placed}
    assert face_spec(deck, "fox-7", False).layout.id == "uno"


def test_woodland_shows_its_night_art_unobstructed_with_the_full_art_layout():
    deck = manifest.load_deck("woodland")
    spec = face_spec(deck, "night", False)
    assert spec.layout.id == "full-art"
    placed = {p.el.name: p for p in plan_face(spec, LOW.frame(deck)).placed}
    assert placed["art"].data["mode"] == "bleed" and "symbol" not in placed and "frame" in placed
    img = render_face(deck, "night", LOW)
    w, h = img.size
    assert img.getpixel((w // 2, h // 2)) != (22, 22, 22)        # the sky, not the wild's dark field


def test_symbol_none_and_an_empty_label_leave_the_centre_to_the_art():
    deck = manifest.load_deck("woodland")
    acorns = deck.kinds["acorns"]
    for kind in (replace(acorns, label=Names({"es": "", "en": ""})), replace(acorns, symbol="none")):
        d = replace(deck, kinds={**deck.kinds, "acorns": kind})
        spec = face_spec(d, "fish-acorns", False)
        if kind.symbol == "none":
            assert spec.centre.symbol is None
        else:
            assert spec.centre.text == ""
        assert spec.index.text == "+2"                # the corners still say what the card does


def test_hiding_the_symbol_changes_the_face_and_the_check_accepts_symbol_none():
    deck = manifest.load_deck("classic")
    skip = deck.kinds["skip"]
    plain = render_face(deck, "red-skip", LOW)
    hidden = render_face(replace(deck, kinds={**deck.kinds, "skip": replace(skip, hide=("symbol",))}), "red-skip", LOW)
    assert plain.tobytes() != hidden.tobytes()
    from deckgen.render.checks import KNOWN

    assert "none" in KNOWN


def test_every_bundled_layout_draws_every_kind_of_face():
    for name in ("classic", "flex-spectrum"):
        deck = manifest.load_deck(name)
        for lid, lay in layouts().items():
            d = replace(deck, back_layout=lid) if lay.target == "back" else replace(deck, layout=lid)
            for fid in (["back"] if lay.target == "back" else ["red-7", "wild", "power-green"]):
                if fid not in {c.id for c in d.cards} | {"back", "power-green"}:
                    continue
                if fid == "power-green" and name != "flex-spectrum":
                    continue
                img = render_face(d, fid, LOW)
                assert len(img.getcolors(1 << 16) or []) > 3, (lid, fid)


def test_a_manifest_may_give_an_empty_label_and_symbol_none(tmp_path):
    """The centre kept clear for a picture; without one the card has no centre, and check says so."""
    from deckgen.check import check
    from deckgen.stages import CheckOptions

    bare = designer_deck(tmp_path / "bare", MINE, kind_keys='label = ""\nsymbol = "none"\n')
    (f,) = [f for f in check(bare, CheckOptions(simulate=False)).findings if f.code == "no-centre"]
    assert f.is_error and f.where == "kinds.steal" and "'fox-steal'" in f.message
    path = designer_deck(tmp_path, MINE, kind_keys='label = ""\nsymbol = "none"\nart = "art/moon.svg"\n')
    report = check(path, CheckOptions(simulate=False))
    assert report.deck is not None
    assert not [f for f in report.findings if f.where.startswith("kinds.steal")], report.findings
    spec = face_spec(report.deck, "fox-steal", False)
    assert spec.centre.text == "" and spec.centre.symbol is None
    plan = plan_face(spec, LOW.frame(report.deck))
    assert plan.get("symbol").data["items"] == []            # not even the kind's icon: the art is unobstructed


def test_the_example_in_docs_layouts_is_a_working_layout(tmp_path):
    doc = (ROOT / "docs" / "layouts.md").read_text(encoding="utf-8")
    block = next(b.split("```", 1)[0] for b in doc.split("```toml\n")[1:] if b.startswith("[layout]"))
    path = designer_deck(tmp_path, block, deck_keys='layout = "mine"\n')
    deck = manifest.load_deck(path)
    assert face_spec(deck, "fox-7", False).layout.name == "Woodland"
    from deckgen.render.audit import check_fit

    assert check_fit(deck) == []
    assert render_face(deck, "fox-7", LOW).size == LOW.frame(deck).full


def test_every_bundled_layout_is_documented_and_in_the_gallery():
    layouts_doc = (ROOT / "docs" / "layouts.md").read_text(encoding="utf-8")
    gallery = (ROOT / "docs" / "gallery.md").read_text(encoding="utf-8")
    bundled = sorted(p.stem for p in (ROOT / "decks" / "layouts").glob("*.toml"))
    assert len(bundled) >= 6
    for name in bundled:
        assert f"| `{name}` |" in layouts_doc, name
        assert f"(gallery/{name}.png)" in gallery and (ROOT / "docs" / "gallery" / f"{name}.png").is_file(), name
        assert (ROOT / "docs" / "gallery" / f"{name}.png").stat().st_size < 60_000, name


ICONS = """
[layout]
name = "Icons"
[elements.background]
[elements.frame]
shape = "none"
[elements.index]
box = { left = 0, top = 0, width = 20, height = 17 }
[elements.icons]
box = { left = 0, bottom = 0, width = 40, height = 12 }
show = ["action"]
[elements.symbol]
box = { width = 60, height = 56 }
tilt = 0
visible = false
"""


def test_icons_show_and_visible(tmp_path):
    path = designer_deck(tmp_path, ICONS, deck_keys='layout = "mine"\n')
    deck = manifest.load_deck(path)
    frame = LOW.frame(deck)
    names = {fid: {p.el.name for p in plan_face(face_spec(deck, fid, True), frame).placed} for fid in ("owl-skip", "fox-7")}
    assert "icons" in names["owl-skip"] and "icons" not in names["fox-7"]          # show = ["action"]
    assert "symbol" not in names["owl-skip"]                                       # visible = false
    icons = plan_face(face_spec(deck, "owl-skip", True), frame).get("icons")
    assert [name for name, *_ in icons.data["items"]] == ["star", "skip"]           # the owl's shape cue, then the kind
    img = render_face(deck, "owl-skip", replace(LOW, symbols=True))
    x0, y0, x1, y1 = (round(v) for v in icons.el.box.resolve(frame))
    assert len(img.crop((x0, y0, x1, y1)).getcolors(1 << 16)) > 2


def test_a_face_layout_may_show_the_decks_logo(tmp_path):
    text = ICONS + '[elements.logo]\nbox = { right = 0, bottom = 0, width = 30, height = 20 }\n'
    path = designer_deck(tmp_path, text, deck_keys='layout = "mine"\n')
    deck = manifest.load_deck(path)
    frame = LOW.frame(deck)
    plan = plan_face(face_spec(deck, "fox-7", True), frame)
    logo = plan.get("logo")
    assert logo is not None and face_spec(deck, "fox-7", True).logo == deck.logo
    x0, y0, x1, y1 = (round(v) for v in logo.rects[0])
    img = render_face(deck, "fox-7", LOW)
    assert len(img.crop((x0, y0, x1, y1)).getcolors(1 << 16)) > 4
    assert face_spec(manifest.load_deck("woodland"), "fox-7", True).logo is None      # the default face has none


def test_a_back_layout_may_put_the_back_image_in_a_box(tmp_path):
    text = """
[layout]
name = "Boxed back"
for = "back"
[elements.background]
[elements.image]
box = { left = 4, right = 4, top = 4, bottom = 4 }
[elements.logo]
box = { width = 40, height = 40 }
"""
    path = designer_deck(tmp_path, "[layout]\nname = \"x\"\n[elements.background]\n", deck_keys='back_layout = "boxed"\n')
    (path.parent / "layouts" / "boxed.toml").write_text(text, encoding="utf-8")
    deck = manifest.load_deck(path)
    frame = LOW.frame(deck)
    spec = face_spec(deck, "back", False)
    plan = plan_face(spec, frame)
    image = plan.get("image")
    assert image.data["box"] != frame.full and image.rects
    img = render_face(deck, "back", LOW)
    assert img.getpixel((1, 1)) == (18, 18, 18)              # the back's field round the boxed picture
    x0, y0, x1, y1 = (round(v) for v in image.rects[0])
    assert img.getpixel(((x0 + x1) // 2, y0 + 3)) != (18, 18, 18)


def test_a_square_flex_card_keeps_its_name_where_a_small_one_fits_and_reports_it_where_none_does():
    """docs/layouts.md, "Fitting": on the square shop card the oval's ends are under the two Flex
    badges; a caption that meets them everywhere along the oval goes, smaller but never under
    6 pt, wherever it stays inside the oval and clear of everything; else it is left out, and said."""
    from deckgen.render.audit import check_fit
    from deckgen.render.draw import SQUEEZE_MIN_PT, overlaps, pt_px
    from deckgen.render.fit import target

    deck = manifest.load_deck("flex-spectrum")
    frame = target("tgc-square", deck).frame()
    plan = plan_face(face_spec(deck, "red-skip-flex-skip-all", True), frame)
    cap = plan.get("caption")
    assert cap is not None and not plan.misfits
    assert cap.data["font"].size >= pt_px(SQUEEZE_MIN_PT, frame)
    others = [rc for q in plan.placed if q is not cap and q.el.type not in ("background", "frame", "art")
              for rc in q.rects]
    assert cap.rects and not any(overlaps(a, b) for a in cap.rects for b in others)
    l, t, r, b = frame.safe_box
    assert all(x0 >= l and y0 >= t and x1 <= r and y1 <= b for x0, y0, x1, y1 in cap.rects)
    plan = plan_face(face_spec(deck, "red-reverse-flex-skip", True), frame)
    assert plan.get("caption") is None
    assert any(m.element == "caption" and "left out" in m.message for m in plan.misfits)
    found = check_fit(deck, ["tgc-square"])
    assert any("red-reverse-flex-skip" in f.message for f in found)
    assert not any("red-skip-flex-skip-all" in f.message for f in found)


def test_a_caption_breaks_into_as_many_lines_as_its_layout_allows(tmp_path):
    """`lines` took 1 to 4, but a caption broke into two lines at most: lines = 3 did nothing. A
    long name now takes the lines its layout gives it, at a larger size; the small-text hint
    suggests another line only where one is left."""
    from deckgen.render.audit import _small_hint
    from deckgen.render.text import split_lines

    assert split_lines("COMODÍN DE INTERCAMBIO DE MANOS", 14) == ["COMODÍN DE", "INTERCAMBIO DE MANOS"]
    assert split_lines("COMODÍN DE INTERCAMBIO DE MANOS", 14, 3) == ["COMODÍN DE", "INTERCAMBIO", "DE MANOS"]
    assert split_lines("COMODÍN ROBA CUATRO", 14, 4) == ["COMODÍN", "ROBA CUATRO"]     # two lines are enough
    assert split_lines("A B", 1, 4) == ["A", "B"] and split_lines("WILD", 2, 3) == ["WILD"]
    uno = (ROOT / "decks" / "layouts" / "uno.toml").read_text(encoding="utf-8")
    plans = {}
    for n in (2, 3, 4):
        text = uno.replace('[elements.caption]\nplace = "frame"', f'[elements.caption]\nplace = "frame"\nlines = {n}')
        assert text != uno
        path = designer_deck(tmp_path / str(n), text, deck_keys='layout = "mine"\n')
        path.write_text(path.read_text(encoding="utf-8").replace(
            'name = { es = "Robo", en = "Steal" }', 'name = { es = "Robo de una carta de otra mano", en = "Steal" }'),
            encoding="utf-8")
        deck = manifest.load_deck(path)
        spec = face_spec(deck, "fox-steal", False)
        plans[n] = plan_face(spec, RenderSettings(dpi=300).frame(deck))
    caption = {n: next(p for p in plan.placed if p.el.name == "caption") for n, plan in plans.items()}
    lines = {n: [line for line, _ in c.data["lines"]] for n, c in caption.items()}
    assert [len(lines[n]) for n in (2, 3, 4)] == [2, 3, 3]              # 3 lines are within 14 characters
    assert all(" ".join(x) == "ROBO DE UNA CARTA DE OTRA MANO" for x in lines.values())
    assert caption[3].data["font"].size > caption[2].data["font"].size
    assert "lines = 3" in _small_hint(plans[2], "caption")
    assert "lines =" not in _small_hint(plans[3], "caption")        # a fourth line would not break it again


def test_the_symbols_halo_on_art_is_the_layouts(tmp_path):
    """`halo` on the symbol element was accepted (0 to 10) and never read: the halo was always 2.2
    units. It now sets the white halo the centre number has on art; 0, no halo, is refused (the
    number on art needs it to read)."""
    uno = (ROOT / "decks" / "layouts" / "uno.toml").read_text(encoding="utf-8")
    white = {}
    for halo in (None, 2.2, 6):
        text = uno if halo is None else uno.replace("[elements.symbol]\n", f"[elements.symbol]\nhalo = {halo}\n")
        path = designer_deck(tmp_path / str(halo), text, deck_keys='layout = "mine"\n')
        deck = manifest.load_deck(path)
        img = render_face(deck, "fox-7", LOW)
        rgb = img.convert("RGB").tobytes()
        white[halo] = sum(1 for i in range(0, len(rgb), 3) if rgb[i:i + 3] == b"\xff\xff\xff")
    assert white[None] == white[2.2] < white[6]
    with pytest.raises(DeckgenError) as err:
        parse_layout(str(write(tmp_path, uno.replace("[elements.symbol]\n", "[elements.symbol]\nhalo = 0\n"))))
    assert any(f.where == "elements.symbol.halo" for f in err.value.findings)


def test_the_frames_rim_is_the_layouts(tmp_path):
    """`rim` on the frame element was accepted (0 to 20) and never read: the white border round a
    wild's colours and the art was always 1.6 units. It is now the layout's."""
    uno = (ROOT / "decks" / "layouts" / "uno.toml").read_text(encoding="utf-8")
    white = {}
    for rim in (None, 1.6, 5):
        text = uno if rim is None else uno.replace("[elements.frame]\n", f"[elements.frame]\nrim = {rim}\n")
        folder = tmp_path / str(rim)
        (folder / "layouts").mkdir(parents=True)
        (folder / "layouts" / "mine.toml").write_text(text, encoding="utf-8")
        classic = (ROOT / "decks" / "classic.toml").read_text(encoding="utf-8")
        (folder / "deck.toml").write_text(classic.replace("[deck]\n", '[deck]\nlayout = "mine"\n', 1), encoding="utf-8")
        deck = manifest.load_deck(folder / "deck.toml")
        assert face_spec(deck, "wild", False).layout.name == "UNO" and deck.layout == "mine"
        rgb = render_face(deck, "wild", LOW).convert("RGB").tobytes()
        white[rim] = sum(1 for i in range(0, len(rgb), 3) if rgb[i:i + 3] == b"\xff\xff\xff")
    assert white[None] == white[1.6] < white[5]
