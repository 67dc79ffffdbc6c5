"""Classic UNO: one test per rule of docs/rules.md, each setting up the exact situation."""

from deckgen.rules import actions
from deckgen.rules.engine import Game
from deckgen.rules.match import play_match
from deckgen.rules.scenario import Scripted, color, face, move, situation, table_for
from deckgen.rules.state import FINISHED, Pending


def start_game(first_cards, n=3, options=None, agents=None, seed=0):
    """A game whose draw pile turns these cards first at the start (after a plain deal)."""
    t = table_for("classic", **(options or {}))
    g = Game(t, n, seed, agents or [Scripted() for _ in range(n)])
    pile = [f for f in t.deck_faces]
    for cid in first_cards:
        pile.remove(face(t, cid))
    # deal from the end of the pile: put the start cards right after the dealt cards
    dealt = n * t.hand_size
    order = pile[:len(pile) - dealt] + [face(t, c) for c in reversed(first_cards)] + pile[len(pile) - dealt:]
    g.setup(order)
    return g, t


def test_start_card_wild_draw_four_goes_back_and_another_is_turned():
    g, t = start_game(["wild-draw-four", "red-5"])
    assert t.faces[g.discard[-1]].id == "red-5"
    assert face(t, "wild-draw-four") in g.draw_pile
    assert g.next_to_act() == 0


def test_start_card_wild_first_player_chooses_colour():
    g, t = start_game(["wild"], agents=[Scripted(colors=["green"]), Scripted(), Scripted()])
    assert g.color == color(t, "green")
    assert g.next_to_act() == 0


def test_start_card_draw_two_first_player_draws_two_and_loses_turn():
    g, t = start_game(["red-draw-two"])
    assert len(g.hands[0]) == 9
    assert g.next_to_act() == 1


def test_start_card_skip_first_player_is_skipped():
    g, t = start_game(["red-skip"])
    assert g.next_to_act() == 1 and len(g.hands[0]) == 7


def test_start_card_reverse_reverses_before_anyone_plays():
    g, t = start_game(["red-reverse"], n=4)
    assert g.direction == -1
    assert g.next_to_act() == 3          # the dealer plays first, then play goes the other way


def test_match_colour_number_or_symbol():
    g = situation("classic", [["red-9", "blue-5", "blue-skip", "green-2"], ["yellow-1"]], top="red-5")
    legal = {g.table.faces[m >> 1].id for m in g.legal_moves(0)}
    assert legal == {"red-9", "blue-5"}
    g = situation("classic", [["blue-skip", "green-2"], ["yellow-1"]], top="red-skip")
    assert {g.table.faces[m >> 1].id for m in g.legal_moves(0)} == {"blue-skip"}


def test_wild_may_be_played_at_any_time():
    g = situation("classic", [["wild", "red-1"], ["yellow-1"]], top="red-5")
    assert move(g.table, "wild") in g.legal_moves(0)


def test_wild_draw_four_legal_only_without_current_colour_card():
    # without the challenge (no bluffing) the engine enforces the restriction itself
    g = situation("classic", [["wild-draw-four", "red-1"], ["yellow-1"]], top="red-5", options={"challenge": False})
    assert move(g.table, "wild-draw-four") not in g.legal_moves(0)
    g = situation("classic", [["wild-draw-four", "blue-5"], ["yellow-1"]], top="red-5", options={"challenge": False})
    assert move(g.table, "wild-draw-four") in g.legal_moves(0)     # a number match does not count


def test_wild_draw_four_challenge_illegal_play_player_draws_four_instead():
    agents = [Scripted(plays=["wild-draw-four"], colors=["blue"]), Scripted(challenge=True), Scripted()]
    g = situation("classic", [["wild-draw-four", "red-1", "red-2"], ["yellow-1"], ["green-1"]], top="red-5",
                  draw=["blue-1"] * 4 + ["blue-2"] * 4, agents=agents)
    g.turn()
    assert len(g.hands[0]) == 2 + 4 and len(g.hands[1]) == 1
    assert g.next_to_act() == 1                                        # the challenger plays normally
    assert g.color == color(g.table, "blue")


