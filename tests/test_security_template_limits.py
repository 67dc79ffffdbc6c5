"""No step of a stranger's rulebook template can take gigabytes or minutes (docs/security.md,
"Templates"): the sandbox refuses every value over its size limits before making it, and the
templates run in a child process with a memory limit and a wall-clock kill."""

from __future__ import annotations

import string
import time

import pytest
from hostile import assert_refused, make_deck, run
from hypothesis import given
from hypothesis import strategies as st

from deckgen import manifest
from deckgen.rulebook import bounds
from deckgen.rulebook import env as rb_env
from deckgen.rulebook import run as rb_run
from deckgen.rulebook.text import crosscheck, render_text

PEAK_MB = 1024        # deckgen itself (~150 MB) and the templates' process (at most MAX_MEMORY more)


def _with_template(tmp_path, body: str, lang: str = "en"):
    deck = make_deck(tmp_path, 'templates = "rules"')
    (deck.folder / "rules" / lang).mkdir(parents=True)
    (deck.folder / "rules" / lang / "rulebook.j2").write_text(
        '{% extends "shared/rulebook.j2" %}\n{% block intro %}\n' + body + '\n{% endblock %}\n', encoding="utf-8")
    return deck


def _findings(deck, langs=("en",)) -> list:
    return crosscheck(manifest.load_deck(deck.manifest), list(langs))


# The cases of issue 38: each one got past the old `*`/`**` guards and asked for gigabytes (check
# exited 0 after using about 3 GB) or, for the squarings, one C call longer than the 20 s budget.
ISSUE_38 = {
    "replace": "{% set s = 'x' * 1000 %}{{ s.replace('x', 'y' * 10**6) }}",
    "join": "{% set s = 'x' * 1000000 %}{{ ([s] * 3000)|join }}",
    "doubling": "{% macro d(s, n) %}{% if n %}{{ d(s ~ s, n - 1) }}{% else %}{{ s|length }}{% endif %}"
                "{% endmacro %}{{ d('x', 40) }}",
    "expandtabs": "{% set s = '\t' * 1000000 %}{{ s.expandtabs(99999)|length }}",
    "format": "{{ '{0:0900000000}'.format(1)|length }}",
    # eighteen squarings of 2**4000: the sixteenth alone took 4.7 s, each next one about three times as long
    "squarings": "{% set n0 = 2 ** 4000 %}" + "".join(f"{{% set n{i + 1} = n{i} * n{i} %}}" for i in range(18))
                 + "{{ n18 > 1 }}",
}


@pytest.mark.parametrize("case", list(ISSUE_38))
def test_the_issue_38_templates_are_refused_in_little_memory_and_time(tmp_path, case):
    deck = _with_template(tmp_path, ISSUE_38[case])
    start = time.monotonic()
    result = run(deck, "check", str(deck.manifest), "--no-sim", seconds=60)
    assert time.monotonic() - start < 60
    assert_refused(result, "template-sandbox", "too large for a rulebook", "rulebook.j2:3", codes=(1,))
    assert 0 < result.peak_mb < PEAK_MB, result.peak_mb


def test_what_the_checks_cannot_foresee_stops_at_the_memory_limit(tmp_path):
    # every value within the size limits, but ever more of them: only the process's limit stops it
    deck = _with_template(tmp_path, "{% set ns = namespace(items=[]) %}{% for i in range(100000) %}"
                                    "{% set ns.items = ns.items + [('x' * 900000) ~ i] %}{% endfor %}")
    result = run(deck, "check", str(deck.manifest), "--no-sim", seconds=60)
    limit = rb_env.MAX_MEMORY // (1024 * 1024)
    assert_refused(result, "template-budget", f"used more than {limit} MB of memory", "rulebook.j2", codes=(1,))
    assert 0 < result.peak_mb < PEAK_MB, result.peak_mb


def test_one_step_the_timer_cannot_interrupt_is_killed(tmp_path, monkeypatch):
    """A call into C ignores the timer's exception (the squarings did): the process is killed."""
    monkeypatch.setattr(rb_env, "MAX_SECONDS", 0.5)
    monkeypatch.setattr(rb_env, "GRACE", 1.0)

    class Stuck(rb_env.Budget):
        def render(self, template):
            time.sleep(60)          # one C call: the asynchronous exception waits for it to return

    monkeypatch.setattr(rb_env, "Budget", Stuck)
    deck = _with_template(tmp_path, "Hello.")
    start = time.monotonic()
    found = _findings(deck)
    assert time.monotonic() - start < 20
    assert found[0].code == "template-budget" and "ran longer than 0.5 s" in found[0].message, found
    assert found[0].file.endswith("rulebook.j2")


