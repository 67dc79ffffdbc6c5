"""What every command shares: the ``deckgen`` group, the error handling that turns deckgen's
own errors into messages and exit codes, the JSON and text output, and the progress bar.

Exit codes: 0 ok, 1 the deck has errors, 2 unusable input or usage (130: interrupted; 70: an
internal error, a bug in deckgen, its traceback saved to a crash report).
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import json
import os
import sys
from collections.abc import Callable, Iterable, Mapping, MutableMapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

import click

from deckgen.errors import ERROR, NOTE, WARNING, DeckgenError, Finding, error

if TYPE_CHECKING:
    from click._termui_impl import ProgressBar


def echo_findings(findings: Iterable[Finding]) -> None:
    """Findings on stderr, errors red and warnings yellow."""
    for f in findings:
        color = {"error": "red", "warning": "yellow"}.get(f.severity)
        click.secho(f.format(), fg=color, err=True)


def echo_json(data: object) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def findings_json(findings: Iterable[Finding]) -> dict[str, list[dict[str, object]]]:
    """``errors``, ``warnings`` and ``notes``: the same keys in every command's JSON."""
    found = list(findings)
    return {key: [f.to_json() for f in found if f.severity == sev]
            for key, sev in (("errors", ERROR), ("warnings", WARNING), ("notes", NOTE))}


def fail(findings: Sequence[Finding], code: int, as_json: bool) -> NoReturn:
    """Report a failure: the findings as text on stderr, or with --json one object on stdout."""
    from deckgen.datafile import with_lines

    findings = with_lines(findings)
    if as_json:
        echo_json({"ok": False, "exit_code": code, **findings_json(findings)})
    else:
        echo_findings(findings)
    sys.exit(code)


def _quiet_stdout() -> None:
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def run_handled(ctx: click.Context, invoke: Callable[[click.Context], Any]) -> Any:
    """``invoke(ctx)`` with deckgen's own errors turned into messages and exit codes, never a
    traceback (an unexpected exception, a bug, too: its traceback goes to a crash report file);
    with --json, every failure is one JSON object on stdout."""
    as_json = bool(ctx.params.get("as_json"))
    try:
        return invoke(ctx)
    except DeckgenError as exc:
        fail(exc.findings, exc.exit_code, as_json)
    except BrokenPipeError:    # `deckgen ... | head`: the reader has gone, nothing left to say
        _quiet_stdout()
        sys.exit(1)
    except OSError as exc:     # a full disk, a folder that cannot be written
        fail([error("file", "", f"cannot be written or read: {exc.strerror or exc}",
                    file=str(exc.filename) if exc.filename else None)], 2, as_json)
    except KeyboardInterrupt:
        fail([error("interrupted", "", "files already written are complete, the rest were not written")],
             130, as_json)
    except (click.ClickException, click.exceptions.Exit, click.Abort):
        raise                  # usage errors and exits: click's own handling
    except Exception as exc:   # a bug in deckgen itself, not in what it was given
        if os.environ.get("DECKGEN_DEBUG"):
            raise
        fail([internal_error(exc, f"{ctx.command_path} {ctx.params}")], INTERNAL, as_json)


INTERNAL = 70       # sysexits' EX_SOFTWARE: deckgen failed, not the input


def internal_error(exc: BaseException, command: str) -> Finding:
    """The finding for an unexpected exception: what happened in one line, the traceback kept in
    a crash report in the temporary folder (its path in the hint), never printed at the user."""
    import tempfile
    import time
    import traceback

    from deckgen import __version__

    text = (f"deckgen {__version__}, Python {sys.version.split()[0]}, {sys.platform}\n"
            f"command: {command}\n\n" + "".join(traceback.format_exception(exc)))
    where = "the traceback could not be saved to a file"
    with contextlib.suppress(OSError):
        fd, path = tempfile.mkstemp(prefix=f"deckgen-crash-{time.strftime('%Y%m%d-%H%M%S')}-", suffix=".txt")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        where = f"the traceback is in {path}"
    return error("internal", "", f"deckgen stopped on an internal error ({type(exc).__name__}: {exc}); this is a "
                 "bug in deckgen, not a problem with your deck or files",
                 hint=f"{where}; attach it to a bug report, or run again with DECKGEN_DEBUG=1 to print it here")


class Command(click.Command):
    """A deckgen command: its body's errors handled by :func:`run_handled`, the typed options
    (:mod:`deckgen.cli.params`) built inside that handling too."""

    def invoke(self, ctx: click.Context) -> Any:
        return run_handled(ctx, super().invoke)


