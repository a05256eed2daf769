"""The layouts where scans hide personal data, as synthetic scans (tests/synthetic/scan_classes.py):
each class's private values are redacted and none stays legible in the published picture, and
the lines Tesseract's page reading drops (a stamp over the text) are read again."""

from __future__ import annotations

import json

import numpy as np
import pymupdf
import pytest

from redactor.detect.nlp import RuleOnlyNlpEngine
from redactor.engine import RedactionEngine
from redactor.publish.legibility import find
from redactor.read.ocr import TesseractOcr
from redactor.read.ocr.rescue import line_worth_keeping, missed_bands
from tests.synthetic.scan_classes import CLASSES, write_scan_set


def test_missed_bands_are_the_text_lines_no_word_explains():
    page = np.full((400, 1000), 255, np.uint8)
    words = []
    for k, top in enumerate((40, 100, 160, 220)):  # four lines of "letters", 30 px high
        page[top : top + 30, 50:900:12] = 0
        page[top : top + 30, 51:900:12] = 0
        if k != 2:
            words.append((45.0, float(top), 905.0, float(top + 30)))  # the third line was not read
    page[300:302, 50:950] = 0  # a rule: no text
    yy, xx = np.ogrid[:400, :1000]
    ring = np.abs(np.hypot(yy - 170, xx - 500) - 120) < 3  # a stamp's ring across the lines
    page[ring] = 0
    bands = missed_bands(page, words)
    assert len(bands) == 1
    top, bottom = bands[0]
    assert top <= 160 and bottom >= 190 and bottom - top < 60


def test_no_band_without_words_or_without_missed_ink():
    page = np.full((200, 500), 255, np.uint8)
    page[50:80, 20:480:10] = 0
    assert missed_bands(page, []) == []
    assert missed_bands(page, [(15.0, 45.0, 485.0, 85.0)]) == []


@pytest.fixture(scope="module")
def scans(tmp_path_factory):
    out = tmp_path_factory.mktemp("scans")
    return {p.stem: p for p in write_scan_set(out, (1, 3, 4))}


@pytest.fixture(scope="module")
def engine():
    engine = RedactionEngine(nlp=RuleOnlyNlpEngine())
    assert engine.ocr is not None and engine.ocr.available(), "Tesseract with ces is installed by bin/setup"
    return engine


def _legible(pdf: bytes) -> list[str]:
    """The published pages as an independent reading (Tesseract, 300 dpi, whole page) sees them."""
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        return [w.text for page in doc for w in TesseractOcr().recognize(page).words]


@pytest.mark.parametrize(
    "name",
    [f"scan_{kind}_1" for kind in CLASSES] + ["scan_sole_trader_3", "scan_letter_3", "scan_letter_4", "scan_form_4"],
)
def test_no_private_value_of_a_class_stays_legible_in_the_published_picture(engine, scans, name):
    """Each class at seed 1 (200-300 dpi, skew, noise); at 72 dpi: a sole trader's contract with a
    stamp over two lines of his address, which Tesseract's page reading dropped, two letters whose
    street number and mobile only a smooth enlargement reads, and a form whose "Telefon" label is
    unreadable, with a stamp over the lines below it."""
    pdf = scans[name].read_bytes()
    gold = json.loads(scans[name].with_suffix(".json").read_text(encoding="utf-8"))
    analysis = engine.analyze(pdf)
    result = engine.redact(analysis.document, analysis.to_redact())
    before, after = _legible(pdf), _legible(result.pdf)
    redacted = [p.text for p in analysis.to_redact()]
    assert before
    for item in gold["items"]:
        value = item["text"]
        if item["expected"] == "redact":
            assert not find(value, after), value
        else:  # what must stay is not redacted (its pixels are checked unchanged by verification)
            assert not any(find(value, [text]) for text in redacted), value


@pytest.mark.parametrize(
    ("words", "kept"),
    [
        ([("Korespondenční", 91.0), ("adresa", 93.0)], True),
        ([("Žulová", 88.0)], True),
        ([("ws", 75.0)], False),  # a speckle read as letters
        ([("opravu", 62.0), ("za", 61.0)], False),  # not read with confidence
        ([], False),
    ],
)
def test_a_line_read_again_is_kept_only_when_it_reads_as_text(words, kept):
    assert line_worth_keeping(words) is kept
