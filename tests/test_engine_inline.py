"""The turn loop as it runs is generated from the turn as written (deckgen/rules/inline.py): the
common steps' calls are gone from it, and it plays the same games as the loop as written, every
bundled deck and the woodland example, bots in every seat or answers from outside, every rule
option that changes the turn."""

import ast
import inspect
import linecache
import random
import traceback
from functools import cache

import pytest

from deckgen import manifest
from deckgen.rules.agents import GreedyAgent, RandomAgent
from deckgen.rules.engine import Game
from deckgen.rules.inline import InlineError, inline
from tests.conftest import ROOT

INLINED = ("take_turn", "play", "op_play", "pass_on", "op_turn", "after_effects")
DECKS = ("classic", "no-mercy", "flex-spectrum", "woodland")
RULES = ({}, {"stacking": "same-kind", "jump_in": True, "seven_zero": True},
         {"uno_penalty": 0, "no_playable_card": "draw-until-playable"})


@cache
def _table(name, extra=()):
    from deckgen.rules.table import compile_deck

    d = manifest.load_deck(ROOT / "decks" / "examples" / "woodland" / "woodland.toml" if name == "woodland" else name)
    rules = dict(extra)
    if d.rule_options.stacking != "off":
        rules.pop("stacking", None)
    return compile_deck(d, d.rule_options.replace(**rules))


def _written(monkeypatch):
    monkeypatch.setattr(Game, "_play_turns", Game._play_turns_as_written)


def test_the_generated_loop_calls_none_of_the_inlined_steps():
    source = Game._play_turns.inline_source
    calls = {n.func.attr for n in ast.walk(ast.parse(source))
             if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and isinstance(n.func.value, ast.Name) and n.func.value.id == "self"}
    assert not calls & set(INLINED), calls & set(INLINED)
    written = ast.unparse(ast.parse(inspect.getsource(Game._play_turns_as_written).strip()))
    assert "self.take_turn(p)" in written             # the loop as written calls them


def _games():
    out = []
    for name in DECKS:
        for k, extra in enumerate(RULES):
            table = _table(name, tuple(sorted(extra.items())))
            for i in range(6):
                agent = RandomAgent() if i % 2 else GreedyAgent()
                g = Game(table, 2 + i % 5, f"inline:{name}:{k}:{i}", agent, record=True).run()
                out.append((g.outcome, g.winner, g.turns, g.decisions, g.snapshot(), list(g.log or ())))
    return out


def test_the_generated_loop_plays_the_games_of_the_written_one(monkeypatch):
    generated = _games()
    _written(monkeypatch)
    assert _games() == generated


def _stepped(seed):
    """Seats 0 and 2 answered from outside at random, the others bots: every decision's serial
    and the answer given, and the hand's end."""
    pick = random.Random(seed)
    seen = []
    table = _table("no-mercy", (("jump_in", True),))
    g = Game(table, 4, seed, [None, GreedyAgent(), None, RandomAgent()], record=True).start()
    while g.decision is not None:
        d = g.decision
        options = [*d.options, *([None] if d.passable else [])]
        a = options[pick.randrange(len(options))]
        seen.append((d.player, d.kind, d.serial, a))
        g.apply(a, d.player, d.serial)
    return seen, g.outcome, g.winner, g.snapshot()


def test_stepped_from_outside_the_generated_loop_is_the_written_one(monkeypatch):
    generated = [_stepped(f"outside:{i}") for i in range(8)]
    _written(monkeypatch)
    assert [_stepped(f"outside:{i}") for i in range(8)] == generated


def test_a_method_the_inliner_cannot_take_is_refused():
    with pytest.raises(InlineError, match="return inside a loop"):
        inline(Game._play_turns_as_written, {"take_turn": Game.take_turn, "no_play": Game.no_play})
    with pytest.raises(InlineError, match="never calls"):
        inline(Game._play_turns_as_written, {"legal_moves": Game.legal_moves})


def test_a_traceback_through_the_generated_loop_shows_its_lines(monkeypatch):
    class Broken(RandomAgent):
        def play_turn(self, game, p, faces, flex, passable):
            raise RuntimeError("a broken bot")

    with pytest.raises(RuntimeError) as info:
        Game(_table("classic"), 3, 1, Broken()).run()
    frames = traceback.extract_tb(info.value.__traceback__)
    mine = [f for f in frames if f.filename.startswith("<deckgen.rules.inline")]
    assert mine and "play_turn" in mine[-1].line
    assert linecache.getline(mine[-1].filename, mine[-1].lineno).strip() == mine[-1].line


# where a hand's fixed fields may be assigned: before play (the constructors, a position set out,
# a copy made) or on a copy beside it (determinize)
FIXED_WRITERS = {"__init__", "clone", "op_position", "determinize"}
GAME_CLASSES = {"State", "Machine", "Game"}


def _fixed_writes(path, allowed=FIXED_WRITERS):
    """(function, field, line) for every assignment to a fixed field outside FIXED_WRITERS, in
    this module's functions and in the methods of State, Machine and Game (another class's own
    fields of the same name, such as the expert's Memory.discard, are that class's)."""
    from deckgen.rules.engine import FIXED

    found = []

    def visit(node, owner, function):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, child.name, function)
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, owner, child.name)
            else:
                targets = []
                if isinstance(child, ast.Assign):
                    targets = child.targets
                elif isinstance(child, (ast.AugAssign, ast.AnnAssign)):
                    targets = [child.target]
                elif isinstance(child, ast.Delete):
                    targets = child.targets
                for target in targets:
                    for t in ast.walk(target):
                        if isinstance(t, ast.Attribute) and t.attr in FIXED and isinstance(t.ctx, (ast.Store, ast.Del)) \
                                and (owner is None or owner in GAME_CLASSES) and function not in allowed:
                            found.append((function, t.attr, t.lineno))
                visit(child, owner, function)

    visit(ast.parse(path.read_text(encoding="utf-8")), None, None)
    return found


def test_no_code_of_the_rules_assigns_a_field_the_generated_loop_reads_once():
    """The generated loop reads the engine's FIXED fields once, when it starts: nothing in the
    rules package may assign one during play (only FIXED_WRITERS, before it or on a copy)."""
    found = {str(p.relative_to(ROOT)): w for p in sorted((ROOT / "deckgen" / "rules").glob("*.py"))
             if (w := _fixed_writes(p))}
    assert found == {}
    # the check sees such a write: op_position, were it not allowed, sets the hands anew
    seen = _fixed_writes(ROOT / "deckgen" / "rules" / "state.py", FIXED_WRITERS - {"op_position"})
    assert ("op_position", "hands") in {(f, a) for f, a, _ in seen}


def test_a_fixed_field_is_read_once_and_a_written_one_is_refused():
    """inline(fixed=...) binds each fixed field the loop reads to a local at its start, and
    refuses a field the loop itself writes."""
    from deckgen.rules.engine import FIXED

    source = Game._play_turns.inline_source
    head = source.split("while ", 1)[0]
    for field in ("table", "hands", "policies"):
        assert field in FIXED and f"_self_{field} = self.{field}" in head
        assert f"self.{field}" not in source.split("while ", 1)[1]

    class Toy:
        def __init__(self):
            self.items, self.total = [1, 2], 0

        def add(self, x):
            self.total += x

        def loop(self):
            for x in self.items:
                self.add(x)

    fast = inline(Toy.loop, {"add": Toy.add}, fixed=("items",))
    toy = Toy()
    fast(toy)
    assert toy.total == 3
    with pytest.raises(InlineError, match="total"):
        inline(Toy.loop, {"add": Toy.add}, fixed=("items", "total"))
