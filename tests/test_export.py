"""Exports: Tabletop Simulator sheets and print-shop files."""

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
    Service,
    cell_px,
    export_cards,
    export_tts,
    get_service,
    grid_for,
    load_services,
)
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
    return deck, export_tts(deck, tmp_path_factory.mktemp("tts"), cache_dir=cache, max_side=1024)


def test_tts_grid_rules():
    for n in range(1, 70):
        cols, rows = grid_for(n)
        assert cols <= MAX_COLS and rows <= MAX_ROWS and cols * rows >= n + 1
    for size in ((56, 87), (63.5, 88.9), (70, 70), (120, 80)):
        w, h = cell_px(size)
        assert w * MAX_COLS <= MAX_SIDE and h * MAX_ROWS <= MAX_SIDE
        assert w / h == pytest.approx(size[0] / size[1], rel=0.01)


def test_tts_sheets_respect_the_limits_and_hold_every_card(power_tts):
    deck, res = power_tts
    playing = [s for s in res.sheets if not s.backs]
    assert sum(s.cards for s in playing) == deck.total == 72
    assert [s.cards for s in playing] == [69, 3]
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
    assert len(power) == 1 and power[0].cards == 3
    with Image.open(power[0].path) as f, Image.open(power[0].backs) as b:
        assert f.size == b.size and ImageChops.difference(f.convert("RGB"), b.convert("RGB")).getbbox()
    text = res.howto.read_text("utf-8")
    for s in res.sheets:
        assert s.path.name in text and f"Number {s.cards}" in text
    assert "Width 10, Height 7" in text


def test_tts_full_size_jpeg(tmp_path, cache):
    deck = manifest.load_deck("classic")
    res = export_tts(deck, tmp_path, fmt="jpeg", cache_dir=cache)
    assert [s.cards for s in res.sheets] == [69, 39]
    for path in [s.path for s in res.sheets] + [res.back]:
        assert path.suffix == ".jpg"
        with Image.open(path) as im:
            assert im.format == "JPEG" and im.mode == "RGB"
            assert max(im.size) <= MAX_SIDE
    with Image.open(res.sheets[0].path) as im:
        assert im.height > 0.9 * MAX_SIDE           # as large as the limits allow


def test_service_presets_are_data():
    generic = get_service("generic")
    assert generic.dpi == 300 and generic.bleed_mm == pytest.approx(3.175)
    assert "generic" in load_services()
    with pytest.raises(DeckgenError) as exc:
        get_service("generik")
    assert "did you mean 'generic'" in str(exc.value)


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
    return deck, svc, export_cards(deck, svc, tmp_path_factory.mktemp("shop"), cache_dir=cache)


def test_print_shop_images_at_service_size(shop):
    deck, svc, res = shop
    expected = tuple(round((s + 2 * 3.175) * 72 / 25.4) for s in (56, 87))
    assert res.size_px == expected
    assert len(res.images) == len(deck.cards) + 1
    for path in res.images:
        with Image.open(path) as im:
            assert im.size == expected and im.mode == "RGB"
            assert round(im.info["dpi"][0]) == 72


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


def test_cli_export_commands(tmp_path, cache, monkeypatch):
    monkeypatch.setenv("DECKGEN_CACHE", str(cache))
    runner = CliRunner()
    result = runner.invoke(main, ["export", "tts", "classic", "-o", str(tmp_path / "tts"), "--max-side", "1024"])
    assert result.exit_code == 0, result.output
    assert "classic-tts-1.png" in result.output and (tmp_path / "tts" / "classic-tts-import.txt").is_file()
    bad = runner.invoke(main, ["export", "cards", "classic", "--service", "nope", "-o", str(tmp_path)])
    assert bad.exit_code == 2 and "nope" in bad.output
