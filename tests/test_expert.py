"""The expert bot (docs/expert.md): it decides from its own observation, its sampled deals agree
with what it has seen, it is reproducible from the game's seed, and it plugs in everywhere an
agent name does (simulate, matches, report, AGENTS for `deckgen play --bots`)."""

import json
import math
import random
from collections import Counter

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from deckgen import manifest
from deckgen.cli import main
from deckgen.rules import expert as E
from deckgen.rules.agents import GreedyAgent, RandomAgent
from deckgen.rules.bots import AGENTS, make, wants_events
from deckgen.rules.decision import Decision, DecisionKind
from deckgen.rules.engine import Game
from deckgen.rules.record import CAUSES
from deckgen.rules.state import Color as ColorEvent
from deckgen.rules.state import Deal, Draw, Play, Position, Power, Shuffle, Start, Turn
from deckgen.rules.table import compile_deck

DECKS = ["classic", "no-mercy", "flex-spectrum"]


def _table(name):
    return compile_deck(manifest.load_deck(name))


def _arranged(t, hands, top, color, alive=None) -> Game:
    """A hand set out by the game's own operation: these hands, this top card and colour,
    player 0 to play (the rest of the deck out of play)."""
    n = len(hands)
    g = Game(t, n, 1, [GreedyAgent()] * n, record=False)
    return g.arrange(Position(tuple(map(tuple, hands)), (), (top >> 1,), (), tuple(alive or [True] * n),
                              (True,) * n, (0,) * n, 0, 1, top, color))


def test_registered_for_every_agent_user():
    assert AGENTS["expert"] is E.ExpertAgent
    assert isinstance(make("expert", 5), E.ExpertAgent) and make("expert", 5).think == 5
    assert isinstance(make("greedy"), GreedyAgent)
    assert wants_events([GreedyAgent(), E.ExpertAgent()]) and not wants_events(GreedyAgent())


@pytest.mark.parametrize("deck", DECKS)
def test_every_sampled_deal_agrees_with_the_table_and_the_memory(deck, monkeypatch):
    """Every card of the deck exactly once (at most once where events were missed: the cards
    left over count as set aside); each hand and both piles as large as the table shows; and no remembered "could not follow" group is dealt a card it could not hold (counted
    as the table allows: a group of k cards gets k cards outside its banned faces)."""
    t = _table(deck)
    checked = []
    real = E.sampler

    def checking(o, memory):
        dealing = real(o, memory)

        def deal(rng):
            hands, pile, discard = dealing(rng)
            seen = Counter(o.hand) + Counter(pile) + Counter(discard) + Counter(memory.aside)
            for h in hands.values():
                seen += Counter(h)
            if memory.ok:
                assert seen == Counter(t.deck_faces)
            else:                   # the discard pile unknown: the cards left over are the ones set aside
                assert not seen - Counter(t.deck_faces)
            assert all(len(hands[q]) == o.hand_sizes[q] for q in hands) and len(pile) == o.draw_pile
            assert len(discard) == o.discard_pile
            assert discard[-1] == o.top >> 1
            for q, h in memory.hands.items():
                if q in hands:
                    for size, banned in h.groups:
                        assert sum(1 for f in hands[q] if f not in banned) >= size
            checked.append(1)
            return hands, pile, discard
        return deal

    monkeypatch.setattr(E, "sampler", checking)
    for i in range(2 if deck == "classic" else 1):
        bots = [GreedyAgent() for _ in range(4)]
        bots[i] = E.ExpertAgent(2)
        Game(t, 4, f"deal:{i}", bots, record=True).run()
    assert checked


@pytest.mark.parametrize("deck", DECKS)
def test_the_memory_never_bans_a_card_the_player_really_held(deck):
    """Watching real games: whenever the memory says a group of an opponent's cards could not
    follow some pile, that opponent really held that many cards outside the banned faces (and
    the memory never tracks its own player's hand, swapped or not)."""
    from deckgen.rules.engine import public_event

    t = _table(deck)
    held = type("O", (), {"table": t})
    for i in range(4):
        g = Game(t, 4, f"mem:{i}", GreedyAgent(), record=True)
        mem = E.Memory(0)

        def watch(s, mem=mem):
            mem._apply(public_event(s.log[-1], 0), held)
            assert 0 not in mem.hands
            for q, h in mem.hands.items():
                for size, banned in h.groups:
                    assert sum(1 for f in s.hands[q] if f not in banned) >= size

        g.watch = watch
        g.run()


