"""UNO Flex Spectrum: one test per rule of docs/rules.md, each setting up the exact situation."""

import dataclasses

from deckgen import manifest
from deckgen.effects import Effect
from deckgen.rules.engine import Game
from deckgen.rules.scenario import Scripted, color, face, move, situation, table_for
from deckgen.rules.state import FINISHED, Pending

FLEX = "flex-spectrum"


def ids(g, p):
    return [g.table.faces[f].id for f in g.hands[p]]


def test_everyone_starts_with_power_card_green():
    t = table_for(FLEX)
    g = Game(t, 4, 1, Scripted())
    g.setup()
    assert g.power == [True] * 4


def test_flex_side_needs_green_and_turns_power_red():
    # red-2-flex: regular red, flex side yellow (+1)
    g = situation(FLEX, [["red-2-flex", "blue-9"], ["green-1"], ["cyan-1"]], top="yellow-4",
                  agents=[Scripted(plays=["red-2-flex@flex"]), Scripted(), Scripted()])
    assert move(g.table, "red-2-flex@flex") in g.legal_moves(0)
    g.turn()
    assert g.power[0] is False and g.flex_plays == 1
    g = situation(FLEX, [["red-2-flex", "blue-9"], ["green-1"], ["cyan-1"]], top="yellow-4",
                  power=[False, True, True])
    assert move(g.table, "red-2-flex@flex") not in g.legal_moves(0)


def test_when_every_player_is_red_all_turn_green():
    g = situation(FLEX, [["red-2-flex", "blue-9"], ["green-1"], ["cyan-1"]], top="yellow-4",
                  agents=[Scripted(plays=["red-2-flex@flex"]), Scripted(), Scripted()],
                  power=[True, False, False])
    g.turn()
    assert g.power == [True, True, True]


def test_flip_icon_number_turns_own_power_card_over():
    g = situation(FLEX, [["red-3-flip", "blue-9"], ["green-1"], ["cyan-1"]], top="red-4",
                  agents=[Scripted(plays=["red-3-flip"]), Scripted(), Scripted()])
    g.turn()
    assert g.power == [False, True, True]
    g = situation(FLEX, [["red-3-flip", "blue-9"], ["green-1"], ["cyan-1"]], top="red-4",
                  agents=[Scripted(plays=["red-3-flip"]), Scripted(), Scripted()],
                  power=[False, True, True])
    g.turn()
    assert g.power == [True, True, True]


def test_wild_all_flip_turns_every_power_card_and_player_names_colour():
    g = situation(FLEX, [["wild-all-flip", "blue-9"], ["green-1"], ["cyan-1"]], top="red-4",
                  agents=[Scripted(plays=["wild-all-flip"], colors=["lime"]), Scripted(), Scripted()],
                  power=[True, False, True])
    g.turn()
    assert g.power == [False, True, False]
    assert g.color == color(g.table, "lime")
    assert g.power_flips == 3


def test_flex_side_matches_by_flex_colour_and_current_colour_stays_regular():
    g = situation(FLEX, [["red-5-flex", "blue-9"], ["green-1"]], top="orange-1",
                  agents=[Scripted(plays=["red-5-flex@flex"]), Scripted()])
    assert move(g.table, "red-5-flex") not in g.legal_moves(0)       # regular side: red on orange, 5 on 1
    g.turn()
    assert g.color == color(g.table, "red")


def test_flex_action_side_applies_flex_effect_skip_all():
    # red-skip-flex-skip-all: flex side green (+2), Skip All
    g = situation(FLEX, [["red-skip-flex-skip-all", "blue-9"], ["green-1"], ["cyan-1"]], top="green-4",
                  agents=[Scripted(plays=["red-skip-flex-skip-all@flex"]), Scripted(), Scripted()])
    g.turn()
    assert g.next_to_act() == 0 and g.color == color(g.table, "red")


