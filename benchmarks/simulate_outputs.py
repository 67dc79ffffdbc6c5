"""Fingerprints of the engine's outputs on the three bundled decks, to compare two checkouts.

Not a timing: it prints one digest per output (the ``simulate`` report, the per-game records,
the recorded logs of whole hands, ``simulate --match``) for each bundled deck under three sets
of rule options and both bundled bots, every one from fixed seeds. Run it in each checkout and
diff the two listings; ``--dump FILE`` also writes the outputs themselves as JSON.

    .venv/bin/python benchmarks/simulate_outputs.py [--dump outputs.json]
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json

from deckgen import manifest
from deckgen.rules.bots import make as make_agent
from deckgen.rules.engine import Game
from deckgen.rules.match import simulate_matches
from deckgen.rules.simulate import PlayOptions, play_record, simulate
from deckgen.rules.table import compile_deck

VARIANTS = {
    "classic": [{}, {"stacking": "same-kind", "jump_in": True, "seven_zero": True},
                {"challenge": False, "wild_draw_four_legal": "always", "no_playable_card": "draw-until-playable"}],
    "no-mercy": [{}, {"stacking": "off", "mercy_limit": 0}, {"two_player_reverse_draw": "opponent", "jump_in": True}],
    "flex-spectrum": [{}, {"power_cards": False, "stacking": "equal-or-higher"},
                      {"challenge": False, "duel_penalty_max": 4, "jump_in": True}],
}


def outputs() -> dict[str, str]:
    out: dict[str, str] = {}
    for name, variants in VARIANTS.items():
        base = manifest.load_deck(name)
        for vi, options in enumerate(variants):
            deck = dataclasses.replace(base, rule_options=base.rule_options.replace(**options))
            table = compile_deck(deck)
            for agent in ("random", "greedy"):
                rep = simulate(deck, [2, 3, 4, 6], PlayOptions(games=25, seed=11, agent=agent, workers=1))
                out[f"sim/{name}/{vi}/{agent}"] = json.dumps(rep.to_json(), sort_keys=True)
                recs = [repr(play_record(table, make_agent(agent), 5, n, i)) for n in (2, 4, 5) for i in range(8)]
                out[f"rec/{name}/{vi}/{agent}"] = "\n".join(recs)
                logs = []
                for n in (2, 3, 4):
                    for i in range(4):
                        g = Game(table, n, f"log:{n}:{i}", make_agent(agent), record=True).run()
                        logs.append(repr(g.log) + repr((g.outcome, g.winner, g.score, g.turns, g.decisions)))
                out[f"log/{name}/{vi}/{agent}"] = "\n".join(logs)
            m = simulate_matches(deck, [2, 4], PlayOptions(games=4, seed=3, agent="greedy", workers=1))
            out[f"match/{name}/{vi}"] = json.dumps(m.to_json(), sort_keys=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dump", help="also write the outputs as JSON to this file")
    a = ap.parse_args()
    out = outputs()
    if a.dump:
        with open(a.dump, "w", encoding="utf-8") as fh:
            json.dump(out, fh, indent=0, sort_keys=True)
    for key, text in out.items():
        print(hashlib.sha256(text.encode()).hexdigest()[:12], key)


if __name__ == "__main__":
    main()
