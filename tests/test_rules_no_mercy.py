"""UNO Show 'em No Mercy: one test per rule of docs/rules.md, each setting up the exact situation."""

import pytest

from deckgen.rules.actions import stack_moves
from deckgen.rules.engine import Game
from deckgen.rules.scenario import Scripted, color, face, move, situation, table_for
from deckgen.rules.state import FINISHED, Pending


def ids(g, p):
    return [g.table.faces[f].id for f in g.hands[p]]


def test_start_card_not_a_number_is_set_aside_and_next_turned():
    t = table_for("no-mercy")
    g = Game(t, 2, 0, [Scripted(), Scripted()])
    pile = list(t.deck_faces)
    for cid in ("wild-draw-six", "red-skip", "blue-4"):
        pile.remove(face(t, cid))
    dealt = 2 * t.hand_size
    order = pile[:-dealt] + [face(t, c) for c in ("blue-4", "red-skip", "wild-draw-six")] + pile[-dealt:]
    g.setup(order)
    assert t.faces[g.discard[-1]].id == "blue-4"
    assert sorted(g.aside) == sorted([face(t, "wild-draw-six"), face(t, "red-skip")])
    assert g.next_to_act() == 0 and len(g.hands[1]) == 7


def test_no_playable_card_draw_until_playable_then_play_it():
    g = situation("no-mercy", [["blue-1"], ["yellow-1"]], top="red-5", draw=["green-1", "blue-2", "red-9", "red-8"])
    g.turn()
    assert g.discard[-1] == face(g.table, "red-9")
    assert ids(g, 0) == ["blue-1", "green-1", "blue-2"]
    assert g.next_to_act() == 1


def test_no_mercy_may_not_draw_while_holding_a_playable_card():
    a = Scripted(plays=["draw"])
    g = situation("no-mercy", [["red-1"], ["yellow-1"]], top="red-5", draw=["blue-3"], agents=[a, Scripted()])
    g.turn()
    assert g.discard[-1] == face(g.table, "red-1")      # asked, it may not draw: the engine plays


def test_stacking_equal_or_higher_draw_card_any_colour():
    agents = [Scripted(plays=["red-draw-four"]), Scripted(plays=["wild-draw-six"]), Scripted()]
    g = situation("no-mercy", [["red-draw-four", "red-1"], ["wild-draw-six", "blue-draw-two", "blue-1"],
                               ["green-1"]], top="red-5", draw=["yellow-1"] * 12, agents=agents)
    g.turn()
    assert g.penalty == 4 and g.next_to_act() == 1
    stack = {g.table.faces[m >> 1].id for m in stack_moves(g, 1)}
    assert stack == {"wild-draw-six"}              # the Draw Two is lower than 4: not allowed
    g.turn()
    assert g.penalty == 10 and g.next_to_act() == 2


def test_first_player_who_does_not_stack_draws_the_whole_total_and_loses_turn():
    agents = [Scripted(plays=["red-draw-two"]), Scripted(stack=False), Scripted()]
    g = situation("no-mercy", [["red-draw-two", "red-1"], ["blue-draw-two", "blue-1"], ["green-1"]], top="red-5",
                  draw=["yellow-1"] * 6, agents=agents)
    g.turn()
    g.op_pending(g.waiting._replace(total=g.waiting.total + 3, cards=g.waiting.cards + 1))                     # as if three more had been stacked: the total is drawn
    g.turn()
    assert len(ids(g, 1)) == 2 + 5 and g.next_to_act() == 2 and g.penalty == 0


def test_colour_roulette_is_not_a_draw_card():
    t = table_for("no-mercy")
    assert t.draw_val[move(t, "wild-color-roulette")] == 0
    g = situation("no-mercy", [["red-draw-two", "red-1"], ["wild-color-roulette", "blue-1"], ["green-1"]],
                  top="red-5", agents=[Scripted(plays=["red-draw-two"]), Scripted(), Scripted()],
                  draw=["yellow-1"] * 3)
    g.turn()
    assert stack_moves(g, 1) == []


