"""Running a deck's rulebook templates in a child process, within a memory and a time limit.

The sandbox (:mod:`deckgen.rulebook.env`, :mod:`deckgen.rulebook.bounds`) refuses every step
it can foresee would be too large or too long, and a timer stops a template that loops. What no
check inside Python can stop is one step that is larger or longer than foreseen: a ``str()`` of
an odd value, one C call that runs for minutes. So the templates run in a forked child
(:func:`deckgen.probe.run`) with an address-space limit of :data:`~deckgen.rulebook.env.MAX_MEMORY`
beyond what deckgen had mapped, killed :data:`~deckgen.rulebook.env.GRACE` seconds after their
:data:`~deckgen.rulebook.env.MAX_SECONDS`. Going over either is an error finding, as every other
template failure is.

What comes back is plain data (JSON): the text, and what the templates named and explained
(:class:`~deckgen.rulebook.context.Recorder`). deckgen's own templates are compiled here first,
once per process (:func:`~deckgen.rulebook.env.warm`), so a child only compiles the deck's own.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from typing import Any

from deckgen import probe
from deckgen.errors import DeckgenError, Finding, error
from deckgen.model import Deck
from deckgen.rulebook import env as rb_env
from deckgen.rulebook.bounds import BoundedEnvironment
from deckgen.rulebook.context import Block, Recorder, template_globals

Outcome = tuple["str | None", Recorder, list[Finding]]   # (text, what it named, findings)


def render(deck: Deck, langs: list[str]) -> dict[str, Outcome]:
    """Each language's (text, what it named, findings): the text is None when the templates
    failed, and the findings then say where and why. DeckgenError for a deck whose templates
    cannot be looked up (a language without templates, a template folder outside the deck, an
    old jinja2).

    The languages run one after the other in one child, each within its own time: when the
    child does not come back, the language it was running gets the finding, and the languages
    after it run in another child; so do they after a language that ran out of memory (its
    child's memory is spent, whether the child was killed or caught it)."""
    from deckgen.rulebook import describe  # noqa: F401  (what the helpers import, imported before the fork)

    prepared = {lang: _prepare(deck, lang) for lang in langs}
    try:
        data = probe.run(_run, prepared, seconds=rb_env.MAX_SECONDS + rb_env.GRACE, memory=rb_env.MAX_MEMORY,
                         output=probe.OUTPUT, laps=len(langs))
        failure = None
    except probe.Failed as exc:
        data, failure = exc.output, exc
    out: dict[str, Outcome] = {}
    for line in data.split(b"\n")[:-1]:               # whole lines only: a killed child may leave half of one
        result = json.loads(line)
        if "raise" in result:
            raise DeckgenError([Finding(**f) for f in result["raise"]])
        out[result["lang"]] = _received(result, prepared[result["lang"]][1])
    left = [lang for lang in langs if lang not in out]
    if failure is not None and left:
        environment, rec = prepared[left[0]]
        out[left[0]] = (None, rec, [_failed(failure, environment)])
        left = left[1:]
    if left and len(left) < len(langs):      # the child stopped early: the others in a child of their own
        out.update(render(deck, left))
    return out


def _prepare(deck: Deck, lang: str) -> tuple[BoundedEnvironment, Recorder]:
    """The sandbox of one language with the helpers bound to its recorder; deckgen's own
    templates compiled (here: they are trusted)."""
    environment = rb_env.environment(deck, lang)
    rec = Recorder(deck, lang)
    environment.globals.update(template_globals(rec))
    rb_env.warm(deck, lang)
    return environment, rec


def _run(prepared: dict[str, tuple[BoundedEnvironment, Recorder]]) -> Iterator[bytes]:
    """In the child: run each language's templates; each outcome as a line of JSON."""
    for lang, (environment, rec) in prepared.items():
        entry = None
        try:
            template = environment.get_template(rb_env.ENTRY)
            entry = template.filename
            text = rb_env.Budget().render(template)   # time and output budget: a looping template is an error
        except DeckgenError as exc:
            yield _json({"raise": [dataclasses.asdict(f) for f in exc.findings]})
            return
        except Exception as exc:  # any failure inside a template: report it with its file and line
            found = rb_env.template_finding(exc, entry, environment.globals)
            yield _json({"lang": lang, "failed": [dataclasses.asdict(found)]})
            if isinstance(exc, MemoryError):    # this child's memory is spent: the next language gets a new one
                return
            continue
        yield _json({"lang": lang, "text": text, "refs": rec.refs, "explained": rec.explained,
                     "findings": [dataclasses.asdict(f) for f in rec.findings],
                     "blocks": [[b.name, list(b.args)] for b in rec.blocks]})


def _json(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode("utf-8") + b"\n"     # one line: JSON escapes line breaks


def _received(data: dict[str, Any], rec: Recorder) -> Outcome:
    if "failed" in data:
        return None, rec, [Finding(**f) for f in data["failed"]]
    rec.refs = [(kind, ref, file, line) for kind, ref, file, line in data["refs"]]
    rec.explained = {k: (file, line) for k, (file, line) in data["explained"].items()}
    rec.findings = [Finding(**f) for f in data["findings"]]
    rec.blocks = [Block(name, tuple(args)) for name, args in data["blocks"]]
    return str(data["text"]), rec, []


def _failed(exc: probe.Failed, environment: BoundedEnvironment) -> Finding:
    """The templates' process did not come back: out of time, out of memory, or crashed."""
    try:
        entry = environment.loader.get_source(environment, rb_env.ENTRY)[1] if environment.loader else None
    except Exception:            # the entry template itself cannot be read: the child said so, or it is gone
        entry = None
    if exc.kind == "time":
        message = f"the templates ran longer than {rb_env.MAX_SECONDS:g} s (one step of theirs did not end)"
        hint = "a rulebook's templates may loop over the deck, not without end"
    elif exc.kind == "memory":
        message = f"the templates used more than {rb_env.MAX_MEMORY // (1024 * 1024)} MB of memory"
        hint = "a template that builds ever more texts or lists?"
    else:
        message = f"the templates could not be run: they {exc.reason}"
        hint = None
    return error("template-budget", "rulebook", message, file=entry, hint=hint)
