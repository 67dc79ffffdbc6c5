"""Default card ids and card names, derived from kind, colour, value and flags."""

from __future__ import annotations

from deckgen.model import NUMBER, WILD, FlexSide, Kind, Palette
from deckgen.words import CARD_NAME_WORDS


def card_id(pattern: str | None, kind: Kind, color: str | None, value: int | None, flags: dict[str, bool],
            flex: FlexSide | None) -> str:
    """``red-7``, ``wild-draw-ten``, ``red-3-flip``, ``blue-skip-flex``: stable and readable.

    An explicit ``id`` may use ``{color}`` and ``{value}`` placeholders.
    """
    if pattern:
        return pattern.replace("{color}", color or "").replace("{value}", "" if value is None else str(value))
    parts = []
    if color:
        parts.append(color)
    elif flags.get("colorless"):
        parts.append("colorless")
    parts.append(str(value) if kind.category == NUMBER and value is not None else kind.id)
    if flags.get("flip_icon"):
        parts.append("flip")
    if flags.get("duel"):
        parts.append("duel")
    if flex is not None:
        parts.append("flex" if flex.kind == kind.id else f"flex-{flex.kind}")
    return "-".join(parts)


def card_names(kind: Kind, color: str | None, value: int | None, flags: dict[str, bool], flex: FlexSide | None,
               palette: Palette | None, kinds: dict[str, Kind]) -> dict[str, str]:
    """The card's name in each language the kind is named in."""
    names = {}
    for lang in sorted(set(kind.names.values) | {"es", "en"}):
        words = CARD_NAME_WORDS.get(lang, CARD_NAME_WORDS["en"])
        cname = palette.get(color).names.get(lang) if (palette and color) else None
        if kind.category == NUMBER:
            if flags.get("colorless"):
                base = f"{value} {words['colorless']}" if lang == "es" else f"{words['colorless']} {value}"
            elif lang == "es":
                base = f"{value} {cname}" if cname else str(value)
            else:
                base = f"{cname} {value}" if cname else str(value)
        else:
            kname = kind.names.get(lang)
            if kind.category == WILD or not cname:
                base = kname
            else:
                base = f"{kname} {cname}" if lang == "es" else f"{cname} {kname}"
        for flag in ("flip_icon", "duel"):
            if flags.get(flag):
                base += f" ({words['flip' if flag == 'flip_icon' else 'duel']})"
        if flex is not None:
            fkind = kinds.get(flex.kind)
            fname = fkind.names.get(lang) if fkind else flex.kind
            fcol = palette.get(flex.color).names.get(lang) if (palette and flex.color) else None
            if fkind is not None and fkind.category == NUMBER:
                fname = f"{value} {fcol}" if lang == "es" else f"{fcol} {value}"
            elif fcol:
                fname = f"{fname} {fcol}" if lang == "es" else f"{fcol} {fname}"
            base += f" / {fname}"
        names[lang] = base
    return names