def test_mercy_player_with_25_cards_is_out_and_hand_goes_under_draw_pile():
    hand = ["blue-1"] * 20 + ["green-2"] * 3
    g = situation("no-mercy", [hand, ["yellow-1"], ["green-1"]], top="red-5",
                  draw=["yellow-3", "yellow-4", "red-7"], cur=0)
    g.turn()
    assert not g.alive[0] and g.knockouts == 1
    assert g.hands[0] == []
    assert g.draw_pile[:25].count(face(g.table, "blue-1")) == 20     # under the draw pile (bottom first)
    assert g.draw_pile[-1] == face(g.table, "red-7")
    assert g.next_to_act() == 1


def test_last_player_standing_wins():
    g = situation("no-mercy", [["blue-1"] * 24, ["yellow-1"]], top="red-5", draw=["green-3", "red-7"])
    g.turn()
    assert g.outcome == FINISHED and g.winner == 1


def test_seven_swaps_hands_with_chosen_player():
    agents = [Scripted(plays=["red-7"], targets=[2]), Scripted(), Scripted()]
    g = situation("no-mercy", [["red-7", "red-1"], ["yellow-1"], ["green-1", "green-2"]], top="red-5", agents=agents)
    g.turn()
    assert ids(g, 0) == ["green-1", "green-2"] and ids(g, 2) == ["red-1"]


def test_zero_passes_every_hand_to_next_player_in_current_direction():
    g = situation("no-mercy", [["red-0", "red-1"], ["yellow-1"], ["green-1"], ["blue-1"]], top="red-5",
                  agents=[Scripted(plays=["red-0"])] + [Scripted() for _ in range(3)], direction=-1)
    g.turn()
    assert ids(g, 3) == ["red-1"] and ids(g, 2) == ["blue-1"] and ids(g, 1) == ["green-1"] and ids(g, 0) == ["yellow-1"]


def test_discard_all_also_discards_every_card_of_that_colour():
    g = situation("no-mercy", [["red-discard-all", "red-1", "red-skip", "blue-2"], ["yellow-1"]], top="red-5",
                  agents=[Scripted(plays=["red-discard-all"]), Scripted()])
    g.turn()
    assert ids(g, 0) == ["blue-2"]
    assert g.discard[-1] == face(g.table, "red-discard-all")


def test_skip_everyone_player_plays_again():
    g = situation("no-mercy", [["red-skip-everyone", "red-1", "red-2"], ["yellow-1"], ["green-1"]], top="red-5",
                  agents=[Scripted(plays=["red-skip-everyone"]), Scripted(), Scripted()])
    g.turn()
    assert g.next_to_act() == 0


def test_wild_reverse_draw_four_reverses_then_next_in_new_direction_draws():
    agents = [Scripted(plays=["wild-reverse-draw-four"], colors=["green"]), Scripted(), Scripted(stack=False)]
    g = situation("no-mercy", [["wild-reverse-draw-four", "red-1"], ["yellow-1"], ["green-1"]], top="red-5",
                  draw=["blue-1"] * 4, agents=agents)
    g.turn()
    assert g.direction == -1 and g.next_to_act() == 2 and g.penalty == 4
    g.turn()
    assert len(g.hands[2]) == 5 and g.next_to_act() == 1
    assert g.color == color(g.table, "green")


PLAYER_DRAWS = {"two_player_reverse_draw": "player"}


def test_wild_reverse_draw_four_with_two_players_the_other_player_draws_and_loses_one_turn():
    """docs/rules.md, section 6 (two_player_reverse_draw) and section 5: one card costs a player at
    most one turn, so the reverse acting as a skip and the draw together cost the other player one."""
    agents = [Scripted(plays=["wild-reverse-draw-four", "red-1"]), Scripted(stack=False)]
    g = situation("no-mercy", [["wild-reverse-draw-four", "red-1", "red-2"], ["yellow-1"]], top="red-5",
                  draw=["blue-1"] * 4, agents=agents)
    g.turn()
    assert g.waiting.victim == 1 and g.penalty == 4 and g.owed == [0, 0] and g.next_to_act() == 1
    g.turn()                                  # 1 draws the 4: that is the turn they lose
    assert len(g.hands[1]) == 1 + 4 and g.owed == [0, 0] and g.next_to_act() == 0
    g.turn()                                  # play came back to 0
    assert ids(g, 0) == ["red-2"] and g.next_to_act() == 1


