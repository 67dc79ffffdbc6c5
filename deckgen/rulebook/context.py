"""What a rulebook template can see: plain values and the helpers that name cards.

Every helper that names a card or kind records the template file and line it was
called from; :class:`Recorder` then tells the cross-check what the text mentions
and which kinds it explains.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup

from deckgen.effects import has
from deckgen.errors import Finding, did_you_mean, error
from deckgen.model import WILD, Card, Deck, Kind
from deckgen.rulebook.env import caller
from deckgen.rulebook.groups import groups
from deckgen.rulebook.markup import as_is
from deckgen.rulebook.words import cards_word, join, lang_of, power_name, ui


def _bold(text: Any) -> Markup:
    return Markup("<b>%s</b>") % as_is(text)


@dataclass
class Block:
    """A placeholder in the text for something that is not prose (a table, a card entry)."""

    name: str
    args: tuple[Any, ...] = ()


@dataclass
class Recorder:
    deck: Deck
    lang: str
    refs: list[tuple[str, str, str | None, int | None]] = field(default_factory=list)
    explained: dict[str, tuple[str | None, int | None]] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)

    def block(self, name: str, *args: Any) -> Markup:
        self.blocks.append(Block(name, args))
        return Markup(f"\n\n@@block {len(self.blocks) - 1}@@\n\n")

    def missing(self, what: str, ref: Any, choices: Sequence[str], file: str | None, line: int | None) -> None:
        self.findings.append(error(
            "rulebook-ref", "rulebook", f"the template refers to {what} '{ref}', which is not in the deck",
            file=file, line=line,
            hint=did_you_mean(str(ref), choices) or f"{what}s in the deck: " + ", ".join(choices)))


class Helpers:
    """The functions templates call. Each names what it looks up, so a typo is reported with its line."""

    def __init__(self, rec: Recorder):
        self.rec = rec
        self.deck = rec.deck
        self.lang = rec.lang
        self.groups = {g.key: g for g in groups(self.deck)}

    # -- references
    def _card(self, card_id: str, file: str | None, line: int | None) -> Card | None:
        self.rec.refs.append(("card", str(card_id), file, line))
        for c in self.deck.cards:
            if c.id == card_id:
                return c
        self.rec.missing("card", card_id, [c.id for c in self.deck.cards], file, line)
        return None

    def _kind(self, kind_id: str, file: str | None, line: int | None) -> Kind | None:
        self.rec.refs.append(("kind", str(kind_id), file, line))
        if kind_id in self.deck.kinds:
            return self.deck.kinds[kind_id]
        self.rec.missing("kind", kind_id, list(self.deck.kinds), file, line)
        return None

    def card(self, card_id: str) -> Markup:
        """The card's name, in bold: ``{{ card("wild-draw-ten") }}``."""
        c = self._card(card_id, *caller())
        return _bold(c.name(self.lang) if c else card_id)

    def kind(self, kind_id: str) -> Markup:
        """The kind's name, in bold: ``{{ kind("skip") }}``."""
        k = self._kind(kind_id, *caller())
        return _bold(k.names.get(self.lang) if k else kind_id)

    def count(self, ref: str) -> int:
        """Copies of a card (by id) or of every card of a kind (by kind id)."""
        file, line = caller()
        if ref in self.deck.kinds:
            self.rec.refs.append(("kind", ref, file, line))
            return self.deck.count_by_kind().get(ref, 0)
        c = self._card(ref, file, line)
        return c.count if c else 0

    def points(self, ref: str) -> Markup:
        """A card's or a kind's point value ("face value" for number cards)."""
        file, line = caller()
        if ref in self.deck.kinds:
            self.rec.refs.append(("kind", ref, file, line))
            cards = [c for c in self.deck.cards if c.kind == ref]
        else:
            c = self._card(ref, file, line)
            cards = [c] if c else []
        return Markup(as_is(points_text(cards, self.lang)))

    def draw_of(self, kind_id: str) -> int:
        """How many cards a kind makes its victim(s) draw: ``{{ cards(draw_of("wild-draw-six")) }}``."""
        k = self._kind(kind_id, *caller())
        return sum(e.n for e in k.effects if e.op in ("draw", "everyone_draws")) if k else 0

    def explain(self, ref: str) -> Markup:
        """A card entry (image, name, copies, generated rules text); marks its kinds explained."""
        file, line = caller()
        found = [self.groups[ref]] if ref in self.groups else \
            [g for g in self.groups.values() if ref in g.kinds and (g.kind == ref or g.flex_kind == ref)]
        if not found:
            self.rec.refs.append(("kind", str(ref), file, line))
            self.rec.missing("card kind", ref, list(self.groups), file, line)
            return Markup("")
        out = Markup("")
        for g in found:
            for k in g.kinds:
                self.rec.explained.setdefault(k, (file, line))
            out += self.rec.block("card", g.key)
        return out

    # -- queries (no reference: they only ask)
    def has_kind(self, kind_id: str) -> bool:
        return kind_id in self.deck.kinds

    def kinds_with(self, op: str) -> list[str]:
        return [k for k, v in self.deck.kinds.items() if has(v.effects, op)]

    def kinds_doing(self, *ops: str) -> list[str]:
        """The kinds whose effects are exactly these primitives in this order: ``kinds_doing("reverse")``
        is a plain Reverse, not a card that reverses and makes someone draw."""
        return [k for k, v in self.deck.kinds.items() if tuple(e.op for e in v.effects) == ops]

    def kind_ids(self, category: str | None = None) -> list[str]:
        """The deck's kinds (flex sides included), in manifest order."""
        return [k for k, v in self.deck.kinds.items() if category is None or v.category == category]

    def group_keys(self, category: str | None = None) -> list[str]:
        return [g.key for g in self.groups.values() if category is None or g.category == category]

    def any_card(self, flag: str) -> bool:
        """Whether some card has a flag: duel, flip_icon, colorless, flex."""
        if flag not in ("duel", "flip_icon", "colorless", "flex"):
            file, line = caller()
            self.rec.missing("card flag", flag, ["duel", "flip_icon", "colorless", "flex"], file, line)
            return False
        return any(getattr(c, flag) for c in self.deck.cards)

    def start_idle_kinds(self) -> list[str]:
        """The kinds part of whose effect does nothing as the first card (nobody played it), from
        each primitive's first-card entry in :data:`deckgen.words.PHRASES`."""
        from deckgen.rulebook.describe import start_idle

        return [k for k, v in self.deck.kinds.items() if start_idle(v)]

    def start_idle(self, kind_id: str) -> Markup:
        """The kind's name and what its effect leaves undone as the first card: "<b>Wild Swap</b>
        swaps no hands", "<b>Skip Everyone</b> does nothing" (for each of start_idle_kinds())."""
        from deckgen.rulebook.describe import start_idle_words

        k = self._kind(kind_id, *caller())
        if k is None:
            return Markup("")
        return Markup("%s %s") % (_bold(k.names.get(self.lang)),
                                  as_is(start_idle_words(k, self.lang, power_name(self.deck, self.lang))))

    def colour_keeping_wilds(self) -> tuple[list[Markup], bool]:
        """The names of the deck's wild kinds that name no colour (after one, the colour to follow
        stays as it was), and whether every wild in the deck is one."""
        from deckgen.rulebook.describe import names_colour

        wilds = [k for k in self.kind_ids(WILD) if self.count(k) > 0]
        keep = [self.kind(k) for k in wilds if not names_colour(self.deck.kinds[k].effects)]
        return keep, bool(keep) and len(keep) == len(wilds)

    def start_acting_wilds(self) -> list[str]:
        """The wild kinds that, as the first card, act on the first player beyond the colour named."""
        from deckgen.rulebook.describe import start_acts

        return [k for k, v in self.deck.kinds.items() if v.category == WILD and start_acts(v)]

    def start_all_kinds(self) -> list[str]:
        """The kinds that, as the first card, make every player draw (the dealer included)."""
        from deckgen.rulebook.describe import start_all

        return [k for k, v in self.deck.kinds.items() if start_all(v)]

    def duel_steps(self) -> list[int]:
        """The duel penalty after 0, 1, 2 ... counter-duels, up to its cap: [2, 4, 8]."""
        opts = self.deck.rule_options
        steps = [opts.duel_penalty]
        while max(steps[-1], min(2 * steps[-1], opts.duel_penalty_max)) != steps[-1]:
            steps.append(max(steps[-1], min(2 * steps[-1], opts.duel_penalty_max)))
        return steps

    def draw_kinds(self) -> list[dict[str, Any]]:
        """The kinds that make a player draw a penalty, lowest first: ``{id, name, n}``."""
        out = [{"id": k, "name": _bold(v.names.get(self.lang)), "n": v.draw_value}
               for k, v in self.deck.kinds.items() if v.is_draw]
        return sorted(out, key=lambda d: (d["n"], d["id"]))

    def score_lines(self) -> list[dict[str, Any]]:
        """What each card scores, by category: one line when a whole category scores alike
        ("Action cards: 20"), else one line per group, named as in the components table."""
        from deckgen.rulebook.describe import group_name

        out = []
        for cat in ("number", "action", "wild"):
            gs = [g for g in self.groups.values() if g.category == cat]
            if not gs:
                continue
            cards = [c for g in gs for c in g.cards]
            pts = points_text(cards, self.lang)
            if "–" not in pts:
                out.append({"name": _bold(ui(self.lang, f"cat_{cat}")), "points": pts})
                continue
            for g in gs:
                out.append({"name": _bold(group_name(self.deck, g, self.lang)),
                            "points": points_text(list(g.cards), self.lang)})
        return out

    def names(self, items: list[Any], word: str = "and") -> Markup:
        """Items joined as a list: "a, b and c" (word="or": "a, b or c")."""
        return Markup(join([str(as_is(i)) for i in items], self.lang, "or" if word == "or" else "and"))

    def cards(self, n: int) -> str:
        return cards_word(self.lang, int(n))

    # -- blocks
    def components_table(self) -> Markup:
        return self.rec.block("components")

    def palette_table(self) -> Markup:
        return self.rec.block("palette")


