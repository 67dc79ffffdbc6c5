"""What a warm build asks of an unchanged deck (its languages, the code's version, the look check
of a deck without a look of its own) imports neither jinja2, the rules engine, the face drawing
nor the image reader (benchmarks/warm.py times that build)."""

import json
import os
import subprocess
import sys

import pytest

CODE = """import json, sys
from deckgen.cli import main
main.get_command(None, 'build')
import deckgen.build, deckgen.check, deckgen.rulebook, deckgen.rulebook.step
from deckgen import inputs, manifest
from deckgen.render.look import look_check
deck = manifest.load('classic').deck
inputs.code_version()
langs = deckgen.rulebook.languages(deck)
assert look_check(deck) == [] and langs == ['en', 'es'], langs
print(json.dumps(sorted(m for m in ('jinja2', 'reportlab', 'deckgen.rules', 'deckgen.rules.engine', 'deckgen.render.draw',
                                    'deckgen.images', 'deckgen.rulebook.text', 'deckgen.rulebook.document',
                                    'deckgen.rulebook.cover') if m in sys.modules)))
"""

# A whole warm build, card sheets and rulebooks from the cache: the face masks' and the PNG
# writer's Pillow, the sheet planner, the imposition, the cut files, the registration marks and
# (with no cache notice to give) logging stay out of it.
BUILD = """import json, sys
from click.testing import CliRunner
from deckgen.cli import main
result = CliRunner().invoke(main, ['build', 'classic', '-o', sys.argv[1], '--dpi', '30', '--jobs', '1'])
assert result.exit_code == 0 and '(0 drawn now)' in result.output, result.output
print(json.dumps(sorted(m for m in sys.modules if m.startswith(('PIL.Image', 'PIL.ImageDraw', 'deckgen.layout.imposition',
                                                                'deckgen.layout.geometry', 'logging',
                                                                'deckgen.layout.cutfile', 'deckgen.layout.registration',
                                                                'deckgen.render.draw')))))
"""


def test_what_a_warm_build_asks_imports_no_template_engine_rules_engine_or_drawing():
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == []


def test_the_rulebook_packages_lazy_names_are_its_modules_names():
    import deckgen.rulebook
    from deckgen.rulebook import document, lookup, text

    assert deckgen.rulebook.build_rulebook is document.build_rulebook
    assert deckgen.rulebook.crosscheck is text.crosscheck and deckgen.rulebook.languages is lookup.languages
    assert all(getattr(deckgen.rulebook, name) is not None for name in deckgen.rulebook.__all__)
    with pytest.raises(AttributeError, match="no_such_name"):
        getattr(deckgen.rulebook, "no_such_name")  # noqa: B009


def test_a_warm_build_imports_no_pillow_image_and_no_imposition(tmp_path):
    env = {**os.environ, "DECKGEN_CACHE": str(tmp_path / "cache")}
    for _ in range(2):                  # fills the cache, then writes the outputs from it
        subprocess.run([sys.executable, "-m", "deckgen", "build", "classic", "-o", str(tmp_path / "out"), "--dpi", "30",
                        "--jobs", "1"], capture_output=True, check=True, env=env)
    out = subprocess.run([sys.executable, "-c", BUILD, str(tmp_path / "out")], capture_output=True, text=True,
                         check=True, env=env).stdout
    assert json.loads(out) == []


def test_the_code_version_reads_the_library_versions_without_importing_them():
    import jinja2
    import reportlab

    from deckgen import inputs

    assert inputs.library_version("reportlab", "Version") == reportlab.Version
    assert inputs.library_version("jinja2", "__version__") == jinja2.__version__
