"""Exports: Tabletop Simulator sheets and print-shop files."""

import re
from pathlib import Path

import pypdf
import pytest
from click.testing import CliRunner
from PIL import Image, ImageChops

from deckgen import manifest
from deckgen.cli import main
from deckgen.errors import DeckgenError
from deckgen.export import (
    MAX_COLS,
    MAX_ROWS,
    MAX_SIDE,
    ExportRun,
    Service,
    cell_px,
    export_cards,
    export_tts,
    get_service,
    grid_for,
    load_services,
)
from deckgen.export.services import services_file
from deckgen.units import mm_to_pt


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("cache")


POWER_DECK = """
[deck]
id = "mini-power"
name = "Mini Power"
language = "en"
players = { min = 2, max = 4 }
hand_size = 5
palette = "classic"
[rules]
preset = "classic"
[scoring]
target = 100
[scoring.points]
number = "face"
[[cards]]
kind = "number"
colors = "all"
values = [1, 2, 3, 4, 5, 6, 7, 8, 9]
count = 2
[[components]]
id = "power"
kind = "power"
count = 3
name = { en = "Power card" }
faces = ["power-green", "power-red"]
"""


@pytest.fixture(scope="module")
def power_tts(tmp_path_factory, cache):
    path = tmp_path_factory.mktemp("deck") / "mini-power.toml"
    path.write_text(POWER_DECK, encoding="utf-8")
    deck = manifest.load_deck(path)
    return deck, export_tts(deck, tmp_path_factory.mktemp("tts"), run=ExportRun(cache_dir=cache), max_side=1024)


def test_tts_grid_rules():
    for n in range(1, 70):
        cols, rows = grid_for(n)
        assert cols <= MAX_COLS and rows <= MAX_ROWS and cols * rows >= n + 1
        assert cols >= 2 and rows >= 2           # TTS's Custom Deck dialog takes no grid narrower than 2 x 2
    for size in ((56, 87), (63.5, 88.9), (70, 70), (120, 80)):
        w, h = cell_px(size)
        assert w * MAX_COLS <= MAX_SIDE and h * MAX_ROWS <= MAX_SIDE
        assert w / h == pytest.approx(size[0] / size[1], rel=0.01)


def test_tts_sheets_respect_the_limits_and_hold_every_card(power_tts):
    deck, res = power_tts
    playing = [s for s in res.sheets if not s.backs]
    assert sum(s.total for s in playing) == deck.total == 72       # every copy, in cells of their own face
    assert [s.cards for s in playing] == [36]                       # one cell per distinct face
    assert all(s.cards <= 69 for s in res.sheets)
    with Image.open(res.back) as back:
        back = back.convert("RGB")
        for s in res.sheets:
            with Image.open(s.path) as im:
                assert im.mode == "RGB" and im.width <= 1024 and im.height <= 1024
                assert (im.width, im.height) == (s.cols * res.cell_px[0], s.rows * res.cell_px[1])
                assert s.cols <= MAX_COLS and s.rows <= MAX_ROWS
                cw, ch = res.cell_px
                hidden = im.crop(((s.cols - 1) * cw, (s.rows - 1) * ch, s.cols * cw, s.rows * ch))
                assert ImageChops.difference(hidden, back).getbbox() is None, "last cell is the hidden image"
    power = [s for s in res.sheets if s.backs]
    assert len(power) == 1 and power[0].cards == 1 and power[0].total == 3
    with Image.open(power[0].path) as f, Image.open(power[0].backs) as b:
        assert f.size == b.size and ImageChops.difference(f.convert("RGB"), b.convert("RGB")).getbbox()
    text = res.howto.read_text("utf-8")
    for s in res.sheets:
        assert s.path.name in text and f"Number {s.cards}" in text
    assert "Width 10, Height 4" in text and "72 cards with their copies" in text
    assert "Width 2, Height 2, Number 1" in text and "Height 1," not in text      # the Power card's sheet


def test_tts_full_size_jpeg(tmp_path, cache):
    deck = manifest.load_deck("classic")
    res = export_tts(deck, tmp_path, fmt="jpeg", run=ExportRun(cache_dir=cache))
    assert [s.cards for s in res.sheets] == [54] and res.sheets[0].total == 108      # one sheet, copies shared
    for path in [s.path for s in res.sheets] + [res.back]:
        assert path.suffix == ".jpg"
        with Image.open(path) as im:
            assert im.format == "JPEG" and im.mode == "RGB"
            assert max(im.size) <= MAX_SIDE
    with Image.open(res.sheets[0].path) as im:
        assert im.width > 0.9 * MAX_SIDE            # as large as the limits allow


