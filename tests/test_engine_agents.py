"""The two bundled players, and that any Agent plugs in."""

from deckgen.rules.agents import Agent, GreedyAgent, RandomAgent
from deckgen.rules.bots import AGENTS
from deckgen.rules.bots import make as make_agent
from deckgen.rules.decision import Decision, DecisionKind
from deckgen.rules.engine import Game
from deckgen.rules.scenario import face, move, situation, table_for
from deckgen.rules.state import FINISHED


def test_greedy_keeps_wilds_and_dumps_high_points():
    g = situation("classic", [["wild", "red-2", "red-9"], ["yellow-1", "yellow-2"], ["green-1", "green-3"]],
                  top="red-5", agents=[GreedyAgent()] * 3)
    g.turn()
    assert g.discard[-1] == face(g.table, "red-9")


def test_greedy_attacks_the_leader_sitting_next():
    g = situation("classic", [["red-draw-two", "red-9"], ["yellow-1"], ["green-1", "green-3", "green-4"]],
                  top="red-5", draw=["blue-1", "blue-2"], agents=[GreedyAgent()] * 3)
    g.turn()
    assert g.discard[-1] == face(g.table, "red-draw-two") and len(g.hands[1]) == 3


def test_greedy_targets_the_leader():
    g = situation("flex-spectrum", [["wild-flex-targeted-draw-two", "blue-9"], ["green-1", "green-2", "green-3"],
                                    ["cyan-1"]], top="red-4", draw=["lime-1", "lime-2"], agents=[GreedyAgent()] * 3)
    g.turn()
    assert len(g.hands[2]) == 3


def test_random_agent_plays_only_legal_moves_and_uses_the_game_rng():
    g = situation("classic", [["red-1", "red-2", "blue-3"], ["yellow-1"]], top="red-5")
    a = RandomAgent()
    d = Decision(0, DecisionKind.PLAY, tuple(g.legal_moves(0)), True)
    picks = {a.decide(d, g.observation(0), g.rng) for _ in range(50)}
    assert picks == {move(g.table, "red-1"), move(g.table, "red-2")}


class AlwaysFirst(Agent):
    name = "first"

    def play(self, d, o, rng):
        return d.options[0]


def test_any_agent_plugs_in():
    t = table_for("classic")
    g = Game(t, 3, 7, [AlwaysFirst(), make_agent("greedy"), make_agent("random")]).run()
    assert g.outcome == FINISHED
    assert set(AGENTS) == {"random", "greedy", "expert"}     # one registry, every bot in it
