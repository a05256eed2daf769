"""A text layer that lies: a font whose ToUnicode map names other characters than its glyphs show.

Every extractor reads a born-digital page through its fonts' maps from glyph codes to Unicode
(ISO 32000-1, § 9.10): a map shifted by one, or one that only swaps the digits, gives a layer
that reads well and names nobody while the page shows a name and a birth number. No extractor
can tell; only the glyphs' pictures can. So a few words set in each font of a page (the run of
:data:`WINDOW_CHARS` characters with the most letters, and the one with the most digits when
another) are rendered and read by OCR, all of a page's samples stacked into one picture read at
once, and compared with what the layer says there. A font whose sample disagrees beyond OCR noise
is *lying*, and every page that uses it is read by OCR as it is shown (and published as its
picture with the words read there). A font is sampled once per document.

Boxes are PDF points of the page as PyMuPDF gives them; pages count from 1.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import TYPE_CHECKING, Any

import numpy as np
import pymupdf

from redactor.read.ocr.rescue import band_shift, strip_of

if TYPE_CHECKING:
    from redactor.read.ocr.protocol import Ocr
    from redactor.read.ocr.tesseract import TesseractOcr

#: Resolution (dpi) at which a sample line is rendered for OCR.
SAMPLE_DPI = 300
#: Fewest letters (or digits) a sample must hold to be compared: fewer are read too unreliably.
SAMPLE_MIN_CHARS = 6
#: Agreement (0..1, :func:`agreement`) under which a sample's layer and its picture disagree: OCR
#: noise on a clean rendering stays far above it, a shifted map far below.
AGREEMENT_MIN = 0.5
#: Share of a sample's letters (or digits) OCR must read for a disagreement to count: where it
#: reads much less, the glyphs are not shown (an earlier redaction's box over them, white text),
#: which :mod:`redactor.read.covered` judges, not this check.
READ_MIN_SHARE = 0.5
#: Longest sample (characters): OCR's cost grows with a line's length, and a few words tell a
#: lying map as surely as a line.
WINDOW_CHARS = 8
#: Most samples read for one page (fonts beyond it are rare and are left to the reader's check).
MAX_SAMPLES = 12


@dataclass(frozen=True)
class Sample:
    """One line set in one font: the ``font``'s name, the line's ``rect`` (points) and what the
    text layer says there (``text``)."""

    font: str
    rect: tuple[float, float, float, float]
    text: str


def _folded(text: str, digits: bool) -> str:
    """The letters (or the digits) of ``text``, lower case, without diacritics."""
    out = unicodedata.normalize("NFD", text.lower())
    return "".join(c for c in out if (c.isdigit() if digits else c.isalpha()) and c.isascii())


def agreement(layer: str, read: str, digits: bool) -> float:
    """How well OCR's ``read`` of a sample agrees with the ``layer``'s text there, on the letters
    (or the ``digits``) of both, 0..1: of two folded strings of one length the share of places
    that hold the same character (ten digits match by chance too often for an alignment), else
    difflib's ratio."""
    a, b = _folded(layer, digits), _folded(read, digits)
    if not a and not b:
        return 1.0
    if len(a) == len(b):
        return sum(x == y for x, y in zip(a, b, strict=True)) / len(a)
    return SequenceMatcher(None, a, b, autojunk=False).ratio()


def samples(raw: dict[str, Any], checked: set[str]) -> list[Sample]:
    """The samples of a page (``raw``: its ``get_text("rawdict")``) for the fonts not yet in
    ``checked``: per font, of its visible, upright spans on horizontal lines, the run of
    :data:`WINDOW_CHARS` characters with the most letters and the one with the most digits, each
    only with :data:`SAMPLE_MIN_CHARS` of them or more."""
    best: dict[tuple[str, bool], tuple[int, Sample]] = {}
    for block in raw["blocks"]:
        if block.get("type") != 0:
            continue
        for line in block["lines"]:
            if tuple(round(v, 2) for v in line.get("dir", (1, 0))) != (1.0, 0.0):
                continue  # a turned line is read turned: OCR of the band would not read it
            for span in line["spans"]:
                font = span.get("font", "")
                if font in checked or not span.get("alpha", 255) or not _upright(span):
                    continue
                for digits in (False, True):
                    count, sample = _window(font, span["chars"], digits)
                    if count >= SAMPLE_MIN_CHARS and count > best.get((font, digits), (0, None))[0]:
                        best[(font, digits)] = (count, sample)
    out: list[Sample] = []
    for _count, sample in best.values():
        if sample not in out:
            out.append(sample)
    return out[:MAX_SAMPLES]


