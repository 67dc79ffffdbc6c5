"""The audit of every face as drawn: what a player and a careful printer would see on each card.

A face is audited from the plan it is drawn from (:func:`deckgen.render.draw.plan_face`: every
element placed in its layout box, every text fitted with the real font at the face's pixel
size), at each size it is made at, in each language the deck has texts for, and where it
matters on the pixels. For each card and element:

- every element the layout and the card ask for is drawn, with a real area (a box at least
  :data:`MIN_BOX_MM` on a side), inside the safe zone;
- every card has a centre a player can read: a symbol, a label or art;
- no text is smaller than :data:`MIN_TEXT_PT` points at print size, the corner indices included;
- no markup is left over in a rules text (an unclosed ``**``, a stray brace, an icon name that
  is no colour, kind or symbol: :mod:`deckgen.rulebook.markup` reads it), and no ``hide`` names
  an element the card's layout does not have;
- a kind's icon, the logo and a label drawn over art stand out from what is behind them: at
  least :data:`MIN_VISIBLE` of their ink at :data:`MIN_CONTRAST`:1 or more, measured on the
  pixels of the face's field, frame and art drawn at :data:`PIXEL_DPI`;
- no two elements overlap and none leaves the safe zone; these come from the layout, so each is
  one finding per layout and card size (naming both elements and which copy, the turned twin in
  the opposite corner included) pointing at the layout file's line, not one per card.

What each card prints in characters is :mod:`deckgen.glyphs`' check; the images' resolution
:mod:`deckgen.render.look`'s. Codes and examples: ``docs/checks.md``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckgen.errors import ERROR, WARNING, DeckgenError, Finding, did_you_mean
from deckgen.memo import IdentityMemo
from deckgen.model import NUMBER, Card, Deck
from deckgen.render.faces import FaceSpec, face_spec, in_language, languages_of
from deckgen.render.geometry import Frame

if TYPE_CHECKING:
    from PIL import Image

    from deckgen.render.draw import Placed, Plan
    from deckgen.render.fit import Target

MIN_TEXT_PT = 6.0        # the smallest text a player reads at arm's length, at print size (indices too)
MIN_BOX_MM = 1.0         # an element's box narrower or lower than this draws nothing a player sees
MIN_CONTRAST = 3.0       # WCAG's contrast for graphics and large text
MIN_VISIBLE = 0.2        # the share of an icon's, a logo's or a label's ink that must stand out
PIXEL_DPI = 60           # the resolution the pixels are measured at
CONTAINERS = ("background", "frame", "art", "image", "pattern")
FIXED = ("index", "flex", "icons", "rules", "logo")      # elements whose boxes the layout alone decides
AUDIT_FORMAT = "audit-1"


@dataclass(frozen=True)
class Problem:
    """One thing wrong on one face at one size.

    ``scope`` is ``layout`` for what the layout's geometry alone causes (reported once per layout
    and size, at the layout file's line) or ``card`` for what this card's content causes
    (reported at the manifest key ``key`` names: ``name``, ``label``, ``text``, ``icon``,
    ``entry``, ``logo``)."""

    code: str
    element: str
    message: str
    scope: str = "card"
    key: str = "entry"
    severity: str = ERROR
    hint: str = ""
    text: str = ""                 # small-text: the words, and their size in points
    pt: float = 0.0


# ---------------------------------------------------------------- one face

def face_audit(spec: FaceSpec, frame: Frame, plan: Plan | None = None) -> list[Problem]:
    """Everything wrong with one face at one frame, from its plan (geometry, text sizes)."""
    from deckgen.render.draw import plan_face

    try:
        plan = plan or plan_face(spec, frame)
    except Exception as exc:  # a layout that cannot be placed at all must be a finding, never a crash
        return [Problem("layout-box", "", f"cannot be laid out at this size ({type(exc).__name__}: {exc})", "layout",
                        hint="check the boxes of the layout (docs/layouts.md)")]
    boxes = _boxes(plan)
    empty = {p.element for p in boxes}         # an element with no box: its text and place are not judged again
    out = boxes + [p for p in _centre(plan) + _misfits(plan) + _small_text(plan) + _geometry(plan)
                   if p.element not in empty]
    return list(dict.fromkeys(out))


def _mm(px: float, frame: Frame) -> float:
    return px / frame.dpi * 25.4


def _wanted(plan: Plan, el_type: str) -> bool:
    """Whether the face has something for an element of this type to draw."""
    spec = plan.spec
    return {"art": spec.art is not None, "rules": bool(spec.rules), "flex": spec.flex is not None,
            "caption": bool(spec.caption), "logo": spec.logo is not None, "title": bool(spec.title),
            "image": spec.back_image is not None}.get(el_type, el_type in ("index", "icons", "symbol"))


def _boxes(plan: Plan) -> list[Problem]:
    """An element the card asks for whose box has no real area (it draws nothing, or a sliver)."""
    from deckgen.render.layout import FULL

    out: list[Problem] = []
    spec, frame = plan.spec, plan.frame
    for el in spec.lay().elements:
        if el.box == FULL or not spec.shows(el.name) or not _wanted(plan, el.type) or el.type in ("background",):
            continue
        if el.type == "art" and el.opt("place", "frame") != "box":
            continue                           # art in the frame or full bleed: not in its own box
        x0, y0, x1, y1 = el.box.resolve(frame, raw=True)
        w, h = _mm(x1 - x0, frame), _mm(y1 - y0, frame)
        if w < MIN_BOX_MM or h < MIN_BOX_MM:
            out.append(Problem("layout-box", el.name, f"has a box of {w:.1f} x {h:.1f} mm, so it is not drawn "
                               "(or only as a sliver)", "layout",
                               hint="give the box a positive width and height (docs/layouts.md, \"Boxes\")"))
    return out


def _centre(plan: Plan) -> list[Problem]:
    """A card face with nothing in its centre: no symbol, no label, no art."""
    spec = plan.spec
    if spec.face_id == "back" or "power" in spec.tags:
        return []
    symbol = plan.get("symbol")
    if (symbol is not None and symbol.data.get("items")) or plan.get("art") is not None:
        return []
    if spec.oval == "segments" and plan.get("frame") is not None and plan.shape.kind != "none":
        return []                               # a wild's oval of colours: the classic plain Wild
    return [Problem("no-centre", "symbol", "shows no symbol, label or art in its centre, so a player cannot tell "
                    "what it is from the middle of the card", key="centre",
                    hint="show the symbol element on it (its layout's hide/show), give the kind a label or "
                         "symbol, or art")]


def _misfits(plan: Plan) -> list[Problem]:
    out = []
    for m in plan.misfits:
        if m.element == "rules":
            out.append(Problem("rules-text", "rules", f"its rules text {m.message}", key="text", severity=WARNING,
                               hint="shorten the text"))
        else:
            out.append(Problem("fit", m.element, m.message, hint=_fit_hint(m.element)))
    return out


def _fit_hint(element: str) -> str:
    return (f"give the '{element}' element a larger box or a smaller 'size' in its layout (docs/layouts.md), "
            f"or hide it on this card (hide = [\"{element}\"])")


def text_items(plan: Plan) -> list[tuple[str, str, float, str]]:
    """(element, text, font size in px, manifest key) of every text the face draws."""
    out: list[tuple[str, str, float, str]] = []
    spec = plan.spec
    for p in plan.placed:
        d, name = p.data, p.el.name
        if p.el.type == "index" and d.get("mode") == "text":
            out.append((name, spec.index.text, d["font"].size, "label"))
        elif p.el.type == "symbol":
            out += [(name, it[1], it[2].size, "label") for it in d.get("items", []) if it[0] == "text"]
        elif p.el.type == "caption":
            out += [(name, line, d["font"].size, "name") for line, _ in d.get("lines", [])]
        elif p.el.type == "rules" and "px" in d:
            out.append((name, spec.rules, d["px"], "text"))
        elif p.el.type == "flex" and spec.flex is not None:
            out.append((name, spec.flex.label, d["label"][0].size, "entry"))
            out += [(name, spec.flex.emblem.text, size.size, "flex") for part, _, _, size in d.get("parts", [])
                    if part == "text"]
    return out


def _small_text(plan: Plan) -> list[Problem]:
    out = []
    dpi = plan.frame.dpi
    for element, text, px, key in text_items(plan):
        pt = px * 72 / dpi
        if pt < MIN_TEXT_PT - 0.05:
            out.append(Problem("small-text", element, "", key=key, hint=_small_hint(plan, element),
                               text=text, pt=round(pt, 1)))
    return out


def _small_hint(plan: Plan, element: str) -> str:
    """What makes a text too small larger: a shorter text, a larger box, and for a caption that
    would break into one more line, ``lines`` one more."""
    from deckgen.render.draw import caption_lines
    from deckgen.render.layout import MAX_CAPTION_LINES

    more = ""
    for p in plan.placed:
        if p.el.name == element and p.el.type == "caption":
            allowed = int(p.el.opt("lines", 2))
            if allowed < MAX_CAPTION_LINES and len(caption_lines(plan.spec.caption, allowed + 1)) > len(
                    caption_lines(plan.spec.caption, allowed)):
                more = f" (or lines = {allowed + 1} for the caption)"
    return f"a shorter text, or a larger box{more} for the '{element}' element in its layout"


def _what(p: Placed, i: int) -> str:
    copy = p.copy_of(i)
    return f"{p.el.name}'s {copy}" if copy else p.el.name


def _geometry(plan: Plan) -> list[Problem]:
    """Elements leaving the safe zone, and elements overlapping each other (each pair once)."""
    from deckgen.render.draw import overlaps

    out: list[Problem] = []
    frame = plan.frame
    l, t, r, b = frame.safe_box
    misfit = {m.element for m in plan.misfits}
    placed = [p for p in plan.placed if p.el.type not in CONTAINERS]
    for p in placed:
        for i, (x0, y0, x1, y1) in enumerate(p.rects):
            over = max(l - x0, t - y0, x1 - r, y1 - b)
            if over > 1:
                scope = "layout" if p.el.type in FIXED else "card"
                out.append(Problem("safe-zone", p.el.name, f"the {_what(p, i)} leaves the safe zone by "
                                   f"{_mm(over, frame):.1f} mm", scope,
                                   hint="move its box inside (boxes are measured from the safe zone's edges)"))
                break
    for a, p in enumerate(placed):
        for q in placed[a + 1:]:
            if p.el.name in misfit or q.el.name in misfit:
                continue                    # said already: it did not fit (and was made as small as it goes)
            hit = next(((i, j) for i, rp in enumerate(p.rects) for j, rq in enumerate(q.rects) if overlaps(rp, rq)), None)
            if hit is None:
                continue
            both_fixed = p.el.type in FIXED and q.el.type in FIXED
            turned = [x for x, k, y in ((p, hit[0], p), (q, hit[1], q)) if x.copy_of(k)]
            cause = (f" (the {turned[0].el.name}'s turned copy is the same box turned half round into the "
                     "opposite corner)") if turned else ""
            out.append(Problem("overlap", p.el.name, f"the {_what(p, hit[0])} overlaps the {_what(q, hit[1])}",
                               "layout" if both_fixed else "card",
                               hint=f"move or shrink the box of the {p.el.name} or of the {q.el.name}{cause}, "
                                    f"or leave one out on these cards (hide = [\"{q.el.name}\"])"))
    return out


# ---------------------------------------------------------------- what does not depend on the size

def text_problems(spec: FaceSpec) -> list[Problem]:
    """Markup left over in the face's rules text, and icon names that are nothing."""
    from deckgen.rulebook.markup import card_text

    out: list[Problem] = []
    if not spec.rules:
        return out
    for problem in card_text(spec.rules).problems:
        out.append(Problem("text-markup", "rules", f"its rules text has {problem}", key="text",
                           hint="close each ** and * you open; write \\* \\{ \\} for the characters themselves"))
    unknown = [name for name, icon in spec.rules_icons if icon[0] == "unknown"]
    if unknown:
        names = ", ".join(f"'{{{n}}}'" for n in unknown)
        one = len(unknown) == 1
        out.append(Problem("text-icon", "rules", f"its rules text names {'an icon' if one else 'icons'} {names} that "
                           f"{'is' if one else 'are'} neither a palette colour, a kind nor a symbol, so the "
                           f"word{'' if one else 's'} {'is' if one else 'are'} printed instead", key="text",
                           hint=f"icon:{unknown[0]}"))
    return out


