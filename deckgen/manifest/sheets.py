"""Card lists from a spreadsheet: ``cards = "cards.csv"``, ``cards = { file = "deck.xlsx", sheet = "Cards" }``,
and the same for ``kinds`` and ``components`` (docs/manifest.md, "Cards from a sheet").

A sheet is read into rows of cells (:mod:`deckgen.manifest.sheetfiles` reads CSV, XLSX and ODS),
then each row becomes the table a ``[[cards]]`` entry would be: the header row names the keys
(dotted for the parts of a table: ``text.es``, ``flex.color``), an empty cell is a key not
given, a cell is converted to the type its key takes (``count`` a whole number, ``duel`` true or
false, ``values`` a comma-separated list), and a row whose first cell starts with ``#`` is a
comment. Every problem names the file, the sheet and the cell (``cards.xlsx: Cards!C14``), with
the same did-you-mean hints as the TOML keys; :class:`Places` turns the parser's key paths
(``cards[13].count``) back into cells.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from deckgen.errors import Collector, Finding, did_you_mean
from deckgen.manifest.schema import CARD_KEYS, COMPONENT_KEYS, FLEX_KEYS, KIND_KEYS
from deckgen.manifest.sheetfiles import Grid, SheetProblem, column_letter, read_grid

SHEET_REF_KEYS = {"file": ("string", True), "sheet": ("string", False)}

INTEGER = {"value", "count", "points"}
BOOLEAN = {"flip_icon", "duel", "colorless"}
INT_LIST = {"values"}
STR_LIST = {"colors", "hide", "faces"}
TEXTS = {"name", "text", "label"}             # a plain string, or one column per language (name.es, name.en)
TOML_VALUE = {"effects"}                       # written as TOML: ["skip"] or [{ op = "draw", n = 2 }]


@dataclass(frozen=True)
class Columns:
    """The columns one kind of sheet may have: plain keys and dotted ``table.key`` ones."""

    what: str                                  # "card", "kind", "component"
    keys: Mapping[str, tuple[str, bool]]
    tables: Mapping[str, Mapping[str, tuple[str, bool]]] = field(default_factory=dict)

    def names(self) -> list[str]:
        out = [k for k in self.keys if k not in self.tables]
        out += [f"{t}.{k}" for t, keys in self.tables.items() for k in keys]
        return out

    def check(self, name: str) -> str | None:
        """Why a header is not a column of this sheet, or None."""
        head, _, rest = name.partition(".")
        if head in TEXTS and head in self.keys and rest:
            return None if re.fullmatch(r"[a-z]{2}", rest) else f"'{rest}' is not a two-letter language code"
        if rest:
            if head in self.tables and rest in self.tables[head]:
                return None
        elif name in self.keys:
            return None
        return f"unknown column '{name}'"


CARD_COLUMNS = Columns("card", CARD_KEYS, {"flex": FLEX_KEYS})
KIND_COLUMNS = Columns("kind", {"id": ("string", True), **KIND_KEYS})
COMPONENT_COLUMNS = Columns("component", COMPONENT_KEYS)


@dataclass(frozen=True)
class Place:
    """Where one entry read from a sheet came from: the file, the sheet, the row and each key's column."""

    file: str
    sheet: str | None
    row: int
    columns: Mapping[str, int]

    def cell(self, key: str | None = None) -> str:
        col = self.columns.get(key or "", self.columns.get((key or "").split(".")[0]))
        prefix = f"{self.sheet}!" if self.sheet else ""
        if col is None:
            return f"{prefix}row {self.row}" if self.sheet is None else f"{prefix}{self.row}:{self.row}"
        return f"{prefix}{column_letter(col)}{self.row}"


