"""``deckgen tune DECK``: search the counts and rule options that make a deck meet its targets.

- :mod:`~deckgen.tune.space`: targets and variables (names, parsing, defaults);
- :mod:`~deckgen.tune.evaluate`: a candidate deck and its games, with the sequential statistics;
- :mod:`~deckgen.tune.search`: Optuna's study (seeded, resumable from its file);
- :mod:`~deckgen.tune.manifest`: the chosen candidate as a new manifest beside the original, and its diff;
- :mod:`~deckgen.tune.pdf`: the page in the balance report's style.

Everything here is checked before any game is played (:func:`prepare`); ``docs/tune.md`` is the
user's page.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from deckgen.datafile import parse_toml, read_text
from deckgen.errors import DeckgenError, DeckHasErrors, error
from deckgen.model import Deck
from deckgen.progress import Progress
from deckgen.runner import Cluster
from deckgen.tune.evaluate import EXPERT_THINK, LOOKS, Figure, Plan
from deckgen.tune.search import Candidate, Limits, Search, best, trade_off
from deckgen.tune.space import TARGETS, Target, Variable, checked

TURN_SECONDS = 2e-5           # a random player's turn, at most, on one core: what a budget is checked against
EXPERT_GAME_SECONDS = 0.5     # ... an expert's game at think 6 among greedy players
DEFAULT_TRIALS = 40


@dataclass(frozen=True)
class TuneOptions:
    targets: tuple[str, ...] = ()
    variables: tuple[str, ...] = ()
    seed: int = 1
    trials: int = DEFAULT_TRIALS
    budget: str = "10m"
    players: tuple[int, ...] | None = None      # default: the fewest, 4 and the most
    study: Path | None = None                   # default: output/<deck>/<deck>-tune-study.log
    output: Path | None = None                  # the new manifest (default: beside the original)
    workers: int | None = None
    cluster: str | Cluster | None = None


@dataclass(frozen=True)
class Prepared:
    deck: Deck
    data: dict[str, Any]
    text: str
    targets: list[Target]
    variables: list[Variable]
    plan: Plan
    seconds: float
    study: Path


def parse_budget(text: str) -> float:
    """'90s', '10m', '1.5h' or a number of seconds -> seconds; DeckgenError (exit 2) otherwise."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(s|m|min|h)?\s*", text or "")
    if not m:
        raise DeckgenError(error("tune", "--budget", f"'{text}' is not a time", hint="e.g. --budget 90s, 10m or 1h"))
    value = float(m.group(1)) * {"s": 1, None: 1, "m": 60, "min": 60, "h": 3600}[m.group(2)]
    if not math.isfinite(value) or value <= 0:
        raise DeckgenError(error("tune", "--budget", f"'{text}' is no time at all", hint="e.g. --budget 10m"))
    return value


def default_players(deck: Deck) -> tuple[int, ...]:
    return tuple(sorted({deck.players_min, deck.players_max} | ({4} & set(range(deck.players_min, deck.players_max + 1)))))


def one_evaluation(deck: Deck, targets: Sequence[Target], players: Sequence[int]) -> float:
    """Seconds one candidate's first look takes at least (to refuse a budget that cannot hold one)."""
    from deckgen.verdict import classic_median

    turns = LOOKS[0] * sum(classic_median("random", n) for n in players)
    expert = any(t.name == "expert_edge" for t in targets)
    return turns * TURN_SECONDS + (8 * EXPERT_GAME_SECONDS * EXPERT_THINK / 6 if expert else 0.0)


def prepare(ref: str | Path, options: TuneOptions) -> Prepared:
    """The deck, its targets and variables, all checked before any game: DeckgenError (exit 2) for
    bad targets, variables, ranges, budgets; DeckHasErrors (exit 1) for a manifest with errors."""
    from deckgen import manifest, outputs
    from deckgen.check import cards_to_deal, static_checks

    got = manifest.load(ref)
    if got.deck is None or any(f.is_error for f in got.findings):
        raise DeckHasErrors([f for f in got.findings if f.is_error] or got.findings)
    deck = got.deck
    static = [f for f in static_checks(deck) if f.is_error]
    if static:
        raise DeckHasErrors(static)
    assert got.path is not None            # a deck was read from a file
    text = read_text(got.path)
    data = parse_toml(text, str(got.path))
    targets, variables = checked(options.targets, options.variables, deck)
    players = tuple(options.players or default_players(deck))
    variables = _dealable(deck, variables, cards_to_deal(deck, max(players)))
    problems = [f for f in (_undealable(deck, v, players, cards_to_deal) for v in variables) if f]
    low_total = _total(deck, {v.kind: v.values[0] for v in variables if v.kind})
    if not problems and low_total < cards_to_deal(deck, max(players)):
        problems.append(error("tune", "--vary", f"with every count at its lowest the deck has {low_total} cards, too "
                              f"few to deal to {max(players)} players", hint="raise the lowest counts"))
    seconds = parse_budget(options.budget)
    need = one_evaluation(deck, targets, players)
    if seconds < need:
        problems.append(error("tune", "--budget", f"{options.budget} is less than one candidate's first games take "
                              f"(about {need:.1f} s)", hint=f"give at least --budget {math.ceil(need)}s"))
    if options.trials < 1:
        problems.append(error("tune", "--trials", "at least one candidate", hint="e.g. --trials 40"))
    if problems:
        raise DeckgenError(problems)
    study = options.study or outputs.tune_files(deck.id)[2]
    plan = Plan(players, options.seed, options.workers, options.cluster)
    return Prepared(deck, data, text, targets, variables, plan, seconds, Path(study))


