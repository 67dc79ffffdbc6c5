"""The search of ``deckgen tune``: Optuna's TPE sampler proposes candidates, :mod:`deckgen.tune.evaluate`
plays them, the study file keeps every evaluation (``docs/tune.md``).

Optuna (a maintained optimisation library, optional extra ``tune``) is asked for candidates in
batches of :data:`BATCH`, always in the same order and told their results in the same order, so
the same seed gives the same candidates and the same best one on any number of cores or on a
cluster. Its journal file is the study: a run stopped by its budget (or by Ctrl-C between
batches) goes on from it with the same command. Each candidate's objective is the sum of its
targets' shortfalls plus a small price per change, so that among candidates that meet every
target the one that changes the deck least wins.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from deckgen.errors import DeckgenError, error
from deckgen.model import Deck
from deckgen.tune.evaluate import Evaluated, Plan, apply, candidate_deck, evaluate
from deckgen.tune.space import Target, Variable

BATCH: Final = 4              # candidates asked for, and played, together
CHANGE_PRICE: Final = 0.01    # objective per unit of change (a count's step over its range, an option changed)
STARTUP: Final = 8            # candidates drawn at random before TPE models the results


@dataclass(frozen=True)
class Candidate:
    """A candidate the search evaluated: its changes, figures, objective, and its number in the study."""

    number: int
    changes: dict[str, Any]
    result: Evaluated
    objective: float
    change: float

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "changes": self.changes, "objective": round(self.objective, 4),
                "change": round(self.change, 4), "meets_every_target": self.result.met, **self.result.to_json()}


@dataclass
class Search:
    """What a search did: every candidate evaluated, the skipped ones, time and games."""

    candidates: list[Candidate] = field(default_factory=list)
    skipped: int = 0
    skipped_why: list[str] = field(default_factory=list)
    games: int = 0
    seconds: float = 0.0
    budget_out: bool = False
    resumed: int = 0          # candidates read back from the study file


def study_name(deck: Deck, targets: Sequence[Target], variables: Sequence[Variable], plan: Plan) -> str:
    """The study's name in its file: the deck's content, the targets, variables, table sizes and seed."""
    import dataclasses

    placeless = dataclasses.replace(deck, source=None, template_dir=None, fonts=None)
    key = json.dumps([repr(placeless), [t.text() for t in targets], [[v.name, list(map(str, v.values))] for v in variables],
                      list(plan.players), plan.seed])
    return "deckgen-tune-" + hashlib.sha256(key.encode()).hexdigest()[:16]


def change_of(changes: Mapping[str, Any], current: Mapping[str, Any], variables: Sequence[Variable]) -> float:
    """How much a candidate changes the deck: each count's steps over its range, 1 per option changed."""
    total = 0.0
    for v in variables:
        new, old = changes[v.name], current[v.name]
        if v.kind is not None:
            total += abs(new - old) / max(1, v.values[-1] - v.values[0])
        else:
            total += new != old
    return total


def _optuna() -> Any:
    try:
        import optuna
    except ImportError:
        raise DeckgenError(error("tune", "tune", "deckgen tune needs the Optuna package",
                                 hint="pip install 'deckgen[tune]'")) from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    return optuna


def open_study(path: Path, name: str, seed: int) -> Any:
    """The study in its journal file (created, or opened to go on from it)."""
    optuna = _optuna()
    from optuna.storages import JournalStorage
    from optuna.storages.journal import JournalFileBackend

    path.parent.mkdir(parents=True, exist_ok=True)
    storage = JournalStorage(JournalFileBackend(str(path)))
    sampler = optuna.samplers.TPESampler(seed=seed, n_startup_trials=STARTUP, constant_liar=True)
    return optuna.create_study(study_name=name, storage=storage, sampler=sampler, direction="minimize",
                               load_if_exists=True)


def _suggest(trial: Any, v: Variable) -> Any:
    if v.integer_range:
        return trial.suggest_int(v.name, v.values[0], v.values[-1])
    return trial.suggest_categorical(v.name, list(v.values))


@dataclass(frozen=True)
class Limits:
    trials: int
    seconds: float


@dataclass(frozen=True)
class Problem:
    """What to search: the deck as read (and its manifest's data), the targets, the variables, how to play."""

    deck: Deck
    data: Mapping[str, Any]
    targets: Sequence[Target]
    variables: Sequence[Variable]
    plan: Plan


