"""Make the pictures of docs/gallery.md: each bundled layout on every card kind of each bundled
deck and of the woodland example (one card of each kind, flex sides and the Power card included),
one PNG per layout, a row per deck.

    .venv/bin/python docs/gallery/make.py [--dpi 36]

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

DECKS = ("classic", "no-mercy", "flex-spectrum", "woodland")
GAP = 6


def with_layout(deck, name: str, target: str):
    if target == "back":
        return replace(deck, back_layout=name)
    return replace(deck, layout=name, kinds={k: replace(v, layout=None) for k, v in deck.kinds.items()},
                   cards=tuple(replace(c, layout=None) for c in deck.cards))


def kind_faces(deck) -> list[str]:
    """One card of each kind the deck deals (its first), then one of each flex side's kind that is
    no card's own kind, then the components' faces (the Power card)."""
    colours = [c.id for c in deck.palette.colors]
    firsts: dict[str, str] = {}
    for card in deck.cards:                    # the i-th kind in the palette's i-th colour, where it has one
        if card.kind not in firsts:
            want = colours[len(firsts) % len(colours)]
            same = [c for c in deck.cards if c.kind == card.kind]
            firsts[card.kind] = next((c.id for c in same if c.color == want), card.id)
    flex: dict[str, str] = {}
    for card in deck.cards:
        if card.flex is not None and card.flex.kind not in firsts:
            flex.setdefault(card.flex.kind, card.id)
    comps = [comp.faces[0] for comp in deck.components if comp.faces]
    return list(dict.fromkeys([*firsts.values(), *flex.values(), *comps]))


def sheet(name: str, target: str, dpi: int) -> Image.Image:
    rows = []
    for deck_name in DECKS:
        deck = with_layout(manifest.load_deck(deck_name), name, target)
        settings = RenderSettings(dpi=dpi, bleed_mm=0.0, card_size="uno")
        rows.append([render_face(deck, fid, settings) for fid in (["back"] if target == "back" else kind_faces(deck))])
    if target == "back":
        rows = [[face for row in rows for face in row]]
    w, h = rows[0][0].size
    per_row = max(len(row) for row in rows)
    out = Image.new("RGB", (per_row * w + (per_row - 1) * GAP, len(rows) * h + (len(rows) - 1) * GAP), (255, 255, 255))
    for r, row in enumerate(rows):
        for i, face in enumerate(row):
            out.paste(face, (i * (w + GAP), r * (h + GAP)))
    return out


def png(img: Image.Image) -> bytes:
    small = img.quantize(colors=96, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    small.save(buf, "PNG", optimize=True)
    return buf.getvalue()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dpi", type=int, default=36)
    args = ap.parse_args()
    for name, entry in sorted(catalogue().entries.items()):
        if entry.origin != "bundled":
            continue                       # the gallery shows what deckgen ships
        layout = entry.value
        path = write_bytes(HERE / f"{name}.png", png(sheet(name, layout.target, args.dpi)))
        print(f"{path.relative_to(HERE.parent.parent)}: {path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