def hide_problems(deck: Deck) -> list[Finding]:
    """A ``hide`` naming an element that the card's layout does not have: nothing is hidden."""
    from deckgen.errors import warning
    from deckgen.render.faces import deck_layout

    file = str(deck.source) if deck.source else None
    out: list[Finding] = []
    seen: set[tuple[str, str]] = set()
    for card in deck.cards:
        kind = deck.kinds[card.kind]
        try:
            layout = deck_layout(deck, card.layout or kind.layout or deck.layout, "face")
        except DeckgenError:
            continue                        # the layout's own finding
        names = [e.name for e in layout.elements]
        for where, hidden in ((f"kinds.{kind.id}.hide", kind.hide), (f"{card.where}.hide", card.hide)):
            for name in hidden:
                if name in names or (where, name) in seen:
                    continue
                seen.add((where, name))
                out.append(warning("hide", where, f"hide names '{name}', but the layout '{layout.id}' has no element "
                                   "of that name, so nothing is hidden", file=file,
                                   hint=did_you_mean(name, names) or "its elements: " + ", ".join(names)))
    return out


# ---------------------------------------------------------------- the pixels

def _luminance_ok(ink: tuple[int, ...], behind: tuple[int, ...]) -> bool:
    from deckgen.palette import contrast

    return contrast(ink[:3], behind[:3]) >= MIN_CONTRAST