@dataclass
class Places:
    """Key path prefix (``cards[13]``, ``kinds.zap``, ``components[0]``) -> the sheet row it came from."""

    by_prefix: dict[str, Place] = field(default_factory=dict)

    def relocate(self, findings: list[Finding]) -> list[Finding]:
        """Findings about entries read from a sheet, pointed at their file, sheet and cell."""
        if not self.by_prefix:
            return findings
        out = []
        for f in findings:
            m = re.match(r"^((?:cards|components)\[\d+\]|kinds\.[^.]+)(?:\.(.+))?$", f.where)
            place = self.by_prefix.get(m.group(1)) if m else None
            if place is None or m is None:
                out.append(f)
                continue
            key = m.group(2)
            column = key.split("[")[0] if key else None
            message = f"column '{column}': {f.message}" if column and f.code != "missing-key" else f.message
            out.append(replace(f, file=place.file, where=place.cell(column), line=None, message=message))
        return out


@dataclass
class SheetRead:
    """Entries read from one sheet, each with the place it came from."""

    entries: list[dict[str, Any]]
    places: list[Place]


def is_ref(value: Any) -> bool:
    """A sheet reference: a file name, or a table with ``file`` (and ``sheet``)."""
    return isinstance(value, str) or (isinstance(value, dict) and isinstance(value.get("file"), str)
                                      and set(value) <= set(SHEET_REF_KEYS))


def read_entries(ref: Any, where: str, base: Path, columns: Columns, out: Collector) -> SheetRead | None:
    """The entries of the sheet ``ref`` names (relative to the manifest's folder ``base``), or None
    with findings when it cannot be read."""
    if isinstance(ref, str):
        name, sheet = ref, None
    else:
        name, sheet = ref["file"], ref.get("sheet")
        if sheet is not None and (not isinstance(sheet, str) or not sheet.strip()):
            out.error("type", f"{where}.sheet", "expected the name of a sheet in the workbook")
            return None
    from deckgen.images import ImageProblem, resolve_inside

    try:
        path = resolve_inside(name, base)
    except ImageProblem as exc:
        out.error("file", where, str(exc).replace(f"'{name}'", f"the sheet '{name}'"), hint=exc.hint)
        return None
    try:
        grid = read_grid(path, sheet)
    except SheetProblem as exc:
        out.error(exc.code, where, exc.message, hint=exc.hint)
        return None
    shown = str(path)
    for problem in grid.problems:
        out.add(problem.finding(shown, grid.sheet))
    return _entries(grid, shown, columns, out)


def _header(grid: Grid, shown: str, columns: Columns, out: Collector) -> tuple[int, dict[int, str], set[int]] | None:
    """The header row's number and its columns (index -> key), or None when it has none."""
    for number, cells in grid.rows:
        first = next((c for c in cells if c not in (None, "")), None)
        if first is None or (isinstance(first, str) and first.lstrip().startswith("#")):
            continue
        header: dict[int, str] = {}
        named: set[int] = set()             # columns with a header, good or not (a bad one is reported once)
        problems: list[Finding] = []
        sheet = f"{grid.sheet}!" if grid.sheet else ""
        for i, cell in enumerate(cells):
            if cell in (None, ""):
                continue
            name = str(cell).strip()
            named.add(i)
            where = f"{sheet}{column_letter(i)}{number}"
            why = columns.check(name)
            if why is not None:
                hint = did_you_mean(name, columns.names()) or "columns: " + ", ".join(columns.names())
                problems.append(_finding("unknown-key", shown, where, why, hint))
            elif name in header.values():
                problems.append(_finding("duplicate-key", shown, where, f"column '{name}' is given twice",
                                         "keep one column per key"))
            else:
                header[i] = name
        if not header:
            first_row = f"{sheet}{number}:{number}" if sheet else f"row {number}"
            out.add(_finding("header", shown, first_row, "the first row is not a header: none of its cells names a "
                             f"{columns.what} key", "add a header row naming the columns, e.g. "
                             + ", ".join(k for k, (_, req) in columns.keys.items() if req)))
            return None
        for p in problems:
            out.add(p)
        return number, header, named
    first_row = f"{grid.sheet}!1:1" if grid.sheet else "row 1"
    out.add(_finding("header", shown, first_row, "the sheet is empty: it needs a header row and one row per "
                     f"{columns.what}", None))
    return None