def test_wild_draw_four_challenge_legal_play_challenger_draws_six_and_loses_turn():
    agents = [Scripted(plays=["wild-draw-four"], colors=["blue"]), Scripted(challenge=True), Scripted()]
    g = situation("classic", [["wild-draw-four", "blue-1", "blue-2"], ["yellow-1"], ["green-1"]], top="red-5",
                  draw=["green-3"] * 8, agents=agents)
    g.turn()
    assert len(g.hands[1]) == 1 + 6 and len(g.hands[0]) == 2
    assert g.next_to_act() == 2


def test_no_bluff_challenge_failed_challenger_draws_four():
    agents = [Scripted(plays=["wild-draw-four"], colors=["blue"]), Scripted(challenge=True), Scripted()]
    g = situation("classic", [["wild-draw-four", "blue-1"], ["yellow-1"], ["green-1"]], top="red-5",
                  draw=["green-3"] * 8, agents=agents, options={"challenge_penalty": 0})
    g.turn()
    assert len(g.hands[1]) == 1 + 4 and g.next_to_act() == 2


def test_no_playable_card_draw_one_and_may_play_only_that_card():
    a = Scripted()
    g = situation("classic", [["blue-1", "green-2"], ["yellow-1"]], top="red-5", draw=["red-7", "red-8"],
                  agents=[a, Scripted()])
    g.turn()
    assert g.discard[-1] == face(g.table, "red-7")
    assert a.seen_moves == [[move(g.table, "red-7")]]
    assert len(g.hands[0]) == 2 and g.next_to_act() == 1
    g = situation("classic", [["blue-1"], ["yellow-1"]], top="red-5", draw=["green-7"])
    g.turn()
    assert len(g.hands[0]) == 2 and g.discard[-1] == face(g.table, "red-5") and g.next_to_act() == 1


def test_player_may_draw_instead_of_playing():
    g = situation("classic", [["red-1", "blue-2"], ["yellow-1"]], top="red-5", draw=["green-7"],
                  agents=[Scripted(plays=["draw"]), Scripted()])
    g.turn()
    assert len(g.hands[0]) == 3 and g.next_to_act() == 1


def test_reverse_with_two_players_acts_as_skip():
    g = situation("classic", [["red-reverse", "red-1"], ["yellow-1"]], top="red-5",
                  agents=[Scripted(plays=["red-reverse"]), Scripted()])
    g.turn()
    assert g.next_to_act() == 0


def test_reverse_with_more_players_changes_direction():
    g = situation("classic", [["red-reverse", "red-1"], ["yellow-1"], ["green-1"]], top="red-5",
                  agents=[Scripted(plays=["red-reverse"]), Scripted(), Scripted()])
    g.turn()
    assert g.direction == -1 and g.next_to_act() == 2


def test_skip_next_player_loses_turn():
    g = situation("classic", [["red-skip", "red-1"], ["yellow-1"], ["green-1"]], top="red-5",
                  agents=[Scripted(plays=["red-skip"]), Scripted(), Scripted()])
    g.turn()
    assert g.next_to_act() == 2


def test_draw_two_next_player_draws_two_and_loses_turn():
    g = situation("classic", [["red-draw-two", "red-1"], ["yellow-1"], ["green-1"]], top="red-5",
                  draw=["blue-1", "blue-2"], agents=[Scripted(plays=["red-draw-two"]), Scripted(), Scripted()])
    g.turn()
    assert len(g.hands[1]) == 3 and g.next_to_act() == 2


def test_uno_not_said_and_caught_draws_two():
    g = situation("classic", [["red-1", "red-2"], ["yellow-1"]], top="red-5", draw=["blue-1", "blue-2"],
                  agents=[Scripted(plays=["red-1"], uno=False), Scripted(catch=True)])
    g.turn()
    assert len(g.hands[0]) == 3
    g = situation("classic", [["red-1", "red-2"], ["yellow-1"]], top="red-5", draw=["blue-1", "blue-2"],
                  agents=[Scripted(plays=["red-1"], uno=True), Scripted(catch=True)])
    g.turn()
    assert len(g.hands[0]) == 1