def test_wild_reverse_draw_four_with_two_players_the_player_who_played_it_draws():
    agents = [Scripted(plays=["wild-reverse-draw-four"], stack=False), Scripted()]
    g = situation("no-mercy", [["wild-reverse-draw-four", "red-1"], ["yellow-1"]], top="red-5",
                  draw=["blue-1"] * 4, agents=agents, options=PLAYER_DRAWS)
    g.turn()
    # the reverse acts as a skip: the other player owes a lost turn; the 4 wait for the player
    assert g.owed[1] == 1 and g.waiting.victim == 0 and g.penalty == 4 and g.next_to_act() == 0
    g.turn()                                  # 1 loses the turn
    g.turn()                                  # 0 draws the 4
    assert len(g.hands[0]) == 5 and len(g.hands[1]) == 1 and g.next_to_act() == 1


def test_wild_reverse_draw_four_two_players_stack_sends_penalty_back():
    agents = [Scripted(plays=["wild-reverse-draw-four", "wild-draw-six"]), Scripted(stack=False)]
    g = situation("no-mercy", [["wild-reverse-draw-four", "wild-draw-six", "red-1"], ["yellow-1"]], top="red-5",
                  draw=["blue-1"] * 10, agents=agents, options=PLAYER_DRAWS)
    g.turn()
    g.turn()                                  # 1 loses the turn (the reverse acts as a skip)
    g.turn()                                  # 0 stacks a Draw Six: the 10 go to 1
    assert g.next_to_act() == 1 and g.penalty == 10
    g.turn()
    assert len(g.hands[1]) == 11


def test_wild_draw_six_and_ten_the_player_names_the_colour():
    agents = [Scripted(plays=["wild-draw-ten"], colors=["yellow"]), Scripted(stack=False)]
    g = situation("no-mercy", [["wild-draw-ten", "red-1"], ["blue-1"]], top="red-5", draw=["green-1"] * 10,
                  agents=agents)
    g.turn()
    assert g.color == color(g.table, "yellow") and g.penalty == 10


def test_colour_roulette_next_player_names_colour_turns_until_it_and_loses_turn():
    agents = [Scripted(plays=["wild-color-roulette"]), Scripted(colors=["blue"]), Scripted()]
    g = situation("no-mercy", [["wild-color-roulette", "red-1"], ["yellow-1"], ["green-1"]], top="red-5",
                  draw=["red-2", "wild-draw-six", "green-3", "blue-9", "red-4"], agents=agents)
    g.turn()
    assert ids(g, 1) == ["yellow-1", "red-2", "wild-draw-six", "green-3", "blue-9"]
    assert g.color == color(g.table, "blue") and g.next_to_act() == 2
    assert g.draw_pile == [face(g.table, "red-4")]


def test_both_piles_empty_player_stops_drawing_and_turn_passes():
    g = situation("no-mercy", [["blue-1"], ["yellow-1"], ["green-1"]], top="red-5")
    g.turn()
    assert g.next_to_act() == 1 and g.dry == 1 and g.outcome is None


def test_knockout_bonus_250_per_player_knocked_out():
    g = situation("no-mercy", [["red-1"], ["yellow-2"], ["green-3"]], top="red-5",
                  agents=[Scripted(plays=["red-1"]), Scripted(), Scripted()])
    g.op_knockout(2)
    g.turn()
    assert g.winner == 0 and g.score == 2 + 250


# ---------------------------------------------------------------- edge cases (audit)

def knock_out_seat(g, p):
    g.op_knockout(p)


def test_zero_passes_hands_only_among_players_still_in():
    g = situation("no-mercy", [["red-0", "red-1"], ["yellow-1"], ["green-1"], ["blue-1"]], top="red-5",
                  agents=[Scripted(plays=["red-0"])] + [Scripted() for _ in range(3)])
    knock_out_seat(g, 1)
    g.turn()
    assert ids(g, 2) == ["red-1"] and ids(g, 3) == ["green-1"] and ids(g, 0) == ["blue-1"]
    assert ids(g, 1) == [] and g.next_to_act() == 2


