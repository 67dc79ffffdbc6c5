"""The engine's effect registry and the composition rule (docs/rules.md, "How a card's effects
combine"): homemade effect lists on the classic deck, each situation set up exactly."""

import dataclasses

import pytest

from deckgen import manifest
from deckgen.effects import PRIMITIVES, Effect
from deckgen.rules.actions import PLAY
from deckgen.rules.agents import VALUES
from deckgen.rules.engine import Game
from deckgen.rules.scenario import Scripted, face, move, situation, table_for
from deckgen.rules.state import FINISHED, Pending

DRAW3 = Effect("draw", n=3)
SKIP = Effect("skip")


def table_with(effects: dict, base: str = "classic", **options):
    """The base deck with some kinds' effects replaced (kind id -> effect tuple)."""
    d = manifest.load_deck(base)
    kinds = dict(d.kinds)
    for kid, effs in effects.items():
        kinds[kid] = dataclasses.replace(kinds[kid], effects=tuple(effs))
    return table_for(dataclasses.replace(d, kinds=kinds), **options)


def game(t, hands, top="red-5", draw=("yellow-1",) * 12, agents=None, **kw):
    n = len(hands)
    return situation(None, hands, top=top, draw=draw, table=t, agents=agents or [Scripted() for _ in range(n)],
                     **kw)


def ids(g, p):
    return [g.table.faces[f].id for f in g.hands[p]]


def test_every_primitive_has_an_engine_handler_a_start_handler_and_an_agent_value():
    assert set(PLAY) == set(PRIMITIVES)
    assert set(VALUES) == set(PRIMITIVES)
    for op, handler in PLAY.items():
        assert callable(handler.play) and callable(handler.start), op


def test_draw_then_skip_without_stacking_the_next_player_draws_and_loses_one_turn():
    """One card costs a player at most one turn through its parts together (docs/rules.md, section 5)."""
    t = table_with({"skip": (DRAW3, SKIP)})
    g = game(t, [["red-skip", "red-1"], ["blue-1"], ["green-1"]],
             agents=[Scripted(plays=["red-skip"]), Scripted(), Scripted(play_drawn=False)])
    g.turn()
    assert len(g.hands[1]) == 1 + 3 and g.owed[1] == 1 and g.next_to_act() == 2


def test_two_skips_on_one_card_cost_the_next_player_one_turn():
    t = table_with({"skip": (SKIP, SKIP)})
    g = game(t, [["red-skip", "red-1"], ["blue-1"], ["green-1"]], agents=[Scripted(plays=["red-skip"]), Scripted(), Scripted()])
    g.turn()
    assert g.owed == [0, 1, 0]


def test_draw_then_skip_with_stacking_the_answer_is_the_one_lost_turn():
    t = table_with({"skip": (DRAW3, SKIP)}, stacking="equal-or-higher")
    g = game(t, [["red-skip", "red-1"], ["blue-1", "blue-2"], ["green-1"]],
             agents=[Scripted(plays=["red-skip"]), Scripted(stack=False), Scripted()])
    g.turn()
    assert g.waiting.victim == 1 and g.penalty == 3 and g.owed[1] == 0 and g.current == 1
    g.turn()                                       # 1 answers the 3 by drawing them: that is the turn lost
    assert len(g.hands[1]) == 2 + 3 and g.penalty == 0 and g.owed[1] == 0 and g.current == 2


def test_skip_then_draw_with_stacking_the_answer_is_the_one_lost_turn():
    t = table_with({"skip": (SKIP, DRAW3)}, stacking="equal-or-higher")
    g = game(t, [["red-skip", "red-1"], ["blue-1", "blue-2"], ["green-1"]],
             agents=[Scripted(plays=["red-skip"]), Scripted(stack=False), Scripted()])
    g.turn()
    assert g.waiting.victim == 1 and g.penalty == 3 and g.owed[1] == 0 and g.current == 1