def test_empty_draw_pile_reshuffles_discard_except_top():
    g = situation("classic", [["blue-1"], ["yellow-1"]], top="red-5", discard=["green-1", "green-2"])
    g.rng.seed(3)
    g.turn()
    assert g.reshuffles == 1
    assert g.discard == [face(g.table, "red-5")]
    assert sorted(g.hands[0] + g.draw_pile) == sorted(face(g.table, c) for c in ["blue-1", "green-1", "green-2"])


def test_last_card_draw_effect_applies_before_scoring():
    g = situation("classic", [["red-draw-two"], ["yellow-1"], ["green-1"]], top="red-5", draw=["blue-9", "blue-8"],
                  agents=[Scripted(plays=["red-draw-two"]), Scripted(), Scripted()])
    g.turn()
    assert g.outcome == FINISHED and g.winner == 0
    assert len(g.hands[1]) == 3
    assert g.score == 1 + 9 + 8 + 1      # opponents' cards, the two drawn included


def test_scoring_numbers_face_value_actions_twenty_wilds_fifty():
    g = situation("classic", [["red-1"], ["yellow-7", "blue-skip", "wild", "wild-draw-four"]], top="red-5",
                  agents=[Scripted(plays=["red-1"]), Scripted()])
    g.turn()
    assert g.winner == 0 and g.score == 7 + 20 + 50 + 50


def test_game_to_target_score_over_several_hands():
    t = table_for("classic")
    res = play_match(t, 3, seed=5, agent="greedy")
    assert res.outcome == FINISHED and res.winner is not None
    assert max(res.scores) >= 500
    assert res.scores[res.winner] == max(res.scores)
    assert res.hands >= 1


def test_stacking_option_same_kind_draw_two_on_draw_two():
    agents = [Scripted(plays=["red-draw-two"]), Scripted(plays=["blue-draw-two"]), Scripted()]
    g = situation("classic", [["red-draw-two", "red-1"], ["blue-draw-two", "blue-1"], ["green-1"]], top="red-5",
                  draw=["yellow-1"] * 4, agents=agents, options={"stacking": "same-kind"})
    g.turn()
    assert g.next_to_act() == 1 and g.penalty == 2
    g.turn()
    assert g.next_to_act() == 2 and g.penalty == 4
    g.turn()                             # player 2 cannot stack: draws the total, loses the turn
    assert len(g.hands[2]) == 5 and g.penalty == 0 and g.next_to_act() == 0


def test_stacking_option_same_kind_refuses_other_draw_cards():
    g = situation("classic", [["wild-draw-four", "red-1"], ["yellow-1"]], top="red-draw-two",
                  options={"stacking": "same-kind"})
    g.op_pending(Pending(0, 2, 2, g.table.kinds.index("draw-two"), 1))
    assert actions.stack_moves(g, 0) == []


def test_seven_zero_option_seven_swaps_zero_passes():
    agents = [Scripted(plays=["red-7"], targets=[2]), Scripted(), Scripted()]
    g = situation("classic", [["red-7", "red-1"], ["yellow-1", "yellow-2"], ["green-1", "green-2", "green-3"]],
                  top="red-5", agents=agents, options={"seven_zero": True})
    g.turn()
    assert [g.table.faces[f].id for f in g.hands[0]] == ["green-1", "green-2", "green-3"]
    assert [g.table.faces[f].id for f in g.hands[2]] == ["red-1"]
    g = situation("classic", [["red-0", "red-1"], ["yellow-1"], ["green-1"]], top="red-5",
                  agents=[Scripted(plays=["red-0"]), Scripted(), Scripted()], options={"seven_zero": True})
    g.turn()
    ids = [[g.table.faces[f].id for f in h] for h in g.hands]
    assert ids == [["green-1"], ["red-1"], ["yellow-1"]]