def test_flex_action_regular_side_applies_regular_effect():
    g = situation(FLEX, [["red-skip-flex-skip-all", "blue-9"], ["green-1"], ["cyan-1"]], top="red-4",
                  agents=[Scripted(plays=["red-skip-flex-skip-all"]), Scripted(), Scripted()])
    g.turn()
    assert g.next_to_act() == 2 and g.power[0] is True


def test_flex_reverse_skips_the_next_player():
    # red-reverse-flex-skip: flex side purple (+5), Skip
    g = situation(FLEX, [["red-reverse-flex-skip", "blue-9"], ["green-1"], ["cyan-1"]], top="purple-4",
                  agents=[Scripted(plays=["red-reverse-flex-skip@flex"]), Scripted(), Scripted()])
    g.turn()
    assert g.next_to_act() == 2 and g.direction == 1


def test_everyone_draws_one_every_other_player_draws_nobody_loses_turn():
    # red-draw-two-flex-everyone-draws-1: flex side brown (+8)
    g = situation(FLEX, [["red-draw-two-flex-everyone-draws-1", "blue-9"], ["green-1"], ["cyan-1"]], top="brown-4",
                  draw=["lime-1", "lime-2"], agents=[Scripted(plays=["red-draw-two-flex-everyone-draws-1@flex"]),
                                                     Scripted(), Scripted()])
    g.turn()
    assert len(g.hands[1]) == 2 and len(g.hands[2]) == 2 and len(g.hands[0]) == 1
    assert g.next_to_act() == 1


def test_everyone_draws_two_flex_wild_draws_two_each_and_names_colour():
    g = situation(FLEX, [["wild-flex-everyone-draws-2", "blue-9"], ["green-1"], ["cyan-1"]], top="brown-4",
                  draw=["lime-1", "lime-2", "lime-3", "lime-4"],
                  agents=[Scripted(plays=["wild-flex-everyone-draws-2@flex"], colors=["pink"]), Scripted(), Scripted()])
    g.turn()
    assert len(g.hands[1]) == 3 and len(g.hands[2]) == 3
    assert g.next_to_act() == 1 and g.color == color(g.table, "pink")


def test_targeted_draw_two_chosen_player_draws_two_nobody_loses_turn():
    g = situation(FLEX, [["wild-flex-targeted-draw-two", "blue-9"], ["green-1"], ["cyan-1"]], top="brown-4",
                  draw=["lime-1", "lime-2"],
                  agents=[Scripted(plays=["wild-flex-targeted-draw-two@flex"], targets=[2], colors=["cyan"]),
                          Scripted(), Scripted()])
    g.turn()
    assert len(g.hands[2]) == 3 and len(g.hands[1]) == 1
    assert g.next_to_act() == 1 and g.color == color(g.table, "cyan") and not g.owed[2]


def test_colorless_zero_playable_on_anything():
    g = situation(FLEX, [["colorless-0", "blue-9"], ["green-1"]], top="red-draw-two")
    assert move(g.table, "colorless-0") in g.legal_moves(0)


def test_colorless_pile_next_player_may_play_any_number_but_no_action_or_wild():
    g = situation(FLEX, [["colorless-0", "blue-9"], ["green-7", "red-skip", "wild-all-flip", "lime-3-flip"]],
                  top="red-4", agents=[Scripted(plays=["colorless-0"]), Scripted()])
    g.turn()
    assert g.colorless
    legal = {g.table.faces[m >> 1].id for m in g.legal_moves(1)}
    assert legal == {"green-7", "lime-3-flip"}


def test_colorless_pile_without_a_number_card_the_player_draws():
    g = situation(FLEX, [["colorless-0", "blue-9"], ["red-skip", "wild-all-flip"]], top="red-4",
                  draw=["cyan-5"], agents=[Scripted(plays=["colorless-0"]), Scripted()])
    g.turn()
    g.turn()
    assert g.discard[-1] == face(g.table, "cyan-5")       # a drawn number is playable


