"""The non-prose parts of a rulebook: components table, colour table, card entries."""

from __future__ import annotations

import base64
import contextlib
import io
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Image, Table, TableStyle
from reportlab.platypus import Paragraph as _Paragraph

from deckgen.fonts import FAMILY, deck_fonts
from deckgen.model import WILD, Deck
from deckgen.rulebook.context import points_text
from deckgen.rulebook.describe import group_name, group_text
from deckgen.rulebook.groups import Group, groups, uniform_per_color
from deckgen.rulebook.markup import escape
from deckgen.rulebook.styles import RULE, SHADE
from deckgen.rulebook.words import join, lang_of, ui, values_text
from deckgen.words import SYMBOL_NAMES

Styles = Mapping[str, ParagraphStyle]      # the rulebook's paragraph styles by name (rulebook/styles.py)


class Paragraph(_Paragraph):  # type: ignore[misc]  # reportlab ships no type stubs
    """ReportLab's paragraph, whose line breaking at a width is kept: a rulebook is laid out twice
    (the first pass finds the pages of the headings), a kept-together group is measured before it is
    placed, and a table measures its cells more than once, each time breaking the same lines at the
    same width. Breaking lines was about 40 % of typesetting."""

    _kept: tuple[Any, ...] | None = None

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        kept = self._kept
        if kept is not None and kept[0] == availWidth and kept[1] is self.style:
            _, _, self.width, self._wrapWidths, self.blPara, self.height = kept
            return self.width, self.height
        size: tuple[float, float] = super().wrap(availWidth, availHeight)
        if availWidth >= 1e-8 and hasattr(self, "blPara"):
            self._kept = (availWidth, self.style, self.width, self._wrapWidths, self.blPara, self.height)
        return size


def style(*cmds: tuple[Any, ...]) -> TableStyle:
    """A table style whose cells use the embedded font (ReportLab would fall back to Helvetica)."""
    return TableStyle([("FONTNAME", (0, 0), (-1, -1), FAMILY), *cmds])


