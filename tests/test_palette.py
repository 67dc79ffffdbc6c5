"""Palette checks: CIEDE2000 distances in normal and simulated colour-blind vision, text contrast."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deckgen import manifest
from deckgen.check import check
from deckgen.model import Color, Names, Palette
from deckgen.palette import VISIONS, analyse, contrast, delta_e, findings, print_findings, printed, text_ink
from deckgen.stages import CheckOptions


def _palette(*colors):
    return Palette("test", "Test", tuple(Color(cid, hexv, Names({"en": cid}), sym) for cid, hexv, sym in colors))


def test_spectrum_passes_normal_vision():
    rep = analyse(manifest.load_palette("spectrum"))
    assert rep.passes_normal
    assert rep.minimum["normal"].distance >= 20
    assert set(rep.minimum) == {"normal", "protanopia", "deuteranopia", "tritanopia"}


def test_spectrum_colour_blind_clashes_are_covered_by_distinct_shapes():
    pal = manifest.load_palette("spectrum")
    rep = analyse(pal)
    assert any(rep.clashes[v] for v in ("protanopia", "deuteranopia", "tritanopia"))
    assert len({c.symbol for c in pal.colors}) == 10
    assert findings(rep, symbols_on=True) == []
    warned = findings(rep, symbols_on=False)
    assert any(f.code == "palette-colorblind" for f in warned)


def test_clashing_pair_is_named():
    pal = _palette(("red", "#D7263D", "circle"), ("crimson", "#D12A40", "star"), ("blue", "#1565C0", "square"))
    rep = analyse(pal)
    assert not rep.passes_normal
    found = findings(rep, symbols_on=True)
    clash = [f for f in found if f.code == "palette-clash"]
    assert len(clash) == 1 and "'red' and 'crimson'" in clash[0].message


def test_deuteranopia_clash_is_named_and_classic_now_passes():
    old_classic = _palette(("red", "#E0242B", "circle"), ("yellow", "#F7CB15", "triangle"),
                           ("green", "#2E9E48", "square"), ("blue", "#1E63C4", "diamond"))
    rep = analyse(old_classic)
    assert [(p.a, p.b) for p in rep.clashes["deuteranopia"]] == [("red", "green")]
    warned = [f for f in findings(rep, symbols_on=False) if f.code == "palette-colorblind"]
    assert len(warned) == 1 and "deuteranopia" in warned[0].message and "red/green" in warned[0].message
    assert findings(rep, symbols_on=True) == []          # distinct shapes tell them apart
    classic = analyse(manifest.load_palette("classic"))
    assert not any(classic.clashes.values())
    assert delta_e((215, 38, 61), (215, 38, 61)) == pytest.approx(0)


def test_text_ink_and_contrast():
    assert text_ink((247, 203, 21)) != (255, 255, 255)     # yellow: dark text
    assert text_ink((21, 101, 192)) == (255, 255, 255)     # blue: white text
    assert contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21, rel=1e-3)
    pale = _palette(("cream", "#FFF6D0", "circle"), ("blue", "#1565C0", "square"))
    rep = analyse(pale)
    assert rep.text["cream"] >= 3.0 and rep.text["blue"] >= 3.0
    warned = findings(rep, False)
    assert [f.where for f in warned if f.code == "palette-pale"] == ["palette.cream"]
    assert not [f for f in findings(analyse(manifest.load_palette("spectrum")), True)]


def test_deckgen_check_carries_palette_findings():
    rep = check("flex-spectrum", CheckOptions(simulate=False))
    assert rep.palette is not None and rep.palette.palette.id == "spectrum"
    assert "palette" in rep.sections and rep.palette.summary().startswith("smallest CIEDE2000 distance")
    assert not [f for f in rep.findings if f.code.startswith("palette")]
    override = manifest.apply_overrides(manifest.load_palette("spectrum"), {"orange": "#D7263E"})
    rep = check("flex-spectrum", CheckOptions(simulate=False, palette=override))
    assert any(f.code == "palette-clash" and "orange" in f.message for f in rep.findings)


def test_deckgen_check_reports_bad_card_size_and_unknown_symbols(write_manifest, minimal_text):
    text = minimal_text.replace('palette = "classic"', 'palette = "classic"\ncard_size = "pokr"')
    text += '\n[kinds.lucky]\ncategory = "action"\nname = "Lucky"\neffects = ["skip"]\nsymbol = "stra"\n' \
            '\n[[cards]]\nkind = "lucky"\ncolors = "all"\ncount = 1\npoints = 20\n'
    rep = check(write_manifest(text), CheckOptions(simulate=False))
    size = [f for f in rep.findings if f.code == "card-size"]
    assert size and size[0].where == "deck.card_size" and "did you mean 'poker'" in size[0].hint
    sym = [f for f in rep.findings if f.code == "symbol"]
    assert sym and sym[0].where == "kinds.lucky.symbol" and "star" in sym[0].hint


def _hex(rgb) -> str:
    return "#" + "".join(f"{v:02X}" for v in rgb)


channel = st.integers(0, 255)
rgb = st.tuples(channel, channel, channel)


@given(rgb, rgb)
def test_contrast_is_coloraides_wcag_contrast(a, b):
    """deckgen computes the WCAG ratio itself (faces need it, and importing coloraide cost every
    build 0.15 s): it must be coloraide's figure."""
    from coloraide import Color

    theirs = Color(_hex(a)).contrast(Color(_hex(b)))
    assert contrast(a, b) == pytest.approx(theirs, rel=1e-12, abs=0)