class Group(click.Group):
    """A deckgen command group whose own body (``deckgen cache``) is handled like a command's."""

    command_class = Command

    def invoke(self, ctx: click.Context) -> Any:
        return run_handled(ctx, super().invoke)


class Main(click.Group):
    """The ``deckgen`` group: with ``--json`` anywhere on the command line, a usage error (an
    unknown option, a bad value) is one JSON object on stdout too.

    Its commands are loaded when first asked for: ``commands_from`` maps each command's name to
    a function importing the module that makes it and returning that module's commands, so a
    command imports only its own module. :attr:`commands` loads every one."""

    def __init__(self, *args: Any, commands_from: Mapping[str, Callable[[], Iterable[click.Command]]] | None = None,
                 **kwargs: Any) -> None:
        self.commands_from = dict(commands_from or {})
        self.loaded: dict[str, click.Command] = {}
        super().__init__(*args, **kwargs)

    @property
    def commands(self) -> MutableMapping[str, click.Command]:
        """Every command, each module loaded, in ``commands_from``'s order (then those added)."""
        for name in self.commands_from:
            self._load(name)
        self.loaded = {**{name: self.loaded[name] for name in self.commands_from}, **self.loaded}
        return self.loaded

    @commands.setter
    def commands(self, value: MutableMapping[str, click.Command]) -> None:
        self.loaded = dict(value)

    def _load(self, name: str) -> click.Command | None:
        if name not in self.loaded and name in self.commands_from:
            self.loaded[name] = next(cmd for cmd in self.commands_from[name]() if cmd.name == name)
        return self.loaded.get(name)

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        """As click's (the group is not chained), without loading the other commands; a command
        added under a lazy one's name replaces it."""
        name = name or cmd.name
        if name is None:
            raise TypeError("Command has no name.")
        self.commands_from.pop(name, None)
        self.loaded[name] = cmd

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return self._load(cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands_from, *self.loaded})

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, **extra: Any) -> Any:
        # When the interpreter ends, the objects alive now are left out of its last garbage
        # collections: a build's (decks, faces, fonts, ReportLab, Pillow) took it ~0.1 s to walk
        # after the work was done, with every output already written and closed.
        atexit.unregister(gc.freeze)
        atexit.register(gc.freeze)
        argv = list(sys.argv[1:] if args is None else args)
        if "--json" not in argv or not standalone_mode:
            return super().main(argv, prog_name, complete_var, standalone_mode, **extra)
        try:
            rv = super().main(argv, prog_name, complete_var, standalone_mode=False, **extra)
        except click.ClickException as exc:
            fail([error("usage", _usage_where(exc), exc.format_message())], exc.exit_code, True)
        except click.Abort:
            fail([error("usage", "", "aborted")], 1, True)
        sys.exit(rv if isinstance(rv, int) else 0)


def _usage_where(exc: click.ClickException) -> str:
    """The option or argument a usage error is about (its long form: --games, DECK), or ""."""
    param = getattr(exc, "param", None)
    if isinstance(param, click.Option):
        return max(param.opts, key=len)
    if param is not None:
        return str(param.human_readable_name)
    return str(getattr(exc, "option_name", None) or "")


def paths_width(paths: Iterable[object], least: int = 0) -> int:
    """A column as wide as its longest path, so long paths keep the columns after them aligned."""
    return max([least, *(len(str(p)) for p in paths)])


def counted(n: int, noun: str) -> str:
    """``1 file``, ``3 files``: a count and its noun (a regular English plural) for summary lines."""
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


def size_text(n: int) -> str:
    """A file size for a summary line: ``12 kB`` or ``1.3 MB``."""
    return f"{n / 1e6:.1f} MB" if n >= 1e5 else f"{n / 1e3:.0f} kB"


class Progress:
    """A click progress bar driven by the core's ``progress(label, done, total)`` callbacks."""

    def __init__(self, enabled: bool = True):
        self.enabled = enabled and sys.stderr.isatty()
        self.bar: ProgressBar[int] | None = None
        self.label: str | None = None

    def __call__(self, label: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        if self.bar is None or label != self.label:
            self.close()
            self.label = label
            self.bar = click.progressbar(length=total, label=label, file=sys.stderr, show_pos=True)
            self.bar.__enter__()
        self.bar.length = total              # a build finds more to do as it goes
        self.bar.update(done - self.bar.pos)
        if done >= total:
            self.close()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None
