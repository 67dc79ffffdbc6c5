"""Where a deck's rulebook templates are and which languages they are written in, and what
``check`` says of them: what a build whose rulebooks come from the cache asks, without importing
jinja2 (the sandbox that runs the templates is :mod:`deckgen.rulebook.env`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from deckgen import deckfs
from deckgen.errors import DeckgenError, error
from deckgen.model import Deck
from deckgen.resources import templates_dir


@dataclass(frozen=True)
class RulebookSummary:
    """What the rulebook step of ``check`` found: the languages its templates were run in
    (:attr:`deckgen.check.CheckReport.rulebook`)."""

    languages: tuple[str, ...]
    problems: int = 0              # errors among the rulebook's findings

    @property
    def summary(self) -> str:
        state = ("every card named exists and every kind is explained" if not self.problems
                 else f"{self.problems} problem(s)")
        return f"rulebook templates ({', '.join(self.languages)}): {state}"


def user_dir(deck: Deck) -> Path | None:
    """The deck's own template folder, resolved against the manifest's folder; it must lie inside it."""
    if not deck.template_dir:
        return None
    from deckgen.images import ImageProblem, resolve_inside

    base = deck.source.parent if deck.source else Path.cwd()
    shown = str(deck.source) if deck.source else None
    try:
        path = resolve_inside(deck.template_dir, base)
    except ImageProblem as exc:
        message = str(exc).replace(f"'{deck.template_dir}'", f"the template folder '{deck.template_dir}'", 1)
        raise DeckgenError(error("file", "deck.templates", message, file=shown,
                                 hint="keep the templates in a folder beside the manifest, e.g. templates = "
                                      '"rules"')) from None
    if not deckfs.is_dir(path):              # a folder on disk, or in a mounted pack
        raise DeckgenError(error("file", "deck.templates", f"template folder '{deck.template_dir}' does not exist",
                                 file=str(deck.source) if deck.source else None,
                                 hint=f"looked for {path}; the path is relative to the manifest"))
    return path


def languages(deck: Deck) -> list[str]:
    """The languages a rulebook can be written in for this deck."""
    found = set()
    root = templates_dir()
    own = user_dir(deck)
    for base in [root / "shared", root / deck.rules_preset] + ([own] if own else []):
        found |= {name for name in deckfs.listdir(base) if len(name) == 2 and deckfs.is_dir(base / name)}
    return sorted(found)
