"""Reading one sheet of a CSV, XLSX or ODS file into rows of cell values, with bounded memory.

- CSV (``.csv``, ``.tsv``): the standard ``csv`` module. The encoding is found from the bytes:
  UTF-8 with or without a byte-order mark, UTF-16 with a byte-order mark (as Excel's "Unicode
  text" writes it) or without one, else Windows-1252/Latin-1 with a note; bytes that are text in
  none of these are refused. The separator is a comma, or a semicolon when the header row has
  more of those (Excel's CSV where the decimal mark is a comma), or a tab in a ``.tsv``.
- XLSX (``.xlsx``, ``.xlsm``): openpyxl in read-only mode, streamed row by row: the saved result
  of a formula is used (a note when the file has none saved), and merged cells are reported.
- ODS (``.ods``): the sheet's XML streamed with the standard library's parser (see
  :func:`_ods_rows` for why no library), with the same notes.

A workbook is a zip: before a library sees it, its entries are checked (no more than
:data:`MAX_UNPACKED` bytes unpacked, no entry compressed more than :data:`MAX_RATIO` times), and
reading stops at :data:`MAX_ROWS` rows, so a 50 MB workbook or a
compressed bomb is a finding, never an exhausted machine.
"""

from __future__ import annotations

import codecs
import csv
import datetime
import io
import re
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deckgen import safefile
from deckgen.errors import ERROR, NOTE, WARNING, Finding

CSV_SUFFIXES = (".csv", ".tsv")
XLSX_SUFFIXES = (".xlsx", ".xlsm")
ODS_SUFFIXES = (".ods",)
SUFFIXES = CSV_SUFFIXES + XLSX_SUFFIXES + ODS_SUFFIXES
MAX_SHEET_FILE = safefile.MAX_FILE          # bytes of a sheet file
MAX_UNPACKED = 256 * 1024 * 1024            # bytes all of a workbook's XML entries may unpack to
MAX_RATIO = 200                             # unpacked / packed size of one workbook entry
MAX_CELL = 10_000                           # characters in one cell
MAX_ROWS = 10_000          # data rows of one sheet: a deck has a few hundred card designs at most
MAX_COLUMNS = 64


class SheetProblem(Exception):
    """A sheet that cannot be read at all."""

    def __init__(self, message: str, hint: str | None = None, code: str = "file"):
        super().__init__(message)
        self.message, self.hint, self.code = message, hint, code


@dataclass(frozen=True)
class CellProblem:
    """Something about a cell or the file the rows cannot say (a formula, merged cells, the encoding)."""

    severity: str
    code: str
    cell: str              # "C14", "B3:C3", or "" for the whole file
    message: str
    hint: str | None = None

    def finding(self, shown: str, sheet: str | None) -> Finding:
        where = (f"{sheet}!{self.cell}" if sheet else self.cell) if self.cell else (sheet or "")
        return Finding(self.severity, self.code, where, self.message, file=shown, hint=self.hint)


@dataclass
class Grid:
    """One sheet's non-empty rows as (row number, cell values) and what was noticed reading it."""

    sheet: str | None
    rows: list[tuple[int, list[Any]]] = field(default_factory=list)
    problems: list[CellProblem] = field(default_factory=list)


