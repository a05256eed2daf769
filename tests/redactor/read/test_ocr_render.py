"""A scan coarser than the reading resolution reaches Tesseract enlarged smoothly: a 72-dpi page
read as MuPDF enlarges it (blocks of pixels) loses digits and diacritics."""

from __future__ import annotations

import io

import numpy as np
import pymupdf
import pytest
from PIL import Image

from redactor.read.ocr import TesseractOcr
from redactor.read.ocr.render import PictureRows, picture_dpi, render_gray
from tests.pdfs import pdf_from_paragraphs

LINES = ["MUDr. Ludvík Kovář", "Verdunská 562", "447 01 Týnec nad Sázavou", "mobil 728 608 137"]


def _scanned_at(dpi: int) -> bytes:
    """The lines as an image-only page scanned at ``dpi`` (grey, no noise)."""
    with pymupdf.open(stream=pdf_from_paragraphs(LINES), filetype="pdf") as src, pymupdf.open() as out:
        page = src[0]
        pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
        buffer = io.BytesIO()
        Image.frombytes("L", (pix.width, pix.height), pix.samples).save(buffer, format="PNG")
        new = out.new_page(width=page.rect.width, height=page.rect.height)
        new.insert_image(new.rect, stream=buffer.getvalue())
        return out.tobytes()


def _changes(pixels: np.ndarray) -> float:
    """The share of horizontally adjacent pixel pairs, among those with ink, that differ."""
    pairs = pixels[:, 1:].astype(int), pixels[:, :-1].astype(int)
    inked = (pairs[0] < 200) | (pairs[1] < 200)
    return float(((pairs[0] != pairs[1]) & inked).sum() / max(1, inked.sum()))


def test_the_resolution_of_a_scanned_page_is_its_pictures():
    with pymupdf.open(stream=_scanned_at(72), filetype="pdf") as doc:
        assert picture_dpi(doc[0], doc[0].rect) == pytest.approx(72, abs=1)
    with pymupdf.open(stream=pdf_from_paragraphs(LINES), filetype="pdf") as doc:
        assert picture_dpi(doc[0], doc[0].rect) is None  # glyphs: no resolution of their own


def test_a_coarse_scan_is_rendered_at_the_reading_size_with_smooth_edges():
    with pymupdf.open(stream=_scanned_at(72), filetype="pdf") as doc:
        page = doc[0]
        direct = page.get_pixmap(dpi=300, colorspace=pymupdf.csGRAY)
        smooth = render_gray(page, 300)
        assert smooth.size == (direct.width, direct.height)
        # MuPDF's enlargement repeats each source pixel about four times along a row; the smooth
        # one changes grey from one pixel to the next across a letter's edge
        blocky = np.frombuffer(direct.samples, np.uint8).reshape(direct.height, direct.width)
        assert _changes(np.asarray(smooth)) > 2 * _changes(blocky)
    for dpi in (150, 300):  # a scan at half the reading resolution or finer is rendered as it is
        with pymupdf.open(stream=_scanned_at(dpi), filetype="pdf") as doc:
            fine = doc[0].get_pixmap(dpi=300, colorspace=pymupdf.csGRAY)
            assert render_gray(doc[0], 300).tobytes() == fine.samples, dpi


def test_a_72_dpi_scan_is_read_with_its_digits_and_diacritics():
    ocr = TesseractOcr()
    assert ocr.available(), "Tesseract with ces is installed by bin/setup"
    with pymupdf.open(stream=_scanned_at(72), filetype="pdf") as doc:
        lines = [" ".join(w.text for w in line) for line in ocr.recognize(doc[0]).lines()]
    assert lines == LINES


def test_a_page_drawn_through_a_soft_mask_has_the_masks_resolution():
    """A one-pixel black image stretched over the page, the letters in its 200-dpi /SMask: every
    viewer shows sharp text, and OCR reads the page so, not as one pixel enlarged."""
    from tests.adversarial import BODY_SECRETS, soft_mask_scan

    case = soft_mask_scan()
    with pymupdf.open(stream=case.pdf, filetype="pdf") as doc:
        page = doc[0]
        (info,) = page.get_image_info()
        assert (info["width"], info["height"]) == (1, 1)
        assert round(picture_dpi(page, page.rect)) == 200
        if TesseractOcr().available():
            words = " ".join(w.text for w in TesseractOcr().recognize(page).words)
            assert all(secret in words for secret in BODY_SECRETS), words


def _logo_page(rotation: int = 0) -> bytes:
    """The lines as text, with a picture of them (a logo) at the top and a fine scan of them
    (400 dpi) over the lower half of the page."""
    with pymupdf.open(stream=pdf_from_paragraphs(LINES * 6), filetype="pdf") as doc:
        page = doc[0]
        pix = page.get_pixmap(dpi=150, colorspace=pymupdf.csGRAY, clip=pymupdf.Rect(40, 40, 300, 120))
        buffer = io.BytesIO()
        Image.frombytes("L", (pix.width, pix.height), pix.samples).save(buffer, format="PNG")
        page.insert_image(pymupdf.Rect(300, 30, 560, 110), stream=buffer.getvalue())
        scan = page.get_pixmap(dpi=400, colorspace=pymupdf.csGRAY, clip=pymupdf.Rect(0, 40, page.rect.width, 440))
        page.insert_image(pymupdf.Rect(0, 430, page.rect.width, 830), pixmap=scan)  # finer than it is shown
        page.set_rotation(rotation)
        return doc.tobytes()


@pytest.mark.parametrize(
    ("rotation", "below"),
    [
        (0, 60.0),  # text rows crossing the logo: the logo is drawn whole
        (0, 150.0),  # text rows, no picture
        (0, 450.0),  # rows on the lower picture, which they cut: the page is drawn whole
        (90, 60.0),  # a turned page is drawn whole
    ],
)
def test_rows_of_a_page_picture_are_those_of_the_whole_rendering(rotation, below):
    """The rows a strip reader cuts out are the very pixels of the page rendered whole, whether
    only they are drawn (an upright page, an image they cross drawn whole) or the page is."""
    with pymupdf.open(stream=_logo_page(rotation), filetype="pdf") as doc:
        page = doc[0]
        whole = np.asarray(render_gray(page, 200))
        rows = PictureRows(page, 200)
        assert rows.size == (whole.shape[1], whole.shape[0])
        inked = np.flatnonzero((whole < 128).any(axis=1))
        top = int(inked[inked >= below * 200 / 72][0])  # the first row with ink from there on
        part = rows.rows(top, top + 80)
        assert part.shape == (80, whole.shape[1])
        assert np.array_equal(part, whole[top : top + 80])
