"""Rule options: one frozen, typed object per deck, the metadata table and the three presets.

A manifest picks a preset (``[rules] preset = "no-mercy"``) and may override any option
(``[rules.options] stacking = "off"``). The manifest parser validates overrides against
:data:`OPTIONS`; everything downstream (engine, checks, rulebook) reads the attributes of the
resolved :class:`RuleOptions`.

This module sits at the model level: it imports nothing from deckgen but the errors.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from deckgen.errors import DeckgenError, did_you_mean, error


@dataclass(frozen=True)
class Option:
    """What an option is: its type, default, meaning and allowed values."""

    name: str
    type: type
    default: Any
    doc: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def check(self, value: Any) -> str | None:
        """Why a value is not one of this option's values (None when it is)."""
        if self.type is bool:
            return None if isinstance(value, bool) else "expected true or false"
        if self.type is int:
            if isinstance(value, bool) or not isinstance(value, int):
                return "expected an integer"
            if self.minimum is not None and value < self.minimum:
                return f"expected at least {self.minimum}"
            if self.maximum is not None and value > self.maximum:
                return f"expected at most {self.maximum}"
            return None
        if not isinstance(value, str):
            return "expected a string"
        if self.choices and value not in self.choices:
            return "expected one of: " + ", ".join(self.choices)
        return None


def _opt(default: Any, doc: str, choices: tuple[str, ...] = (), minimum: int | None = None,
         maximum: int | None = None) -> Any:
    return field(default=default, metadata={"doc": doc, "choices": choices, "minimum": minimum,
                                            "maximum": maximum})


@dataclass(frozen=True)
class RuleOptions:
    """Every rule option of a deck, resolved (defaults, then the preset, then the manifest)."""

    no_playable_card: str = _opt(
        "draw-one",
        "What a player with no playable card does: draw one card (and may play it if it is playable), "
        "or draw until a playable card appears and play it.",
        choices=("draw-one", "draw-until-playable"))
    play_drawn: str = _opt("may", "Whether a playable card just drawn may or must be played.",
                           choices=("may", "must"))
    may_draw_instead: bool = _opt(
        True, "A player may draw instead of playing even when they hold a playable card.")
    stacking: str = _opt(
        "off",
        "Answering a draw card with another: off; same-kind (Draw Two on Draw Two, Wild Draw Four on "
        "Wild Draw Four); equal-or-higher (any draw card of equal or higher value).",
        choices=("off", "same-kind", "equal-or-higher"))
    mercy_limit: int = _opt(0, "A player holding this many cards or more is knocked out (0: off).",
                            minimum=0, maximum=500)
    seven_zero: bool = _opt(
        False, "Playing a 7 swaps hands with a chosen player; playing a 0 passes every hand along.")
    jump_in: bool = _opt(
        False, "A card identical to the top card (colour and number or symbol) may be played out of turn.")
    wild_draw_four_legal: str = _opt(
        "no-current-color",
        "When a card with the 'challenge' effect is legal: only without a card of the current colour, "
        "or only without any other playable card (another such card does not count), or always.",
        choices=("no-current-color", "no-playable-card", "always"))
    challenge: bool = _opt(True, "The victim of a 'challenge' card may challenge it.")
    challenge_penalty: int = _opt(
        2, "Extra cards a failed challenger draws on top of the penalty (2 official; 0 no-bluff).",
        minimum=0, maximum=20)
    two_player_reverse: str = _opt(
        "skip", "With two players a Reverse acts as a Skip, or just reverses (no effect).",
        choices=("skip", "reverse"))
    two_player_reverse_draw: str = _opt(
        "opponent",
        "With two players, who takes the draw of a card that reverses and then makes the next player "
        "draw: the opponent, or the player who played it (official No Mercy sheet).",
        choices=("opponent", "player"))
    start_card: str = _opt(
        "classic",
        "Turning the start card: classic (a wild draw card goes back and another is turned; any other "
        "card's effect applies to the first player) or number-only (a card that is not a number card "
        "is set aside and the next is turned).",
        choices=("classic", "number-only"))
    uno_penalty: int = _opt(
        2, "Cards drawn by a player caught not saying UNO (0: the UNO call is not used).",
        minimum=0, maximum=20)
    uno_catch: str = _opt(
        "before-next-turn",
        "How long a missed UNO call may be caught, by any other player: until the next player begins "
        "their turn, or until the end of the next player's turn (No Mercy).",
        choices=("before-next-turn", "until-next-turn-ends"))
    power_cards: bool = _opt(
        False, "Flex Spectrum Power cards: a Flex side may be used only with the Power card green.")
    duel_penalty: int = _opt(
        2, "Cards drawn by a player who cannot answer a duel (doubles with each counter-duel, up to "
           "duel_penalty_max).", minimum=1, maximum=20)
    duel_penalty_max: int = _opt(
        8, "The most a duel penalty can grow to by counter-duels.", minimum=1, maximum=99)
    turn_cap: int = _opt(
        5000,
        "Simulation safety: a game that runs longer than this many turns is reported as capped "
        "(counter-duels and jump-ins count as turns, so no chain of them can run forever).",
        minimum=50, maximum=1_000_000)

    def __post_init__(self) -> None:
        problems = [f"{name}: {why}" for name, opt in OPTIONS.items()
                    if (why := opt.check(getattr(self, name))) is not None]
        if problems:
            raise DeckgenError(error("option", "rules.options", "invalid rule options: " + "; ".join(problems),
                                     hint="options: " + ", ".join(OPTIONS)))

    def replace(self, **changes: Any) -> RuleOptions:
        """A copy with these options changed (validated; an unknown name is a DeckgenError)."""
        for name in changes:
            _option(name)
        return dataclasses.replace(self, **changes)

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in OPTIONS}

    def changed(self) -> dict[str, Any]:
        """The options that differ from the library defaults."""
        return {name: v for name, v in self.as_dict().items() if v != OPTIONS[name].default}


