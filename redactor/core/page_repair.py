"""MuPDF's part of the rebuild (:mod:`redactor.core.rebuild`): redaction marks a clerk left
unapplied are applied before the allowlist copy, and afterwards text outside each page's
visible area is removed and a page whose visible text cannot be read from its text layer
becomes a picture of itself, which OCR then reads like a scan. Boxes in PDF points.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

import pymupdf

from .extraction import OCR_MIN_IMAGE_COVERAGE, image_boxes, image_coverage
from .ocr import GARBAGE_MAX_QUALITY, text_quality

if TYPE_CHECKING:
    from .rebuild import Rebuilt


def apply_redaction_marks(data: bytes, result: Rebuilt) -> bytes:
    """Apply the redaction annotations a clerk left in the file unapplied (they express an
    intent to redact: the text and pixels under them go, the boxes are black), before the
    rebuild drops every annotation."""
    doc = pymupdf.open(stream=data, filetype="pdf")
    try:
        for page in doc:
            marks = [a for a in page.annots() or [] if a.type[0] == pymupdf.PDF_ANNOT_REDACT]
            if marks:
                for mark in marks:
                    mark.update(fill_color=(0, 0, 0))
                page.apply_redactions(images=pymupdf.PDF_REDACT_IMAGE_PIXELS)
                result.note("redaction marks applied", len(marks))
        return doc.tobytes(garbage=3, deflate=True)
    finally:
        doc.close()


#: Resolution (dpi) at which a page whose text cannot be read is turned into a picture for OCR.
PICTURE_DPI = 200
#: Share of a page's characters that map to nothing (control, private-use, U+FFFD) from which
#: its text layer is taken to be glyphs without meaning.
UNMAPPED_MIN_SHARE = 0.05
#: Small filled paths (glyph-sized) on a page without text from which it is taken to show
#: text drawn as outlines.
OUTLINE_MIN_GLYPHS = 100


def unreadable_text(page: pymupdf.Page, log: list) -> str | None:
    """Why the visible text of ``page`` cannot be read from its text layer, or None: glyphs
    whose font maps them to no or to meaningless characters (no ToUnicode, Type3 with opaque
    names), or text drawn as vector outlines. ``log`` is the page's ``get_bboxlog()``. A
    scanned page (mostly image) is left to extraction, which replaces a garbled OCR layer
    itself."""
    if image_coverage(page, image_boxes(page, log)) >= OCR_MIN_IMAGE_COVERAGE:
        return None
    read = page.get_text("text")
    text = "".join(read.split())
    if len(text) >= 20:
        unmapped = sum(1 for c in text if c == "\ufffd" or unicodedata.category(c) in ("Cc", "Co"))
        if unmapped >= UNMAPPED_MIN_SHARE * len(text):
            return "glyphs without meaning"
        if text_quality(read) < GARBAGE_MAX_QUALITY:
            return "glyphs without meaning"
    if len(text) < 100:
        glyphs = sum(
            1 for kind, (x0, y0, x1, y1) in log if kind == "fill-path" and 0 < x1 - x0 < 40 and 0 < y1 - y0 < 40
        )
        if glyphs >= OUTLINE_MIN_GLYPHS:
            return "text drawn as outlines"
    return None


def as_picture(doc: pymupdf.Document, page: pymupdf.Page, dpi: int = PICTURE_DPI) -> None:
    """Replace ``page`` by a picture of itself (``dpi``), same size and rotation: it is then read
    by OCR and redacted like a scan, and keeps its look."""
    number, rotation = page.number, page.rotation
    page.set_rotation(0)
    pix = page.get_pixmap(dpi=dpi, alpha=False)
    area = page.rect
    new = doc.new_page(number, width=area.width, height=area.height)
    new.insert_image(new.rect, pixmap=pix)
    new.set_rotation(rotation)
    doc.delete_page(number + 1)


def finish_pages(data: bytes, result: Rebuilt, *, keep_open: bool = False) -> tuple[bytes, pymupdf.Document | None]:
    """MuPDF's part of the rebuild: remove text drawn outside each page's visible area
    (redaction of the four bands around it), and turn pages whose visible text cannot be read
    (:func:`unreadable_text`) into pictures. ``data`` is returned unchanged when no page
    needs either, then with ``keep_open`` also the open document that read it (else None)."""
    doc = pymupdf.open(stream=data, filetype="pdf")
    try:
        changed = False
        for number in range(doc.page_count):
            page = doc[number]
            log = page.get_bboxlog()
            reason = unreadable_text(page, log)
            if reason:
                as_picture(doc, page)
                result.note(reason)
                result.pictured.append(number + 1)
                changed = True
                continue
            area = (page.rect * page.derotation_matrix).normalize()
            x0, y0, x1, y1 = area
            outside = sum(
                1
                for kind, (bx0, by0, bx1, by1) in log
                if kind.endswith("-text")
                and ((bx0 + bx1) / 2 < x0 or (bx0 + bx1) / 2 > x1 or (by0 + by1) / 2 < y0 or (by0 + by1) / 2 > y1)
            )
            if not outside:
                continue
            far = 1e5
            for band in (
                pymupdf.Rect(-far, -far, area.x0, far),
                pymupdf.Rect(area.x1, -far, far, far),
                pymupdf.Rect(-far, -far, far, area.y0),
                pymupdf.Rect(-far, area.y1, far, far),
            ):
                page.add_redact_annot(band, fill=False, cross_out=False)
            page.apply_redactions(
                images=pymupdf.PDF_REDACT_IMAGE_NONE,
                graphics=pymupdf.PDF_REDACT_LINE_ART_NONE,
                text=pymupdf.PDF_REDACT_TEXT_REMOVE,
            )
            result.note("text outside the page", outside)
            changed = True
        if changed:
            return doc.tobytes(garbage=3, deflate=True), None
        kept, doc = (doc, None) if keep_open else (None, doc)
        return data, kept
    finally:
        if doc is not None:
            doc.close()