@pytest.mark.parametrize("green", [True, False])
def test_a_flex_side_counts_as_playable_only_while_the_power_card_is_green(green):
    """docs/rules.md, Flex: playing a card by its Flex side needs the Power card green. A player
    with a red Power card who drew may still hold cards that only their Flex side could play."""
    t = _table("flex-spectrum")
    start = next(f for f in range(t.n_faces) if t.move_category[2 * f] == 0 and t.color[f] >= 0 and not t.has_flex[f])
    o = type("O", (), {"table": t})
    mem = E.Memory(0)
    for ev in (Shuffle(()), Deal((0, 1), 7), Start(start), Power(1, green), Draw(1, -1, CAUSES.index("no_play"))):
        mem._apply(ev, o)
    key = t.move_key[2 * start] + t.color[start] + 1
    regular, flex_only = t.legal(key, t.move_symbol[2 * start], t.move_value[2 * start], t.color[start])[2:]
    flex_only = flex_only - regular
    banned = mem.hands[1].groups[0][1]
    assert flex_only and regular <= banned
    assert (flex_only <= banned) is green and (not flex_only & banned) is not green


def test_an_opponents_play_rules_out_what_a_greedy_player_would_have_played_first():
    """A greedy player plays its highest-valued card (docs/expert.md): one who plays a red 3 on a
    red 5 holds no higher red number and no 5 of another colour, but may hold a wild or a 3; a
    card played right after drawing tells nothing."""
    t = _table("classic")

    def face(color, value):
        return next(f for f in range(t.n_faces) if t.faces[f].id.startswith(color) and t.move_value[2 * f] == value
                    and t.move_category[2 * f] == 0)

    o = type("O", (), {"table": t})
    wild = next(f for f in range(t.n_faces) if t.move_category[2 * f] == 2)
    mem = E.Memory(0)
    for ev in (Shuffle(()), Deal((0, 1), 7), Start(face("red", 5)), Play(1, 2 * face("red", 3), "play")):
        mem._apply(ev, o)
    banned = mem.hands[1].groups[0][1]
    assert {face("red", 7), face("blue", 5)} <= banned
    assert not {wild, face("blue", 3), face("red", 1)} & banned
    mem = E.Memory(0)
    for ev in (Shuffle(()), Deal((0, 1), 7), Start(face("red", 5)), Draw(1, -1, CAUSES.index("no_play")),
               Play(1, 2 * face("red", 3), "play")):
        mem._apply(ev, o)
    assert [g[0] for g in mem.hands[1].groups] == [7]   # the seven that could not follow stay as they were


def test_a_player_who_drew_for_lack_of_a_card_is_dealt_none_that_could_have_followed():
    """The seven cards held could not follow; the card drawn is a group of its own that could
    not follow either when the turn passes (the greedy bot plays a card it drew whenever it
    can), and is gone when it is played at once."""
    t = _table("classic")
    red5 = next(f for f in range(t.n_faces) if t.faces[f].id.startswith("red") and t.move_value[2 * f] == 5)
    o = type("O", (), {"table": t})
    followers = {f for f in range(t.n_faces) if t.color[f] == t.color[red5] or t.move_value[2 * f] == 5 or t.move_category[2 * f] == 2}
    for then_play in (True, False):
        mem = E.Memory(0)
        for ev in (Shuffle(()), Deal((0, 1), 7), Start(red5), Draw(1, -1, CAUSES.index("no_play"))):
            mem._apply(ev, o)
        (size, banned), (drawn, drawn_banned) = mem.hands[1].groups
        assert (size, drawn) == (7, 1) and followers <= banned and followers <= drawn_banned
        if then_play:
            mem._apply(Play(1, 2 * red5, "play"), o)     # the card drawn: the constrained seven stay
            assert [g[0] for g in mem.hands[1].groups] == [7]
        else:
            mem._apply(Turn(2), o)                        # kept: it could not follow
            mem._apply(Play(1, 2 * red5, "play"), o)      # a later play is a choice from the hand
            assert sum(g[0] for g in mem.hands[1].groups) == 7


def test_a_colour_named_with_the_last_but_one_card_is_the_last_cards_colour():
    """A greedy player names the colour it holds most of: one who plays a wild from two cards
    holds a card of the colour it names (or a colourless one, when it names the first colour)."""
    t = _table("classic")
    red5 = next(f for f in range(t.n_faces) if t.faces[f].id.startswith("red") and t.move_value[2 * f] == 5)
    wild = next(f for f in range(t.n_faces) if t.move_category[2 * f] == 2 and not t.effects[2 * f][1:])
    blue = t.color[next(f for f in range(t.n_faces) if t.faces[f].id.startswith("blue"))]
    o = type("O", (), {"table": t})
    mem = E.Memory(0)
    for ev in (Shuffle(()), Deal((0, 1), 2), Start(red5), Play(1, 2 * wild, "play"), ColorEvent(blue)):
        mem._apply(ev, o)
    [(size, banned)] = mem.hands[1].groups
    assert size == 1 and {f for f in range(t.n_faces) if t.color[f] != blue} <= banned
    assert {f for f in range(t.n_faces) if t.color[f] == blue and t.move_value[2 * f] in (1, 9)} - banned  # not a 5:
    # the wild said that nothing else followed the red 5


