"""The rulebook cover's logo: deck.cover_logo when given, and a warning with the figure when the
logo would vanish on the white page, where the cover then draws it on a panel of the back's
colour (docs/manifest.md, "The cover's logo")."""

from __future__ import annotations

import io

import pypdfium2
import pytest
from PIL import Image, ImageDraw

from deckgen import manifest
from deckgen.check import check
from deckgen.rulebook import build_rulebook
from deckgen.rulebook.cover import MIN_CONTRAST, cover_logo, outline_contrast
from deckgen.stages import CheckOptions

WHITE_LOGO = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 200" width="300" height="200">
  <path d="M150 20 L190 100 L150 180 L110 100 Z" fill="none" stroke="#FFFFFF" stroke-width="14"/>
  <circle cx="150" cy="100" r="26" fill="#FFFFFF"/>
</svg>"""

# the same shape in dark ink, upright (200 x 300), so the cover's picture tells the two apart
INK_LOGO = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 300" width="200" height="300">
  <path d="M100 20 L160 150 L100 280 L40 150 Z" fill="none" stroke="#202020" stroke-width="14"/>
  <circle cx="100" cy="150" r="26" fill="#202020"/>
</svg>"""


@pytest.fixture
def deck_with(tmp_path, minimal_text):
    def make(**images: str):
        keys = ""
        for key, svg in images.items():
            (tmp_path / f"{key}.svg").write_text(svg, "utf-8")
            keys += f'{key} = "{key}.svg"\n'
        path = tmp_path / "deck.toml"
        path.write_text(minimal_text.replace('palette = "classic"\n', f'palette = "classic"\n{keys}'), "utf-8")
        return path

    return make


def _shape(colour: str, outline: str | None = None) -> Image.Image:
    """A square on a transparent picture, with a one-pixel outline of another colour if asked."""
    im = Image.new("RGBA", (60, 60), (0, 0, 0, 0))
    ImageDraw.Draw(im).rectangle((15, 15, 44, 44), fill=colour, outline=outline)
    return im


def test_outline_contrast_judges_what_the_page_shows_through():
    white = (255, 255, 255)
    assert outline_contrast(_shape("white"), white) == pytest.approx(1.0)
    assert outline_contrast(_shape("#FFF6E6", outline="#5A2A0C"), white) > 10       # a light disc in a dark ring
    assert outline_contrast(_shape("black"), white) == pytest.approx(21.0)
    assert outline_contrast(Image.new("RGBA", (40, 40), "white"), white) is None      # its own background
    assert outline_contrast(Image.new("RGBA", (40, 40), (0, 0, 0, 0)), white) == 1.0  # nothing there to see
    # a shape that reaches the picture's edge is outlined there too: the page starts beyond it
    half = Image.new("RGBA", (40, 40), (0, 0, 0, 0))
    ImageDraw.Draw(half).rectangle((0, 0, 19, 39), fill="white")
    ImageDraw.Draw(half).line((19, 0, 19, 39), fill="black")
    assert outline_contrast(half, white) == pytest.approx(1.0)


def test_a_white_logo_is_a_warning_with_the_figure_and_a_hint(deck_with):
    report = check(deck_with(logo=WHITE_LOGO), CheckOptions(simulate=False))
    found = [f for f in report.findings if f.code == "cover-logo-contrast"]
    assert len(found) == 1 and found[0].severity == "warning" and found[0].where == "deck.logo"
    assert "1.0:1" in found[0].message and "white page" in found[0].message
    assert "deck.cover_logo" in (found[0].hint or "")
    assert not report.errors


def test_a_cover_logo_for_the_page_replaces_the_logo_and_is_not_warned_about(deck_with):
    path = deck_with(logo=WHITE_LOGO, cover_logo=INK_LOGO)
    deck = manifest.load_deck(path)
    logo = cover_logo(deck)
    assert logo is not None and logo.where == "deck.cover_logo" and logo.ref == deck.cover_logo
    assert logo.contrast is not None and logo.contrast >= MIN_CONTRAST and not logo.needs_panel
    assert not [f for f in check(path, CheckOptions(simulate=False)).findings if f.code == "cover-logo-contrast"]
    # a white cover_logo is judged in its turn, at its own key
    found = [f for f in check(deck_with(logo=INK_LOGO, cover_logo=WHITE_LOGO), CheckOptions(simulate=False)).findings
             if f.code == "cover-logo-contrast"]
    assert [f.where for f in found] == ["deck.cover_logo"]


def test_a_missing_cover_logo_file_is_an_error_at_its_key(tmp_path, minimal_text):
    path = tmp_path / "deck.toml"
    path.write_text(minimal_text.replace('palette = "classic"\n', 'palette = "classic"\ncover_logo = "nope.svg"\n'))
    result = manifest.load(path)
    assert result.deck is None and [f.where for f in result.errors] == ["deck.cover_logo"]


def test_the_woodland_logo_stands_out_on_the_page():
    """Its light disc vanishes into the page, but its dark ring keeps the outline."""
    logo = cover_logo(manifest.load_deck("woodland"))
    assert logo is not None and logo.contrast is not None and logo.contrast > 7 and not logo.needs_panel
    assert not [f for f in check("woodland", CheckOptions(simulate=False)).findings if f.code == "cover-logo-contrast"]


def _cover(deck) -> Image.Image:
    pdf = pypdfium2.PdfDocument(io.BytesIO(bytes(build_rulebook(deck, "en", images={}))))
    return pdf[0].render(scale=100 / 72).to_pil().convert("RGB")


def _logo_area(page: Image.Image) -> Image.Image:
    """Where the cover's logo sits: the middle of the page's top fifth."""
    w, h = page.size
    return page.crop((int(w * 0.3), int(h * 0.02), int(w * 0.7), int(h * 0.22)))


def _share(im: Image.Image, rgb: tuple[int, int, int], tol: int = 12) -> float:
    data = im.convert("RGB").tobytes()
    px = [data[i:i + 3] for i in range(0, len(data), 3)]
    return sum(all(abs(a - b) <= tol for a, b in zip(p, rgb)) for p in px) / len(px)


def test_the_cover_draws_a_faint_logo_on_a_panel_of_the_back_colour(deck_with):
    deck = manifest.load_deck(deck_with(logo=WHITE_LOGO))
    logo = cover_logo(deck)
    assert logo is not None and logo.needs_panel
    assert logo.backing == deck.palette.colors[0].rgb          # the back's oval, where the logo sits on the cards
    area = _logo_area(_cover(deck))
    assert _share(area, logo.backing) > 0.15                   # the panel
    assert _share(area, (255, 255, 255), tol=3) > 0.3          # the page around it, and the white logo on it


def test_the_cover_shows_the_cover_logo_as_it_is(deck_with):
    deck = manifest.load_deck(deck_with(logo=WHITE_LOGO, cover_logo=INK_LOGO))
    area = _logo_area(_cover(deck))
    assert _share(area, deck.palette.colors[0].rgb) < 0.01     # no panel
    dark = Image.eval(area.convert("L"), lambda v: 255 if v < 80 else 0).getbbox()
    assert dark is not None and (dark[3] - dark[1]) > 1.2 * (dark[2] - dark[0])   # the upright ink logo