def test_seven_swap_offers_only_players_still_in():
    seen = []

    class Swapper(Scripted):
        def swap(self, d, o, rng):
            seen.append(list(d.options))
            return d.options[-1]

    g = situation("no-mercy", [["red-7", "red-1"], ["yellow-1"], ["green-1", "green-2"], ["blue-1"]], top="red-5",
                  agents=[Swapper(plays=["red-7"]), Scripted(), Scripted(), Scripted()])
    knock_out_seat(g, 2)
    g.turn()
    assert seen == [[1, 3]]
    assert ids(g, 0) == ["blue-1"] and ids(g, 3) == ["red-1"]


def test_seven_or_zero_as_last_card_goes_out_without_swapping():
    g = situation("no-mercy", [["red-7"], ["yellow-1", "yellow-2"], ["green-1"]], top="red-5",
                  agents=[Scripted(plays=["red-7"]), Scripted(), Scripted()])
    g.turn()
    assert g.outcome == FINISHED and g.winner == 0 and ids(g, 1) == ["yellow-1", "yellow-2"]


def test_discard_all_of_the_last_cards_wins_the_hand():
    g = situation("no-mercy", [["red-discard-all", "red-1", "red-skip"], ["yellow-1"], ["green-2"]], top="red-5",
                  agents=[Scripted(plays=["red-discard-all"]), Scripted(), Scripted()])
    g.turn()
    assert ids(g, 0) == [] and g.outcome == FINISHED and g.winner == 0
    assert g.score == 1 + 2
    assert g.discard[-1] == face(g.table, "red-discard-all") and len(g.discard) == 4


def test_skip_everyone_with_two_players_plays_again():
    g = situation("no-mercy", [["red-skip-everyone", "red-1"], ["yellow-1"]], top="red-5",
                  agents=[Scripted(plays=["red-skip-everyone"]), Scripted()])
    g.turn()
    assert g.next_to_act() == 0 and ids(g, 0) == ["red-1"]


def test_skip_with_two_players_plays_again():
    g = situation("no-mercy", [["red-skip", "red-1"], ["yellow-1"]], top="red-5",
                  agents=[Scripted(plays=["red-skip"]), Scripted()])
    g.turn()
    assert g.next_to_act() == 0


def test_reverse_with_two_players_acts_as_skip():
    g = situation("no-mercy", [["red-reverse", "red-1"], ["yellow-1"], ["green-1"]], top="red-5",
                  agents=[Scripted(plays=["red-reverse"]), Scripted(), Scripted()])
    knock_out_seat(g, 2)                  # two players still in
    g.turn()
    assert g.next_to_act() == 0


@pytest.mark.parametrize("option", ["opponent", "player"])
def test_stacking_wild_reverse_draw_four_on_a_draw_two_with_two_players_sends_it_back(option):
    """As a stacking answer it costs the other player one turn, not two (docs/rules.md, sections 5
    and 6): answering the stack is that turn; the reverse acting as a skip adds none."""
    agents = [Scripted(plays=["red-draw-two"], stack=False), Scripted(plays=["wild-reverse-draw-four"])]
    g = situation("no-mercy", [["red-draw-two", "red-1", "red-2"], ["wild-reverse-draw-four", "blue-1", "blue-2"]],
                  top="red-5", draw=["yellow-1"] * 6, agents=agents, options={"two_player_reverse_draw": option})
    g.turn()
    assert g.next_to_act() == 1 and g.penalty == 2
    g.turn()                              # 1 stacks the Wild Reverse Draw Four: the total goes back to 0
    assert g.next_to_act() == 0 and g.penalty == 6 and g.owed == [0, 0]
    g.turn()
    assert len(ids(g, 0)) == 2 + 6 and g.next_to_act() == 1 and g.penalty == 0 and g.owed == [0, 0]


