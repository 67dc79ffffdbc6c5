"""``deckgen export sheet``: a deck's cards as a CSV, XLSX or ODS sheet that reads back to the same deck.

One row per distinct card (its ``count`` copies), in the deck's order, with the columns
:mod:`deckgen.manifest.sheets` reads. A value the manifest would derive anyway (the card's id and
name from its kind, colour and value; its points from ``[scoring.points]``) is left out, so the
sheet says what a designer would type; a kind's art pattern is written out per card as the file
it named. Only the columns some card uses are written. The bytes are the same for the same deck
(an XLSX or ODS has fixed times inside).
"""

from __future__ import annotations

import csv
import io
import os
import re
import zipfile
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from deckgen.atomic import zip_entry
from deckgen.model import Deck, Names

FORMATS = ("csv", "xlsx", "ods")
SHEET_NAME = "Cards"


def card_rows(deck: Deck) -> tuple[list[str], list[dict[str, Any]]]:
    """The header and one row (column -> value) per card."""
    from deckgen.manifest import names as naming

    defaults = _default_points(deck)
    langs = sorted({lang for c in deck.cards for names in (c.names, c.text) if names for lang in names.values})
    rows = []
    for card in deck.cards:
        kind = deck.kinds[card.kind]
        flags = {"flip_icon": card.flip_icon, "duel": card.duel, "colorless": card.colorless}
        row: dict[str, Any] = {}
        if card.id != naming.card_id(None, kind, card.color, card.value, flags, card.flex):
            row["id"] = card.id
        row.update(kind=card.kind, color=card.color, value=card.value, count=card.count)
        default = defaults.get(card.kind)
        if card.points != (card.value if default == "face" else default):
            row["points"] = card.points
        derived = naming.card_names(kind, card.color, card.value, flags, card.flex, deck.palette, dict(deck.kinds))
        if dict(card.names.values) != derived:
            row.update(_texts("name", card.names))
        row.update({k: True for k, v in flags.items() if v})
        if card.flex is not None:
            row["flex.color"] = card.flex.color
            row["flex.kind"] = card.flex.kind
        if card.art is not None:
            row["art"] = _relative(card.art.path, deck)
        row["art_fit"] = card.art_fit
        if card.text is not None:
            row.update(_texts("text", card.text))
        row["layout"] = card.layout
        if card.hide:
            row["hide"] = ", ".join(card.hide)
        rows.append({k: v for k, v in row.items() if v is not None})
    order = ["id", "kind", "color", "value", "count", "points", *[f"name.{lang}" for lang in langs], "flip_icon",
             "duel", "colorless", "flex.color", "flex.kind", "art", "art_fit", *[f"text.{lang}" for lang in langs],
             "layout", "hide"]
    used = {k for row in rows for k in row}
    return [c for c in order if c in used], rows


def _texts(key: str, names: Names) -> dict[str, str]:
    return {f"{key}.{lang}": text for lang, text in sorted(names.values.items())}


def _relative(path: str, deck: Deck) -> str:
    base = deck.source.parent.resolve() if deck.source else Path.cwd()
    return Path(os.path.relpath(path, base)).as_posix()


def _default_points(deck: Deck) -> dict[str, Any]:
    """``[scoring.points]`` as the manifest gives it (the model keeps each card's resolved points)."""
    from deckgen.datafile import read_toml

    if deck.source is None:
        return {}
    points = read_toml(deck.source).get("scoring", {}).get("points", {})
    return dict(points) if isinstance(points, dict) else {}


def write(deck: Deck, fmt: str) -> bytes:
    """The sheet's bytes in ``fmt`` (csv, xlsx or ods)."""
    header, rows = card_rows(deck)
    table = [header] + [[row.get(c) for c in header] for row in rows]
    if fmt == "csv":
        return _csv(table)
    if fmt == "xlsx":
        return _xlsx(table)
    return _ods(table)


def _cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _csv(table: list[list[Any]]) -> bytes:
    buf = io.StringIO(newline="")
    writer = csv.writer(buf, lineterminator="\r\n")
    for row in table:
        writer.writerow([_cell_text(v) for v in row])
    return b"\xef\xbb\xbf" + buf.getvalue().encode("utf-8")      # the byte-order mark: Excel then reads UTF-8


