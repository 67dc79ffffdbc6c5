"""Whatever a manifest holds, reading it gives a deck or deckgen's own findings: never a crash."""

import copy
import sys
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from deckgen.datafile import read_toml
from deckgen.errors import DeckgenError
from deckgen.manifest.parser import parse_manifest
from tests.conftest import ROOT

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

BUNDLED = {name: tomllib.loads((ROOT / "decks" / f"{name}.toml").read_text("utf-8"))
           for name in ("classic", "no-mercy", "flex-spectrum")}

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=False),
                    st.text(max_size=12), st.sampled_from(["all", "red", "+3", "face", "number", "wild", "skip"]))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                      max_leaves=12)


def _paths(data, prefix=()):
    """Every key path in a nested manifest."""
    if isinstance(data, dict):
        for k, v in data.items():
            yield (*prefix, k)
            yield from _paths(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield (*prefix, i)
            yield from _paths(v, (*prefix, i))


def _parse(data):
    path = Path("fuzz.toml")
    try:
        result = parse_manifest(data, path)
    except DeckgenError:
        return
    assert result.deck is not None or result.errors


@settings(max_examples=int(__import__("os").environ.get("FUZZ_EXAMPLES", 150)), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(BUNDLED)), data=st.data(), new=values)
def test_mutated_bundled_manifest_never_crashes(name, data, new):
    manifest = copy.deepcopy(BUNDLED[name])
    paths = list(_paths(manifest))
    target = data.draw(st.sampled_from(paths))
    parent = manifest
    for key in target[:-1]:
        parent = parent[key]
    if data.draw(st.booleans()):
        parent[target[-1]] = new
    elif isinstance(parent, dict):
        del parent[target[-1]]
    else:
        parent.pop(target[-1])
    _parse(manifest)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(["deck", "palette", "rules", "scoring", "kinds", "cards", "components", "x"]),
                       values, max_size=7))
@example({"deck": None, "palette": "~0"})      # hypothesis seed 147: "~0" named the home of a user "0": a traceback
def test_random_manifest_never_crashes(data):
    _parse(data)


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes_give_a_toml_error(tmp_path_factory, raw):
    path = tmp_path_factory.mktemp("fuzz") / "deck.toml"
    path.write_bytes(raw)
    try:
        data = read_toml(path)
    except DeckgenError as exc:
        assert exc.findings[0].file == str(path)
        return
    _parse(data)


def test_a_path_that_starts_with_a_tilde_but_names_no_user_is_a_name(tmp_path, monkeypatch):
    """'~0' or '~draft.png' (no such user): Path.expanduser raised RuntimeError ("Could not
    determine home directory"), a traceback from check; such a name is now taken as it is."""
    from deckgen import fonts
    from deckgen.images import resolve_inside

    (tmp_path / "~draft.png").write_bytes(b"x")
    assert resolve_inside("~draft.png", tmp_path) == (tmp_path / "~draft.png").resolve()
    monkeypatch.setenv("DECKGEN_FONTS", "~nosuchuser0/fonts")
    assert fonts.user_fonts_dir() == Path("~nosuchuser0/fonts")