def test_a_wild_draw_played_when_nothing_else_scored_more_says_no_card_followed():
    """The greedy valuation of a card played is taken from the table as it was (hand sizes, who
    played next): a wild draw four played on a player who is not the leader was a last resort
    (the greedy bot puts every number above it), so that player held nothing that followed (no
    card of the colour: a challenge would fail); played on the leader it says no such thing."""
    t = _table("classic")
    red5 = next(f for f in range(t.n_faces) if t.faces[f].id.startswith("red") and t.move_value[2 * f] == 5)
    wd4 = next(f for f in range(t.n_faces) if any(e.op == "draw" for e in t.effects[2 * f]) and t.move_category[2 * f] == 2)
    g = Game(t, 4, 1, [GreedyAgent()] * 4, record=True)
    obs = g.observation(0)
    for attack in (False, True):
        mem = E.Memory(0)
        mem.obs, mem.alive = obs, [True] * 4
        mem.sizes = [0] * 4
        sizes = (7, 7, 2, 5) if attack else (3, 7, 6, 5)   # player 1 sees its leader next (2) or not (0)
        for ev in (Shuffle(()), Deal((0, 1, 2, 3), 7), Start(red5)):
            mem._apply(ev, obs)
        mem.sizes = list(sizes)
        mem.hands[1] = E._Hand(7)
        mem._apply(Play(1, 2 * wd4, "play"), obs)
        banned = mem.hands[1].groups[0][1]
        reds = {f for f in range(t.n_faces) if t.color[f] == t.color[red5] and t.move_category[2 * f] == 0}
        assert (reds <= banned) is not attack
def test_decides_from_the_observation_alone_and_reproducibly():
    """Given the same decision, observation and generator state, the same answer: nothing else
    (no game object, no other hand) reaches the bot."""
    t = _table("classic")
    asked = []

    class Probe(E.ExpertAgent):
        def decide(self, d, o, rng):
            asked.append((d, o, rng.getstate()))
            return super().decide(d, o, rng)

    Game(t, 3, "probe", [Probe(6), GreedyAgent(), GreedyAgent()], record=True).run()
    plays = [(d, o, s) for d, o, s in asked if d.kind is DecisionKind.PLAY and len(d.options) > 1]
    assert plays
    for d, o, state in plays[:4]:
        answers = set()
        for _ in range(2):
            bot = E.ExpertAgent(6)
            rng = random.Random()
            rng.setstate(state)
            answers.add(bot.decide(d, o, rng))
        assert len(answers) == 1 and d.legal(answers.pop())


def test_an_illegal_answer_is_never_given():
    t = _table("no-mercy")
    for i in range(2):
        bots = [RandomAgent() for _ in range(3)]
        bots[i] = E.ExpertAgent(3)
        g = Game(t, 3, f"legal:{i}", bots, record=True).run()       # an illegal answer would raise
        assert g.outcome is not None


def test_same_seed_same_game_with_experts():
    t = _table("flex-spectrum")
    logs = [Game(t, 3, "same", [E.ExpertAgent(2), GreedyAgent(), E.ExpertAgent(2)], record=True).run().log
            for _ in range(2)]
    assert logs[0] == logs[1]


def test_the_rule_of_thumb_keeps_wilds_and_attacks_a_player_about_to_go_out():
    t = _table("classic")
    faces = {t.faces[f].id: f for f in range(t.n_faces)}
    wild = next(f for k, f in faces.items() if t.move_category[2 * f] == 2)
    skip = next(f for f in range(t.n_faces) if any(e.op == "skip" for e in t.effects[2 * f]))
    number = next(f for f in range(t.n_faces) if t.color[f] == t.color[skip] and t.move_value[2 * f] >= 0
                  and not t.effects[2 * f])
    mine = [wild, skip, number, number]
    o = _arranged(t, [mine, [1, 2, 3, 4, 5], [1, 2, 3]], 2 * number, t.color[number]).observation(0)
    d = Decision(0, DecisionKind.PLAY, (2 * wild, 2 * skip, 2 * number))
    assert E.Prior().play(d, o, random.Random(1)) == 2 * number      # keeps the wild and the skip
    o = _arranged(t, [mine, [1, 2], [1, 2, 3]], 2 * number, t.color[number]).observation(0)
    assert E.Prior().play(d, o, random.Random(1)) == 2 * skip        # the next player has two cards


def test_the_rule_of_thumb_keeps_a_wild_it_just_drew_until_a_hand_is_small():
    t = _table("classic")
    wild = next(f for f in range(t.n_faces) if t.move_category[2 * f] == 2)
    number = next(f for f in range(t.n_faces) if t.move_value[2 * f] >= 0 and not t.effects[2 * f])
    def seen(hands):
        return _arranged(t, hands, 2 * number, t.color[number]).observation(0)

    d = Decision(0, DecisionKind.PLAY_DRAWN, (2 * wild,), True)
    large = [[number, number, number, wild], [1, 2, 3, 4, 5], [1, 2, 3]]
    assert E.Prior().play_drawn(d, seen(large), random.Random(1)) is None                 # kept
    assert E.Prior().play_drawn(d._replace(passable=False), seen(large), random.Random(1)) == 2 * wild
    close = [[number, number, number, wild], [1, 2], [1, 2, 3]]                           # the next player is close
    assert E.Prior().play_drawn(d, seen(close), random.Random(1)) == 2 * wild
    small = [[number, wild], [1, 2, 3, 4, 5], [1, 2, 3]]                                  # its own hand is small
    assert E.Prior().play_drawn(d, seen(small), random.Random(1)) == 2 * wild
    number_drawn = Decision(0, DecisionKind.PLAY_DRAWN, (2 * number,), True)
    numbers = [[number, number, number, number], [1, 2, 3, 4, 5], [1, 2, 3]]
    assert E.Prior().play_drawn(number_drawn, seen(numbers), random.Random(1)) == 2 * number


