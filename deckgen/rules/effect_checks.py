"""Static checks of card effects: one entry per effect primitive (the checks layer of the registry).

Each entry looks at one effect on one side of one card and reports, through ``Ctx.bad`` (an
error: the card cannot be played as written) or ``Ctx.note`` (a warning), what the rules do not
allow. :func:`effect_findings` runs them for every side of every card, and also checks the card
flags that behave like effects (the flip icon, the duel flag). ``rules/checks.py`` calls it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from deckgen.effects import PRIMITIVES, Effect
from deckgen.errors import Finding, error, warning
from deckgen.model import WILD, Card, Deck, Kind


@dataclass
class Ctx:
    """What a check sees: the deck, the side being checked and where to report."""

    deck: Deck
    file: str | None
    colored: bool                     # some card of the deck has a colour
    out: list[Finding] = field(default_factory=list)
    seen: set[tuple[str, str]] = field(default_factory=set)

    def bad(self, where: str, message: str, hint: str, code: str = "effect-not-playable") -> None:
        if (where, code) not in self.seen:
            self.seen.add((where, code))
            self.out.append(error(code, where, message, file=self.file, hint=hint))

    def note(self, where: str, message: str, hint: str, code: str) -> None:
        if (where, code) not in self.seen:
            self.seen.add((where, code))
            self.out.append(warning(code, where, message, file=self.file, hint=hint))


@dataclass(frozen=True)
class Side:
    card: Card
    kind: Kind
    where: str

    @property
    def ops(self) -> list[str]:
        return [e.op for e in self.kind.effects]


Check = Callable[[Ctx, Side, Effect, int], None]


def _none(c: Ctx, s: Side, e: Effect, i: int) -> None:
    """Nothing this primitive needs beyond what the manifest parser already checked."""


def _flip_power(c: Ctx, s: Side, e: Effect, i: int) -> None:
    if not c.deck.rule_options.power_cards:
        c.bad(s.where, f"'{s.card.name(c.deck.language)}' turns Power cards over but the Power-card rule is off",
              "set power_cards = true (with Power cards) or remove the effect")


def _discard_color(c: Ctx, s: Side, e: Effect, i: int) -> None:
    if s.kind.category == WILD or not s.card.color:
        c.bad(s.where, f"'{s.card.name(c.deck.language)}' discards its colour but has no colour",
              "give the card a colour or remove 'discard_color'")


def _target(c: Ctx, s: Side, e: Effect, i: int) -> None:
    if "draw" not in s.ops[i + 1:]:
        c.bad(s.where, f"'{s.card.name(c.deck.language)}': 'target' chooses the victim of a following 'draw' and none follows",
              "put a draw effect after 'target'")


def _challenge(c: Ctx, s: Side, e: Effect, i: int) -> None:
    if "draw" not in s.ops:
        c.bad(s.where, f"'{s.card.name(c.deck.language)}': a 'challenge' card must make someone draw",
              "add a draw effect or remove 'challenge'")


def _duel(c: Ctx, s: Side, e: Effect, i: int) -> None:
    if s.card.value is None:
        c.bad(s.where, f"'{s.card.name(c.deck.language)}' starts a duel but has no number to duel on",
              "a duel needs a number card: use duel = true on a number card entry")


def _names_colour(c: Ctx, s: Side, e: Effect, i: int) -> None:
    if not c.colored:
        c.bad(s.where, f"'{s.card.name(c.deck.language)}' names a colour but no card has one", "add coloured cards")


def _steal(c: Ctx, s: Side, e: Effect, i: int) -> None:
    # every table has another player to take a card from (deck.players.min is at least 2)
    if c.deck.players_min < 2:
        c.bad(s.where, f"'{s.card.name(c.deck.language)}' takes a card from another player, and a table may have only one player",
              "set deck.players.min to 2 or more")


def _pass_hands(c: Ctx, s: Side, e: Effect, i: int) -> None:
    choices = PRIMITIVES["pass_hands"].params["direction"].choices
    if e.direction not in choices:
        c.bad(s.where, f"'{s.card.name(c.deck.language)}': pass_hands direction '{e.direction}' is not one of "
              f"{', '.join(choices)}",
              "direction = \"play\" (the direction of play), \"left\" or \"right\"")


def _again(c: Ctx, s: Side, e: Effect, i: int) -> None:
    first = next(j for j, op in enumerate(s.ops) if op in ("skip_all", "play_again"))
    if first != i:
        c.note(s.where, f"'{s.card.name(c.deck.language)}' gives its player another turn twice; they still play only once more",
               "keep one 'skip_all' or 'play_again'", code="effect-redundant")


#: Each primitive's static checks (the checks layer of the effect registry).
CHECKS: Mapping[str, Check] = MappingProxyType({
    "skip": _none,
    "skip_all": _again,
    "play_again": _again,
    "reverse": _none,
    "draw": _none,
    "everyone_draws": _none,
    "target": _target,
    "choose_color": _names_colour,
    "discard_color": _discard_color,
    "swap_hands": _none,
    "pass_hands": _pass_hands,
    "steal": _steal,
    "roulette": _names_colour,
    "flip_power": _flip_power,
    "duel": _duel,
    "challenge": _challenge,
})


def effect_findings(deck: Deck, sides: Iterable[tuple[Card, Kind, str]], file: str | None) -> list[Finding]:
    """Every effect of every side checked by its primitive's entry, then the card flags."""
    ctx = Ctx(deck, file, any(c.color and not c.colorless for c in deck.cards))
    for card, kind, where in sides:
        side = Side(card, kind, where)
        for i, e in enumerate(kind.effects):
            CHECKS[e.op](ctx, side, e, i)
    for card in deck.cards:
        if card.flip_icon and not deck.rule_options.power_cards:
            ctx.bad(card.where, f"'{card.name(deck.language)}' has a flip icon but the Power-card rule is off",
                    "set power_cards = true (with Power cards) or remove flip_icon")
        if card.duel and card.value is None:
            ctx.bad(card.where, f"'{card.name(deck.language)}' is a duel card without a number to duel on", "give it a value")
    return ctx.out
