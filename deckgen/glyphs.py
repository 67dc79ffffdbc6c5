"""Every character printable: each string a face or the rulebook will draw, held against the font
that draws it (the fonts come from :mod:`deckgen.fonts`' one lookup).

A font's characters are read from its ``cmap`` table (formats 4 and 12, the ones every TrueType
and OpenType font carries for Unicode); a character the font does not map would print as an
empty box. Invisible format characters (variation selectors, joiners) and spaces draw nothing
and are not asked for. The face strings are the faces' own (``render/faces.py``'s specs: centre
and corner text, caption, rules line, flex badge, back title), each with the role its drawing
uses; the rulebook's are the deck's words it prints (names of the deck, kinds, colours and
cards, labels, rules texts, the deck's description) in every rulebook language, in the body and
bold fonts.
"""

from __future__ import annotations

import functools
import os
import struct
import unicodedata
from collections.abc import Iterator
from pathlib import Path

from deckgen.errors import Finding, error, warning
from deckgen.model import Deck

# The roles of the face strings, as render/draw.py draws them.
FACE_PARTS = (("centre", "display"), ("index", "display"), ("flex", "display"), ("title", "display"),
              ("caption", "text"), ("rules", "text"), ("badge", "text"))
BOOK_ROLES = ("body", "bold")


def font_chars(path: str | Path) -> frozenset[int]:
    """The code points a font maps to glyphs (empty when its cmap cannot be read)."""
    st = os.stat(path)
    return _font_chars(str(path), st.st_size, st.st_mtime_ns)


@functools.lru_cache(maxsize=32)
def _font_chars(path: str, size: int, mtime: int) -> frozenset[int]:
    with open(path, "rb") as fh:
        data = fh.read()
    try:
        return frozenset(_cmap(data))
    except (struct.error, ValueError, IndexError):
        return frozenset()


def _cmap(data: bytes) -> set[int]:
    base = 0
    if data[:4] == b"ttcf":                       # a collection: its first font
        (base,) = struct.unpack_from(">I", data, 12)
    (num_tables,) = struct.unpack_from(">H", data, base + 4)
    cmap = None
    for i in range(num_tables):
        tag, _, offset, _ = struct.unpack_from(">4sIII", data, base + 12 + 16 * i)
        if tag == b"cmap":
            cmap = offset
    if cmap is None:
        raise ValueError("no cmap")
    (n,) = struct.unpack_from(">H", data, cmap + 2)
    out: set[int] = set()
    for i in range(n):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        if not (platform == 0 or (platform == 3 and encoding in (1, 10))):
            continue
        sub = cmap + offset
        (fmt,) = struct.unpack_from(">H", data, sub)
        if fmt == 4:
            out |= _format4(data, sub)
        elif fmt == 12:
            out |= _format12(data, sub)
    return out


def _format4(data: bytes, sub: int) -> set[int]:
    (seg2,) = struct.unpack_from(">H", data, sub + 6)
    segs = seg2 // 2
    ends = struct.unpack_from(f">{segs}H", data, sub + 14)
    starts = struct.unpack_from(f">{segs}H", data, sub + 16 + seg2)
    deltas = struct.unpack_from(f">{segs}h", data, sub + 16 + 2 * seg2)
    ro_at = sub + 16 + 3 * seg2
    offsets = struct.unpack_from(f">{segs}H", data, ro_at)
    out: set[int] = set()
    for s in range(segs):
        start, end, delta, ro = starts[s], ends[s], deltas[s], offsets[s]
        if start == 0xFFFF:
            continue
        for c in range(start, end + 1):
            if ro == 0:
                glyph = (c + delta) & 0xFFFF
            else:
                at = ro_at + 2 * s + ro + 2 * (c - start)
                (glyph,) = struct.unpack_from(">H", data, at)
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            if glyph:
                out.add(c)
    return out


