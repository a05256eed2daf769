"""Extraction, burn-in and verification on PDFs built in the test."""

from __future__ import annotations

import io
import json

import pymupdf
import pytest

from redactor.detect.nlp import RuleOnlyNlpEngine
from redactor.engine import RedactionEngine
from redactor.errors import EncryptedPdfError, InvalidPdfError, VerificationError
from redactor.model import Box, Span
from redactor.pdf.pdf_pages import open_pdf
from redactor.publish.burn import burn_in
from redactor.publish.verify import extract_texts, verify
from redactor.read.extraction import extract_text_layer
from tests.pdfs import pdf_from_paragraphs


def _layer(data: bytes):
    doc = open_pdf(data)
    try:
        return extract_text_layer(doc)
    finally:
        doc.close()


def _pdf_with_lines(lines: list[str]) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    for i, line in enumerate(lines):
        page.insert_text((72, 100 + 14 * i), line, fontname="helv", fontsize=11)
    return doc.tobytes()


def test_line_end_hyphen_inside_a_number_is_kept_and_joined():
    layer = _layer(_pdf_with_lines(["na ucet c. 77243-", "1231372578/2700 do 10 dnu"]))
    assert "77243-1231372578/2700" in layer.text


def test_hyphenated_word_is_joined_without_its_hyphen():
    layer = _layer(_pdf_with_lines(["pracov-", "ni neschopnost"]))
    assert "pracovni neschopnost" in layer.text


def test_ligatures_are_normalised_and_keep_their_box():
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_font(fontname="F0", fontbuffer=pymupdf.Font("cjk").buffer)  # a font with the ﬁ glyph
    page.insert_text((72, 72), "\ufb01nanční plnění", fontname="F0")
    layer = _layer(doc.tobytes())
    i = layer.text.index("finanční")  # the ligature reads as two letters
    (box,) = layer.span_boxes(Span(i, i + len("finanční")))
    assert box.x0 == pytest.approx(72.0)  # and the box still covers the ligature glyph


def test_span_boxes_follow_lines_and_pages():
    layer = _layer(_pdf_with_lines(["IBAN CZ29 0100 8367 1334 3580", "3623 a dale"]))
    start = layer.text.index("CZ29")
    end = layer.text.index("3623") + 4
    boxes = layer.span_boxes(Span(start, end))
    assert len(boxes) == 2 and all(b.page == 1 for b in boxes)
    assert boxes[1].y0 > boxes[0].y0


def test_image_only_page_is_reported_as_needing_ocr_and_the_rest_is_processed():
    doc = pymupdf.open()
    text_page = doc.new_page()
    text_page.insert_text((72, 100), "Jan Novak, tel. 777 123 456", fontname="helv")
    scan = doc.new_page()
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 200, 280), False)
    pix.clear_with(200)
    scan.insert_image(scan.rect, pixmap=pix)
    layer = _layer(doc.tobytes())
    assert layer.pages_needing_ocr == [2]
    assert "777 123 456" in layer.text


