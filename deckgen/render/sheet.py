"""The contact sheet: every distinct face of a deck on one PNG, with its copy count."""

from __future__ import annotations

import io
import math
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from deckgen.atomic import write_bytes
from deckgen.fonts import deck_fonts, pil_font
from deckgen.icc import srgb_profile
from deckgen.model import Deck
from deckgen.render.batch import render_all

if TYPE_CHECKING:
    from deckgen.progress import Progress
    from deckgen.render import RenderSettings

Thumb = tuple[Path, int, int, int]     # a face file, the thumbnail's size and the bleed cut off

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


def face_name(deck: Deck, face_id: str) -> str:
    """What a person calls a face: the card's display name in the deck's language (ids are for files)."""
    lang = deck.language
    for card in deck.cards:
        if card.id == face_id:
            return card.name(lang)
    if face_id == "back":
        return "dorso" if lang == "es" else "back"
    for comp in deck.components:
        if face_id in comp.faces:
            return f"{comp.names.get(lang)} {comp.faces.index(face_id) + 1}/{len(comp.faces)}"
    return face_id


def contact_sheet(deck: Deck, settings: RenderSettings, out_path: Path | None, progress: Progress | None = None, *,
                  use_cache: bool = True, compress_level: int = 6,
                  thumbs: dict[Thumb, Image.Image] | None = None) -> Path:
    """Write the sheet. ``thumbs`` (face file -> thumbnail) lets a caller that makes many sheets
    (``--watch``) shrink only the faces that changed; ``compress_level`` trades size for speed."""
    result = render_all(deck, settings, None, progress=progress, use_cache=use_cache)
    counts = copies(deck)
    ids = list(result.paths)
    bleed = round(result.bleed_mm * result.dpi / 25.4)
    w, h = result.size_px[0] - 2 * bleed, result.size_px[1] - 2 * bleed    # show the trimmed card
    tw = THUMB_W
    th = round(h * tw / w)
    corners = Image.new("L", (tw, th), 0)
    ImageDraw.Draw(corners).rounded_rectangle([0, 0, tw - 1, th - 1], radius=int(tw * 3 / w * result.dpi / 25.4) + 1,
                                              fill=255)
    label_h = 30
    cols = min(COLUMNS, len(ids))
    rows = math.ceil(len(ids) / cols)
    head = 64
    sheet = Image.new("RGB", (GAP + cols * (tw + GAP), head + rows * (th + label_h + GAP) + GAP), BG)
    d = ImageDraw.Draw(sheet)
    title = f"{deck.name()}  ·  {deck.total} cards, {len(ids)} distinct faces  ·  {deck.palette.name}"
    text_font = str(deck_fonts(deck).path("text"))
    d.text((GAP, 18), title, font=pil_font(text_font, 26), fill=INK)
    small = pil_font(text_font, 15)
    used: set[Thumb] = set()
    for i, fid in enumerate(ids):
        x = GAP + (i % cols) * (tw + GAP)
        y = head + (i // cols) * (th + label_h + GAP)
        memo = (result.paths[fid], tw, th, bleed)
        used.add(memo)
        thumb = thumbs.get(memo) if thumbs is not None else None
        if thumb is None:
            with Image.open(result.paths[fid]) as im:
                card = im.convert("RGB").crop((bleed, bleed, bleed + w, bleed + h))
                thumb = card.resize((tw, th), Image.Resampling.BOX)
            if thumbs is not None:
                thumbs[memo] = thumb
        sheet.paste(thumb, (x, y), corners)
        count = f"  ×{counts.get(fid, 1)}"
        full = name = face_name(deck, fid)
        while name and small.getlength(name + count) > tw:
            name = name[:-1]
        label = (name if name == full else name[:-1] + "…") + count
        d.text((x, y + th + 6), label, font=small, fill=INK)
    if thumbs is not None:
        for memo in set(thumbs) - used:
            del thumbs[memo]
    from deckgen import outputs

    out_path = Path(out_path or outputs.preview_png(deck.id))
    buf = io.BytesIO()
    sheet.save(buf, "PNG", compress_level=compress_level, icc_profile=srgb_profile())
    write_bytes(out_path, buf.getvalue())
    return out_path
