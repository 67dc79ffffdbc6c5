"""The rulebook's last page: printing and making the game (paper, cardstock, cutting order).

Written here rather than in the templates so that every deck, bundled or not, tells its
players what to print on which paper and in what order to cut.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from deckgen.layout.imposition import card_copies
from deckgen.layout.papers import parse_paper
from deckgen.model import Deck
from deckgen.rulebook.markup import Item, parse

if TYPE_CHECKING:
    from deckgen.layout.geometry import Sheet

DEFAULT_BLEED_MM = 3.0      # deckgen build's --bleed default

TEXT = {
    "en": """# Printing and making the game
## What you print
<b>{cards_pdf}</b> holds {counted}, {per} a sheet on {paper}: {sheets} sheets, fronts on the odd pages from
page {first_sheet} on and each sheet's backs on the page after it. Pages 1 to {covers} only hold instructions:
print them on plain paper, or not at all. Print at actual size (100 %).
## On a home printer
- <b>Card stock</b>: most home printers feed 160–220 g/m² (about 60–80 lb cover) through the rear or manual
tray, one sheet at a time; check your printer's heaviest weight. 250–300 g/m² (90–110 lb) makes sturdier
cards but only suits printers that say so, or a copy shop.
- <b>Printing both sides by hand</b>: print the odd pages (the fronts), let them dry, put the stack back in
the tray turned over, and print the even pages (the backs) in the same order. Which way to turn it: for
{flip_name} turn the sheets over {flip_how}. Try it with one sheet first, marked in a corner.
- A printer with automatic two-sided printing: choose {flip_name} as page 1 says. If the backs come out
shifted, <b>deckgen calibrate</b> measures the offset.
- <b>This rulebook</b>: plain paper of 80–100 g/m² (20–27 lb bond).{booklet_paper}
## Cutting order
Cut when the ink is dry, one sheet at a time (a stack slides):
1. First the long cuts: every cut line that runs the length of the sheet, from its crop mark on one edge to
the mark on the opposite edge, or along the thin grey line where the sheet prints one instead of marks.
2. Then cut each strip across, at the marks on its edges (or on the grey lines), into single cards.
3. Where there is a gap between two cards, cut both of its edges and throw the thin strip away.
4. Last, if you like, round the corners with a 3–4 mm corner punch.

When every card is cut you have {total_cards} cards of {size}.{booklet_steps}
""",
    "es": """# Imprimir y montar el juego
## Qué se imprime
<b>{cards_pdf}</b> tiene {counted}, {per} por hoja en {paper}: {sheets} hojas, los frentes en las páginas
impares desde la {first_sheet} y los dorsos de cada hoja en la página siguiente. Las páginas 1 a {covers} solo
llevan instrucciones: imprímelas en papel normal o no las imprimas. Imprime a tamaño real (100 %).
## En una impresora doméstica
- <b>Cartulina</b>: casi todas las impresoras domésticas admiten 160–220 g/m² por la bandeja trasera o manual,
hoja a hoja; comprueba el gramaje máximo de la tuya. 250–300 g/m² da cartas más firmes, pero solo en
impresoras que lo admitan, o en una copistería.
- <b>Doble cara a mano</b>: imprime las páginas impares (los frentes), deja secar, vuelve a poner el montón en
la bandeja dado la vuelta e imprime las pares (los dorsos) en el mismo orden. Cómo girarlo: con
{flip_name_es} da la vuelta a las hojas {flip_how_es}. Prueba antes con una hoja marcada en una esquina.
- Con impresión a doble cara automática: elige {flip_name_es}, como dice la página 1. Si los dorsos salen
desplazados, <b>deckgen calibrate</b> mide el desfase.
- <b>Este reglamento</b>: papel normal de 80–100 g/m².{booklet_paper}
## Orden de corte
Corta con la tinta seca y hoja a hoja (un montón se desliza):
1. Primero los cortes largos: cada línea de corte que recorre la hoja a lo largo, de su marca en un borde a la
del borde opuesto, o por la línea gris fina allí donde la hoja la imprime en lugar de marcas.
2. Después corta cada tira de través, por las marcas de sus bordes (o por las líneas grises), en cartas sueltas.
3. Donde haya un hueco entre dos cartas, corta sus dos bordes y tira la tira fina que queda.
4. Por último, si quieres, redondea las esquinas con un cortador de esquinas de 3–4 mm.

Cortadas todas, tienes {total_cards} cartas de {size}.{booklet_steps}
""",
}

COUNTED = {
    "en": ("{cards} cards", "{cards} playing cards and {extras} component cards ({names}), {total} in all"),
    "es": ("{cards} cartas", "{cards} cartas de juego y {extras} cartas de componente ({names}), {total} en total"),
}
FLIP = {  # the default long-edge flip, by the orientation of the card sheets
    "portrait": ("a long-edge flip", "from left to right, like the page of a book",
                 "giro por el borde largo", "de izquierda a derecha, como la página de un libro"),
    "landscape": ("a long-edge flip", "from top to bottom, like a wall calendar",
                  "giro por el borde largo", "de arriba abajo, como un calendario de pared"),
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
    sheet = default_sheet(deck, paper)
    copies = card_copies(deck)
    extras = [c for c in copies if c.component]
    one, both = COUNTED[code]
    names = ", ".join(dict.fromkeys(comp.names.get(code) for comp in deck.components if comp.count))
    counted = (both if extras else one).format(cards=len(copies) - len(extras), extras=len(extras),
                                               names=names, total=len(copies))
    flip = FLIP["landscape" if sheet.landscape else "portrait"]
    paper_name = parse_paper(paper).name
    text = TEXT[code].format(cards_pdf=f"{deck.id}-cards.pdf", covers=covers, first_sheet=covers + 1,
                             counted=counted, per=sheet.per_page, paper=paper_name,
                             sheets=-(-len(copies) // sheet.per_page), total_cards=len(copies),
                             flip_name=flip[0], flip_how=flip[1], flip_name_es=flip[2], flip_how_es=flip[3],
                             size=f"{w:g} × {h:g} mm", booklet_paper=extra["paper"], booklet_steps=extra["steps"])
    return parse(text)


def default_sheet(deck: Deck, paper: str = "a4") -> Sheet:
    """The card sheet ``deckgen build`` lays out by default for this deck on ``paper`` (the same
    figures as the cards PDF's cover)."""
    from deckgen.layout import LayoutOptions, SheetSpec, parse_paper, plan_sheet
    from deckgen.render import card_size_mm

    options = LayoutOptions(paper=paper)
    p = parse_paper(paper)
    trim = card_size_mm(deck.card_size)
    return plan_sheet(SheetSpec(p.size_mm, trim, DEFAULT_BLEED_MM, None, p.margin_mm, options.marks,
                                options.orientation, False, options.fit))
