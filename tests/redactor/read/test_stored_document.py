"""The engine's stored document (:class:`redactor.StoredDocument`): written to two files and read
back equal, its page words the analysed ones (OCR's on a scan), and a redaction of it the same as
a redaction of the upload it came from, without the upload."""

from __future__ import annotations

import re

import pymupdf
import pytest

from redactor import StoredDocument
from redactor.errors import StoredLayerError
from redactor.publish.verify import render_changes
from redactor.read.looks import upload_looks
from redactor.read.stored_layer import layer_from_bytes, layer_to_bytes
from tests.pdfs import pdf_from_paragraphs, scan_of

PARAGRAPHS = [
    "Kupní smlouva č. 2026/15",
    "Prodávající: Jan Novák, nar. 3. 4. 1975, rodné číslo 750403/1238, bytem Lipová 12, 602 00 Brno",
    "Kupující: Obec Horní Lhota, IČO: 00000001, se sídlem Náměstí 1, 679 01 Horní Lhota",
    "Kupní cena 120 000 Kč bude zaplacena na účet prodávajícího č. 19-2000145399/0800.",
]


@pytest.fixture(scope="module")
def born_digital(rules_engine):
    data = pdf_from_paragraphs(PARAGRAPHS)
    return data, rules_engine.analyze(data)


@pytest.fixture(scope="module")
def scanned(engine):
    data = scan_of(pdf_from_paragraphs(PARAGRAPHS))
    return data, engine.analyze(data)


def _without_id(pdf: bytes) -> bytes:
    """``pdf`` without its trailer's /ID, whose second half a save makes anew each time."""
    return re.sub(rb"/ID\[<[0-9A-F]+><[0-9A-F]+>\]", b"", pdf)


def _stored_again(document: StoredDocument) -> StoredDocument:
    return StoredDocument.from_stored(document.layer_bytes(), document.pdf)


def test_a_stored_document_reads_back_equal(scanned):
    data, analysis = scanned
    document = analysis.document
    again = _stored_again(document)
    assert again.pdf == document.pdf and again.upload is None
    for name in ("text", "boxes", "pages", "unread_layers", "picture_spans", "ink_marks"):
        assert getattr(again.layer, name) == getattr(document.layer, name), name
    # OCR's words as stored: their boxes to 0.01 pt (the layer keeps each character's box whole)
    assert [w.text for w in again.layer.ocr_pages[1].words] == [w.text for w in document.layer.ocr_pages[1].words]
    assert again.rebuilt == document.rebuilt  # what the rebuild removed, its pictures, its regions
    assert again.looks() == document.looks() == upload_looks(data, document.pdf)
    assert layer_from_bytes(document.layer_bytes()).text == document.layer.text


def test_a_layer_stored_without_its_document_is_refused_as_a_document(born_digital):
    _data, analysis = born_digital
    alone = layer_to_bytes(analysis.text_layer)
    assert layer_from_bytes(alone) == analysis.text_layer
    with pytest.raises(StoredLayerError):
        StoredDocument.from_stored(alone, analysis.document.pdf)
    with pytest.raises(StoredLayerError):
        layer_from_bytes(alone[:-10])


def test_the_words_of_a_scanned_page_are_the_ones_ocr_read(scanned):
    _data, analysis = scanned
    document = _stored_again(analysis.document)
    assert analysis.pages[0].ocr
    ocr = [w.text for w in analysis.text_layer.ocr_pages[1].words]
    words = document.words(1)
    assert [w[0] for w in words] == ocr and "750403/1238," in ocr
    # the rebuilt PDF itself has no text a reader could select
    with pymupdf.open(stream=document.pdf, filetype="pdf") as doc:
        assert doc[0].get_text("words") == []
    for text, x0, y0, x1, y1 in words:
        assert 0 <= x0 < x1 <= analysis.pages[0].width and 0 <= y0 < y1 <= analysis.pages[0].height, text
    with pytest.raises(IndexError):
        document.words(2)


def test_the_words_of_a_text_page_are_its_layers(born_digital):
    _data, analysis = born_digital
    words = analysis.document.words(1)
    assert [w[0] for w in words][:3] == ["Kupní", "smlouva", "č."]
    with pymupdf.open(stream=analysis.document.pdf, filetype="pdf") as doc:
        assert [w[0] for w in words] == [w[4] for w in doc[0].get_text("words", sort=True)]


@pytest.mark.parametrize("kind", ["born_digital", "scanned"])
def test_redacting_the_stored_document_equals_redacting_the_upload(kind, request, engine):
    data, analysis = request.getfixturevalue(kind)
    from_upload = engine.redact(data, analysis.to_redact(), analysis.text_layer)
    from_storage = engine.redact(_stored_again(analysis.document), analysis.to_redact())
    assert _without_id(from_storage.pdf) == _without_id(from_upload.pdf) and from_storage.text == from_upload.text
    assert from_storage.verification.checks["pixels_changed"] == from_upload.verification.checks["pixels_changed"] == []


def test_the_pixel_check_against_kept_looks_equals_the_check_against_the_upload(born_digital):
    data, analysis = born_digital
    looks = analysis.document.looks()
    with pymupdf.open(stream=analysis.document.pdf, filetype="pdf") as doc:
        doc[0].draw_rect(pymupdf.Rect(300, 700, 500, 780), color=(0, 0, 0), fill=(0, 0, 0))
        damaged = doc.tobytes()
    (problem,) = render_changes(looks, damaged, [])
    assert render_changes(data, damaged, []) == [problem] and problem.startswith("page 1: ")
    assert render_changes(looks, analysis.document.pdf, []) == []
    with pymupdf.open() as two:
        two.new_page()
        two.new_page()
        assert render_changes(looks, two.tobytes(), []) == ["the redacted PDF has 2 pages, the original 1"]
