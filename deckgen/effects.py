"""The fixed vocabulary of card effect primitives.

A card kind's effect is an ordered tuple of primitives, written in a manifest as
``effects = [{op = "draw", n = 2}, {op = "skip"}]`` or, for primitives without
parameters, as a bare string: ``effects = ["reverse", {op = "draw", n = 4}, "choose_color"]``.

Composition covers every card of the bundled games, and homemade ones such as
"Wild Draw 20" (``[{op="draw", n=20}, "choose_color"]``) or "Reverse + everyone
draws 1" (``["reverse", {op="everyone_draws", n=1}]``) need no code.

The composition rule (the engine, the rulebook and ``check`` all follow it):
  - A card's effects apply in list order. Each acts on the player it names, evaluated when it
    applies: "the next player" is the next one in the direction of play at that moment, after
    any earlier 'reverse' in the list. 'target' makes the following 'draw' name a player the
    card's player chooses, and is used up by it.
  - Lost turns are owed: 'skip' adds one to the next player; a 'draw' with lose_turn adds one
    to its victim; a two-player 'reverse' acting as a skip adds one to the other player; a
    'roulette' adds one to its victim. A player owing k turns loses their next k turns, one at
    a time.
  - After the effects the turn passes to the next player, unless 'skip_all' or 'play_again' was
    among them: then the card's player plays again ('skip_all' puts no lost turn on anyone).
  - Stacking: under a stacking rule a 'draw' with lose_turn and no 'target' becomes a penalty
    waiting for its victim instead. On their turn they stack on it (passing the total on) or
    draw the total; that answer uses their turn, and any lost turns they owe stay owed.
  - 'everyone_draws': every other player draws; nobody owes a turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True)
class Param:
    type: type
    required: bool = False
    default: Any = None
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    doc: str = ""


@dataclass(frozen=True)
class Primitive:
    op: str
    doc: str
    params: Mapping[str, Param] = field(default_factory=dict)


def _p(op: str, doc: str, **params: Param) -> Primitive:
    return Primitive(op, doc, MappingProxyType(params))


_N = Param(int, required=True, minimum=1, maximum=99, doc="number of cards")

PRIMITIVES: Mapping[str, Primitive] = MappingProxyType({p.op: p for p in [
    _p("skip", "The next player loses their turn (one more lost turn owed)."),
    _p("skip_all", "Every other player is skipped; the player who played the card plays again."),
    _p("reverse", "The direction of play reverses (with two players it acts as a skip, by rule option)."),
    _p("draw", "A penalty draw: the victim (the next player, or the player chosen by a preceding "
               "'target') draws n cards and loses their turn unless lose_turn is false. "
               "Stackable under the stacking rule.",
       n=_N, lose_turn=Param(bool, default=True, doc="whether the victim also loses their turn")),
    _p("everyone_draws", "Every other player draws n cards; nobody loses a turn.", n=_N),
    _p("target", "The player chooses the victim of the following effect instead of the next player."),
    _p("choose_color", "The player names the new current colour."),
    _p("discard_color", "The player also discards every card of the played card's colour from their hand."),
    _p("swap_hands", "The player swaps hands with a player of their choice."),
    _p("pass_hands", "Every player passes their whole hand to the next player: in the direction of play, or "
                     "always to the left (seat + 1, the direction play starts in) or to the right (seat - 1).",
       direction=Param(str, default="play", choices=("play", "left", "right"),
                       doc="where hands go: the direction of play, left or right")),
    _p("roulette", "The next player names a colour, turns cards from the draw pile until one of that "
                   "colour appears, takes every turned card and loses their turn; the named colour "
                   "becomes the current colour."),
    _p("flip_power", "Power cards are turned over: the player's own ('self') or everyone's ('all').",
       who=Param(str, default="self", choices=("self", "all"), doc="whose Power card turns over")),
    _p("duel", "Every other player must discard a card showing this card's number or draw "
               "a penalty (the duel_penalty rule option)."),
    _p("challenge", "The card is restricted and may be challenged, as the wild_draw_four rule options say."),
    _p("steal", "The player chooses another player and takes a random card from their hand."),
    _p("play_again", "The player takes another turn."),
]})


DEFAULTS: Mapping[str, Any] = MappingProxyType(
    {name: param.default for prim in PRIMITIVES.values() for name, param in prim.params.items() if not param.required})
"""Every optional parameter's default, from the primitives above: the one place they are said."""


@dataclass(frozen=True)
class Effect:
    """One primitive with its parameters (a frozen, hashable value). ``n`` is 0 for a primitive
    that draws no cards; the other parameters default as the primitives say (DEFAULTS)."""

    op: str
    n: int = 0
    lose_turn: bool = DEFAULTS["lose_turn"]
    who: str = DEFAULTS["who"]
    direction: str = DEFAULTS["direction"]


def draw_total(effects: tuple[Effect, ...]) -> int:
    """The penalty-draw value of an effect list (0 when it has no 'draw')."""
    return sum(e.n for e in effects if e.op == "draw")


def stack_value(effects: tuple[Effect, ...]) -> int:
    """The value of an effect list as a stackable penalty: the cards its 'draw' effects that cost
    the turn make the next player draw; 0 when it has none, or when a 'target' chooses the victim
    (a chosen victim is never stacked on, and the card never answers a stack)."""
    if any(e.op == "target" for e in effects):
        return 0
    return sum(e.n for e in effects if e.op == "draw" and e.lose_turn)


def has(effects: tuple[Effect, ...], op: str) -> bool:
    return any(e.op == op for e in effects)