class Swatches(Flowable):  # type: ignore[misc]  # reportlab ships no type stubs
    """Small squares in the palette's colours, wrapping onto rows."""

    def __init__(self, hexes: list[str], size: float = 3.6 * mm, per_row: int = 5, gap: float = 1.0 * mm):
        super().__init__()
        self.hexes, self.size, self.per_row, self.gap = hexes, size, per_row, gap

    def wrap(self, aw: float, ah: float) -> tuple[float, float]:
        rows = max(1, -(-len(self.hexes) // self.per_row))
        cols = min(len(self.hexes), self.per_row)
        self.width = cols * (self.size + self.gap)
        self.height = rows * (self.size + self.gap)
        return self.width, self.height

    def draw(self) -> None:
        c = self.canv
        rows = max(1, -(-len(self.hexes) // self.per_row))
        for i, hx in enumerate(self.hexes):
            r, col = divmod(i, self.per_row)
            c.setFillColor(colors.HexColor(hx))
            c.setStrokeColor(colors.HexColor("#555555"))
            c.setLineWidth(0.3)
            c.rect(col * (self.size + self.gap), (rows - 1 - r) * (self.size + self.gap), self.size, self.size,
                   stroke=1, fill=1)


def picture(images: Mapping[str, Any], face_id: str, width: float) -> Flowable | str:
    """A card face at ``width`` points wide, from a file path or a PIL image."""
    src = images.get(face_id)
    if src is None:
        return ""
    if hasattr(src, "save"):       # a PIL image
        buf = io.BytesIO()
        src.save(buf, format="BMP")     # only handed to ReportLab, which decodes it: BMP is lossless and
        #                                 ~15x faster to write and read back than a compressed PNG
        buf.seek(0)
        w, h = src.size
        src = buf
    else:
        from PIL import Image as PILImage
        with PILImage.open(src) as im:
            w, h = im.size
    return Image(src, width=width, height=width * h / w)


ICON_PX = 64          # an inline icon's picture: 64 px square, shown at the line's size (5.6 mm at 9 pt is 290 dpi)


def icon_markup(deck: Deck, size: float, lang: str | None = None) -> Callable[[str], str | None]:
    """``icon(name)`` for :func:`deckgen.rulebook.markup.inline`: the ``<img/>`` of what ``{name}``
    shows on the faces (:func:`deckgen.render.faces.inline_icon`: a colour's chip with its shape cue,
    a kind's own icon or its symbol), ``size`` points square, or a kind's label (in ``lang``) in bold; None for a
    name that is none of these (drawn as the name in bold; the check warns of it).

    The picture is drawn here, in memory, and given to ReportLab as a ``data:`` PNG: deckgen makes it
    from the palette and the kinds, so no template names a file (the rulebook check refuses an
    ``<img>`` in a template's text unless the manifest declares its picture)."""
    made: dict[str, str | None] = {}

    def icon(name: str) -> str | None:
        if name not in made:
            from deckgen.render.faces import inline_icon  # only a text with an icon needs it

            what = inline_icon(deck, name)
            if what is None:
                made[name] = None
            elif what[0] == "text":
                kind = deck.kinds.get(name)
                words = str(what[1])
                if kind is not None and lang is not None:     # the faces' label, in the rulebook's language
                    from deckgen.render.faces import kind_emblem

                    words = kind_emblem(kind, lang_of(lang)).text or kind.names.get(lang_of(lang))
                made[name] = f"<b>{escape(words)}</b>"
            else:
                png = base64.b64encode(icon_png(deck, what)).decode("ascii")
                made[name] = (f'<img src="data:image/png;base64,{png}" width="{size:g}" height="{size:g}" '
                              f'valign="middle"/>')
        return made[name]

    return icon


@contextlib.contextmanager
def data_pictures() -> Iterator[None]:
    """ReportLab reads ``data:`` pictures (the inline icons) while this lasts, and no other address.

    ReportLab opens an ``<img src>`` that is not a file as an address, and refuses every address
    when no host is trusted (its default); here only the ``data:`` scheme is, and no host at all
    (``.invalid`` names none), so a ``file:`` or web address stays refused. A template cannot
    write such an ``<img>`` itself: the rulebook check refuses any picture the manifest does not
    declare."""
    saved = rl_config.trustedHosts, rl_config.trustedSchemes
    rl_config.trustedHosts, rl_config.trustedSchemes = ["deckgen.invalid"], ["data"]
    try:
        yield
    finally:
        rl_config.trustedHosts, rl_config.trustedSchemes = saved


def icon_png(deck: Deck, what: tuple[Any, ...], px: int = ICON_PX) -> bytes:
    """An inline icon (see :func:`icon_markup`) as a transparent PNG, drawn with the faces' own masks:
    the same bytes for the same deck."""
    from PIL import Image as PILImage

    from deckgen.images import picture as image_picture
    from deckgen.render.symbols import symbol_mask
    from deckgen.render.text import DARK

    img = PILImage.new("RGBA", (px, px), (0, 0, 0, 0))

    def paste(color: Sequence[int], mask: PILImage.Image) -> None:
        x, y = (px - mask.width) // 2, (px - mask.height) // 2
        layer = PILImage.new("RGBA", mask.size, (*tuple(color)[:3], 255))
        img.alpha_composite(PILImage.composite(layer, PILImage.new("RGBA", mask.size, (0, 0, 0, 0)), mask), (x, y))

    if what[0] == "color":               # as the faces draw it: a dark rim round the colour's shape
        _, rgb, shape = what
        paste(DARK, symbol_mask(shape or "circle", px, True))
        paste(rgb, symbol_mask(shape or "circle", px - 2 * max(1, px // 8), True))
    elif what[0] == "image":
        fonts = deck_fonts(deck)
        pic = image_picture(what[1], (px, px), "contain", (str(fonts.path("text")), str(fonts.path("display"))))
        img.alpha_composite(pic.convert("RGBA"), ((px - pic.width) // 2, (px - pic.height) // 2))
    else:                                 # a symbol, in the text's ink
        paste(DARK, symbol_mask(what[1], px))
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=False)
    return buf.getvalue()


def copies_note(deck: Deck, g: Group, lang: str) -> str:
    """"0: 1 · 1–9: 2 each, in each colour" and the like."""
    per = uniform_per_color(g)
    if per is None:
        return ""
    # "in each colour" only when the kind is printed in every colour of the palette; else name them
    some = set(g.colors) != set(deck.palette.ids())
    names = [deck.palette.get(c).names.get(lang) for c in g.colors]
    listed = join(names, lang)
    by_count: dict[int, list[int]] = {}
    for value, n in per.items():
        if value is not None:
            by_count.setdefault(n, []).append(value)
    if None in per:
        if some:
            if lang == "es":     # "1 en rojo y 1 en azul"
                each = [f"{per[None]} en {n}" for n in names]
                text = ", ".join(each[:-1]) + " y " + each[-1] if len(each) > 1 else each[0]
            else:
                text = f"{per[None]} each in {listed}"
        else:
            text = f"{per[None]} {ui(lang, 'per_colour')}"
    else:
        parts = [f"{values_text(tuple(sorted(values)), lang)} ×{n}"
                 for n, values in sorted(by_count.items(), key=lambda kv: min(kv[1]))]
        text = f"{ui(lang, 'by_colour')}{' (' + listed + ')' if some else ''}: " + ", ".join(parts)
    return text


def _colour_cell(deck: Deck, g: Group, lang: str, st: Styles, col: float = 24 * mm) -> Any:
    if g.first.colorless:
        return Paragraph(ui(lang, "colourless"), st["small"])
    if g.category == WILD or not g.colors:
        return Paragraph(ui(lang, "no_colour"), st["small"])
    f = min(1.0, col / (24 * mm))
    size, gap = 3.6 * mm * f, 1.0 * mm * f
    per_row = max(1, int((col - 12) // (size + gap)))       # 6 pt cell padding each side
    return Swatches([deck.palette.get(c).hex for c in g.colors], size=size, per_row=min(5, per_row), gap=gap)


def components_table(deck: Deck, lang: str, st: Styles, images: Mapping[str, Any], width: float) -> list[Flowable]:
    head: list[Any] = [Paragraph(ui(lang, k), st["head"]) for k in ("card", "card", "colours", "copies", "points")]
    head[0] = ""
    rows = [head]
    f = _fit(width)
    for g in groups(deck):
        note = copies_note(deck, g, lang)
        copies = [Paragraph(f"<b>{g.total}</b>", st["cell"])]
        if note:
            copies.append(Paragraph(escape(note), st["small"]))
        name = [Paragraph(escape(group_name(deck, g, lang)), st["cellb"])]
        if g.values:
            name.append(Paragraph(values_text(g.values, lang), st["small"]))
        printed = _printed_caption(deck, g, lang)
        if printed:
            name.append(Paragraph(escape(ui(lang, "printed", caption=printed)), st["small"]))
        rows.append([picture(images, g.first.id, 13 * mm * f), name, _colour_cell(deck, g, lang, st, 24 * mm * f), copies,
                     Paragraph(escape(points_text(list(g.cards), lang)), st["cell"])])
    rows.append(["", Paragraph(f"<b>{ui(lang, 'total')}</b>", st["cell"]), "",
                 Paragraph(f"<b>{deck.total}</b>", st["cell"]), ""])
    cols = [17 * mm * f, None, 24 * mm * f, 33 * mm * f, 24 * mm * f]
    cols[1] = width - sum(c for c in cols if c)
    table = Table(rows, colWidths=cols, repeatRows=1)
    table.setStyle(_table_style(len(rows), deck))
    out: list[Flowable] = [table]
    extras = [c for c in deck.components]
    if extras:
        out.append(Paragraph(ui(lang, "extras"), st["h3"]))
        erows = []
        for comp in extras:
            pics = [picture(images, face, 13 * mm * f) for face in comp.faces]
            erows.append([pics[0], pics[1] if len(pics) > 1 else "",
                          Paragraph(f"<b>{escape(comp.names.get(lang))}</b><br/>"
                                    f"{len(comp.faces)} {ui(lang, 'faces')}, {ui(lang, 'shuffled_no')}", st["cell"]),
                          Paragraph(f"<b>{comp.count}</b>", st["cell"]), ""])
        et = Table(erows, colWidths=[17 * mm * f, 17 * mm * f, width - 91 * mm * f, 33 * mm * f, 24 * mm * f])
        et.setStyle(style(("VALIGN", (0, 0), (-1, -1), "MIDDLE"), ("LINEBELOW", (0, 0), (-1, -1), 0.4, RULE)))
        out.append(et)
    return out


def _printed_caption(deck: Deck, g: Group, lang: str) -> str:
    """The caption the group's cards print ("SALTA"), in a rulebook in another language than the
    faces' (the deck's): the words a reader sees on the pictured card, beside the name this
    rulebook uses for it; "" when the faces print no caption or the same words."""
    from deckgen.render.faces import card_face

    if lang_of(lang) == deck.language:
        return ""
    caption = card_face(deck, g.first, symbols=False).caption
    return caption if caption and caption != group_name(deck, g, lang).upper() else ""


def _fit(width: float) -> float:
    """Fixed columns shrink on a narrow page (a booklet's): 1 from 150 mm of text width up."""
    return float(min(1.0, width / (150 * mm)))


class ShapeMark(Flowable):  # type: ignore[misc]  # reportlab ships no type stubs
    """A colour's colour-blind shape mark, drawn as on the cards (the renderer's own shape)."""

    def __init__(self, shape: str, size: float = 5 * mm, color: colors.Color | None = None):
        super().__init__()
        self.shape, self.size = shape, size
        self.color = color or colors.HexColor("#1F2430")

    def wrap(self, aw: float, ah: float) -> tuple[float, float]:
        self.width = self.height = self.size
        return self.size, self.size

    def draw(self) -> None:
        from deckgen.render.symbols import symbol_mask

        mask = symbol_mask(self.shape, 96, shape=True)
        from PIL import Image as PILImage

        rgb = (int(self.color.red * 255), int(self.color.green * 255), int(self.color.blue * 255))
        im = PILImage.new("RGBA", mask.size, (*rgb, 0))
        im.putalpha(mask)
        self.canv.drawImage(im, 0, 0, self.size, self.size, mask="auto")


def _table_style(n: int, deck: Deck) -> TableStyle:
    accent = colors.HexColor("#2B3140")
    cmds = [("BACKGROUND", (0, 0), (-1, 0), accent), ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("LINEBELOW", (0, 0), (-1, -1), 0.4, RULE), ("TOPPADDING", (0, 0), (-1, -1), 3),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 3), ("BACKGROUND", (0, n - 1), (-1, n - 1), SHADE)]
    for r in range(2, n - 1, 2):
        cmds.append(("BACKGROUND", (0, r), (-1, r), colors.HexColor("#FAFBFC")))
    return style(*cmds)


def palette_table(deck: Deck, lang: str, st: Styles, width: float) -> Flowable:
    """Each colour: a swatch, its order, its name and, when the cards carry them, the shape mark
    drawn (not named)."""
    from deckgen.render.symbols import SHAPES
    from deckgen.rulebook.context import color_marks

    other = deck.language
    marks = color_marks(deck)
    head = ["", Paragraph(ui(lang, "order"), st["head"]), Paragraph(ui(lang, "colour"), st["head"])]
    if marks:
        head.append(Paragraph(ui(lang, "symbol"), st["head"]))
    rows = [[*head, Paragraph("", st["head"])]]
    for i, c in enumerate(deck.palette.colors, 1):
        name = f"<b>{escape(c.names.get(lang))}</b>"
        if other != lang_of(lang) and c.names.get(other) != c.names.get(lang):
            name += f" ({escape(c.names.get(other))})"      # the name in the deck's own language
        row: list[Any] = [Swatches([c.hex], size=6 * mm), Paragraph(str(i), st["cell"]), Paragraph(name, st["cell"])]
        if marks:
            if c.symbol and c.symbol in SHAPES:
                row.append(ShapeMark(c.symbol, 5.5 * mm))
            else:       # a shape the renderer cannot draw is named instead
                shape = c.symbol or ""
                row.append(Paragraph(escape(SYMBOL_NAMES[lang_of(lang)].get(shape, shape)), st["cell"]))
        rows.append([*row, Paragraph(c.hex, st["small"])])
    fixed = [12 * mm, 16 * mm] + ([34 * mm] if marks else []) + [22 * mm]
    name_col = min(60 * mm, width - sum(fixed))
    cols = [*fixed[:2], name_col, *fixed[2:]]
    table = Table(rows, colWidths=cols, hAlign="LEFT", repeatRows=1)
    style_ = _table_style(len(rows) + 1, deck)
    if marks:
        style_.add("ALIGN", (3, 1), (3, -1), "CENTER")
    table.setStyle(style_)
    table.keep_with_heading = True
    return table


def card_entry(deck: Deck, key: str, lang: str, st: Styles, images: Mapping[str, Any], width: float) -> Flowable:
    g = next(x for x in groups(deck) if x.key == key)
    title = escape(group_name(deck, g, lang))
    facts = f"× {g.total} · {ui(lang, 'points')}: {escape(points_text(list(g.cards), lang))}"
    facts = facts.replace(" ", "\u00a0")          # the copies and points never wrap apart
    text: list[Flowable] = [Paragraph(f"{title} <font size=9 color='#5B6270'>{facts}</font>", st["entry"])]
    for i, para in enumerate(group_text(deck, g, lang)):
        if g.first.flex and i == 1:
            label = ui(lang, "flex")
            para = para.split(":", 1)[1].strip() if ":" in para else para
            text.append(Paragraph(f"<b>{label}:</b> {escape(para)}", st["entry_text"]))
        else:
            text.append(Paragraph(escape(para), st["entry_text"]))
    table = Table([[picture(images, g.first.id, 18 * mm), text]], colWidths=[23 * mm, width - 23 * mm])
    table.setStyle(style(("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (0, 0), 0),
                         ("BOTTOMPADDING", (0, 0), (-1, -1), 8), ("LINEBELOW", (0, 0), (-1, -1), 0.3, RULE)))
    return table