def test_draw_then_skip_with_stacking_a_stacker_passes_the_draw_on_and_owes_nothing_more():
    t = table_with({"skip": (DRAW3, SKIP)}, stacking="equal-or-higher")
    g = game(t, [["red-skip", "red-1"], ["blue-skip", "blue-2"], ["green-1"]],
             agents=[Scripted(plays=["red-skip"]), Scripted(plays=["blue-skip"]), Scripted(stack=False)])
    g.turn()
    g.turn()                                       # 1 stacks: 6 wait for 2; answering them is 2's lost turn
    assert g.waiting.victim == 2 and g.penalty == 6 and g.owed[1] == 0 and g.owed[2] == 0


def test_a_penalty_passed_on_by_a_later_draw_of_the_same_card_frees_its_first_victim():
    """Draw 1, reverse, draw 1, then a chosen player draws 1 and loses the turn, at 3 players with
    stacking: the card's waiting penalty passes from player 2 to player 3 (the next one after the
    reverse), so the card has not cost player 2 a turn yet, and the chosen draw does."""
    draw1 = Effect("draw", n=1)
    t = table_with({"skip": (draw1, Effect("reverse"), draw1, Effect("target"), draw1)}, stacking="same-kind")
    g = game(t, [["red-skip", "red-1"], ["blue-1", "blue-2"], ["green-1"]],
             agents=[Scripted(plays=["red-skip"], targets=[1]), Scripted(), Scripted(stack=False)])
    g.turn()
    assert g.waiting.victim == 2 and g.penalty == 2 and g.owed[1] == 1 and g.current == 2


def test_a_skip_taken_over_by_the_cards_penalty_is_owed_again_when_the_penalty_moves_on():
    draw1 = Effect("draw", n=1)
    t = table_with({"skip": (SKIP, draw1, Effect("reverse"), draw1)}, stacking="same-kind")
    g = game(t, [["red-skip", "red-1"], ["blue-1", "blue-2"], ["green-1"]],
             agents=[Scripted(plays=["red-skip"]), Scripted(), Scripted(stack=False)])
    g.turn()
    assert g.waiting.victim == 2 and g.penalty == 2 and g.owed[1] == 1 and g.owed[2] == 0


def test_each_lost_turn_is_served_separately():
    g = situation("classic", [["red-skip", "red-1"], ["blue-1", "blue-2"], ["green-1", "green-2"]], top="red-5",
                  agents=[Scripted(plays=["red-skip", "red-1"]), Scripted(), Scripted(plays=["green-1"])])
    g.op_owe(1, 1)                                 # 1 already owes a lost turn (a targeted draw, say)
    g.turn()
    assert g.owed[1] == 2
    g.turn()                                       # 1 loses one
    assert g.owed[1] == 1 and g.current == 2


def test_a_reverse_earlier_in_the_list_changes_who_the_next_player_is():
    t = table_with({"reverse": (Effect("reverse"), Effect("draw", n=2))})
    g = game(t, [["red-reverse", "red-1"], ["blue-1"], ["green-1"], ["yellow-1"]],
             agents=[Scripted(plays=["red-reverse"])] + [Scripted() for _ in range(3)])
    g.turn()
    assert len(g.hands[3]) == 1 + 2 and len(g.hands[1]) == 1 and g.owed[3] == 1 and g.next_to_act() == 2


def test_two_player_reverse_acting_as_skip_owes_the_other_player_a_turn():
    g = situation("classic", [["red-reverse", "red-1"], ["blue-1"]], top="red-5",
                  agents=[Scripted(plays=["red-reverse"]), Scripted()])
    g.turn()
    assert g.owed[1] == 1 and g.next_to_act() == 0


def test_target_names_the_victim_of_the_following_draw_only():
    t = table_with({"draw-two": (Effect("target"), Effect("draw", n=2), Effect("draw", n=1))})
    g = game(t, [["red-draw-two", "red-1"], ["blue-1"], ["green-1"], ["yellow-2"]],
             agents=[Scripted(plays=["red-draw-two"], targets=[2])] + [Scripted() for _ in range(3)])
    g.turn()
    assert len(g.hands[2]) == 1 + 2 and len(g.hands[1]) == 1 + 1
    assert g.owed[2] == 1 and g.owed[1] == 1 and g.next_to_act() == 3


