"""The engine's last check of a published PDF: redacted values still legible in the pictures of
the pages whose text OCR read (:mod:`redactor.publish.legibility` does the reading and matching).

Which pages: those whose picture shows text that no born-digital text layer explains – pages
read by OCR (scans), scans whose own OCR layer was kept, text pages whose pictures were read,
pages the rebuild turned into pictures (glyphs drawn as outlines) and pages published as
pictures. Where on them: the lines of the redaction boxes and the lines where the analysis' own
reading nearly matches a redacted value outside the boxes.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from redactor import categories as cat
from redactor.model import Box, ProposedRedaction
from redactor.publish.legibility import (
    LEGIBILITY_DPI,
    LEGIBILITY_PSM,
    MIN_VALUE_CHARS,
    Legible,
    allowances,
    fold,
    legible_values,
    near_lines,
    street_value,
)
from redactor.read.ocr.tesseract import TesseractOcr
from redactor.text import blank_spans

if TYPE_CHECKING:  # only the type is needed here
    from redactor.read.extraction import TextLayer

import pymupdf


def legibility_reader(ocr: object) -> TesseractOcr | None:
    """The second reader: Tesseract in the analysis' language at :data:`LEGIBILITY_DPI` and
    :data:`LEGIBILITY_PSM`, when the engine reads with Tesseract and it is installed; None
    otherwise (an engine without OCR publishes no page it could not read)."""
    if not isinstance(ocr, TesseractOcr) or not ocr.available():
        return None
    return ocr.reading(dpi=LEGIBILITY_DPI, psm=LEGIBILITY_PSM)


#: How far above and below a redaction box its line's neighbours are read, in box heights.
NEIGHBOUR_REACH = 1.0


def checked_values(proposals: Sequence[ProposedRedaction]) -> list[str]:
    """The values looked for: every redacted proposal's text, each word of four or more letters
    of a redacted name (a surname read alone elsewhere is the same person's), and the street and
    number of a redacted address (a letter repeats them without the postcode)."""
    values = {p.text for p in proposals}
    for p in proposals:
        if p.category in cat.NAME_CATEGORIES:
            values.update(w for w in p.text.split() if len(fold(w)) >= 4)
        if p.category in cat.ADDRESS_CATEGORIES and street_value(p.text):
            values.add(street_value(p.text))
    return sorted(v for v in values if len(fold(v)) >= MIN_VALUE_CHARS)


def picture_pages(text_layer: TextLayer, pictured: Sequence[int] = ()) -> list[int]:
    """Numbers (from 1) of the pages whose picture shows text that OCR read."""
    pages = {
        p.number for p in text_layer.pages if p.ocr or p.scan_layer or p.pictures_read or p.pictured or p.text_misread
    }
    return sorted(pages | set(pictured))


def legible_in_pictures(
    pdf: bytes | pymupdf.Document,
    boxes: Sequence[Box],
    proposals: Sequence[ProposedRedaction],
    text_layer: TextLayer,
    reader: TesseractOcr,
    pictured: Sequence[int] = (),
) -> tuple[list[Legible], dict[str, Any]]:
    """Redacted values of ``proposals`` still legible on the picture pages
    (:func:`picture_pages`, with the pages ``pictured`` published as pictures) of the published
    ``pdf`` (bytes, or the document already open, left open), into which ``boxes`` (points, pages
    from 1) were burned, and what was checked:
    ``{"pages", "bands", "seconds", "legible"}`` (counts, never values)."""
    started = time.perf_counter()
    pages = picture_pages(text_layer, pictured)
    values = checked_values(proposals)
    spans = [p.span for p in proposals if p.span.end > p.span.start]
    regions: dict[int, list[tuple[float, float, float, float]]] = {}
    for number in pages:
        # each redacted line with the line above and below it: a block's other values (an
        # e-mail under a stamp that the analysis' reading lost) stand next to the redacted ones
        rects = [
            (b.x0, b.y0 - NEIGHBOUR_REACH * (b.y1 - b.y0), b.x1, b.y1 + NEIGHBOUR_REACH * (b.y1 - b.y0))
            for b in boxes
            if b.page == number
        ]
        lines: dict[tuple[int, int, int], list[tuple[str, tuple[float, float, float, float]]]] = {}
        for _span, word in text_layer.layer_words(number, None, spans):
            lines.setdefault(word.line, []).append((word.text, (word.x0, word.y0, word.x1, word.y1)))
        rects += near_lines(lines.values(), values)
        if rects:
            regions[number] = rects
    found: list[Legible] = []
    if regions:  # the whole text's allowances only for pages that are read: most have no picture
        allowed = allowances(values, blank_spans(text_layer.text, spans).split("\n"))
        if isinstance(pdf, pymupdf.Document):
            found = legible_values(pdf, regions, values, allowed, reader)
        else:
            with pymupdf.open(stream=pdf, filetype="pdf") as doc:
                found = legible_values(doc, regions, values, allowed, reader)
    checked = {
        "pages": len(regions),
        "bands": sum(len(r) for r in regions.values()),
        "seconds": round(time.perf_counter() - started, 3),
        "legible": len(found),
    }
    return found, checked


def legible_problem(found: Legible, proposals: Sequence[ProposedRedaction]) -> str:
    """A verification problem for ``found``, naming the page and the value by its number and
    length among the redacted values, never quoting it."""
    values = checked_values(proposals)
    number = values.index(found.value) + 1 if found.value in values else 0
    return (
        f"page {found.page}: redacted value {number} ({len(found.value)} characters) "
        "is still legible in the page's picture"
    )
