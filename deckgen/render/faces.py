"""What each face shows, as a frozen :class:`FaceSpec` derived from the deck model.

The spec is all the renderer draws from, so its ``repr`` is also the content part of the
cache key: a face is redrawn exactly when something it shows has changed.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from deckgen.effects import Effect
from deckgen.errors import DeckgenError, did_you_mean, error
from deckgen.fonts import FontRef, deck_fonts
from deckgen.memo import IdentityMemo
from deckgen.model import NUMBER, WILD, Card, Deck, ImageRef, Kind
from deckgen.palette import text_ink
from deckgen.render.layout import Layout, get_layout, layouts
from deckgen.render.symbols import SHAPES, SYMBOLS
from deckgen.words import FACE_WORDS as WORDS

RGB = tuple[int, int, int]

WILD_FIELD = (22, 22, 22)
COLORLESS_FIELD = (74, 74, 74)
BACK_FIELD = (18, 18, 18)
POWER = {"power-green": ((46, 158, 72), "check"), "power-red": ((215, 38, 61), "cross")}
WHITE = (255, 255, 255)


@dataclass(frozen=True)
class Emblem:
    """A centre or corner mark: a number/label text, a vector symbol, or both."""

    text: str = ""
    symbol: str | None = None      # a name in symbols.SYMBOLS, or "wheel" (palette wheel)
    underline: bool = False        # 6 and 9
    extra: str | None = None       # a small second symbol (reverse on Wild Reverse Draw Four)


@dataclass(frozen=True)
class FlexBadge:
    color: RGB | None              # None: a flex wild (dark badge)
    emblem: Emblem
    ink: RGB
    shape: str | None = None       # the flex colour's shape cue
    label: str = "FLEX"
    icon: ImageRef | None = None   # the flex kind's own icon, instead of its symbol


@dataclass(frozen=True, repr=False)
class FaceSpec:
    face_id: str
    field: RGB
    oval: str                      # "white", "segments" or "none"
    segments: tuple[RGB, ...]
    ink: RGB                       # centre emblem colour
    centre: Emblem
    index: Emblem
    index_ink: RGB
    caption: str = ""
    marks: tuple[str, ...] = ()    # "flip", "duel"
    shape: str | None = None       # colour-blind shape cue
    flex: FlexBadge | None = None
    title: str = ""                # card back
    title_ink: RGB = WHITE
    # The deck's own look. Images and fonts show in the repr (the cache key) by content digest.
    fonts: tuple[FontRef, ...] = ()        # (display, text); () = the default fonts
    art: ImageRef | None = None            # illustration in the centre oval
    art_fit: str = "cover"
    icon: ImageRef | None = None           # replaces the generated symbol (centre and corners)
    rules: str = ""                        # the rules line, in the deck's language
    back_image: ImageRef | None = None     # card back: full-bleed art
    logo: ImageRef | None = None           # card back: in the centre
    rules_icons: tuple[tuple[str, InlineIcon], ...] = ()   # (name, icon) of each {icon} in the rules text
    layout: Layout | None = None           # None: the bundled default (uno / uno-back)
    # what an element's hide/show match (kind id, category, ...) and the elements the kind or card
    # hides: sorted tuples, so the repr (the cache key) is the same in every process
    tags: tuple[str, ...] = ()
    hidden: tuple[str, ...] = ()

    def __repr__(self) -> str:
        """The dataclass repr (the faces' cache keys hash it), but for the layout's part, worked
        out once per layout object: a deck's faces share one or two layouts, and a layout's repr
        is most of a face's."""
        parts = ", ".join(f"{f.name}={_layout_repr(self.layout) if f.name == 'layout' else repr(getattr(self, f.name))}"
                          for f in fields(self))
        return f"{type(self).__qualname__}({parts})"

    def lay(self) -> Layout:
        if self.layout is not None:
            return self.layout
        return get_layout(None, None, "back" if self.face_id == "back" else "face")

    def shows(self, name: str) -> bool:
        """Whether the face draws its layout's element ``name``."""
        if name in self.hidden:
            return False
        el = next((e for e in self.lay().elements if e.name == name), None)
        return el is not None and el.shown(self.tags)


_DECK_LAYOUTS: dict[int, tuple[weakref.ref[Deck], dict[str, Layout]]] = {}


def deck_layout(deck: Deck, name: str | None, target: str = "face") -> Layout:
    """A layout for a face of this deck: the catalogue is read once per deck object (a deck read
    again, as ``watch`` does after a change, reads it again)."""
    hit = _DECK_LAYOUTS.get(id(deck))
    if hit is None or hit[0]() is not deck:
        base = deck.source.parent if deck.source else None
        for key in [k for k, (ref, _) in _DECK_LAYOUTS.items() if ref() is None]:
            del _DECK_LAYOUTS[key]
        hit = (weakref.ref(deck), dict(layouts(base)))
        _DECK_LAYOUTS[id(deck)] = hit
    found = hit[1]
    wanted = name or ("uno" if target == "face" else "uno-back")
    if wanted in found and found[wanted].target == target:
        return found[wanted]
    return get_layout(name, deck.source.parent if deck.source else None, target)     # raises with a hint


def words(lang: str) -> dict[str, str]:
    return WORDS.get(lang, WORDS["en"])


PLUS_N = "+n"      # the face shows the kind's draw count as text ("+4")

#: Each primitive's face symbol (the face layer of the effect registry), in priority order: the
#: first of a kind's effects found here that names a symbol gives its centre emblem. A function of
#: the effect (pass_hands draws its direction); PLUS_N: the draw count as text; "": no symbol, the
#: face shows the wild's colour wheel or the kind's label; None: this primitive alone draws nothing
#: and the next effect decides.
FACE_SYMBOLS: Mapping[str, Callable[[Effect], str | None]] = MappingProxyType({
    "draw": lambda e: PLUS_N,
    "everyone_draws": lambda e: PLUS_N,
    "roulette": lambda e: "wheel",
    "skip_all": lambda e: "skip-all",
    "play_again": lambda e: "play-again",
    "skip": lambda e: "skip",
    "reverse": lambda e: "reverse",
    "steal": lambda e: "steal",
    "discard_color": lambda e: "discard-all",
    "swap_hands": lambda e: "swap",
    "pass_hands": lambda e: {"left": "pass-left", "right": "pass-right"}.get(e.direction, "pass"),
    "flip_power": lambda e: "flip",
    "duel": lambda e: "duel",
    "choose_color": lambda e: "",
    "target": lambda e: None,
    "challenge": lambda e: None,
})


def _derived(kind: Kind) -> tuple[str | None, str, str | None]:
    """(symbol, +N text, extra symbol) derived from a kind's effect primitives through
    :data:`FACE_SYMBOLS`."""
    ops = [e.op for e in kind.effects]
    draw = kind.draw_value
    everyone = sum(e.n for e in kind.effects if e.op == "everyone_draws")
    extra = "reverse" if "reverse" in ops and (draw or everyone) else None
    if draw:
        return ("target" if "target" in ops else None), f"+{draw}", extra
    if everyone:
        return "everyone", f"+{everyone}", extra
    for op, symbol in FACE_SYMBOLS.items():
        for e in kind.effects:
            if e.op == op:
                sym = symbol(e)
                if sym is not None and sym != PLUS_N:
                    return (sym or None), "", None
    return "plus", "", None


def kind_emblem(kind: Kind, lang: str, value: int | None = None) -> Emblem:
    """A kind's centre emblem: its label (or the text derived from its effects, "+2") and its
    symbol. A symbol the kind names is drawn even beside a derived text; the kind's own ``icon``
    stands for what it does in place of a derived text (a label it is given stays)."""
    if kind.category == NUMBER:
        text = "" if value is None else str(value)
        return Emblem(text, None, value in (6, 9))
    sym, text, extra = _derived(kind)
    if kind.label is not None:
        text = one_line(kind.label.get(lang))
    elif kind.icon is not None and kind.symbol != "none":
        text, extra = "", None
    if kind.symbol == "none":
        return Emblem(text, None, False, None)
    if kind.symbol:
        named = {"roulette": "wheel", "wild": None}.get(kind.symbol, kind.symbol)
        if named is None or named == "wheel" or named in SYMBOLS or named in SHAPES:
            sym = named
    return Emblem(text, sym, False, extra)


def index_emblem(kind: Kind, lang: str, value: int | None = None) -> Emblem:
    """The corner index's emblem: what the centre would show with neither an empty label nor
    ``symbol = "none"`` (a card hiding its centre still says what it is in its corners)."""
    plain = replace(kind, symbol=None if kind.symbol == "none" else kind.symbol,
                    label=kind.label if kind.label is not None and kind.label.get(lang) else None)
    return corner_of(kind_emblem(plain, lang, value))


def corner_of(emblem: Emblem) -> Emblem:
    """The corner index: the text when there is one, else the symbol."""
    if emblem.text:
        return Emblem(emblem.text, None, emblem.underline)
    return Emblem("", emblem.symbol or "wheel")


def caption_of(deck: Deck, kind: Kind) -> str:
    if kind.category == NUMBER:
        return ""
    return one_line(kind.names.get(deck.language)).upper()


def one_line(text: str) -> str:
    """A name or label as a face prints it: a line break, a tab or a run of spaces is one space
    (a font has no glyph for a tab, and a one-line caption has no room for a break)."""
    return " ".join(text.split())


def rules_text(text: str) -> str:
    """A rules text as a face prints it: its line breaks kept (a Windows or old Mac one as one),
    a tab as a space."""
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")


def _shape(deck: Deck, color_id: str | None, symbols: bool) -> str | None:
    if not symbols or color_id is None:
        return None
    sym = deck.palette.get(color_id).symbol
    return sym if sym in SHAPES else None


_LAYOUT_REPRS: IdentityMemo[str] = IdentityMemo(64)      # a deck's faces share one or two layouts


def _layout_repr(layout: Layout | None) -> str:
    """``repr(layout)``, worked out once per layout object."""
    return _LAYOUT_REPRS.get(layout, lambda: repr(layout))


def face_fonts(deck: Deck) -> tuple[FontRef, ...]:
    """(display, text) and, when the deck's or the user's ``fonts.toml`` names one, the bold font
    (``**bold**`` on a face; else it is set in the display font, the heavier of the two)."""
    fonts = deck_fonts(deck)
    out = [fonts.ref("display"), fonts.ref("text")]
    if fonts.path("bold").resolve().parent != _reportlab_fonts():     # not the PDFs' bundled default (Vera)
        out.append(fonts.ref("bold"))
    return tuple(out)


@functools.lru_cache(maxsize=1)
def _reportlab_fonts() -> Path:
    import reportlab

    return Path(reportlab.__file__).resolve().parent / "fonts"


#: an inline icon of a rules text: ("color", rgb, shape or None), ("symbol", name), ("image", ImageRef),
#: ("text", words) for a kind drawn as its label, or ("unknown", name) for a name that is none of these
InlineIcon = (tuple[Literal["color"], RGB, str | None] | tuple[Literal["symbol", "text", "unknown"], str]
              | tuple[Literal["image"], ImageRef])


def inline_icon(deck: Deck, name: str, symbols: bool | None = None) -> InlineIcon | None:
    """What ``{name}`` in a rules text shows (the name in any case): a palette colour's chip (with
    its shape cue when the cards print the shapes, ``symbols``, default the deck's), a kind's own
    icon or its symbol or label, or a symbol; None when the name is none of these."""
    key = name.lower()
    if key in deck.palette.ids():
        col = deck.palette.get(key)
        shaped = deck.shape_cues if symbols is None else symbols
        return ("color", col.rgb, col.symbol if shaped and col.symbol in SHAPES else None)
    kind = deck.kinds.get(key)
    if kind is None:                          # a standard kind the deck does not deal
        from deckgen.manifest.kinds import standard_kinds

        kind = standard_kinds(deck.source.parent if deck.source else None).get(key)
    if kind is not None:
        if kind.icon is not None:
            return ("image", kind.icon)
        em = kind_emblem(kind, deck.language)
        if em.symbol and em.symbol != "wheel":
            return ("symbol", em.symbol)
        return ("text", em.text or one_line(kind.names.get(deck.language)))
    if key in SYMBOLS or key in SHAPES:
        return ("symbol", key)
    return None


def _rules_icons(deck: Deck, text: str, symbols: bool) -> tuple[tuple[str, InlineIcon], ...]:
    from deckgen.rulebook.markup import icons_in

    out = []
    for name in icons_in(text):
        icon = inline_icon(deck, name, symbols)
        out.append((name, icon if icon is not None else ("unknown", name)))     # drawn as the word
    return tuple(out)


def _look(deck: Deck, card: Card, kind: Kind, symbols: bool) -> dict[str, Any]:
    """The FaceSpec fields of a card's own look: fonts, art, icon, rules text."""
    art = card.art or kind.art
    fit = card.art_fit or kind.art_fit
    text = card.text or kind.text
    rules = rules_text(text.get(deck.language)) if text else ""
    rich = any(ch in rules for ch in "*{}\\")
    return {"fonts": face_fonts(deck), "art": art, "art_fit": fit if art else "cover", "icon": kind.icon,
            "rules": rules, "rules_icons": _rules_icons(deck, rules, symbols) if rich else ()}


def card_face(deck: Deck, card: Card, symbols: bool) -> FaceSpec:
    lang = deck.language
    kind = deck.kinds[card.kind]
    pal = deck.palette
    segments = tuple(c.rgb for c in pal.colors)
    centre = kind_emblem(kind, lang, card.value)
    marks = tuple(m for m, on in (("flip", card.flip_icon), ("duel", card.duel)) if on)
    caption = caption_of(deck, kind)
    if card.flip_icon or card.duel:
        caption = " · ".join(words(lang)["flip" if m == "flip" else "duel"] for m in marks)
    if card.colorless:
        field, oval, ink = COLORLESS_FIELD, "white", COLORLESS_FIELD
        caption = words(lang)["colorless"]
    elif card.color is None or kind.category == WILD:
        field, ink = WILD_FIELD, WHITE
        oval = "white" if centre.symbol == "wheel" else "segments"
    else:
        field = pal.get(card.color).rgb
        oval, ink = "white", field
    flex = None
    if card.flex is not None:
        fkind = deck.kinds[card.flex.kind]
        femblem = kind_emblem(fkind, lang, card.value)
        fcolor = pal.get(card.flex.color).rgb if card.flex.color else None
        flex = FlexBadge(fcolor, corner_of(femblem) if fkind.category == NUMBER else femblem,
                         text_ink(fcolor) if fcolor else WHITE, _shape(deck, card.flex.color, symbols),
                         words(lang)["flex"], fkind.icon)
        caption = caption if kind.category != NUMBER else ""
    tags = {kind.id, kind.category, "card"} | {t for t, on in (
        ("flex", flex is not None), ("colorless", card.colorless), ("art", card.art or kind.art),
        ("rules", card.text or kind.text), ("flip", card.flip_icon), ("duel", card.duel),
        ("no-symbol", kind.symbol == "none")) if on}
    layout = deck_layout(deck, card.layout or kind.layout or deck.layout, "face")
    uses_palette = oval == "segments" or "wheel" in (centre.symbol, corner_of(centre).symbol) or (
        flex is not None and flex.color is None)
    segments = segments if uses_palette else ()      # only what the face shows goes into its cache key
    return FaceSpec(card.id, field, oval, segments, ink, centre, index_emblem(kind, lang, card.value), text_ink(field),
                    caption, marks, _shape(deck, card.color, symbols), flex, **_look(deck, card, kind, symbols),
                    layout=layout, tags=tuple(sorted(tags)), hidden=tuple(sorted(set(kind.hide) | set(card.hide))),
                    logo=deck.logo if layout.element("logo") is not None else None)


def power_face(deck: Deck, face_id: str) -> FaceSpec:
    rgb, sym = POWER.get(face_id, POWER["power-red" if "red" in face_id else "power-green"])
    color_id = "green" if sym == "check" else "red"
    if color_id in deck.palette.ids():
        rgb = deck.palette.get(color_id).rgb
    emblem = Emblem("", sym)
    return FaceSpec(face_id, rgb, "white", (), rgb, emblem, emblem, text_ink(rgb), words(deck.language)["power"],
                    fonts=face_fonts(deck), layout=deck_layout(deck, deck.layout, "face"),
                    tags=tuple(sorted({"power", face_id})))


def back_face(deck: Deck) -> FaceSpec:
    pal = deck.palette
    oval = pal.colors[0].rgb
    title = one_line(deck.back_text.get(deck.language) if deck.back_text else deck.name()).upper()
    if deck.logo is not None or (deck.back_image is not None and deck.back_text is None):
        title = ""                                 # the logo replaces the title; a back image stands alone
    from deckgen.palette import contrast
    candidates = [c.rgb for c in pal.colors[1:]] + [WHITE]
    title_ink = max(candidates, key=lambda c: (contrast(c, oval) >= 2.0, c != WHITE, contrast(c, oval)))
    tags = {"back"} | {t for t, on in (("back-image", deck.back_image), ("logo", deck.logo)) if on}
    layout = deck_layout(deck, deck.back_layout, "back")
    return FaceSpec("back", BACK_FIELD, "none", (oval,), oval, Emblem(), Emblem(), WHITE, "", (), None, None,
                    title, title_ink, fonts=face_fonts(deck), back_image=deck.back_image, logo=deck.logo,
                    layout=layout, tags=tuple(sorted(tags)))


def face_ids(deck: Deck) -> list[str]:
    ids = [c.id for c in deck.cards] + ["back"]
    for comp in deck.components:
        ids.extend(f for f in comp.faces if f not in ids)
    return ids


_CARDS: dict[int, tuple[weakref.ref[Deck], dict[str, Card]]] = {}


def _card(deck: Deck, face_id: str) -> Card | None:
    """The deck's first card with this id: the cards are indexed once per deck object (a deck's
    faces are asked for one after another)."""
    hit = _CARDS.get(id(deck))
    if hit is None or hit[0]() is not deck:
        for key in [k for k, (ref, _) in _CARDS.items() if ref() is None]:
            del _CARDS[key]
        index: dict[str, Card] = {}
        for card in deck.cards:
            index.setdefault(card.id, card)
        hit = (weakref.ref(deck), index)
        _CARDS[id(deck)] = hit
    return hit[1].get(face_id)


def face_spec(deck: Deck, face_id: str, symbols: bool) -> FaceSpec:
    if face_id == "back":
        return back_face(deck)
    card = _card(deck, face_id)
    if card is not None:
        return card_face(deck, card, symbols)
    for comp in deck.components:
        if face_id in comp.faces:
            return power_face(deck, face_id)
    ids = face_ids(deck)
    raise DeckgenError(error("face", "face", f"the deck has no face '{face_id}'",
                             hint=did_you_mean(face_id, ids) or f"faces: {', '.join(ids[:6])} ..."))


def languages_of(deck: Deck) -> list[str]:
    """The languages a deck has texts for, its own first: every language its names, labels, rules
    texts and back text are given in."""
    found: dict[str, None] = {deck.language: None}
    texts = [deck.names, deck.back_text, *(c.names for c in deck.palette.colors), *(comp.names for comp in deck.components)]
    for kind in deck.kinds.values():
        texts += [kind.names, kind.label, kind.text]
    for card in deck.cards:
        texts += [card.text]
    for names in texts:
        if names is not None:
            found.update((lang, None) for lang in names.values if lang)
    return list(found)


def in_language(deck: Deck, lang: str | None) -> Deck:
    """The deck with its faces' words (captions, labels, rules texts, the back's title) in ``lang``,
    one of :func:`languages_of` (None: as it is). Raises DeckgenError naming the languages there are."""
    if lang is None or lang == deck.language:
        return deck
    have = languages_of(deck)
    if lang not in have:
        raise DeckgenError(error("option", "--lang", f"the deck '{deck.id}' has no texts in '{lang}'",
                                 hint="its languages: " + ", ".join(have)))
    return replace(deck, language=lang)