@pytest.mark.parametrize(
    ("data", "error", "message"),
    [
        (b"", InvalidPdfError, "empty"),
        (b"GIF89a not a pdf", InvalidPdfError, "not a PDF"),
        (b"%PDF-1.7\n garbage garbage", InvalidPdfError, "damaged"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(data, error, message):
    with pytest.raises(error, match=message):
        open_pdf(data)


def test_encrypted_pdf_is_refused():
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "secret")
    data = doc.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="u", owner_pw="o")
    with pytest.raises(EncryptedPdfError, match="password"):
        open_pdf(data)


def _with_hidden_layers(data: bytes) -> bytes:
    doc = pymupdf.open(stream=data, filetype="pdf")
    doc.set_metadata({"author": "Jan Novák", "keywords": "830623/4849", "title": "Smlouva"})
    doc.set_xml_metadata("<x:xmpmeta xmlns:x='adobe:ns:meta/'>Jan Novák 830623/4849</x:xmpmeta>")
    page = doc[0]
    page.add_text_annot((500, 50), "Ověřit: Jan Novák, r. č. 830623/4849")
    doc.embfile_add("poznamka.txt", "Jan Novák 830623/4849".encode(), filename="poznamka.txt")
    doc.set_toc([[1, "Smlouva", 1], [2, "Strana – Jan Novák", 1]])
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def test_burn_in_removes_text_and_every_hidden_layer(engine: RedactionEngine):
    original = _with_hidden_layers(
        pdf_from_paragraphs(
            [
                "Prodávající: Jan Novák, r. č. 830623/4849, bytem Polní 5, 602 00 Brno.",
                "Kupující: Město Holešov, IČO 00287172.",
            ]
        )
    )
    analysis = engine.analyze(original)
    redacted = {p.text for p in analysis.to_redact()}
    assert {"Jan Novák", "830623/4849"} <= redacted
    result = engine.redact(analysis.document, analysis.to_redact())
    out = pymupdf.open(stream=result.pdf, filetype="pdf")
    assert not any(out.metadata.get(k) for k in ("author", "keywords", "title"))
    assert not out.get_xml_metadata()
    assert out.embfile_count() == 0
    assert not list(out[0].annots())
    # outlines are not rebuilt at all: a bookmark can name the person in another form (issue 14)
    assert out.get_toc() == []
    assert result.pdf.count(b"%%EOF") == 1
    for text in extract_texts(result.pdf).values():
        assert "Novák" not in text and "830623" not in text
        assert "Město Holešov" in text and "00287172" in text  # the rest stays text
    assert result.verification.ok


def _box_over_live_text() -> tuple[bytes, list[Box]]:
    """A birth number under a black box drawn over its live text (the text is still there), and
    the box."""
    original = pdf_from_paragraphs(["Jan Novák, r. č. 830623/4849, bytem Polní 5."])
    layer = _layer(original)
    start = layer.text.index("830623/4849")
    boxes = layer.span_boxes(Span(start, start + len("830623/4849")))
    doc = pymupdf.open(stream=original, filetype="pdf")
    for box in boxes:
        doc[box.page - 1].draw_rect(pymupdf.Rect(box.x0, box.y0, box.x1, box.y1), color=(0, 0, 0), fill=(0, 0, 0))
    return doc.tobytes(garbage=4), boxes


def test_verification_catches_a_box_drawn_over_live_text():
    bad, boxes = _box_over_live_text()
    result = verify(bad, ["830623/4849"], boxes=boxes)
    assert not result.ok
    assert result.checks["glyphs_under_boxes"] > 0
    assert result.checks["text_leaks"] and result.leaked == ["830623/4849"]
    # the report goes to logs, the CLI and the stored contract: it names the value, never quotes it
    report = json.dumps(result.to_dict(), ensure_ascii=False)
    assert "830623" not in report and "4849" not in report and "redacted value 1 (11 characters)" in report


def test_verification_reads_the_document_it_is_given_open_and_leaves_it_open():
    """The readers after verification read the published document verification opened: it finds
    what it finds in the bytes, and the document stays open for them."""
    bad, boxes = _box_over_live_text()
    with pymupdf.open(stream=bad, filetype="pdf") as opened:
        given = verify(bad, ["830623/4849"], boxes=boxes, document=opened)
        assert not opened.is_closed and opened[0].get_text()
    alone = verify(bad, ["830623/4849"], boxes=boxes)
    assert not given.ok and given.problems == alone.problems and given.checks == alone.checks


def test_redaction_closes_the_published_document_its_readers_shared():
    engine = RedactionEngine(nlp=RuleOnlyNlpEngine(), ocr=False)
    analysis = engine.analyze(pdf_from_paragraphs(["Jan Novák, r. č. 830623/4849, bytem Polní 5."]))
    result = engine.redact(analysis.document, analysis.to_redact())
    assert result.document is None
    assert result.verification.ok and result.verification.checks["reader_check"]["pages"] == 1
    kept = engine.burn_and_verify(analysis.document, analysis.to_redact())
    assert kept.document is None and kept.verification.ok


def test_verification_catches_an_incremental_save_and_metadata(tmp_path):
    path = tmp_path / "clean.pdf"
    path.write_bytes(burn_in(pdf_from_paragraphs(["Jan Novák podepsal."]), [], []))
    doc = pymupdf.open(path)
    doc.set_metadata({"author": "Jan Novák"})
    doc.saveIncr()  # appends a revision after the first %%EOF
    doc.close()
    result = verify(path.read_bytes(), ["Jan Novák"], residual_text="podepsal.")
    assert not result.ok
    assert result.checks["eof_markers"] == 2
    assert any("metadata" in problem for problem in result.problems)


def test_redact_raises_when_verification_fails(engine: RedactionEngine, monkeypatch):
    original = pdf_from_paragraphs(["Jan Novák, tel. 777 123 456."])
    analysis = engine.analyze(original)
    # a burn-in that forgets to remove anything must not pass as a redaction
    monkeypatch.setattr("redactor.engine.burn_in", lambda pdf, boxes, texts, **kw: pdf)
    with pytest.raises(VerificationError, match="verification failed"):
        engine.redact(analysis.document, analysis.to_redact())


def test_a_surname_kept_for_an_official_may_remain_when_a_namesake_is_redacted():
    text = "Jan Novák, starosta. Petr Novák, bytem Polní 5."
    residual = text.replace("Petr Novák", " " * len("Petr Novák"))
    original = pdf_from_paragraphs([text])
    layer = _layer(original)
    start = layer.text.index("Petr Novák")
    boxes = layer.span_boxes(Span(start, start + len("Petr Novák")))
    out = burn_in(original, boxes, ["Petr Novák"])
    assert verify(out, ["Petr Novák", "Novák"], boxes=boxes, residual_text=residual).ok
    assert not verify(out, ["Novák"], boxes=boxes).ok  # without the residual every Novák is a leak


def test_burn_in_blacks_out_image_pixels_under_the_box():
    doc = pymupdf.open()
    page = doc.new_page()
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 100, 100), False)
    pix.clear_with(255)  # a white image
    page.insert_image(pymupdf.Rect(100, 100, 200, 200), pixmap=pix)
    out = burn_in(doc.tobytes(), [Box(1, 120, 120, 160, 160)], [])
    image = pymupdf.open(stream=out, filetype="pdf")[0].get_images(full=True)[0]
    pixels = pymupdf.Pixmap(pymupdf.open(stream=out, filetype="pdf"), image[0])
    # the redacted region of the image itself is black (not just covered by a black box) ...
    assert all(pixels.pixel(x, y) == (0, 0, 0) for x in range(21, 59) for y in range(21, 59))
    # ... and the rest of the image is untouched
    assert pixels.pixel(5, 5) == pixels.pixel(90, 90) == (255, 255, 255)


