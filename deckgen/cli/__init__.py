"""The command line: a thin layer over the library, and the only package that imports click.

``main`` is the ``deckgen`` group; each module adds a group of commands:

- :mod:`.make`: ``build``, ``render``, ``rulebook``
- :mod:`.study`: ``check``, ``simulate``, ``report``, ``tune``
- :mod:`.live`: ``play``, ``preview`` (and ``--watch``)
- :mod:`.export`: ``export tts``, ``export cards`` (and ``export sheet`` from :mod:`.deckfile`)
- :mod:`.deckfile`: ``pack``, ``unpack``, ``import``
- :mod:`.tools`: ``list``, ``new``, ``palette check``, ``calibrate``, ``cache``

A module is imported when one of its commands runs or shows its help (``deckgen --help``
imports them all), so ``deckgen build`` loads neither the export nor the play machinery.

:mod:`.base` turns deckgen's errors into messages and exit codes (0 ok, 1 the deck has errors,
2 unusable input or usage); :mod:`.params` holds the shared options and the typed objects they
become before a command's body runs.
"""

from __future__ import annotations

import click

from deckgen import __version__
from deckgen.cli.base import Main

__all__ = ["main"]


def _make() -> list[click.Command]:
    from deckgen.cli import make

    return [make.render, make.build, make.rulebook]


def _study() -> list[click.Command]:
    from deckgen.cli import study

    return [study.check, study.simulate, study.report_cmd, study.tune_cmd]


def _live() -> list[click.Command]:
    from deckgen.cli import live

    return [live.preview, live.play_cmd]


def _export() -> list[click.Command]:
    from deckgen.cli import deckfile, export

    export.export_group.add_command(deckfile.export_sheet_cmd)
    return [export.export_group]


def _deckfile() -> list[click.Command]:
    from deckgen.cli import deckfile

    return [deckfile.pack_cmd, deckfile.unpack_cmd, deckfile.import_cmd]


def _tools() -> list[click.Command]:
    from deckgen.cli import tools

    return [tools.list_cmd, tools.new, tools.palette_group, tools.calibrate, tools.cache_group]


# Every command's name and the module that makes it, in the order ``main.commands`` lists them.
COMMANDS = {"list": _tools, "check": _study, "new": _tools, "render": _make, "preview": _live, "palette": _tools,
            "build": _make, "calibrate": _tools, "export": _export, "simulate": _study, "play": _live,
            "report": _study, "tune": _study, "rulebook": _make, "cache": _tools, "pack": _deckfile,
            "unpack": _deckfile, "import": _deckfile}


@click.group(cls=Main, commands_from=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="deckgen")
def main() -> None:
    """deckgen: check, render and print UNO-style card games.

    Example:

        deckgen check classic
    """
