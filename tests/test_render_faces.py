"""What the renderer draws: every face exists, stays in its safe zone, follows the palette."""

from dataclasses import replace

import pytest
from hypothesis import example, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from PIL import Image

from deckgen import manifest
from deckgen.effects import Effect
from deckgen.fonts import covers_spanish, font_path
from deckgen.model import Kind, Names
from deckgen.render import RenderSettings, face_ids, render_face
from deckgen.render.faces import face_spec, kind_emblem

LOW = RenderSettings(dpi=60)


@pytest.fixture(scope="module")
def decks():
    return {name: manifest.load_deck(name) for name in ("classic", "no-mercy", "flex-spectrum")}


def test_face_ids_cover_cards_back_and_components(decks):
    assert len(face_ids(decks["classic"])) == 54 + 1
    assert len(face_ids(decks["no-mercy"])) == 68 + 1
    ids = face_ids(decks["flex-spectrum"])
    assert {"back", "power-green", "power-red", "colorless-0", "wild-all-flip"} <= set(ids)
    assert len(ids) == len(set(ids)) == 215 + 3


def _outside_safe_is_field(img: Image.Image, frame, field) -> list:
    """Colours found outside the safe box (the bleed band included) other than the field's."""
    l, t, r, b = frame.safe_box
    w, h = img.size
    strips = [(0, 0, w, t), (0, b, w, h), (0, t, l, b), (r, t, w, b)]
    bad = set()
    for box in strips:
        for _, color in img.crop(box).getcolors(maxcolors=1 << 16) or [(0, None)]:
            if color != tuple(field):
                bad.add(color)
    return sorted(bad, key=str)


@pytest.mark.parametrize("name", ["classic", "no-mercy", "flex-spectrum"])
def test_every_face_keeps_symbols_and_text_inside_the_safe_zone(decks, name):
    deck = decks[name]
    frame = LOW.frame(deck)
    for fid in face_ids(deck):
        img = render_face(deck, fid, LOW)
        spec = face_spec(deck, fid, LOW.symbols_on(deck))
        assert _outside_safe_is_field(img, frame, spec.field) == [], fid
        l, t, r, b = frame.safe_box
        assert len(img.crop((l, t, r, b)).getcolors(1 << 16)) > 2, f"{fid} draws nothing in its safe zone"


def test_bleed_band_holds_only_the_field_at_print_resolution(decks):
    deck = decks["no-mercy"]
    settings = RenderSettings(dpi=300)
    frame = settings.frame(deck)
    for fid in ("red-skip", "wild-draw-ten", "back"):
        img = render_face(deck, fid, settings)
        spec = face_spec(deck, fid, False)
        assert _outside_safe_is_field(img, frame, spec.field) == []


def test_palette_override_changes_the_colours_drawn(decks):
    deck = decks["classic"]
    plain = render_face(deck, "red-7", LOW)
    assert plain.getpixel((2, 2)) == deck.palette.get("red").rgb
    pal = manifest.apply_overrides(deck.palette, {"red": "#112233"})
    recoloured = render_face(replace(deck, palette=pal), "red-7", LOW)
    assert recoloured.getpixel((2, 2)) == (0x11, 0x22, 0x33)
    colours = {c for _, c in recoloured.getcolors(1 << 16)}
    assert deck.palette.get("red").rgb not in colours
    # the wild's segments follow the palette as well
    wild = render_face(replace(deck, palette=pal), "wild", LOW)
    assert (0x11, 0x22, 0x33) in {c for _, c in wild.getcolors(1 << 16)}


def test_wild_shows_every_palette_colour(decks):
    for name, card in (("classic", "wild"), ("flex-spectrum", "wild-all-flip"), ("no-mercy", "wild-color-roulette")):
        deck = decks[name]
        colours = {c for _, c in render_face(deck, card, LOW).getcolors(1 << 16)}
        for col in deck.palette.colors:
            assert col.rgb in colours, (name, col.id)


def test_flex_card_shows_its_flex_colour(decks):
    deck = decks["flex-spectrum"]
    card = deck.card("red-2-flex")
    img = render_face(deck, card.id, LOW)
    colours = dict((c, n) for n, c in img.getcolors(1 << 16))
    flex_rgb = deck.palette.get(card.flex.color).rgb
    assert colours.get(flex_rgb, 0) > 50


def test_symbols_default_on_for_more_than_four_colours(decks):
    assert LOW.symbols_on(decks["flex-spectrum"]) and not LOW.symbols_on(decks["classic"])
    assert face_spec(decks["flex-spectrum"], "red-1", True).shape == "circle"
    assert face_spec(decks["classic"], "red-1", False).shape is None
    with_cues = render_face(decks["classic"], "red-1", replace(LOW, symbols=True))
    assert with_cues.tobytes() != render_face(decks["classic"], "red-1", LOW).tobytes()


