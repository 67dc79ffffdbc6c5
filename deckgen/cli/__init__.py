"""The command line: a thin layer over the library, and the only package that imports click.

``main`` is the ``deckgen`` group; each module adds a group of commands:

- :mod:`.make`: ``build``, ``render``, ``rulebook``
- :mod:`.study`: ``check``, ``simulate``, ``report``
- :mod:`.live`: ``play``, ``preview`` (and ``--watch``)
- :mod:`.export`: ``export tts``, ``export cards``
- :mod:`.tools`: ``list``, ``new``, ``palette check``, ``calibrate``, ``cache``

:mod:`.base` turns deckgen's errors into messages and exit codes (0 ok, 1 the deck has errors,
2 unusable input or usage); :mod:`.params` holds the shared options and the typed objects they
become before a command's body runs.
"""

from __future__ import annotations

import click

from deckgen import __version__
from deckgen.cli import export, live, make, study, tools
from deckgen.cli.base import Main

__all__ = ["main"]


@click.group(cls=Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="deckgen")
def main() -> None:
    """deckgen: check, render and print UNO-style card games.

    Example:

        deckgen check classic
    """


for command in (tools.list_cmd, study.check, tools.new, make.render, live.preview, tools.palette_group, make.build,
                tools.calibrate, export.export_group, study.simulate, live.play_cmd, study.report_cmd, make.rulebook,
                tools.cache_group):
    main.add_command(command)
