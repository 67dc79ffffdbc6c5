"""A non-editable install (a real wheel) finds its bundled decks, palettes, templates and fonts
when run from any directory."""

import json
import os
import subprocess
import sys
import zipfile

import pytest

from tests.conftest import ROOT


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(tmp / "dist"), str(ROOT)], check=True, capture_output=True)
    wheel = next((tmp / "dist").glob("deckgen-*.whl"))
    target = tmp / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                   check=True, capture_output=True)
    return wheel, target, tmp


def run_installed(target, cwd, *args):
    env = dict(os.environ, PYTHONPATH=str(target))
    return subprocess.run([sys.executable, "-m", "deckgen", *args], cwd=cwd, env=env, capture_output=True, text=True)


def test_wheel_carries_the_data(installed):
    wheel, _, _ = installed
    names = zipfile.ZipFile(wheel).namelist()
    for needed in ("deckgen/_data/decks/classic.toml", "deckgen/_data/decks/kinds.toml",
                   "deckgen/_data/decks/palettes/spectrum.toml"):
        assert needed in names
    assert any(n.startswith("deckgen/_data/templates/") for n in names)


def test_installed_package_runs_from_another_directory(installed):
    _, target, tmp = installed
    elsewhere = tmp / "elsewhere"
    elsewhere.mkdir()
    where = subprocess.run([sys.executable, "-c", "import deckgen, deckgen.resources as r; print(deckgen.__file__);"
                            "print(r.decks_dir())"], cwd=elsewhere, env=dict(os.environ, PYTHONPATH=str(target)),
                           capture_output=True, text=True, check=True).stdout.split()
    assert where[0].startswith(str(target)) and where[1].startswith(str(target))
    result = run_installed(target, elsewhere, "check", "flex-spectrum", "--json", "--no-sim")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["cards_total"] == 236
    listing = run_installed(target, elsewhere, "list")
    assert "no-mercy" in listing.stdout and "spectrum" in listing.stdout


def test_installed_package_builds_cards_and_rulebooks_from_another_directory(installed, tmp_path):
    """Fonts, card sizes, papers and rulebook templates all come from the wheel."""
    _, target, _ = installed
    env = dict(os.environ, PYTHONPATH=str(target), DECKGEN_CACHE=str(tmp_path / "cache"))
    result = subprocess.run([sys.executable, "-m", "deckgen", "build", "classic", "--dpi", "40"],
                            cwd=tmp_path, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    made = sorted(p.name for p in (tmp_path / "output" / "classic").iterdir())
    assert made == ["classic-cards.pdf", "classic-rulebook-en.pdf", "classic-rulebook-es.pdf"]
    font = subprocess.run([sys.executable, "-c", "from deckgen.fonts import font_path; print(font_path('display'))"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, check=True).stdout.strip()
    assert font.startswith(str(target)) and font.endswith("LeagueSpartan-Black.otf")


def test_installed_example_deck_builds_with_its_art_and_fonts(installed, tmp_path):
    """The example deck, its SVG art and its fonts folder travel in the wheel; the user fonts
    folder is the platform's user data folder, from any directory."""
    _, target, _ = installed
    env = dict(os.environ, PYTHONPATH=str(target), DECKGEN_CACHE=str(tmp_path / "cache"),
               XDG_DATA_HOME=str(tmp_path / "data"))
    env.pop("DECKGEN_FONTS", None)
    result = subprocess.run([sys.executable, "-m", "deckgen", "build", "woodland", "--dpi", "30", "--no-rulebook"],
                            cwd=tmp_path, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "output" / "woodland" / "woodland-cards.pdf").is_file()
    probe = ("from deckgen.fonts import user_fonts_dir, font_set; from deckgen.manifest import load_deck;"
             "d = load_deck('woodland'); print(user_fonts_dir()); print(font_set(d.fonts).path('text'))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env, capture_output=True, text=True,
                         check=True).stdout.split()
    assert out[0] == str(tmp_path / "data" / "deckgen" / "fonts")
    assert out[1].startswith(str(target)) and out[1].endswith("DejaVuSerifCondensed-Bold.ttf")
