"""render_deck: PNG sizes and metadata, the cache, parallel workers, byte-identical output."""

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from PIL import Image

from deckgen import manifest
from deckgen.errors import DeckgenError
from deckgen.render import RenderSettings, card_size_mm, render_deck, render_face
from deckgen.render.geometry import load_sizes

LOW = RenderSettings(dpi=50)


@pytest.fixture(scope="module")
def classic():
    return manifest.load_deck("classic")


def test_presets_from_data():
    sizes = load_sizes()
    assert sizes["poker"] == (63.5, 88.9) and sizes["bridge"] == (57.15, 88.9)
    assert sizes["uno"] == (56.0, 87.0) and sizes["tarot"] == (70.0, 120.0) and sizes["mini"] == (44.0, 68.0)
    assert card_size_mm("2.5in x 3.5in") == pytest.approx((63.5, 88.9))


def test_unknown_preset_suggests_the_nearest():
    with pytest.raises(DeckgenError) as exc:
        card_size_mm("pokr")
    assert "did you mean 'poker'" in str(exc.value)


def test_bad_sizes_file_reports_every_problem(tmp_path):
    bad = tmp_path / "sizes.toml"
    bad.write_text('[sizes.a]\nwidth = "sixty"\nheight = "90mm"\n[sizes.b]\nwidht = "60mm"\nheight = "1mm"\n', "utf-8")
    with pytest.raises(DeckgenError) as exc:
        load_sizes(bad)
    text = str(exc.value)
    assert "sizes.a.width" in text and "sizes.b.widht" in text and "did you mean 'width'" in text
    assert "sizes.b.height" in text and str(bad) in text


@hsettings(max_examples=12, deadline=None)
@given(dpi=st.integers(30, 90), bleed=st.sampled_from([0.0, 2.0, 3.0, 3.175]),
       size=st.sampled_from(["poker", "bridge", "uno", "tarot", "mini", "60mm x 90mm"]))
def test_pixel_size_matches_card_size_bleed_and_dpi(classic, dpi, bleed, size):
    s = RenderSettings(dpi=dpi, bleed_mm=bleed, card_size=size)
    w_mm, h_mm = card_size_mm(size)
    img = render_face(classic, "red-skip", s)
    def px(mm):                 # each length rounded to the pixel half up, the bleed included in it
        return int(mm * dpi / 25.4 + 0.5 + 1e-9)

    assert img.size == (px(w_mm + 2 * bleed), px(h_mm + 2 * bleed))
    assert img.mode == "RGB"


def test_pngs_record_dpi_and_physical_size(classic, tmp_path):
    res = render_deck(classic, LOW, tmp_path / "out", cache_dir=tmp_path / "cache")
    assert set(res.paths) >= {"red-0", "wild-draw-four", "back"}
    assert res.size_px == (122, 183) and res.trim_mm == (56.0, 87.0) and res.dpi == 50 and res.bleed_mm == 3.0
    with Image.open(res.paths["red-0"]) as im:
        assert im.size == res.size_px
        assert im.info["dpi"] == pytest.approx((50, 50), abs=0.05)
        assert im.text["deckgen:trim_mm"] == "56x87" and im.text["deckgen:size_mm"] == "62x93"
        assert im.text["deckgen:bleed_mm"] == "3" and im.text["deckgen:face"] == "red-0"
    assert res.paths["red-0"] == tmp_path / "out" / "red-0.png"
    assert not list((tmp_path / "out").glob(".tmp-*"))


def test_cache_skips_unchanged_faces_and_redraws_changed_ones(classic, tmp_path):
    cache = tmp_path / "cache"
    first = render_deck(classic, LOW, cache_dir=cache)
    assert first.drawn == len(first.paths) == 55
    assert all(str(p).startswith(str(cache)) for p in first.paths.values())
    again = render_deck(classic, LOW, cache_dir=cache)
    assert again.drawn == 0 and again.paths == first.paths
    recoloured = replace(classic, palette=manifest.apply_overrides(classic.palette, {"blue": "#0000AA"}))
    third = render_deck(recoloured, LOW, cache_dir=cache)
    blue_faces = [c.id for c in classic.cards if c.color == "blue"] + ["wild", "wild-draw-four"]
    assert third.drawn == len(blue_faces)
    assert render_deck(classic, LOW, cache_dir=cache, use_cache=False).drawn == 55


def test_same_inputs_give_byte_identical_pngs_serial_or_parallel(classic, tmp_path):
    a = render_deck(classic, LOW, tmp_path / "a", cache_dir=tmp_path / "c1", jobs=1)
    b = render_deck(classic, LOW, tmp_path / "b", cache_dir=tmp_path / "c2", jobs=2)
    for fid, path in a.paths.items():
        assert path.read_bytes() == b.paths[fid].read_bytes(), fid


def test_cache_location_follows_the_environment(classic, tmp_path, monkeypatch):
    monkeypatch.setenv("DECKGEN_CACHE", str(tmp_path / "env-cache"))
    res = render_deck(classic, LOW, jobs=1)
    assert all(str(p).startswith(str(tmp_path / "env-cache")) for p in res.paths.values())
    monkeypatch.delenv("DECKGEN_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    from deckgen.render.batch import cache_root
    assert cache_root() == tmp_path / "xdg" / "deckgen"


def test_progress_is_reported(classic, tmp_path):
    calls = []
    render_deck(classic, LOW, cache_dir=tmp_path / "c", jobs=1, progress=lambda *a: calls.append(a))
    assert calls[-1] == ("Rendering faces", 55, 55)


def test_bad_settings_are_unusable_input(classic):
    with pytest.raises(DeckgenError, match="dpi"):
        render_face(classic, "red-1", RenderSettings(dpi=5))


def test_output_files_get_ordinary_permissions(classic, tmp_path):
    import os
    import stat

    res = render_deck(classic, LOW, tmp_path / "out", cache_dir=tmp_path / "cache", jobs=1)
    mask = os.umask(0)
    os.umask(mask)
    mode = stat.S_IMODE(os.stat(res.paths["back"]).st_mode)
    assert mode == 0o666 & ~mask