def _visible_share(pic: Image.Image, behind: Image.Image) -> float:
    """The share of a picture's opaque pixels that stand out from the pixels behind them."""
    alpha = pic.getchannel("A").tobytes()
    ink = pic.convert("RGB").tobytes()
    back = behind.convert("RGB").resize(pic.size).tobytes()
    total = seen = 0
    for i, a in enumerate(alpha):
        if a >= 128:
            total += 1
            seen += _luminance_ok(tuple(ink[3 * i:3 * i + 3]), tuple(back[3 * i:3 * i + 3]))
    return seen / total if total else 1.0


def _region(base: Image.Image, centre: tuple[float, float], size: tuple[int, int]) -> Image.Image:
    (cx, cy), (w, h) = centre, size
    x, y = round(cx - w / 2), round(cy - h / 2)
    return base.crop((x, y, x + w, y + h))


Shown = tuple[str, str, "Image.Image", "Image.Image"]      # (what, manifest key, the picture, what is behind it)


def _shown(spec: FaceSpec, p: Placed, base: Image.Image) -> list[Shown]:
    """The pictures an element puts on the face (the kind's icon, the logo, an index over art as its
    ink), each with the pixels behind it."""
    from PIL import Image as PILImage

    from deckgen.images import picture
    from deckgen.render.draw import icon_picture, image_fonts

    d, out = p.data, []
    if p.el.type == "symbol" and spec.icon is not None:
        for item in d.get("items", []):
            if item[0] == "symbol" and item[1] == "icon":
                pic = icon_picture(spec, spec.icon, max(2, int(item[2])))
                behind = (PILImage.new("RGB", pic.size, (255, 255, 255)) if d.get("halo")       # on its white halo
                          else _region(base, (item[3], item[4]), pic.size))
                out.append(("the kind's icon", "icon", pic, behind))
    elif p.el.type == "icons" and spec.icon is not None and d.get("size", 0) >= 2:
        for name, _, cx, cy in d.get("items", []):
            if name == "icon":
                pic = icon_picture(spec, spec.icon, d["size"])
                out.append(("the kind's icon", "icon", pic, _region(base, (cx, cy), pic.size)))
    elif p.el.type == "logo" and spec.logo is not None:
        pic = picture(spec.logo, d["box"], "contain", image_fonts(spec))
        out.append(("the logo", "logo", pic, _region(base, d["centre"], pic.size)))
    elif p.el.type == "index" and d.get("mode") == "text" and not d.get("light") and spec.art is not None:
        x0, y0, x1, y1 = (round(v) for v in p.rects[0])
        if x1 - x0 >= 2 and y1 - y0 >= 2:
            behind = base.crop((x0, y0, x1, y1))
            out.append((f"the index '{spec.index.text}'", "label",
                        PILImage.new("RGBA", behind.size, (*spec.index_ink, 255)), behind))
    return out


