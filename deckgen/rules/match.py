"""A whole game to the target score: hands in a row, the deal passing on, scores added up."""

from __future__ import annotations

from deckgen.rules.agents import Agent, make_agent
from deckgen.rules.engine import Game
from deckgen.rules.state import CAPPED, FINISHED
from deckgen.rules.table import Table


def play_match(table: Table, n_players: int, seed=1, agent: str | Agent = "random", max_hands: int = 500) -> dict:
    """Play hands until someone reaches the deck's target score (``scoring.target``).

    Only the winner of a hand scores (the cards left in the other hands, plus the knock-out
    bonus); a hand that stalls or is capped scores nothing. The dealer moves one seat on each
    hand. Returns the final scores, the winner (highest total), hands played and the outcome."""
    agents = make_agent(agent) if isinstance(agent, str) else agent
    scores = [0] * n_players
    dealer = n_players - 1
    hands = 0
    while hands < max_hands:
        g = Game(table, n_players, f"{seed}:hand:{hands}", agents, record=False, dealer=dealer).run()
        hands += 1
        if g.outcome == FINISHED:
            scores[g.winner] += g.score
        if max(scores) >= table.target:
            best = max(scores)
            return {"outcome": FINISHED, "winner": scores.index(best), "scores": scores, "hands": hands}
        dealer = (dealer + 1) % n_players
    return {"outcome": CAPPED, "winner": None, "scores": scores, "hands": hands}