def test_cli_simulate_with_experts_and_think():
    res = CliRunner().invoke(main, ["simulate", "classic", "--players", "2", "--games", "2", "--agent", "expert",
                                    "--think", "2", "--json", "-j", "1"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["agent"] == "expert" and data["think"] == 2 and data["tables"][0]["games"] == 2


def test_a_shared_expert_keeps_one_memory_per_seat():
    t = _table("classic")
    bot = E.ExpertAgent(2)
    Game(t, 3, "shared", bot, record=True).run()
    assert set(bot.memories) == {0, 1, 2}


def _only_a_wild_plays(mine: int = E.DRAW_OVER_WILD + 1, next_cards: int = E.DRAW_OVER_WILD + 1) \
        -> tuple[Game, int, int]:
    """Classic, 3 players: player 1 holds ``mine`` cards that cannot follow the pile and one
    plain wild, the next player ``next_cards`` cards (both more than DRAW_OVER_WILD by default);
    (game, wild, stuck)."""
    t = _table("classic")
    wild = next(f for f in range(t.n_faces) if t.move_category[2 * f] == 2 and not t.draw_val[2 * f])
    numbers = [f for f in range(t.n_faces) if t.move_value[2 * f] >= 0 and not t.effects[2 * f]]
    top = numbers[0]
    stuck = next(f for f in numbers if t.color[f] != t.color[top] and t.move_value[2 * f] != t.move_value[2 * top])
    g = _arranged(t, [[*[stuck] * mine, wild], [1] * next_cards, [1, 2, 3]], 2 * top, t.color[top])
    return g, wild, stuck


def test_the_rule_of_thumb_draws_rather_than_spend_its_only_playable_wild_while_hands_are_large():
    g, wild, stuck = _only_a_wild_plays()
    assert g.legal_moves(0) == [2 * wild]                       # the wild is its only play
    d = Decision(0, DecisionKind.PLAY, (2 * wild,), True)
    assert E.Prior().play(d, g.observation(0), random.Random(1)) is None              # draws, keeps the wild
    assert E.Prior().play(d._replace(passable=False), g.observation(0), random.Random(1)) == 2 * wild
    closer = _only_a_wild_plays(next_cards=E.DRAW_OVER_WILD)[0]                         # the next player is closer
    assert E.Prior().play(d, closer.observation(0), random.Random(1)) == 2 * wild
    small = _only_a_wild_plays(mine=E.DRAW_OVER_WILD - 1)[0]
    assert E.Prior().play(d, small.observation(0), random.Random(1)) == 2 * wild       # its own hand is small


def test_in_a_deck_of_many_wilds_a_wild_is_kept_only_when_it_would_be_the_last(tmp_path):
    """WILDS_PLENTY (docs/expert.md): where more than a tenth of the deck is wilds, a wild is no
    scarce card and the reserve is one. Holding two, the rule of thumb plays one rather than draw,
    and plays a wild just drawn; holding one, it keeps it as before. Where wilds are scarce
    (classic: 8 of 108) it keeps them as before, two or not. Drawing to keep every wild made the
    expert lose nearly every game of a deck of forty Wild Draw Fours in sixty cards."""
    from deckgen.resources import decks_dir

    text = (decks_dir() / "classic.toml").read_text(encoding="utf-8")
    path = tmp_path / "wilds.toml"
    path.write_text(text.replace('kind = "wild"\ncount = 4', 'kind = "wild"\ncount = 20'), encoding="utf-8")

    def kept(t, wilds):
        wild = next(f for f in range(t.n_faces) if t.move_category[2 * f] == 2 and not t.draw_val[2 * f])
        numbers = [f for f in range(t.n_faces) if t.move_value[2 * f] >= 0 and not t.effects[2 * f]]
        top = numbers[0]
        stuck = next(f for f in numbers if t.color[f] != t.color[top] and t.move_value[2 * f] != t.move_value[2 * top])
        many = E.DRAW_OVER_WILD + 1
        g = _arranged(t, [[*[stuck] * many, *[wild] * wilds], [1] * many, [1, 2, 3]], 2 * top, t.color[top])
        play = Decision(0, DecisionKind.PLAY, (2 * wild,), True)
        drawn = Decision(0, DecisionKind.PLAY_DRAWN, (2 * wild,), True)    # the card drawn is in the hand
        return (E.Prior().play(play, g.observation(0), random.Random(1)) is None,
                E.Prior().play_drawn(drawn, g.observation(0), random.Random(1)) is None)

    plenty, scarce = compile_deck(manifest.load_deck(path)), _table("classic")
    assert E._wild_share(plenty) > E.WILDS_PLENTY > E._wild_share(scarce)
    assert kept(plenty, 1) == (True, True) and kept(plenty, 2) == (False, False)
    assert kept(scarce, 1) == (True, True) and kept(scarce, 2) == (True, True)


def test_the_expert_keeps_a_wild_its_rule_of_thumb_keeps_without_letting_the_search_overrule_it(monkeypatch):
    g, wild, _ = _only_a_wild_plays()
    searched = []
    monkeypatch.setattr(E.ExpertAgent, "_search", lambda self, d, o, rng, cands: searched.append(cands) or cands[0])
    bot = E.ExpertAgent(64)
    play = Decision(0, DecisionKind.PLAY, (2 * wild,), True)
    drawn = Decision(0, DecisionKind.PLAY_DRAWN, (2 * wild,), True)
    assert bot.play(play, g.observation(0), random.Random(1)) is None
    assert bot.play_drawn(drawn, g.observation(0), random.Random(1)) is None
    assert searched == []
    close = _only_a_wild_plays(next_cards=2)[0]               # the next player is close: the search decides
    assert bot.play(play, close.observation(0), random.Random(1)) == 2 * wild
    assert bot.play_drawn(drawn, close.observation(0), random.Random(1)) == 2 * wild
    assert len(searched) == 2


def test_a_wild_names_of_the_colours_held_most_the_one_the_next_player_likely_cannot_follow(monkeypatch):
    """COLOR_TIE: a red and a blue card held (a tie), the next player remembered to hold no blue
    card (nor a wild): the wild names blue, where the greedy choice names the first colour, red."""
    t = _table("classic")
    wild = next(f for f in range(t.n_faces) if t.move_category[2 * f] == 2 and not t.draw_val[2 * f])
    numbers = [f for f in range(t.n_faces) if t.move_value[2 * f] >= 0 and not t.effects[2 * f]]
    red = t.colors.index("red")
    blue = t.colors.index("blue")
    red3 = next(f for f in numbers if t.color[f] == red and t.move_value[2 * f] == 3)
    blue7 = next(f for f in numbers if t.color[f] == blue and t.move_value[2 * f] == 7)
    o = _arranged(t, [[red3, blue7, wild], [1] * 5, [1, 2, 3]], 2 * wild, blue).observation(0)
    mem = E.Memory(0)
    mem.hands[1] = E._Hand(5)
    mem.hands[1].forbid(frozenset(f for f in range(t.n_faces) if t.color[f] in (blue, -1)))
    mem.hands[2] = E._Hand(3)
    prior = E.Prior()
    prior.memory = mem
    d = Decision(0, DecisionKind.COLOR, tuple(range(len(t.colors))))
    assert E._likely_colors(o, mem)[:2] == [blue, red]
    assert prior.color(d, o, random.Random(1)) == blue
    monkeypatch.setattr(E, "COLOR_TIE", False)
    assert E._likely_colors(o, mem)[:2] == [red, blue]
    assert prior.color(d, o, random.Random(1)) == red



def test_a_stopped_play_out_is_scored_by_the_fitted_chance_of_going_out_first():
    """FIT (docs/expert.md): the chances of the players still in sum to one; fewer cards, a wild
    in place of a number, and a card that follows the pile each raise a player's chance."""
    t = _table("classic")
    wild = next(f for f in range(t.n_faces) if t.move_category[2 * f] == 2 and not t.draw_val[2 * f])
    numbers = [f for f in range(t.n_faces) if t.move_value[2 * f] >= 0 and not t.effects[2 * f]]
    red, blue = t.colors.index("red"), t.colors.index("blue")
    red3, red5, blue7, blue8 = (next(f for f in numbers if t.color[f] == c and t.move_value[2 * f] == v)
                                for c, v in ((red, 3), (red, 5), (blue, 7), (blue, 8)))
    def chances(hands, alive=None):
        """Each player's chance, player 0 the one by the rule of thumb; checked against _fitted."""
        g = _arranged(t, hands, 2 * red5, red, alive)
        strengths = {q: math.exp(sum(w * v for w, v in zip(E.FIT, x))) for q, x in E.horizon_features(g, 0)}
        assert E._fitted(g, 0) == pytest.approx(strengths[0] / sum(strengths.values()))
        return {q: s / sum(strengths.values()) for q, s in strengths.items()}

    same = [blue7, blue8, blue8]
    base = chances([same, same, same])
    assert sum(base.values()) == pytest.approx(1.0)
    assert len(E.horizon_features(_arranged(t, [same, same, same], 2 * red5, red), 0)[0][1]) \
        == len(E.FIT) == len(E.FIT_FEATURES)
    assert chances([[blue7, blue8], same, same])[0] > base[0]
    assert chances([[blue7, blue8, wild], same, same])[0] > base[0]
    assert chances([[blue7, blue8, red3], same, same])[0] > base[0]
    assert chances([same, same, [blue7, blue8]])[2] > base[2]
    assert sorted(chances([[blue7], [], [blue7, blue8]], [True, False, True])) == [0, 2]


def test_a_large_budget_trusts_the_play_outs_and_a_small_one_the_rule_of_thumb(monkeypatch):
    """The search answers otherwise than the rule of thumb by any margin from TRUST_THINK play-outs
    up; below, only by CONFIDENCE standard errors scaled down as the budget grows."""
    t = _table("classic")
    numbers = [f for f in range(t.n_faces) if t.move_value[2 * f] >= 0 and not t.effects[2 * f]]
    red = t.colors.index("red")
    red3, red5, red9 = (next(f for f in numbers if t.color[f] == red and t.move_value[2 * f] == v) for v in (3, 5, 9))
    o = _arranged(t, [[red3, red9], [1, 2, 3, 4, 5], [1, 2, 3]], 2 * red5, red).observation(0)
    d = Decision(0, DecisionKind.PLAY, (2 * red3, 2 * red9))
    scores = iter(range(10 ** 6))
    # red 9 (the second candidate) scores better on every deal, by a varying margin: by fewer than
    # three standard errors over the few deals of a small budget
    monkeypatch.setattr(E, "rollout", lambda world, me, answer, color, seed=None:
                        0.5 + (0.001 + 0.03 * (next(scores) % 3) if answer == 2 * red9 else 0.0))
    monkeypatch.setattr(E.Prior, "play", lambda self, d, o, rng: 2 * red3)
    answers = {}
    for think in (8, E.TRUST_THINK):
        bot = E.ExpertAgent(think)
        bot.memory = E.Memory(0)
        answers[think] = bot._search(d, o, random.Random(1), [(2 * red3, None), (2 * red9, None)])[0]
    assert answers == {8: 2 * red3, E.TRUST_THINK: 2 * red9}


def _final_test(diffs, confidence):
    """The search's answer rule for one rival: a mean difference above 0 and above
    ``confidence`` standard errors."""
    n = len(diffs)
    mean = sum(diffs) / n
    error = math.sqrt(sum((x - mean) ** 2 for x in diffs) / (n - 1) / n)
    return mean > 0 and mean > confidence * error


@settings(max_examples=400, deadline=None)
@given(rounds=st.integers(2, 30), confidence=st.sampled_from([0.0, 0.5, 2.72, 2.9648, 3.0]),
       data=st.data())
def test_a_rival_the_search_stops_playing_could_not_have_been_chosen(rounds, confidence, data):
    """_may_win is False only when no scores the deals left could give make the rival pass the
    answer's rule: checked against every completion of a grid and against drawn ones."""
    unit = st.integers(0, 1000).map(lambda i: i / 1000)       # play-out scores, to a thousandth
    n = data.draw(st.integers(1, rounds - 1))
    a = data.draw(st.lists(unit, min_size=n, max_size=n))
    b = data.draw(st.lists(unit, min_size=n, max_size=n))
    diffs = [x - y for x, y in zip(a, b)]
    if E._may_win(sum(diffs), sum(x * x for x in diffs), rounds - n, rounds, confidence):
        return
    rest = rounds - n
    for v in [i / 20 - 1 for i in range(41)]:                 # the deals left all alike
        assert not _final_test(diffs + [v] * rest, confidence)
    for _ in range(5):                                         # and any others
        more = data.draw(st.lists(st.integers(-1000, 1000).map(lambda i: i / 1000), min_size=rest, max_size=rest))
        assert not _final_test(diffs + more, confidence)


def _scored_search(think, seed, spread, monkeypatch, race=True, prune=True):
    """One searched decision whose play-outs score by a hash of the deal and the answer (so a
    deal scores each candidate alike whichever others are played); the answer and the play-outs
    each candidate got."""
    t = _table("classic")
    numbers = [f for f in range(t.n_faces) if t.move_value[2 * f] >= 0 and not t.effects[2 * f]]
    red = t.colors.index("red")
    reds = [next(f for f in numbers if t.color[f] == red and t.move_value[2 * f] == v) for v in (3, 5, 7, 9)]
    o = _arranged(t, [[reds[0], reds[2], reds[3], 1], [1, 2, 3, 4, 5], [1, 2, 3]], 2 * reds[1], red).observation(0)
    cands = [(2 * f, None) for f in (reds[0], reds[2], reds[3])]
    d = Decision(0, DecisionKind.PLAY, tuple(c[0] for c in cands), True)
    played = Counter()

    def rollout(world, me, answer, color, seed=None):
        played[answer] += 1
        edge = {cands[0][0]: 0.0, cands[1][0]: spread[0], cands[2][0]: spread[1]}[answer]
        return min(1.0, max(0.0, random.Random(f"{seed}:{answer}").random() * 0.6 + 0.2 + edge))

    monkeypatch.setattr(E, "rollout", rollout)
    monkeypatch.setattr(E.Prior, "play", lambda self, d, o, rng: cands[0][0])
    if not race:
        monkeypatch.setattr(E, "RACE", float("inf"))
    if not prune:
        monkeypatch.setattr(E, "_may_win", lambda *args: True)
    bot = E.ExpertAgent(think)
    bot.memory = E.Memory(0)
    answer = bot._search(d, o, random.Random(seed), cands)[0]
    monkeypatch.undo()
    return answer, played, [c[0] for c in cands]


@pytest.mark.parametrize("think", [6, 12, 48, 128])
@pytest.mark.parametrize("spread", [(0.0, 0.0), (0.05, -0.05), (0.1, 0.12), (-0.3, 0.02)])
def test_the_search_that_stops_playing_hopeless_rivals_answers_as_the_full_one(think, spread, monkeypatch):
    """Dropping the rivals that can no longer be chosen (without the race) changes no answer,
    and saves play-outs."""
    saved = 0
    for seed in range(12):
        full, all_played, _ = _scored_search(think, seed, spread, monkeypatch, race=False, prune=False)
        pruned, some_played, _ = _scored_search(think, seed, spread, monkeypatch, race=False)
        assert pruned == full
        saved += sum(all_played.values()) - sum(some_played.values())
    assert saved > 0


def test_the_race_drops_a_rival_that_trails_clearly(monkeypatch):
    """At a large budget a candidate far behind is played LOOK deals, not the whole budget, and
    the clear winner is still found."""
    answer, played, (thumb, behind, ahead) = _scored_search(E.TRUST_THINK, 3, (-0.3, 0.2), monkeypatch)
    assert answer == ahead
    assert played[behind] == E.LOOK
    assert played[thumb] == played[ahead] < E.TRUST_THINK // 3      # the budget: 170 deals of each


def test_a_play_outs_deferred_generator_draws_as_one_seeded_at_once():
    """A play-out's generator is seeded only when first drawn from, and then draws exactly as a
    generator seeded at once: the same chances, whichever way they are asked for."""
    for seed in (0, 7, 2 ** 63 + 5):
        lazy, now = E._Deferred(seed), random.Random(seed)
        assert lazy.pending == seed
        assert [lazy.random(), lazy.getrandbits(70), lazy.randrange(108), lazy.getrandbits(5)] == \
            [now.random(), now.getrandbits(70), now.randrange(108), now.getrandbits(5)]
        assert lazy.pending is None
        assert E._Deferred(seed).getstate() == random.Random(seed).getstate()
        copied = E._Deferred(1)
        copied.setstate(now.getstate())
        assert copied.random() == now.random()


def test_a_copy_given_its_own_generator_draws_from_it_and_leaves_the_game_alone():
    """clone(rng=...): the copy plays on by the generator it is given (its bots too, where they
    share the game's), and the game's own generator is not touched."""
    t = _table("classic")
    g = Game(t, 4, 5, [GreedyAgent()] * 4, record=False)
    g.setup()
    before = g.rng.getstate()
    fresh = random.Random(99)
    copy = g.clone(rng=fresh)
    assert copy.rng is fresh and copy.bot_rng is fresh
    assert g.rng.getstate() == before and g.rng is not fresh
    copy.run()
    assert g.rng.getstate() == before and g.outcome is None


def _take_reference(cards, hand, size, banned):
    """One group at a time, as the docs say: the first ``size`` cards none of ``banned``."""
    rest = []
    for i, f in enumerate(cards):
        if size <= 0:
            return rest + cards[i:]
        if f in banned:
            rest.append(f)
        else:
            hand.append(f)
            size -= 1
    return rest


@settings(max_examples=300, deadline=None)
@given(cards=st.lists(st.integers(0, 12), max_size=40),
       groups=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 6), st.frozensets(st.integers(0, 12), max_size=6)),
                       max_size=8))