def test_service_presets_are_data():
    own = get_service("own-size")
    assert own.dpi == 300 and own.bleed_mm == pytest.approx(3.175) and own.card_size is None and own.shop is None
    services = load_services()
    assert "generic" not in services        # 736 x 1103 px: no shop's template
    with pytest.raises(DeckgenError) as exc:
        get_service("tgc-pokr")
    assert "did you mean 'tgc-poker'" in str(exc.value)


# The shops' published template figures (sources in decks/services.toml's comments).
SHOP_TEMPLATES = {
    # id: (shop, pixels, trim in inches, bleed in, safe in)
    "tgc-poker": ("The Game Crafter", (825, 1125), (2.5, 3.5), 0.125, 0.125),
    "tgc-bridge": ("The Game Crafter", (750, 1125), (2.25, 3.5), 0.125, 0.125),
    "tgc-mini": ("The Game Crafter", (600, 825), (1.75, 2.5), 0.125, 0.125),
    "tgc-tarot": ("The Game Crafter", (900, 1500), (2.75, 4.75), 0.125, 0.125),
    "tgc-square": ("The Game Crafter", (1125, 1125), (3.5, 3.5), 0.125, 0.125),
    "dtc-poker": ("DriveThruCards", (825, 1125), (2.5, 3.5), 0.125, 0.125),
    "mpc-poker": ("MakePlayingCards", (822, 1122), (2.5, 3.5), 0.12, None),
}


@pytest.mark.parametrize("sid", sorted(SHOP_TEMPLATES))
def test_shop_presets_match_the_published_templates(sid):
    from deckgen.render.geometry import card_size_mm

    shop, pixels, trim_in, bleed_in, safe_in = SHOP_TEMPLATES[sid]
    svc = get_service(sid)
    assert svc.shop == shop and shop in svc.name and svc.source
    assert svc.dpi == 300 and svc.pixels == pixels
    trim = card_size_mm(svc.card_size)
    assert trim == pytest.approx((trim_in[0] * 25.4, trim_in[1] * 25.4))
    assert svc.bleed_mm == pytest.approx(bleed_in * 25.4)
    assert (svc.safe_mm is None) == (safe_in is None)
    if safe_in is not None:
        assert svc.safe_mm == pytest.approx(safe_in * 25.4)
    assert svc.full_px(trim) == pixels
    text = (Path(services_file())).read_text("utf-8")
    assert f"[{sid}]" in text and shop in text


def test_services_file_names_each_shop_as_the_source():
    text = Path(services_file()).read_text("utf-8")
    comments = "\n".join(line for line in text.splitlines() if line.startswith("#"))
    for shop in ("The Game Crafter", "DriveThruCards", "MakePlayingCards"):
        assert re.search(rf"{shop}'s? ", comments), shop
    assert "not found" in comments          # a figure that could not be found says so


def test_template_pixels_must_match_the_other_figures(tmp_path):
    bad = tmp_path / "services.toml"
    bad.write_text('[x]\ndpi = 300\nbleed = "0.125in"\ncard_size = "2.5in x 3.5in"\npixels = "800x1100"\n',
                   encoding="utf-8")
    with pytest.raises(DeckgenError) as exc:
        load_services(bad)
    f = exc.value.findings[0]
    assert f.where == "x.pixels" and "825x1125" in f.message and f.file == str(bad)


def test_bad_services_file_reports_every_problem(tmp_path):
    bad = tmp_path / "services.toml"
    bad.write_text('[a]\ndpi = 10\nbleed = "three"\n[b]\ndpi = 300\nbleed = "3mm"\ncolour = "x"\n', encoding="utf-8")
    with pytest.raises(DeckgenError) as exc:
        load_services(bad)
    where = {f.where for f in exc.value.findings}
    assert {"a.dpi", "a.bleed", "b.colour"} <= where
    assert all(f.file == str(bad) for f in exc.value.findings)


@pytest.fixture(scope="module")
def shop(tmp_path_factory, cache):
    deck = manifest.load_deck("classic")
    svc = Service("test", "Test: 72 dpi, 1/8 in bleed", 72, 3.175)
    return deck, svc, export_cards(deck, svc, tmp_path_factory.mktemp("shop"), run=ExportRun(cache_dir=cache))