def test_duel_every_other_player_discards_the_number_or_draws_two():
    g = situation(FLEX, [["red-7-duel", "blue-9"], ["green-7", "green-1"], ["cyan-1"]], top="red-4",
                  draw=["lime-1", "lime-2"], agents=[Scripted(plays=["red-7-duel"]), Scripted(), Scripted()])
    g.turn()
    assert ids(g, 1) == ["green-1"]
    assert len(g.hands[2]) == 3
    assert g.next_to_act() == 1


def test_counter_duel_doubles_the_penalty_for_those_still_to_answer_once_round_the_table():
    agents = [Scripted(plays=["red-7-duel"]), Scripted(duel=["blue-7-duel@counter"]), Scripted(), Scripted()]
    g = situation(FLEX, [["red-7-duel", "blue-9"], ["blue-7-duel", "green-1"], ["cyan-1"], ["lime-5", "red-7"]],
                  top="red-4", draw=["pink-1", "pink-2", "pink-3", "pink-4", "pink-5", "pink-6", "pink-7", "pink-8"],
                  agents=agents)
    g.turn()
    # player 1 counter-duels: 2 and 3, still to answer, face a penalty of 4; the round ends at 0
    assert len(g.hands[2]) == 1 + 4
    assert ids(g, 3) == ["lime-5"]            # discards the 7 it shows
    assert ids(g, 0) == ["blue-9"]            # the first duel player never answers
    assert g.discard[-1] == face(g.table, "blue-7-duel")
    assert g.next_to_act() == 1 and g.duel is None     # play goes on after the first duel player (0)


def test_a_duel_card_showing_the_number_may_be_discarded_plainly():
    agents = [Scripted(plays=["red-7-duel"]), Scripted(duel=["blue-7-duel"]), Scripted()]
    g = situation(FLEX, [["red-7-duel", "blue-9"], ["blue-7-duel", "green-1"], ["cyan-1"]], top="red-4",
                  draw=["pink-1"] * 4, agents=agents)
    g.turn()
    assert ids(g, 1) == ["green-1"] and len(g.hands[2]) == 1 + 2      # the penalty stays 2
    assert g.discard[-1] == face(g.table, "red-7-duel")                  # discarded under the top card


def test_duel_penalty_stops_doubling_at_duel_penalty_max():
    agents = [Scripted(plays=["red-7-duel"]), Scripted(duel=["blue-7-duel@counter"]),
              Scripted(duel=["green-7-duel@counter"]), Scripted()]
    g = situation(FLEX, [["red-7-duel", "blue-9"], ["blue-7-duel", "green-1"], ["green-7-duel", "cyan-2"],
                         ["cyan-1"]], top="red-4", draw=["pink-1"] * 8, agents=agents,
                  options={"duel_penalty_max": 3})
    g.turn()
    assert len(g.hands[3]) == 1 + 3           # 2, doubled to 4, capped at 3; doubled again: still 3


def test_wild_draw_four_legal_only_without_any_other_playable_card():
    opts = {"challenge": False}
    g = situation(FLEX, [["wild-draw-four-flex", "wild-all-flip"], ["green-1"]], top="red-4", options=opts)
    assert move(g.table, "wild-draw-four-flex") not in g.legal_moves(0)      # wilds included
    g = situation(FLEX, [["wild-draw-four-flex", "blue-9"], ["green-1"]], top="red-4", options=opts)
    assert move(g.table, "wild-draw-four-flex") in g.legal_moves(0)


def test_wild_draw_four_challenge_had_playable_card_player_draws_four_challenger_nothing():
    agents = [Scripted(plays=["wild-draw-four-flex"], colors=["cyan"]), Scripted(challenge=True), Scripted()]
    g = situation(FLEX, [["wild-draw-four-flex", "red-9", "blue-1"], ["green-1"], ["lime-1"]], top="red-4",
                  draw=["pink-1"] * 6, agents=agents)
    g.turn()
    assert len(g.hands[0]) == 2 + 4 and len(g.hands[1]) == 1
    assert g.next_to_act() == 1 and g.color == color(g.table, "cyan")