def _boxed_caption(spec: FaceSpec) -> bool:
    """Whether the face has a caption in a box of its own (one that may lie on the frame's panel or
    on the field, whose colour its ink must then stand out from)."""
    caption = spec.lay().element("caption")
    return bool(spec.caption) and caption is not None and caption.opt("place", "frame") == "box"


def _caption_contrast(plan: Plan) -> list[Problem]:
    """A caption drawn without an outline, in an ink too close to the flat colour behind it (the
    frame's white panel, or the card's field)."""
    from deckgen.palette import contrast
    from deckgen.render.draw import caption_style, overlaps

    p = plan.get("caption")
    if p is None or not p.rects:
        return []
    style = caption_style(plan, p)
    on_frame = plan.get("frame") is not None and plan.shape.kind != "none" and any(
        overlaps(rc, plan.shape.rect()) for rc in p.rects)
    if style.stroke or plan.spec.art is not None or (on_frame and plan.spec.oval != "white"):
        return []                                # an outline, or art / colours behind: not one flat colour
    behind = (255, 255, 255) if on_frame else plan.spec.field
    ink = style.fill if isinstance(style.fill, tuple) else (style.fill,) * 3
    ratio = contrast(ink[:3], behind)
    if ratio >= MIN_CONTRAST:
        return []
    return [Problem("contrast", p.el.name, f"the caption '{plan.spec.caption}' is printed in {_hex(ink)} on "
                    f"{_hex(behind)}: contrast {ratio:.1f}:1 (wants {MIN_CONTRAST:g}:1)", key="entry",
                    hint="give the caption style = \"outlined\" in its layout, or move its box off the panel")]