def test_dealing_the_groups_takes_what_one_group_at_a_time_takes(cards, groups):
    """_deal_groups (no list copied per group) deals each hand and leaves the cards exactly as
    taking the groups one at a time from the whole list does."""
    ordered = sorted([(len(b), q, size, b) for q, size, b in groups], key=lambda g: -g[0])
    fast = {q: [] for _, q, _, _ in ordered}
    slow = {q: [] for _, q, _, _ in ordered}
    left = E._deal_groups(list(cards), ordered, fast)
    rest = list(cards)
    for _, q, size, banned in ordered:
        rest = _take_reference(rest, slow[q], size, banned)
    assert fast == slow and left == rest


@pytest.mark.parametrize("deck", DECKS)
def test_the_fitted_chance_is_the_fit_times_the_horizon_features_to_the_last_bit(deck, monkeypatch):
    """_fitted adds the strengths up without building the features: at every play-out it scores
    in real expert games it gives exactly exp(FIT . features) over the sum of every player's."""
    fast = E._fitted
    seen = []

    def checked(g, me):
        got = fast(g, me)
        total = mine = 0.0
        for q, x in E.horizon_features(g, me):
            e = math.exp(sum(map(lambda a, b: a * b, E.FIT, x)))
            total += e
            if q == me:
                mine = e
        assert got == (mine / total if total else 0.0)
        seen.append(got)
        return got

    monkeypatch.setattr(E, "_fitted", checked)
    t = _table(deck)
    for i in range(2):
        Game(t, 5, f"fit:{i}", [E.ExpertAgent(6) for _ in range(5)], record=True).run()
    assert len(seen) > 100