def test_stacking_wild_reverse_draw_four_with_three_players_sends_the_stack_back():
    agents = [Scripted(plays=["red-draw-two"], stack=False), Scripted(plays=["wild-reverse-draw-four"]), Scripted()]
    g = situation("no-mercy", [["red-draw-two", "red-1"], ["wild-reverse-draw-four", "blue-1"], ["green-1"]],
                  top="red-5", draw=["yellow-1"] * 6, agents=agents)
    g.turn()
    g.turn()
    assert g.direction == -1 and g.next_to_act() == 0 and g.penalty == 6
    g.turn()
    assert len(ids(g, 0)) == 1 + 6 and g.next_to_act() == 2


def test_stacking_is_equal_or_higher_than_the_last_card_not_the_total():
    g = situation("no-mercy", [["red-draw-two", "red-1"], ["blue-draw-two", "blue-draw-four", "blue-1"], ["green-1"]],
                  top="red-5", agents=[Scripted(plays=["red-draw-two"]), Scripted(), Scripted()])
    g.turn()
    g.op_pending(g.waiting._replace(total=8, cards=3))     # a stack of several cards whose last card was a Draw Two
    assert {g.table.faces[m >> 1].id for m in stack_moves(g, 1)} == {"blue-draw-two", "blue-draw-four"}


def test_mercy_knockout_while_drawing_a_stack_stops_the_draw_and_play_goes_on():
    hand = ["blue-1"] * 20
    g = situation("no-mercy", [["red-1"], hand, ["green-1"]], top="red-5", draw=["yellow-2"] * 10, cur=1,
                  agents=[Scripted(), Scripted(stack=False), Scripted()])
    g.op_pending(Pending(g.current, 10, 10, cards=2))
    g.turn()
    assert not g.alive[1] and g.knockouts == 1 and g.penalty == 0
    assert g.hands[1] == [] and g.next_to_act() == 2
    # five drawn (the 25th card knocks out); the other five stay on the draw pile, under the returned hand
    assert len(g.draw_pile) == 5 + 25
    assert g.outcome is None


def test_mercy_knockout_during_colour_roulette():
    agents = [Scripted(plays=["wild-color-roulette"]), Scripted(colors=["blue"]), Scripted()]
    g = situation("no-mercy", [["wild-color-roulette", "red-1"], ["yellow-1"] * 23, ["green-1"]], top="red-5",
                  draw=["red-2", "red-3", "red-4", "blue-9"], agents=agents)
    g.turn()
    assert not g.alive[1] and g.hands[1] == []
    assert g.draw_pile[-1] == face(g.table, "red-4")        # turning stopped at the 25th card
    assert g.color == color(g.table, "blue")
    assert g.next_to_act() == 2 and g.outcome is None


def test_mercy_knockout_leaving_one_player_ends_the_hand():
    agents = [Scripted(plays=["wild-color-roulette"]), Scripted(colors=["blue"])]
    g = situation("no-mercy", [["wild-color-roulette", "red-1"], ["yellow-1"] * 24], top="red-5",
                  draw=["red-2", "blue-9"], agents=agents)
    g.turn()
    assert g.outcome == FINISHED and g.winner == 0 and g.score == 250      # nobody else holds cards


def test_colour_roulette_with_no_card_of_the_named_colour_left_stops_when_piles_run_out():
    agents = [Scripted(plays=["wild-color-roulette"]), Scripted(colors=["blue"]), Scripted()]
    g = situation("no-mercy", [["wild-color-roulette", "red-1"], ["yellow-1"], ["green-1"]], top="red-5",
                  draw=["red-2", "green-3"], discard=["yellow-7", "wild-draw-six"], agents=agents)
    g.turn()
    # the draw pile, then the reshuffled discard pile (all but the Roulette on top), all turned: no blue
    assert sorted(ids(g, 1)) == sorted(["yellow-1", "red-2", "green-3", "yellow-7", "wild-draw-six", "red-5"])
    assert g.discard == [face(g.table, "wild-color-roulette")]
    assert g.draw_pile == [] and g.dry == 1 and g.reshuffles == 1
    assert g.color == color(g.table, "blue") and g.next_to_act() == 2 and g.outcome is None