def test_jump_in_option_identical_card_out_of_turn():
    agents = [Scripted(plays=["red-5"]), Scripted(), Scripted(jump_in=True)]
    g = situation("classic", [["red-5", "red-1"], ["yellow-1"], ["red-5", "blue-2"]], top="red-4",
                  agents=agents, options={"jump_in": True})
    g.turn()
    assert [g.table.faces[f].id for f in g.hands[2]] == ["blue-2"]
    assert g.next_to_act() == 0                    # play goes on from the player who jumped in


def test_two_player_reverse_option_reverse_just_reverses():
    g = situation("classic", [["red-reverse", "red-1"], ["yellow-1"]], top="red-5",
                  agents=[Scripted(plays=["red-reverse"]), Scripted()], options={"two_player_reverse": "reverse"})
    g.turn()
    assert g.next_to_act() == 1 and g.direction == -1


def test_play_drawn_must_option_plays_the_drawn_card():
    g = situation("classic", [["blue-1"], ["yellow-1"]], top="red-5", draw=["red-7"],
                  agents=[Scripted(play_drawn=False), Scripted()], options={"play_drawn": "must"})
    g.turn()
    assert g.discard[-1] == face(g.table, "red-7")
    g = situation("classic", [["blue-1"], ["yellow-1"]], top="red-5", draw=["red-7"],
                  agents=[Scripted(play_drawn=False), Scripted()])
    g.turn()
    assert g.discard[-1] == face(g.table, "red-5") and len(g.hands[0]) == 2


def test_draw_until_playable_option_in_classic():
    g = situation("classic", [["blue-1"], ["yellow-1"]], top="red-5", draw=["green-2", "green-3", "red-8"],
                  options={"no_playable_card": "draw-until-playable"})
    g.turn()
    assert g.discard[-1] == face(g.table, "red-8") and len(g.hands[0]) == 3


# ---------------------------------------------------------------- edge cases (audit)

def ids(g, p):
    return [g.table.faces[f].id for f in g.hands[p]]


def test_skip_with_two_players_plays_again():
    g = situation("classic", [["red-skip", "red-1"], ["yellow-1"]], top="red-5",
                  agents=[Scripted(plays=["red-skip"]), Scripted()])
    g.turn()
    assert g.next_to_act() == 0


def test_draw_two_with_two_players_victim_draws_and_player_plays_again():
    g = situation("classic", [["red-draw-two", "red-1"], ["yellow-1"]], top="red-5", draw=["blue-1", "blue-2"],
                  agents=[Scripted(plays=["red-draw-two"]), Scripted()])
    g.turn()
    assert len(g.hands[1]) == 3 and g.next_to_act() == 0


def test_start_card_reverse_with_two_players_the_dealer_plays_first():
    g, t = start_game(["red-reverse"], n=2)
    assert g.direction == -1 and g.next_to_act() == 1


def test_start_card_draw_two_with_two_players_the_dealer_plays_first():
    g, t = start_game(["red-draw-two"], n=2)
    assert len(g.hands[0]) == 9 and g.next_to_act() == 1


def test_start_card_number_has_no_effect_and_first_player_is_left_of_dealer():
    g, t = start_game(["blue-7"], n=4)
    assert t.faces[g.discard[-1]].id == "blue-7" and g.next_to_act() == 0 and g.direction == 1
    assert g.color == color(t, "blue")


def test_last_card_wild_draw_four_unchallenged_next_player_draws_four_before_scoring():
    agents = [Scripted(plays=["wild-draw-four"], colors=["blue"]), Scripted(challenge=False), Scripted()]
    g = situation("classic", [["wild-draw-four"], ["yellow-1"], ["green-1"]], top="red-5",
                  draw=["blue-1", "blue-2", "blue-3", "blue-4"], agents=agents)
    g.turn()
    assert g.outcome == FINISHED and g.winner == 0 and len(g.hands[1]) == 5
    assert g.score == 1 + 1 + 2 + 3 + 4 + 1