def test_wild_draw_four_challenge_fails_challenger_draws_six_and_loses_turn():
    agents = [Scripted(plays=["wild-draw-four-flex"], colors=["cyan"]), Scripted(challenge=True), Scripted()]
    g = situation(FLEX, [["wild-draw-four-flex", "blue-1"], ["green-1"], ["lime-1"]], top="red-4",
                  draw=["pink-1"] * 6, agents=agents)
    g.turn()
    assert len(g.hands[1]) == 7 and g.next_to_act() == 2 and g.color == color(g.table, "cyan")


def test_wild_draw_four_unchallenged_next_player_draws_four_and_loses_turn():
    agents = [Scripted(plays=["wild-draw-four-flex"]), Scripted(challenge=False), Scripted()]
    g = situation(FLEX, [["wild-draw-four-flex", "blue-1"], ["green-1"], ["lime-1"]], top="red-4",
                  draw=["pink-1"] * 6, agents=agents)
    g.turn()
    assert len(g.hands[1]) == 5 and g.next_to_act() == 2


def test_targeted_draw_four_against_a_chosen_player():
    agents = [Scripted(plays=["wild-draw-four-flex@flex"], targets=[2], colors=["lime"]), Scripted(),
              Scripted(challenge=False)]
    g = situation(FLEX, [["wild-draw-four-flex", "blue-1"], ["green-1"], ["lime-1"], ["pink-2"]][:3], top="red-4",
                  draw=["pink-1"] * 6, agents=agents)
    g.turn()
    assert len(g.hands[2]) == 5 and len(g.hands[1]) == 1
    assert g.next_to_act() == 1 and g.owed[2]          # 2 loses their next turn
    g.turn()
    g.turn()
    assert g.next_to_act() == 0                              # 2's turn was lost


def test_start_card_non_number_is_set_aside():
    t = table_for(FLEX)
    g = Game(t, 2, 0, Scripted())
    pile = list(t.deck_faces)
    for cid in ("wild-all-flip", "cyan-4"):
        pile.remove(face(t, cid))
    order = [*pile[:-14], face(t, "cyan-4"), face(t, "wild-all-flip"), *pile[-14:]]
    g.setup(order)
    assert t.faces[g.discard[-1]].id == "cyan-4" and g.aside == [face(t, "wild-all-flip")]


def test_no_playable_card_draw_one_and_may_play_it():
    g = situation(FLEX, [["blue-9"], ["green-1"]], top="red-4", draw=["red-6", "red-8"])
    g.turn()
    assert g.discard[-1] == face(g.table, "red-6") and ids(g, 0) == ["blue-9"]
    g = situation(FLEX, [["blue-9"], ["green-1"]], top="red-4", draw=["lime-6", "red-8"])
    g.turn()
    assert ids(g, 0) == ["blue-9", "lime-6"] and g.next_to_act() == 1


# ---------------------------------------------------------------- edge cases (audit)

def test_wild_all_flip_turns_every_card_at_once_before_the_all_red_rule():
    # green, red, green -> red, green, red: no moment in between counts as "all red"
    g = situation(FLEX, [["wild-all-flip", "blue-9"], ["green-1"], ["cyan-1"]], top="red-4",
                  agents=[Scripted(plays=["wild-all-flip"], colors=["lime"]), Scripted(), Scripted()],
                  power=[False, True, False])
    g.turn()
    assert g.power == [True, False, True]


def test_wild_all_flip_when_all_end_red_all_turn_green():
    g = situation(FLEX, [["wild-all-flip", "blue-9"], ["green-1"], ["cyan-1"]], top="red-4",
                  agents=[Scripted(plays=["wild-all-flip"], colors=["lime"]), Scripted(), Scripted()])
    g.turn()
    assert g.power == [True, True, True]


