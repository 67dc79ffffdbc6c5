"""The first pages of a cards PDF: deck name, what is inside, and how to print it.

Page 1 is in the deck's language, page 2 repeats it in English (or Spanish for an English
deck), so the sheets after it start on an odd page and duplex printing stays aligned.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from reportlab.lib.utils import simpleSplit

from deckgen.units import mm_to_pt

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from deckgen.layout.imposition import PagePlan

TEXT = {
    "es": {
        "subtitle": "Cartas para imprimir y recortar",
        "cards": "Cartas: {cards}",
        "extras": " + {extras} cartas de componente (no se barajan)",
        "sheets": "Hojas: {sheets} ({pages} páginas de cartas), {cols} × {rows} = {per} cartas por hoja, {turn}",
        "portrait": "en vertical",
        "landscape": "en horizontal",
        "paper": "Papel: {paper}, {duplex}",
        "duplex_long": "a doble cara (giro por el borde largo)",
        "duplex_short": "a doble cara (giro por el borde corto)",
        "duplex_none": "a una cara (dorsos en hojas aparte)",
        "duplex_fold": "a una cara, doblada por la mitad (frentes y dorsos en la misma página)",
        "duplex_fronts": "a una cara, solo frentes (sin dorsos)",
        "size": "Tamaño de carta: {w:g} × {h:g} mm",
        "bleed_full": "Sangrado: {bleed:g} mm alrededor de cada carta; separación entre cartas {gap:g} mm",
        "bleed_part": "Sangrado: {bleed:g} mm en el borde exterior del bloque, {inner:g} mm entre cartas "
                      "(separación {gap:g} mm)",
        "bleed_shared": "Sangrado: {bleed:g} mm solo en el borde exterior del bloque: las cartas vecinas "
                        "comparten la línea de corte (separación 0)",
        "actual": "IMPRIME A TAMAÑO REAL (100 %)",
        "actual2": "Desactiva «Ajustar a la página», «Reducir» o «Encajar» en el diálogo de impresión.",
        "ruler": "Esta barra mide exactamente 50 mm: compruébala con una regla antes de imprimir todo.",
        "long": "Imprime a doble cara con giro por el borde largo. Las páginas impares llevan los frentes "
                "y las pares los dorsos, que caen detrás de cada carta.",
        "short": "Imprime a doble cara con giro por el borde corto. Las páginas impares llevan los frentes "
                 "y las pares los dorsos, que caen detrás de cada carta.",
        "none": "Imprime a una cara. Cada hoja de frentes va seguida de su hoja de dorsos: gira la hoja de "
                "dorsos de izquierda a derecha, pega las dos espalda con espalda alineando las marcas de corte "
                "a contraluz, y después corta.",
        "fold": "Imprime a una cara. Dobla cada hoja por la línea discontinua «doblar», con lo impreso hacia "
                "fuera, pégala y después corta por las marcas: cada dorso queda detrás de su frente. No hace "
                "falta imprimir a doble cara.",
        "fronts": "Imprime a una cara: solo frentes, para fundas con dorso propio o para reponer cartas.",
        "offset": "Si los dorsos salen desplazados, mide el desfase con «deckgen calibrate» y vuelve a "
                  "generar con --back-offset X,Y.",
        "cut": "Corta por las marcas de corte que hay fuera del bloque de cartas; las cartas vecinas "
               "comparten la línea de corte.",
        "cut_gap": "Corta por las marcas de corte que hay fuera del bloque de cartas: cada carta tiene sus "
                   "propias líneas de corte.",
        "cut_short": "Las marcas de corte de los bordes {where} miden {len:g} mm: no cabe más.",
        "cut_rules": "En los bordes {where} no caben marcas de corte: las líneas de corte {lines} van impresas "
                     "sobre las cartas en gris fino. Corta justo por ellas, y primero por las líneas que tienen "
                     "marcas.",
        "edge_lr": "izquierdo y derecho",
        "edge_tb": "superior e inferior",
        "lines_h": "horizontales",
        "lines_v": "verticales",
        "bleed_edges": "Sangrado: {lr:g} mm a izquierda y derecha del bloque, {tb:g} mm arriba y abajo (el área "
                       "imprimible termina ahí); las cartas vecinas comparten la línea de corte (separación 0)",
        "registration": "Corte a máquina (Silhouette): las marcas de registro tipo 1 de las esquinas están a 10 mm "
                        "del borde (largo 20 mm, grosor 0,5 mm); pon esos valores en Silhouette Studio y abre "
                        "el SVG de corte de cada hoja. {fewer}",
        "registration_fewer": "Para dejar libres las marcas, cada hoja lleva {n} cartas en vez de {was}.",
        "glued": "Las {n} cartas de dos caras se imprimen por las dos caras: sus hojas van al final, cada hoja "
                 "de frentes seguida de la de sus segundas caras; pega cada una detrás de la anterior (gírala de "
                 "izquierda a derecha, marcas alineadas a contraluz) y después corta.",
        "calibrate": "Para medir el desfase de estas hojas: {command}",
        "fold_word": "doblar / fold",
        "forced": "IMPRESO CON ERRORES (--force): «deckgen check» no lo da por listo ({codes})",
        "meta_title": "{deck}: cartas para imprimir y recortar",
        "meta_subject": "{cards} cartas en papel {paper}",
        "label_front": "{deck} · hoja {n} de {total} · frentes",
        "label_back": "{deck} · hoja {n} de {total} · dorsos",
        "label_fold": "{deck} · hoja {n} de {total} · frentes y dorsos (doblar)",
    },
    "en": {
        "subtitle": "Print-and-play cards",
        "cards": "Cards: {cards}",
        "extras": " + {extras} component cards (never shuffled in)",
        "sheets": "Sheets: {sheets} ({pages} card pages), {cols} × {rows} = {per} cards per sheet, {turn}",
        "portrait": "portrait",
        "landscape": "landscape",
        "paper": "Paper: {paper}, {duplex}",
        "duplex_long": "double-sided (long-edge flip)",
        "duplex_short": "double-sided (short-edge flip)",
        "duplex_none": "single-sided (backs on their own sheets)",
        "duplex_fold": "single-sided, folded in half (fronts and backs on the same page)",
        "duplex_fronts": "single-sided, fronts only (no backs)",
        "size": "Card size: {w:g} × {h:g} mm",
        "bleed_full": "Bleed: {bleed:g} mm around every card; gap between cards {gap:g} mm",
        "bleed_part": "Bleed: {bleed:g} mm on the outer edges of the block, {inner:g} mm between cards "
                      "(gap {gap:g} mm)",
        "bleed_shared": "Bleed: {bleed:g} mm on the outer edges of the block only: neighbouring cards share "
                        "their cut lines (gap 0)",
        "actual": "PRINT AT ACTUAL SIZE (100 %)",
        "actual2": "Turn off \"Fit to page\", \"Shrink\" or \"Scale to fit\" in the print dialog.",
        "ruler": "This bar is exactly 50 mm long: check it with a ruler before printing everything.",
        "long": "Print double-sided, flipping on the long edge. Odd pages carry the fronts, even pages "
                "the backs, which land behind their cards.",
        "short": "Print double-sided, flipping on the short edge. Odd pages carry the fronts, even pages "
                 "the backs, which land behind their cards.",
        "none": "Print single-sided. Each sheet of fronts is followed by its sheet of backs: turn the sheet "
                "of backs over left to right, glue the two back to back, lining up the crop marks against the "
                "light, then cut.",
        "fold": "Print single-sided. Fold each sheet on the dashed \"fold\" line with the printed side out, "
                "glue it, then cut on the crop marks: every back lands behind its own front. No duplex "
                "printer needed.",
        "fronts": "Print single-sided: fronts only, for sleeves with their own backs or for replacing cards.",
        "offset": "If the backs come out shifted, measure the offset with \"deckgen calibrate\" and build "
                  "again with --back-offset X,Y.",
        "cut": "Cut on the crop marks outside the card block; neighbouring cards share a cut line.",
        "cut_gap": "Cut on the crop marks outside the card block: every card has its own cut lines.",
        "cut_short": "The crop marks on the {where} edges are {len:g} mm long: there is no room for more.",
        "cut_rules": "There is no room for crop marks on the {where} edges: the {lines} cut lines are printed "
                     "across the cards as thin grey lines. Cut exactly on them, after the cut lines that do "
                     "have crop marks.",
        "edge_lr": "left and right",
        "edge_tb": "top and bottom",
        "lines_h": "horizontal",
        "lines_v": "vertical",
        "bleed_edges": "Bleed: {lr:g} mm left and right of the block, {tb:g} mm at top and bottom (the printable "
                       "area ends there); neighbouring cards share their cut lines (gap 0)",
        "registration": "Machine cutting (Silhouette): the Type 1 registration marks in the corners sit 10 mm in "
                        "from the edges (length 20 mm, thickness 0.5 mm); set Silhouette Studio to the same and "
                        "open each sheet's cut SVG. {fewer}",
        "registration_fewer": "To keep the marks clear, each sheet holds {n} cards instead of {was}.",
        "glued": "The {n} two-sided cards are printed on both sides: their sheets come last, each sheet of "
                 "fronts followed by the sheet of their second sides; glue each behind the one before it "
                 "(turned over left to right, crop marks lined up against the light), then cut.",
        "calibrate": "To measure the offset for these sheets: {command}",
        "fold_word": "fold / doblar",
        "forced": "PRINTED WITH ERRORS (--force): deckgen check says it is not ready ({codes})",
        "meta_title": "{deck}: print-and-play cards",
        "meta_subject": "{cards} cards on {paper} paper",
        "label_front": "{deck} · sheet {n} of {total} · fronts",
        "label_back": "{deck} · sheet {n} of {total} · backs",
        "label_fold": "{deck} · sheet {n} of {total} · fronts and backs (fold)",
    },
}


@dataclass(frozen=True)
class Cutting:
    """The cutting guides of a sheet: outer bleed and crop-mark length on its two pairs of edges."""

    bleed_lr: float
    bleed_tb: float
    mark_lr: float          # 0: the horizontal cut lines are printed across the cards instead
    mark_tb: float          # 0: the vertical ones
    asked: float            # the mark length asked for


@dataclass(frozen=True)
class CoverInfo:
    title: str
    cards: int
    extras: int
    sheets: int
    pages: int
    paper: str
    card_mm: tuple[float, float]
    bleed_mm: float
    duplex: str               # long | short | none | fold | fronts
    gap_mm: float
    inner_bleed_mm: float     # bleed each card keeps towards its neighbours
    cols: int
    rows: int
    landscape: bool
    forced: tuple[str, ...] = ()     # the check's error codes of a deck built with --force
    cutting: Cutting | None = None
    glued: int = 0            # two-sided cards printed on both sides with --backs none
    calibrate: str = ""       # the deckgen calibrate command for these sheets ("" if no duplex)
    registration: tuple[int, int] | None = None   # --registration silhouette: (cards per sheet, without marks)


def cover_languages(deck_lang: str) -> tuple[str, str]:
    first = deck_lang if deck_lang in TEXT else "en"
    return first, ("en" if first != "en" else "es")


def _lines(info: CoverInfo, t: dict[str, str]) -> list[tuple[str, str]]:
    cards = t["cards"].format(cards=info.cards)
    if info.extras:
        cards += t["extras"].format(extras=info.extras)
    cut = info.cutting
    if cut is not None and min(cut.bleed_lr, cut.bleed_tb) + 1e-6 < info.bleed_mm:
        bleed = t["bleed_edges"].format(lr=cut.bleed_lr, tb=cut.bleed_tb)
    elif info.inner_bleed_mm + 1e-6 >= info.bleed_mm:
        bleed = t["bleed_full"]
    elif info.gap_mm > 1e-6:
        bleed = t["bleed_part"]
    else:
        bleed = t["bleed_shared"]
    out = [("alert", t["forced"].format(codes=", ".join(info.forced))), ("gap", "")] if info.forced else []
    out += [
        ("fact", cards),
        ("fact", t["sheets"].format(sheets=info.sheets, pages=info.pages, cols=info.cols, rows=info.rows,
                                    per=info.cols * info.rows, turn=t["landscape" if info.landscape else "portrait"])),
        ("fact", t["paper"].format(paper=info.paper, duplex=t["duplex_" + info.duplex])),
        ("fact", t["size"].format(w=info.card_mm[0], h=info.card_mm[1])),
        ("fact", bleed.format(bleed=info.bleed_mm, inner=info.inner_bleed_mm, gap=info.gap_mm)),
        ("gap", ""),
        ("alert", t["actual"]),
        ("body", t["actual2"]),
        ("ruler", t["ruler"]),
        ("gap", ""),
        ("body", t[info.duplex]),
    ]
    if info.glued:
        out.append(("body", t["glued"].format(n=info.glued)))
    if info.registration is not None:
        n, was = info.registration
        fewer = t["registration_fewer"].format(n=n, was=was) if n < was else ""
        out.append(("body", t["registration"].format(fewer=fewer).strip()))
    if info.duplex in ("long", "short"):       # the offset moves duplex backs only
        out.append(("body", t["offset"]))
        if info.calibrate:
            out.append(("body", t["calibrate"].format(command=info.calibrate)))
    out.append(("body", t["cut"] if info.gap_mm <= 1e-6 else t["cut_gap"]))
    out.extend(("body", text) for text in _cutting(cut, t))
    return out


def _cutting(cut: Cutting | None, t: dict[str, str]) -> list[str]:
    """How to cut where crop marks are shorter than asked or missing."""
    if cut is None or cut.asked <= 0:
        return []
    out = []
    for key, mark, lines in (("edge_lr", cut.mark_lr, "lines_h"), ("edge_tb", cut.mark_tb, "lines_v")):
        if mark <= 0:
            out.append(t["cut_rules"].format(where=t[key], lines=t[lines]))
        elif mark + 1e-6 < cut.asked:
            out.append(t["cut_short"].format(where=t[key], len=mark))
    return out


def draw_cover(c: Canvas, info: CoverInfo, lang: str, paper_mm: tuple[float, float], margin_mm: float,
               fonts: tuple[str, str]) -> None:
    """Draw one cover page in ``lang`` on canvas ``c`` (everything inside the margin)."""
    regular, bold = fonts
    t = TEXT[lang]
    pw, ph = mm_to_pt(paper_mm[0]), mm_to_pt(paper_mm[1])
    inset = mm_to_pt(max(margin_mm, 5.0) + 15.0)
    width = pw - 2 * inset
    y = ph - inset
    y = _para(c, info.title, bold, 26, inset, y, width)
    y = _para(c, t["subtitle"], regular, 14, inset, y - 4, width)
    y -= 18
    styles = {"fact": (regular, 12), "alert": (bold, 16), "body": (regular, 11), "ruler": (regular, 11)}
    for kind, text in _lines(info, t):
        if kind == "gap":
            y -= 14
            continue
        font, size = styles[kind]
        if kind == "ruler":
            y -= 8
            c.setLineWidth(mm_to_pt(0.3))
            c.rect(inset, y - mm_to_pt(4), mm_to_pt(50), mm_to_pt(4), stroke=1, fill=1)
            y -= mm_to_pt(4) + 8
        y = _para(c, text, font, size, inset, y, width) - 6


def _para(c: Canvas, text: str, font: str, size: float, x: float, y: float, width: float) -> float:
    c.setFont(font, size)
    for line in simpleSplit(text, font, size, width):
        y -= size * 1.25
        c.drawString(x, y, line)
    return y


def sheet_label(deck_name: str, lang: str) -> Callable[[PagePlan, int], str]:
    """The label function for card pages: deck, sheet number and side, in ``lang``."""
    t = TEXT[lang if lang in TEXT else "en"]

    def label(page: PagePlan, total: int) -> str:
        key = {"front": "label_front", "back": "label_back"}.get(page.side, "label_fold")
        return t[key].format(deck=deck_name, n=page.sheet_no, total=total)

    return label