def test_last_card_wild_draw_four_is_always_legal_a_challenge_fails_and_the_player_wins():
    agents = [Scripted(plays=["wild-draw-four"], colors=["blue"]), Scripted(challenge=True), Scripted()]
    g = situation("classic", [["wild-draw-four"], ["yellow-1"], ["green-1"]], top="red-5",
                  draw=["blue-1"] * 6, agents=agents)
    g.turn()
    assert g.outcome == FINISHED and g.winner == 0 and len(g.hands[1]) == 1 + 6


def test_wild_draw_four_legal_with_a_number_match_illegal_with_a_current_colour_card():
    g = situation("classic", [["wild-draw-four", "red-1"], ["yellow-1"]], top="blue-1")
    assert g.color == color(g.table, "blue")
    assert g.restricted_play_legal(0, None)          # red-1 matches by number only: still legal
    g = situation("classic", [["wild-draw-four", "red-1", "blue-9"], ["yellow-1"]], top="blue-1")
    assert not g.restricted_play_legal(0, None)


def test_stacking_option_same_kind_wild_draw_four_on_wild_draw_four():
    agents = [Scripted(plays=["wild-draw-four"], colors=["blue"]), Scripted(plays=["wild-draw-four"], colors=["red"]),
              Scripted(stack=False)]
    g = situation("classic", [["wild-draw-four", "green-1"], ["wild-draw-four", "yellow-1"], ["green-2"]],
                  top="red-5", draw=["blue-1"] * 8, agents=agents, options={"stacking": "same-kind"})
    g.turn()
    assert g.next_to_act() == 1 and g.penalty == 4
    g.turn()
    assert g.next_to_act() == 2 and g.penalty == 8 and g.color == color(g.table, "red")
    g.turn()
    assert len(g.hands[2]) == 9 and g.next_to_act() == 0


def test_stacking_option_a_wild_draw_four_waiting_may_be_challenged():
    agents = [Scripted(plays=["wild-draw-four"], colors=["blue"]), Scripted(challenge=True), Scripted()]
    g = situation("classic", [["wild-draw-four", "red-1", "red-2"], ["blue-7", "yellow-1"], ["green-1"]],
                  top="red-5", draw=["green-2"] * 6, agents=agents, options={"stacking": "same-kind"})
    g.turn()
    assert g.penalty == 4 and g.next_to_act() == 1
    g.turn()                                       # the challenge succeeds: the player draws 4, 1 plays
    assert len(g.hands[0]) == 2 + 4 and g.penalty == 0
    assert ids(g, 1) == ["yellow-1"] and g.discard[-1] == face(g.table, "blue-7") and g.next_to_act() == 2


def test_stacking_option_a_legal_wild_draw_four_challenged_challenger_draws_six():
    agents = [Scripted(plays=["wild-draw-four"], colors=["blue"]), Scripted(challenge=True), Scripted()]
    g = situation("classic", [["wild-draw-four", "blue-1"], ["yellow-1"], ["green-1"]], top="red-5",
                  draw=["green-3"] * 6, agents=agents, options={"stacking": "same-kind"})
    g.turn()
    g.turn()
    assert len(g.hands[1]) == 1 + 6 and g.penalty == 0 and g.next_to_act() == 2


def test_stacking_option_last_card_draw_two_the_next_player_draws_the_stack_before_scoring():
    g = situation("classic", [["red-draw-two"], ["yellow-1", "blue-draw-two"], ["green-1"]], top="red-5",
                  draw=["blue-9", "blue-8"], agents=[Scripted(plays=["red-draw-two"]), Scripted(), Scripted()],
                  options={"stacking": "same-kind"})
    g.turn()
    assert g.outcome == FINISHED and g.winner == 0 and len(g.hands[1]) == 4


