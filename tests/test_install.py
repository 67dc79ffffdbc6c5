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
