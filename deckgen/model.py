"""The deck model: frozen values built by :mod:`deckgen.manifest` from a TOML manifest.

Every later stage (checker, renderer, layout, rules engine, rulebook) reads these and
nothing else. Nothing here is mutated after loading.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from deckgen.effects import Effect, draw_total, has, stack_value
from deckgen.options import RuleOptions

# Card categories decide matching: numbers match by colour or value, actions by
# colour or kind, wilds (no colour) can be played on anything.
NUMBER = "number"
ACTION = "action"
WILD = "wild"
CATEGORIES = (NUMBER, ACTION, WILD)

# the effects a card adds to its kind's by its own marks and the 7-0 rule (Deck.side_effects)
FLIP_SELF = Effect("flip_power", who="self")
DUEL = Effect("duel")
SWAP = Effect("swap_hands")
PASS = Effect("pass_hands")


@dataclass(frozen=True)
class Names:
    """A text in several languages; ``get`` falls back to any language there is."""

    values: Mapping[str, str]

    def get(self, lang: str) -> str:
        if lang in self.values:
            return self.values[lang]
        for fallback in ("en", "es"):
            if fallback in self.values:
                return self.values[fallback]
        return next(iter(self.values.values()), "")


@dataclass(frozen=True)
class ImageRef:
    """An image file a manifest names (art, icon, back image, logo), checked when it was read.

    Its repr and equality are its content (digest, format, pixel size), never where it lies,
    so a face's cache key changes exactly when the file's content does.
    """

    path: str = field(repr=False, compare=False)    # the resolved file, inside the manifest's folder
    digest: str                                     # sha256 of the file's bytes (first 20 hex digits)
    format: str                                     # "svg", "png", "jpeg", "webp"
    size: tuple[int, int]                           # pixels (an SVG: its intrinsic size in px)
    where: str = field(default="", repr=False, compare=False)   # key path, e.g. "kinds.steal.icon"

    @property
    def vector(self) -> bool:
        return self.format == "svg"


ART_FITS = ("cover", "contain")


@dataclass(frozen=True)
class Color:
    id: str                 # stable slug used in manifests and card ids: "red"
    hex: str                # "#RRGGBB"
    names: Names            # {"es": "rojo", "en": "red"}
    symbol: str | None = None  # optional shape cue for colour-blind players ("circle", "star" ...)

    @property
    def rgb(self) -> tuple[int, int, int]:
        h = self.hex.lstrip("#")
        return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


@dataclass(frozen=True)
class Palette:
    id: str
    name: str
    colors: tuple[Color, ...]
    source: str | None = None  # file it came from, for messages

    def ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.colors)

    def get(self, color_id: str) -> Color:
        for c in self.colors:
            if c.id == color_id:
                return c
        raise KeyError(color_id)

    def index(self, color_id: str) -> int:
        return self.ids().index(color_id)

    def with_overrides(self, overrides: Mapping[str, str]) -> Palette:
        """A copy with some colours' hex values replaced (``--color red=#FF0000``)."""
        return replace(self, colors=tuple(
            replace(c, hex=overrides.get(c.id, c.hex).upper()) for c in self.colors))


@dataclass(frozen=True)
class Kind:
    """A card kind: what a card *does*. Cards of one kind share names and effects."""

    id: str                        # "skip", "wild-draw-four", "number"
    category: str                  # number | action | wild
    names: Names
    effects: tuple[Effect, ...] = ()
    symbol: str | None = None      # renderer hint: "skip", "reverse", "plus", "roulette" ...
    label: Names | None = None     # short text printed on the card, e.g. "+4"; derived when None
    icon: ImageRef | None = None   # replaces the generated symbol (centre and corners)
    art: ImageRef | None = None    # illustration in the centre oval of every card of the kind
    art_fit: str = "cover"         # "cover" | "contain"
    text: Names | None = None      # a short rules line printed on the face
    layout: str | None = None      # the face layout of its cards (decks/layouts/); None: the deck's
    hide: tuple[str, ...] = ()     # layout elements its cards do not show ("symbol", "caption" ...)

    @property
    def draw_value(self) -> int:
        return draw_total(self.effects)

    @property
    def is_draw(self) -> bool:
        return self.draw_value > 0

    @property
    def penalty(self) -> int:
        """Its value as a stackable penalty (effects.stack_value): what a draw card adds to a stack."""
        return stack_value(self.effects)

    def has(self, op: str) -> bool:
        return has(self.effects, op)


@dataclass(frozen=True)
class FlexSide:
    color: str | None      # palette colour id; None for flex wilds
    kind: str              # kind id of the flex side's effect


