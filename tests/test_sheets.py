"""Cards, kinds and components from CSV, XLSX and ODS sheets: values, messages at the cell, bad input."""

from __future__ import annotations

import datetime
import io
import json
import zipfile
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from openpyxl import Workbook

from deckgen import manifest
from deckgen.manifest.sheetfiles import MAX_ROWS, decode
from deckgen.manifest.tosheet import _ods

HEAD = '''cards = "{sheet}"
[deck]
id = "sheet"
name = "Sheet"
language = "en"
players = {{ min = 2, max = 6 }}
hand_size = 7
palette = "classic"
[rules]
preset = "classic"
[scoring]
target = 500
[scoring.points]
number = "face"
skip = 20
wild = 50
'''
ROWS = [["kind", "color", "values", "count", "text.en"],
        ["# a comment row", None, None, None, None],
        ["number", "red", "0, 1, 2", 2, None],
        ["skip", "blue", None, 1, "Skip the next player"],
        [None, None, None, None, None],
        ["wild", None, None, 4, None]]


def deck(tmp_path: Path, sheet: str, extra: str = ""):
    path = tmp_path / "deck.toml"
    path.write_text(HEAD.format(sheet=sheet) + extra, encoding="utf-8")
    return manifest.load(path)


def csv_text(rows) -> str:
    return "\n".join(",".join("" if c is None else f'"{c}"' if "," in str(c) else str(c) for c in r) for r in rows)


def xlsx(path: Path, rows, title="Cards", extra=None) -> None:
    wb = Workbook()
    ws = wb.active
    ws.title = title
    for r in rows:
        ws.append(r)
    if extra:
        extra(ws)
    wb.save(path)


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "ods"])
def test_the_same_cards_from_every_format(tmp_path, fmt):
    if fmt == "csv":
        (tmp_path / "cards.csv").write_text(csv_text(ROWS), encoding="utf-8")
    elif fmt == "xlsx":
        xlsx(tmp_path / "cards.xlsx", ROWS)
    else:
        (tmp_path / "cards.ods").write_bytes(_ods(ROWS))
    result = deck(tmp_path, f"cards.{fmt}")
    assert not result.errors, [f.format() for f in result.errors]
    d = result.deck
    assert [c.id for c in d.cards] == ["red-0", "red-1", "red-2", "blue-skip", "wild"]
    assert d.card("red-2").value == 2 and d.card("red-2").count == 2          # numbers stay numbers
    assert d.card("blue-skip").text.get("en") == "Skip the next player"


def test_a_workbook_sheet_by_name_and_kinds_and_components_from_sheets(tmp_path):
    wb = Workbook()
    wb.active.title = "Notes"
    ws = wb.create_sheet("Cards")
    for r in ROWS:
        ws.append(r)
    wb.save(tmp_path / "deck.xlsx")
    (tmp_path / "kinds.csv").write_text('id,category,name.en,name.es,effects\nzap,action,Zap,Rayo,"[{ op = ""draw"", n = 3 }]"\n'
                                        "hop,action,Hop,Salto,skip\n", encoding="utf-8")
    (tmp_path / "extras.csv").write_text("id,kind,count,name,faces\npower,power,2,Power,\"blue-skip, wild\"\n",
                                         encoding="utf-8")
    extra = 'kinds = "kinds.csv"\ncomponents = "extras.csv"\n'
    path = tmp_path / "deck.toml"
    text = HEAD.format(sheet="x").replace('cards = "x"', 'cards = { file = "deck.xlsx", sheet = "Cards" }\n' + extra)
    path.write_text(text + "zap = 20\nhop = 20\n", encoding="utf-8")
    result = manifest.load(path)
    assert not result.errors, [f.format() for f in result.errors]
    assert [c.id for c in result.deck.cards][:2] == ["red-0", "red-1"]
    comp = result.deck.components[0]
    assert comp.faces == ("blue-skip", "wild") and comp.count == 2


def test_toml_entries_and_a_sheet_side_by_side(tmp_path):
    (tmp_path / "more.csv").write_text("kind,color,value,count\nnumber,green,5,3\n", encoding="utf-8")
    path = tmp_path / "deck.toml"
    text = HEAD.format(sheet="x").replace('cards = "x"\n', "")
    path.write_text(text + '[[cards]]\nkind = "wild"\ncount = 4\n\n[[cards]]\nfile = "more.csv"\n', encoding="utf-8")
    result = manifest.load(path)
    assert not result.errors and [c.id for c in result.deck.cards] == ["wild", "green-5"]


def test_messages_point_at_the_file_sheet_and_cell_with_hints(tmp_path):
    rows = [["kind", "color", "value", "count", "flip"], ["number", "rojo", 7, 2, None], ["numbr", "red", 3, 1, None]]
    xlsx(tmp_path / "cards.xlsx", rows)
    found = {f.where: f for f in deck(tmp_path, "cards.xlsx").findings}
    assert found["Cards!E1"].code == "unknown-key" and "did you mean 'flip_icon'" in found["Cards!E1"].hint
    assert found["Cards!B2"].file.endswith("cards.xlsx") and "'rojo' is the name of colour 'red'" in found["Cards!B2"].hint
    assert found["Cards!A3"].message.startswith("column 'kind': unknown card kind") and "number" in found["Cards!A3"].hint
    assert "cards.xlsx: Cards!B2" in found["Cards!B2"].format()