def _format12(data: bytes, sub: int) -> set[int]:
    (groups,) = struct.unpack_from(">I", data, sub + 12)
    out: set[int] = set()
    for g in range(groups):
        start, end, glyph = struct.unpack_from(">III", data, sub + 16 + 12 * g)
        out.update(c for c in range(start, end + 1) if glyph + (c - start))
    return out


def drawn(ch: str) -> bool:
    """Whether a character puts ink on the page (format characters and spaces do not)."""
    cp = ord(ch)
    return not (ch.isspace() or unicodedata.category(ch) in ("Cf", "Cc")
                or 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF)      # variation selectors


def is_emoji(ch: str) -> bool:
    cp = ord(ch)
    return unicodedata.category(ch) == "So" or 0x1F000 <= cp <= 0x1FAFF or 0x2600 <= cp <= 0x27BF


def describe(ch: str) -> str:
    return f"'{ch}' (U+{ord(ch):04X} {unicodedata.name(ch, 'unnamed character')})"


def face_strings(deck: Deck) -> Iterator[tuple[str, str, str, str]]:
    """(text, role, place, key path) of every string drawn on the deck's faces, in every language
    the deck has texts for (the face named with its language when it is not the deck's); a rules
    text run by run, its bold words in the face's bold font."""
    from deckgen.render.audit import specs_by_language
    from deckgen.render.faces import face_fonts
    from deckgen.rulebook.markup import runs

    where = {c.id: c.where for c in deck.cards}
    where.update({f: comp.where for comp in deck.components for f in comp.faces})
    bold = "bold" if len(face_fonts(deck)) > 2 else "display"
    for lang, specs in specs_by_language(deck).items():
        for fid, spec in specs.items():
            parts = {"centre": spec.centre.text, "index": spec.index.text, "title": spec.title,
                     "caption": spec.caption, "rules": "",
                     "flex": spec.flex.emblem.text if spec.flex else "", "badge": spec.flex.label if spec.flex else ""}
            key = where.get(fid, "deck.back_text" if fid == "back" else fid)
            face = f"face '{fid}'" if lang == deck.language else f"face '{fid}' ({lang})"
            for part, role in FACE_PARTS:
                if parts[part]:
                    yield parts[part], role, face, key
            icons = dict(spec.rules_icons)
            for run in runs(spec.rules) if spec.rules else []:
                icon = icons.get(run.icon) if run.icon else None
                if run.icon is None or (icon is not None and icon[0] in ("text", "unknown")):
                    text = run.text if run.icon is None else str(icon[1]) if icon else run.text
                    yield text, bold if run.bold else "text", face, key


def book_strings(deck: Deck) -> Iterator[tuple[str, str]]:
    """(text, key path) of the deck's own words the rulebook prints, in every rulebook language."""
    from deckgen.claims import deck_languages

    for lang in deck_languages(deck):
        yield deck.name(lang), "deck.name"
        if deck.description:
            yield deck.description.get(lang), "deck.description"       # the cover's line under the cards
        for kid, kind in deck.kinds.items():
            if not any(c.kind == kid or (c.flex and c.flex.kind == kid) for c in deck.cards):
                continue
            yield kind.names.get(lang), f"kinds.{kid}.name"
            if kind.label is not None:
                yield kind.label.get(lang), f"kinds.{kid}.label"
            if kind.text is not None:
                yield kind.text.get(lang), f"kinds.{kid}.text"
        for color in deck.palette.colors:
            yield color.names.get(lang), f"palette.{color.id}.name"
        for card in deck.cards:
            if card.text is not None:
                yield card.text.get(lang), f"{card.where}.text"
        for comp in deck.components:
            yield comp.names.get(lang), f"{comp.where}.name"


def _iconic(key: str) -> bool:
    """Whether the text at this key path is a card's, which a kind's icon can stand in for."""
    return key.startswith(("kinds.", "cards", "components"))


