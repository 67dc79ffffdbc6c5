"""What a build imports before its workers start is time no core can share: the heavy libraries
only some steps need stay out of it (benchmarks/build.py measures the whole build)."""

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest
from pysource import parse_file


def test_starting_a_build_does_not_import_libraries_only_some_steps_need():
    code = ("import json, sys, deckgen.cli, deckgen.build, deckgen.render.batch, deckgen.render.draw, "
            "deckgen.rulebook.pdf, deckgen.workers; "
            "print(json.dumps(sorted(m for m in ('coloraide', 'pypdf', 'urllib.request', 'http.client') "
            "if m in sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == []


def test_what_a_warm_build_runs_imports_no_pdf_writer_and_no_other_command():
    # a build whose card sheets and rulebooks come from the cache runs these modules (and the
    # render check reads the print-shop presets); none of them imports ReportLab's canvas, the
    # exports or another command's module (benchmarks/warm.py times that build)
    code = ("import json, sys\nfrom deckgen.cli import main\nmain.get_command(None, 'build')\n"
            "import deckgen.build, deckgen.check, deckgen.export.services, deckgen.layout, deckgen.fonts\n"
            "from deckgen.layout import LayoutOptions, parse_paper, write_bytes\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('reportlab.pdfgen', 'reportlab.lib.utils', "
            "'deckgen.layout.pdf', 'deckgen.layout.calibrate', 'deckgen.layout.cover', 'deckgen.layout.lightback', "
            "'deckgen.export.', 'deckgen.cli.')))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == ["deckgen.cli.base", "deckgen.cli.make", "deckgen.cli.params", "deckgen.export.services"]


def test_the_lazy_names_of_a_package_are_its_modules_names():
    import deckgen.export
    import deckgen.layout
    from deckgen.export import services, tts
    from deckgen.layout import calibrate

    assert deckgen.layout.calibration_pdf is calibrate.calibration_pdf
    assert deckgen.export.export_tts is tts.export_tts and deckgen.export.load_services is services.load_services
    for package in (deckgen.export, deckgen.layout):
        assert all(getattr(package, name) is not None for name in package.__all__)
        with pytest.raises(AttributeError, match="no_such_name"):
            getattr(package, "no_such_name")  # noqa: B009


# --- No import circles -----------------------------------------------------------------------
# Every import statement in deckgen/ counts, wherever it stands: at the top of a module, inside a
# function (a lazy import still closes a circle the moment it runs) or in a try block, and (for
# the layers that type checkers see too) under ``if TYPE_CHECKING:``.

PACKAGE = Path(__file__).resolve().parent.parent / "deckgen"

def _modules(package: Path = PACKAGE) -> dict[str, Path]:
    out = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _from_targets(node: ast.ImportFrom, package: str, modules: dict[str, Path]) -> set[str]:
    """What ``from X import a, b`` imports: the modules X.a and X.b where they are modules, else X."""
    if node.level:
        base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
        where = f"{base}.{node.module}" if node.module else base
    else:
        where = node.module or ""
    return {f"{where}.{alias.name}" if f"{where}.{alias.name}" in modules else where for alias in node.names}


def _imported(name: str, path: Path, modules: dict[str, Path], type_only: bool = False) -> set[str]:
    """The deckgen modules that module ``name`` imports, each named as precisely as the import
    allows: ``from deckgen.rulebook import pdf`` is deckgen.rulebook.pdf, ``from deckgen.rulebook
    import check_stage`` is the package deckgen.rulebook. ``type_only``: the imports under ``if
    TYPE_CHECKING:`` count too."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node) and not type_only:
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.update(_from_targets(node, package, modules))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(parse_file(path))
    out = set()
    for target in found:
        while target and target not in modules:       # deckgen.x.y.Name -> deckgen.x.y
            target = target.rpartition(".")[0]
        if target and target != name:
            out.add(target)
    return out


def import_graph(package: Path = PACKAGE, own_package: bool = True, type_only: bool = False) -> dict[str, set[str]]:
    """Module -> the deckgen modules it imports. ``own_package=False`` leaves out a module's
    imports of the packages it lies in (``deckgen.render.batch`` importing ``RenderResult`` from
    ``deckgen.render``): Python initialises those before the module in any case. ``type_only``:
    count the imports for type checkers too."""
    modules = _modules(package)
    graph = {name: _imported(name, path, modules, type_only) for name, path in modules.items()}
    if not own_package:
        graph = {name: {t for t in targets if not name.startswith(t + ".")} for name, targets in graph.items()}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return sorted(found)


def test_the_walker_sees_lazy_and_relative_imports(tmp_path):
    pkg = tmp_path / "demo"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from .b import thing\n")
    (pkg / "a.py").write_text("def later():\n    from demo.sub import b\n")
    (pkg / "sub" / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from demo import c\n"
                                      "try:\n    from .. import a\nexcept ImportError:\n    pass\n")
    (pkg / "c.py").write_text("import demo.a\n")
    graph = import_graph(pkg)
    assert graph["demo.a"] == {"demo.sub.b"}                  # a function-level import counts
    assert graph["demo.sub.b"] == {"demo.a"}                  # a relative one in a try block too; TYPE_CHECKING does not
    assert graph["demo.sub"] == {"demo.sub.b"}
    assert graph["demo.c"] == {"demo.a"}
    assert circles(graph) == [["demo.a", "demo.sub.b"]]
    (pkg / "sub" / "b.py").write_text("def f():\n    from demo.sub import other\n")   # a name, not a module
    assert circles(import_graph(pkg)) == [["demo.sub", "demo.sub.b"]]     # the package imports b, b imports it back
    assert circles(import_graph(pkg, own_package=False)) == []


def test_no_import_circle_between_deckgen_modules():
    graph = import_graph(own_package=False)
    # the walker sees the lazy imports: deckgen list's catalogue of presets imports every stage's lazily
    assert {"deckgen.render.geometry", "deckgen.layout.papers"} <= graph["deckgen.catalogues"]
    assert circles(graph) == []


def test_no_import_circle_in_deckgen_at_all():
    assert circles(import_graph()) == []


def test_no_import_circle_even_through_imports_for_type_checkers():
    """The layers hold for type checkers too: a stage takes its check's options and result types
    from deckgen.stages below it, never from deckgen.check that calls it."""
    assert circles(import_graph(own_package=False, type_only=True)) == []


ABOVE_THE_RULES = ("deckgen.balance", "deckgen.check", "deckgen.render", "deckgen.cli", "deckgen.rulebook",
                   "deckgen.verdict", "deckgen.report", "deckgen.layout", "deckgen.export", "deckgen.play",
                   "deckgen.build", "deckgen.watch", "deckgen.tune", "deckgen.palette", "deckgen.claims",
                   "deckgen.glyphs")


def test_the_rules_engine_imports_nothing_above_it():
    """deckgen.rules (and the environment on it) depends on the model below, never on a stage
    or the command line above, lazy and type-only imports included."""
    graph = import_graph(type_only=True)
    above = {name: sorted(t for t in targets if t.startswith(ABOVE_THE_RULES))
             for name, targets in graph.items() if name.startswith(("deckgen.rules", "deckgen.rl"))}
    assert {name: t for name, t in above.items() if t} == {}


def test_no_thread_in_the_rules_engine_or_the_environment():
    """A game is a value anyone steps: no thread, no lock in deckgen.rules or deckgen.rl."""
    for name, path in _modules().items():
        if name.startswith(("deckgen.rules", "deckgen.rl")):
            text = path.read_text("utf-8")
            assert "threading" not in text and "_thread" not in text, name


def _imports_click(path: Path) -> bool:
    """Whether a module imports click anywhere: at the top, in a function, or only for types."""
    for node in ast.walk(parse_file(path)):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "click" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] == "click":
            return True
    return False


def test_the_click_finder_sees_every_form(tmp_path):
    forms = ["import click\n", "import click.testing as t\n", "from click import echo\n",
             "def f():\n    from click.exceptions import Abort\n",
             "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import click\n"]
    for i, text in enumerate(forms):
        (tmp_path / f"m{i}.py").write_text(text)
        assert _imports_click(tmp_path / f"m{i}.py"), text
    (tmp_path / "other.py").write_text("import clickhouse\nfrom .click import x\n")
    assert not _imports_click(tmp_path / "other.py")


def test_only_the_cli_package_imports_click():
    importers = {name for name, path in _modules().items() if _imports_click(path)}
    assert importers, "the walker found no module importing click: deckgen.cli does"
    assert {name for name in importers if name != "deckgen.cli" and not name.startswith("deckgen.cli.")} == set()


def test_no_import_circle_in_the_rulebook_package():
    # deckgen.rulebook.step imports rulebook.document, not the package that imports it back
    found = [c for c in circles(import_graph()) if any(m.startswith("deckgen.rulebook") for m in c)]
    assert found == []