def _hex(rgb: tuple[int, ...]) -> str:
    return "#" + "".join(f"{v:02X}" for v in rgb[:3])


def pixel_problems(spec: FaceSpec, frame: Frame) -> list[Problem]:
    """Icons, logos and labels over art that do not stand out from what is behind them, measured
    on the face's base (field, frame, art, back image, pattern) drawn at :data:`PIXEL_DPI`; a
    caption on a flat colour, from the two colours."""
    from deckgen.render.draw import BASE_TYPES, _base, plan_face

    if spec.icon is None and spec.logo is None and spec.art is None and spec.back_image is None:
        return _caption_contrast(plan_face(spec, frame)) if _boxed_caption(spec) else []
    low = Frame(frame.trim_mm, PIXEL_DPI, frame.bleed_mm, frame.safe_mm)
    plan = plan_face(spec, low)
    n = 0
    while n < len(plan.placed) and plan.placed[n].el.type in BASE_TYPES:
        n += 1
    base = _base(plan, n)
    out: list[Problem] = _caption_contrast(plan)
    for p in plan.placed:
        for what, key, pic, behind in _shown(spec, p, base):
            share = _visible_share(pic, behind) if pic.width >= 2 and pic.height >= 2 else 1.0
            if share < MIN_VISIBLE:
                out.append(Problem("contrast", p.el.name, f"{what} hardly stands out from what is behind it: "
                                   f"{share:.0%} of it has {MIN_CONTRAST:g}:1 contrast or more (wants "
                                   f"{MIN_VISIBLE:.0%})", key=key,
                                   hint="use a lighter or darker picture or field, or an outline round it"))
    return out


# ---------------------------------------------------------------- a deck

@dataclass(frozen=True)
class _Seen:
    """A problem found on a face: which face, in which language, at which size; ``words``: the
    face's words it is about (the same problem in the same words is one finding in any language)."""

    face: str
    lang: str
    label: str
    layout: str
    problem: Problem
    words: str = ""