def test_a_missing_header_and_an_empty_sheet(tmp_path):
    (tmp_path / "cards.csv").write_text("number,red,7,2\nnumber,blue,3,1\n", encoding="utf-8")
    errors = deck(tmp_path, "cards.csv").errors
    assert errors[0].code == "header" and "not a header" in errors[0].message and errors[0].where == "row 1"
    (tmp_path / "empty.csv").write_text("# nothing here\n", encoding="utf-8")
    assert "the sheet is empty" in deck(tmp_path, "empty.csv").errors[0].message


def test_merged_cells_are_an_error_at_the_cells(tmp_path):
    rows = [["kind", "color", "value", "count"], ["number", "red", 1, 2], [None, "red", 2, 2]]
    xlsx(tmp_path / "cards.xlsx", rows, extra=lambda ws: ws.merge_cells("A2:A3"))
    merged = [f for f in deck(tmp_path, "cards.xlsx").errors if f.code == "merged"]
    assert merged and merged[0].where == "Cards!A2:A3" and "unmerge" in merged[0].hint
    content = _ods(rows).replace(b"", b"")
    ods = zipfile.ZipFile(io.BytesIO(content))
    xml = ods.read("content.xml").replace(b'<table:table-cell office:value-type="string"><text:p>number</text:p>',
                                          b'<table:table-cell table:number-rows-spanned="2" office:value-type="string">'
                                          b"<text:p>number</text:p>", 1)
    (tmp_path / "cards.ods").write_bytes(_rezip(content, xml))
    merged = [f for f in deck(tmp_path, "cards.ods").errors if f.code == "merged"]
    assert merged and merged[0].where == "Cards!A2:A3"


