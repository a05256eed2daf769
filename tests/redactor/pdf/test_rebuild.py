"""The allowlist rebuild (redactor.pdf.rebuild): what a reader sees stays, where it was;
everything else is gone."""

from __future__ import annotations

import io

import pikepdf
import pymupdf

from redactor.pdf.rebuild import PAGE_KEYS, open_rebuilt, rebuild
from tests import adversarial
from tests.pdfs import pdf_from_paragraphs


def _catalog_keys(data: bytes) -> set[str]:
    with pikepdf.open(io.BytesIO(data)) as pdf:
        return set(pdf.Root.keys())


def _words(data: bytes) -> list[tuple]:
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        return [
            tuple(round(v, 2) if isinstance(v, float) else v for v in w[:5]) for p in doc for w in p.get_text("words")
        ]


def test_text_and_coordinates_are_unchanged():
    data = pdf_from_paragraphs(adversarial.BODY)
    assert _words(rebuild(data).pdf) == _words(data)


def test_the_catalog_keeps_only_the_page_tree():
    for build in (
        adversarial.page_labels,
        adversarial.orphan_form_field,
        adversarial.piece_info_and_names,
        adversarial.structure_alt,
        adversarial.open_action_uri,
        adversarial.optional_content_off,
    ):
        out = rebuild(build().pdf).pdf
        assert _catalog_keys(out) <= {"/Type", "/Pages"}, build.__name__


def test_pages_keep_only_allowlisted_keys_and_lose_piece_info():
    out = rebuild(adversarial.piece_info_and_names().pdf).pdf
    with pikepdf.open(io.BytesIO(out)) as pdf:
        for page in pdf.pages:
            assert set(page.obj.keys()) <= PAGE_KEYS
            assert "/Properties" not in page.obj.Resources


def test_hidden_layer_content_goes_and_shown_content_stays():
    case = adversarial.optional_content_off()
    result = rebuild(case.pdf)
    assert result.removed.get("hidden layer content")
    text = " ".join(adversarial.readable_texts(result.pdf).values())
    assert adversarial.HIDDEN not in text and adversarial.HIDDEN_NUMBER not in text
    assert "Zhotovitel" in text


def test_actual_text_no_longer_replaces_the_drawn_glyphs():
    case = adversarial.actual_text()
    with pymupdf.open(stream=case.pdf, filetype="pdf") as doc:
        assert "Vomacka" not in doc[0].get_text()  # MuPDF reads the ActualText instead
    with pymupdf.open(stream=rebuild(case.pdf).pdf, filetype="pdf") as doc:
        assert "Karel Vomacka" in doc[0].get_text()


def test_quote_operators_become_line_moves_with_the_same_lines():
    case = adversarial.quote_operators()
    out = rebuild(case.pdf).pdf
    with pymupdf.open(stream=out, filetype="pdf") as doc:
        content = doc[0].read_contents()
    assert b"' " not in content.replace(b"(", b" (") and b'"' not in content
    assert _words(out) == _words(case.pdf)


def test_text_outside_the_crop_box_is_removed_from_the_content():
    out = rebuild(adversarial.outside_cropbox().pdf)
    assert out.removed.get("text outside the page")
    assert adversarial.HIDDEN not in adversarial.readable_texts(out.pdf)["objects"]


def test_annotations_are_flattened_into_the_page():
    doc = pymupdf.open(stream=pdf_from_paragraphs(["Smlouva"]), filetype="pdf")
    widget = pymupdf.Widget()
    widget.field_name, widget.field_type = "jmeno", pymupdf.PDF_WIDGET_TYPE_TEXT
    widget.field_value, widget.rect = "Karel Vomacka", pymupdf.Rect(72, 200, 300, 220)
    doc[0].add_widget(widget)
    out = rebuild(doc.tobytes()).pdf
    with pymupdf.open(stream=out, filetype="pdf") as rebuilt:
        page = rebuilt[0]
        assert not list(page.annots()) and not list(page.widgets())
        assert "Karel Vomacka" in page.get_text()  # the value a reader saw is now page content


def test_a_page_without_readable_text_becomes_a_picture():
    out = rebuild(adversarial.font_without_unicode().pdf)
    assert out.pictured == [1] and out.removed == {"glyphs without meaning": 1}
    with pymupdf.open(stream=out.pdf, filetype="pdf") as doc:
        assert doc[0].get_text().strip() == "" and doc[0].get_images()


def test_a_clerks_unapplied_redaction_marks_are_applied():
    doc = pymupdf.open(stream=pdf_from_paragraphs(adversarial.BODY), filetype="pdf")
    page = doc[0]
    (hit,) = page.search_for("Lipová 12")
    page.add_redact_annot(hit)
    out = rebuild(doc.tobytes())
    assert out.removed.get("redaction marks applied") == 1
    with pymupdf.open(stream=out.pdf, filetype="pdf") as rebuilt:
        text = rebuilt[0].get_text()
    assert "Lipová 12" not in text and "Zhotovitel" in text


def test_a_contract_with_a_clerks_marks_is_published_with_them_applied():
    from redactor.detect.nlp import RuleOnlyNlpEngine
    from redactor.engine import RedactionEngine

    doc = pymupdf.open(stream=pdf_from_paragraphs(adversarial.BODY), filetype="pdf")
    (hit,) = doc[0].search_for("80 000 Kč")  # the clerk blacked out a price (their call, not ours)
    doc[0].add_redact_annot(hit)
    data = doc.tobytes()
    engine = RedactionEngine(nlp=RuleOnlyNlpEngine(), ocr=False)
    analysis = engine.analyze(data)
    result = engine.redact(analysis.document, analysis.to_redact())
    text = adversarial.readable_texts(result.pdf)["pdftotext"]
    assert "80 000" not in text and "Novák" not in text and "Kyjov" in text


def test_the_rebuild_hands_extraction_the_bbox_logs_of_the_pages_it_left_as_they_were():
    """What each page draws is measured once: the logs the rebuild ran are those of the document
    it hands over; after it changed a page, the file is another and it hands over none."""
    doc, result = open_rebuilt(pdf_from_paragraphs(["Jan Novák", "Dlouhá 5, Praha"] * 40))
    with doc:
        assert sorted(result.logs) == list(range(1, doc.page_count + 1))
        for number, log in result.logs.items():
            assert log == doc[number - 1].get_bboxlog()
    assert rebuild(adversarial.outside_cropbox().pdf).logs == {}  # a page was changed