def _total(deck: Deck, counts: dict[str | None, Any]) -> int:
    return sum(counts.get(c.kind, c.count) for c in deck.cards)


def _dealable(deck: Deck, variables: list[Variable], need: int) -> list[Variable]:
    """The counts whose range deckgen chose (none was written) narrowed from below to counts that
    still deal the largest table: each alone with the others as written, then all at their lowest
    together, raising the lowest counts one step at a time (a written range is left as it is, and
    reported when it cannot deal)."""
    out = [replace(v, values=tuple(x for x in v.values if _total(deck, {v.kind: x}) >= need) or v.values)
           if v.kind and not v.own_range else v for v in variables]
    while _total(deck, {v.kind: v.values[0] for v in out if v.kind}) < need:
        movable = [i for i, v in enumerate(out) if v.kind and not v.own_range and len(out[i].values) > 2]
        if not movable:
            break
        for i in movable:
            out[i] = replace(out[i], values=out[i].values[1:])
    return out


def _undealable(deck: Deck, v: Variable, players: Sequence[int], need: Any) -> Any:
    """An error when this count, at its lowest and the others as written, cannot deal the largest table."""
    if v.kind is None:
        return None
    most = max(players)
    if _total(deck, {v.kind: v.values[0]}) >= need(deck, most):
        return None
    ok = next((x for x in v.values if _total(deck, {v.kind: x}) >= need(deck, most)), None)
    return error("tune", "--vary", f"'{v.name}' at {v.values[0]} leaves too few cards to deal to {most} players",
                 hint=f"start its range at {ok} or more" if ok is not None else "no count in its range deals them")


@dataclass
class TuneResult:
    """A finished search: the best candidate, the trade-off, the manifest written."""

    deck: Deck
    targets: list[Target]
    variables: list[Variable]
    plan: Plan
    search: Search
    chosen: Candidate | None
    front: list[Candidate]
    written: Path | None = None
    diff: str = ""
    study: Path | None = None
    unmet: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        s = self.search
        return {
            "deck": self.deck.id, "seed": self.plan.seed, "players": list(self.plan.players),
            "targets": [t.text() for t in self.targets], "variables": {v.name: list(v.values) for v in self.variables},
            "candidates": len(s.candidates), "resumed": s.resumed, "skipped": s.skipped, "skipped_examples": s.skipped_why,
            "games": s.games, "seconds": round(s.seconds, 1), "budget_ran_out": s.budget_out,
            "best": self.chosen.to_json() if self.chosen else None,
            "trade_off": [c.to_json() for c in self.front], "unmet": self.unmet,
            "manifest": str(self.written) if self.written else None, "diff": self.diff,
            "study": str(self.study) if self.study else None,
            "all": [c.to_json() for c in s.candidates],
        }


def tune(ref: str | Path, options: TuneOptions = TuneOptions(), progress: Progress | None = None) -> TuneResult:
    """Check, search, and write the chosen candidate's manifest (never over the original)."""
    from deckgen.tune import search

    p = prepare(ref, options)

    def tick(what: str, done: int, total: int | None = None) -> None:
        if progress:
            progress("candidates" if what == "candidates" else "games", done, total or max(done, 1))

    problem = search.Problem(p.deck, p.data, p.targets, p.variables, p.plan)
    found = search.run(problem, p.study, Limits(options.trials, p.seconds), tick if progress else None)
    chosen = best(found.candidates)
    result = TuneResult(p.deck, p.targets, p.variables, p.plan, found, chosen, trade_off(found.candidates),
                        study=p.study, unmet=unmet(p.targets, found.candidates))
    if chosen is not None:
        _write_manifest(result, p, options.output)
    return result


def unmet(targets: Sequence[Target], candidates: Sequence[Candidate]) -> list[str]:
    """For each target no candidate met: which, and how close the nearest came."""
    out = []
    for t in targets:
        key = t.text()
        figs = [(c.result.figures[key], c) for c in candidates if key in c.result.figures]
        if figs and not any(f.met for f, _ in figs):
            f, c = min(figs, key=lambda x: x[0].shortfall)
            out.append(f"no candidate met {key}: the nearest, candidate {c.number}, gave {_fmt(t, f.value)} "
                       f"at {f.players} players ({_fmt(t, f.low)}-{_fmt(t, f.high)})")
    return out