def _upright(span: dict[str, Any]) -> bool:
    """Whether a span's glyphs stand upright: each character's origin (its baseline) lies in the
    lower half of its box. A mirrored line (drawn under a flipped matrix) has its baseline at the
    top and is no sample of what its font's map says."""
    chars = [c for c in span["chars"] if not c["c"].isspace()]
    if not chars:
        return False
    middle = sum((c["bbox"][1] + c["bbox"][3]) / 2 - c["origin"][1] for c in chars)
    return bool(middle < 0)


def _window(font: str, chars: list[dict[str, Any]], digits: bool) -> tuple[int, Sample]:
    """The run of at most :data:`WINDOW_CHARS` characters of a span (its rawdict ``chars``) that
    holds the most letters (or ``digits``), as a sample of ``font``, with that count."""
    marks = [c["c"].isdigit() if digits else c["c"].isalpha() for c in chars]
    best, at, count = 0, 0, 0
    for i, mark in enumerate(marks):
        count += mark
        if i >= WINDOW_CHARS:
            count -= marks[i - WINDOW_CHARS]
        if count > best:
            best, at = count, max(0, i - WINDOW_CHARS + 1)
    run = chars[at : at + WINDOW_CHARS]
    boxes = [c["bbox"] for c in run]
    rect = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
    return best, Sample(font, rect, "".join(c["c"] for c in run))


@dataclass
class FontCheck:
    """What one document's fonts were found to be: ``checked`` fonts, of which ``lying``."""

    checked: set[str] = field(default_factory=set)
    lying: set[str] = field(default_factory=set)

    def page_lies(self, page: pymupdf.Page, raw: dict[str, Any], ocr: Ocr) -> bool:
        """Whether ``page`` (its ``raw`` rawdict) shows text in a lying font: the fonts not yet
        checked are sampled (one OCR of their stacked samples, by a reader of ``ocr``'s language
        at :data:`SAMPLE_DPI`) and judged first. A font whose samples showed no ink to read, or
        that only a turned page (``/Rotate``) shows so far, is not judged and is sampled again on a
        later page. An OCR other than Tesseract judges none."""
        from redactor.read.ocr.tesseract import TesseractOcr  # noqa: PLC0415 - the reader's class

        # a turned page's lines would be rendered turned: its fonts are sampled on another page
        found = samples(raw, self.checked) if page.rotation % 360 == 0 else []
        if found and isinstance(ocr, TesseractOcr):
            lying, judged = _lying(page, found, ocr.reading(dpi=SAMPLE_DPI, psm=6))
            self.lying |= lying
            self.checked |= judged
        if not self.lying:
            return False
        return any(
            span.get("font") in self.lying
            for block in raw["blocks"]
            if block.get("type") == 0
            for line in block["lines"]
            for span in line["spans"]
        )


def _lying(page: pymupdf.Page, found: list[Sample], ocr: TesseractOcr) -> tuple[set[str], set[str]]:
    """The fonts of ``found`` whose sample OCR (``ocr``, reading one uniform block) reads otherwise
    than the layer says, and the fonts judged at all (a sample with ink to read)."""
    from PIL import Image  # noqa: PLC0415 - only with OCR

    rows = []
    # the page's content is interpreted once for all its samples; each line is rendered alone (a
    # page at this resolution costs far more), the same pixels Page.get_pixmap gives for its clip
    listing = page.get_displaylist()
    zoom = pymupdf.Matrix(SAMPLE_DPI / 72, SAMPLE_DPI / 72)
    for sample in found:
        clip = pymupdf.Rect(sample.rect) + (-2, -1, 2, 1)
        pix = listing.get_pixmap(matrix=zoom, clip=clip, colorspace=pymupdf.csGRAY, alpha=False)
        rows.append(np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width))
    width = max(row.shape[1] for row in rows)
    rows = [np.pad(row, ((0, 0), (0, width - row.shape[1])), constant_values=255) for row in rows]
    tops = np.cumsum([0] + [row.shape[0] for row in rows])
    strip, offsets = strip_of(np.vstack(rows), [(int(t), int(t) + row.shape[0]) for t, row in zip(tops, rows)])
    read: list[list[str]] = [[] for _ in found]
    for text, _conf, _x0, y0, _x1, y1, _line in ocr.read_image(Image.fromarray(strip)):
        placed = band_shift(offsets, y0, y1)
        if placed is not None:
            read[placed[0]].append(text)
    lying: set[str] = set()
    judged: set[str] = set()
    for sample, words in zip(found, read, strict=True):
        said = " ".join(words)
        for digits in (False, True):
            layer = len(_folded(sample.text, digits))
            if layer < SAMPLE_MIN_CHARS or len(_folded(said, digits)) < READ_MIN_SHARE * layer:
                continue  # no ink to read there (a box over it, white on white): covered, not lying
            judged.add(sample.font)
            if agreement(sample.text, said, digits) < AGREEMENT_MIN:
                lying.add(sample.font)
    return lying, judged
