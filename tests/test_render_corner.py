"""The bottom-right corner is drawn on a band of the face turned half round: the same pixels as
turning the whole face (which is what the band replaces, for speed)."""

from dataclasses import replace

import pytest

from deckgen import manifest
from deckgen.render import RenderSettings, face_ids
from deckgen.render import draw as draw_mod
from deckgen.render.faces import face_spec


def both_ways(monkeypatch, spec, frame):
    banded = draw_mod.draw_face(spec, frame)
    with monkeypatch.context() as m:
        m.setattr(draw_mod, "corner_rows", lambda spec, frame, plan=None: 10 ** 6)    # the band is the whole face
        whole = draw_mod.draw_face(spec, frame)
    return banded, whole


@pytest.mark.parametrize("name", ["classic", "no-mercy", "flex-spectrum", "woodland"])
def test_every_face_is_the_same_drawn_on_a_band_or_on_the_whole_face(monkeypatch, name):
    deck = manifest.load_deck(name)
    settings = RenderSettings(dpi=120)
    frame = settings.frame(deck)
    for fid in face_ids(deck):
        spec = face_spec(deck, fid, settings.symbols_on(deck))
        banded, whole = both_ways(monkeypatch, spec, frame)
        assert banded.tobytes() == whole.tobytes(), fid


def test_a_corner_with_a_shape_and_several_marks_stays_inside_its_band(monkeypatch):
    deck = manifest.load_deck("flex-spectrum")
    settings = RenderSettings(dpi=150)
    frame = settings.frame(deck)
    flex = next(f for f in face_ids(deck) if face_spec(deck, f, True).flex is not None)
    spec = face_spec(deck, flex, True)
    crowded = replace(spec, shape=spec.shape or "circle", marks=("flip", "duel"))      # every mark a card can have
    banded, whole = both_ways(monkeypatch, crowded, frame)
    assert banded.tobytes() == whole.tobytes()
    w, h = banded.size
    assert 2 * draw_mod.corner_rows(crowded, frame) <= h          # the band stays under half the face