def test_homemade_kind_gets_symbol_and_label_from_its_effects():
    kind = Kind("wild-draw-twenty", "wild", Names({"en": "Wild Draw 20"}),
                (Effect("draw", n=20), Effect("choose_color")))
    em = kind_emblem(kind, "en")
    assert em.text == "+20"
    target = Kind("snipe", "action", Names({"en": "Snipe"}), (Effect("target"), Effect("draw", n=3)))
    assert kind_emblem(target, "en").text == "+3" and kind_emblem(target, "en").symbol == "target"
    everyone = Kind("rain", "action", Names({"en": "Rain"}), (Effect("everyone_draws", n=1),))
    assert kind_emblem(everyone, "en").symbol == "everyone"
    swap = Kind("swap", "action", Names({"en": "Swap"}), (Effect("swap_hands"),))
    assert kind_emblem(swap, "en").symbol == "swap"


def test_labels_use_the_deck_language(decks):
    deck = decks["no-mercy"]
    assert face_spec(deck, "red-skip", False).caption == deck.kinds["skip"].names.get("es").upper()
    english = replace(deck, language="en")
    assert face_spec(english, "red-skip", False).caption == "SKIP"
    assert face_spec(decks["flex-spectrum"], "power-green", True).caption == "PODER"


def test_spanish_letters_render():
    assert covers_spanish(font_path("display")) and covers_spanish(font_path("text"))


def test_six_and_nine_are_underlined(decks):
    deck = decks["classic"]
    assert face_spec(deck, "red-6", False).centre.underline
    assert face_spec(deck, "red-9", False).index.underline
    assert not face_spec(deck, "red-8", False).centre.underline


def test_unknown_face_is_an_error_with_a_suggestion(decks):
    from deckgen.errors import DeckgenError

    with pytest.raises(DeckgenError, match="red-7"):
        render_face(decks["classic"], "red-77", LOW)



FLEX = manifest.load_deck("flex-spectrum")
FLEX_IDS = face_ids(FLEX)


@hsettings(max_examples=25, deadline=None)
@given(face=st.sampled_from(FLEX_IDS), dpi=st.integers(40, 160), size=st.sampled_from(["poker", "bridge", "uno", "tarot", "mini"]),
       bleed=st.sampled_from([0.0, 1.5, 3.0, 4.0]), safe=st.sampled_from([2.0, 3.0, 5.0]), symbols=st.booleans())
# found by this test (issue 22): at 40-45 dpi on a mini card the caption's font could not shrink below
# 6 px, so "COMODÍN ROBA CUATRO" ran out of the oval and the safe zone
@example(face="wild-draw-four-flex", dpi=43, size="mini", bleed=0.0, safe=5.0, symbols=False)
@example(face="wild-draw-four-flex", dpi=40, size="mini", bleed=3.0, safe=3.0, symbols=True)
def test_safe_zone_holds_for_any_size_dpi_bleed_and_margin(face, dpi, size, bleed, safe, symbols):
    s = RenderSettings(dpi=dpi, card_size=size, bleed_mm=bleed, safe_mm=safe, symbols=symbols)
    img = render_face(FLEX, face, s)
    assert _outside_safe_is_field(img, s.frame(FLEX), face_spec(FLEX, face, symbols).field) == []


def test_kind_may_name_a_shape_as_its_symbol():
    kind = Kind("lucky", "action", Names({"en": "Lucky"}), (Effect("skip"),), symbol="star")
    assert kind_emblem(kind, "en").symbol == "star"
    unknown = Kind("odd", "action", Names({"en": "Odd"}), (Effect("skip"),), symbol="no-such-symbol")
    assert kind_emblem(unknown, "en").symbol == "skip"      # falls back to what the effects say


def test_paint_gives_the_pixels_of_a_colour_pasted_through_the_mask():
    import random

    from deckgen.render.text import paint

    rng = random.Random(3)
    for _ in range(200):
        mode = rng.choice(["RGB", "L"])
        w, h = rng.randint(5, 60), rng.randint(5, 60)
        base = Image.frombytes(mode, (w, h), bytes(rng.randrange(256) for _ in range(w * h * len(mode))))
        mw, mh = rng.randint(1, 40), rng.randint(1, 40)
        mask = Image.frombytes("L", (mw, mh), bytes(rng.choice([0, 255, rng.randrange(256)]) for _ in range(mw * mh)))
        ink = tuple(rng.randrange(256) for _ in range(3)) if mode == "RGB" else rng.randrange(256)
        at = (rng.randint(-mw, w), rng.randint(-mh, h))     # partly or wholly off the image too
        pasted, painted = base.copy(), base.copy()
        pasted.paste(ink, at, mask)
        paint(painted, ink, at, mask)
        assert painted.tobytes() == pasted.tobytes()
