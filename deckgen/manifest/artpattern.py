"""Art by pattern: ``art = "art/shell-{value}.png"`` on a kind (or a card entry) names each card's
own picture from its fields: ``{color}``, ``{value}``, ``{kind}`` and ``{id}``.

Each card of the kind without art of its own gets the file its fields name. A missing file is
one error naming it and the cards that need it (and a picture of the same name with another
extension, when one is there), and every pattern gets a note listing the files it expects and
which of them exist (what ``deckgen check`` shows).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from deckgen.errors import Collector, did_you_mean
from deckgen.model import Card, ImageRef

FIELDS = ("color", "value", "kind", "id")
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
MAX_LISTED = 40           # files named in one note
MAX_CARDS = 8             # cards named in the error of one missing file
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".svg")   # another picture by the same name, as a hint


@dataclass(frozen=True)
class Pattern:
    """An art pattern and the key path it was given at."""

    text: str
    where: str
    line: int | None = None


def is_pattern(value: object) -> bool:
    return isinstance(value, str) and "{" in value


def check_pattern(pattern: Pattern, out: Collector) -> bool:
    """Every placeholder is a card field; an error for each that is not."""
    ok = True
    for name in _PLACEHOLDER.findall(pattern.text):
        if name not in FIELDS:
            out.error("art", pattern.where, f"the art pattern '{pattern.text}' has the unknown placeholder {{{name}}}",
                      hint=did_you_mean(name, FIELDS) or "placeholders: " + ", ".join("{" + f + "}" for f in FIELDS),
                      line=pattern.line)
            ok = False
    if pattern.text.count("{") != len(_PLACEHOLDER.findall(pattern.text)):
        out.error("art", pattern.where, f"the art pattern '{pattern.text}' has an unclosed brace", line=pattern.line,
                  hint="write placeholders as {color}, {value}, {kind} or {id}")
        ok = False
    return ok


def file_for(pattern: str, card: Card) -> str | None:
    """The file a card's fields fill the pattern with; None when it uses a field the card lacks."""
    fields = {"color": card.color, "value": card.value, "kind": card.kind, "id": card.id}
    missing = False

    def fill(m: re.Match[str]) -> str:
        nonlocal missing
        value = fields.get(m.group(1))
        if value is None:
            missing = True
            return ""
        return str(value)

    text = _PLACEHOLDER.sub(fill, pattern)
    return None if missing else text


def apply(cards: list[Card], patterns: dict[str, Pattern], base: Path, out: Collector) -> list[Card]:
    """The cards with the art their pattern names: ``patterns`` maps a kind id, or a card's
    ``where`` (a pattern given on its entry), to the pattern."""
    if not patterns:
        return cards
    from deckgen.images import load_image  # imports Pillow: only for a deck with a pattern

    expected: dict[Pattern, dict[str, bool]] = {p: {} for p in patterns.values()}
    loaded: dict[str, ImageRef | None] = {}
    missing: dict[tuple[Pattern, str], list[str]] = {}      # each missing file and the cards that need it
    result = []
    for card in cards:
        pattern = patterns.get(card.where) or (patterns.get(card.kind) if card.art is None else None)
        if pattern is None:
            result.append(card)
            continue
        name = file_for(pattern.text, card)
        if name is None:
            used = [f for f in _PLACEHOLDER.findall(pattern.text) if getattr(card, f, None) is None]
            out.error("art", pattern.where, f"card '{card.id}' has no {used[0]} for the art pattern '{pattern.text}'",
                      line=pattern.line, hint="give the card its own art, or use placeholders every card has")
            result.append(card)
            continue
        exists = _exists(name, base)
        expected[pattern][name] = exists
        if not exists:
            needing = missing.setdefault((pattern, name), [])
            if card.id not in needing:
                needing.append(card.id)
            result.append(card)
            continue
        if name not in loaded:
            loaded[name] = load_image(name, pattern.where, base, out, pattern.line)
        ref = loaded[name]
        result.append(replace(card, art=ref) if ref is not None else card)
    for (pattern, name), ids in missing.items():
        shown = ", ".join(f"'{i}'" for i in ids[:MAX_CARDS]) + (f" and {len(ids) - MAX_CARDS} more"
                                                                 if len(ids) > MAX_CARDS else "")
        whom = f"card {shown} needs" if len(ids) == 1 else f"{len(ids)} cards need"
        other = _same_stem(name, base)
        own = "this card its" if len(ids) == 1 else "these cards their"
        out.error("art", pattern.where, f"{whom} the file {name} (from the pattern '{pattern.text}'), which does not "
                  f"exist" + ("" if len(ids) == 1 else f": {shown}"), line=pattern.line,
                  hint=f"{other} is there, but the pattern names {Path(name).suffix}: save the picture as {name}, "
                  f"or give {own} own art = \"{other}\"" if other else f"add the picture, or give {own} own art")
    for pattern, files in expected.items():
        if files:
            found = sum(files.values())
            listed = [f"{f} ({'found' if ok else 'missing'})" for f, ok in list(files.items())[:MAX_LISTED]]
            more = f", and {len(files) - MAX_LISTED} more" if len(files) > MAX_LISTED else ""
            out.add(_note(out, pattern, f"the art pattern '{pattern.text}' expects {len(files)} file"
                          f"{'s' if len(files) != 1 else ''}, {found} found: " + ", ".join(listed) + more))
    return result


def _note(out: Collector, pattern: Pattern, message: str):  # type: ignore[no-untyped-def]
    from deckgen.errors import note

    return note("art-pattern", pattern.where, message, file=out.file, line=pattern.line)


def _exists(name: str, base: Path, outside: bool = True) -> bool:
    """Whether the picture ``name`` is a file in the deck's folder; a path that leaves the folder
    counts as ``outside`` (True for the pattern's own files: load_image reports it)."""
    from deckgen import deckfs
    from deckgen.images import ImageProblem, resolve_inside

    try:
        return deckfs.is_file(resolve_inside(name, base))
    except ImageProblem:
        return outside


def _same_stem(name: str, base: Path) -> str | None:
    """A picture beside the missing ``name`` with the same name but another image extension
    (``art/blue.jpg`` for ``art/blue.png``), as the pattern would name it; None when there is none."""
    wanted = Path(name)
    for suffix in IMAGE_SUFFIXES:
        for candidate in (wanted.with_suffix(suffix), wanted.with_suffix(suffix.upper())):
            if candidate.suffix != wanted.suffix and _exists(candidate.as_posix(), base, outside=False):
                return candidate.as_posix()
    return None