def glyph_findings(deck: Deck) -> list[Finding]:
    """A missing-glyph error per key path and use (faces, rulebook): every character its fonts
    lack, the fonts, and where the text is drawn."""
    from deckgen.fonts import deck_fonts

    fonts = deck_fonts(deck)
    file = str(deck.source) if deck.source else None
    # (key, use) -> chars, fonts (role, file name), places
    missing: dict[tuple[str, str], tuple[dict[str, None], dict[str, None], dict[str, None]]] = {}
    roles = {role for _, role in FACE_PARTS} | set(BOOK_ROLES) | {"bold"}
    mapped = {role: font_chars(fonts.path(role)) for role in roles}       # each font read once

    def look(text: str, role: str, key: str, use: str, place: str) -> None:
        chars = mapped[role]
        if not chars:
            return
        lacking = [ch for ch in dict.fromkeys(text) if drawn(ch) and ord(ch) not in chars]
        if lacking:
            got = missing.setdefault((key, use), ({}, {}, {}))
            got[0].update(dict.fromkeys(lacking))
            got[1][f"{fonts.path(role).name} ({role})"] = None
            got[2][place] = None

    for text, role, fid, key in face_strings(deck):
        look(text, role, key, "card faces", fid)
    for text, key in book_strings(deck):
        for role in BOOK_ROLES:
            look(text, role, key, "rulebook", "the rulebook")
    out: list[Finding] = []
    for (key, use), (chars, fnts, places) in missing.items():
        shown = list(places)
        where = ", ".join(shown[:3]) + (f" and {len(shown) - 3} more" if len(shown) > 3 else "")
        names = [describe(ch) for ch in chars]
        said = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        verb = "is" if len(names) == 1 else "are"
        emoji = [ch for ch in chars if is_emoji(ch)]
        hint = ("an emoji is in no text font: draw it as an image instead (a kind's icon = \"icons/x.svg\", "
                "docs/manifest.md) and keep the name in words" if emoji and _iconic(key) else
                "an emoji is in no text font: write the text without it" if emoji else
                "use a font that has it (deck.fonts, docs/manifest.md) or write the text without it")
        if emoji and len(emoji) < len(chars):
            hint += "; for the other characters, use a font that has them (deck.fonts) or write the text without them"
        out.append(error("missing-glyph", key,
                         f"{said} {verb} not in the font {' or '.join(fnts)} that draws it on {where} ({use}): "
                         "it would print as an empty box", file=file, hint=hint))
    return out


# ---------------------------------------------------------------- scripts deckgen cannot set

# Scripts whose letters change shape, join or are reordered by context (the Brahmic family and its
# neighbours): set letter by letter, as the rulebook's PDF library does, they print wrong.
SHAPED_SCRIPTS = ("DEVANAGARI", "BENGALI", "GURMUKHI", "GUJARATI", "ORIYA", "TAMIL", "TELUGU", "KANNADA",
                  "MALAYALAM", "SINHALA", "TIBETAN", "MYANMAR", "KHMER", "JAVANESE", "BALINESE", "SUNDANESE")


def unset_script(ch: str) -> tuple[str, bool] | None:
    """(the script's name, whether it is written right to left) for a character deckgen cannot
    set: a right-to-left letter (Hebrew, Arabic, ...) or a letter of a script that needs shaping;
    None for any other."""
    name = unicodedata.name(ch, "")
    script = name.split(" ", 1)[0].title() if name else "unnamed"
    if unicodedata.bidirectional(ch) in ("R", "AL"):
        return script, True
    if name.startswith(SHAPED_SCRIPTS):
        return script, False
    return None


