"""The watchdog's score (Hlídač státu: black / (black + text) per page, 5 % and 20 %; a file of
at most 20 characters or 10 words unreadable), checked against areas computed by hand and on a
real publication of the engine."""

from __future__ import annotations

import numpy as np

from redactor import Box, TextLayer
from redactor.model import PageInfo
from redactor.read.review import (
    WATCHDOG_HEAVY,
    WATCHDOG_REDACTED,
    black_areas,
    union_area,
    watchdog_pages,
    watchdog_readable,
)


def _layer() -> TextLayer:
    """One 100 × 100 pt page with the words "ab" at (10, 10)–(30, 20) and "cd" at
    (40, 10)–(60, 20): 200 pt² of text each."""
    text = "ab cd"
    boxes = [(1, 10, 10, 20, 20), (1, 20, 10, 30, 20), None, (1, 40, 10, 50, 20), (1, 50, 10, 60, 20)]
    page = PageInfo(number=1, width=100, height=100, start=0, end=5, char_count=4, image_coverage=0, needs_ocr=False)
    return TextLayer(text=text, boxes=boxes, pages=[page])


def test_the_share_is_black_over_black_and_text_by_hand():
    layer = _layer()
    assert watchdog_pages(layer, [])[0].share == 0 and watchdog_pages(layer, [])[0].level == "ok"
    # a box over "cd": 200 black, 200 text left → 0.5
    [page] = watchdog_pages(layer, [Box(1, 40, 10, 60, 20)])
    assert (page.black, page.text, page.share, page.level) == (200, 200, 0.5, "heavy")
    # 10 pt² elsewhere: 10 / (10 + 400) = 2.4 %
    [page] = watchdog_pages(layer, [Box(1, 0, 90, 10, 91)])
    assert (page.black, page.text, page.level) == (10, 400, "ok")
    # 25 pt²: 25 / 425 = 5.9 % counts as redacted; 100 pt²: 100 / 500 = 20 % heavily
    assert watchdog_pages(layer, [Box(1, 0, 90, 25, 91)])[0].level == "redacted"
    [page] = watchdog_pages(layer, [Box(1, 0, 80, 10, 90)])
    assert page.share == WATCHDOG_HEAVY and page.level == "heavy"
    assert WATCHDOG_REDACTED == 0.05


def test_overlapping_boxes_count_once_and_a_word_half_under_a_box_is_hidden():
    layer = _layer()
    [page] = watchdog_pages(layer, [Box(1, 40, 10, 60, 20), Box(1, 45, 10, 60, 20)])
    assert page.black == 200
    [page] = watchdog_pages(layer, [Box(1, 40, 10, 52, 20)])  # 60 % of "cd": the word is gone
    assert (page.black, page.text) == (120, 200)


def test_readability_is_more_than_twenty_characters_and_ten_words():
    assert not watchdog_readable("")
    assert not watchdog_readable("Smlouva o dílo č. 12 mezi stranami")  # 7 words
    assert not watchdog_readable("a b c d e f g h i j k")  # 11 words, 11 characters
    assert watchdog_readable("Kupní smlouva uzavřená mezi obcí a prodávajícím podle občanského zákoníku dne 1. 3.")


def test_a_published_contract_keeps_its_score(engine):
    from tests.pdfs import pdf_from_paragraphs

    data = pdf_from_paragraphs(
        [
            "Kupní smlouva č. 2026/15",
            "Prodávající: Jan Novák, nar. 3. 4. 1975, bytem Lipová 12, 602 00 Brno",
            "Kupující: Obec Horní Lhota, IČO: 00000001, se sídlem Náměstí 1, 679 01 Horní Lhota",
            "Kupní cena 120 000 Kč. Smlouva nabývá účinnosti zveřejněním v registru smluv.",
        ]
    )
    analysis = engine.analyze(data)
    result = engine.redact(analysis.document, analysis.to_redact())
    [page] = watchdog_pages(analysis.text_layer, result.boxes)
    # on the 1-point grid the black area is the boxes' union, give or take half a point along their edges
    exact = union_area([(b.x0, b.y0, b.x1, b.y1) for b in result.boxes])
    edges = sum(2 * ((b.x1 - b.x0) + (b.y1 - b.y0)) for b in result.boxes)
    assert abs(page.black - exact) <= edges / 2
    assert page.text > 0 and 0 < page.share < 1
    assert not any(w in result.text for w in ("Novák", "Lipová")) and watchdog_readable(result.text)


def test_black_already_in_the_page_counts_as_the_watchdog_sees_it():
    """A bar drawn into the file (an earlier redaction, or paper blacked out and scanned) is
    black in its picture; glyphs of body text are not."""
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=200, height=100)
    page.insert_text((10, 30), "Prodávající: Jan Novák, Lipová 12, Brno", fontsize=11)
    page.draw_rect(pymupdf.Rect(10, 50, 110, 62), color=(0, 0, 0), fill=(0, 0, 0))  # 100 × 12 pt
    data = doc.tobytes()
    [mask] = black_areas(data).values()
    assert mask.shape == (100, 200)
    assert 1100 <= mask.sum() <= 1300  # the bar's 1200 pt², give or take its anti-aliased edge
    assert not mask[15:35, :].any()  # the text line has no solid black
    layer = _layer()
    [scored] = watchdog_pages(layer, [], {1: np.zeros((100, 100), bool) | (np.arange(100)[:, None] == 99)})
    assert (scored.black, scored.text) == (100, 400)  # a one-point line of 100 pt² from the picture
