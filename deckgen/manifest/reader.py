"""Reading TOML files and checking the shape of their tables, collecting every problem."""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from deckgen.errors import Collector, DeckgenError, did_you_mean, error

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

_TOML_POS = re.compile(r"\(at line (\d+), column (\d+)\)")


def read_toml(path: Path) -> dict:
    """Parse a TOML file or raise DeckgenError (exit 2) naming the file, line and column."""
    shown = str(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise DeckgenError(error("file", "", "no such file", file=shown)) from None
    except IsADirectoryError:
        raise DeckgenError(error("file", "", "is a folder, not a manifest file", file=shown)) from None
    except OSError as exc:
        raise DeckgenError(error("file", "", f"cannot be read: {exc.strerror}", file=shown)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise DeckgenError(error("toml", "", "is not UTF-8 text", file=shown, line=line,
                                 hint="save the file as UTF-8")) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        m = _TOML_POS.search(msg)
        line = int(m.group(1)) if m else None
        where = f"line {m.group(1)}, column {m.group(2)}" if m else ""
        msg = _TOML_POS.sub("", msg).strip()
        raise DeckgenError(error("toml", where, f"TOML syntax error: {msg}", file=shown, line=line,
                                 hint="see docs/manifest.md for the format")) from None


def table_lines(path: Path, header: str) -> list[int]:
    """Line numbers of each ``[[header]]`` in a TOML file (for messages about cards[i])."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    pattern = re.compile(r"^\s*\[\[\s*" + re.escape(header) + r"\s*\]\]")
    return [i + 1 for i, line in enumerate(text.splitlines()) if pattern.match(line)]


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

    def table(self, value: Any, where: str, keys: Mapping[str, tuple[str, bool]], line: int | None = None) -> dict | None:
        if not isinstance(value, dict):
            self.out.error("type", where, f"expected a table, got {type_name(value)}", line=line)
            return None
        for key in value:
            if key not in keys:
                hint = did_you_mean(key, keys) or "accepted keys: " + ", ".join(keys)
                self.out.error("unknown-key", _join(where, key), f"unknown key '{key}'", hint=hint, line=line)
        for key, (typ, required) in keys.items():
            if required and key not in value:
                self.out.error("missing-key", _join(where, key), f"required key '{key}' is missing (expected {typ})",
                               line=line)
        return value

    def string(self, value: Any, where: str, line: int | None = None) -> str | None:
        if not isinstance(value, str):
            self.out.error("type", where, f"expected a string, got {type_name(value)}", line=line)
            return None
        if not value.strip():
            self.out.error("value", where, "must not be empty", line=line)
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

    def text(self, value: Any, where: str, line: int | None = None) -> dict[str, str] | None:
        """A text: a plain string, or a table of language -> string."""
        if isinstance(value, str):
            return {"": value} if value.strip() else self._empty(where, line)
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
                out[lang] = s
            return out or None
        self.out.error("type", where, f"expected a string or a table of language = string, got {type_name(value)}",
                       line=line)
        return None

    def _empty(self, where: str, line: int | None):
        self.out.error("value", where, "must not be empty", line=line)
        return None


def _join(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def names_of(text: dict[str, str], fallback: str | None = None) -> dict[str, str]:
    """A checked text -> language table; a plain string serves every language."""
    names = dict(text)
    if "" in names:
        plain = names.pop("")
        names.setdefault("es", plain)
        names.setdefault("en", plain)
    if not names and fallback:
        names = {"en": fallback}
    return names