def points_text(cards: Sequence[Card], lang: str) -> str:
    given = {c.points for c in cards}
    if not cards or None in given:
        return "–"
    pts = {p for p in given if p is not None}
    if len(pts) == 1:
        return str(pts.pop())
    if all(c.points == c.value for c in cards):
        return ui(lang, "face")
    return f"{min(pts)}–{max(pts)}"


def color_marks(deck: Deck) -> bool:
    """Whether the cards carry the colour-blind shape marks (the renderer's default)."""
    from deckgen.render import RenderSettings

    return RenderSettings().symbols_on(deck) and all(c.symbol for c in deck.palette.colors)


def plural(name: str, lang: str) -> str:
    """"Carta de poder" -> "Cartas de poder", "Power card" -> "Power cards"."""
    words = name.split()
    if not words:
        return name
    i = 0 if lang_of(lang) == "es" else len(words) - 1
    w = words[i]
    words[i] = w + ("s" if w[-1:].lower() in "aeiouáéó" or lang_of(lang) != "es" else "es")
    return " ".join(words)


def deck_view(deck: Deck, lang: str) -> dict[str, Any]:
    """The deck as plain values (no objects with methods a template could misuse)."""
    opts = deck.rule_options
    return {
        "id": deck.id, "name": deck.name(lang), "total": deck.total,
        "players_min": deck.players_min, "players_max": deck.players_max, "hand_size": deck.hand_size,
        "target": deck.scoring.target, "knockout_bonus": deck.scoring.knockout_bonus,
        "colors": [{"id": c.id, "name": c.names.get(lang), "hex": c.hex} for c in deck.palette.colors],
        "color_count": len(deck.palette.colors),
        "color_marks": color_marks(deck),
        "power": power_name(deck, lang) if opts.power_cards else None,
        "power_plural": plural(power_name(deck, lang), lang) if opts.power_cards else None,
        "power_count": sum(c.count for c in deck.components if c.kind == "power"),
        "description": deck.description.get(lang) if deck.description else None,
        "preset": deck.rules_preset,
    }


def template_globals(rec: Recorder) -> dict[str, Any]:
    h = Helpers(rec)
    values = {name: getattr(h, name) for name in (
        "card", "kind", "count", "points", "draw_of", "explain", "has_kind", "kinds_with", "kinds_doing", "kind_ids",
        "group_keys", "any_card", "start_idle_kinds", "start_idle", "start_all_kinds", "colour_keeping_wilds",
        "start_acting_wilds", "duel_steps",
        "draw_kinds", "score_lines", "names", "cards", "components_table", "palette_table")}
    values.update(deck=deck_view(rec.deck, rec.lang), opts=rec.deck.rule_options.as_dict(), lang=lang_of(rec.lang))
    return values