def test_text_ink_is_the_same_as_with_coloraides_contrast_for_every_bundled_colour():
    from coloraide import Color

    from deckgen import presets
    from deckgen.manifest.palettes import PALETTES, load_palette

    def theirs(rgb):
        c = Color(_hex(rgb))
        white, dark = c.contrast(Color("#FFFFFF")), c.contrast(Color("#1A1A1A"))
        return (255, 255, 255) if white >= dark * 0.55 else (26, 26, 26)

    names = list(presets.catalogue(PALETTES))
    assert {"classic", "spectrum"} <= set(names)
    for name in names:
        for colour in load_palette(name).colors:
            assert text_ink(colour.rgb) == theirs(colour.rgb), (name, colour.id)


def _theirs(rgb, vision):
    from coloraide import Color

    c = Color(_hex(rgb))
    filters = {"protanopia": "protan", "deuteranopia": "deutan", "tritanopia": "tritan"}
    if vision != "normal":
        c = c.filter(filters[vision], method="brettel").convert("srgb").clip()
    return c


@settings(max_examples=300)
@given(rgb, rgb, st.sampled_from(VISIONS))
def test_delta_e_is_coloraides_to_the_last_bit(a, b, vision):
    """deckgen does coloraide's CIEDE2000 and Brettel simulation itself (importing coloraide cost
    every check 0.2 s): the same float, not only a close one."""
    assert delta_e(a, b, vision) == float(_theirs(a, vision).delta_e(_theirs(b, vision), method="2000"))


def test_delta_e_is_coloraides_for_every_bundled_colour_pair():
    from deckgen import presets
    from deckgen.manifest.palettes import PALETTES, load_palette

    for name in presets.catalogue(PALETTES):
        cols = load_palette(name).colors
        for vision in VISIONS:
            for x, y in itertools.combinations(cols, 2):
                assert delta_e(x.rgb, y.rgb, vision) == float(
                    _theirs(x.rgb, vision).delta_e(_theirs(y.rgb, vision), method="2000")), (name, vision)


def test_the_simulation_matrices_are_coloraides():
    from coloraide.filters import cvd
    from coloraide.spaces import srgb_linear

    from deckgen import palette as palette_mod

    assert [list(r) for r in palette_mod._RGB_TO_XYZ] == srgb_linear.RGB_TO_XYZ
    assert [list(r) for r in palette_mod._LRGB_TO_LMS] == cvd.LRGB_TO_LMS
    for vision, theirs in (("protanopia", cvd.BRETTEL_PROTAN), ("deuteranopia", cvd.BRETTEL_DEUTAN),
                           ("tritanopia", cvd.BRETTEL_TRITAN)):
        w1, w2, sep = palette_mod._BRETTEL[vision]
        assert ([list(r) for r in w1], [list(r) for r in w2], list(sep)) == (theirs[0], theirs[1], theirs[2])


def test_a_check_does_not_import_coloraide():
    import subprocess
    import sys

    code = ("import sys; from deckgen import manifest, palette; "
            "palette.analyse(manifest.load_deck('classic').palette); print('coloraide' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_a_colour_ink_cannot_print_is_warned_with_the_colour_the_press_gives():
    # a screen's pure green and blue come out duller from a CMYK press: CIEDE2000 15-17 away
    pal = _palette(("red", "#E0242B", "circle"), ("green", "#00FF00", "square"), ("blue", "#0000FF", "diamond"))
    found = {f.where: f for f in print_findings(pal) if f.code == "palette-gamut"}
    assert set(found) == {"palette.green", "palette.blue"}
    rgb, d = printed(pal)["green"]
    shown = "#{:02X}{:02X}{:02X}".format(*rgb)
    green = found["palette.green"]
    assert 12 < d < 20 and f"about {shown}" in green.message and "#00FF00" in green.message
    assert green.hint == f"pick a colour inside the print gamut, e.g. --color green={shown}"
    # what the press gives is inside its gamut: printed again, it stays (within the rounding to 8 bits)
    assert printed(_palette(("green", shown, "square")))["green"][1] < 2.0
    assert printed(pal)["red"][1] < 3.0                     # a printable red is left alone


def test_two_colours_apart_on_screen_that_print_alike_are_named():
    pal = _palette(("navy", "#1E3CAA", "circle"), ("violet", "#B400FF", "star"))
    assert analyse(pal).passes_normal and delta_e((30, 60, 170), (180, 0, 255)) >= 20
    (clash,) = [f for f in print_findings(pal) if f.code == "palette-print-clash"]
    assert "'navy' and 'violet' are told apart on screen" in clash.message and "16." in clash.message


@pytest.mark.parametrize("name", ["classic", "spectrum"])
def test_the_bundled_palettes_print_as_they_look(name):
    pal = manifest.load_palette(name)
    assert max(d for _, d in printed(pal).values()) < 5.0     # spectrum's purple, the farthest: 4.5
    assert print_findings(pal) == []


def test_check_and_palette_check_carry_the_print_findings():
    from click.testing import CliRunner

    from deckgen.cli import main

    out = CliRunner().invoke(main, ["palette", "check", "classic", "--color", "green=#00FF00"])
    assert "warning[palette-gamut]" in out.output and "'green' #00FF00" in out.output
    res = CliRunner().invoke(main, ["check", "classic", "--no-sim", "--color", "green=#00FF00"])
    assert "warning[palette-gamut]" in res.output, res.output
    assert "palette-gamut" not in CliRunner().invoke(main, ["check", "classic", "--no-sim"]).output