def _geometry_key(spec: FaceSpec) -> tuple[Any, ...]:
    """What a face's geometry depends on (not its colours): faces that differ only in their
    colours are planned once. Cheap to hash: the layout by identity (a deck's faces share one or
    two layout objects), the rest small values."""
    return (id(spec.lay()), spec.face_id == "back", spec.oval, spec.centre, spec.index, spec.caption, spec.marks,
            spec.shape, spec.flex and (spec.flex.emblem, spec.flex.shape, spec.flex.label, spec.flex.icon,
                                       spec.flex.color is None),
            spec.title, spec.fonts, spec.art, spec.art_fit, spec.icon, spec.rules, spec.rules_icons,
            spec.back_image, spec.logo, spec.tags, spec.hidden)


_SPECS: IdentityMemo[dict[str, dict[str, FaceSpec]]] = IdentityMemo(8)


def specs_by_language(deck: Deck) -> dict[str, dict[str, FaceSpec]]:
    """Every face's spec in every language the deck has texts for (its own first); in the other
    languages only the faces with words on them (a number card is the same in every language)."""
    from deckgen.render.batch import face_specs

    def make() -> dict[str, dict[str, FaceSpec]]:
        out = {deck.language: face_specs(deck, deck.shape_cues)}
        worded = {c.id for c in deck.cards if _worded(deck, c)} | {"back"} | {f for comp in deck.components
                                                                            for f in comp.faces}
        for lang in languages_of(deck)[1:]:
            d = in_language(deck, lang)
            out[lang] = {fid: face_spec(d, fid, d.shape_cues) for fid in out[deck.language] if fid in worded}
        return out

    return _SPECS.get(deck, make)


def _worded(deck: Deck, card: Card) -> bool:
    """Whether a card's face has words that change with the language."""
    kind = deck.kinds[card.kind]
    return (kind.category != NUMBER or bool(card.text or kind.text) or card.flip_icon or card.duel
            or card.colorless or card.flex is not None)


def _pixels(spec: FaceSpec, frame: Frame) -> list[Problem]:
    """:func:`pixel_problems`, or a warning that the face could not be measured (never a crash)."""
    try:
        return pixel_problems(spec, frame)
    except Exception as exc:  # an image or a layout the drawing code cannot handle: said, not raised
        return [Problem("contrast", "", f"could not be measured on the pixels ({type(exc).__name__}: {exc})",
                        severity=WARNING, hint="this is likely a deckgen bug: please report it")]


def _audit(deck: Deck, targets: list[Target]) -> list[_Seen]:
    out: list[_Seen] = []
    planned: dict[tuple[Any, ...], list[Problem]] = {}
    pixels: dict[tuple[Any, ...], list[Problem]] = {}
    texts: dict[str, list[Problem]] = {}
    for lang, specs in specs_by_language(deck).items():
        for fid, spec in specs.items():
            layout = spec.lay().id
            if spec.rules:
                if spec.rules not in texts:
                    texts[spec.rules] = text_problems(spec)
                out.extend(_Seen(fid, lang, "", layout, p, spec.rules) for p in texts[spec.rules])
            geometry = _geometry_key(spec)
            for i, tgt in enumerate(targets):
                key = (geometry, tgt.label)
                if key not in planned:
                    planned[key] = face_audit(spec, tgt.frame())
                found = list(planned[key])
                if i == 0 and (spec.icon or spec.logo or spec.art or spec.back_image or _boxed_caption(spec)):
                    # the colours and the pixels: at the deck's size
                    pkey = (geometry, spec.field, spec.ink, spec.segments, spec.index_ink)
                    if pkey not in pixels:
                        pixels[pkey] = _pixels(spec, tgt.frame())
                    found += pixels[pkey]
                out.extend(_Seen(fid, lang, tgt.label, layout, p, _words(spec, p)) for p in found)
    return out