def run(problem: Problem, study_path: Path, limits: Limits, progress: Callable[..., None] | None = None) -> Search:
    """Search until ``limits.trials`` candidates are evaluated in the study or ``limits.seconds`` pass."""
    optuna = _optuna()
    deck, variables = problem.deck, problem.variables
    study = open_study(study_path, study_name(deck, problem.targets, variables, problem.plan), problem.plan.seed)
    current = {v.name: current_value(deck, v) for v in variables}
    if not study.get_trials(deepcopy=False) and _as_written(deck, variables, current):
        study.enqueue_trial(current)        # the first candidate of a new study: the deck as written
    search = Search()
    seen: dict[str, Evaluated] = {}
    for t in study.get_trials(deepcopy=False):
        if t.state == optuna.trial.TrialState.COMPLETE and "result" in t.user_attrs:
            got = Evaluated.from_json(t.user_attrs["result"])
            seen[_key(t.params)] = got
            search.candidates.append(_candidate(t.number, dict(t.params), got, current, variables))
        elif t.state == optuna.trial.TrialState.PRUNED:
            search.skipped += 1
    search.resumed = len(search.candidates)
    began = time.perf_counter()
    while _done(study) < limits.trials:
        if time.perf_counter() - began >= limits.seconds:
            search.budget_out = True
            break
        asked = [study.ask() for _ in range(min(BATCH, limits.trials - _done(study)))]
        todo = _new(problem, study, asked, seen, current, search)
        if todo:
            results = evaluate([c for _, _, c in todo], problem.targets, problem.plan,
                               (lambda what, n, base=search.games: progress("games", base + n)) if progress else None)
            for (trial, changes, _), got in zip(todo, results):
                seen[_key(changes)] = got
                search.games += got.games
                _tell(study, trial, changes, got, current, variables, search)
        if progress:
            progress("candidates", _done(study), limits.trials)
    search.seconds = time.perf_counter() - began
    search.candidates.sort(key=lambda c: c.number)
    return search


def _new(problem: Problem, study: Any, asked: list[Any], seen: dict[str, Evaluated], current: Mapping[str, Any],
         search: Search) -> list[tuple[Any, dict[str, Any], Deck]]:
    """The asked candidates still to play: one seen before is told its result again; one the
    manifest's rules refuse is skipped (pruned) and counted."""
    optuna = _optuna()
    path = Path(problem.deck.source) if problem.deck.source else Path(f"{problem.deck.id}.toml")
    todo = []
    for trial in asked:
        changes = {v.name: _suggest(trial, v) for v in problem.variables}
        if _key(changes) in seen:
            _tell(study, trial, changes, seen[_key(changes)], current, problem.variables, search)
            continue
        cand, why = candidate_deck(apply(problem.data, changes, problem.variables), path)
        if cand is None:
            search.skipped += 1
            if why and len(search.skipped_why) < 3:
                search.skipped_why.append(f"{_show(changes)}: {why}")
            study.tell(trial, state=optuna.trial.TrialState.PRUNED)
            continue
        todo.append((trial, changes, cand))
    return todo


def _tell(study: Any, trial: Any, changes: dict[str, Any], got: Evaluated, current: Mapping[str, Any],
          variables: Sequence[Variable], search: Search) -> None:
    trial.set_user_attr("result", got.to_json())
    study.tell(trial, _objective(got, changes, current, variables))
    search.candidates.append(_candidate(trial.number, changes, got, current, variables))


def _done(study: Any) -> int:
    """The candidates the study has taken up: every trial but one still waiting in its queue (the
    deck as written, enqueued, is not yet a candidate until it is asked: counting it, a search of
    one trial asked none)."""
    waiting = _optuna().trial.TrialState.WAITING
    return sum(t.state != waiting for t in study.get_trials(deepcopy=False, states=None))


def _key(changes: Mapping[str, Any]) -> str:
    return json.dumps(sorted(changes.items()), default=str)


def _show(changes: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in changes.items())


def _objective(got: Evaluated, changes: Mapping[str, Any], current: Mapping[str, Any],
               variables: Sequence[Variable]) -> float:
    return got.shortfall + CHANGE_PRICE * change_of(changes, current, variables)


def _candidate(number: int, changes: dict[str, Any], got: Evaluated, current: Mapping[str, Any],
               variables: Sequence[Variable]) -> Candidate:
    return Candidate(number, changes, got, _objective(got, changes, current, variables),
                     change_of(changes, current, variables))


def current_value(deck: Deck, v: Variable) -> Any:
    """A variable's value in the deck as written (a count: its largest entry's)."""
    if v.kind is not None:
        return max(c.count for c in deck.cards if c.kind == v.kind)
    return getattr(deck.rule_options, str(v.option))


def _as_written(deck: Deck, variables: Sequence[Variable], current: Mapping[str, Any]) -> bool:
    """Whether the variables' current values are candidates of the search that make the deck as
    written: each value in its variable's range, and each counted kind's entries of one count."""
    for v in variables:
        if current[v.name] not in v.values:
            return False
        if v.kind is not None and len({c.count for c in deck.cards if c.kind == v.kind}) > 1:
            return False
    return True


def best(candidates: Sequence[Candidate]) -> Candidate | None:
    """Among the candidates that meet every target, the one that changes the deck least (then the
    lowest objective, then the first found); with none, the lowest objective."""
    if not candidates:
        return None
    met = [c for c in candidates if c.result.met]
    if met:
        return min(met, key=lambda c: (c.change, c.objective, c.number))
    return min(candidates, key=lambda c: (c.objective, c.number))


def trade_off(candidates: Sequence[Candidate], keep: int = 6) -> list[Candidate]:
    """The candidates no other beats on every target's shortfall and the change (the Pareto front),
    the best first, at most ``keep``."""
    def costs(c: Candidate) -> tuple[float, ...]:
        return (*(f.shortfall for f in c.result.figures.values()), c.change)

    front = [c for c in candidates
             if not any(all(a <= b for a, b in zip(costs(o), costs(c))) and costs(o) != costs(c) for o in candidates)]
    unique: dict[str, Candidate] = {}
    for c in sorted(front, key=lambda c: (c.objective, c.change, c.number)):
        unique.setdefault(_key(c.changes), c)
    return list(unique.values())[:keep]
