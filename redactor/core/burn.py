"""Burn redactions into every layer of a PDF and write a clean, fully rewritten file.

What is removed (the failure list of DOMAIN.md, "How redaction fails"):

1. text under each box: PyMuPDF ``apply_redactions`` deletes the glyphs from the content
   stream (not a black rectangle over live text);
2. image pixels under each box are blanked in the image itself (``PDF_REDACT_IMAGE_PIXELS``),
   so the original pixels are not kept, masked or clipped;
3. vector graphics entirely under a box (``PDF_REDACT_LINE_ART_REMOVE_IF_COVERED``), such as
   a drawn signature;
4. every annotation (comments, stamps, links, form fields), embedded files, JavaScript,
   the Info dictionary and XMP metadata (``Document.scrub``), and bookmarks whose title
   contains a redacted string;
5. earlier revisions: the file is written anew with ``garbage=4`` (never incrementally), so
   orphaned objects and old revisions are dropped and the output has one ``%%EOF``.

Redaction annotations already present in the input (a clerk's unapplied marks) are applied
too: they express an intent to redact. Text outside the boxes stays text.
"""

from __future__ import annotations

import re
import unicodedata

import pymupdf

from .extraction import open_pdf
from .model import Box

#: Share of the glyph box height trimmed at top and bottom of a text box, so that glyphs of
#: the lines above and below (whose boxes may touch) are not removed with it.
VERTICAL_TRIM = 0.15
#: Padding in points around a box that lies over an image, so no pixel of a scanned glyph survives.
IMAGE_PADDING = 1.5


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip().lower()


def _redaction_rect(page: pymupdf.Page, box: Box, image_rects: list[pymupdf.Rect]) -> pymupdf.Rect:
    rect = pymupdf.Rect(box.x0, box.y0, box.x1, box.y1)
    if any(rect.intersects(r) for r in image_rects):
        pad = IMAGE_PADDING
        padded = pymupdf.Rect(rect.x0 - pad, rect.y0 - pad, rect.x1 + pad, rect.y1 + pad)
        return padded & page.rect
    trim = rect.height * VERTICAL_TRIM
    return pymupdf.Rect(rect.x0 + 0.3, rect.y0 + trim, rect.x1 - 0.3, rect.y1 - trim)


def _filter_toc(toc: list, redacted: list[str]) -> list:
    """Drop bookmarks whose title contains a redacted string, with their sub-entries."""
    out, drop_below = [], None
    for level, title, *rest in toc:
        if drop_below is not None and level > drop_below:
            continue
        drop_below = None
        if any(r and r in _norm(title) for r in redacted):
            drop_below = level
            continue
        out.append([level, title, *rest])
    # keep the hierarchy valid: a level may rise by at most one
    fixed, prev = [], 0
    for level, title, *rest in out:
        level = min(level, prev + 1)
        fixed.append([level, title, *rest])
        prev = level
    return fixed


def burn_in(pdf: bytes, boxes: list[Box], redacted_texts: list[str]) -> bytes:
    """Return a new PDF with ``boxes`` burned in and every hidden layer cleaned.

    ``boxes`` are in PDF points with pages from 1; ``redacted_texts`` are the strings being
    redacted (used to drop bookmarks that name them). The input bytes are not modified.
    Raises :class:`~redactor.core.errors.InvalidPdfError` for input that cannot be opened.
    """
    doc = open_pdf(pdf)
    redacted = [_norm(t) for t in redacted_texts if t.strip()]
    by_page: dict[int, list[Box]] = {}
    for box in boxes:
        by_page.setdefault(box.page, []).append(box)
    toc = doc.get_toc(simple=False)
    for page in doc:
        image_rects = [pymupdf.Rect(info["bbox"]) for info in page.get_image_info()]
        for box in by_page.get(page.number + 1, []):
            page.add_redact_annot(_redaction_rect(page, box, image_rects), fill=(0, 0, 0), cross_out=False)
        page.apply_redactions(
            images=pymupdf.PDF_REDACT_IMAGE_PIXELS,
            graphics=pymupdf.PDF_REDACT_LINE_ART_REMOVE_IF_COVERED,
            text=pymupdf.PDF_REDACT_TEXT_REMOVE,
        )
        for widget in list(page.widgets() or []):
            page.delete_widget(widget)
        for annot in list(page.annots() or []):
            page.delete_annot(annot)
        for link in page.get_links():
            page.delete_link(link)
    doc.scrub(
        attached_files=True,
        clean_pages=True,
        embedded_files=True,
        hidden_text=False,
        javascript=True,
        metadata=True,
        redactions=True,
        redact_images=0,
        remove_links=True,
        reset_fields=True,
        reset_responses=True,
        thumbnails=True,
        xml_metadata=True,
    )
    doc.set_metadata({})
    doc.del_xml_metadata()
    for i in reversed(range(doc.embfile_count())):
        doc.embfile_del(i)
    doc.set_toc(_filter_toc([entry[:3] for entry in toc], redacted))
    data = doc.tobytes(garbage=4, deflate=True, clean=True, no_new_id=False)
    doc.close()
    return data
