"""The rules engine's part of ``deckgen check``: the rules against the cards.

:func:`card_rule_findings` runs with the static checks, before any game is simulated (simulated
play and its verdict are :mod:`deckgen.verdict`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from deckgen.errors import Finding, error, warning
from deckgen.model import NUMBER, Card, Deck, Kind
from deckgen.options import OPTIONS, PRESETS

if TYPE_CHECKING:
    from deckgen.options import RuleOptions

Side = tuple[Card, Kind, str]

# ---------------------------------------------------------------- rules against cards

def _side_kinds(deck: Deck) -> Iterator[Side]:
    """(card, kind, where) for every side of every card."""
    for card in deck.cards:
        yield card, deck.kinds[card.kind], card.where
        if card.flex:
            yield card, deck.kinds[card.flex.kind], f"{card.where}.flex"


def card_rule_findings(deck: Deck) -> list[Finding]:
    """The rule options against the cards: a rule that needs a card the deck lacks, an option
    set for a card or rule the deck does not have, two options that contradict each other, then
    every effect's own checks."""
    f = str(deck.source) if deck.source else None
    sides = list(_side_kinds(deck))
    out = _needed_cards(deck, sides, f)
    out.extend(_unused_options(deck, sides, f))
    o = deck.rule_options
    if o.duel_penalty_max < o.duel_penalty:
        out.append(warning("rule-conflict", "rules.options.duel_penalty_max",
                           f"duel_penalty_max ({o.duel_penalty_max}) is below duel_penalty ({o.duel_penalty}): "
                           "a duel starts at duel_penalty and counter-duels never raise it",
                           file=f, hint=f"set duel_penalty_max to at least {o.duel_penalty}"))
    out.extend(_effect_findings(deck, sides, f))
    return out


def _needed_cards(deck: Deck, sides: list[Side], f: str | None) -> list[Finding]:
    """Rules that need a card the deck does not have."""
    o = deck.rule_options
    chosen_here = set(PRESETS.get(deck.rules_preset, {})) | set(o.changed())
    out: list[Finding] = []

    def opt_error(name: str, message: str, hint: str) -> None:
        # a rule the preset or the manifest chose is an error; one merely left at the library
        # default (the challenge, on unless a preset says otherwise) never applies: a warning
        make = error if name in chosen_here else warning
        out.append(make("rule-needs-card", f"rules.options.{name}", message, file=f, hint=hint))

    numbers = {c.value for c in deck.cards if deck.kinds[c.kind].category == NUMBER}
    if o.seven_zero:
        missing = [v for v in (7, 0) if v not in numbers]
        if missing:
            opt_error("seven_zero", "the 7-0 rule needs number cards 7 and 0; the deck has no "
                      + " and no ".join(str(v) for v in missing), "add them or set seven_zero = false")
    if o.stacking != "off" and not any(k.is_draw and _loses_turn(k) for _, k, _ in sides):
        opt_error("stacking", "stacking needs draw cards (a 'draw' effect) and the deck has none",
                  "add draw cards or set stacking = \"off\"")
    if o.challenge and not any(k.has("challenge") for _, k, _ in sides):
        opt_error("challenge", "the challenge rule needs a card with the 'challenge' effect (a Wild Draw Four)",
                  "add one or set challenge = false")
    if o.mercy_limit and o.mercy_limit <= deck.hand_size:
        opt_error("mercy_limit", f"a Mercy limit of {o.mercy_limit} knocks every player out at the deal "
                  f"({deck.hand_size} cards each)", f"use a limit above {deck.hand_size}, or 0 to turn it off")
    return out


def _unused_options(deck: Deck, sides: list[Side], f: str | None) -> list[Finding]:
    """Options set for a card or a rule the deck does not have (warnings)."""
    o: RuleOptions = deck.rule_options
    duel_cards = any(c.duel for c in deck.cards)
    unused = [
        ("two_player_reverse_draw", o.two_player_reverse_draw != OPTIONS["two_player_reverse_draw"].default
         and not any(k.has("reverse") and k.is_draw for _, k, _ in sides),
         "the option names a card that reverses and makes the next player draw; the deck has none"),
        ("jump_in", o.jump_in and not any(c.count >= 2 and c.color and not c.colorless for c in deck.cards),
         "jump-in needs two identical coloured cards and every coloured card is unique"),
        ("duel_penalty", o.duel_penalty != OPTIONS["duel_penalty"].default and not duel_cards,
         "the duel penalty is set but no card is a duel card"),
        ("duel_penalty_max", o.duel_penalty_max != OPTIONS["duel_penalty_max"].default and not duel_cards,
         "the largest duel penalty is set but no card is a duel card"),
        ("uno_catch", o.uno_catch != OPTIONS["uno_catch"].default and not o.uno_penalty,
         "the UNO catch window is set but the UNO call is off (uno_penalty = 0)"),
    ]
    return [warning("rule-unused", f"rules.options.{name}", message, file=f) for name, hit, message in unused if hit]


def _loses_turn(kind: Kind) -> bool:
    return any(e.op == "draw" and e.lose_turn for e in kind.effects)


def _effect_findings(deck: Deck, sides: list[Side], f: str | None) -> list[Finding]:
    """Each effect's static checks: one entry per primitive in :mod:`deckgen.rules.effect_checks`."""
    from deckgen.rules.effect_checks import effect_findings

    return effect_findings(deck, sides, f)