WORKBOOK_TIME = "2000-01-01T00:00:00"     # an XLSX workbook's created and modified properties (UTC)


def _xlsx(table: list[list[Any]]) -> bytes:
    import datetime

    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.title = SHEET_NAME
    for row in table:
        ws.append(row)
    when = datetime.datetime.fromisoformat(WORKBOOK_TIME)
    wb.properties.created = when
    wb.properties.modified = when
    buf = io.BytesIO()
    wb.save(buf)
    return _fixed_times(buf.getvalue())


_MODIFIED = re.compile(rb"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)")


def _fixed_times(data: bytes) -> bytes:
    """The same zip with every time in it fixed: each entry's, and the workbook's "modified"
    property (openpyxl stamps the time of writing on both, whatever the workbook says)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info)
            if info.filename == "docProps/core.xml":
                body = _MODIFIED.sub(rb"\g<1>%sZ\g<2>" % WORKBOOK_TIME.encode(), body)
            dst.writestr(zip_entry(info.filename, info.compress_type), body)
    return out.getvalue()


_ODS_NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
           'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
           'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"')
_ODS_MIME = "application/vnd.oasis.opendocument.spreadsheet"


def _ods_cell(value: Any) -> str:
    if value is None:
        return "<table:table-cell/>"
    if isinstance(value, bool):
        word = "true" if value else "false"
        return (f'<table:table-cell office:value-type="boolean" office:boolean-value="{word}">'
                f"<text:p>{word.upper()}</text:p></table:table-cell>")
    if isinstance(value, int):
        return f'<table:table-cell office:value-type="float" office:value="{value}"><text:p>{value}</text:p></table:table-cell>'
    paragraphs = "".join(f"<text:p>{escape(line)}</text:p>" for line in str(value).split("\n"))
    return f'<table:table-cell office:value-type="string">{paragraphs}</table:table-cell>'


def _ods(table: list[list[Any]]) -> bytes:
    rows = "".join("<table:table-row>" + "".join(_ods_cell(v) for v in row) + "</table:table-row>" for row in table)
    content = (f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content {_ODS_NS} office:version="1.2">'
               f"<office:body><office:spreadsheet><table:table table:name={quoteattr(SHEET_NAME)}>{rows}"
               "</table:table></office:spreadsheet></office:body></office:document-content>\n")
    manifest = ('<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest '
                'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
                f'<manifest:file-entry manifest:full-path="/" manifest:media-type="{_ODS_MIME}"/>'
                '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
                "</manifest:manifest>\n")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for name, data, method in (("mimetype", _ODS_MIME, zipfile.ZIP_STORED),
                                   ("META-INF/manifest.xml", manifest, zipfile.ZIP_DEFLATED),
                                   ("content.xml", content, zipfile.ZIP_DEFLATED)):
            zf.writestr(zip_entry(name, method), data.encode("utf-8"))
    return out.getvalue()


def manifest_with_sheet(manifest_text: str, sheet_name: str) -> str:
    """The manifest's text with its ``[[cards]]`` tables (or its one-line ``cards = ...`` key)
    replaced by ``cards = "<sheet>"``: the key goes first (TOML keeps top-level keys before the
    first table), each ``[[cards]]`` table (with its ``[cards.flex]`` sub-table) is left out, and
    the comments just above each go with it."""
    import re

    lines = manifest_text.splitlines(keepends=True)
    out: list[str] = []
    skipping = False
    top = True                       # before the first table: where a cards = "..." key already is
    for line in lines:
        if top and re.match(r"^\s*cards\s*=", line):
            continue
        header = re.match(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?", line)
        top = top and header is None
        if header:
            name = header.group(1)
            skipping = name == "cards" or name.startswith("cards.")
            if skipping:
                while out and out[-1].lstrip().startswith("#"):
                    out.pop()
        if not skipping:
            out.append(line)
    text = "".join(out).rstrip() + "\n"
    return f"cards = {_toml_string(sheet_name)}\n" + text


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