def test_print_shop_images_at_service_size(shop):
    deck, svc, res = shop
    expected = tuple(round((s + 2 * 3.175) * 72 / 25.4) for s in (56, 87))
    assert res.size_px == expected
    assert len(res.images) == len(deck.cards) + 1
    for path in res.images:
        with Image.open(path) as im:
            assert im.size == expected and im.mode == "RGB"
            assert round(im.info["dpi"][0]) == 72
    assert res.warnings == ()


def test_print_shop_pdf_trim_and_bleed_boxes(shop):
    deck, svc, res = shop
    reader = pypdf.PdfReader(res.pdf)
    assert len(reader.pages) == res.pages == 2 * deck.total
    b = mm_to_pt(3.175)
    w, h = mm_to_pt(56 + 2 * 3.175), mm_to_pt(87 + 2 * 3.175)
    xobjects = set()
    for page in reader.pages[:20]:
        assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, w, h], abs=0.01)
        assert [float(v) for v in page.bleedbox] == pytest.approx([0, 0, w, h], abs=0.01)
        assert [float(v) for v in page.trimbox] == pytest.approx([b, b, w - b, h - b], abs=0.01)
    for page in reader.pages:
        xobjects.update(ref.idnum for ref in page["/Resources"]["/XObject"].values())
    assert len(xobjects) == len(deck.cards) + 1          # each face stored once
    rows = res.quantities.read_text("utf-8").splitlines()
    assert rows[0] == "front,back,count" and sum(int(r.rsplit(",", 1)[1]) for r in rows[1:]) == 108


@pytest.fixture(scope="module")
def tgc(tmp_path_factory, cache):
    from deckgen.selection import select

    # the faces looked at below, at the shop's 300 dpi (a face's pixels do not depend on the rest of the deck)
    deck = select(manifest.load_deck("classic"), "red-7,wild-draw-four")
    return deck, export_cards(deck, get_service("tgc-poker"), tmp_path_factory.mktemp("tgc"), run=ExportRun(cache_dir=cache))


@pytest.mark.slow
def test_tgc_poker_faces_are_the_template_size_with_content_in_its_safe_zone(tgc):
    deck, res = tgc
    assert res.size_px == (825, 1125) and res.warnings == ()
    # the shop's safe zone: 1/8 in inside the cut line = 75 px from the image edge at 300 dpi
    assert res.shop_safe_box == (75, 75, 750, 1050)
    l, t, r, b = res.safe_box
    assert l >= 75 and t >= 75 and r <= 750 and b <= 1050
    with Image.open(res.folder / "faces" / "back.png") as im:
        assert im.size == (825, 1125)
    for face in ("red-7", "wild-draw-four"):
        with Image.open(res.folder / "faces" / f"{face}.png") as im:
            im = im.convert("RGB")
            # everything that is not the field colour lies inside the shop's safe zone
            field = im.getpixel((5, 5))
            diff = ImageChops.difference(im, Image.new("RGB", im.size, field)).convert("L").point(lambda v: 255 if v > 40 else 0)
            bbox = diff.getbbox()
            assert bbox and bbox[0] >= 75 - 2 and bbox[1] >= 75 - 2 and bbox[2] <= 750 + 2 and bbox[3] <= 1050 + 2
    reader = pypdf.PdfReader(res.pdf)
    page = reader.pages[0]
    assert [round(float(v), 2) for v in page.mediabox] == [0, 0, 198.0, 270.0]      # 2.75 x 3.75 in
    assert [round(float(v), 2) for v in page.trimbox] == [9.0, 9.0, 189.0, 261.0]


@pytest.mark.parametrize("service,size", [("own-size", (736, 1103)), ("own-size-3mm", (732, 1098)),
                                          ("tgc-poker", (825, 1125)), ("mpc-poker", (822, 1122))])
def test_faces_are_drawn_at_the_documented_size_and_no_preset_warns_about_itself(service, size):
    """Trim and bleed rounded to the pixel as one length, half up: 56 x 87 mm with 1/8 in of bleed is
    62.35 x 93.35 mm, 736 x 1103 px at 300 dpi (docs/cli.md); with 3 mm, 62 x 93 mm, 732 x 1098 px."""
    from deckgen.export.printshop import geometry
    from deckgen.render.geometry import Frame

    deck = manifest.load_deck("classic")
    geo = geometry(deck, get_service(service))
    assert geo.size_px == size and geo.warnings == ()
    assert Frame(geo.trim_mm, 300, geo.bleed_mm, geo.render_safe_mm).full == size      # the renderer's own size
    docs = (Path(__file__).resolve().parents[1] / "docs" / "cli.md").read_text("utf-8")
    assert f"{size[0]} × {size[1]}" in docs


