"""Python source files parsed once per test process: the import-circle, click and function-length
tests each walk every module of deckgen/, and parsing is most of what they cost. A file is read
every time and parsed again when its text changed (the tests that write small packages rewrite
files), never modified: the trees are shared."""

from __future__ import annotations

import ast
import functools
from pathlib import Path


def parse_file(path: Path) -> ast.Module:
    """The syntax tree of a Python file as it is now."""
    return _parse(path.read_text(encoding="utf-8"), str(path))


@functools.lru_cache(maxsize=1024)
def _parse(text: str, filename: str) -> ast.Module:
    return ast.parse(text, filename)
