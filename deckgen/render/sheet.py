"""The contact sheet: every distinct face of a deck on one PNG, with its copy count."""

from __future__ import annotations

import math
import os
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw

from deckgen.model import Deck
from deckgen.render.batch import render_all
from deckgen.render.fonts import font

THUMB_W = 180          # thumbnail width in px
GAP = 14
COLUMNS = 10
BG = (236, 236, 232)
INK = (30, 30, 30)


def copies(deck: Deck) -> dict[str, int]:
    """How many copies of each face get printed."""
    out = {c.id: c.count for c in deck.cards}
    out["back"] = deck.total
    for comp in deck.components:
        for face in comp.faces:
            out[face] = out.get(face, 0) + comp.count
    return out


def contact_sheet(deck: Deck, settings, out_path: Path | None, progress=None) -> Path:
    result = render_all(deck, settings, None, progress=progress)
    counts = copies(deck)
    ids = list(result.paths)
    w, h = result.size_px
    tw = THUMB_W
    th = int(round(h * tw / w))
    label_h = 30
    cols = min(COLUMNS, len(ids))
    rows = math.ceil(len(ids) / cols)
    head = 64
    sheet = Image.new("RGB", (GAP + cols * (tw + GAP), head + rows * (th + label_h + GAP) + GAP), BG)
    d = ImageDraw.Draw(sheet)
    title = f"{deck.name()}  ·  {deck.total} cards, {len(ids)} distinct faces  ·  {deck.palette.name}"
    d.text((GAP, 18), title, font=font("text", 26), fill=INK)
    small = font("text", 15)
    for i, fid in enumerate(ids):
        x = GAP + (i % cols) * (tw + GAP)
        y = head + (i // cols) * (th + label_h + GAP)
        with Image.open(result.paths[fid]) as im:
            thumb = im.convert("RGB").resize((tw, th), Image.Resampling.BOX)
        sheet.paste(thumb, (x, y))
        count = f"  ×{counts.get(fid, 1)}"
        name = fid
        while name and small.getlength(name + count) > tw:
            name = name[:-1]
        label = (name if name == fid else name[:-1] + "…") + count
        d.text((x, y + th + 6), label, font=small, fill=INK)
    out_path = Path(out_path or f"{deck.id}-preview.png")
    out_path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".png", dir=out_path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            sheet.save(fh, "PNG", compress_level=6)
        os.replace(tmp, out_path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return out_path