def test_safe_override_inside_the_shop_border_warns():
    from deckgen.export.printshop import geometry

    deck = manifest.load_deck("classic")
    geo = geometry(deck, get_service("tgc-poker"), safe_mm=1.0)
    assert [w.code for w in geo.warnings] == ["safe-zone"]
    # 1 mm instead of 1/8 in: the renderer's safe box starts 4.175 mm (49 px) in, the shop's 6.35 mm (75 px)
    assert geo.safe_box[0] == 49 and geo.shop_safe_box[0] == 75
    assert "26 px" in geo.warnings[0].message and "The Game Crafter" in geo.warnings[0].message
    assert geometry(deck, get_service("tgc-poker")).warnings == ()
    size = geometry(deck, get_service("tgc-poker"), card_size="bridge", bleed_mm=3.0)
    assert [w.code for w in size.warnings] == ["template-size"] and "825x1125" in size.warnings[0].message
    assert size.size_px == (746, 1121)
    none = geometry(deck, get_service("mpc-poker"), safe_mm=0.5)
    assert none.warnings == () and none.shop_safe_box is None      # no published safe zone to check


def test_drivethrucards_pdf_puts_each_back_before_its_front(tmp_path, cache):
    deck = manifest.load_deck(_tiny_deck(tmp_path))
    svc = get_service("dtc-poker")
    small = Service(svc.id, svc.name, 72, svc.bleed_mm, svc.card_size, svc.format, svc.safe_mm, None, svc.shop,
                    svc.source, svc.pdf_order)
    res = export_cards(deck, small, tmp_path / "dtc", run=ExportRun(cache_dir=cache))
    assert all(p.suffix == ".jpg" for p in res.images)
    reader = pypdf.PdfReader(res.pdf)
    first = {n for n in reader.pages[0]["/Resources"]["/XObject"]}
    backs = {n for n in reader.pages[2]["/Resources"]["/XObject"]}
    fronts = [set(reader.pages[i]["/Resources"]["/XObject"]) for i in (1, 3)]
    assert first == backs and fronts[0] != first      # page 1, 3: the back; 2, 4: the fronts


