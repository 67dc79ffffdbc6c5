"""The chosen candidate written as a new manifest beside the original, with a readable diff.

The original's text is kept line for line (its comments too): a counted kind's ``[[cards]]``
entries get their ``count`` line changed (or one added; an entry at 0 copies is commented out), a
rule option is set in ``[rules.options]`` (added when missing). The text written is read back by
the manifest parser and must give exactly the candidate that was played.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from deckgen.errors import DeckgenError, error
from deckgen.tune.space import Variable

_HEADER = re.compile(r"^\s*\[")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-]+)\s*=")


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _blocks(lines: list[str]) -> list[tuple[str, int, int]]:
    """(header, first line, end line) of every table in the file; the text before the first header is ''."""
    out: list[tuple[str, int, int]] = []
    start, head = 0, ""
    for i, line in enumerate(lines):
        if _HEADER.match(line) and not line.strip().startswith("#"):
            out.append((head, start, i))
            head, start = line.strip(), i
    out.append((head, start, len(lines)))
    return out


def _key_line(lines: list[str], start: int, end: int, key: str) -> int | None:
    for i in range(start + 1, end):
        m = _KEY.match(lines[i])
        if m and m.group(1) == key:
            return i
    return None


def edited(text: str, changes: Mapping[str, Any], variables: Sequence[Variable], where: str) -> str:
    """The manifest text with ``changes`` made; DeckgenError when an entry cannot be edited line by line."""
    lines = text.splitlines()
    by_name = {v.name: v for v in variables}
    counts = {str(by_name[n].kind): v for n, v in changes.items() if by_name[n].kind is not None}
    options = {str(by_name[n].option): v for n, v in changes.items() if by_name[n].option is not None}
    found: set[str] = set()
    for head, start, end in reversed(_blocks(lines)):       # from the end: edits keep earlier line numbers
        if head != "[[cards]]":
            continue
        kind_at = _key_line(lines, start, end, "kind")
        kind = _string(lines[kind_at]) if kind_at is not None else None
        if kind_at is None or kind is None or kind not in counts:
            continue
        found.add(kind)
        value = counts[kind]
        if value == 0:
            lines[start:end] = ["# " + line if line.strip() else line for line in lines[start:end]]
            lines.insert(start, f"# deckgen tune: no '{kind}' card any more (count 0)")
            continue
        at = _key_line(lines, start, end, "count")
        if at is None:
            lines.insert(kind_at + 1, f"count = {value}")
        else:
            lines[at] = re.sub(r"=\s*[^#]*", f"= {value} ", lines[at], count=1).rstrip()
    missing = sorted(set(counts) - found)
    if missing:
        raise DeckgenError(error("tune", where, f"the cards of kind {', '.join(missing)} are not [[cards]] tables "
                                 "deckgen can edit line by line", hint="write each as a [[cards]] table with its "
                                 "kind = \"...\" and count = N lines"))
    if options:
        lines = _set_options(lines, options)
    return "\n".join(lines) + "\n"


def _string(line: str) -> str | None:
    m = re.search(r'=\s*"([^"]*)"', line)
    return m.group(1) if m else None


def _set_options(lines: list[str], options: Mapping[str, Any]) -> list[str]:
    blocks = _blocks(lines)
    spot = next(((s, e) for h, s, e in blocks if h == "[rules.options]"), None)
    if spot is None:
        rules = next(((s, e) for h, s, e in blocks if h == "[rules]"), None)
        at = rules[1] if rules else len(lines)
        while at > 0 and not lines[at - 1].strip():
            at -= 1
        lines[at:at] = ["[rules.options]"]
        start, end = at, at + 1
    else:
        start, end = spot
    for name, value in options.items():
        line = f"{name} = {_toml_value(value)}"
        spot_at = _key_line(lines, start, end, name)
        if spot_at is None:
            lines.insert(end, line)
            end += 1
        else:
            lines[spot_at] = line
    return lines


def diff(before: str, after: str, a: str, b: str) -> str:
    """A unified diff of the two manifests, for people."""
    return "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True), a, b, n=1))


def beside(original: Path, fallback: Path) -> Path:
    """A new file beside the original manifest (``<stem>-tuned.toml``, then ``-tuned-2`` ...), never an
    existing one; a bundled deck's goes to ``fallback``'s folder."""
    from deckgen.resources import decks_dir

    folder = original.parent
    try:
        original.resolve().relative_to(decks_dir().resolve())
        folder = fallback.parent
    except ValueError:
        pass
    n = 1
    while True:
        path = folder / f"{original.stem}-tuned{'' if n == 1 else f'-{n}'}.toml"
        if not path.exists():
            return path
        n += 1
