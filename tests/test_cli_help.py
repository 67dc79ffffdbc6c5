"""Every command has --help with an example, and docs/cli.md documents every command."""

import click
import pytest
from click.testing import CliRunner

from deckgen.cli import main
from tests.conftest import ROOT


def _commands(group, prefix=()):
    for name, cmd in sorted(group.commands.items()):
        path = (*prefix, name)
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, path)
        else:
            yield path


COMMANDS = list(_commands(main))


@pytest.mark.parametrize("path", COMMANDS, ids=[" ".join(p) for p in COMMANDS])
def test_command_help_has_an_example(path):
    result = CliRunner().invoke(main, [*path, "--help"], prog_name="deckgen")
    assert result.exit_code == 0
    assert "Example:" in result.output
    assert "deckgen " + " ".join(path) in result.output


@pytest.mark.parametrize("path", COMMANDS, ids=[" ".join(p) for p in COMMANDS])
def test_command_is_documented(path):
    doc = (ROOT / "docs" / "cli.md").read_text("utf-8")
    assert f"## `deckgen {' '.join(path)}`" in doc


@pytest.mark.parametrize("path", COMMANDS, ids=[" ".join(p) for p in COMMANDS])
def test_every_option_is_documented(path):
    doc = (ROOT / "docs" / "cli.md").read_text("utf-8")
    start = doc.index(f"## `deckgen {' '.join(path)}`")
    end = doc.find("\n## ", start + 5)
    section = doc[start:end if end > 0 else None]
    cmd = main
    for name in path:
        cmd = cmd.commands[name]
    for param in cmd.params:
        if isinstance(param, click.Option) and "--help" not in param.opts:
            spellings = param.opts + param.secondary_opts
            assert any(s in section for s in spellings), f"{spellings} not in docs/cli.md for {' '.join(path)}"


def test_unknown_command_is_a_usage_error():
    result = CliRunner().invoke(main, ["bild"])
    assert result.exit_code == 2
    assert "bild" in result.output


def test_the_entry_point_and_python_m_deckgen_run_the_group():
    import subprocess
    import sys
    from importlib.metadata import entry_points

    from deckgen import __version__

    (script,) = entry_points(group="console_scripts", name="deckgen")
    assert script.value == "deckgen.cli:main" and script.load() is main
    out = subprocess.run([sys.executable, "-m", "deckgen", "--version"], capture_output=True, text=True, cwd=ROOT)
    assert (out.returncode, out.stdout.strip()) == (0, f"deckgen, version {__version__}")


def test_a_command_leaves_its_objects_out_of_the_interpreters_last_collections():
    """At exit the objects alive when the command ran are frozen (gc.freeze), so the interpreter
    does not walk a build's decks, faces and fonts once more after the work is done."""
    import subprocess
    import sys

    code = ("import atexit, gc\n"
            "atexit.register(lambda: print('frozen at exit:', gc.get_freeze_count() > 0))\n"
            "from deckgen.cli import main\n"
            "main(['--version'])\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0 and out.stdout.splitlines()[-1] == "frozen at exit: True"


def _cli_modules_after(*args):
    import json
    import subprocess
    import sys

    code = ("import json, sys\nfrom deckgen.cli import main\n"
            f"try:\n    main({list(args)!r}, prog_name='deckgen')\nexcept SystemExit:\n    pass\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith('deckgen.cli.'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(out.stdout.splitlines()[-1])


def test_a_command_imports_only_the_module_that_makes_it():
    assert _cli_modules_after("build", "--help") == ["deckgen.cli.base", "deckgen.cli.make", "deckgen.cli.params"]
    assert _cli_modules_after("cache", "--help") == ["deckgen.cli.base", "deckgen.cli.params", "deckgen.cli.tools"]
    every = ["deckgen.cli.base", "deckgen.cli.deckfile", "deckgen.cli.export", "deckgen.cli.live", "deckgen.cli.make", "deckgen.cli.params",
             "deckgen.cli.study", "deckgen.cli.tools"]
    assert _cli_modules_after("--help") == every          # the list of commands shows each one's help line
    assert _cli_modules_after("bild") == every            # and a misspelt one is told the names near it


def test_every_command_is_listed_once_in_order():
    names = list(main.commands)
    assert names == ["list", "check", "new", "render", "preview", "palette", "build", "calibrate", "export",
                     "simulate", "play", "report", "tune", "rulebook", "cache", "pack", "unpack", "import"]
    assert all(main.commands[n].name == n for n in names)
    assert main.list_commands(click.Context(main)) == sorted(names)
