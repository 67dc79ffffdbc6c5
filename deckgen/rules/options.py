"""Rule options and the three presets.

A manifest picks a preset (``[rules] preset = "no-mercy"``) and may override any
option (``[rules.options] stacking = "off"``). The manifest parser validates
overrides against :data:`OPTIONS`; the engine reads the merged mapping.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True)
class Option:
    name: str
    type: type
    default: Any
    doc: str
    choices: tuple = ()
    minimum: int | None = None
    maximum: int | None = None


_OPTIONS = [
    Option("no_playable_card", str, "draw-one",
           "What a player with no playable card does: draw one card (and may play it if it is "
           "playable), or draw until a playable card appears and play it.",
           choices=("draw-one", "draw-until-playable")),
    Option("play_drawn", str, "may",
           "Whether a playable card just drawn may or must be played.", choices=("may", "must")),
    Option("may_draw_instead", bool, True,
           "A player may draw instead of playing even when they hold a playable card."),
    Option("stacking", str, "off",
           "Answering a draw card with another: off; same-kind (Draw Two on Draw Two, Wild Draw "
           "Four on Wild Draw Four); equal-or-higher (any draw card of equal or higher value).",
           choices=("off", "same-kind", "equal-or-higher")),
    Option("mercy_limit", int, 0,
           "A player holding this many cards or more is knocked out (0: off).", minimum=0, maximum=500),
    Option("seven_zero", bool, False,
           "Playing a 7 swaps hands with a chosen player; playing a 0 passes every hand along."),
    Option("jump_in", bool, False,
           "A card identical to the top card (colour and number or symbol) may be played out of turn."),
    Option("wild_draw_four_legal", str, "no-current-color",
           "When a card with the 'challenge' effect is legal: only without a card of the current "
           "colour, or only without any other playable card.",
           choices=("no-current-color", "no-playable-card", "always")),
    Option("challenge", bool, True,
           "The victim of a 'challenge' card may challenge it."),
    Option("challenge_penalty", int, 2,
           "Extra cards a failed challenger draws on top of the penalty (2 official; 0 no-bluff).",
           minimum=0, maximum=20),
    Option("two_player_reverse", str, "skip",
           "With two players a Reverse acts as a Skip, or just reverses (no effect).",
           choices=("skip", "reverse")),
    Option("two_player_reverse_draw", str, "opponent",
           "With two players, who takes the draw of a card that reverses and then makes the next "
           "player draw: the opponent, or the player who played it (official No Mercy sheet).",
           choices=("opponent", "player")),
    Option("start_card", str, "classic",
           "Turning the start card: classic (a wild draw card goes back and another is turned; "
           "any other card's effect applies to the first player) or number-only (a card that is "
           "not a number card is set aside and the next is turned).",
           choices=("classic", "number-only")),
    Option("uno_penalty", int, 2,
           "Cards drawn by a player caught not saying UNO (0: the UNO call is not used).",
           minimum=0, maximum=20),
    Option("power_cards", bool, False,
           "Flex Spectrum Power cards: a Flex side may be used only with the Power card green."),
    Option("duel_penalty", int, 2,
           "Cards drawn by a player who cannot answer a duel (doubles with each counter-duel).",
           minimum=1, maximum=20),
    Option("turn_cap", int, 5000,
           "Simulation safety: a game that runs longer than this many turns is reported as capped "
           "(counter-duels and jump-ins count as turns, so no chain of them can run forever).",
           minimum=50, maximum=1_000_000),
]

OPTIONS: Mapping[str, Option] = MappingProxyType({o.name: o for o in _OPTIONS})

PRESETS: Mapping[str, Mapping[str, Any]] = MappingProxyType({
    "classic": MappingProxyType({}),
    "no-mercy": MappingProxyType({
        "no_playable_card": "draw-until-playable",
        "play_drawn": "must",
        "may_draw_instead": False,
        "stacking": "equal-or-higher",
        "mercy_limit": 25,
        "seven_zero": True,
        "wild_draw_four_legal": "always",
        "challenge": False,
        "two_player_reverse_draw": "player",
        "start_card": "number-only",
    }),
    "flex-spectrum": MappingProxyType({
        "power_cards": True,
        "wild_draw_four_legal": "no-playable-card",
        "start_card": "number-only",
    }),
})


def resolve(preset: str, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Defaults, then the preset, then the manifest's overrides."""
    merged = {name: opt.default for name, opt in OPTIONS.items()}
    merged.update(PRESETS[preset])
    merged.update(overrides or {})
    return merged