def column_letter(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA."""
    out = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        out = chr(65 + rem) + out
    return out


def read_grid(path: Path, sheet: str | None = None) -> Grid:
    """The rows of ``sheet`` (the first one when None) of the file; SheetProblem when unusable."""
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise SheetProblem(f"{path.name} is not a sheet deckgen reads", hint="save it as .csv, .xlsx or .ods")
    try:
        data = safefile.read_bytes(path, MAX_SHEET_FILE)
    except FileNotFoundError:
        raise SheetProblem(f"no such file: {path}", hint="the path is relative to the manifest") from None
    except OSError as exc:
        raise SheetProblem(f"{path} cannot be read: it {exc.strerror}") from None
    if suffix in CSV_SUFFIXES:
        if sheet is not None:
            raise SheetProblem(f"{path.name} is a CSV file: it has no sheets", hint="leave out 'sheet'", code="value")
        return _csv_grid(data, "\t" if suffix == ".tsv" else None)
    _check_zip(data, path.name)
    if suffix in XLSX_SUFFIXES:
        return _xlsx_grid(data, sheet, path.name)
    return _ods_grid(data, sheet, path.name)


# ---------------------------------------------------------------- CSV


def decode(data: bytes) -> tuple[str, str | None]:
    """The text of a CSV file and a note on its encoding when it was not plain UTF-8."""
    for bom, codec in ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be")):
        if data.startswith(bom):
            try:
                return data[len(bom):].decode(codec), None
            except UnicodeDecodeError:
                raise SheetProblem(f"the file starts as {codec.upper()} text but is not", hint="save it as CSV UTF-8",
                                   code="encoding") from None
    if len(data) >= 4 and data.count(b"\x00") * 3 > len(data):        # UTF-16 without a byte-order mark
        codec = "utf-16-le" if data[1:2] == b"\x00" else "utf-16-be"
        try:
            return data.decode(codec), f"read as {codec.upper()} (it has no byte-order mark)"
        except UnicodeDecodeError:
            pass
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError:
        pass
    if b"\x00" not in data:
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError:
            text = data.decode("latin-1")
        if not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]", text):
            return text, "not UTF-8: read as Windows-1252 (Latin-1)"
    raise SheetProblem("the file is not text in UTF-8, UTF-16 or Latin-1", hint="save it as CSV UTF-8",
                       code="encoding")


def _csv_grid(data: bytes, delimiter: str | None) -> Grid:
    text, how = decode(data)
    grid = Grid(None)
    if how:
        grid.problems.append(CellProblem(WARNING, "encoding", "", f"the file is {how}",
                                         "check the accents came out right, or save the file as CSV UTF-8"))
    if delimiter is None:
        first = text.split("\n", 1)[0]
        delimiter = ";" if first.count(";") > first.count(",") else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        for number, row in enumerate(reader, 1):
            if not any(cell.strip() for cell in row):
                continue
            if len(grid.rows) > MAX_ROWS:
                raise SheetProblem(f"the sheet has more than {MAX_ROWS:,} rows", code="too-long",
                                   hint="a deck is a few hundred card designs: is this the right file?")
            if len(row) > MAX_COLUMNS and any(c.strip() for c in row[MAX_COLUMNS:]):
                raise SheetProblem(f"row {number} has {len(row)} columns, over the limit of {MAX_COLUMNS}",
                                   code="too-long")
            grid.rows.append((number, [_clip(c.strip(), number, i, grid) for i, c in enumerate(row[:MAX_COLUMNS])]))
    except csv.Error as exc:
        raise SheetProblem(f"the CSV is damaged near row {reader.line_num}: {exc}", code="value") from None
    return grid


def _clip(cell: str, number: int, col: int, grid: Grid) -> str:
    if len(cell) <= MAX_CELL:
        return cell
    grid.problems.append(CellProblem(ERROR, "too-long", f"{column_letter(col)}{number}",
                                     f"the cell holds {len(cell):,} characters, over the limit of {MAX_CELL:,}"))
    return ""


# ---------------------------------------------------------------- workbooks (zip files)


def _check_zip(data: bytes, name: str) -> None:
    """A workbook is a zip: refuse a damaged one or one that unpacks far larger than it is."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            infos = zf.infolist()
    except (zipfile.BadZipFile, OSError, ValueError):
        raise SheetProblem(f"{name} is not a workbook (it is no zip file)",
                           hint="save it again from the spreadsheet program") from None
    total = 0
    for info in infos:
        total += info.file_size
        ratio = info.file_size / max(info.compress_size, 1)
        if info.file_size > 1_000_000 and ratio > MAX_RATIO:
            raise SheetProblem(f"{name}: its part {info.filename} unpacks {ratio:.0f} times larger than it is "
                               "stored (a zip bomb?)", hint="save the workbook again from the spreadsheet program")
    if total > MAX_UNPACKED:
        raise SheetProblem(f"{name} unpacks to {total / 1e6:.0f} MB, over the limit of {MAX_UNPACKED // 1_000_000} MB",
                           hint="keep the card list in a workbook of its own", code="too-long")


def _pick(names: list[str], sheet: str | None, file: str) -> str:
    if not names:
        raise SheetProblem(f"{file} has no sheets", code="value")
    if sheet is None:
        return names[0]
    if sheet not in names:
        from deckgen.errors import did_you_mean

        raise SheetProblem(f"{file} has no sheet named '{sheet}'", code="value",
                           hint=did_you_mean(sheet, names) or "its sheets: " + ", ".join(names))
    return sheet


def _limit_rows(grid: Grid) -> None:
    if len(grid.rows) > MAX_ROWS:
        raise SheetProblem(f"the sheet has more than {MAX_ROWS:,} rows", code="too-long",
                           hint="a deck is a few hundred card designs: is this the right sheet?")


def _xlsx_grid(data: bytes, sheet: str | None, file: str) -> Grid:
    import openpyxl

    try:
        wb = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:        # openpyxl raises many kinds for a damaged file
        raise SheetProblem(f"{file} cannot be read as a workbook ({type(exc).__name__})",
                           hint="save it again from the spreadsheet program") from None
    try:
        name = _pick(list(wb.sheetnames), sheet, file)
        ws = wb[name]
        grid = Grid(name)
        for row in ws.iter_rows(max_col=MAX_COLUMNS):
            cells = [getattr(c, "value", None) for c in row]
            if all(v in (None, "") for v in cells):
                continue
            number = next(c.row for c in row if getattr(c, "row", None) is not None)
            grid.rows.append((number, [_xlsx_value(v, c, grid) for v, c in zip(cells, row)]))
            _limit_rows(grid)
        _xlsx_formulas_and_merges(wb, ws, grid)
    finally:
        wb.close()
    return grid


def _xlsx_value(value: Any, cell: Any, grid: Grid) -> Any:
    if getattr(cell, "data_type", None) == "e":           # #REF!, #DIV/0!
        grid.problems.append(CellProblem(ERROR, "value", cell.coordinate, f"the cell holds the error {value}",
                                         "fix the formula, or type the value"))
        return None
    if isinstance(value, str) and len(value) > MAX_CELL:
        grid.problems.append(CellProblem(ERROR, "too-long", cell.coordinate,
                                         f"the cell holds {len(value):,} characters, over the limit of {MAX_CELL:,}"))
        return None
    return value


def _xlsx_formulas_and_merges(wb: Any, ws: Any, grid: Grid) -> None:
    """Formulas with no saved result and merged cells: a second streamed pass over the sheet with
    openpyxl's own sheet parser (its read-only sheets keep neither formulas nor merges)."""
    from openpyxl.worksheet._reader import WorkSheetParser

    values = {(n, i): v for n, cells in grid.rows for i, v in enumerate(cells)}
    with ws._get_source() as src:
        parser = WorkSheetParser(src, [], data_only=False)
        for count, row in enumerate(parser.parse()):
            if count > 2 * 10_000 + 1000:
                break
            for cell in row[1]:
                if cell.get("data_type") == "f" and values.get((cell["row"], cell["column"] - 1)) in (None, ""):
                    ref = f"{column_letter(cell['column'] - 1)}{cell['row']}"
                    grid.problems.append(CellProblem(
                        NOTE, "formula", ref, f"the cell holds a formula ({str(cell['value'])[:60]}) with no saved "
                        "result, so it is read as empty", "open the file in the spreadsheet program and save it, "
                        "or type the value"))
        merged = parser.merged_cells
    for rng in getattr(merged, "mergeCell", []) if merged is not None else []:
        grid.problems.append(_merged(str(rng.ref)))


def _merged(ref: str) -> CellProblem:
    first = ref.split(":")[0]
    return CellProblem(ERROR, "merged", ref, f"the cells {ref} are merged: only {first} holds the value, the others "
                       "read as empty", "unmerge them and fill every cell")


# ---------------------------------------------------------------- ODS

_OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
_TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
_TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
_T = "{" + _TABLE + "}"
_O = "{" + _OFFICE + "}"
_X = "{" + _TEXT + "}"


def _ods_grid(data: bytes, sheet: str | None, file: str) -> Grid:
    """No maintained ODS reader says which cells are merged or hold a formula with no saved result,
    nor bounds a row repeated a million times (python-calamine expands it, up to 100 million
    cells; odfpy builds the whole document in memory): the XML is streamed here instead."""
    import xml.etree.ElementTree as ET

    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        try:
            head = zf.open("content.xml").read(4096)
        except KeyError:
            raise SheetProblem(f"{file} is not an OpenDocument spreadsheet (it has no content.xml)") from None
        if b"<!DOCTYPE" in head or b"<!ENTITY" in head:
            raise SheetProblem(f"{file} declares XML entities, which a spreadsheet never does", code="value")
        names = _ods_sheet_names(zf, ET)
        name = _pick(names, sheet, file)
        grid = Grid(name)
        try:
            with zf.open("content.xml") as src:
                _ods_rows(ET.iterparse(src, events=("start", "end")), name, grid)
        except ET.ParseError as exc:
            raise SheetProblem(f"{file} is damaged: {exc}", hint="save it again from the spreadsheet program") from None
    return grid


def _ods_sheet_names(zf: zipfile.ZipFile, ET: Any) -> list[str]:
    names: list[str] = []
    with zf.open("content.xml") as src:
        try:
            for _, el in ET.iterparse(src, events=("start",)):
                if el.tag == _T + "table":
                    names.append(el.get(_T + "name", f"Sheet{len(names) + 1}"))
        except ET.ParseError:
            pass
    return names


@dataclass
class _OdsState:
    grid: Grid
    row: int = 0
    cells: list[Any] = field(default_factory=list)
    repeat_rows: int = 1


def _ods_rows(events: Iterator[tuple[str, Any]], name: str, grid: Grid) -> None:
    inside = False
    st = _OdsState(grid)
    for event, el in events:
        tag = el.tag
        if tag == _T + "table":
            if event == "start":
                inside = el.get(_T + "name") == name
            elif inside:
                return
            continue
        if not inside:
            if event == "end" and tag == _T + "table-row":
                el.clear()
            continue
        if tag == _T + "table-row" and event == "start":
            st.cells, st.repeat_rows = [], _repeat(el, "rows")
        elif tag in (_T + "table-cell", _T + "covered-table-cell") and event == "end":
            value = _ods_value(el, st, tag == _T + "covered-table-cell")
            times = _repeat(el, "columns")
            if value is not None:
                st.cells.extend([value] * min(times, MAX_COLUMNS + 1 - len(st.cells)))
            else:
                st.cells.extend([None] * min(times, MAX_COLUMNS + 1 - len(st.cells)))
            el.clear()
        elif tag == _T + "table-row" and event == "end":
            _ods_row_done(st)
            el.clear()


def _repeat(el: Any, what: str) -> int:
    return _count(el.get(f"{_T}number-{what}-repeated"))


def _ods_row_done(st: _OdsState) -> None:
    cells = st.cells[:MAX_COLUMNS]
    if any(c not in (None, "") for c in cells):
        for _ in range(st.repeat_rows):
            st.row += 1
            st.grid.rows.append((st.row, list(cells)))
            _limit_rows(st.grid)
    else:
        st.row += st.repeat_rows          # empty rows, however many, take no memory


def _ods_value(el: Any, st: _OdsState, covered: bool) -> Any:
    ref = f"{column_letter(len(st.cells))}{st.row + 1}"
    cols = _count(el.get(_T + "number-columns-spanned"))
    rows = _count(el.get(_T + "number-rows-spanned"))
    if cols > 1 or rows > 1:
        end = f"{column_letter(len(st.cells) + cols - 1)}{st.row + rows}"
        st.grid.problems.append(_merged(f"{ref}:{end}"))
    if covered:
        return None
    kind = el.get(_O + "value-type")
    if kind is None:
        formula = el.get(_T + "formula")
        if formula:
            st.grid.problems.append(CellProblem(
                NOTE, "formula", ref, f"the cell holds a formula ({formula[:60]}) with no saved result, so it is read "
                "as empty", "open the file in the spreadsheet program and save it, or type the value"))
        return None
    if kind in _TYPED:
        return _TYPED[kind](el)
    text = el.get(_O + "string-value")
    if text is None:
        text = "\n".join(_paragraph(p) for p in el.iter(_X + "p"))
    if len(text) > MAX_CELL:
        st.grid.problems.append(CellProblem(ERROR, "too-long", ref,
                                            f"the cell holds {len(text):,} characters, over the limit of {MAX_CELL:,}"))
        return None
    return text


def _number(el: Any) -> Any:
    raw = el.get(_O + "value", "")
    try:
        number = float(raw)
    except ValueError:
        return raw
    return int(number) if number.is_integer() and abs(number) < 1e15 else number


def _date(el: Any) -> Any:
    raw = el.get(_O + "date-value", "")
    try:
        return datetime.datetime.fromisoformat(raw) if "T" in raw else datetime.date.fromisoformat(raw)
    except ValueError:
        return raw


def _time(el: Any) -> Any:
    return datetime.timedelta(0) if not el.get(_O + "time-value") else el.get(_O + "time-value")


_TYPED: dict[str, Callable[[Any], Any]] = {
    "float": _number, "percentage": _number, "currency": _number, "date": _date, "time": _time,
    "boolean": lambda el: el.get(_O + "boolean-value") == "true"}


def _count(raw: str | None) -> int:
    try:
        return max(1, int(raw or "1"))
    except ValueError:
        return 1


def _paragraph(p: Any) -> str:
    """The text of one ``text:p``: its text, spans, and ``text:s`` runs of spaces."""
    out = [p.text or ""]
    for child in p:
        if child.tag == _X + "s":
            out.append(" " * min(MAX_CELL, _count(child.get(_X + "c", "1"))))
        elif child.tag == _X + "tab":
            out.append("\t")
        elif child.tag == _X + "line-break":
            out.append("\n")
        else:
            out.append("".join(child.itertext()))
        out.append(child.tail or "")
    return "".join(out)
