"""``deckgen import``: the card data a Squib or nanDECK designer already keeps, as a deckgen deck.

- Squib reads its data with ``Squib.csv`` / ``Squib.xlsx``, one row per card design, and repeats a
  row as many times as its ``qty`` column says (the ``explode`` option's default column).
- nanDECK links a data file with ``LINK=file.csv`` (or ``.xlsx``/``.ods``) and takes each row's
  copies from the column ``LINKMULTI`` names. Given a nanDECK script (``.nde``), its ``LINK`` and
  ``LINKMULTI`` lines say which file and which column.

The columns are matched to a ``[[cards]]`` entry's keys by their usual names in either tool and
in English or Spanish (``qty``, ``copies``, ``cantidad`` -> ``count``; ``colour``, ``color`` ->
``color``; ``type``, ``tipo`` -> ``kind`` ...); ``--map COLUMN=KEY`` maps any other (``KEY`` ``-``
leaves it out). A picture column is left unless mapped (``--map image=art``): its files are
relative to the manifest, so they must be copied beside it. Values are translated the same way:
colour names to palette colours (the classic palette when every colour is one of its four, else
a palette of the colours found), ``Skip``,
``+2``, ``Comodín +4`` to the standard kinds, a number to a number card. The result is a folder
with a manifest and its card sheet (``cards.csv``), and a report of what was mapped, what was
left and why.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deckgen.errors import DeckgenError, did_you_mean, error
from deckgen.model import table_takes

COLUMN_NAMES = {
    "count": ("qty", "quantity", "count", "copies", "copy", "num", "cantidad", "copias", "n"),
    "color": ("color", "colour", "colors", "suit", "palo", "colores"),
    "value": ("value", "number", "rank", "valor", "numero", "num_value"),
    "kind": ("kind", "type", "action", "tipo", "accion", "clase", "card_type", "cardtype"),
    "name": ("name", "title", "nombre", "titulo"),
    "text": ("text", "rules", "effect", "texto", "reglas", "efecto", "description", "descripcion"),
}
KIND_WORDS = {
    "skip": ("skip", "salta", "salto", "bloqueo", "block", "pierdeturno"),
    "reverse": ("reverse", "reversa", "reverso", "cambiodesentido", "cambiosentido", "invertir"),
    "draw-two": ("drawtwo", "draw2", "+2", "roba2", "robados", "tomados", "masdos", "2+"),
    "wild": ("wild", "comodin", "cambiocolor", "colorchange"),
    "wild-draw-four": ("wilddrawfour", "wilddraw4", "wild+4", "+4", "draw4", "drawfour", "roba4", "robacuatro",
                       "comodin+4", "comodinroba4", "comodinrobacuatro", "4+"),
    "number": ("number", "numero", "num"),
}
WILD_COLORS = ("", "black", "negro", "wild", "none", "ninguno", "comodin", "any")
# The words above that only Spanish or only English writes (folded): which of them a file's
# colours and kinds use says the language its designer writes in.
SPANISH_WORDS = frozenset(("rojo", "amarillo", "verde", "azul", "negro", "ninguno", "salta", "salto", "bloqueo",
                           "pierdeturno", "reversa", "reverso", "cambiodesentido", "cambiosentido", "invertir",
                           "roba2", "robados", "tomados", "masdos", "comodin", "cambiocolor", "roba4", "robacuatro",
                           "comodin+4", "comodinroba4", "comodinrobacuatro", "numero"))
ENGLISH_WORDS = frozenset(("red", "yellow", "green", "blue", "black", "none", "any", "skip", "block", "reverse",
                           "drawtwo", "draw2", "wild", "colorchange", "wilddrawfour", "wilddraw4", "wild+4", "draw4",
                           "drawfour", "number"))
CLASSIC = {"red": ("red", "rojo", "r"), "yellow": ("yellow", "amarillo", "y"), "green": ("green", "verde", "g"),
           "blue": ("blue", "azul", "b")}
SPARE_HEX = ("#D7263D", "#F4C30B", "#1B998B", "#2E5EAA", "#8F3985", "#F46036", "#5C4D7D", "#3A7D44", "#C44536",
             "#1F7A8C")
HAND = 7                   # the hand an imported deck deals (the classic rules')
POINTS = {"number": "face", "skip": 20, "reverse": 20, "draw-two": 20, "wild": 50, "wild-draw-four": 50}


def fold(text: Any) -> str:
    """Lower case without accents or spaces: 'Comodín +4' -> 'comodin+4'."""
    decomposed = unicodedata.normalize("NFKD", str(text).strip().lower())
    return re.sub(r"[\s_\-.]", "", "".join(ch for ch in decomposed if not unicodedata.combining(ch)))


@dataclass
class Imported:
    """What an import made and what it says about it."""

    tool: str
    source: Path
    manifest: str = ""
    sheet: str = ""
    mapped: dict[str, str] = field(default_factory=dict)        # column -> key
    left: list[str] = field(default_factory=list)               # columns not used
    skipped: list[str] = field(default_factory=list)            # rows left out, with why
    cards: int = 0
    rows: list[dict[str, Any]] = field(default_factory=list)
    words: dict[str, int] = field(default_factory=lambda: {"es": 0, "en": 0})   # cells in Spanish-only / English-only words

    @property
    def language(self) -> str | None:
        """The language the file's colours and kinds are written in, when its words say so."""
        es, en = self.words["es"], self.words["en"]
        return "es" if es > en else "en" if en > es else None


