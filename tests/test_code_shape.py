"""The shape of the code (issue 22): no function in deckgen/ is longer than a screen.

ruff (pyproject.toml) holds complexity and argument counts; this test holds length, which ruff
does not measure: every function or method in ``deckgen/``, nested ones included, is at most
:data:`MAX_LINES` lines from its ``def`` (decorators excluded) to its last line.
"""

from __future__ import annotations

import ast
from pathlib import Path

from pysource import parse_file

import deckgen

MAX_LINES = 80
PACKAGE = Path(deckgen.__file__).resolve().parent


def long_functions(root: Path = PACKAGE, limit: int = MAX_LINES) -> list[tuple[str, str, int]]:
    """(file, function, lines) for every function longer than ``limit`` lines."""
    out = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(parse_file(path)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > limit:
                    out.append((str(path.relative_to(root.parent)), f"{node.name} (line {node.lineno})", lines))
    return out


def test_the_measure_sees_a_long_function(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_LINES))
    (tmp_path / "m.py").write_text(f"def short():\n    return 1\n\n\ndef long():\n{body}\n")
    assert long_functions(tmp_path) == [(f"{tmp_path.name}/m.py", "long (line 5)", MAX_LINES + 1)]


def test_no_function_is_longer_than_a_screen() -> None:
    assert long_functions() == []


if __name__ == "__main__":
    for row in long_functions():
        print(*row)
