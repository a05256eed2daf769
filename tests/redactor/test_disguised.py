"""Disguised contracts (tests/disguised.py): a text layer whose codes are not the letters shown,
pictures painted through patterns, clips and shadings, values written as people write them. Each
is published with the person's values illegible, or refused, or with every legible value named by
a review item (the analysis' or the reader's check's): never silently."""

from __future__ import annotations

import re

import pytest

from redactor.detect.nlp import RuleOnlyNlpEngine
from redactor.engine import RedactionEngine
from redactor.errors import RedactionError
from redactor.model import Action
from redactor.read.ocr import TesseractOcr
from tests.adversarial import ocr_text, readable_texts
from tests.disguised import BUILDERS

needs_tesseract = pytest.mark.skipif(not TesseractOcr().available(), reason="Tesseract with ces is not installed")


@pytest.fixture(scope="module")
def engine():
    return RedactionEngine(nlp=RuleOnlyNlpEngine())


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def _digits_and_letters(text: str) -> str:
    return re.sub(r"\W", "", text).lower()


@needs_tesseract
@pytest.mark.parametrize("build", BUILDERS, ids=[b.__name__ for b in BUILDERS])
def test_nothing_of_the_person_is_published_silently(engine, build):
    case = build()
    planted = _squash(ocr_text(case.pdf)) if case.pictured else " ".join(readable_texts(case.pdf).values())
    for secret in case.secrets:
        assert secret in planted, f"the builder did not plant {secret!r}"
    try:
        analysis = engine.analyze(case.pdf)
        others = [p for p in analysis.proposals if p.action != Action.REDACT]
        result = engine.redact(analysis.document, analysis.to_redact(), others=others)
    except RedactionError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    published = readable_texts(result.pdf)
    published["ocr"] = _squash(ocr_text(result.pdf))
    named = [_digits_and_letters(p.text) for p in others if p.action == Action.REVIEW]
    named += [_digits_and_letters(f.text) for f in result.findings]
    for secret in case.secrets:
        legible = [tool for tool, text in published.items() if secret in text]
        if legible:
            key = _digits_and_letters(secret)
            assert any(key in n or (n and n in key) for n in named), f"{secret!r} legible to {legible}, no review item"


@needs_tesseract
@pytest.mark.parametrize("build", ["to_unicode_shifted", "to_unicode_digits_shifted"])
def test_a_page_whose_font_map_lies_is_read_as_shown_and_published_as_its_picture(engine, build):
    import tests.disguised as disguised

    case = getattr(disguised, build)()
    analysis = engine.analyze(case.pdf)
    (page,) = analysis.pages
    assert page.text_misread and page.ocr
    assert "780101/1229" in analysis.text_layer.text or "Novák" in analysis.text_layer.text
    result = engine.redact(analysis.document, analysis.to_redact())
    assert result.pictured
    published = readable_texts(result.pdf)
    assert "Město Kyjov" in _squash(published["pdftotext"])  # the kept words are the layer's, read as shown


@needs_tesseract
def test_a_font_whose_map_tells_the_truth_is_not_read_again(engine):
    from tests.adversarial import BODY
    from tests.pdfs import pdf_from_paragraphs

    (page,) = engine.analyze(pdf_from_paragraphs(BODY)).pages
    assert not page.text_misread and not page.ocr
