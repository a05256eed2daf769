"""Optical character recognition of scanned pages with Tesseract (Czech model ``ces``).

A page is rendered by PyMuPDF at :data:`OCR_DPI` and read by Tesseract through pytesseract's
``image_to_data`` (words with boxes, line structure and a confidence 0..100 per word). Boxes
are turned into PDF points so that the rest of the engine – recognizers, the category map,
review, burn-in – treats OCR words exactly as born-digital text. Tesseract comes from Debian
(``tesseract-ocr``, ``tesseract-ocr-ces``, Apache-2.0; the ``ces`` model is trained by the
Tesseract project); nothing is downloaded.

Which pages are read: pages without a usable text layer (no text, or mostly unmapped glyphs,
see :mod:`redactor.read.extraction`), and scanned pages that carry a text layer of another OCR
tool (invisible text over a page-sized image) or text that reads as garbage: such a layer is
replaced, never kept under a redaction box (an invisible word under a box is a leak).

The package by stage: :mod:`.page` (words and pages), :mod:`.quality` (how good a layer is),
:mod:`.repairs` (misreadings fixed), :mod:`.tesseract` (the driver, pictures, read-ahead, the
layer check) and :mod:`.stored` (a replay). The names the engine uses are importable from here.
"""

from __future__ import annotations

from redactor.read.ocr.page import OCR_DPI, SCAN_MIN_IMAGE_COVERAGE, OcrPage, OcrWord
from redactor.read.ocr.protocol import Ocr
from redactor.read.ocr.quality import (
    DIACRITICS_LOST_SHARE,
    DIACRITICS_SHOWN_SHARE,
    LAYER_MIN_AGREEMENT,
    LAYER_MIN_SIMILARITY,
    LAYER_WORD_SIMILARITY,
    SAMPLE_MIN_AGREEMENT,
    SAMPLE_MIN_WORDS,
    SAMPLE_WORDS,
    layer_agrees,
    layer_sample,
    layer_similarity,
    lost_diacritics,
    may_have_lost_diacritics,
)
from redactor.read.ocr.repairs import repair_emails, repair_numbers
from redactor.read.ocr.stored import StoredOcr
from redactor.read.ocr.tesseract import (
    BOX_MIN_AGREEMENT,
    BOX_WORD_SIMILARITY,
    LAYERED_MIN_HEIGHT,
    LAYERED_MIN_WIDTH,
    ORIENTATION_MIN_CONFIDENCE,
    ORIENTATION_MIN_OSD,
    PICTURE_MAX_CHARS_OVER,
    PICTURE_MIN_CONFIDENCE,
    PICTURE_MIN_HEIGHT,
    PICTURE_MIN_SHARE,
    PICTURE_MIN_WIDTH,
    ReadAhead,
    TesseractOcr,
    described_pictures,
    layer_area,
    layers_off,
    picture_regions,
    read_pictures,
)
from redactor.text import GARBAGE_MAX_QUALITY, text_quality

__all__ = [
    "BOX_MIN_AGREEMENT",
    "BOX_WORD_SIMILARITY",
    "DIACRITICS_LOST_SHARE",
    "DIACRITICS_SHOWN_SHARE",
    "GARBAGE_MAX_QUALITY",
    "LAYERED_MIN_HEIGHT",
    "LAYERED_MIN_WIDTH",
    "LAYER_MIN_AGREEMENT",
    "LAYER_MIN_SIMILARITY",
    "LAYER_WORD_SIMILARITY",
    "OCR_DPI",
    "ORIENTATION_MIN_CONFIDENCE",
    "ORIENTATION_MIN_OSD",
    "PICTURE_MAX_CHARS_OVER",
    "PICTURE_MIN_CONFIDENCE",
    "PICTURE_MIN_HEIGHT",
    "PICTURE_MIN_SHARE",
    "PICTURE_MIN_WIDTH",
    "SAMPLE_MIN_AGREEMENT",
    "SAMPLE_MIN_WORDS",
    "SAMPLE_WORDS",
    "SCAN_MIN_IMAGE_COVERAGE",
    "Ocr",
    "OcrPage",
    "OcrWord",
    "ReadAhead",
    "StoredOcr",
    "TesseractOcr",
    "described_pictures",
    "layer_agrees",
    "layer_area",
    "layer_sample",
    "layer_similarity",
    "layers_off",
    "lost_diacritics",
    "may_have_lost_diacritics",
    "picture_regions",
    "read_pictures",
    "repair_emails",
    "repair_numbers",
    "text_quality",
]