def test_a_targeted_draw_is_not_stacked_even_under_stacking():
    t = table_with({"draw-two": (Effect("target"), Effect("draw", n=2))}, stacking="equal-or-higher")
    g = game(t, [["red-draw-two", "red-1"], ["blue-1"], ["green-1"]],
             agents=[Scripted(plays=["red-draw-two"], targets=[2]), Scripted(), Scripted()])
    g.turn()
    assert g.penalty == 0 and len(g.hands[2]) == 3 and g.owed[2] == 1


@pytest.mark.parametrize("op", ["skip_all", "play_again"])
def test_skip_all_and_play_again_the_player_plays_again_and_nobody_owes(op):
    t = table_with({"skip": (Effect(op),)})
    g = game(t, [["red-skip", "red-1", "red-2"], ["blue-1"], ["green-1"]],
             agents=[Scripted(plays=["red-skip"]), Scripted(), Scripted()])
    g.turn()
    assert g.current == 0 and not any(g.owed)


def test_play_again_after_a_skip_the_skip_is_still_owed():
    t = table_with({"skip": (SKIP, Effect("play_again"))})
    g = game(t, [["red-skip", "red-1", "red-2"], ["blue-1"], ["green-1"]],
             agents=[Scripted(plays=["red-skip"]), Scripted(), Scripted()])
    g.turn()
    assert g.current == 0 and g.owed[1] == 1


def test_everyone_draws_nobody_owes_a_turn():
    t = table_with({"skip": (Effect("everyone_draws", n=2),)})
    g = game(t, [["red-skip", "red-1"], ["blue-1"], ["green-1"]], agents=[Scripted(plays=["red-skip"]),
                                                                         Scripted(), Scripted()])
    g.turn()
    assert [len(h) for h in g.hands] == [1, 3, 3] and not any(g.owed) and g.current == 1


def test_steal_takes_a_random_card_from_the_chosen_player():
    t = table_with({"skip": (Effect("steal"),)})
    hands = [["red-skip", "red-1"], ["blue-1", "blue-2", "blue-3"], ["green-1", "green-2"]]
    got = set()
    for seed in range(12):
        g = game(t, hands, agents=[Scripted(plays=["red-skip"], targets=[1]), Scripted(), Scripted()], seed=seed)
        g.turn()
        assert len(g.hands[0]) == 2 and len(g.hands[1]) == 2 and g.current == 1
        stolen = ids(g, 0)[1]
        assert stolen in {"blue-1", "blue-2", "blue-3"} and stolen not in ids(g, 1)
        got.add(stolen)
    assert len(got) > 1                            # random, through the game's generator


def test_steal_never_takes_a_last_card_and_does_nothing_after_going_out():
    t = table_with({"skip": (Effect("steal"),)})
    g = game(t, [["red-skip", "red-1"], ["blue-1"], ["green-1"]],
             agents=[Scripted(plays=["red-skip"]), Scripted(), Scripted()])
    g.turn()
    assert [len(h) for h in g.hands] == [1, 1, 1]
    g = game(t, [["red-skip"], ["blue-1", "blue-2"], ["green-1"]],
             agents=[Scripted(plays=["red-skip"]), Scripted(), Scripted()])
    g.turn()
    assert g.outcome == FINISHED and g.winner == 0 and len(g.hands[1]) == 2


@pytest.mark.parametrize(("direction", "dir_", "expect"), [
    ("play", 1, [2, 0, 1]), ("play", -1, [1, 2, 0]),
    ("left", -1, [2, 0, 1]), ("right", 1, [1, 2, 0])])
def test_pass_hands_direction(direction, dir_, expect):
    # the hand seat i ends up with came from seat expect[i]
    t = table_with({"skip": (Effect("pass_hands", direction=direction),)})
    hands = [["red-skip", "red-1"], ["blue-1"], ["green-1"]]
    g = game(t, hands, agents=[Scripted(plays=["red-skip"]), Scripted(), Scripted()], direction=dir_)
    g.turn()
    before = [["red-1"], ["blue-1"], ["green-1"]]
    assert [ids(g, i) for i in range(3)] == [before[expect[i]] for i in range(3)]