def _finding(code: str, shown: str, where: str, message: str, hint: str | None) -> Finding:
    from deckgen.errors import error

    return error(code, where, message, file=shown, hint=hint)


def _entries(grid: Grid, shown: str, columns: Columns, out: Collector) -> SheetRead | None:
    head = _header(grid, shown, columns, out)
    if head is None:
        return None
    header_row, header, named = head
    read = SheetRead([], [])
    for number, cells in grid.rows:
        if number <= header_row:
            continue
        first = next((c for c in cells if c not in (None, "")), None)
        if first is None or (isinstance(first, str) and first.lstrip().startswith("#")):
            continue
        place = Place(shown, grid.sheet, number, {name: i for i, name in header.items()})
        entry: dict[str, Any] = {}
        for i, cell in enumerate(cells):
            if cell in (None, "") or i not in header:
                if cell not in (None, "") and i not in named:
                    out.add(_finding("unknown-key", shown, place.cell(), f"cell {column_letter(i)}{number} has a "
                                     "value but its column has no header", "name the column in the header row"))
                continue
            _put(entry, header[i], cell, place, out)
        read.entries.append(entry)
        read.places.append(place)
    return read


def _put(entry: dict[str, Any], name: str, cell: Any, place: Place, out: Collector) -> None:
    """One cell into the entry, converted to the type its key takes."""
    head, _, rest = name.partition(".")
    value = convert(head if not rest or head in TEXTS else rest, cell, place.cell(name), place.file, out)
    if value is None:
        return
    if rest:
        table = entry.setdefault(head, {})
        if isinstance(table, dict):
            table[rest] = value
    else:
        entry[name] = value


def convert(key: str, cell: Any, where: str, shown: str, out: Collector) -> Any:
    """A cell as the value its key takes: None (with a finding) when it cannot be."""
    if isinstance(cell, (datetime.date, datetime.time, datetime.timedelta)):
        if key in INTEGER or key in INT_LIST:
            out.add(_finding("type", shown, where, f"column '{key}': a date or time ({cell}) where a number belongs",
                             "the spreadsheet turned what was typed into a date: format the column as Number or "
                             "Text and type the number again"))
            return None
        cell = str(cell) if isinstance(cell, datetime.timedelta) else cell.isoformat()
    if isinstance(cell, float) and cell.is_integer():
        cell = int(cell)
    if key in INTEGER:
        return _integer(cell)
    if key in BOOLEAN:
        return _boolean(cell)
    if key in INT_LIST:
        return [_integer(v) for v in _split(cell)]
    if key in STR_LIST:
        items = _split(cell)
        return "all" if key == "colors" and items == ["all"] else items
    if key in TOML_VALUE:
        return _toml_value(key, cell, where, shown, out)
    return cell if isinstance(cell, str) else str(cell).lower() if isinstance(cell, bool) else str(cell)


def _integer(cell: Any) -> Any:
    """A whole number from a cell; anything else is passed on for the parser to report."""
    if isinstance(cell, str) and re.fullmatch(r"\s*[+-]?\d{1,9}\s*", cell):
        return int(cell)
    if isinstance(cell, str) and re.fullmatch(r"\s*[+-]?\d{1,9}[.,]0*\s*", cell):
        return int(re.split(r"[.,]", cell)[0])
    return cell


def _boolean(cell: Any) -> Any:
    words = {"true": True, "yes": True, "sí": True, "si": True, "1": True,
             "false": False, "no": False, "0": False}
    if isinstance(cell, bool):
        return cell
    if isinstance(cell, int):
        return words.get(str(cell), cell)
    if isinstance(cell, str) and cell.strip().lower() in words:
        return words[cell.strip().lower()]
    return cell


def _split(cell: Any) -> list[Any]:
    if isinstance(cell, str):
        return [p.strip() for p in re.split(r"[,;]", cell) if p.strip()]
    return [cell]


