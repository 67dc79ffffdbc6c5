"""A check report as text for people and as JSON for tools."""

from __future__ import annotations

from typing import Any

from deckgen.check import CheckReport
from deckgen.errors import printable
from deckgen.model import Card, Deck
from deckgen.rulebook.words import ui


def card_json(deck: Deck, card: Card) -> dict[str, Any]:
    return {
        "id": card.id,
        "name": card.name(deck.language),
        "kind": card.kind,
        "color": card.color,
        "value": card.value,
        "count": card.count,
        "points": card.points,
        "flex": {"color": card.flex.color, "kind": card.flex.kind} if card.flex else None,
    }


def to_json(rep: CheckReport) -> dict[str, Any]:
    deck = rep.deck
    data: dict[str, Any] = {
        "deck": deck.id if deck else None,
        "name": deck.name() if deck else None,
        "file": str(rep.path) if rep.path else None,
        "cards_total": deck.total if deck else None,
        "components": _components(deck) if deck else {},
        "cards": [card_json(deck, c) for c in deck.cards] if deck else [],
        "errors": [f.to_json() for f in rep.errors],
        "warnings": [f.to_json() for f in rep.warnings],
        "notes": [f.to_json() for f in rep.notes],
        "verdict": {"ready": rep.ready, "given": rep.simulated, "strict": rep.strict, "line": rep.verdict_line()},
    }
    data.update(sections_json(rep))
    return data


def sections_json(rep: CheckReport) -> dict[str, Any]:
    """The report's sections (palette, rulebook, simulation) as JSON, in the report's order."""
    out: dict[str, Any] = {}
    if rep.palette is not None:
        out["palette"] = rep.palette.to_json()
    if rep.rulebook is not None:
        out["rulebook"] = {"summary": rep.rulebook.summary, "languages": list(rep.rulebook.languages)}
    if rep.simulation is not None:
        out["simulation"] = rep.simulation
    return out


def _summaries(rep: CheckReport) -> list[tuple[str, str]]:
    """(section, one-line summary) of each section that has one."""
    out = []
    if rep.palette is not None:
        out.append(("palette", rep.palette.summary()))
    if rep.rulebook is not None:
        out.append(("rulebook", rep.rulebook.summary))
    summary = rep.simulation.get("summary") if rep.simulation is not None else None
    if summary:
        out.append(("simulation", str(summary)))
    return out


def _components(deck: Deck) -> dict[str, int]:
    out: dict[str, int] = {}
    for comp in deck.components:
        out[comp.kind] = out.get(comp.kind, 0) + comp.count
    return out


def to_text(rep: CheckReport) -> str:
    lines = []
    deck = rep.deck
    if deck is not None:
        lang = deck.language
        lines.append(f"{deck.name()} ({deck.id}): {deck.total} cards, "
                     f"{deck.players_min}-{deck.players_max} players, {deck.hand_size} cards each")
        by_kind = deck.count_by_kind()
        width = max(len(deck.kinds[k].names.get(lang)) for k in by_kind)
        lines.append("  by kind:")
        for kid, n in by_kind.items():
            lines.append(f"    {deck.kinds[kid].names.get(lang):<{width}}  {n:>4}")
        lines.append("  by colour: " + ", ".join(
            f"{deck.palette.get(c).names.get(lang) if c else ui(lang, 'uncoloured')} {n}"
            for c, n in deck.count_by_color().items()))
        for comp in deck.components:
            lines.append(f"  printed extras: {comp.count} × {comp.names.get(lang)} (not shuffled in)")
        for name, summary in _summaries(rep):
            lines.append(f"  {name}: {summary}")
    else:
        lines.append(f"{rep.path}: the manifest could not be read as a deck")
    for f in rep.findings:
        lines.append(f.format())
    n_err, n_warn, n_note = len(rep.errors), len(rep.warnings), len(rep.notes)
    summary = f"{n_err} error{'s' if n_err != 1 else ''}, {n_warn} warning{'s' if n_warn != 1 else ''}"
    if n_note:
        summary += f", {n_note} note{'s' if n_note != 1 else ''}"
    lines.append(summary)
    lines.append(("verdict (--strict): " if rep.strict else "verdict: ") + rep.verdict_line())
    return printable("\n".join(lines))       # a folder name or deck text with a terminal escape is shown, not run