def test_flip_icon_turning_the_last_green_card_red_turns_all_green():
    g = situation(FLEX, [["red-3-flip", "blue-9"], ["green-1"], ["cyan-1"]], top="red-4",
                  agents=[Scripted(plays=["red-3-flip"]), Scripted(), Scripted()],
                  power=[True, False, False])
    g.turn()
    assert g.power == [True, True, True]


def test_flex_side_on_a_symbol_match_and_flex_action_sets_the_regular_colour():
    # red-reverse-flex-skip: its flex side is a Skip, so it plays on a Skip of any colour
    g = situation(FLEX, [["red-reverse-flex-skip", "blue-9"], ["green-1"], ["cyan-1"]], top="lime-skip",
                  agents=[Scripted(plays=["red-reverse-flex-skip@flex"]), Scripted(), Scripted()])
    assert move(g.table, "red-reverse-flex-skip") not in g.legal_moves(0)
    g.turn()
    assert g.next_to_act() == 2 and g.direction == 1 and g.color == color(g.table, "red") and g.power[0] is False


def test_flex_number_side_matches_by_number():
    g = situation(FLEX, [["red-5-flex", "blue-9"], ["green-1"]], top="cyan-5")
    assert move(g.table, "red-5-flex@flex") in g.legal_moves(0) and move(g.table, "red-5-flex") in g.legal_moves(0)


def test_flex_side_does_not_match_by_its_regular_colour():
    g = situation(FLEX, [["red-2-flex", "blue-9"], ["green-1"]], top="red-9")
    legal = g.legal_moves(0)
    assert move(g.table, "red-2-flex") in legal and move(g.table, "red-2-flex@flex") not in legal


def test_flex_wild_regular_side_is_a_plain_wild_and_keeps_power_green():
    g = situation(FLEX, [["wild-flex-everyone-draws-2", "blue-9"], ["green-1"], ["cyan-1"]], top="brown-4",
                  draw=["lime-1"] * 4,
                  agents=[Scripted(plays=["wild-flex-everyone-draws-2"], colors=["pink"]), Scripted(), Scripted()])
    g.turn()
    assert len(g.hands[1]) == 1 and len(g.hands[2]) == 1
    assert g.power[0] is True and g.color == color(g.table, "pink") and g.next_to_act() == 1


def test_flex_side_with_power_red_is_not_offered_when_stacking_either():
    from deckgen.rules.actions import stack_moves
    # the Flex side made a Draw Two of its own (a homemade deck), so that it could be stacked
    d = manifest.load_deck(FLEX)
    kinds = dict(d.kinds)
    kinds["everyone-draws-1"] = dataclasses.replace(kinds["everyone-draws-1"], effects=(Effect("draw", n=2),))
    t = table_for(dataclasses.replace(d, kinds=kinds), stacking="equal-or-higher")
    flex_side = move(t, "red-draw-two-flex-everyone-draws-1@flex")
    for power, offered in (([True, True], True), ([False, True], False)):
        g = situation(None, [["red-draw-two-flex-everyone-draws-1", "blue-draw-two"], ["green-1"]], top="red-draw-two",
                      table=t, power=power)
        g.op_pending(Pending(0, 2, 2, g.table.kinds.index("draw-two"), 1))
        assert (flex_side in stack_moves(g, 0)) is offered
        assert move(t, "blue-draw-two") in stack_moves(g, 0)


def test_targeted_draw_is_never_a_stacking_answer():
    from deckgen.rules.actions import stack_moves
    g = situation(FLEX, [["wild-draw-four-flex", "blue-draw-two"], ["green-1"]], top="red-draw-two",
                  options={"stacking": "equal-or-higher"})
    g.op_pending(Pending(0, 2, 2, g.table.kinds.index("draw-two"), 1))
    assert set(stack_moves(g, 0)) == {move(g.table, "wild-draw-four-flex"), move(g.table, "blue-draw-two")}


