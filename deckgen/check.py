"""``deckgen check``: everything that can be said about a deck before printing it.

Each pipeline stage contributes findings through a function ``(deck, options) -> list[Finding]``
listed in :func:`stage_checks`; the static checks of the deck itself live here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deckgen import manifest
from deckgen.datafile import with_lines
from deckgen.effects import has
from deckgen.errors import NOTE, WARNING, Finding, error, warning
from deckgen.manifest.schema import MAX_CARDS
from deckgen.model import NUMBER, Card, Deck, Palette
from deckgen.progress import Progress


@dataclass
class CheckOptions:
    """What ``check`` runs beyond the static checks."""

    simulate: bool = True
    games: int | None = None     # games per table size; None: the engine's default
    seed: int = 1
    palette: Palette | None = None
    progress: Progress | None = None


@dataclass
class CheckReport:
    deck: Deck | None
    path: Path | None
    findings: list[Finding]
    sections: dict[str, Any] = field(default_factory=dict)   # e.g. "simulation", "palette"

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.is_error]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == WARNING]

    @property
    def notes(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == NOTE]


def check(ref: str | Path, options: CheckOptions | None = None, loaded: manifest.LoadResult | None = None) -> CheckReport:
    """Load a manifest (unless ``loaded`` is what reading it gave) and run every check. Raises
    DeckgenError only for unreadable input."""
    options = options or CheckOptions()
    result = loaded if loaded is not None else manifest.load(ref, options.palette)
    report = CheckReport(result.deck, result.path, list(result.findings))
    if result.deck is None:
        return report
    report.findings.extend(preset_notes(result.deck))
    report.findings.extend(static_checks(result.deck))
    for stage in stage_checks():
        report.findings.extend(stage(result.deck, options, report))
    report.findings = _once(with_lines(report.findings))
    return report


def _once(findings: list[Finding]) -> list[Finding]:
    """Each finding once, in the order found."""
    return list(dict.fromkeys(findings))


def preset_notes(deck: Deck) -> list[Finding]:
    """Notes for the user presets (palette, card size, kinds) the deck uses that replace bundled ones."""
    from deckgen import presets
    from deckgen.manifest.kinds import KINDS
    from deckgen.manifest.palettes import PALETTES
    from deckgen.render.geometry import CARD_SIZES

    base = deck.source.parent if deck.source else None
    used = {c.kind for c in deck.cards} | {c.flex.kind for c in deck.cards if c.flex}
    out: list[Finding] = []
    wanted: list[tuple[presets.PresetFile[Any], set[str]]] = [
        (PALETTES, {deck.palette.id}), (CARD_SIZES, {str(deck.card_size).lower()}), (KINDS, used)]
    for kind, names in wanted:
        out.extend(presets.catalogue(kind, base).notes_for(names))
    return out


def stage_checks() -> list[Callable[[Deck, CheckOptions, CheckReport], list[Finding]]]:
    """The checks each later pipeline stage adds (palette, rules, rulebook), imported lazily."""
    from deckgen.render.checks import stage_check as render_check
    from deckgen.rulebook import check_stage as rulebook_check
    from deckgen.rules.checks import rules_check

    return [render_check, rulebook_check, rules_check]


def _file(deck: Deck) -> str | None:
    return str(deck.source) if deck.source else None


def is_start_card(deck: Deck, card: Card) -> bool:
    """Whether a card may stay as the start card under the deck's start-card rule (Deck.can_start)."""
    return deck.can_start(card)


def static_checks(deck: Deck) -> list[Finding]:
    """Counts, points, start card, Power cards: what needs no simulation."""
    f = _file(deck)
    out: list[Finding] = []
    needed = deck.players_max * deck.hand_size + 2
    if deck.total < needed:
        out.append(error("too-few-cards", "cards",
                         f"{deck.total} cards cannot deal {deck.hand_size} to each of {deck.players_max} players "
                         f"and still turn a start card and leave a draw pile (needs at least {needed})", file=f,
                         hint="add cards, lower deck.players.max or deck.hand_size"))
    elif deck.total < needed + deck.players_max * 2:
        out.append(warning("small-draw-pile", "cards",
                           f"at {deck.players_max} players only {deck.total - needed + 1} cards are left to draw "
                           "after the deal", file=f))
    if not any(is_start_card(deck, c) for c in deck.cards):
        rule = deck.rule_options.start_card
        out.append(error("no-start-card", "cards",
                         f"no card can be the start card under the '{rule}' start-card rule", file=f,
                         hint="a number card is needed" if rule == "number-only" else "add a card that is not a wild draw card"))
    pointless: dict[str, list[Card]] = {}
    for card in deck.cards:
        if card.points is None:
            pointless.setdefault(card.where, []).append(card)
    for where, cards in pointless.items():
        ids = ", ".join(f"'{c.name(deck.language)}'" for c in cards)
        out.append(error("no-points", f"{where}.points",
                         f"card{'s' if len(cards) > 1 else ''} {ids} {'have' if len(cards) > 1 else 'has'} no point value",
                         file=f, hint=f"add points = N to the entry or a scoring.points.{cards[0].kind} value"))
    opts = deck.rule_options
    if opts.power_cards:
        power = sum(c.count for c in deck.components if c.kind == "power")
        if power < deck.players_max:
            out.append(error("power-cards", "components",
                             f"the Power-card rule needs one Power card per player: {power} for up to "
                             f"{deck.players_max} players", file=f,
                             hint="add a [[components]] entry with kind = \"power\" and count = players max"))
        if not any(c.flex for c in deck.cards):
            out.append(error("power-without-flex", "rules.options.power_cards",
                             "the Power-card rule is on but no card has a flex side", file=f))
    for comp in deck.components:
        if comp.kind == "power" and len(comp.faces) != 2:
            out.append(error("power-faces", f"{comp.where}.faces", "a Power card has two faces (green and red)",
                             file=f))
    if deck.total > MAX_CARDS:
        out.append(warning("many-cards", "cards",
                           f"{deck.total:,} cards is far more than a playable deck (more than {MAX_CARDS:,})", file=f,
                           hint="check the count of each [[cards]] entry; printing, checking and rendering take long"))
    if not any(deck.kinds[c.kind].category == NUMBER for c in deck.cards):
        out.append(warning("no-numbers", "cards", "the deck has no number card", file=f))
    if not any(has(deck.kinds[c.kind].effects, "choose_color") or c.color for c in deck.cards):
        out.append(warning("no-colors", "cards", "no card has a colour", file=f))
    return out
