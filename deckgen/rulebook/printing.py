"""The rulebook's last page: printing and making the game (paper, cardstock, cutting order).

Written here rather than in the templates so that every deck, bundled or not, tells its
players what to print on which paper and in what order to cut.
"""

from __future__ import annotations

from deckgen.model import Deck
from deckgen.rulebook.markup import Item, parse

TEXT = {
    "en": """# Printing and making the game
## Cardstock and paper
- <b>The cards</b>: every page of <b>{cards_pdf}</b> from page {first_sheet} on goes on cardstock of 250–300
g/m² (about 90–110 lb cover). Print at actual size (100 %), double-sided as page 1 says. Pages 1 to
{covers} only hold instructions: print them on plain paper, or not at all.
- Cardstock jams some printers: feed it one sheet at a time through the manual or rear tray, and check the
heaviest weight your printer takes.
- <b>This rulebook</b>: plain paper of 80–100 g/m² (20–27 lb bond).{booklet_paper}
## Cutting order
Cut when the ink is dry, one sheet at a time (a stack slides):
1. First the long cuts: along every crop-mark line that runs the length of the sheet, from the mark on one
edge to the mark on the opposite edge. The sheet falls into strips of cards.
2. Then cut each strip across, at the marks on its edges, into single cards.
3. Where there is a gap between two cards, cut both of its edges and throw the thin strip away.
4. Last, if you like, round the corners with a 3–4 mm corner punch.

When every card is cut you have {total} cards of {size}.{booklet_steps}
""",
    "es": """# Imprimir y montar el juego
## Cartulina y papel
- <b>Las cartas</b>: las páginas de <b>{cards_pdf}</b> desde la {first_sheet} van en cartulina de 250–300
g/m². Imprime a tamaño real (100 %) y a doble cara, como dice la página 1. Las páginas 1 a {covers} solo
llevan instrucciones: imprímelas en papel normal o no las imprimas.
- La cartulina atasca algunas impresoras: métela hoja a hoja por la bandeja manual o trasera y comprueba el
gramaje máximo que admite la tuya.
- <b>Este reglamento</b>: papel normal de 80–100 g/m².{booklet_paper}
## Orden de corte
Corta con la tinta seca y hoja a hoja (un montón se desliza):
1. Primero los cortes largos: por cada línea de marcas de corte que recorre la hoja a lo largo, de la marca
de un borde a la del borde opuesto. La hoja queda en tiras de cartas.
2. Después corta cada tira de través, por las marcas de sus bordes, en cartas sueltas.
3. Donde haya un hueco entre dos cartas, corta sus dos bordes y tira la tira fina que queda.
4. Por último, si quieres, redondea las esquinas con un cortador de esquinas de 3–4 mm.

Cortadas todas, tienes {total} cartas de {size}.{booklet_steps}
""",
}

BOOKLET = {
    "en": {
        "paper": " The booklet's outer sheet (the cover) can go on 120–160 g/m² paper.",
        "steps": """
## The booklet
1. Print the booklet file double-sided, flipping on the short edge, at actual size (100 %).
2. Keep the sheets in the order they come out, fold the stack in half and staple it twice on the fold.
""",
    },
    "es": {
        "paper": " La hoja exterior del cuadernillo (la portada) puede ir en papel de 120–160 g/m².",
        "steps": """
## El cuadernillo
1. Imprime el archivo del cuadernillo a doble cara, girando por el borde corto, a tamaño real (100 %).
2. Deja las hojas en el orden en que salen, dobla el montón por la mitad y grápalo dos veces por el pliegue.
""",
    },
}


def printing_items(deck: Deck, lang: str, paper: str = "a4", booklet: bool = False) -> list[Item]:
    """The printing page as markup items, in ``lang`` (English for a language without text)."""
    from deckgen.layout.cover import cover_languages
    from deckgen.render import card_size_mm

    code = lang if lang in TEXT else "en"
    w, h = card_size_mm(deck.card_size)
    covers = len(cover_languages(deck.language))      # the cards PDF's instruction pages, before the sheets
    extra = BOOKLET[code] if booklet else {"paper": "", "steps": ""}
    text = TEXT[code].format(cards_pdf=f"{deck.id}-cards.pdf", covers=covers, first_sheet=covers + 1,
                             total=deck.total, size=f"{w:g} × {h:g} mm",
                             booklet_paper=extra["paper"], booklet_steps=extra["steps"])
    return parse(text)