def test_targeted_draw_two_on_the_next_player_does_not_skip_them():
    g = situation(FLEX, [["wild-flex-targeted-draw-two", "blue-9"], ["green-1"], ["cyan-1"]], top="brown-4",
                  draw=["lime-1", "lime-2"],
                  agents=[Scripted(plays=["wild-flex-targeted-draw-two@flex"], targets=[1], colors=["cyan"]),
                          Scripted(), Scripted()])
    g.turn()
    assert len(g.hands[1]) == 3 and g.next_to_act() == 1 and not any(g.owed)


def test_colorless_zero_then_number_then_action_cards_play_again():
    agents = [Scripted(plays=["colorless-0"]), Scripted(plays=["green-7"]), Scripted(plays=["green-skip"])]
    g = situation(FLEX, [["colorless-0", "blue-9"], ["green-7", "green-skip", "red-1"], ["green-skip", "cyan-1"]],
                  top="red-4", agents=agents)
    g.turn()
    assert move(g.table, "green-skip") not in g.legal_moves(1)
    g.turn()
    assert not g.colorless and g.color == color(g.table, "green")
    assert move(g.table, "green-skip") in g.legal_moves(2)
    g.turn()
    assert g.next_to_act() == 1


def test_colorless_pile_allows_no_flex_side_and_stays_colourless_after_a_draw():
    g = situation(FLEX, [["colorless-0", "blue-9"], ["red-skip-flex-skip-all", "wild-all-flip"], ["red-5-flex"]],
                  top="red-4", draw=["wild-flex-targeted-draw-two"],
                  agents=[Scripted(plays=["colorless-0"]), Scripted(), Scripted()])
    g.turn()
    assert g.legal_moves(1) == []
    g.turn()                               # draws an unplayable wild, keeps it
    assert len(g.hands[1]) == 3 and g.next_to_act() == 2 and g.colorless
    assert g.legal_moves(2) == [move(g.table, "red-5-flex")]


def test_colorless_zero_playable_on_a_colorless_zero():
    g = situation(FLEX, [["colorless-0", "blue-9"], ["green-1"]], top="colorless-0")
    assert move(g.table, "colorless-0") in g.legal_moves(0)


def test_duel_with_nobody_holding_the_number_everyone_draws_and_play_goes_to_the_next():
    g = situation(FLEX, [["red-7-duel", "blue-9"], ["green-1"], ["cyan-1"]], top="red-4",
                  draw=["lime-1", "lime-2", "lime-3", "lime-4"],
                  agents=[Scripted(plays=["red-7-duel"]), Scripted(), Scripted()])
    g.turn()
    assert len(g.hands[1]) == 3 and len(g.hands[2]) == 3 and g.next_to_act() == 1


def test_duel_in_reverse_direction_goes_in_turn_order():
    g = situation(FLEX, [["red-7-duel", "blue-9"], ["green-1"], ["cyan-1"]], top="red-4",
                  draw=["lime-1", "lime-2", "pink-1", "pink-2"],
                  agents=[Scripted(plays=["red-7-duel"]), Scripted(), Scripted()], direction=-1)
    g.turn()
    assert ids(g, 2) == ["cyan-1", "lime-1", "lime-2"] and ids(g, 1) == ["green-1", "pink-1", "pink-2"]
    assert g.next_to_act() == 2


def test_counter_duel_with_two_players_ends_the_round_and_play_goes_on():
    agents = [Scripted(plays=["red-7-duel"]), Scripted(duel=["blue-7-duel@counter"])]
    g = situation(FLEX, [["red-7-duel", "blue-9"], ["blue-7-duel", "green-1"]], top="red-4",
                  draw=["pink-1"] * 4, agents=agents)
    g.turn()
    # nobody is left to answer the counter-duel: the first player does not answer twice
    assert ids(g, 0) == ["blue-9"] and ids(g, 1) == ["green-1"]
    assert g.discard[-1] == face(g.table, "blue-7-duel") and g.color == color(g.table, "blue")
    assert g.next_to_act() == 1                    # the player after the first duel player (0)