def _words(spec: FaceSpec, p: Problem) -> str:
    """The words of the face a problem is about (its rules text, caption or label)."""
    return {"text": spec.rules, "name": spec.caption, "label": f"{spec.centre.text}|{spec.index.text}",
            "flex": spec.flex.emblem.text if spec.flex else ""}.get(p.key, "")


def _names(ids: list[str]) -> str:
    shown = [f"'{i}'" for i in ids[:8]]
    more = f" and {len(ids) - 8} more" if len(ids) > 8 else ""
    return ", ".join(shown) + more


def _element_at(layout: str, element: str, base: Path | None) -> str:
    """``file:line`` of an element's table in the layout file it comes from ("" when unknown)."""
    from deckgen.datafile import line_index
    from deckgen.render.fit import layout_path

    path = layout_path(layout, base)
    index = line_index(path) if path else None
    line = index.line(f"elements.{element}") if index is not None else None
    return f"{path}:{line}" if path and line else ""


def _small(items: list[_Seen]) -> str:
    """What a small-text finding says: the texts (a few), and the smallest size among them."""
    texts = list(dict.fromkeys(s.problem.text for s in items))
    shown = ", ".join(f"'{t if len(t) <= 40 else t[:37] + '...'}'" for t in texts[:6])
    more = f" and {len(texts) - 6} more" if len(texts) > 6 else ""
    smallest = min(s.problem.pt for s in items)
    return (f"prints {shown}{more} at {smallest:.1f} pt{' or more' if len(texts) > 1 else ''}, below the "
            f"{MIN_TEXT_PT:g} pt a player reads at arm's length")


def _card_where(deck: Deck, fid: str, key: str) -> str:
    """The manifest key a card's problem is about (``key``: what in the card it comes from)."""
    if fid == "back":
        return "deck.logo" if key == "logo" else "deck.back_text" if deck.back_text else "deck.name"
    card = next((c for c in deck.cards if c.id == fid), None)
    if card is None:
        return "components"
    kind = deck.kinds[card.kind]
    text = f"{card.where}.text" if card.text else f"kinds.{kind.id}.text"
    label = (card.where if kind.category == NUMBER else f"kinds.{kind.id}.label" if kind.label is not None
             else f"kinds.{kind.id}")
    flex = f"{card.where}.flex" if card.flex is not None else card.where
    return {"name": f"kinds.{kind.id}.name", "label": label, "text": text, "icon": f"kinds.{kind.id}.icon",
            "logo": "deck.logo", "flex": flex, "centre": f"kinds.{kind.id}"}.get(key, card.where)


def _icon_hint(deck: Deck, name: str) -> str:
    names = [*deck.palette.ids(), *deck.kinds]
    return did_you_mean(name.lower(), names) or "icons: " + ", ".join(names) + r" (write \{ for a brace)"


def findings(deck: Deck, seen: Iterable[_Seen]) -> list[Finding]:
    """The problems as findings: a layout's once per layout and size (at the layout file's element),
    a card's once per manifest key and problem (naming every card it is on)."""
    from deckgen.render.fit import layout_path

    file = str(deck.source) if deck.source else None
    base = deck.source.parent if deck.source else None
    groups: dict[tuple[Any, ...], list[_Seen]] = {}
    for s in seen:
        p = s.problem
        if p.scope == "layout":
            key: tuple[Any, ...] = ("layout", s.layout, s.label, p)
        elif p.code == "small-text":           # one finding for an element's texts (every number of an entry)
            key = ("card", _card_where(deck, s.face, p.key), s.label, p.element, p.code)
        else:
            key = ("card", _card_where(deck, s.face, p.key), s.label, s.words, p)
        groups.setdefault(key, []).append(s)
    out: list[Finding] = []
    for key, items in groups.items():
        p = items[0].problem
        faces = list(dict.fromkeys(s.face for s in items))
        at = f" at size {items[0].label}" if items[0].label else ""
        langs = list(dict.fromkeys(s.lang for s in items))
        in_lang = f" ({', '.join(langs)})" if deck.language not in langs else ""
        hint = _icon_hint(deck, p.hint[5:]) if p.hint.startswith("icon:") else (p.hint or None)
        if key[0] == "layout":
            path = layout_path(items[0].layout, base)
            where = f"elements.{p.element}.box" if p.element else "layout"
            msg = p.message if p.message.startswith("the ") else f"the {p.element} {p.message}".strip()
            out.append(Finding(p.severity, p.code, where,
                               f"layout '{items[0].layout}'{at}: {msg} on {len(faces)} card"
                               f"{'s' if len(faces) > 1 else ''} ({_names(faces)})",
                               file=str(path) if path else None, hint=hint))
        else:
            who = f"card {_names(faces)}" if len(faces) == 1 else f"cards {_names(faces)}"
            what = p.message if p.message.startswith(("the ", "its ", "shows ")) else f"the {p.element} {p.message}"
            if p.code == "small-text":
                what = f"the {p.element} {_small(items)}"
            place = _element_at(items[0].layout, p.element, base) if p.element else ""
            what += f" (layout '{items[0].layout}', {place})" if place else ""
            out.append(Finding(p.severity, p.code, key[1], f"{who}{in_lang}{at}: {what}", file=file, hint=hint))
    return out


