"""Every output name comes from deckgen.outputs, and docs/cli.md gives the same names: a name
changed in one place and not the other fails here."""

from pathlib import Path

import pytest

from deckgen import outputs
from tests.conftest import ROOT

DOC = (ROOT / "docs" / "cli.md").read_text("utf-8")

NAMES = [
    (outputs.report_pdf("<deck>"), "output/<deck>/<deck>-report.pdf"),
    (outputs.rulebook_pdf("<deck>", "<lang>"), "output/<deck>/<deck>-rulebook-<lang>.pdf"),
    (outputs.rulebook_pdf("<deck>", "es", folder=Path("DIR/<deck>")), "DIR/<deck>/<deck>-rulebook-es.pdf"),
    (Path(outputs.rulebook_name("<deck>", "<lang>", booklet=True)), "<deck>-rulebook-<lang>-booklet.pdf"),
    (outputs.cards_pdf("<deck>", "DIR"), "DIR/<deck>/<deck>-cards.pdf"),
    (outputs.cards_pdf("<deck>", "DIR", only=True), "DIR/<deck>/<deck>-cards-only.pdf"),
    (outputs.cut_file(Path("<deck>-cards.pdf"), 7), "<deck>-cards-cut-07.svg"),
    (outputs.preview_png("DECK"), "DECK-preview.png"),
    (outputs.tts_folder("<deck>"), "output/<deck>/tts"),
    (outputs.print_shop_folder("<deck>", "<service>"), "output/<deck>/print-<service>"),
]


@pytest.mark.parametrize(("path", "documented"), NAMES, ids=[n for _, n in NAMES])
def test_the_name_is_the_documented_one(path, documented):
    assert path.as_posix() == documented
    shown = documented.replace("-07.svg", "-NN.svg")       # the docs name the sheet number NN
    assert shown in DOC, f"{shown} not in docs/cli.md"


def test_every_command_default_folder_is_under_output():
    assert outputs.deck_folder("classic") == outputs.OUTPUT / "classic" == Path("output/classic")