# ---------------------------------------------------------------- counting unseen cards as bits

class _FakeTable:
    """The fields _Tally reads: the faces and how many of each the deck holds."""

    def __init__(self, copies):
        self.n_faces = len(copies)
        self.deck_faces = [f for f, k in enumerate(copies) for _ in range(k)]
        self.cache = {}


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([3, 8, 9, 16, 17, 300]), st.data())
def test_the_tally_counts_the_cards_among_any_faces_as_summing_them_face_by_face(most, data):
    """_Tally (docs/expert.md): popcount(cards & mask(faces)) is the sum of the counts over those
    faces, for decks of up to 8 copies of a face (a byte a face), more (several bytes) and over 255
    (the plain-int fallback); masks are kept per set and agree with a fresh one."""
    n = data.draw(st.integers(1, 40))
    copies = [data.draw(st.integers(0, most)) for _ in range(n)]
    copies[data.draw(st.integers(0, n - 1))] = most
    tally = E._Tally(_FakeTable(copies))
    counts = {f: data.draw(st.integers(0, copies[f])) for f in range(n) if data.draw(st.booleans())}
    cards = tally.cards(counts)
    for _ in range(3):
        faces = frozenset(data.draw(st.sets(st.integers(0, n - 1))))
        want = sum(counts.get(f, 0) for f in faces)
        assert (cards & tally.mask(faces)).bit_count() == want
        assert tally.mask(frozenset(set(faces))) == tally.mask(faces)
    assert cards.bit_count() == sum(counts.values())