def audit(deck: Deck, sizes: Iterable[str] | None = None, *, use_cache: bool = True,
          cache_dir: Path | None = None) -> list[Finding]:
    """Every face of the deck audited at its own card size and at ``sizes`` (card-size presets,
    ``WxH`` or print-shop presets), in every language it has texts for; kept in the cache under
    what it is worked out from (every face's spec in every language, the sizes, deckgen's code)."""
    from deckgen.render.fit import target_or_none

    names = list(dict.fromkeys([deck.card_size, *(sizes or [])]))
    targets = [t for t in (target_or_none(name, deck) for name in names) if t is not None]
    out = hide_problems(deck)
    if not targets:
        return out
    key = _key(deck, targets) if use_cache else None
    found = _from_cache(key, cache_dir) if key else None
    if found is None:
        found = findings(deck, _audit(deck, targets))
        if key:
            from deckgen import cache

            cache.put_bytes("documents", key, "audit.json", json.dumps([f.to_json() for f in found]).encode("utf-8"),
                            cache_dir)
    return out + found


def _key(deck: Deck, targets: list[Target]) -> str:
    from deckgen.cache import digest
    from deckgen.inputs import code_version
    from deckgen.render.batch import spec_repr

    parts = [lang + ":" + ", ".join(f"({fid!r}, {spec_repr(spec)})" for fid, spec in sorted(specs.items()))
             for lang, specs in specs_by_language(deck).items()]
    return digest(AUDIT_FORMAT, code_version(), repr(targets), deck.language, str(deck.source), *parts)


def _from_cache(key: str, cache_dir: Path | None) -> list[Finding] | None:
    from deckgen import cache

    data = cache.get_bytes("documents", key, "audit.json", cache_dir)
    if data is None:
        return None
    try:
        return [Finding(str(f["severity"]), str(f["code"]), str(f["where"]), str(f["message"]),
                        file=f.get("file"), hint=f.get("hint"), line=f.get("line")) for f in json.loads(data)]
    except (ValueError, TypeError, KeyError, AttributeError):
        return None


def face_problems(spec: FaceSpec, frame: Frame) -> list[tuple[str, str]]:
    """(element, problem) of the geometry of one face at one frame, from its plan: what did not
    fit, what overlaps, what leaves the safe zone (:func:`deckgen.render.audit.face_audit`)."""
    return [(p.element, p.message) for p in face_audit(spec, frame) if p.code in ("fit", "overlap", "safe-zone")]


def check_fit(deck: Deck, sizes: Iterable[str] | None = None, *, use_cache: bool = True,
              cache_dir: Path | None = None) -> list[Finding]:
    """The faces' fit at each of ``sizes`` (default: the deck's own card size): the audit's
    (:func:`deckgen.render.audit.audit`) errors for what does not fit, each naming the card, the
    element and the size, and for what the layout makes overlap or leave the safe zone."""
    return [f for f in audit(deck, sizes, use_cache=use_cache, cache_dir=cache_dir)
            if f.code in ("fit", "overlap", "safe-zone")]