def _rezip(ods: bytes, content: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(ods)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            dst.writestr(info, content if info.filename == "content.xml" else src.read(info))
    return out.getvalue()


def test_a_formula_uses_its_saved_result_with_a_note_when_there_is_none(tmp_path):
    rows = [["kind", "color", "value", "count"], ["number", "red", 1, 2], ["number", "red", 2, 2]]
    xlsx(tmp_path / "cards.xlsx", rows, extra=lambda ws: ws.__setitem__("D3", "=D2*1"))
    result = deck(tmp_path, "cards.xlsx")                      # openpyxl saves no result: a note, then empty
    notes = [f for f in result.findings if f.code == "formula"]
    assert notes and notes[0].where == "Cards!D3" and notes[0].severity == "note"
    assert any(f.where == "Cards!D3" and "'count' is missing" in f.message for f in result.errors)
    xml = _ods(rows)
    content = zipfile.ZipFile(io.BytesIO(xml)).read("content.xml")
    cached = content.replace(b'<table:table-cell office:value-type="float" office:value="2"><text:p>2</text:p>'
                             b'</table:table-cell></table:table-row></table:table>',
                             b'<table:table-cell table:formula="of:=[.D2]" office:value-type="float" office:value="2">'
                             b"<text:p>2</text:p></table:table-cell></table:table-row></table:table>")
    assert cached != content
    (tmp_path / "cards.ods").write_bytes(_rezip(xml, cached))
    result = deck(tmp_path, "cards.ods")
    assert not result.errors and result.deck.card("red-2").count == 2


def test_a_date_where_a_number_belongs(tmp_path):
    rows = [["kind", "color", "value", "count"], ["number", "red", datetime.date(2024, 3, 1), 2]]
    xlsx(tmp_path / "cards.xlsx", rows)
    error = next(f for f in deck(tmp_path, "cards.xlsx").errors if f.where == "Cards!C2")
    assert "a date or time (2024-03-01" in error.message and "Number or Text" in error.hint


@pytest.mark.parametrize(("data", "how"), [
    ("kind,color,value,count\nnumber,red,7,2\n".encode("utf-8-sig"), None),
    ("kind,color,value,count\nnumber,red,7,2\n".encode("utf-16"), None),
    ("kind,color,value,count\nnumber,red,7,2\n".encode("utf-16-le"), "UTF-16-LE"),
    ("kind,color,value,count,text\nnumber,red,7,2,Señal\n".encode("latin-1"), "Windows-1252"),
])
def test_encodings(data, how):
    text, note = decode(data)
    assert text.startswith("kind,color") and (note is None) == (how is None) and (how or "") in (note or "")


def test_a_file_in_no_known_encoding_is_refused(tmp_path):
    (tmp_path / "cards.csv").write_bytes(b"kind,color\x81\x8d\x8f\x90\x9d,value\n")
    error = deck(tmp_path, "cards.csv").errors[0]
    assert error.code == "encoding" and "save it as CSV UTF-8" in error.hint


def test_semicolons_as_excel_writes_them_where_the_decimal_mark_is_a_comma(tmp_path):
    (tmp_path / "cards.csv").write_text("kind;color;values;count\nnumber;red;1,2;2\n", encoding="utf-8")
    assert [c.id for c in deck(tmp_path, "cards.csv").deck.cards] == ["red-1", "red-2"]


def test_100000_rows_are_refused_quickly(tmp_path):
    lines = ["kind,color,value,count"] + ["number,red,1,1"] * 100_000
    (tmp_path / "cards.csv").write_text("\n".join(lines), encoding="utf-8")
    error = deck(tmp_path, "cards.csv").errors[0]
    assert f"more than {MAX_ROWS:,} rows" in error.message


def test_a_50mb_workbook_is_read_with_bounded_memory_and_a_bomb_is_refused(tmp_path):
    import hostile

    xlsx(tmp_path / "plain.xlsx", ROWS)
    big = io.BytesIO()
    with zipfile.ZipFile(tmp_path / "plain.xlsx") as src, zipfile.ZipFile(big, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            dst.writestr(info, src.read(info))
        import os

        dst.writestr("xl/media/image1.png", os.urandom(50_000_000))        # a picture pasted in the workbook
    (tmp_path / "cards.xlsx").write_bytes(big.getvalue())
    home = hostile.make_deck(tmp_path / "h")
    manifest_path = tmp_path / "deck.toml"
    manifest_path.write_text(HEAD.format(sheet="cards.xlsx"), encoding="utf-8")
    result = hostile.run(home, "check", str(manifest_path), "--no-sim")
    assert "11 cards" in result.out and "Traceback" not in result.text, result.text[-2000:]    # read, then checked
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as dst:
        dst.writestr("xl/worksheets/sheet1.xml", b" " * 300_000_000)
    (tmp_path / "bomb.xlsx").write_bytes(bomb.getvalue())
    manifest_path.write_text(HEAD.format(sheet="bomb.xlsx"), encoding="utf-8")
    result = hostile.run(home, "check", str(manifest_path), "--no-sim")
    hostile.assert_refused(result, "zip bomb", codes=(2,))


def test_an_ods_row_repeated_a_million_times_costs_no_memory(tmp_path):
    content = zipfile.ZipFile(io.BytesIO(_ods(ROWS[:3]))).read("content.xml")
    content = content.replace(b"</table:table>", b'<table:table-row table:number-rows-repeated="1000000">'
                              b'<table:table-cell table:number-columns-repeated="1000"/></table:table-row></table:table>')
    (tmp_path / "cards.ods").write_bytes(_rezip(_ods(ROWS[:3]), content))
    assert not deck(tmp_path, "cards.ods").errors
    full = content.replace(b'<table:table-cell table:number-columns-repeated="1000"/>',
                           b'<table:table-cell table:number-columns-repeated="1000" office:value-type="string">'
                           b"<text:p>x</text:p></table:table-cell>")
    (tmp_path / "cards.ods").write_bytes(_rezip(_ods(ROWS[:3]), full))
    assert "more than" in deck(tmp_path, "cards.ods").errors[0].message


TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1,
               max_size=20).filter(lambda s: s.strip() == s and not s.startswith("#") and "\r" not in s)


@settings(max_examples=40, deadline=None)
@example([("red", 0, 1, "\u2066")])       # hypothesis seed 76: a text both readers refuse
@given(st.lists(st.tuples(st.sampled_from(["red", "yellow", "green", "blue"]), st.integers(0, 9),
                          st.integers(1, 5), TEXT), min_size=1, max_size=8, unique_by=lambda r: (r[0], r[1])))
def test_any_card_list_reads_back_from_csv_as_from_toml(tmp_path_factory, rows):
    import csv

    tmp = tmp_path_factory.mktemp("prop")
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(["kind", "color", "value", "count", "text.en"])
    for color, value, count, text in rows:
        writer.writerow(["number", color, value, count, text])
    (tmp / "cards.csv").write_text(buf.getvalue(), encoding="utf-8")
    toml = "".join(f'[[cards]]\nkind = "number"\ncolor = "{c}"\nvalue = {v}\ncount = {n}\ntext = {{ en = {json.dumps(t, ensure_ascii=False)} }}\n'
                   for c, v, n, t in rows)
    from_sheet = deck(tmp, "cards.csv")
    (tmp / "t.toml").write_text(HEAD.format(sheet="x").replace('cards = "x"\n', "") + toml, encoding="utf-8")
    from_toml = manifest.load(tmp / "t.toml")
    if from_sheet.deck is None or from_toml.deck is None:     # a text refused (a bidi control, U+2066): by both alike
        said = [f.message.rsplit(": ", 1)[-1] for f in from_sheet.findings if f.is_error]     # less the sheet's column
        assert said and said == [f.message for f in from_toml.findings if f.is_error], (said, from_toml.findings)
        return
    assert [(c.id, c.count, c.text) for c in from_sheet.deck.cards] == [(c.id, c.count, c.text) for c in from_toml.deck.cards]
