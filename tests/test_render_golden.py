"""Golden images: a sample of faces from each game, compared with a tolerance.

Regenerate after an intended visual change with ``DECKGEN_UPDATE_GOLDENS=1 pytest tests/test_render_golden.py``
and look at every changed file before committing it.
"""

import os

import pytest
from PIL import Image, ImageChops

from deckgen import manifest
from deckgen.render import RenderSettings, render_face
from tests.conftest import ROOT

GOLDENS = ROOT / "tests" / "goldens"
SETTINGS = RenderSettings(dpi=60)
SAMPLE = {
    "classic": ["red-7", "yellow-6", "blue-skip", "green-reverse", "red-draw-two", "wild", "wild-draw-four", "back"],
    "no-mercy": ["blue-skip-everyone", "yellow-discard-all", "red-draw-four", "wild-reverse-draw-four",
                 "wild-draw-ten", "wild-color-roulette", "back"],
    "flex-spectrum": ["red-2-flex", "orange-3-flip", "purple-7-duel", "cyan-skip-flex-skip-all",
                      "brown-reverse-flex-skip", "lime-draw-two-flex-everyone-draws-1", "colorless-0",
                      "wild-all-flip", "wild-flex-everyone-draws-2", "wild-flex-targeted-draw-two",
                      "wild-draw-four-flex", "power-green", "power-red", "back"],
}
CASES = [(deck, face) for deck, faces in SAMPLE.items() for face in faces]
UPDATE = os.environ.get("DECKGEN_UPDATE_GOLDENS") == "1"


def difference(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """(mean absolute channel difference, share of pixels differing by more than 48 in a channel)."""
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    hist = diff.histogram()
    pixels = a.width * a.height
    mean = sum(i * n for ch in range(3) for i, n in enumerate(hist[ch * 256:(ch + 1) * 256])) / (3 * pixels)
    big = diff.convert("L").point(lambda v: 255 if v > 16 else 0)   # L ~ average of channels: > 48 in one
    share = big.histogram()[255] / pixels
    return mean, share


@pytest.fixture(scope="module")
def decks():
    return {name: manifest.load_deck(name) for name in SAMPLE}


@pytest.mark.parametrize("deck,face", CASES, ids=[f"{d}:{f}" for d, f in CASES])
def test_face_matches_golden(decks, deck, face):
    img = render_face(decks[deck], face, SETTINGS)
    path = GOLDENS / deck / f"{face}.png"
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        img.save(path, "PNG", optimize=True)
    assert path.is_file(), f"no golden {path}: run with DECKGEN_UPDATE_GOLDENS=1 and look at it"
    with Image.open(path) as golden:
        assert golden.size == img.size
        mean, share = difference(golden, img)
    assert mean < 1.5 and share < 0.01, f"{deck}:{face} differs from its golden (mean {mean:.2f}, {share:.1%} of pixels)"


def test_difference_detects_a_changed_face(decks):
    a = render_face(decks["classic"], "red-7", SETTINGS)
    b = render_face(decks["classic"], "red-8", SETTINGS)
    mean, share = difference(a, b)
    assert share >= 0.01