def test_counter_duels_keep_doubling_and_nobody_answers_twice():
    agents = [Scripted(plays=["red-7-duel"]), Scripted(duel=["blue-7-duel@counter"]),
              Scripted(duel=["green-7-duel@counter"]), Scripted(), Scripted()]
    g = situation(FLEX, [["red-7-duel", "blue-9"], ["blue-7-duel", "green-1"], ["green-7-duel", "cyan-2"],
                         ["cyan-1"], ["lime-1"]], top="red-4", draw=["pink-1"] * 20, agents=agents)
    g.turn()
    # 1 counters (penalty 4 for 2, 3, 4), 2 counters (penalty 8 for 3 and 4); 0 and 1 do not answer again
    assert len(g.hands[3]) == 1 + 8 and len(g.hands[4]) == 1 + 8
    assert ids(g, 0) == ["blue-9"] and ids(g, 1) == ["green-1"] and ids(g, 2) == ["cyan-2"]
    assert g.next_to_act() == 1                    # after the first duel player (0)


def test_duel_card_as_last_card_the_duel_applies_and_its_player_wins():
    g = situation(FLEX, [["red-7-duel"], ["green-7"], ["cyan-1"]], top="red-4", draw=["lime-1", "lime-2"],
                  agents=[Scripted(plays=["red-7-duel"]), Scripted(), Scripted()])
    g.turn()
    # player 1 empties their hand by discarding, but player 0 went out first
    assert g.outcome == FINISHED and g.winner == 0
    assert len(g.hands[2]) == 3 and g.score == 1 + 1 + 2


def test_duel_answer_emptying_a_hand_wins_at_once():
    g = situation(FLEX, [["red-7-duel", "blue-9"], ["green-7"], ["cyan-1"]], top="red-4", draw=["lime-1", "lime-2"],
                  agents=[Scripted(plays=["red-7-duel"]), Scripted(), Scripted()])
    g.turn()
    assert g.outcome == FINISHED and g.winner == 1 and len(g.hands[2]) == 1


def test_counter_duel_with_last_card_runs_its_duel_round_then_wins():
    agents = [Scripted(plays=["red-7-duel"]), Scripted(duel=["blue-7-duel@counter"]), Scripted()]
    g = situation(FLEX, [["red-7-duel", "blue-9"], ["blue-7-duel"], ["cyan-1"]], top="red-4",
                  draw=["pink-1"] * 8, agents=agents)
    g.turn()
    assert g.outcome == FINISHED and g.winner == 1
    assert len(g.hands[2]) == 1 + 4 and len(g.hands[0]) == 1      # the first duel player does not answer


def test_wild_draw_four_no_playable_card_counts_flex_sides_only_with_power_green():
    opts = {"challenge": False}
    # red-2-flex's flex side is yellow: playable on yellow only while the Power card is green
    g = situation(FLEX, [["wild-draw-four-flex", "red-2-flex"], ["green-1"]], top="yellow-4", options=opts)
    assert move(g.table, "wild-draw-four-flex") not in g.legal_moves(0)
    g = situation(FLEX, [["wild-draw-four-flex", "red-2-flex"], ["green-1"]], top="yellow-4", options=opts,
                  power=[False, True])
    assert g.legal_moves(0) == [move(g.table, "wild-draw-four-flex")]


def test_wild_draw_four_unchallenged_when_guilty_still_makes_the_next_player_draw():
    agents = [Scripted(plays=["wild-draw-four-flex"], colors=["cyan"]), Scripted(challenge=False), Scripted()]
    g = situation(FLEX, [["wild-draw-four-flex", "red-9"], ["green-1"], ["lime-1"]], top="red-4",
                  draw=["pink-1"] * 6, agents=agents)
    g.turn()
    assert len(g.hands[1]) == 5 and len(g.hands[0]) == 1 and g.next_to_act() == 2