def nandeck_script(path: Path) -> tuple[Path, str | None]:
    """The data file a nanDECK script links (``LINK=``) and its ``LINKMULTI`` column."""
    from deckgen.datafile import read_text

    link = multi = None
    for line in read_text(path).splitlines():
        m = re.match(r"^\s*(LINK|LINKMULTI)\s*=\s*(.+?)\s*$", line, re.IGNORECASE)
        if m:
            value = m.group(2).split(",")[0].strip().strip('"')
            if m.group(1).upper() == "LINK":
                link = value
            else:
                multi = value
    if link is None:
        raise DeckgenError(error("import", "LINK", "the nanDECK script links no data file", file=str(path),
                                 hint="a script links its data with a line LINK=cards.csv"))
    return (path.parent / link), multi


def read_rows(path: Path, sheet: str | None) -> tuple[list[str], list[tuple[int, dict[str, Any]]]]:
    """The header and the data rows (row number, column -> value) of a data file."""
    from deckgen.manifest.sheetfiles import SheetProblem, read_grid

    try:
        grid = read_grid(path, sheet)
    except SheetProblem as exc:
        raise DeckgenError(error(exc.code, "", exc.message, file=str(path), hint=exc.hint)) from None
    rows = [(n, cells) for n, cells in grid.rows
            if not (isinstance(cells[0], str) and cells[0].lstrip().startswith("#"))] if grid.rows else []
    if not rows:
        raise DeckgenError(error("import", "", "the file has no rows", file=str(path)))
    header = [str(c).strip() if c not in (None, "") else "" for c in rows[0][1]]
    data = [(n, {header[i]: v for i, v in enumerate(cells) if i < len(header) and header[i] and v not in (None, "")})
            for n, cells in rows[1:]]
    return header, data


