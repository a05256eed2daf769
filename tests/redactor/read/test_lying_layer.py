"""A text layer that lies (redactor.read.lying_layer): each font is sampled by a few words it sets,
read by OCR and compared; mirrored or turned lines are no sample, and text a box covers is not
judged a lie."""

from __future__ import annotations

import pymupdf
import pytest

from redactor.read.lying_layer import WINDOW_CHARS, FontCheck, samples
from redactor.read.ocr import TesseractOcr
from tests.disguised import to_unicode_digits_shifted

needs_tesseract = pytest.mark.skipif(not TesseractOcr().available(), reason="Tesseract with ces is not installed")


def _page(draw) -> pymupdf.Page:
    doc = pymupdf.open()
    page = doc.new_page()
    draw(page)
    return page


def _raw(page: pymupdf.Page) -> dict:
    return page.get_text("rawdict")


def test_each_font_gives_a_run_of_letters_and_one_of_digits():
    page = _page(
        lambda p: (
            p.insert_text((56, 100), "Zhotovitel: Karel Vomacka, r. c. 780101/1229", fontname="helv", fontsize=11),
            p.insert_text((56, 130), "Objednatel: Obec Zahori", fontname="tiro", fontsize=11),
        )
    )
    found = samples(_raw(page), set())
    assert {s.font for s in found} == {"Helvetica", "Times-Roman"}
    helvetica = [s.text for s in found if s.font == "Helvetica"]
    assert len(helvetica) == 2 and all(len(t) <= WINDOW_CHARS for t in helvetica)
    assert any(sum(c.isdigit() for c in t) >= 6 for t in helvetica)
    assert samples(_raw(page), {"Helvetica", "Times-Roman"}) == []  # a font is sampled once


def test_a_turned_or_mirrored_line_is_no_sample():
    def draw(p):
        p.insert_text((300, 500), "Zhotovitel: Karel Vomacka", fontname="helv", fontsize=11, rotate=90)
        p.insert_text(
            (56, 600),
            "Objednatel: Obec Zahori",
            fontname="helv",
            fontsize=11,
            morph=(pymupdf.Point(56, 600), pymupdf.Matrix(1, 0, 0, -1, 0, 0)),
        )

    assert samples(_raw(_page(draw)), set()) == []


@needs_tesseract
def test_text_under_a_box_is_not_judged_and_a_shifted_map_is():
    def draw(p):
        p.insert_text((56, 100), "Cislo 1234567890 je skryto pod obdelnikem", fontname="helv", fontsize=11)
        p.draw_rect(pymupdf.Rect(50, 85, 400, 105), color=(0, 0, 0), fill=(0, 0, 0))

    page = _page(draw)
    check = FontCheck()
    assert not check.page_lies(page, _raw(page), TesseractOcr())
    assert check.lying == set() and check.checked == set()  # not judged: sampled again on a later page

    doc = pymupdf.open(stream=to_unicode_digits_shifted().pdf, filetype="pdf")
    check = FontCheck()
    assert check.page_lies(doc[0], _raw(doc[0]), TesseractOcr())
    assert check.lying


@needs_tesseract
def test_a_turned_page_is_not_sampled_and_its_fonts_stay_unjudged():
    doc = pymupdf.open(stream=to_unicode_digits_shifted().pdf, filetype="pdf")
    doc[0].set_rotation(90)
    check = FontCheck()
    assert not check.page_lies(doc[0], _raw(doc[0]), TesseractOcr())
    assert check.checked == set()