def test_wild_draw_four_challenge_penalty_option_applies_in_flex():
    agents = [Scripted(plays=["wild-draw-four-flex"], colors=["cyan"]), Scripted(challenge=True), Scripted()]
    g = situation(FLEX, [["wild-draw-four-flex", "blue-1"], ["green-1"], ["lime-1"]], top="red-4",
                  draw=["pink-1"] * 6, agents=agents, options={"challenge_penalty": 0})
    g.turn()
    assert len(g.hands[1]) == 5 and g.next_to_act() == 2


def test_targeted_draw_four_challenged_when_guilty_player_draws_four_target_keeps_turn():
    agents = [Scripted(plays=["wild-draw-four-flex@flex"], targets=[2], colors=["lime"]), Scripted(),
              Scripted(challenge=True)]
    g = situation(FLEX, [["wild-draw-four-flex", "red-9"], ["green-1"], ["lime-1"]], top="red-4",
                  draw=["pink-1"] * 6, agents=agents)
    g.turn()
    assert len(g.hands[0]) == 1 + 4 and len(g.hands[2]) == 1 and not g.owed[2]
    assert g.next_to_act() == 1 and g.color == color(g.table, "lime") and g.power[0] is False


def test_start_card_colorless_zero_or_duel_is_a_number_card_and_starts_without_effect():
    t = table_for(FLEX)
    for cid in ("colorless-0", "red-7-duel", "red-3-flip"):
        g = Game(t, 3, 0, Scripted())
        pile = list(t.deck_faces)
        pile.remove(face(t, cid))
        g.setup([*pile[:-21], face(t, cid), *pile[-21:]])
        assert t.faces[g.discard[-1]].id == cid and g.aside == [] and g.next_to_act() == 0
        assert all(len(h) == 7 for h in g.hands) and g.power == [True] * 3
    assert g.colorless is False


def test_uno_call_applies_to_a_duel_discard_that_leaves_one_card():
    agents = [Scripted(plays=["red-7-duel"]), Scripted(uno=False), Scripted(catch=True)]
    g = situation(FLEX, [["red-7-duel", "blue-9"], ["green-7", "green-1"], ["cyan-1"]], top="red-4",
                  draw=["lime-1", "lime-2", "lime-3", "lime-4"], agents=agents)
    g.turn()
    assert len(g.hands[1]) == 1 + 2                 # caught by the next player: draws 2
    assert len(g.hands[2]) == 1 + 2                 # and the duel went on


def test_a_player_who_lost_a_turn_still_answers_a_stacked_penalty():
    # Targeted Draw Four on a player who is not next (they lose their next turn); then a stack reaches them
    agents = [Scripted(plays=["wild-draw-four-flex@flex"], targets=[2], colors=["red"]),
              Scripted(plays=["red-draw-two"]), Scripted(stack=False)]
    g = situation(FLEX, [["wild-draw-four-flex", "blue-1"], ["red-draw-two", "green-1"], ["lime-1"]], top="red-4",
                  draw=["pink-1"] * 6, agents=agents, options={"stacking": "equal-or-higher"})
    g.turn()
    assert g.owed[2] and g.next_to_act() == 1
    g.turn()
    assert g.next_to_act() == 2 and g.penalty == 2
    g.turn()                                        # 2 draws the stack: it does not pass on to 0
    assert len(g.hands[2]) == 1 + 4 + 2 and len(g.hands[0]) == 1 and g.penalty == 0


def test_scoring_numbers_face_value_colorless_zero_nothing_actions_twenty_wilds_fifty():
    g = situation(FLEX, [["red-1"], ["colorless-0", "red-skip-flex-skip-all", "blue-draw-two", "wild-all-flip",
                                     "wild-draw-four-flex", "wild-flex-targeted-draw-two", "red-7-duel"]],
                  top="red-5", agents=[Scripted(plays=["red-1"]), Scripted()])
    g.turn()
    assert g.winner == 0 and g.score == 0 + 20 + 20 + 50 + 50 + 50 + 7
    assert g.table.target == 500
