"""Reading deckgen's TOML files and checking the shape of their tables, collecting every problem.

Shared by every package that reads a data file: manifests, palettes, kinds, card sizes, papers,
print-shop presets and font lists. :class:`LineIndex` gives every finding about a TOML file the
line its key path is on.
"""

from __future__ import annotations

import dataclasses
import errno
import functools
import math
import re
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from deckgen import deckfs, safefile
from deckgen.errors import Collector, DeckgenError, Finding, did_you_mean, error

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

_TOML_POS = re.compile(r"\s*\(at line (\d+), column (\d+)\)")
BOM = "\ufeff"


def read_text(path: Path) -> str:
    """A UTF-8 text file (a leading byte-order mark, as Notepad writes it, is dropped), or
    DeckgenError (exit 2) naming the file."""
    shown = str(path)
    try:
        raw = safefile.read_bytes(path, safefile.MAX_TEXT)    # a regular file only (no FIFO, no device), capped
    except FileNotFoundError:
        raise DeckgenError(error("file", "", "no such file", file=shown)) from None
    except IsADirectoryError:
        raise DeckgenError(error("file", "", "is a folder, not a TOML file", file=shown)) from None
    except safefile.UnsafeFile as exc:
        what = "is a folder, not a TOML file" if exc.errno == errno.EISDIR else f"cannot be read: it {exc.strerror}"
        raise DeckgenError(error("file", "", what, file=shown)) from None
    except (OSError, ValueError) as exc:          # ValueError: a NUL byte in the path
        if isinstance(exc, ValueError):
            raise DeckgenError(error("file", "", "the path has a NUL byte", file=shown)) from None
        raise DeckgenError(error("file", "", f"cannot be read: {exc.strerror}", file=shown)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise DeckgenError(error("toml", "", f"is not UTF-8 text (byte {exc.start + 1})", file=shown, line=line,
                                 hint="save the file as UTF-8")) from None
    return text[1:] if text.startswith(BOM) else text


def read_toml(path: Path) -> dict[str, Any]:
    """Parse a TOML file or raise DeckgenError (exit 2) naming the file, line and column."""
    return parse_toml(read_text(path), str(path))


def parse_toml(text: str, shown: str) -> dict[str, Any]:
    """Parse TOML text; nesting deeper than :data:`MAX_DEPTH` tables and arrays is refused, and so
    is every number and size outside the limits every data file has (:func:`bounded`)."""
    try:
        data: dict[str, Any] = tomllib.loads(text[1:] if text.startswith(BOM) else text)
    except RecursionError:
        raise _too_deep(shown) from None
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        m = _TOML_POS.search(msg)
        line = int(m.group(1)) if m else None
        msg = _TOML_POS.sub("", msg).strip()
        if m:
            msg += f" (column {m.group(2)})"
        raise DeckgenError(error("toml", "", f"TOML syntax error: {msg}", file=shown, line=line,
                                 hint="see docs/manifest.md for the format")) from None
    except ValueError:            # an integer of more than 4,300 digits (Python's limit for reading one)
        line = next((i for i, row in enumerate(text.splitlines(), 1) if _LONG_DIGITS.search(row)), None)
        raise DeckgenError(error("number", "", "a number has thousands of digits", file=shown, line=line,
                                 hint=NUMBER_HINT)) from None
    problems = bounded(data, shown)
    if problems:
        raise DeckgenError(with_lines(problems))
    return data


MAX_DEPTH = 32        # tables and arrays inside each other: no deckgen file needs more than a handful
MAX_NUMBER = 1e9      # the largest number (either sign) in any deckgen file: no key accepts more
MAX_ITEMS = 10_000    # items of one array, keys of one table: a deck has a few hundred card entries at most
MAX_PROBLEMS = 20     # problems of this kind reported for one file (then "and N more")
NUMBER_HINT = "every number in a deckgen file is finite and at most a billion in size; see docs/manifest.md"
_LONG_DIGITS = re.compile(r"\d{400}")


def _too_deep(shown: str) -> DeckgenError:
    return DeckgenError(error("toml", "", f"tables and arrays are nested more than {MAX_DEPTH} deep", file=shown,
                              hint="no deckgen file nests that deep; see docs/manifest.md for the format"))


def bounded(data: dict[str, Any], shown: str) -> list[Finding]:
    """What every data file must be, whatever its keys: tables and arrays nested at most
    :data:`MAX_DEPTH` deep, at most :data:`MAX_ITEMS` items or keys in each, and every number
    finite (no ``nan``, ``inf``) and at most :data:`MAX_NUMBER` in size. Each problem names its
    key path; walked without recursion (a hostile file may nest thousands deep)."""
    out: list[Finding] = []
    stack: list[tuple[Any, str, int]] = [(data, "", 1)]
    while stack:
        value, where, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise _too_deep(shown)
        if isinstance(value, dict):
            if len(value) > MAX_ITEMS:
                out.append(error("size", where, f"the table has {len(value):,} keys, over the limit of {MAX_ITEMS:,}",
                                 file=shown, hint="no deckgen file needs that many"))
                continue
            stack.extend((v, _join(where, str(k)), depth + 1) for k, v in reversed(value.items()))
        elif isinstance(value, list):
            if len(value) > MAX_ITEMS:
                out.append(error("size", where, f"the array has {len(value):,} items, over the limit of {MAX_ITEMS:,}",
                                 file=shown, hint="no deckgen file needs that many"))
                continue
            stack.extend((v, f"{where}[{i}]", depth + 1) for i, v in reversed(list(enumerate(value))))
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            problem = number_problem(value)
            if problem:
                out.append(error("number", where, problem, file=shown, hint=NUMBER_HINT))
        if len(out) > MAX_PROBLEMS:
            break
    return out


def number_problem(value: float) -> str | None:
    """Why a number from a data file cannot be used (NaN, infinite, over :data:`MAX_NUMBER`), or None."""
    if isinstance(value, float) and math.isnan(value):
        return "nan is not a number deckgen can use"
    if isinstance(value, float) and math.isinf(value):
        return f"{'-' if value < 0 else ''}inf is not a number deckgen can use"
    if abs(value) > MAX_NUMBER:
        shown = f"{value:.3g}" if isinstance(value, float) or value.bit_length() > 64 else str(value)
        return f"{shown} is too large (at most {MAX_NUMBER:,.0f} either side of zero)"
    return None


def table_lines(path: Path, header: str) -> list[int]:
    """Line numbers of each ``[[header]]`` in a TOML file (for messages about cards[i])."""
    try:
        text = read_text(path)
    except DeckgenError:
        return []
    pattern = re.compile(r"^\s*\[\[\s*" + re.escape(header) + r"\s*\]\]")
    return [i + 1 for i, line in enumerate(text.splitlines()) if pattern.match(line)]


# ---------------------------------------------------------------- key path -> line

_ARRAY_HEADER = re.compile(r"^\[\[\s*(.+?)\s*\]\]")
_HEADER = re.compile(r"^\[\s*([^\[\]]+?)\s*\]")
_KEY = re.compile(r"""^((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*=""")
_PART = re.compile(r"""[A-Za-z0-9_-]+|"[^"]*"|'[^']*'""")
_LAST = re.compile(r"(\.[^.\[\]]+|\[\d+\])$")


def _parts(dotted: str) -> list[str]:
    """The parts of a dotted key, at most :data:`MAX_DEPTH` (a deeper key is refused when parsed)."""
    out = []
    for m in _PART.finditer(dotted):
        out.append(m.group().strip("\"'"))
        if len(out) >= MAX_DEPTH:
            break
    return out


class LineIndex:
    """Where each key path of a TOML text is: ``cards[3].flex.color``, ``deck.players.min``,
    ``palette.colors[2].symbol``, ``kinds.wild-x.effects[0].op`` -> a line number.

    A path that is not written in the file (a missing key, an item inside an inline table or a
    multi-line array) takes the line of the nearest enclosing key or table that is.
    """

    def __init__(self, text: str):
        self.lines: dict[str, int] = {}
        self._counts: dict[str, int] = {}
        current = ""
        in_string: str | None = None
        for n, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if in_string is not None:
                if line.count(in_string) % 2 == 1:
                    in_string = None
                continue
            if not line or line.startswith("#"):
                continue
            m = _ARRAY_HEADER.match(line)
            if m:
                current = self._array_header(m.group(1), n)
                continue
            m = _HEADER.match(line)
            if m:
                current = self._header(m.group(1), n)
                continue
            m = _KEY.match(line)
            if m:
                in_string = self._key(current, m.group(1), line, n)

    def _array_header(self, header: str, n: int) -> str:
        """``[[cards]]`` on line ``n``: the next element of the array; its key path."""
        parts = _parts(header) or [""]
        name = _dot(self._resolve(parts[:-1], self._counts), parts[-1])
        index = self._counts.get(name, 0)
        self._counts[name] = index + 1
        current = f"{name}[{index}]"
        self.lines.setdefault(name, n)
        self.lines.setdefault(current, n)
        return current

    def _header(self, header: str, n: int) -> str:
        """``[deck.players]`` on line ``n``; its key path."""
        current = ""
        for part in _parts(header):        # [kinds.zap] also places the implicit table kinds
            current = _dot(current, part)
            if current in self._counts:
                current = f"{current}[{self._counts[current] - 1}]"
            self.lines.setdefault(current, n)
        return current

    def _key(self, current: str, key: str, line: str, n: int) -> str | None:
        """``key = ...`` on line ``n`` in the table ``current``; the quote of a multi-line string it opens."""
        path = current
        for part in _parts(key):
            path = _dot(path, part)
            self.lines.setdefault(path, n)
        opened = None
        for quote in ('"""', "'''"):
            if line.count(quote) % 2 == 1:
                opened = quote
        return opened

    @staticmethod
    def _resolve(parts: list[str], counts: Mapping[str, int]) -> str:
        """``cards.flex`` after ``[[cards]]`` -> ``cards[N].flex`` (the latest array element)."""
        path = ""
        for part in parts:
            path = _dot(path, part)
            if path in counts:
                path = f"{path}[{counts[path] - 1}]"
        return path

    def line(self, where: str) -> int | None:
        """The line of ``where`` or of its nearest written ancestor; None when none is written."""
        path = where.strip()
        while path:
            if path in self.lines:
                return self.lines[path]
            shorter = _LAST.sub("", path)
            if shorter == path:
                break
            path = shorter
        return None


def _dot(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


@functools.lru_cache(maxsize=32)
def _index(path: str, mtime_ns: int, size: int) -> LineIndex | None:
    try:
        return LineIndex(read_text(Path(path)))
    except DeckgenError:
        return None


def line_index(path: str | Path) -> LineIndex | None:
    """The line index of a TOML file (cached while the file is unchanged), None if unreadable."""
    mtime, size = deckfs.stamp(path)          # a file on disk or in a mounted pack
    if (mtime, size) == (0, 0):
        return None
    return _index(str(path), mtime, size)


def _ancestor_lines(index: LineIndex, where: str) -> set[int]:
    """The lines of the tables and keys that enclose ``where`` (not its own)."""
    out: set[int] = set()
    path = where.strip()
    while True:
        shorter = _LAST.sub("", path)
        if shorter == path or not shorter:
            return out
        line = index.lines.get(shorter)
        if line is not None:
            out.add(line)
        path = shorter


def with_lines(findings: Iterable[Finding]) -> list[Finding]:
    """Every finding about a TOML file given the line its key path is on (line 1 for the file as
    a whole), so every message can be found in the editor. A finding placed on its table's header
    line (a [[cards]] entry's, say) moves to its key's own line when the key is written there."""
    out = []
    for f in findings:
        if f.file and f.file.endswith(".toml"):
            index = line_index(f.file)
            if index is not None:
                if f.line is None:
                    f = dataclasses.replace(f, line=index.line(f.where) or 1)
                else:
                    own = index.line(f.where)               # the key's line, or its nearest written parent's
                    if own is not None and own != f.line and f.line in _ancestor_lines(index, f.where):
                        f = dataclasses.replace(f, line=own)
        out.append(f)
    return out


# ---------------------------------------------------------------- shape checks

_TYPE_NAMES = {bool: "a boolean", int: "an integer", str: "a string", dict: "a table", list: "an array"}


def type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    for t, name in _TYPE_NAMES.items():
        if isinstance(value, t):
            return name
    if isinstance(value, float):
        return "a decimal number"
    return type(value).__name__


class Shape:
    """Checks one TOML table against a key schema, reporting into a Collector."""

    def __init__(self, out: Collector):
        self.out = out

    def table(self, value: Any, where: str, keys: Mapping[str, tuple[str, bool]],
              line: int | None = None) -> dict[str, Any] | None:
        if value is None:       # TOML has no null: a missing key, which its own table reports once
            return None
        if not isinstance(value, dict):
            self.out.error("type", where, f"expected a table, got {type_name(value)}", line=line)
            return None
        unknown = [key for key in value if key not in keys]
        missing = [key for key, (_, required) in keys.items() if required and key not in value]
        # one unknown key where one required key is missing: most likely the same key, misnamed
        swapped = (unknown[0], missing[0]) if len(unknown) == 1 and len(missing) == 1 else None
        for key in unknown:
            hint = did_you_mean(key, keys) or (f"did you mean '{swapped[1]}'? it is required here and missing"
                                               if swapped else "accepted keys: " + ", ".join(keys))
            self.out.error("unknown-key", _join(where, key), f"unknown key '{key}'", hint=hint, line=line)
        for key in missing:
            self.out.error("missing-key", _join(where, key), f"required key '{key}' is missing (expected {keys[key][0]})",
                           line=line, hint=f"is '{swapped[0]}' meant as '{key}'?" if swapped else None)
        return value

    def string(self, value: Any, where: str, line: int | None = None, max_len: int | None = None) -> str | None:
        if not isinstance(value, str):
            self.out.error("type", where, f"expected a string, got {type_name(value)}", line=line)
            return None
        if not value.strip():
            self.out.error("value", where, "must not be empty", line=line)
            return None
        if max_len is not None and len(value) > max_len:
            self.out.error("too-long", where, f"{len(value)} characters is too long (at most {max_len})", line=line)
            return None
        if not self._plain(value, where, line):
            return None
        return value

    def integer(self, value: Any, where: str, lo: int, hi: int, what: str = "an integer",
                line: int | None = None) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int):
            self.out.error("type", where, f"expected {what}, got {type_name(value)} {value!r}", line=line)
            return None
        if not lo <= value <= hi:
            self.out.error("range", where, f"expected {what} from {lo} to {hi}, got {value}", line=line)
            return None
        return value

    def boolean(self, value: Any, where: str, line: int | None = None) -> bool | None:
        if not isinstance(value, bool):
            self.out.error("type", where, f"expected true or false, got {type_name(value)}", line=line)
            return None
        return value

    def text(self, value: Any, where: str, line: int | None = None, max_len: int | None = None) -> dict[str, str] | None:
        """A text: a plain string, or a table of language -> string, each at most ``max_len`` characters."""
        if isinstance(value, str):
            if not value.strip():
                self._empty(where, line)
                return None
            return {"": value} if self._fits(value, where, line, max_len) else None
        if isinstance(value, dict) and value:
            out = {}
            for lang, s in value.items():
                if not isinstance(s, str) or not s.strip():
                    self.out.error("type", _join(where, lang), f"expected a non-empty string, got {type_name(s)}",
                                   line=line)
                    continue
                if not re.fullmatch(r"[a-z]{2}", lang):
                    self.out.error("value", _join(where, lang), f"'{lang}' is not a two-letter language code",
                                   hint="use e.g. es or en", line=line)
                    continue
                if self._fits(s, _join(where, lang), line, max_len):
                    out[lang] = s
            return out or None
        self.out.error("type", where, f"expected a string or a table of language = string, got {type_name(value)}",
                       line=line)
        return None

    def _plain(self, value: str, where: str, line: int | None) -> bool:
        """No control characters (a terminal escape, a NUL): a deck's texts end up in messages and files."""
        bad = control_char(value)
        if bad is None:
            return True
        self.out.error("value", where, f"contains the control character U+{ord(bad):04X}", line=line,
                       hint="texts may hold letters, digits, punctuation, spaces and line breaks only")
        return False

    def _fits(self, value: str, where: str, line: int | None, max_len: int | None) -> bool:
        if not self._plain(value, where, line):
            return False
        if max_len is None or len(value) <= max_len:
            return True
        room, hint = _room(where)
        self.out.error("too-long", where, f"{len(value)} characters is too long for {room} (at most {max_len})",
                       line=line, hint=hint)
        return False

    def _empty(self, where: str, line: int | None) -> None:
        self.out.error("value", where, "must not be empty", line=line)


def _room(where: str) -> tuple[str, str]:
    """Where a text at this key path is printed, for the too-long message: the place, and the hint."""
    key = re.sub(r"\.[a-z]{2}$", "", where)         # deck.name.es -> deck.name
    if key.endswith(".description"):
        return "the rulebook's introduction", "shorten it to a paragraph or two; the rules themselves are written from the deck"
    if key == "deck.name":
        return "a game's name", "shorten it; the name heads the rulebook's cover and, unless back_text is set, every card back"
    if key.startswith("palette") and key.endswith(".name"):
        return "a colour's name", "shorten it; the name is printed in the rulebook's rules and named at the table"
    return "a card", "shorten it; a card has room for a few words"


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def control_char(text: str) -> str | None:
    """The first control character of a text (tabs and line breaks allowed), or None."""
    m = _CONTROL.search(text)
    return m.group() if m else None


def _join(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def names_of(text: Mapping[str, str], fallback: str | None = None) -> dict[str, str]:
    """A checked text -> language table; a plain string serves every language."""
    names = dict(text)
    if "" in names:
        plain = names.pop("")
        names.setdefault("es", plain)
        names.setdefault("en", plain)
    if not names and fallback:
        names = {"en": fallback}
    return names
