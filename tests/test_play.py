"""`deckgen play` without a browser: the session (seats, answers, decision numbers, what each
person and the bots may see, matches, replays, the race UNO mode), the save and --resume, the
log in words, the card texts, the rules text and the command (docs/play.md)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckgen import manifest
from deckgen.cli import main
from deckgen.errors import DeckgenError
from deckgen.play import Faces, PlayOptions, Session
from deckgen.play.journal import Journal, read
from deckgen.play.server import asset
from deckgen.play.session import CATCH_WINDOW, UNO_WINDOW, resume
from deckgen.play.views import view
from deckgen.play.words import UI, Words
from deckgen.rulebook.describe import group_text
from deckgen.rulebook.groups import group_key, groups
from deckgen.rules import state as ev
from deckgen.rules.agents import GreedyAgent, RandomAgent
from deckgen.rules.decision import DecisionKind, Observation
from deckgen.rules.table import compile_deck

WOODLAND = str(Path(__file__).resolve().parent.parent / "decks" / "examples" / "woodland" / "woodland.toml")
DECKS = ["classic", "no-mercy", "flex-spectrum", WOODLAND]


@pytest.fixture(scope="module")
def decks():
    return {name: manifest.load_deck(name) for name in DECKS}


def _session(deck, **kw) -> Session:
    return Session(deck, PlayOptions(**{"pace": 0, "players": 3, "seed": 1, **kw})).start()


def _play_out(s: Session, choose=lambda d: 0, limit: int = 3000) -> list[dict]:
    """Answer every person's decision (the first answer by default), the bots answering at once,
    until the hand ends; the views each person saw, in order."""
    seen = []
    for _ in range(limit):
        s.settle_bots()
        d = s.pending()
        if d is None:
            seen.append({q: view(s, q) for q in s.seats.tokens})
            return seen
        v = view(s, d.player)
        seen.append({q: view(s, q) for q in s.seats.tokens})
        assert s.answer(d.player, v["decision"]["seq"], choose(v["decision"]))
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize("name", DECKS)
def test_a_whole_hand_and_each_view_shows_only_its_persons_cards(decks, name):
    deck = decks[name]
    s = _session(deck, players=4, humans=2, seed=4)
    views = _play_out(s)
    last = views[-1][0]
    assert last["error"] is None and last["over"]["outcome"] in ("finished", "stalled", "capped")
    for step in views[:-1]:
        assert sum(1 for v in step.values() if v["decision"]) == 1         # one person is asked at a time
        for seat, v in step.items():
            mine = {c["face"] for c in v["hand"]}
            assert v["you"] == seat and v["seed"] is None           # the seed is never sent during the game
            about = [a["face"] for a in (v["decision"] or {"answers": []})["answers"] if "face" in a]
            assert set(about) <= mine
            # every card the view names is the person's own, the top card, or an answer about their hand
            top = 1 if v["top"] is not None else 0
            assert json.dumps(v).count('"face"') == len(v["hand"]) + top + len(about)
            assert sum(p["cards"] for p in v["players"]) + v["draw_pile"] + v["discard_pile"] <= deck.total
    assert last["over"]["text"] == s.lines[0][-1]["text"] and last["seed"] == 4


def test_stale_forged_and_foreign_answers_are_refused_and_change_nothing(decks):
    s = _session(decks["classic"], players=3, humans=2, seed=2)
    s.settle_bots()
    d = s.pending()
    me, other = d.player, 1 - d.player
    v = view(s, me)
    seq = v["decision"]["seq"]
    game, hand, serial = seq.split(".")
    for who, q, i in [(me, f"{game}.{hand}.{int(serial) - 1}", 0), (me, f"{game}.{hand}.{int(serial) + 1}", 0),
                      (me, f"x{game}.{hand}.{serial}", 0), (me, seq, len(v["decision"]["answers"])), (me, seq, -1),
                      (me, seq, True), (me, seq, "0"), (me, None, None), (other, seq, 0), (2, seq, 0)]:
        assert not s.answer(who, q, i), (who, q, i)
        assert view(s, me)["seq"] == seq and view(s, me)["hand"] == v["hand"]
    assert s.answer(me, seq, 0)
    assert not s.answer(me, seq, 0)                    # the same answer twice: the second is stale


def test_bots_decide_from_their_observation_only_with_a_generator_of_their_own(decks):
    """Each bot is handed the decision, its own Observation and its own generator: plain values,
    its own hand, nothing that leads to the game or another hand."""
    seen: list[tuple] = []

    class Spy(GreedyAgent):
        name = "spy"

        def decide(self, d, o, rng):
            seen.append((d, o, rng))
            return super().decide(d, o, rng)

    deck = decks["flex-spectrum"]
    s = Session(deck, PlayOptions(players=3, pace=0, seed=3), make_bot=lambda seat: Spy()).start()
    _play_out(s)
    assert seen
    game = s.hand.game
    for d, o, rng in seen:
        assert isinstance(o, Observation) and o.player == d.player != 0
        assert len(o.hand) == o.hand_sizes[o.player]
        assert rng is not game.rng and rng is not game.bot_rng
        for value in o:
            assert type(value) is not type(game)
            assert not hasattr(value, "hands")           # no field holds every hand


def test_a_bot_answer_is_taken_only_while_its_decision_is_pending(decks):
    s = Session(decks["classic"], PlayOptions(players=2, pace=0, seed=5, seat=1)).start()
    job = s.bot_job()
    assert job is not None and job.seat == 0
    reply = s.think(job)
    assert s.bot_answer(job, reply)
    assert not s.bot_answer(job, reply)              # answered: the game has moved on
    s.settle_bots()
    old = s.bot_job()
    s.new_game(1, same_seed=True)                     # a new game meanwhile
    if old is not None:
        assert not s.bot_answer(old, s.think(old))


def test_the_log_hides_other_players_draws_and_names_cards_as_the_deck_does(decks):
    deck = decks["classic"]
    t = compile_deck(deck)
    names = ["You", "Bot 2", "Bot 3"]
    w = Words(deck, t, "en", names)
    red5 = next(i for i, c in enumerate(t.faces) if c.id == "red-5")
    lines = w.log([ev.Draw(0, red5, 0), ev.Draw(1, -1, 0), ev.Draw(1, -1, 0), ev.Play(1, red5 * 2, "play"),
                   ev.Color(t.colors.index("blue")), ev.Uno(1, True), ev.Caught(0, 2)], viewer=0)
    texts = [line["text"] for line in lines]
    assert texts[0] == f"You draw 1 card: {deck.card('red-5').name('en')}."
    assert texts[1] == "Bot 2 draws 2 cards."                            # a run of draws, no names
    assert texts[2] == f"Bot 2 plays {deck.card('red-5').name('en')}."
    assert texts[3] == f"The colour to follow is now {deck.palette.get('blue').names.get('en')}."
    assert texts[4] == "Bot 2 says UNO!"
    assert texts[5] == "You catch Bot 3 without UNO."


def test_two_people_are_each_you_on_their_own_page_and_named_by_seat_on_the_other(decks):
    s = _session(decks["classic"], players=4, humans=2, seat=1, lang="en")
    assert sorted(s.seats.tokens) == [1, 2] and s.host == 1
    assert [p["name"] for p in view(s, 1)["players"]] == ["Bot 1", "You", "Player 3", "Bot 4"]
    assert [p["name"] for p in view(s, 2)["players"]] == ["Bot 1", "Player 2", "You", "Bot 4"]
    assert view(s, 1)["host"] and not view(s, 2)["host"]
    assert s.seats.seat_of(s.seats.tokens[2]) == 2 and s.seats.seat_of("nothing") is None
    assert len(set(s.seats.tokens.values())) == 2 and all(len(t) >= 22 for t in s.seats.tokens.values())


def test_only_the_host_throws_a_game_away_and_hands_a_seat_to_a_bot(decks):
    s = _session(decks["classic"], players=3, humans=2, seed=9)
    first = view(s, 0)["hand"]
    token = s.seats.tokens[1]
    assert not s.new_game(1, same_seed=False) and not s.seat_to_bot(1, 0)
    assert not s.seat_to_bot(0, 0)                          # the host keeps their own seat
    assert s.seat_to_bot(0, 1)
    assert s.seats.seat_of(token) is None and not s.seats.human(1)
    assert view(s, 0)["players"][1]["name"] == "Bot 2"
    _play_out(s)                                          # the bot plays seat 2 from now on
    assert s.new_game(0, same_seed=True)
    assert view(s, 0)["hand"] == first and view(s, 0)["seed"] is None


def test_a_table_without_a_seed_deals_secret_seeds_and_shows_each_once_its_game_is_over(decks):
    s = Session(decks["classic"], PlayOptions(players=2, pace=0)).start()
    first = s.seed
    assert 0 <= first < 2 ** 63 and view(s, 0)["seed"] is None
    _play_out(s)
    assert view(s, 0)["seed"] == first
    s.new_game(0, same_seed=False)
    assert s.seed not in (first, first + 1)               # not the next number: the last game's seed tells nothing
    given = Session(decks["classic"], PlayOptions(players=2, pace=0, seed=7)).start()
    given.new_game(0, same_seed=False)
    assert given.seed == 8                                # a table given a seed plays the seeds after it


def test_the_card_text_is_the_rulebooks(decks):
    deck = decks["flex-spectrum"]
    s = Session(deck, PlayOptions(pace=0))
    by_key = {g.key: g for g in groups(deck)}
    texts = s.config(0)["texts"]
    assert set(texts) == {c.id for c in deck.cards}
    for card in deck.cards:
        assert texts[card.id]["text"] == group_text(deck, by_key[group_key(card)], "es")
        assert texts[card.id]["name"] == card.name("es")
    assert Session(deck, PlayOptions(pace=0, lang="en")).config(0)["ui"] == UI["en"]


def test_the_rules_page_is_the_rulebooks_text(decks):
    from deckgen.play.rules import blocks, runs
    from deckgen.rulebook.text import checked_text

    deck = decks["no-mercy"]
    text, _ = checked_text(deck, "en")
    got = blocks(deck, "en")
    plain = ["".join(r["t"] for r in rs) for b in got if b["type"] != "card" for rs in (b.get("items") or [b["runs"]])]
    assert any(b["type"] == "h1" for b in got) and any(b["type"] == "ol" for b in got)
    flat = text.replace("<b>", "").replace("</b>", "").replace("&#39;", "'")
    for line in plain:
        assert line.strip() in flat
    cards = [b for b in got if b["type"] == "card"]
    assert {b["id"] for b in cards} <= {c.id for c in deck.cards} and len(cards) >= 10
    assert runs("a <b>bold</b> and <i>it</i><font size=3>x</font>") == [
        {"t": "a ", "b": False, "i": False}, {"t": "bold", "b": True, "i": False}, {"t": " and ", "b": False, "i": False},
        {"t": "it", "b": False, "i": True}, {"t": "x", "b": False, "i": False}]


def test_a_match_to_the_target_score(decks):
    deck = decks[WOODLAND]
    s = _session(deck, players=2, seed=1, match=True)
    for _ in range(60):
        v = _play_out(s)[-1][0]
        over = v["over"]
        assert over["outcome"] == "finished"
        if over["match_over"]:
            break
        assert v["seed"] is None                            # the match goes on: its seed stays secret
        assert not s.next_hand(1)
        assert s.next_hand(0)
    assert over["match_winner"] is not None and max(s.scores) >= deck.scoring.target
    assert s.scores[over["match_winner"]] == max(s.scores)
    assert sum(r["points"] for r in s.records) == sum(s.scores)
    assert not s.next_hand(0)                              # the match is over
    assert [r["hand"] for r in s.records] == list(range(1, len(s.records) + 1))


def test_the_end_table_counts_the_losers_cards_and_marks_knock_outs(decks):
    """No Mercy: the winner's row says what they won (their own cards are not "points"), a
    player knocked out shows "out", the others the points their cards score."""
    deck = decks["no-mercy"]
    for seed in range(1, 80):
        s = Session(deck, PlayOptions(players=4, pace=0, seed=seed, bots="random"),
                    make_bot=lambda q: RandomAgent()).start()
        _play_out(s, choose=lambda d: len(d["answers"]) - 1)
        r = s.hand.result
        if r.outcome == "finished" and not all(r.alive):
            break
    else:
        pytest.skip("no seed with a knock-out")
    over = view(s, 0)["over"]
    t = s.table
    for row in over["seats"]:
        q = row["seat"]
        if row["winner"]:
            assert row["points"] is None
        elif not r.alive[q]:
            assert row["out"] and row["points"] is None
        else:
            assert row["points"] == sum(t.points[f] for f in r.hands[q])


# ---------------------------------------------------------------- the race UNO mode
class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def _raced(deck, kind: DecisionKind, humans: int = 2, tries: int = 200) -> Session:
    """A race-mode table paused at a race of this kind (found by playing the first answers)."""
    for seed in range(1, tries):
        s = Session(deck, PlayOptions(players=3, humans=humans, pace=0, seed=seed, uno="race"))
        s.clock = Clock()
        s.start()
        for _ in range(400):
            while (job := s.bot_job()) is not None:
                s.bot_answer(job, s.think(job))
            if s.race is not None and s.pending().kind is kind:
                return s
            d = s.pending()
            if d is None:
                break
            if s.race is not None:
                s.tick(float("inf"))
                continue
            s.answer(d.player, s.seq(), 0)
    raise AssertionError(f"no {kind} race")


def test_race_uno_pressed_in_time_is_said_and_late_is_not(decks):
    deck = decks["classic"]
    s = _raced(deck, DecisionKind.UNO)
    me = s.race.offender
    assert view(s, me)["race"]["mine"] and view(s, me)["decision"] is None       # a button, not a question
    assert not s.answer(me, s.seq(), 0)                                          # ... answered only by pressing
    assert s.press(me, "uno", s.seq())
    assert s.hand.game.log[-1] == ev.Uno(me, True) or any(e == ev.Uno(me, True) for e in s.hand.game.log[-6:])
    late = _raced(deck, DecisionKind.UNO)
    who = late.race.offender
    late.clock.now += UNO_WINDOW - 0.1
    late.tick(late.clock.now)
    assert late.race is not None and late.race.kind == "uno"
    late.clock.now += 0.2
    late.tick(late.clock.now)
    assert any(e == ev.Uno(who, False) for e in late.hand.game.log[-8:])


def test_race_catch_goes_to_whoever_presses_first(decks):
    deck = decks["classic"]
    s = _raced(deck, DecisionKind.CATCH, humans=3)
    offender = s.race.offender
    first, second = [q for q in (0, 1, 2) if q != offender]
    later_in_turn = max(first, second, key=lambda q: (q - offender) % 3)
    assert s.press(later_in_turn, "catch", s.seq())           # pressed first, though asked second
    caught = [e for e in s.hand.game.log if isinstance(e, ev.Caught)]
    assert caught and caught[-1] == ev.Caught(later_in_turn, offender)
    nobody = _raced(deck, DecisionKind.CATCH, humans=3)
    o = nobody.race.offender
    nobody.clock.now += CATCH_WINDOW + 0.1
    nobody.tick(nobody.clock.now)
    assert not any(isinstance(e, ev.Caught) and e.offender == o for e in nobody.hand.game.log[-10:])


# ---------------------------------------------------------------- the save and --resume
def test_the_save_replays_to_the_same_table(decks, tmp_path):
    deck = decks["no-mercy"]
    path = tmp_path / "table.jsonl"
    s = Session(deck, PlayOptions(players=4, humans=2, pace=0, seed=11))
    s.journal = Journal(path, {"port": 4321})
    s.start()
    for _ in range(12):
        s.settle_bots()
        d = s.pending()
        s.answer(d.player, s.seq(), 0)
    s.settle_bots()
    before = {q: view(s, q) for q in (0, 1)}
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600              # it holds the tokens and the seed
    again, header = resume(deck, path)
    assert header["port"] == 4321 and again.seats.tokens == s.seats.tokens
    assert again.hand.game.snapshot() == s.hand.game.snapshot()
    for q in (0, 1):
        a = view(again, q)
        for key in ("seq", "hand", "players", "top", "decision", "game"):
            assert a[key] == before[q][key], key
        assert again.lines[q] == s.lines[q]
    with open(path, "a", encoding="utf-8") as fh:                   # a last line cut short by a crash
        fh.write('{"h": 1, "s"')
    assert resume(deck, path)[0].hand.game.snapshot() == s.hand.game.snapshot()


def test_the_save_keeps_seats_handed_to_bots_and_matches(decks, tmp_path):
    deck = decks[WOODLAND]
    path = tmp_path / "m.jsonl"
    s = Session(deck, PlayOptions(players=3, humans=2, pace=0, seed=2, match=True))
    s.journal = Journal(path)
    s.start()
    _play_out(s)
    assert s.next_hand(0)
    assert s.seat_to_bot(0, 1)
    s.settle_bots()
    again, _ = resume(deck, path)
    assert again.hand.number == 2 and not again.seats.human(1) and again.scores == s.scores
    assert again.hand.game.snapshot() == s.hand.game.snapshot()


def test_a_save_that_does_not_fit_is_refused_with_a_message(decks, tmp_path):
    deck = decks["classic"]
    path = tmp_path / "t.jsonl"
    s = Session(deck, PlayOptions(players=2, pace=0, seed=3))
    s.journal = Journal(path)
    s.start()
    s.settle_bots()
    with pytest.raises(DeckgenError, match="not of 'no-mercy'"):
        resume(decks["no-mercy"], path)
    header, lines = read(path)
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps({"h": 1, "s": 99999, "a": 0}) + "\n")
    with pytest.raises(DeckgenError, match="does not fit"):
        resume(deck, path)
    path.write_text("not a save\n", encoding="utf-8")
    with pytest.raises(DeckgenError, match="not a table's save"):
        resume(deck, path)
    with pytest.raises(DeckgenError, match="no table was saved"):
        resume(deck, tmp_path / "none.jsonl")


# ---------------------------------------------------------------- the command, the assets
def test_the_command_refuses_bad_options():
    runner = CliRunner()
    r = runner.invoke(main, ["play", "classic", "--seat", "5", "--players", "3", "--no-open"])
    assert r.exit_code == 2 and "seat 5 is not at a table of 3" in r.output
    r = runner.invoke(main, ["play", "classic", "--rule", "stacking=sometimes", "--rule", "nonsense", "--no-open"])
    assert r.exit_code == 2
    assert "'sometimes' is not a value of rule option 'stacking'" in r.output and "'nonsense' is not NAME=VALUE" in r.output
    r = runner.invoke(main, ["play", "classic", "--bots", "clever", "--no-open"])
    assert r.exit_code == 2 and "unknown bot 'clever'" in r.output
    r = runner.invoke(main, ["play", "flex-spectrum", "--players", "9", "--no-open"])
    assert r.exit_code == 2 and "2 to 8 players, not 9" in r.output
    r = runner.invoke(main, ["play", "classic", "--players", "3", "--humans", "4", "--no-open"])
    assert r.exit_code == 2 and "4 people cannot sit at a table of 3" in r.output
    r = runner.invoke(main, ["play", "classic", "--lan", "my-laptop", "--no-open"])
    assert r.exit_code == 2 and "'my-laptop' is not an IP address" in r.output
    r = runner.invoke(main, ["play", "classic", "--lan", "0.0.0.0", "--no-open"])
    assert r.exit_code == 2 and "0.0.0.0 is not an address on the local network" in r.output
    r = runner.invoke(main, ["play", "nowhere.toml", "--no-open"])
    assert r.exit_code == 2
    assert "expert" in runner.invoke(main, ["play", "--help"]).output


def test_the_page_assets_come_with_the_package():
    for name in ("index.html", "play.js", "play.css"):
        text = asset(name).decode("utf-8")
        assert "http://" not in text and "https://" not in text          # nothing fetched from elsewhere
    js = asset("play.js").decode("utf-8")
    assert "innerHTML" not in js and "outerHTML" not in js and "insertAdjacentHTML" not in js   # text, never markup
    assert "eval(" not in js and "new Function" not in js


def test_the_faces_are_the_print_drawing_at_screen_size(decks):
    import io

    from PIL import Image, ImageChops

    from deckgen.render import RenderSettings, render_face

    deck = decks[WOODLAND]
    faces = Faces(deck, use_cache=False)
    settings = RenderSettings(dpi=120, bleed_mm=0.0)
    for face_id in ("fox-3", "night", "back"):
        shown = Image.open(io.BytesIO(faces.png(face_id))).convert("RGB")
        printed = render_face(deck, face_id, settings)
        assert shown.size == printed.size == faces.size
        assert ImageChops.difference(shown, printed).getbbox() is None, face_id
    assert faces.png("nothing") is None


def test_expert_bots_sit_at_the_table_with_their_strongest_budget(decks):
    """--bots expert: each bot is the expert at TABLE_THINK play-outs (docs/play.md), the budget
    from which it trusts its play-outs (docs/expert.md); the others are the plain agents."""
    from deckgen.rules import expert

    bot = Session(decks["classic"], PlayOptions(pace=0, bots="expert")).make_bot(1)
    assert isinstance(bot, expert.ExpertAgent) and bot.think == expert.TABLE_THINK == expert.TRUST_THINK
    assert type(Session(decks["classic"], PlayOptions(pace=0, bots="greedy")).make_bot(1)) is GreedyAgent


def test_an_expert_after_resume_knows_the_hand_as_one_that_sat_through_it(decks, tmp_path):
    """A bot made after --resume is first asked with every public event since the deal, not the
    latest window: its memory of the hand is whole (the discard pile known), as it would be had it
    played the hand from the deal."""
    from deckgen.rules.engine import public_event
    from deckgen.rules.expert import ExpertAgent

    deck = decks["classic"]
    path = tmp_path / "x.jsonl"
    s = Session(deck, PlayOptions(players=3, humans=1, pace=0, seed=5), make_bot=lambda _q: ExpertAgent(2))
    s.journal = Journal(path)
    s.start()
    from deckgen.rules.machine import PUBLIC_EVENTS

    while len(s.hand.game.log) < PUBLIC_EVENTS + 20:  # past the observation's window of events
        s.settle_bots()
        d = s.pending()
        assert d is not None, "the hand ended too soon for this test"
        s.answer(d.player, s.seq(), 0)
    made: dict[int, ExpertAgent] = {}

    def make(q: int) -> ExpertAgent:
        made[q] = ExpertAgent(2)
        return made[q]

    again, _ = resume(deck, path, make_bot=make)
    job = again.bot_job()
    if job is None:                                   # the person's turn: answer it, then a bot's
        d = again.pending()
        again.answer(d.player, again.seq(), 0)
        job = again.bot_job()
    assert job is not None
    log = list(again.hand.game.log)
    again.bot_answer(job, again.think(job))
    memory = made[job.seat].memories[job.seat]
    assert memory.ok
    assert memory.seen == [public_event(ev, job.seat) for ev in log]