def match_columns(header: list[str], count: str | None, maps: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    """column -> deckgen key, and the columns left."""
    mapped: dict[str, str] = {}
    for column in header:
        if not column:
            continue
        if column in maps:
            if maps[column] != "-":
                mapped[column] = maps[column]
            continue
        if count is not None and fold(column) == fold(count):
            mapped[column] = "count"
            continue
        for key, names in COLUMN_NAMES.items():
            if fold(column) in names and key not in mapped.values():
                mapped[column] = key
                break
    unknown = [c for c in maps if c not in header]
    if unknown:
        raise DeckgenError(error("usage", "--map", f"the file has no column '{unknown[0]}'",
                                 hint=did_you_mean(unknown[0], header) or "columns: " + ", ".join(h for h in header if h)))
    return mapped, [c for c in header if c and c not in mapped and c not in maps]


def _kind(value: Any) -> str | None:
    word = fold(value)
    for kind, words in KIND_WORDS.items():
        if word in words:
            return kind
    return None


def slug(text: str) -> str:
    """A deck or colour id from a name: 'Mi Mazo' -> 'mi-mazo'."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return re.sub(r"[^a-z0-9]+", "-", plain).strip("-") or "imported"


def _color_id(value: Any) -> str:
    word = fold(value)
    for cid, words in CLASSIC.items():
        if word in words:
            return cid
    return slug(str(value)) if slug(str(value)) != "imported" else "color"


def _row_kind(values: dict[str, Any], number: int | None) -> tuple[str | None, str]:
    """The standard kind a row's values say (or None and why not): its kind column, else its value
    (one column for both: 7, Skip, +2), else its name when it has neither (Salta, Comodín)."""
    raw_value, raw_kind, name = values.get("value"), values.get("kind"), values.get("name")
    kind = _kind(raw_kind) if raw_kind is not None else None
    if kind is None and raw_kind is None and raw_value is not None and number is None:
        kind = _kind(raw_value)
    if kind is None:
        kind = "number" if number is not None and raw_kind in (None, "") else None
    if kind is None and raw_kind is None and raw_value is None:
        kind = _kind(name) if name is not None else None
        if kind is None:
            named = f"its name '{name}' is not" if name is not None else "no name says"
            return None, (f"the row has no kind or value, and {named} a standard card kind (map the column that "
                          "says what the card is with --map COLUMN=kind)")
    if kind is None:
        what = raw_kind if raw_kind is not None else raw_value
        return None, f"'{what}' is not a standard card kind (declare it under [kinds] and map its column)"
    return kind, ""


def _card(row: dict[str, Any], mapped: dict[str, str]) -> tuple[dict[str, Any] | None, str | None]:
    """One data row as a card entry, or None and why it was left out."""
    values = {key: row[col] for col, key in mapped.items() if col in row}
    entry: dict[str, Any] = {k: v for k, v in values.items() if k not in ("kind", "value", "color", "count")}
    raw_value = values.get("value")
    number = _whole(raw_value)
    kind, why = _row_kind(values, number)
    if kind is None:
        return None, why
    entry["kind"] = kind
    if kind == "number":
        if number is None or not 0 <= number <= 99:
            return None, f"a number card needs a value from 0 to 99, not {raw_value!r}"
        entry["value"] = number
    color = values.get("color")
    if kind in ("wild", "wild-draw-four"):
        if color is not None and fold(color) not in WILD_COLORS:
            return None, f"a {kind} card has no colour, but the row gives '{color}'"
    elif color is None or fold(color) in WILD_COLORS:
        return None, f"a {kind} card needs a colour"
    else:
        entry["color"] = _color_id(color)
    count = _whole(values.get("count", 1))
    if count is None or count < 1:
        return None, f"the copies column holds {values.get('count')!r}, not a whole number of copies"
    if count > 1000:
        return None, f"{count} copies is over the limit of 1000"
    entry["count"] = count
    return entry, None


def _whole(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, str) and re.fullmatch(r"\s*\d{1,6}\s*", value):
        return int(value)
    return None


def convert(path: Path, *, tool: str, sheet: str | None = None, count: str | None = None,
            maps: dict[str, str] | None = None) -> Imported:
    """Read a Squib or nanDECK data file (or a nanDECK script) into card entries."""
    source = path
    if path.suffix.lower() == ".nde":
        path, linked_count = nandeck_script(path)
        tool, count = "nandeck", count or linked_count
    header, data = read_rows(path, sheet)
    if count is None and tool == "squib":
        count = "qty"
    result = Imported(tool, source)
    result.mapped, result.left = match_columns(header, count, maps or {})
    if "count" not in result.mapped.values():
        result.skipped.append(f"no copies column ({count or 'qty, copies'}): every row is one card")
    for number, row in data:
        for col, key in result.mapped.items():
            if key in ("color", "kind", "value", "name") and row.get(col) is not None:
                word = fold(row[col])
                result.words["es"] += word in SPANISH_WORDS
                result.words["en"] += word in ENGLISH_WORDS
        entry, why = _card(row, result.mapped)
        if entry is None:
            result.skipped.append(f"row {number}: {why}")
            continue
        result.rows.append(entry)
        result.cards += entry["count"]
    if not result.rows:
        raise DeckgenError(error("import", "", "no row of the file became a card", file=str(path),
                                 hint="; ".join(result.skipped[:3]) or "map the columns with --map COLUMN=KEY"))
    return result


def manifest_text(result: Imported, deck_id: str, name: str, lang: str, sheet_name: str) -> str:
    """The manifest of an imported deck: its palette, the classic rules and the card sheet."""
    colors = list(dict.fromkeys(r["color"] for r in result.rows if "color" in r))
    kinds = list(dict.fromkeys(r["kind"] for r in result.rows))
    # the most players (up to 10) the cards can deal a hand of 7 to, with a start card and a draw pile
    most = max([n for n in range(2, 11) if table_takes(n, HAND) <= result.cards], default=2)
    lines = [f'cards = "{sheet_name}"', f"# Imported by deckgen import from {result.source.name} ({result.tool})", "",
             "[deck]", f'id = "{deck_id}"', f"name = {_toml(name)}", f'language = "{lang}"',
             f"players = {{ min = 2, max = {most} }}" + ("" if most == 10 else
                                                        f"   # {result.cards} cards deal {HAND} to {most} at most"),
             f"hand_size = {HAND}"]
    if set(colors) <= set(CLASSIC):
        lines.append('palette = "classic"')
    else:
        lines += ["", "[palette]", f'id = "{deck_id}"', f"name = {_toml(name)}", "colors = ["]
        for i, cid in enumerate(colors):
            hexa = SPARE_HEX[i % len(SPARE_HEX)]
            lines.append(f'  {{ id = "{cid}", hex = "{hexa}", name = {_toml(cid.replace("-", " "))} }},')
        lines.append("]")
    lines += ["", "[rules]", 'preset = "classic"']
    if "wild-draw-four" not in kinds:       # the classic challenge needs a Wild Draw Four to challenge
        lines += ["[rules.options]", "challenge = false                 # no Wild Draw Four to challenge"]
    lines += ["", "[scoring]", "target = 500", "[scoring.points]"]
    lines += [f"{k} = {_toml(POINTS[k])}" for k in kinds if k in POINTS]
    return "\n".join(lines) + "\n"


def _toml(value: Any) -> str:
    if isinstance(value, int):
        return str(value)
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


def sheet_bytes(result: Imported) -> bytes:
    """The imported cards as a deckgen card sheet (CSV, UTF-8)."""
    import csv
    import io

    order = ["kind", "color", "value", "count", "name", "text", "art"]
    extra = sorted({k for r in result.rows for k in r} - set(order))
    columns = [c for c in order + extra if any(c in r for r in result.rows)]
    buf = io.StringIO(newline="")
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerow(columns)
    for row in result.rows:
        writer.writerow(["" if row.get(c) is None else row[c] for c in columns])
    return buf.getvalue().encode("utf-8")
