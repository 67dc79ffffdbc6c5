"""docs/architecture.md's module table names every module of the package (issue: "its module
table complete"), and names nothing that is gone."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "deckgen"


def _rows() -> dict[str, str]:
    """The module table: its first cell's names -> the whole row."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    table = text.split("## Modules", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, str] = {}
    for line in table.splitlines():
        if line.startswith("| `"):
            first = line.split("|")[1]
            for name in re.findall(r"`([^`]+)`", first):
                rows[name] = line
    return rows


def test_every_top_level_module_and_package_has_a_row() -> None:
    rows = _rows()
    missing = [p.name for p in PACKAGE.glob("*.py") if p.name not in rows]
    missing += [p.name + "/" for p in PACKAGE.iterdir()
                if p.is_dir() and (p / "__init__.py").exists() and p.name + "/" not in rows]
    assert not missing, f"modules without a row in docs/architecture.md: {sorted(missing)}"


def test_every_module_of_a_package_is_named_in_its_row() -> None:
    rows = _rows()
    missing = []
    for pkg in sorted(p for p in PACKAGE.iterdir() if (p / "__init__.py").exists()):
        row = rows.get(pkg.name + "/", "")
        cells = row.split("|", 2)[-1]
        for mod in sorted(pkg.glob("*.py")):
            if mod.name != "__init__.py" and f"`{mod.name}`" not in cells:
                missing.append(f"{pkg.name}/{mod.name}")
    assert not missing, f"modules not named in their package's row: {missing}"


def test_the_table_names_no_module_that_is_gone() -> None:
    gone = [name for name in _rows()
            if not (PACKAGE / name.rstrip("/")).exists()]
    assert not gone, f"rows for modules that do not exist: {gone}"


def test_each_module_has_one_row() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    table = text.split("## Modules", 1)[1].split("\n## ", 1)[0]
    firsts = [re.findall(r"`([^`]+)`", line.split("|")[1]) for line in table.splitlines() if line.startswith("| `")]
    names = [n for f in firsts for n in f]
    assert len(names) == len(set(names)), sorted({n for n in names if names.count(n) > 1})