def test_colour_roulette_as_last_card_applies_then_the_player_wins():
    agents = [Scripted(plays=["wild-color-roulette"]), Scripted(colors=["green"]), Scripted()]
    g = situation("no-mercy", [["wild-color-roulette"], ["yellow-1"], ["blue-2"]], top="red-5",
                  draw=["red-3", "green-4"], agents=agents)
    g.turn()
    assert g.outcome == FINISHED and g.winner == 0 and g.score == 1 + 3 + 4 + 2


def test_draw_card_as_last_card_the_stack_is_drawn_before_scoring():
    g = situation("no-mercy", [["wild-draw-six"], ["yellow-1", "wild-draw-ten"], ["blue-2"]], top="red-5",
                  draw=["red-3"] * 6, agents=[Scripted(plays=["wild-draw-six"]), Scripted(), Scripted()])
    g.turn()
    assert g.outcome == FINISHED and g.winner == 0
    assert len(ids(g, 1)) == 2 + 6                # the hand is over: no stacking back
    assert g.score == 1 + 50 + 6 * 3 + 2


def test_wild_reverse_draw_four_as_last_card_with_two_players_wins_and_nobody_draws():
    g = situation("no-mercy", [["wild-reverse-draw-four"], ["yellow-1"]], top="red-5", draw=["red-3"] * 4,
                  agents=[Scripted(plays=["wild-reverse-draw-four"]), Scripted()], options=PLAYER_DRAWS)
    g.turn()
    assert g.outcome == FINISHED and g.winner == 0 and ids(g, 1) == ["yellow-1"]


def test_draw_until_playable_with_both_piles_dry_keeps_the_drawn_cards_and_passes():
    g = situation("no-mercy", [["blue-1"], ["yellow-1"]], top="red-5", draw=["green-2", "green-3"])
    g.turn()
    assert ids(g, 0) == ["blue-1", "green-2", "green-3"] and g.next_to_act() == 1 and g.dry == 1


def test_a_stacked_penalty_drawn_from_dry_piles_takes_what_is_left():
    g = situation("no-mercy", [["red-1"], ["blue-1"], ["green-1"]], top="red-5", draw=["yellow-2"] * 3, cur=1,
                  agents=[Scripted(), Scripted(stack=False), Scripted()])
    g.op_pending(Pending(g.current, 6, 6, cards=2))
    g.turn()
    assert len(ids(g, 1)) == 4 and g.penalty == 0 and g.next_to_act() == 2 and g.dry == 1


def test_start_card_may_be_a_seven_or_zero_without_effect():
    t = table_for("no-mercy")
    g = Game(t, 3, 0, [Scripted(), Scripted(), Scripted()])
    pile = list(t.deck_faces)
    pile.remove(face(t, "red-0"))
    dealt = 3 * t.hand_size
    g.setup([*pile[:-dealt], face(t, "red-0"), *pile[-dealt:]])
    assert t.faces[g.discard[-1]].id == "red-0" and g.next_to_act() == 0
    assert all(len(h) == 7 for h in g.hands) and not any(ev[0] == "pass_hands" for ev in g.log)


def test_a_penalty_waiting_for_a_knocked_out_player_passes_to_the_next_player_still_in():
    g = situation("no-mercy", [["red-1"], ["blue-1"], ["green-1"]], top="red-draw-two", draw=["yellow-2"] * 2,
                  cur=1, agents=[Scripted(), Scripted(), Scripted(stack=False)])
    knock_out_seat(g, 1)
    g.op_pending(Pending(g.current, 2, 2, cards=2))
    g.turn()
    assert g.next_to_act() == 2 and g.hands[1] == []
    g.turn()
    assert len(g.hands[2]) == 3 and g.penalty == 0


def test_engine_never_loops_when_nobody_can_play_or_draw_the_hand_stalls():
    g = situation("no-mercy", [["blue-1", "blue-2"], ["green-3"], ["yellow-4", "yellow-6"]], top="red-5")
    g.run()
    assert g.outcome == "stalled" and g.winner is None and g.turns <= 2 * 3
