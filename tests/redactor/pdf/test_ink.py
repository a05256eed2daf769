"""A box drawn from OCR words grows to the whole word's ink on a page picture, and no further."""

from __future__ import annotations

import io

import numpy as np
import pymupdf
import pytest
from PIL import Image

from redactor.model import Box
from redactor.pdf.ink import widen_to_ink

DPI = 150
SCALE = DPI / 72


def _page(words: list[tuple[float, float]], rule: bool = False) -> bytes:
    """A one-page scan (150 dpi) of one line of "words" (blocks of letter strokes) spanning the
    given ``(x0, x1)`` in points, 300-312 pt high; ``rule`` draws an underline-free line across
    the page at the words' height instead of a gap after the last word."""
    width, height = int(595 * SCALE), int(842 * SCALE)
    pixels = np.full((height, width), 255, np.uint8)
    top, bottom = int(300 * SCALE), int(312 * SCALE)
    for x0, x1 in words:
        for x in range(int(x0 * SCALE), int(x1 * SCALE), 4):  # letters 2 px wide, 2 px apart
            pixels[top:bottom, x : x + 2] = 0
    if rule:
        pixels[top + 10 : top + 13, :] = 0
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, format="PNG")
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_image(page.rect, stream=buffer.getvalue())
    return doc.tobytes()


@pytest.mark.parametrize(
    ("box", "expected"),
    [
        ((100, 300, 150, 312), (100, 170)),  # the box stops inside "Vondráčková": it reaches the word's end
        ((120, 300, 170, 312), (100, 170)),  # and its start
        ((100, 300, 120, 312), (100, 120)),  # the rest is longer than twice the line's height: left as it is
        ((100, 300, 170, 312), (100, 170)),  # a whole word stays as it is
        ((190, 300, 230, 312), (190, 230)),  # the next word is not taken
    ],
)
def test_a_box_grows_to_its_words_ink_and_stops_at_the_gap(box, expected):
    pdf = _page([(100, 170), (190, 230)])
    (grown,) = widen_to_ink(pdf, [Box(1, *box)], [1])
    assert grown.x0 == pytest.approx(expected[0], abs=1.5) and grown.x1 == pytest.approx(expected[1], abs=1.5)
    assert (grown.y0, grown.y1) == (box[1], box[3])


def test_a_box_on_a_rule_or_on_a_page_not_read_by_ocr_stays():
    pdf = _page([(100, 170)], rule=True)
    box = Box(1, 100, 300, 140, 312)
    assert widen_to_ink(pdf, [box], [1]) == [box]  # ink running on past twice its height: a rule
    assert widen_to_ink(_page([(100, 170)]), [box], []) == [box]


def test_a_box_cutting_into_a_glyph_of_a_long_word_covers_that_glyph():
    """ "tel:774282355" read as one word and boxed by an equal share per character: the box starts
    inside the first "7"; no gap between words comes within reach, so the box grows to that
    glyph's edge, not over the label before it."""
    pdf = _page([(100, 200)])
    start = 273.5 / SCALE  # inside the stroke at pixels 272-273
    (grown,) = widen_to_ink(pdf, [Box(1, start, 300, 200, 312)], [1])
    assert grown.x0 == pytest.approx(272 / SCALE, abs=0.3)
    (kept,) = widen_to_ink(pdf, [Box(1, 275.5 / SCALE, 300, 200, 312)], [1])  # starts between glyphs
    assert kept.x0 == pytest.approx(275.5 / SCALE, abs=0.01)
