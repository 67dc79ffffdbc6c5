"""Make the pictures of docs/gallery.md: each bundled layout on a few cards of each bundled deck
and the woodland example, one PNG per layout.

    .venv/bin/python docs/gallery/make.py [--dpi 45]

The pictures are small on purpose (a low resolution and a 96-colour palette): they show the
layouts, not print quality. Running it again with the same code gives byte-identical files.
"""

from __future__ import annotations

import argparse
import io
import sys
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from PIL import Image  # noqa: E402

from deckgen import manifest  # noqa: E402
from deckgen.atomic import write_bytes  # noqa: E402
from deckgen.render import RenderSettings, render_face  # noqa: E402
from deckgen.render.layout import catalogue  # noqa: E402

# A few cards of each deck that between them show every element: a number, an action, a wild,
# a Flex card, a Power card, art, an icon and rules text.
CARDS = {
    "classic": ["red-7", "blue-skip", "wild-draw-four"],
    "no-mercy": ["yellow-discard-all", "wild-color-roulette"],
    "flex-spectrum": ["red-2-flex", "lime-draw-two-flex-everyone-draws-1", "power-green"],
    "woodland": ["fox-7", "fox-steal", "fish-acorns", "night"],
}
GAP = 6


def with_layout(deck, name: str, target: str):
    if target == "back":
        return replace(deck, back_layout=name)
    return replace(deck, layout=name, kinds={k: replace(v, layout=None) for k, v in deck.kinds.items()},
                   cards=tuple(replace(c, layout=None) for c in deck.cards))


def sheet(name: str, target: str, dpi: int) -> Image.Image:
    faces = []
    for deck_name, cards in CARDS.items():
        deck = with_layout(manifest.load_deck(deck_name), name, target)
        settings = RenderSettings(dpi=dpi, bleed_mm=0.0, card_size="uno")
        for fid in (["back"] if target == "back" else cards):
            faces.append(render_face(deck, fid, settings))
    w, h = faces[0].size
    per_row = len(faces) if target == "back" else 6
    rows = -(-len(faces) // per_row)
    out = Image.new("RGB", (per_row * w + (per_row - 1) * GAP, rows * h + (rows - 1) * GAP), (255, 255, 255))
    for i, face in enumerate(faces):
        out.paste(face, ((i % per_row) * (w + GAP), (i // per_row) * (h + GAP)))
    return out


def png(img: Image.Image) -> bytes:
    small = img.quantize(colors=96, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    small.save(buf, "PNG", optimize=True)
    return buf.getvalue()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dpi", type=int, default=45)
    args = ap.parse_args()
    for name, entry in sorted(catalogue().entries.items()):
        if entry.origin != "bundled":
            continue                       # the gallery shows what deckgen ships
        layout = entry.value
        path = write_bytes(HERE / f"{name}.png", png(sheet(name, layout.target, args.dpi)))
        print(f"{path.relative_to(HERE.parent.parent)}: {path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