@pytest.mark.parametrize("op", ["steal", "play_again"])
def test_steal_and_play_again_as_the_start_card_do_nothing(op):
    t = table_with({"skip": (Effect(op),)})
    g = Game(t, 3, 0, [Scripted() for _ in range(3)])
    pile = list(t.deck_faces)
    pile.remove(face(t, "red-skip"))
    dealt = 3 * t.hand_size
    g.setup([*pile[:-dealt], face(t, "red-skip"), *pile[-dealt:]])
    assert t.faces[g.discard[-1]].id == "red-skip"
    assert g.current == 0 and all(len(h) == 7 for h in g.hands) and not any(g.owed)


def test_a_second_wild_draw_four_does_not_make_the_first_illegal():
    g = situation("flex-spectrum", [["wild-draw-four-flex", "wild-draw-four-flex"], ["green-1"]], top="red-4",
                  options={"challenge": False})
    assert move(g.table, "wild-draw-four-flex") in g.legal_moves(0)


def test_a_card_played_by_its_flex_side_lies_on_the_pile_as_that_side():
    # red-skip-flex-skip-all played as Skip All (flex colour green): the pile shows Skip All in red
    g = situation("flex-spectrum", [["red-skip-flex-skip-all", "blue-9", "red-1"], ["blue-skip", "blue-1"],
                                    ["green-1"]], top="green-4",
                  agents=[Scripted(plays=["red-skip-flex-skip-all@flex"]), Scripted(), Scripted()])
    g.turn()
    assert g.table.move_symbol[g.top] == g.table.kinds.index("skip-all") and g.color == g.table.colors.index("red")
    legal = {g.table.faces[m >> 1].id for m in g.legal_moves(1)}
    assert "blue-skip" not in legal                # a Skip does not match a Skip All


class Catcher(Scripted):
    """Answers UNO catches from a list (then never)."""

    def __init__(self, catches=(), **kw):
        super().__init__(**kw)
        self.catches = list(catches)

    def catch(self, d, o, rng):
        return self.catches.pop(0) if self.catches else False


def test_classic_a_missed_uno_may_be_caught_only_before_the_next_turn():
    agents = [Scripted(plays=["red-5"], uno=False), Catcher([False, True]), Catcher([False, True])]
    g = situation("classic", [["red-5", "red-6"], ["blue-9", "red-8"], ["green-9", "green-8"]], top="red-2",
                  draw=["yellow-1"] * 4, agents=agents)
    g.turn()
    g.turn()
    assert len(g.hands[0]) == 1 and g.uno_open == -1


def test_no_mercy_a_missed_uno_may_be_caught_until_the_next_turn_ends():
    agents = [Scripted(plays=["red-5"], uno=False), Catcher([False, True]), Catcher([False])]
    g = situation("no-mercy", [["red-5", "red-6"], ["blue-9", "red-8"], ["green-9", "green-8"]], top="red-2",
                  draw=["yellow-1"] * 4, agents=agents)
    g.turn()
    assert g.uno_open == 0 and len(g.hands[0]) == 1
    g.turn()                                       # at the end of 1's turn, 1 catches it
    assert len(g.hands[0]) == 1 + 2 and g.uno_open == -1


def test_a_waiting_penalty_is_in_the_snapshot():
    g = situation("no-mercy", [["red-1"], ["blue-1"], ["green-1"]], top="red-draw-two")
    before = g.snapshot()
    g.op_pending(Pending(1, 2, 2, cards=1))
    assert g.snapshot() != before and Pending(1, 2, 2, cards=1) in g.table_snapshot()


def test_a_wild_targeted_draw_goes_back_as_the_start_card_and_check_agrees():
    """docs/rules.md, section 2: under the classic start rule a wild that makes someone draw goes
    back, targeted or not; the engine and check ask Deck.can_start."""
    from deckgen.check import is_start_card

    t = table_with({"wild": (Effect("target"), Effect("draw", n=2), Effect("choose_color"))})
    deck_card = next(c for c in t.faces if c.id == "wild")
    wild, five = face(t, "wild"), face(t, "red-5")
    assert not t.can_start[wild] and t.can_start[five]
    d = manifest.load_deck("classic")
    kinds = {**d.kinds, "wild": dataclasses.replace(d.kinds["wild"], effects=t.effects[2 * wild])}
    homemade = dataclasses.replace(d, kinds=kinds)
    assert not homemade.can_start(deck_card) and not is_start_card(homemade, deck_card)
    assert t.draw_val[2 * wild] == 0                 # a targeted draw is not a stackable penalty
    g = Game(t, 2, 3, [Scripted(), Scripted()])
    pile = list(t.deck_faces)
    pile.remove(wild)
    pile.remove(five)
    g.setup([*pile[:-14], five, wild, *pile[-14:]])
    assert g.discard == [five] and wild in g.draw_pile