def test_words_carry_their_boxes_in_points():
    layer = _layer(_pdf_with_lines(["Jan Novak, tel. 777 123 456"]))
    words = layer.words()
    assert [w.text for w in words][:2] == ["Jan", "Novak,"]
    first = words[0].boxes[0]
    assert first.page == 1 and 70 <= first.x0 < first.x1 < 100 and first.y1 > first.y0


@pytest.mark.parametrize("rotation", [0, 90, 270])
def test_a_page_whose_cropbox_differs_from_its_mediabox_is_redacted_where_it_shows(rules_engine, rotation):
    """Coordinates are relative to the CropBox (and unrotated): boxes must land on the words."""
    doc = pymupdf.open(stream=pdf_from_paragraphs(["Prodávající: Jan Novák, rodné číslo 750403/1238, Lipová 12"]))
    page = doc[0]
    page.set_cropbox(pymupdf.Rect(30, 40, page.rect.width - 20, page.rect.height - 60))
    page.set_rotation(rotation)
    data = doc.tobytes()
    analysis = rules_engine.analyze(data)
    redact = analysis.to_redact()
    assert {"Jan Novák", "750403/1238"} <= {p.text for p in redact}
    result = rules_engine.redact(analysis.document, redact)  # VerificationError on any leak
    out = pymupdf.open(stream=result.pdf)[0]
    assert "750403" not in out.get_text() and "Novák" not in out.get_text() and "Prodávající" in out.get_text()
    for box in result.boxes:
        assert out.get_textbox(pymupdf.Rect(box.x0, box.y0, box.x1, box.y1)).strip() == ""


# -- issue 14: verification against the analysed text, and the pixels outside the boxes -------
def test_text_that_was_not_analysed_fails_verification_and_names_its_page():
    data = _pdf_with_lines(["Objednatel: Mesto Kyjov", "Zhotovitel: Karel Vomacka"])
    analysed = {1: "Objednatel: Mesto Kyjov\nZhotovitel:"}  # the analysis never saw the name
    result = verify(data, [], analysed_pages=analysed)
    assert not result.ok
    assert any(p.startswith("page 1:") and "(2 words)" in p for p in result.checks["unanalysed_text"])
    assert "Vomacka" not in json.dumps(result.to_dict())  # the text unseen may be personal data: never quoted
    assert verify(data, [], analysed_pages={1: "Objednatel: Mesto Kyjov Zhotovitel: Karel Vomacka"}).ok


def test_words_read_apart_or_joined_differently_are_still_the_analysed_text():
    from redactor.publish.verify import unseen_words

    analysed = "Cena: patnáct tisíc korun\nplatba do 31.10.2008 a 31.10.2008"
    assert unseen_words("patnácttisíc 31.10.200831.10.2008 Cena :", analysed) == []
    assert unseen_words("pracov- ní", "pracovní") == []
    assert unseen_words("Vomacka", analysed) == ["Vomacka"]


def test_pixels_changed_outside_the_boxes_fail_verification():
    from redactor.publish.verify import render_changes

    data = _pdf_with_lines(["Zhotovitel: Karel Vomacka, bytem Lipova 12"])
    doc = pymupdf.open(stream=data, filetype="pdf")
    doc[0].draw_rect(pymupdf.Rect(300, 300, 400, 400), fill=(0, 0, 0))  # damage far from any box
    damaged = doc.tobytes()
    box = Box(1, 300, 300, 400, 400)
    assert render_changes(data, damaged, [box]) == []  # inside the box: a redaction
    (problem,) = render_changes(data, damaged, [])
    assert problem.startswith("page 1:") and "pixels changed" in problem


def test_the_cli_refuses_active_content_like_the_upload(tmp_path):
    from policy.batch import redact_file
    from redactor.detect.nlp import RuleOnlyNlpEngine

    doc = pymupdf.open(stream=_pdf_with_lines(["Smlouva o dilo"]), filetype="pdf")
    catalog = doc.pdf_catalog()
    doc.xref_set_key(catalog, "OpenAction", "<</S/JavaScript/JS(app.alert(1))>>")
    source = tmp_path / "skript.pdf"
    source.write_bytes(doc.tobytes())
    outcome = redact_file(RedactionEngine(nlp=RuleOnlyNlpEngine(), ocr=False), source, tmp_path / "out")
    assert not outcome.ok
    assert "active content (JavaScript)" in outcome.message
    assert not (tmp_path / "out" / "skript.pdf").exists()