@dataclass(frozen=True)
class Card:
    """One distinct card face; ``count`` copies are printed and shuffled in."""

    id: str
    kind: str
    color: str | None
    value: int | None
    count: int
    points: int | None
    names: Names
    flip_icon: bool = False
    duel: bool = False
    colorless: bool = False
    flex: FlexSide | None = None
    where: str = ""        # key path of the manifest entry it came from: "cards[12]"
    art: ImageRef | None = None    # this card's own illustration (else its kind's)
    art_fit: str | None = None     # None: the kind's
    text: Names | None = None      # this card's own rules line (else its kind's)
    layout: str | None = None      # this card's own face layout (else its kind's, else the deck's)
    hide: tuple[str, ...] = ()     # layout elements this card does not show (added to its kind's)

    def name(self, lang: str) -> str:
        return self.names.get(lang)


@dataclass(frozen=True)
class Component:
    """A printed extra that is never shuffled in (a Power card)."""

    id: str
    kind: str                 # "power"
    count: int
    names: Names
    faces: tuple[str, ...]    # face ids, e.g. ("power-green", "power-red")
    where: str = ""


@dataclass(frozen=True)
class Scoring:
    target: int
    knockout_bonus: int = 0


def table_takes(players: int, hand_size: int) -> int:
    """Cards a table of ``players`` takes: every hand, the start card and at least one to draw."""
    return players * hand_size + 2


@dataclass(frozen=True)
class Deck:
    id: str
    names: Names
    language: str
    players_min: int
    players_max: int
    hand_size: int
    card_size: str                   # preset name or "WxH" with units, parsed by the renderer
    palette: Palette
    kinds: Mapping[str, Kind]
    cards: tuple[Card, ...]
    components: tuple[Component, ...]
    rules_preset: str
    rule_options: RuleOptions            # the preset's options with the manifest's overrides
    scoring: Scoring
    back_text: Names | None = None
    template_dir: str | None = None      # a homemade deck's own rulebook templates
    source: Path | None = None           # the manifest file
    description: Names | None = None
    back_image: ImageRef | None = None   # full-bleed art for the card back
    logo: ImageRef | None = None         # centre of the back and the rulebook's cover
    cover_logo: ImageRef | None = None   # the rulebook's cover instead of the logo (deckgen/rulebook/cover.py)
    fonts: str | None = None             # the deck's own fonts folder (resolved), see deckgen/fonts.py
    layout: str | None = None            # the face layout (decks/layouts/); None: "uno"
    back_layout: str | None = None       # the back layout; None: "uno-back"
    symbols: bool | None = None          # the palette's colour-blind shapes on every output; None: auto

    def name(self, lang: str | None = None) -> str:
        return self.names.get(lang or self.language)

    @property
    def shape_cues(self) -> bool:
        """Whether the cards print the palette's colour-blind shapes: ``deck.symbols``, else on for
        a palette of more than 4 colours."""
        return len(self.palette.colors) > 4 if self.symbols is None else self.symbols

    @property
    def total(self) -> int:
        return sum(c.count for c in self.cards)

    def card(self, card_id: str) -> Card:
        for c in self.cards:
            if c.id == card_id:
                return c
        raise KeyError(card_id)

    def category(self, card: Card) -> str:
        return self.kinds[card.kind].category

    def count_by_kind(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for c in self.cards:
            out[c.kind] = out.get(c.kind, 0) + c.count
        return out

    def count_by_color(self) -> dict[str | None, int]:
        out: dict[str | None, int] = {}
        for c in self.cards:
            out[c.color] = out.get(c.color, 0) + c.count
        return out

    def side_kind(self, card: Card, flex: bool = False) -> Kind:
        """The kind of a card's regular side, or of its Flex side."""
        return self.kinds[card.flex.kind if flex and card.flex else card.kind]

    def side_effects(self, card: Card, flex: bool = False, opts: RuleOptions | None = None) -> tuple[Effect, ...]:
        """What one side of a card does, in order: its kind's effects, then the card's own marks
        (the flip icon turns the player's Power card, a duel number starts a duel) and, under the
        7-0 rule, a 7's hand swap and a 0's passing of hands. The one derivation the engine,
        ``check``, the rulebook and the faces use."""
        opts = self.rule_options if opts is None else opts
        kind = self.side_kind(card, flex)
        effects = list(kind.effects)
        if card.flip_icon:
            effects.append(FLIP_SELF)
        if card.duel and not kind.has("duel"):
            effects.append(DUEL)
        if opts.seven_zero and kind.category == NUMBER and not card.duel:
            if card.value == 7:
                effects.append(SWAP)
            elif card.value == 0:
                effects.append(PASS)
        return tuple(effects)

    def can_start(self, card: Card, opts: RuleOptions | None = None) -> bool:
        """Whether a card turned as the start card stays there under the start-card rule: under
        ``number-only`` only a number card; under ``classic`` any card but a wild whose effects
        make someone draw (docs/rules.md, section 2), which goes back into the draw pile."""
        opts = self.rule_options if opts is None else opts
        kind = self.kinds[card.kind]
        if opts.start_card == "number-only":
            return kind.category == NUMBER
        return not (kind.category == WILD and kind.is_draw)

    def expanded(self) -> list[Card]:
        """Every physical card, copies included, in manifest order."""
        return [c for c in self.cards for _ in range(c.count)]
