"""Faces fit at every size: every bundled layout on the bundled decks and the woodland example,
at every bundled card size and print-shop preset, checked from the layout's geometry (the plan
the renderer draws from) and, on a sample, from the pixels."""

from dataclasses import replace

import pytest

from deckgen import manifest
from deckgen.errors import DeckgenError
from deckgen.render import RenderSettings, render_face
from deckgen.render.audit import check_fit, face_problems
from deckgen.render.draw import overlaps, plan_face
from deckgen.render.faces import face_ids, face_spec
from deckgen.render.fit import CONTAINERS, Target, target
from deckgen.render.geometry import load_sizes
from deckgen.render.layout import layouts
from tests.test_render_faces import _outside_safe_is_field

DECKS = ("classic", "no-mercy", "flex-spectrum", "woodland")
FACE_LAYOUTS = sorted(n for n, lay in layouts().items() if lay.target == "face")
BACK_LAYOUTS = sorted(n for n, lay in layouts().items() if lay.target == "back")
SHOPS = ("tgc-poker", "tgc-bridge", "tgc-mini", "tgc-tarot", "tgc-square", "dtc-poker", "mpc-poker")
SIZES = (*sorted(load_sizes()), *SHOPS)
# Where a caption cannot be placed without overlapping something, it is left out (never drawn
# over another element) and `deckgen check` reports it at that size. Only the square shop card,
# whose oval has no room beside the Flex badges, may do that with the bundled layouts.
MAY_LEAVE_OUT = ("tgc-square",)


@pytest.fixture(scope="module")
def decks():
    return {name: manifest.load_deck(name) for name in DECKS}


def with_layout(deck, name):
    if layouts()[name].target == "back":
        return replace(deck, back_layout=name)
    return replace(deck, layout=name, kinds={k: replace(v, layout=None) for k, v in deck.kinds.items()},
                   cards=tuple(replace(c, layout=None) for c in deck.cards))


def sample(deck) -> list[str]:
    """One face of each look: kind, flex side, rules text, art, marks, colourless (and the back)."""
    seen, out = set(), []
    for fid in face_ids(deck):
        spec = face_spec(deck, fid, True)
        key = (tuple(t for t in spec.tags if t != spec.face_id), spec.flex is not None and (spec.flex.color is None, spec.flex.emblem),
               len(spec.caption), spec.centre)
        if key not in seen:
            seen.add(key)
            out.append(fid)
    return out


def specs_of(deck, faces) -> list:
    """The faces' specs, which do not depend on the card size: made once, checked at every size."""
    return [(fid, face_spec(deck, fid, len(deck.palette.colors) > 4)) for fid in faces]


def geometry_problems(tgt: Target, specs) -> list[str]:
    out = []
    frame = tgt.frame()
    l, t, r, b = frame.safe_box
    for fid, spec in specs:
        plan = plan_face(spec, frame)
        placed = [p for p in plan.placed if p.el.type not in CONTAINERS]
        for p in placed:                       # straight from the plan: nothing drawn leaves the safe zone ...
            for x0, y0, x1, y1 in p.rects:
                if x0 < l - 1 or y0 < t - 1 or x1 > r + 1 or y1 > b + 1:
                    out.append(f"{fid} at {tgt.label}: the {p.el.name} leaves the safe zone")
            for q in placed:                   # ... and no text overlaps another element
                if p is not q and p.text and any(overlaps(a, c) for a in p.rects for c in q.rects):
                    out.append(f"{fid} at {tgt.label}: the {p.el.name} overlaps the {q.el.name}")
        for m in plan.misfits:
            left_out = m.element == "caption" and "left out" in m.message
            if m.element != "rules" and not (left_out and tgt.label.split()[0] in MAY_LEAVE_OUT):
                out.append(f"{fid} at {tgt.label}: the {m.element} {m.message}")
    return out


@pytest.mark.parametrize("layout", FACE_LAYOUTS + BACK_LAYOUTS)
def test_every_layout_fits_every_size_on_a_sample_of_each_look(decks, layout):
    problems = []
    for name in DECKS:
        deck = with_layout(decks[name], layout)
        specs = specs_of(deck, ["back"] if layout in BACK_LAYOUTS else sample(deck))
        for size in SIZES:
            problems += geometry_problems(target(size, deck), specs)
    assert problems == []


@pytest.mark.slow
@pytest.mark.parametrize("layout", FACE_LAYOUTS)
def test_every_face_fits_every_size(decks, layout):
    problems = []
    for name in DECKS:
        deck = with_layout(decks[name], layout)
        specs = specs_of(deck, face_ids(deck))
        for size in SIZES:
            problems += geometry_problems(target(size, deck), specs)
    assert problems == []


@pytest.mark.parametrize("layout", FACE_LAYOUTS)
def test_nothing_is_drawn_outside_the_safe_zone(decks, layout):
    """The pixel check: outside the safe box, only the field (a full-bleed art layout: the art)."""
    for name in ("classic", "flex-spectrum"):
        deck = with_layout(decks[name], layout)
        for size in ("poker", "tgc-square", "mini"):
            tgt = target(size, deck)
            settings = RenderSettings(dpi=72, card_size=size if size in load_sizes() else f"{tgt.trim_mm[0]}x{tgt.trim_mm[1]}",
                                      bleed_mm=tgt.bleed_mm, safe_mm=tgt.safe_mm)
            for fid in sample(deck)[:12]:
                img = render_face(deck, fid, settings)
                spec = face_spec(deck, fid, settings.symbols_on(deck))
                assert _outside_safe_is_field(img, settings.frame(deck), spec.field) == [], (layout, size, fid)


def test_the_bundled_decks_fit_their_own_size_and_the_shop_presets(decks):
    for name, deck in decks.items():
        assert check_fit(deck) == [], name
        found = check_fit(deck, SHOPS)
        assert all("tgc-square" in f.message and "left out" in f.message for f in found), name


def test_a_fit_that_cannot_be_met_names_card_element_and_size(decks):
    deck = decks["flex-spectrum"]
    found = check_fit(deck, ["tgc-square"])
    assert found and all(f.is_error and f.code == "fit" for f in found)
    f = found[0]
    assert f.where.startswith("cards[") and "tgc-square" in f.message and "caption" in f.message
    assert "hide" in (f.hint or "")


def test_flex_captions_clear_the_turned_badge_at_tgc_poker(decks):
    """Issue 20: exported for tgc-poker, ROBA DOS and COMODÍN ROBA CUATRO ran into the bottom FLEX tag."""
    deck = decks["flex-spectrum"]
    tgt = target("tgc-poker", deck)
    for fid in face_ids(deck):
        spec = face_spec(deck, fid, True)
        if spec.flex is None or not spec.caption:
            continue
        assert face_problems(spec, tgt.frame()) == [], fid
        plan = plan_face(spec, tgt.frame())
        assert plan.get("caption") is not None, fid        # shown, not left out


def test_an_unknown_size_is_left_to_the_card_size_check(decks):
    assert check_fit(decks["classic"], ["no-such-size"]) == []
    with pytest.raises(DeckgenError):
        target("no-such-size", decks["classic"])
