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