def _fmt(t: Target, x: float) -> str:
    m = TARGETS[t.name]
    if m.share:
        return f"{x * 100:.1f}{m.unit or '%'}"
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.3g}"


def _write_manifest(result: TuneResult, p: Prepared, output: Path | None) -> None:
    """The chosen candidate beside the original (unless it changes nothing), checked to read back as played."""
    from deckgen import outputs
    from deckgen.atomic import make_folder, write_text
    from deckgen.tune.evaluate import apply, candidate_deck
    from deckgen.tune.manifest import beside, diff, edited

    chosen = result.chosen
    assert chosen is not None
    if chosen.change == 0:
        return
    source = Path(p.deck.source) if p.deck.source else Path(f"{p.deck.id}.toml")
    target = output or beside(source, outputs.deck_folder(p.deck.id) / "x.toml")
    if target.exists() and target.resolve() == source.resolve():
        raise DeckgenError(error("tune", "-o", "the tuned manifest would overwrite the original",
                                 hint="give another file with -o"))
    text = edited(p.text, chosen.changes, p.variables, str(source))
    played, _ = candidate_deck(apply(p.data, chosen.changes, p.variables), source)
    back, why = candidate_deck(parse_toml(text, str(target)), source)
    if played is None or back is None or repr(_placeless(back)) != repr(_placeless(played)):
        raise DeckgenError(error("tune", str(target), "the edited manifest does not read back as the candidate played"
                                 + (f" ({why})" if why else ""), hint="please report this with the manifest"))
    make_folder(target.parent)
    write_text(target, text)
    result.written = target
    result.diff = diff(p.text, text, str(source), str(target))


def _placeless(deck: Deck) -> Deck:
    import dataclasses

    return dataclasses.replace(deck, source=None, template_dir=None, fonts=None)


def to_text(r: TuneResult) -> str:
    """The result for people: what was searched, the best candidate with its figures, the trade-off."""
    s = r.search
    lines = [f"{r.deck.id}: {len(s.candidates)} candidates evaluated ({s.resumed} from the study file), "
             f"{s.skipped} skipped (the manifest's own rules refuse them), {s.games:,} games in {s.seconds:.0f} s; "
             f"seed {r.plan.seed}; {', '.join(map(str, r.plan.players))} players"]
    if s.budget_out:
        lines.append("the time budget ran out before every candidate was tried (the study file keeps them: run the "
                     "same command again to go on)")
    lines.append("targets: " + "; ".join(t.text() for t in r.targets))
    if r.chosen is None:
        lines.append("no candidate could be evaluated")
        return "\n".join(lines)
    c = r.chosen
    missed, n = sum(1 for f in c.result.figures.values() if not f.met), len(c.result.figures)
    unclear = sum(1 for t in r.targets if not _clear(t, c.result.figures[t.text()]))
    head = ("best candidate (meets every target)" if c.result.met and not unclear
            else f"best candidate (meets every target, {unclear} of them not clearly)" if c.result.met
            else f"closest candidate (misses {missed} of {n} target{'s' if n != 1 else ''})")
    lines.append(f"{head}: #{c.number}: " + (_changes(r, c) or "the deck as written"))
    lines.extend(_figure_lines(r, c, "  "))
    lines.extend(r.unmet)
    if len(r.front) > 1:
        lines.append("trade-off (no other candidate is better on every target and the change):")
        for o in r.front:
            mark = "meets every target" if o.result.met else "misses " + ", ".join(
                k for k, f in o.result.figures.items() if not f.met)
            lines.append(f"  #{o.number}: {_changes(r, o) or 'the deck as written'} ({mark})")
    if r.written:
        lines.append(f"wrote {r.written}")
        lines.append(r.diff.rstrip())
    elif c.change == 0:
        lines.append("the deck as written is the best candidate: no manifest written")
    return "\n".join(lines)


def _changes(r: TuneResult, c: Candidate) -> str:
    """What the candidate changes in the deck as written ("" for nothing)."""
    from deckgen.tune.search import current_value

    was = {v.name: current_value(r.deck, v) for v in r.variables}
    return ", ".join(f"{k}={v} (was {was[k]})" for k, v in c.changes.items() if v != was[k])


def _figure_lines(r: TuneResult, c: Candidate, indent: str) -> list[str]:
    out = []
    for t in r.targets:
        f = c.result.figures[t.text()]
        out.append(f"{indent}{t.text()}: {_fmt(t, f.value)} at {f.players} players (95 % interval "
                   f"{_fmt(t, f.low)}-{_fmt(t, f.high)}) {'met' if f.met else 'not met'}"
                   + ("" if _clear(t, f) else ", not clearly: its interval reaches past the range (more games would tell)"))
    return out


def _clear(t: Target, f: Figure) -> bool:
    """Whether a figure's interval answers its target either way (else the look budget ended first
    and only the figure itself is on the target's side)."""
    return t.clear(f.low, f.high)


__all__ = ["TuneOptions", "TuneResult", "parse_budget", "prepare", "to_text", "tune"]