OPTIONS: Mapping[str, Option] = MappingProxyType({
    f.name: Option(f.name, type(f.default), f.default, f.metadata["doc"], f.metadata["choices"],
                   f.metadata["minimum"], f.metadata["maximum"])
    for f in dataclasses.fields(RuleOptions)
})

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
        "start_card": "number-only",
        "uno_catch": "until-next-turn-ends",
    }),
    "flex-spectrum": MappingProxyType({
        "power_cards": True,
        "wild_draw_four_legal": "no-playable-card",
        "start_card": "number-only",
    }),
})


def _option(name: str) -> Option:
    opt = OPTIONS.get(name)
    if opt is None:
        near = did_you_mean(name, OPTIONS)
        raise DeckgenError(error("option", name, f"unknown rule option '{name}'",
                                 hint=(f"{near} " if near else "") + "options: " + ", ".join(OPTIONS)))
    return opt


def resolve(preset: str, overrides: Mapping[str, Any] | None = None) -> RuleOptions:
    """Defaults, then the preset, then the overrides (validated)."""
    if preset not in PRESETS:
        raise DeckgenError(error("preset", "rules.preset", f"unknown rules preset '{preset}'",
                                 hint=did_you_mean(preset, PRESETS) or "presets: " + ", ".join(PRESETS)))
    merged = dict(PRESETS[preset])
    merged.update(overrides or {})
    for name in merged:
        _option(name)
    return RuleOptions(**merged)


def parse_value(name: str, text: str) -> Any:
    """An option's value from command-line text ('true', '8', 'same-kind'); a DeckgenError (exit 2)
    names the option and lists the valid options or values."""
    opt = _option(name)
    raw = text.strip()
    value: Any = raw
    if opt.type is bool:
        low = raw.lower()
        if low in ("true", "yes", "on", "1"):
            value = True
        elif low in ("false", "no", "off", "0"):
            value = False
    elif opt.type is int:
        try:
            value = int(raw)
        except ValueError:
            value = raw
    why = opt.check(value)
    if why is not None:
        if opt.choices:
            near = did_you_mean(raw, opt.choices)
            hint = (f"{near} " if near else "") + "values: " + ", ".join(opt.choices)
        elif opt.type is bool:
            hint = "values: true, false"
        else:
            lo = "" if opt.minimum is None else f"from {opt.minimum} "
            hi = "" if opt.maximum is None else f"to {opt.maximum}"
            hint = f"an integer {lo}{hi}".strip()
        raise DeckgenError(error("option", name, f"'{text}' is not a value of rule option '{name}': {why}",
                                 hint=hint))
    return value


__all__ = ["OPTIONS", "PRESETS", "Option", "RuleOptions", "parse_value", "resolve"]