def script_findings(deck: Deck) -> list[Finding]:
    """An unset-script error per key path whose text, on a face or in the rulebook, is in a
    script written right to left or one that needs shaping: deckgen sets text left to right,
    letter by letter (ReportLab does in the rulebook; Pillow does on the faces where it lacks its
    raqm layout library), so such text prints reversed or unjoined."""
    file = str(deck.source) if deck.source else None
    found: dict[str, tuple[str, dict[str, bool], dict[str, None]]] = {}    # key -> text, scripts, uses
    strings = [(text, key, "card faces") for text, _, _, key in face_strings(deck)]
    strings += [(text, key, "rulebook") for text, key in book_strings(deck)]
    for text, key, use in strings:
        scripts = {s: rtl for s, rtl in (unset_script(ch) or ("", False) for ch in text) if s}
        if scripts:
            got = found.setdefault(key, (text, {}, {}))
            got[1].update(scripts)
            got[2][use] = None
    out: list[Finding] = []
    for key, (text, scripts, uses) in found.items():
        names = " and ".join(scripts)
        how = ("is written right to left" + (" with joined letters" if "Arabic" in scripts else "")
               if any(scripts.values()) else "needs its letters joined and reordered")
        bad = "backwards" if any(scripts.values()) else "with its letters apart"
        said = ([f"in the rulebook it prints {bad}"] if "rulebook" in uses else []) + \
            ([f"on the card faces it prints {bad} wherever Pillow lacks its raqm layout library"]
             if "card faces" in uses else [])
        out.append(error("unset-script", key,
                         f"'{text}' is {names} text, which {how}, and deckgen sets text left to right, letter by "
                         f"letter: {'; '.join(said)}", file=file,
                         hint="write it in a script read left to right letter by letter (Latin, Greek, Cyrillic, "
                         "...)" + (", or draw the word as an image (a kind's icon = \"icons/x.svg\", docs/manifest.md)"
                                   if _iconic(key) else "")))
    return out


# ---------------------------------------------------------------- text fit in the rulebook

def rulebook_columns(width_mm: float) -> dict[str, float]:
    """The rulebook's narrow table columns, in points of text (cell padding removed), on a text
    column of ``width_mm``: the card table's name column and the colour table's name column, as
    ``rulebook/blocks.py`` lays them out (components_table, palette_table)."""
    mm = 72 / 25.4
    width = width_mm * mm
    f = min(1.0, width / (150 * mm))
    pad = 12.0                                           # 6 pt of cell padding each side
    return {"cards": width - (17 + 24 + 33 + 24) * mm * f - pad,
            "colours": min(60 * mm, width - (12 + 16 + 34 + 22) * mm) - pad}


def rulebook_fit_findings(deck: Deck) -> list[Finding]:
    """A word of the deck's wider than the rulebook table column it is printed in (bold 9.5 pt,
    the table's cell style, in the rulebook's real bold font) is broken mid-word: a warning."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from deckgen.claims import deck_languages
    from deckgen.fonts import deck_fonts, register_pdf
    from deckgen.rulebook.describe import group_name
    from deckgen.rulebook.groups import groups

    bold = register_pdf(deck_fonts(deck)).bold
    size = 9.5
    mm = 72 / 25.4
    cols = rulebook_columns(140.0)                       # the rulebook's text column on A4 and Letter
    file = str(deck.source) if deck.source else None
    out: list[Finding] = []
    seen: set[tuple[str, str]] = set()
    for lang in deck_languages(deck):
        items = [(group_name(deck, g, lang), f"kinds.{g.kind}.name", "cards") for g in groups(deck)]
        items += [(c.names.get(lang), f"palette.{c.id}.name", "colours") for c in deck.palette.colors]
        for text, where, col in items:
            for word in text.split():
                w = stringWidth(word, bold, size)
                if w > cols[col] and (where, word) not in seen:
                    seen.add((where, word))
                    table = "card table" if col == "cards" else "colour table"
                    out.append(warning("rulebook-text-fit", where,
                                       f"the word '{word}' ({lang}) is {w / mm:.0f} mm wide in the rulebook's "
                                       f"{size:g} pt bold font; its {table} column holds {cols[col] / mm:.0f} mm, "
                                       "so it is broken in the middle", file=file,
                                       hint="a shorter word, or a space or hyphen where it may break"))
    return out