def _start_with(t, card, agents):
    g = Game(t, 3, 0, agents)
    pile = list(t.deck_faces)
    pile.remove(face(t, card))
    dealt = 3 * t.hand_size
    g.setup([*pile[:-dealt], face(t, card), *pile[-dealt:]])
    return g


def test_a_wild_that_names_no_colour_as_the_start_card_has_its_colour_named_by_the_first_player():
    """docs/rules.md, the start card: a wild whose effects name no colour (a homemade 'Wild Hop',
    a skip) left the pile without a colour, so only wild cards could follow it and most games hit
    the turn cap; the rulebook says the first player names the colour after any wild start card."""
    t = table_with({"wild": (SKIP,)})
    g = _start_with(t, "wild", [Scripted(colors=["green"]), Scripted(), Scripted()])
    assert t.faces[g.discard[-1]].id == "wild"
    assert g.color == t.colors.index("green")
    assert g.next_to_act() == 1                          # its skip acts on the first player too
    assert g.pile_key == t.pile_key(g.top, g.color)      # a green card may follow it, as after a Wild


def test_a_wild_that_names_no_colour_keeps_the_colour_in_play():
    t = table_with({"wild": (SKIP,)})
    g = game(t, [["wild", "red-1"], ["blue-2"], ["red-3"]], top="red-5",
             agents=[Scripted(plays=["wild"]), Scripted(), Scripted()])
    g.turn()
    assert g.color == t.colors.index("red") and g.next_to_act() == 2


def test_a_card_whose_player_is_knocked_out_by_a_lost_challenge_does_no_more():
    """A Wild Draw Four played with a card of the colour in hand, challenged: its player draws 4,
    past the mercy limit, and is out. The card's colour was then still asked of them (a player out
    of the hand answering a question); the rest of a card whose player is out does nothing, the
    colour stays as it was and the next player still in plays on."""
    t = table_for("classic", mercy_limit=6)
    g = game(t, [["wild-draw-four", "red-1", "red-2"], ["blue-1", "blue-2"], ["green-1", "green-2"]], top="red-5",
             draw=["yellow-1", "yellow-2", "yellow-3", "yellow-4", "green-3", "green-4"],
             agents=[Scripted(plays=["wild-draw-four"], colors=["blue"]), Scripted(challenge=True), Scripted()])
    g.turn()
    assert not g.alive[0] and not g.hands[0] and g.outcome is None
    assert g.color == t.colors.index("red")                 # nobody named a colour
    assert g.next_to_act() == 1 and len(g.hands[1]) == 2     # the challenger won: no draw, and they play
    g.check()


def test_a_first_player_knocked_out_by_the_start_card_is_out_and_the_rest_of_it_does_nothing():
    """The start card [roulette, draw 1 without a lost turn]: the first player turns cards past the
    mercy limit and is out; its draw gave them a card while out."""
    t = table_with({"skip": (Effect("roulette"), Effect("draw", n=1, lose_turn=False))}, mercy_limit=9)
    pile = list(t.deck_faces)
    start, turned = face(t, "red-skip"), [f for f in pile if t.colors[t.color[f]] == "red" and f != face(t, "red-skip")][:3]
    for f in (start, *turned):
        pile.remove(f)
    dealt = 3 * t.hand_size
    g = Game(t, 3, 0, [Scripted(colors=["green"]), Scripted(), Scripted()])
    g.setup([*pile[:-dealt], *turned, start, *pile[-dealt:]])
    assert t.faces[g.discard[-1]].id == "red-skip"
    assert not g.alive[0] and not g.hands[0]
    assert g.next_to_act() == 1 and len(g.hands[1]) == 7     # the draw of 1 did not go round to them
    g.check()
