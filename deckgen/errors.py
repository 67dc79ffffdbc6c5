"""deckgen's own errors and findings.

The core never prints and never exits: it returns :class:`Finding` objects (problems
in a deck that is otherwise readable) or raises :class:`DeckgenError` (input that
cannot be used at all). ``deckgen.cli`` turns both into messages and exit codes.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

ERROR = "error"
WARNING = "warning"
NOTE = "note"          # information, e.g. a user preset replacing a bundled one

# Error codes that mean a file could not be used at all, or a command-line option is bad (exit
# code 2, like DeckgenError), even when they are reported among a deck's other findings.
UNUSABLE = frozenset({"file", "toml", "option"})    # a file that cannot be used, a bad command-line option


_UNPRINTABLE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """Text safe to write to a terminal: every control character (an escape sequence's ESC, a
    carriage return, a bidirectional override) shown as ``\\xNN`` / ``\\uNNNN``; line breaks and
    tabs are kept. Every message about a deck goes through here (:meth:`Finding.format`)."""
    return _UNPRINTABLE.sub(_escape, str(text))


def _escape(m: re.Match[str]) -> str:
    code = ord(m.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


@dataclass(frozen=True)
class Finding:
    """One problem, with where it is and what was expected.

    ``where`` is a key path such as ``cards[12].flex.color``; ``file`` is the file
    it was found in (a manifest, palette or template), or ``None``.
    """

    severity: str
    code: str
    where: str
    message: str
    file: str | None = None
    hint: str | None = None
    line: int | None = None

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def location(self) -> str:
        parts = []
        if self.file:
            parts.append(self.file if self.line is None else f"{self.file}:{self.line}")
        if self.where:
            parts.append(self.where)
        return ": ".join(parts)

    def format(self) -> str:
        """The finding as one line for a terminal; control characters from the deck are escaped."""
        loc = self.location()
        text = f"{self.severity}[{self.code}] {loc + ': ' if loc else ''}{self.message}"
        if self.hint:
            text += f" ({self.hint})"
        return printable(text)

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"severity": self.severity, "code": self.code, "where": self.where, "message": self.message}
        if self.file:
            data["file"] = self.file
        if self.line is not None:
            data["line"] = self.line
        if self.hint:
            data["hint"] = self.hint
        return data


def error(code: str, where: str, message: str, *, file: str | None = None, hint: str | None = None,
          line: int | None = None) -> Finding:
    return Finding(ERROR, code, where, message, file=file, hint=hint, line=line)


def warning(code: str, where: str, message: str, *, file: str | None = None, hint: str | None = None,
            line: int | None = None) -> Finding:
    return Finding(WARNING, code, where, message, file=file, hint=hint, line=line)


def note(code: str, where: str, message: str, *, file: str | None = None, hint: str | None = None,
         line: int | None = None) -> Finding:
    return Finding(NOTE, code, where, message, file=file, hint=hint, line=line)


def exit_code(findings: Iterable[Finding]) -> int:
    """0 no errors, 1 the deck has errors, 2 a file it needs could not be used or an option is bad."""
    errors = [f for f in findings if f.is_error]
    if any(f.code in UNUSABLE for f in errors):
        return 2
    return 1 if errors else 0


class DeckgenError(Exception):
    """Input deckgen cannot use (exit code 2), carrying every finding at once."""

    exit_code = 2

    def __init__(self, findings: Finding | Sequence[Finding] | str):
        if isinstance(findings, str):
            findings = [error("input", "", findings)]
        elif isinstance(findings, Finding):
            findings = [findings]
        self.findings: list[Finding] = list(findings)
        super().__init__("\n".join(f.format() for f in self.findings))


class DeckHasErrors(DeckgenError):
    """The deck was read but has errors (exit code 1)."""

    exit_code = 1
    forceable = True      # --force builds it anyway (False: there is no deck to build)


def did_you_mean(word: str, choices: Iterable[str]) -> str | None:
    """A "did you mean" hint for a near miss, or None."""
    choices = list(choices)
    lowered = {c.lower(): c for c in choices}
    if str(word).lower() in lowered:
        return f"did you mean '{lowered[str(word).lower()]}'?"
    close = difflib.get_close_matches(str(word), choices, n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


@dataclass
class Collector:
    """Gathers findings for one file so they can all be reported at once."""

    file: str | None = None
    findings: list[Finding] = field(default_factory=list)

    def error(self, code: str, where: str, message: str, hint: str | None = None, line: int | None = None) -> None:
        self.add(error(code, where, message, file=self.file, hint=hint, line=line))

    def warning(self, code: str, where: str, message: str, hint: str | None = None, line: int | None = None) -> None:
        self.add(warning(code, where, message, file=self.file, hint=hint, line=line))

    def add(self, finding: Finding) -> None:
        """Keep a finding once, however many expanded cards repeat it."""
        if finding not in self.findings:
            self.findings.append(finding)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.is_error]