def test_the_language_that_failed_is_named_and_the_others_still_run(tmp_path, monkeypatch):
    """Both languages run in one child; when it is killed in one, the other runs in a child of
    its own and keeps its own outcome."""
    monkeypatch.setattr(rb_env, "MAX_MEMORY", 96 * 1024 * 1024)
    deck = _with_template(tmp_path, "{% set ns = namespace(items=[]) %}{% for i in range(100000) %}"
                                    "{% set ns.items = ns.items + [('x' * 900000) ~ i] %}{% endfor %}")
    loaded = manifest.load_deck(deck.manifest)
    en = render_text(loaded, "en")
    outcomes = rb_run.render(loaded, ["en", "es"])
    assert outcomes["en"][0] is None and "used more than 96 MB" in outcomes["en"][2][0].message
    assert en[2][0].message == outcomes["en"][2][0].message
    text, rec, findings = outcomes["es"]
    assert text and "Cartas" in text and not findings and rec.explained
    outcomes = rb_run.render(loaded, ["es", "en"])          # the failing one last: the first keeps its text
    assert outcomes["es"][0] == text and outcomes["en"][0] is None


def test_the_text_from_the_child_is_the_text_made_in_process():
    deck = manifest.load_deck("flex-spectrum")
    env, rec = rb_run._prepare(deck, "en")
    here = rb_env.Budget().render(env.get_template(rb_env.ENTRY))
    text, got, findings = rb_run.render(deck, ["en"])["en"]
    assert text == here and not findings
    assert got.refs == rec.refs and got.explained == rec.explained and got.blocks == rec.blocks


# More ways to build a huge value in one step, each refused before it is made.
MORE = [
    '{{ "%0900000000d" % 1 }}', '{{ "%0900000000d"|format(1) }}', '{{ "{0:{1}}".format(1, "0900000000") }}',
    '{{ ("%(a)99999d" * 100)|format(a=1) }}', '{{ ("{0:99999}" * 100).format(1) }}',
    "{{ ('a' * 1000000)|replace('a', 'bb') }}", "{{ ('\\n' * 100000)|indent('x' * 100) }}",
    "{{ ('a ' * 100000)|wordwrap(1, wrapstring='x' * 100) }}", "{{ ('a.com ' * 100000)|urlize(target='x' * 100) }}",
    "{{ ['x' * 1000000] * 3 }}", "{{ (['x' * 1000000] * 3)|string }}", "{{ (['x' * 1000000] * 3)|tojson }}",
    "{{ (['x' * 1000000] * 3)|pprint }}", "{{ ['x' * 1000000] ~ 'y' }}", "{{ ([['x'] * 1000000] * 3)|sum(start=[]) }}",
    "{{ ('a' * 1000000).translate({97: 'bb'}) }}", "{{ ''.join(['x' * 1000000] * 3) }}",
    "{% set l = ['x'] * 1000000 %}{{ (l + l)|length }}", "{{ ('x' * 1000000 + 'y')|length }}",
    "{% set s = 'x' * 600000 %}{% set t %}{{ s }}{{ s }}{% endset %}{{ t|length }}",
    "{{ '{a}{a}'.format_map({'a': 'x' * 600000}) }}", "{{ ('<' * 300000)|e|length }}",
    "{{ 2 ** 20000 }}", "{{ (10 ** 3000) * (10 ** 3000) }}",
]


@pytest.mark.parametrize("body", MORE)
def test_every_way_to_grow_a_value_is_measured_first(tmp_path, body):
    found = _findings(_with_template(tmp_path, body))
    assert found and found[0].code == "template-sandbox", found
    assert "too large for a rulebook" in found[0].message or "too much" in found[0].message, found[0].message
    assert found[0].line == 3


def test_lipsum_is_not_offered():
    deck = manifest.load_deck("classic")
    env = rb_env.environment(deck, "en")
    assert "lipsum" not in env.globals and "range" in env.globals


def test_values_within_the_limits_still_work(tmp_path):
    body = ("{% set s = 'ab' * 1000 %}{{ s.replace('a', 'xyz')|length }} {{ (['x'] * 10)|join('-') }} "
            "{{ '{0:>8}|{1:.3f}'.format('r', 2.5) }} {{ '%05d' % 42 }} {{ 2 ** 100 }} {{ ('a\tb').expandtabs(4) }} "
            "{{ ([1, 2] + [3])|sum }} {{ 'x'|indent(2) }}")
    deck = _with_template(tmp_path, body)
    loaded = manifest.load_deck(deck.manifest)
    text, _, findings = render_text(loaded, "en")
    assert not [f for f in findings if f.is_error], findings
    assert "4000 x-x-x-x-x-x-x-x-x-x        r|2.500 00042 1267650600228229401496703205376 a   b 6 x" in text


_plain = st.text(string.ascii_letters + string.digits + " ", max_size=20)
_values = st.recursive(st.one_of(_plain, st.integers(-10 ** 40, 10 ** 40), st.booleans(), st.none()),
                       lambda inner: st.lists(inner, max_size=5) | st.dictionaries(_plain, inner, max_size=5)
                       | st.tuples(inner, inner), max_leaves=40)


@given(_values)
def test_size_is_never_less_than_the_printed_length(value):
    assert bounds.size(value) >= len(str(value))