def test_uno_forgotten_but_not_caught_no_penalty():
    g = situation("classic", [["red-1", "red-2"], ["yellow-1"]], top="red-5", draw=["blue-1", "blue-2"],
                  agents=[Scripted(plays=["red-1"], uno=False), Scripted(catch=False)])
    g.turn()
    assert len(g.hands[0]) == 1


def test_seven_zero_option_off_seven_and_zero_are_plain_numbers():
    g = situation("classic", [["red-7", "red-1"], ["yellow-1", "yellow-2"]], top="red-5",
                  agents=[Scripted(plays=["red-7"]), Scripted()])
    g.turn()
    assert ids(g, 0) == ["red-1"] and ids(g, 1) == ["yellow-1", "yellow-2"]


def test_jump_in_option_wilds_never_jump_in_and_play_goes_on_from_the_jumper():
    agents = [Scripted(plays=["wild"], colors=["red"]), Scripted(jump_in=True), Scripted(jump_in=True)]
    g = situation("classic", [["wild", "red-1"], ["wild", "yellow-1"], ["wild", "blue-2"]], top="red-4",
                  agents=agents, options={"jump_in": True})
    g.turn()
    assert len(g.hands[1]) == 2 and len(g.hands[2]) == 2 and g.next_to_act() == 1


def test_jump_in_option_off_nobody_jumps_in():
    agents = [Scripted(plays=["red-5"]), Scripted(), Scripted(jump_in=True)]
    g = situation("classic", [["red-5", "red-1"], ["yellow-1"], ["red-5", "blue-2"]], top="red-4", agents=agents)
    g.turn()
    assert len(g.hands[2]) == 2 and g.next_to_act() == 1


def test_reshuffle_includes_set_aside_cards_and_never_the_top_card():
    g = situation("classic", [["blue-1"], ["yellow-1"]], top="red-5", discard=["green-1"], aside=["wild-draw-four"],
                  seed=1)
    g.op_reshuffle()
    assert sorted(g.draw_pile) == sorted([face(g.table, "green-1"), face(g.table, "wild-draw-four")])
    assert g.aside == [] and g.discard == [face(g.table, "red-5")]


LARGE = '''
[deck]
id = "large"
name = "Large numbers"
language = "en"
players = { min = 2, max = 4 }
hand_size = 5
palette = "classic"

[rules]
preset = "classic"

[scoring]
target = 500
[scoring.points]
number = "face"
skip = 20

[[cards]]
kind = "number"
colors = "all"
values = [1, 31, 63, 95]
count = 2

[[cards]]
kind = "skip"
colors = "all"
count = 2
'''


def test_match_colour_number_or_symbol_with_card_values_up_to_99(write_manifest):
    from deckgen import manifest
    deck = manifest.load_deck(write_manifest(LARGE))
    t = table_for(deck)
    # the legality cache is shared by every pile state: a red 63 on top must not answer for a red Skip
    g = situation(deck, [["blue-63", "blue-skip"], ["yellow-1"]], top="red-63", table=t)
    assert g.legal_moves(0) == [move(t, "blue-63")]
    g = situation(deck, [["blue-63", "blue-skip"], ["yellow-1"]], top="red-skip", table=t)
    assert g.legal_moves(0) == [move(t, "blue-skip")]
    g = situation(deck, [["blue-31", "blue-95", "blue-1"], ["yellow-1"]], top="red-95", table=t)
    assert g.legal_moves(0) == [move(t, "blue-95")]


def test_scoring_option_plain_wild_forty_as_seed_002(write_manifest):
    from deckgen import manifest
    from deckgen.resources import decks_dir
    text = (decks_dir() / "classic.toml").read_text(encoding="utf-8")
    assert "\nwild = 50\n" in text
    deck = manifest.load_deck(write_manifest(text.replace("\nwild = 50\n", "\nwild = 40\n")))
    g = situation(deck, [["red-1"], ["wild", "wild-draw-four"]], top="red-5",
                  agents=[Scripted(plays=["red-1"]), Scripted()])
    g.turn()
    assert g.score == 40 + 50