def _toml_value(key: str, cell: Any, where: str, shown: str, out: Collector) -> Any:
    import sys

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib

    text = str(cell).strip()
    if re.fullmatch(r"[a-z_]+(\s*,\s*[a-z_]+)*", text):          # skip, reverse: plain effect names
        return [p.strip() for p in text.split(",")]
    try:
        return tomllib.loads(f"value = {text}")["value"]
    except tomllib.TOMLDecodeError:
        out.add(_finding("type", shown, where, f"column '{key}': {text!r} is not a list of effects",
                         'write effect names (skip, reverse) or a TOML array: [{ op = "draw", n = 2 }]'))
        return None


# ---------------------------------------------------------------- the manifest's sheet references

LIST_COLUMNS = {"cards": CARD_COLUMNS, "components": COMPONENT_COLUMNS}


@dataclass
class Expanded:
    """A manifest's tables with every sheet reference replaced by the entries it reads, the line
    of each ``[[cards]]``/``[[components]]`` entry written in the TOML (None for a sheet row),
    and where each entry read from a sheet came from."""

    data: dict[str, Any]
    lines: dict[str, list[int | None]]
    places: Places


def expand(data: dict[str, Any], path: Path, out: Collector) -> Expanded:
    """``cards``, ``kinds`` and ``components`` with their sheets read in."""
    from deckgen.datafile import table_lines

    result = Expanded(dict(data), {}, Places())
    for key, columns in LIST_COLUMNS.items():
        toml_lines: list[int | None] = list(table_lines(path, key))
        value = data.get(key)
        if is_ref(value) or (isinstance(value, list) and any(is_ref(v) or _has_ref(v) for v in value)):
            items: list[Any] = [value] if is_ref(value) or not isinstance(value, list) else list(value)
            entries: list[Any] = []
            lines: list[int | None] = []
            for n, item in enumerate(items):
                if isinstance(item, dict) and _has_ref(item):
                    item = {k: item[k] for k in SHEET_REF_KEYS if k in item}
                if not is_ref(item):
                    entries.append(item)
                    lines.append(toml_lines[n] if n < len(toml_lines) and not is_ref(value) else None)
                    continue
                where = key if is_ref(value) else f"{key}[{n}]"
                read = read_entries(item, where, path.parent, columns, out)
                for entry, place in zip(read.entries, read.places) if read else ():
                    result.places.by_prefix[f"{key}[{len(entries)}]"] = place
                    entries.append(entry)
                    lines.append(None)
            result.data[key] = entries if entries or not any(f.is_error for f in out.findings) else None
            result.lines[key] = lines
        else:
            result.lines[key] = toml_lines
    kinds = data.get("kinds")
    if is_ref(kinds) or (isinstance(kinds, dict) and isinstance(kinds.get("file"), str)):
        result.data["kinds"] = _kinds(kinds, path, result.places, out)
    return result


def _has_ref(item: Any) -> bool:
    """A ``[[cards]]`` entry that names a sheet: ``file = "cards.csv"`` (and ``sheet``)."""
    return isinstance(item, dict) and isinstance(item.get("file"), str)


def _kinds(value: Any, path: Path, places: Places, out: Collector) -> dict[str, Any]:
    """``kinds = "kinds.csv"``, or a ``[kinds]`` table with ``file`` (and ``sheet``) beside its own kinds."""
    ref = value if isinstance(value, str) else {k: value[k] for k in SHEET_REF_KEYS if k in value}
    own = {} if isinstance(value, str) else {k: v for k, v in value.items() if k not in SHEET_REF_KEYS}
    read = read_entries(ref, "kinds", path.parent, KIND_COLUMNS, out)
    kinds: dict[str, Any] = {}
    for entry, place in zip(read.entries, read.places) if read else ():
        kid = entry.pop("id", None)
        if not isinstance(kid, str) or not kid.strip():
            out.add(_finding("missing-key", place.file, place.cell("id"), "the row has no kind id", "fill the id column"))
            continue
        if kid in kinds or kid in own:
            out.add(_finding("duplicate-id", place.file, place.cell("id"), f"kind '{kid}' is declared twice",
                             "give each kind its own id"))
            continue
        kinds[kid] = entry
        places.by_prefix[f"kinds.{kid}"] = place
    kinds.update(own)
    return kinds
