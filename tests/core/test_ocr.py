"""Scanned pages: OCR with Tesseract, another tool's OCR layer replaced, black pixels under every
box, an invisible text layer for everything outside the boxes."""

from __future__ import annotations

import io

import pymupdf
import pytest
from PIL import Image

from redactor.core.engine import RedactionEngine
from redactor.core.nlp import RuleOnlyNlpEngine
from redactor.core.ocr import TesseractOcr, text_quality
from tests.pdfs import pdf_from_paragraphs, rotated_scan_of, scan_of

PARAGRAPHS = [
    "Kupní smlouva č. 2026/15",
    "Prodávající: Jan Novák, nar. 3. 4. 1975, rodné číslo 750403/1238, bytem Lipová 12, 602 00 Brno",
    "Kupující: Obec Horní Lhota, IČO: 00000001, se sídlem Náměstí 1, 679 01 Horní Lhota",
    "Kupní cena 120 000 Kč bude zaplacena na účet prodávajícího č. 19-2000145399/0800.",
]


@pytest.fixture(scope="module")
def engine():
    engine = RedactionEngine(nlp=RuleOnlyNlpEngine())
    assert engine.ocr is not None and engine.ocr.available(), "Tesseract with ces is installed by bin/setup"
    return engine


def test_text_quality_tells_words_from_garbage():
    assert text_quality("Prodávající: Jan Novák, nar. 3. 4. 1975, bytem Lipová 12") > 0.9
    assert text_quality("ÿþ%# ~~ lll1 ,,,| ŽŽŽ §§ xqzwrt ÷÷") < 0.3


def test_ocr_reads_a_scan_into_words_with_boxes_in_points():
    page_pdf = scan_of(pdf_from_paragraphs(PARAGRAPHS))
    doc = pymupdf.open(stream=page_pdf)
    result = TesseractOcr().recognize(doc[0])
    text = " ".join(w.text for w in result.words)
    assert "750403/1238" in text and "Novák," in text
    assert result.mean_confidence > 80
    novak = next(w for w in result.words if w.text.startswith("Novák"))
    assert 0 < novak.x0 < novak.x1 < doc[0].rect.width and 0 < novak.y0 < novak.y1 < 300  # points, top of A4


def _image_pixels_under(doc: pymupdf.Document, page: pymupdf.Page, rect: pymupdf.Rect) -> list[int]:
    info = page.get_image_info(xrefs=True)[0]
    pix = pymupdf.Pixmap(doc, info["xref"])
    image = Image.open(io.BytesIO(pix.tobytes("png"))).convert("L")
    unit = rect * ~pymupdf.Matrix(info["transform"])
    box = (int(unit.x0 * image.width) + 1, int(unit.y0 * image.height) + 1)
    box += (int(unit.x1 * image.width) - 1, int(unit.y1 * image.height) - 1)
    return list(image.crop(box).get_flattened_data())


@pytest.mark.parametrize(
    ("layer", "source"),
    [(None, "tesseract"), ("invisible", "kept layer"), ("shifted", "tesseract, layer replaced")],
)
def test_a_scan_is_redacted_in_the_pixels_and_keeps_a_searchable_layer(engine, layer, source):
    scan = scan_of(pdf_from_paragraphs(PARAGRAPHS), text_layer=layer)
    analysis = engine.analyze(scan)
    page = analysis.pages[0]
    # an OCR layer that sits on the image is kept; a misaligned one is replaced by Tesseract's words
    assert (page.ocr, page.scan_layer, page.ocr_replaced) == {
        "tesseract": (True, False, False),
        "kept layer": (False, True, False),
        "tesseract, layer replaced": (True, False, True),
    }[source]
    assert page.is_scan and not page.needs_ocr and page.ocr_confidence > 80 and not page.needs_check
    redact = analysis.to_redact()
    assert {"750403/1238", "19-2000145399/0800"} <= {p.text for p in redact}

    result = engine.redact(scan, redact, analysis.text_layer)

    out = pymupdf.open(stream=result.pdf)
    text = out[0].get_text()
    # the kept strings are findable in the (invisible) OCR layer; the redacted ones are gone
    assert "Obec Horní Lhota" in text and "120 000 Kč" in text
    assert "750403" not in text and "Novák" not in text and "2000145399" not in text
    # another tool's invisible word under a box is gone, and no character at all is under a box
    for box in result.boxes:
        assert out[0].get_textbox(pymupdf.Rect(box.x0, box.y0, box.x1, box.y1)).strip() == ""
        # the pixels under every box are black in the image data itself
        pixels = _image_pixels_under(out, out[0], pymupdf.Rect(box.x0, box.y0, box.x1, box.y1))
        assert pixels and max(pixels) == 0, box
    assert all(span["type"] == 3 for span in out[0].get_texttrace())  # the layer is invisible


def test_without_tesseract_a_scan_is_reported_not_guessed():
    engine = RedactionEngine(nlp=RuleOnlyNlpEngine(), ocr=False)
    analysis = engine.analyze(scan_of(pdf_from_paragraphs(PARAGRAPHS)))
    assert analysis.pages_needing_ocr == [1] and analysis.proposals == []


@pytest.mark.parametrize("rotation", [90, 180, 270])
def test_a_scan_stored_rotated_is_read_redacted_and_verified(engine, rotation):
    """Scanners often store a page sideways with /Rotate to show it upright: boxes, pixels and the
    invisible layer must follow the page's own (unrotated) coordinates, not the displayed ones."""
    scan = rotated_scan_of(pdf_from_paragraphs(PARAGRAPHS), rotation)
    analysis = engine.analyze(scan)
    page = analysis.pages[0]
    assert page.ocr and page.ocr_confidence > 80
    assert (page.width, page.height) == ((842, 595) if rotation in (90, 270) else (595, 842))
    redact = analysis.to_redact()
    assert {"750403/1238", "19-2000145399/0800"} <= {p.text for p in redact}

    result = engine.redact(scan, redact, analysis.text_layer)  # raises VerificationError on any leak

    out = pymupdf.open(stream=result.pdf)
    assert out[0].rotation == rotation
    text = out[0].get_text()
    assert "Obec Horní Lhota" in text and "120 000 Kč" in text
    assert "750403" not in text and "Novák" not in text and "2000145399" not in text
    for box in result.boxes:
        assert 0 <= box.x0 < box.x1 <= page.width and 0 <= box.y0 < box.y1 <= page.height
        assert out[0].get_textbox(pymupdf.Rect(box.x0, box.y0, box.x1, box.y1)).strip() == ""
        pixels = _image_pixels_under(out, out[0], pymupdf.Rect(box.x0, box.y0, box.x1, box.y1))
        assert pixels and max(pixels) == 0, box