def test_the_next_players_chance_of_being_stuck_is_the_one_summed_over_sets(monkeypatch):
    """_stuck_now's chance, counted in bits, equals the same product counted face by face over
    the unseen pool, for every move of every decision with a memory in real expert games."""
    t = _table("flex-spectrum")
    checked = []
    real = E._stuck_now

    def by_sets(o, memory, q):
        got = real(o, memory, q)
        if got is None:
            return None
        pool = E._unseen_pool(o, memory)
        unseen = {f: k for f, k in pool.items() if k > 0}
        total = sum(unseen.values())
        flex_ok = not (t.rules.power_cards and t.any_flex) or o.power[q]
        groups = [(g[0], g[1], total - sum(unseen.get(f, 0) for f in g[1])) for g in memory.hands[q].groups]

        def chance(m, named):
            c = t.move_color[m] if t.move_color[m] >= 0 else named
            entry = t.cache[t.pile_key(m, c)]
            follow = entry[2] | entry[3] if flex_ok else entry[2]
            followers = sum(unseen.get(f, 0) for f in follow)
            p = 1.0
            for size, banned, free in groups:
                if free:
                    can = followers - sum(unseen.get(f, 0) for f in follow & banned)
                    p *= (1.0 - can / free) ** size
            assert got(m, named) == p
            checked.append(m)
            return p
        return chance

    monkeypatch.setattr(E, "_stuck_now", by_sets)
    Game(t, 5, "tally", [E.ExpertAgent(6) for _ in range(5)], record=True).run()
    assert len(checked) > 100


def test_the_expert_plays_the_games_it_played_before_its_bookkeeping_was_made_cheaper():
    """The speed-ups of the expert and the engine (docs/expert.md, "Strength and cost") change no
    answer: four Flex Spectrum hands of six experts at think 6 and two classic hands of one
    expert at think 48 among greedy players give the same logs, digit for digit, as the code
    whose figures the docs quote. A change meant to alter how the expert plays updates these
    digests, and says so."""
    import hashlib

    want = {("flex-spectrum", 6): "10b488f3c1f9c0f7", ("classic", 48): "15aed4029280fc45"}
    got = {}
    for deck, think in want:
        t = _table(deck)
        h = hashlib.sha256()
        for i in range(4 if deck == "flex-spectrum" else 2):
            players = 6 if deck == "flex-spectrum" else 4
            every = deck == "flex-spectrum"
            bots = [E.ExpertAgent(think) for _ in range(players)] if every else \
                [E.ExpertAgent(think)] + [GreedyAgent()] * (players - 1)
            h.update(repr(Game(t, players, f"h:{i}", bots, record=True).run().log).encode())
        got[(deck, think)] = h.hexdigest()[:16]
    assert got == want