def _tiny_deck(tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text(POWER_DECK.replace('count = 3', 'count = 1').replace("values = [1, 2, 3, 4, 5, 6, 7, 8, 9]",
                                                                         "values = [1, 2]"), encoding="utf-8")
    return path


def test_cli_export_commands(tmp_path, cache, monkeypatch):
    monkeypatch.setenv("DECKGEN_CACHE", str(cache))
    runner = CliRunner()
    result = runner.invoke(main, ["export", "tts", "classic", "-o", str(tmp_path / "tts"), "--max-side", "1024"])
    assert result.exit_code == 0, result.output
    assert "classic-tts-1.png" in result.output and (tmp_path / "tts" / "classic-tts-import.txt").is_file()
    bad = runner.invoke(main, ["export", "cards", "classic", "--service", "nope", "-o", str(tmp_path)])
    assert bad.exit_code == 2 and "nope" in bad.output


def _file_path(url: str) -> Path:
    from urllib.parse import unquote, urlparse

    parsed = urlparse(url)
    assert parsed.scheme == "file" and parsed.netloc == ""
    return Path(unquote(parsed.path))


def test_tts_saved_object_refers_to_the_sheets_and_holds_every_card(power_tts):
    import json

    deck, res = power_tts
    assert res.saved_object.name == "mini-power-tts.json" and res.thumbnail.name == "mini-power-tts.png"
    data = json.loads(res.saved_object.read_text("utf-8"))
    assert data["SaveName"] == deck.name()
    playing, power = data["ObjectStates"]
    sheets = {s.path: s for s in res.sheets}
    for obj, want in ((playing, deck.total), (power, 3)):
        assert obj["Name"] == ("Deck" if len(obj["CustomDeck"]) > 1 else "DeckCustom")
        assert len(obj["DeckIDs"]) == len(obj["ContainedObjects"]) == want
        assert [c["CardID"] for c in obj["ContainedObjects"]] == obj["DeckIDs"]
        assert len(set(c["GUID"] for c in obj["ContainedObjects"])) == want
        for key, entry in obj["CustomDeck"].items():
            face = _file_path(entry["FaceURL"])
            back = _file_path(entry["BackURL"])
            assert face.is_absolute() and face.is_file() and back.is_file()
            sheet = sheets[face]
            assert (entry["NumWidth"], entry["NumHeight"]) == (sheet.cols, sheet.rows)
            assert entry["UniqueBack"] == (sheet.backs is not None)
            assert back == (sheet.backs or res.back)
            ids = [i for i in obj["DeckIDs"] if i // 100 == int(key)]
            assert sorted(set(ids)) == [int(key) * 100 + i for i in range(sheet.cards)]     # cell i of sheet key
            assert [ids.count(int(key) * 100 + i) for i in range(sheet.cards)] == list(sheet.copies)
            with Image.open(face) as im:                                        # the grid fits the image
                assert im.size == (sheet.cols * res.cell_px[0], sheet.rows * res.cell_px[1])
    names = [c["Nickname"] for c in playing["ContainedObjects"]]
    assert names.count(deck.cards[0].name(deck.language)) == deck.cards[0].count
    assert {c["Nickname"] for c in power["ContainedObjects"]} == {"Power card"}
    assert all(c["Name"] == "Card" and c["Hands"] for c in playing["ContainedObjects"])   # cards go into hands
    assert len(playing["CustomDeck"]) == 1 and len(power["CustomDeck"]) == 1


def test_tts_cards_carry_their_rules_as_the_rulebook_words_them(tmp_path, cache):
    # the tooltip TTS shows on a card: what it does, so a table new to a homemade card can read it
    import json

    from deckgen.rulebook.describe import group_text
    from deckgen.rulebook.groups import group_key, groups
    from deckgen.scaffold import new_deck

    deck = manifest.load_deck(new_deck("swapper", tmp_path, lang="es"))
    res = export_tts(deck, tmp_path / "tts", run=ExportRun(cache_dir=cache), max_side=1024)
    cards = json.loads(res.saved_object.read_text("utf-8"))["ObjectStates"][0]["ContainedObjects"]
    said = {c["Nickname"]: c["Description"] for c in cards}
    assert said["Comodín intercambio"] == ("Se juega sobre cualquier carta. Cambias tu mano entera por la de un "
                                           "jugador que elijas. Después eliges el color que hay que seguir (puedes "
                                           "mantener el actual).")
    assert said["Salta rojo"].endswith("El siguiente jugador pierde su turno.")
    by_key = {g.key: g for g in groups(deck)}
    for card in deck.cards:                                  # every card: the rulebook's own paragraphs
        text = "\n".join(group_text(deck, by_key[group_key(card)], "es"))
        assert said[card.name("es")] == text and "<" not in text and text


def test_tts_scale_gives_uno_cards_their_shape(power_tts):
    import json

    from deckgen.export.tts import TTS_CARD_ASPECT, card_scale

    deck, res = power_tts
    data = json.loads(res.saved_object.read_text("utf-8"))
    sx, sy, sz = card_scale((56, 87))
    assert (sx, sy, sz) == (pytest.approx(0.9012, abs=1e-4), 1.0, 1.0)
    # TTS's model is 2.5 x 3.5; scaled, its shape is the UNO card's 56 x 87 (without it, 11 % too wide)
    assert TTS_CARD_ASPECT * sx == pytest.approx(56 / 87, rel=1e-3)
    assert abs(TTS_CARD_ASPECT / (56 / 87) - 1.11) < 0.005
    assert card_scale((63.5, 88.9)) == (1.0, 1.0, 1.0)
    for obj in data["ObjectStates"]:
        for o in [obj, *obj["ContainedObjects"]]:
            t = o["Transform"]
            assert (t["scaleX"], t["scaleY"], t["scaleZ"]) == (sx, sy, sz)
    text = res.howto.read_text("utf-8")
    assert "Saved Objects" in text and res.saved_object.name in text
    for folder in ("Documents\\My Games\\Tabletop Simulator\\Saves\\Saved Objects",
                   "~/Library/Tabletop Simulator/Saves/Saved Objects",
                   "~/.local/share/Tabletop Simulator/Saves/Saved Objects"):
        assert folder in text
    with Image.open(res.thumbnail) as im:
        assert im.size == (256, 256)


def test_tts_no_mercy_fits_one_sheet(tmp_path, cache):
    deck = manifest.load_deck("no-mercy")
    res = export_tts(deck, tmp_path, run=ExportRun(cache_dir=cache), max_side=1024)
    playing = [s for s in res.sheets if s.component is None]
    assert len(playing) == 1 and playing[0].total == deck.total
    assert playing[0].cards == len({c.id for c in deck.cards}) <= 69


def test_tts_base_url_writes_the_public_address(power_tts, tmp_path, cache):
    import json

    deck, _ = power_tts
    res = export_tts(deck, tmp_path, run=ExportRun(cache_dir=cache), max_side=1024, base_url="https://example.org/decks/mini")
    data = json.loads(res.saved_object.read_text("utf-8"))
    urls = [v for obj in data["ObjectStates"] for entry in obj["CustomDeck"].values()
            for v in (entry["FaceURL"], entry["BackURL"])]
    assert urls and all(u.startswith("https://example.org/decks/mini/") for u in urls)
    names = {u.rsplit("/", 1)[1] for u in urls}
    assert names <= {p.name for p in tmp_path.iterdir()}            # each address names a file written here
    text = res.howto.read_text("utf-8")
    assert "https://example.org/decks/mini/" in text and all(n in text for n in names)
    with pytest.raises(DeckgenError) as exc:
        export_tts(deck, tmp_path, run=ExportRun(cache_dir=cache), max_side=1024, base_url="example.org/decks")
    assert "--base-url" in str(exc.value)


def test_tts_a_deck_over_several_sheets_is_named_deck(power_tts):
    from deckgen.export.tts import TtsSheet, saved_object

    deck, res = power_tts
    one = next(s for s in res.sheets if s.component is None)
    two = [one, TtsSheet(one.path, one.cards, one.cols, one.rows, faces=one.faces, copies=one.copies)]
    assert saved_object(deck, two, res.back, res.scale)["ObjectStates"][0]["Name"] == "Deck"
    assert saved_object(deck, [one], res.back, res.scale)["ObjectStates"][0]["Name"] == "DeckCustom"


def test_exports_check_image_resolution_at_their_own_size(tmp_path, cache):
    """A back image sharp enough at the deck's UNO size (300 dpi with bleed) is stretched to about 266 dpi on
    The Game Crafter's larger poker card: deckgen check says nothing, the export warns."""
    from deckgen.export.resolution import resolution_warnings
    from deckgen.render.look import look_check

    Image.new("RGB", (732, 1098), (30, 60, 120)).save(tmp_path / "back.png")
    path = _tiny_deck(tmp_path)
    path.write_text(path.read_text("utf-8").replace('palette = "classic"', 'palette = "classic"\nback_image = "back.png"'),
                    encoding="utf-8")
    deck = manifest.load_deck(path)
    assert not [w for w in look_check(deck) if w.code == "image-dpi"]
    svc = get_service("tgc-poker")
    found = resolution_warnings(deck, (63.5, 88.9),
                                svc.bleed_mm, svc.safe_mm, svc.dpi, "--service tgc-poker")
    assert [w.code for w in found] == ["image-dpi"] and "back.png" in found[0].message
    assert re.search(r"prints at 26\d dpi in --service tgc-poker", found[0].message)
    res = export_cards(deck, svc, tmp_path / "tgc", run=ExportRun(cache_dir=cache))
    assert any(w.code == "image-dpi" and "26" in w.message for w in res.warnings)


def test_a_shop_card_of_another_size_than_the_decks_is_said_with_the_nearest_preset(tgc, tmp_path):
    # seen: a 44 x 68 mm deck exported for tgc-poker came out as 63.5 x 88.9 mm cards without a word
    from deckgen.export.printshop import size_note

    deck, res = tgc                                                   # classic: UNO size, 56 x 87 mm
    assert res.resized == ("the deck's cards are 56 x 87 mm and these are 63.5 x 88.9 mm: every face is laid out "
                           "again at this size, not stretched; the preset nearest the deck's own size is tgc-bridge "
                           "(57.15 x 88.9 mm)")
    bridge = get_service("tgc-bridge")                                # the nearest itself: no advice to switch
    assert size_note(deck, (57.15, 88.9), bridge).endswith("not stretched")
    assert size_note(deck, (56.5, 87.5), get_service("own-size")) == ""          # within 1 mm: the same size
    path = tmp_path / "mini.toml"
    path.write_text(manifest.find_deck("classic").read_text("utf-8").replace('card_size = "uno"', 'card_size = "mini"'),
                    encoding="utf-8")
    mini = manifest.load_deck(path)
    assert mini.card_size == "mini"
    assert "the preset nearest the deck's own size is tgc-mini (44.45 x 63.5 mm)" in size_note(
        mini, (63.5, 88.9), get_service("tgc-poker"))
