"""Issue 14: adversarial PDFs (tests/adversarial.py, one per class of hiding place) are published
with nothing of the planted person readable by pdftotext, PDFium or a walk of every object and
decoded stream, and looking as they did outside the boxes, or refused with a one-line reason."""

from __future__ import annotations

import re

import pytest

from redactor.detect.nlp import RuleOnlyNlpEngine
from redactor.engine import RedactionEngine
from redactor.errors import RedactionError
from redactor.publish.verify import render_changes
from redactor.read.ocr import TesseractOcr
from tests.adversarial import BUILDERS, ocr_text, readable_texts

needs_tesseract = pytest.mark.skipif(not TesseractOcr().available(), reason="Tesseract with ces is not installed")
#: Classes this engine does not handle yet; each must fail (strict), so a fix is noticed.
NOT_YET: dict[str, str] = {}


@pytest.fixture(scope="module")
def engine():
    return RedactionEngine(nlp=RuleOnlyNlpEngine())


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def _cases():
    for build in BUILDERS:
        marks = [needs_tesseract]
        if build.__name__ in NOT_YET:
            marks.append(pytest.mark.xfail(strict=True, reason=NOT_YET[build.__name__]))
        yield pytest.param(build, marks=marks, id=build.__name__)


@pytest.mark.parametrize("build", list(_cases()))
def test_published_holds_nothing_of_the_person_or_is_refused(engine, build):
    case = build()
    # the secret really is in the input: readable by some tool, or (when drawn) by OCR
    planted = ocr_text(case.pdf) if case.pictured else " ".join(readable_texts(case.pdf).values())
    for secret in case.secrets:
        assert secret in _squash(planted), f"the builder did not plant {secret!r}"
    try:
        analysis = engine.analyze(case.pdf)
        result = engine.redact(analysis.document, analysis.to_redact())
    except RedactionError as exc:
        message = str(exc)
        assert message and "\n" not in message and "Traceback" not in message
        return
    published = readable_texts(result.pdf)
    if case.pictured:
        published["ocr"] = _squash(ocr_text(result.pdf))
    for tool, text in published.items():
        for secret in case.secrets:
            assert secret not in text, f"{secret!r} readable by {tool}"
    assert render_changes(case.pdf, result.pdf, result.boxes) == []


@needs_tesseract
def test_reviewers_are_told_which_pages_were_read_as_pictures(engine):
    from tests.adversarial import font_without_unicode, picture_of_text

    (page,) = engine.analyze(font_without_unicode().pdf).pages
    assert page.pictured and page.ocr and not page.pictures_read
    (page,) = engine.analyze(picture_of_text().pdf).pages
    assert page.pictures_read and not page.pictured and not page.ocr


@needs_tesseract
@pytest.mark.parametrize("build", ["outline_party_block", "type3_opaque_names"])
def test_glyphs_without_meaning_on_a_text_page_are_read_by_ocr_and_the_page_keeps_its_text(engine, build):
    """Issue 29: a line drawn as outlines, or set in a Type3 font whose glyphs have no Unicode
    meaning, on a page with ordinary text: only that region becomes a picture read by OCR (the
    person is found and redacted in its pixels), the rest of the page stays born-digital text."""
    import tests.adversarial as adversarial

    case = getattr(adversarial, build)()
    analysis = engine.analyze(case.pdf)
    (page,) = analysis.pages
    assert page.pictures_read and not page.pictured and not page.ocr
    assert analysis.removed.get("glyphs without meaning read as pictures") == 1
    assert "Vomacka" in analysis.text_layer.text  # read from the region's pixels
    result = engine.redact(analysis.document, analysis.to_redact())
    texts = readable_texts(result.pdf)
    assert all("Město Kyjov" in _squash(text) for tool, text in texts.items() if tool != "objects")
    for secret in case.secrets:
        assert secret not in _squash(ocr_text(result.pdf))
