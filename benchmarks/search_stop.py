"""How much of its budget the expert's search spends, and what stopping early changes.

Plays games with one expert among greedy players, and at every searched decision plays out the
whole budget (every candidate on every deal, as the search did before it stopped early),
recording each candidate's scores. Then replays those scores through the search's own stopping
rules (``expert.settle``: ``_may_win``, and ``_race`` every ``LOOK`` deals) and prints the share of play-outs they
play and the answers that differ from the whole budget's, with the difference of their mean
scores. Run:

    .venv/bin/python benchmarks/search_stop.py [--deck classic] [--think 512] [--games 40] [--players 4]

docs/expert.md quotes it for classic (40 games) and Flex Spectrum (20) at think 512, classic at
think 48 (60) and Flex Spectrum at think 6 (150).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from typing import Any, ClassVar

from deckgen import manifest
from deckgen.rules import expert as X
from deckgen.rules.agents import GreedyAgent
from deckgen.rules.decision import Decision, DecisionKind, Observation
from deckgen.rules.engine import Game
from deckgen.rules.table import compile_deck

Recorded = tuple[int, list[list[float]], float]      # the rule of thumb's candidate, the scores, the confidence


class Recording(X.ExpertAgent):
    """The expert, its every search playing the whole budget; it answers as that search does."""

    searches: ClassVar[list[Recorded]] = []

    def _search(self, d: Decision, o: Observation, rng: random.Random,
                cands: Sequence[tuple[int | None, int | None]]) -> tuple[int | None, int | None]:
        if len(cands) == 1 or (len(o.hand) == 1 and d.kind is DecisionKind.PLAY
                               and any(c[0] is not None for c in cands)):
            return super()._search(d, o, rng, cands)
        base = self._prior_choice(d, o, rng, cands)
        rounds = max(2, self.think // len(cands))
        confidence = X.CONFIDENCE * max(0.0, 1.0 - self.think / X.TRUST_THINK)
        assert self.memory is not None
        deal = X.sampler(o, self.memory)
        scores: list[list[float]] = [[] for _ in cands]
        for _ in range(rounds):
            world = X.imagine(o, d, deal(rng), rng.getrandbits(64))
            seed = rng.getrandbits(64)
            for i, (answer, color) in enumerate(cands):
                scores[i].append(X.rollout(world, o.player, answer, color, seed))
        Recording.searches.append((base, scores, confidence))
        return cands[_answer(base, scores, list(range(len(cands))), rounds, confidence)]


def _answer(base: int, scores: list[list[float]], rivals: list[int], rounds: int, confidence: float) -> int:
    """What the whole budget answers (the reference the replay is held to)."""
    best, gain = base, 0.0
    for i in rivals:
        if i == base:
            continue
        mean, error = X._paired(scores[i][:rounds], scores[base][:rounds])
        if mean > gain and mean > confidence * error:
            best, gain = i, mean
    return best


def replay(base: int, full: list[list[float]], confidence: float) -> tuple[int, int]:
    """The answer and the play-outs of the search as it runs (expert.settle), on these recorded
    scores."""
    deals = iter(range(len(full[0])))

    def play(which: Sequence[int]) -> list[float]:
        k = next(deals)
        return [full[i][k] for i in which]

    return X.settle(len(full), base, len(full[0]), confidence, play)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deck", default="classic")
    ap.add_argument("--think", type=int, default=X.TRUST_THINK)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--players", type=int, default=4)
    a = ap.parse_args()
    table = compile_deck(manifest.load_deck(a.deck))
    for i in range(a.games):
        bots: list[Any] = [GreedyAgent()] * a.players
        bots[i % a.players] = Recording(a.think)
        Game(table, a.players, f"search-stop:{i}", bots, record=True).run()
    used = full = 0
    changed: list[float] = []
    for base, scores, confidence in Recording.searches:
        rounds = len(scores[0])
        whole = _answer(base, scores, list(range(len(scores))), rounds, confidence)
        answer, spent = replay(base, scores, confidence)
        used += spent
        full += rounds * len(scores)
        if answer != whole:
            changed.append((sum(scores[whole]) - sum(scores[answer])) / rounds)
    n = len(Recording.searches)
    print(f"{a.deck}, think {a.think}, {a.games} games, {n} searches: the search as it runs plays "
          f"{100 * used / max(1, full):.1f} % of the play-outs; {len(changed)} answers differ from the whole "
          f"budget's (mean score of the whole budget's answer minus the other's: "
          f"{', '.join(f'{x:+.4f}' for x in changed) or 'none'})")


if __name__ == "__main__":
    main()
