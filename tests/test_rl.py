"""deckgen.rl (docs/rl.md): a deck as a PettingZoo AEC environment. Skipped when the optional
extra is not installed (pip install 'deckgen[rl]')."""

import random

import pytest

from deckgen.errors import DeckgenError
from tests.conftest import ROOT

pettingzoo = pytest.importorskip("pettingzoo", reason="the 'rl' extra (pip install 'deckgen[rl]') is not installed")

from pettingzoo.test import api_test  # noqa: E402

from deckgen.rl import env  # noqa: E402
from deckgen.rules.decision import IllegalAnswer  # noqa: E402
from deckgen.rules.expert import ExpertAgent  # noqa: E402

DECKS = ["classic", "no-mercy", "flex-spectrum", str(ROOT / "decks" / "examples" / "woodland" / "woodland.toml")]


@pytest.mark.parametrize("deck", DECKS)
@pytest.mark.filterwarnings("ignore:Observation")      # a dict with an action mask, as PettingZoo's own card games
def test_passes_pettingzoos_api_test(deck):
    api_test(env(deck, players=4, seed=3), num_cycles=200, verbose_progress=False)


def _random_episode(e, seed):
    rng = random.Random(seed)
    e.reset(seed=seed)
    steps = 0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        legal = [i for i, ok in enumerate(obs["action_mask"]) if ok]
        assert legal, f"{agent} must act but no action is legal"
        e.step(rng.choice(legal))
        steps += 1
    return steps


def test_a_whole_hand_ends_with_plus_one_for_the_winner():
    e = env("classic", players=3)
    e.reset(seed=5)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    rng = random.Random(5)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        e.step(rng.choice([i for i, ok in enumerate(obs["action_mask"]) if ok]))
    assert sorted(totals.values()) == [-1.0, -1.0, 1.0]
    assert not e.agents


def test_same_seed_same_episode():
    a, b = env("no-mercy", players=4, record=True), env("no-mercy", players=4, record=True)
    assert _random_episode(a, 9) == _random_episode(b, 9)
    assert a.game.log == b.game.log and a.game.snapshot() == b.game.snapshot()


def test_the_observation_is_what_the_seat_sees_whether_read_from_the_game_or_its_observation():
    """The vector the environment reads straight from the game (Features.of_game) is the one
    its observation gives (Features.vector), at every step of hands of each deck: the discard
    pile's counts, kept from step to step, through reshuffles and cards slipped under the top."""
    import numpy as np

    reshuffles = 0
    for deck in DECKS:
        e = env(deck, players=4)
        rng = random.Random(4)
        for seed in (4, 5, 6):
            e.reset(seed=seed)
            for agent in e.agent_iter():
                obs, _, terminated, truncated, _ = e.last()
                p = e.possible_agents.index(agent)
                d = e.decision if e.decision is not None and e.decision.player == p else None
                expected = e.features.vector(e.game.observation(p), list(e.game.discard), d)
                assert np.array_equal(obs["observation"], expected), (deck, seed, agent)
                if terminated or truncated:
                    e.step(None)
                    continue
                e.step(rng.choice([i for i, ok in enumerate(obs["action_mask"]) if ok]))
            reshuffles += e.game.reshuffles
    assert reshuffles > 0


@pytest.mark.parametrize("kwargs", [{"players": 0}, {"players": -1}, {"players": 1}, {"players": 1_000_000},
                                    {"players": "4"}, {"players": True}, {"seed": "x"}, {"render_mode": "human"}])
def test_a_bad_argument_is_a_clear_error(kwargs):
    with pytest.raises(DeckgenError) as err:
        env("classic", **kwargs)
    f = err.value.findings[0]
    assert f.where == next(iter(kwargs)) and f.hint


def test_a_deck_that_is_no_deck_is_a_clear_error():
    with pytest.raises(DeckgenError, match="is not a deck") as err:
        env(42)
    assert "bundled deck" in err.value.findings[0].hint


def test_an_illegal_action_is_refused_and_changes_nothing():
    e = env("classic", players=2)
    e.reset(seed=1)
    obs = e.observe(e.agent_selection)
    illegal = next(i for i, ok in enumerate(obs["action_mask"]) if not ok)
    before = e.game.snapshot()
    with pytest.raises(IllegalAnswer):
        e.step(illegal)
    assert e.game.snapshot() == before


def test_rule_options_as_keywords_and_their_errors():
    assert env("classic", stacking="same-kind").table.rules.stacking == "same-kind"
    with pytest.raises(DeckgenError):
        env("classic", stackin="same-kind")


def test_observations_never_show_another_hand():
    e = env("classic", players=3)
    e.reset(seed=2)
    agent = e.agent_selection
    p = e.possible_agents.index(agent)
    vec = e.observe(agent)["observation"]
    hand = vec[:e.features.faces]
    assert hand.sum() == len(e.game.hands[p])
    e.game.hands[(p + 1) % 3].reverse()          # another hand's order or contents: not in the vector
    assert (e.observe(agent)["observation"] == vec).all()


def test_an_expert_plays_through_the_environment():
    e = env("classic", players=3)
    e.reset(seed=4)
    bot, rng = ExpertAgent(2), random.Random(4)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        if agent == "player_0":
            d, o = e.deckgen_view(agent)
            e.step(e.action_of(agent, bot.decide(d, o, rng)))
        else:
            e.step(rng.choice([i for i, ok in enumerate(obs["action_mask"]) if ok]))
    assert e.game.outcome is not None


def test_the_example_in_the_docs_runs():
    import re

    text = (ROOT / "docs" / "rl.md").read_text("utf-8")
    example = re.findall(r"```python\n(.*?)```", text, re.S)[-1]
    assert "ExpertAgent" in example and "action_mask" in example
    exec(compile(example, "docs/rl.md", "exec"), {})
