"""Burn redactions into every layer of a PDF and write a clean, fully rewritten file.

What is removed (the failure list of DOMAIN.md, "How redaction fails"):

1. text under each box: PyMuPDF ``apply_redactions`` deletes the glyphs from the content
   stream (not a black rectangle over live text);
2. image pixels under each box are blanked in the image itself (``PDF_REDACT_IMAGE_PIXELS``)
   and then set to black, so the original pixels are not kept, masked or clipped;
3. vector graphics entirely under a box (``PDF_REDACT_LINE_ART_REMOVE_IF_COVERED``), such as
   a drawn signature;
4. every annotation (comments, stamps, links, form fields), embedded files, JavaScript,
   the Info dictionary and XMP metadata (``Document.scrub``), and bookmarks whose title
   contains a redacted string;
5. earlier revisions: the file is written anew with ``garbage=4`` (never incrementally), so
   orphaned objects and old revisions are dropped and the output has one ``%%EOF``.

Redaction annotations already present in the input (a clerk's unapplied marks) are applied
too: they express an intent to redact. Text outside the boxes stays text; on a scanned page
read by OCR, the OCR words outside the boxes become the page's (invisible) text layer.
"""

from __future__ import annotations

import math
import re
import unicodedata

import pymupdf

from .extraction import open_pdf, page_area
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
        return padded & page_area(page)
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


def _blacken_pixels(doc: pymupdf.Document, page: pymupdf.Page, rects: list[pymupdf.Rect]) -> None:
    """Set the pixels of every image under ``rects`` (points) to black in the image data itself.

    MuPDF's ``PDF_REDACT_IMAGE_PIXELS`` blanks them to white under the black box; a scan's
    redaction should be black in the image too (a viewer that hides the box, or an extracted
    image, shows black, as on a blacked-out paper copy). Images with a soft mask or an unusual
    colour space are left to MuPDF's blanking.
    """
    for info in page.get_image_info(xrefs=True):
        xref = info.get("xref") or 0
        bbox = pymupdf.Rect(info["bbox"])
        hits = [r for r in rects if r.intersects(bbox)]
        if not xref or not hits:
            continue
        pix = pymupdf.Pixmap(doc, xref)
        if pix.alpha or pix.n not in (1, 3, 4):
            continue
        to_image = ~pymupdf.Matrix(info["transform"])  # page point -> unit square of the image
        black = (0,) * pix.n if pix.n != 4 else (0, 0, 0, 255)  # CMYK black is full K
        for rect in hits:
            unit = (rect & bbox) * to_image
            irect = pymupdf.IRect(
                int(unit.x0 * pix.width) - 1,
                int(unit.y0 * pix.height) - 1,
                int(unit.x1 * pix.width + 0.999) + 1,
                int(unit.y1 * pix.height + 0.999) + 1,
            ) & pymupdf.IRect(0, 0, pix.width, pix.height)
            if not irect.is_empty:
                pix.set_rect(irect, black)
        page.replace_image(xref, pixmap=pix)


class _Display:
    """The page as a viewer shows it: /Rotate applied. OCR lines run left to right there, so the
    invisible layer is laid out in display coordinates and turned back into the page's own
    (unrotated) coordinates, in which PyMuPDF writes text."""

    def __init__(self, page: pymupdf.Page):
        self.to_display = page.rotation_matrix
        self.to_page = page.derotation_matrix
        origin = pymupdf.Point(0, 0) * self.to_page
        step = pymupdf.Point(1, 0) * self.to_page - origin
        # the text writer's morph turns counter-clockwise in PDF (y-up) space
        self.angle = -math.degrees(math.atan2(step.y, step.x))

    def rect(self, r: pymupdf.Rect) -> pymupdf.Rect:
        """``r`` (page coordinates) as displayed."""
        return (r * self.to_display).normalize()

    def write(self, page: pymupdf.Page, font: pymupdf.Font, point: pymupdf.Point, text: str, size: float, morph):
        """Write ``text`` invisibly at display ``point`` with the display-space ``morph`` matrix."""
        at = point * self.to_page
        writer = pymupdf.TextWriter(page.rect)
        writer.append(at, text, font=font, fontsize=size)
        writer.write_text(page, render_mode=3, morph=(at, morph * pymupdf.Matrix(self.angle)))


def _scan_text_layer(page: pymupdf.Page, words: list, rects: list[pymupdf.Rect], font: pymupdf.Font) -> int:
    """Write the scan's words (:class:`~redactor.core.ocr.OcrWord`) that touch no redaction rect
    back as invisible text (render mode 3), so the published scan stays searchable. Each run of
    consecutive kept words of a line is one text run on the line's baseline, stretched to the
    width the words cover on the image, so extractors read the line as it is printed. Word boxes
    and ``rects`` are in page coordinates (points, unrotated); lines are laid out as the page is
    displayed (/Rotate applied). Returns how many words were written."""
    display = _Display(page)
    shown = [display.rect(r) for r in rects]
    lines: dict[tuple, list] = {}
    for w in words:
        lines.setdefault(w.line, []).append((w.text, display.rect(pymupdf.Rect(w.x0, w.y0, w.x1, w.y1))))
    written = 0
    for line in lines.values():
        if sum(r.height > 1.5 * r.width for _t, r in line) * 2 > len(line):
            written += _vertical_words(page, display, line, shown, font)
            continue
        runs: list[list] = [[]]
        for text, rect in sorted(line, key=lambda w: w[1].x0):
            if any(rect.intersects(r) for r in shown) or not text.strip():
                runs.append([])  # a redacted word ends the run
                continue
            if runs[-1]:
                prev = runs[-1][-1][1]
                gap = pymupdf.Rect(prev.x1, min(prev.y0, rect.y0), max(prev.x1 + 0.01, rect.x0), max(prev.y1, rect.y1))
                if any(gap.intersects(r) for r in shown):
                    runs.append([])  # a box between the two words: the run must not cross it
            runs[-1].append((text, rect))
        for run in (r for r in runs if r):
            text = " ".join(t for t, _r in run)
            x0, x1 = run[0][1].x0, run[-1][1].x1
            # the median word, not the extremes: one tall box (a word the OCR layer stretched over
            # two lines) would give the run a giant font that extractors merge with the next line
            height = sorted(r.height for _t, r in run)[len(run) // 2]
            bottom = sorted(r.y1 for _t, r in run)[len(run) // 2]
            top = bottom - height
            size = max(2.0, height * 0.8)
            natural = font.text_length(text, fontsize=size)
            if natural <= 0 or x1 <= x0:
                continue
            baseline = pymupdf.Point(x0, bottom - (bottom - top) * 0.15)
            display.write(page, font, baseline, text, size, pymupdf.Matrix((x1 - x0) / natural, 1))
            written += len(run)
    return written


def _vertical_words(page: pymupdf.Page, display: _Display, line: list, rects: list[pymupdf.Rect], font) -> int:
    """A line of a page scanned sideways (words taller than wide as displayed): each kept word
    is written on its own, turned 90° to run upwards inside its box."""
    written = 0
    for text, rect in line:
        if any(rect.intersects(r) for r in rects) or not text.strip():
            continue
        size = max(2.0, rect.width * 0.7)
        natural = font.text_length(text, fontsize=size)
        if natural <= 0:
            continue
        baseline = pymupdf.Point(rect.x1 - rect.width * 0.25, rect.y1)
        display.write(page, font, baseline, text, size, pymupdf.Matrix(rect.height / natural, 1) * pymupdf.Matrix(90))
        written += 1
    return written


def burn_in(pdf: bytes, boxes: list[Box], redacted_texts: list[str], scan_words: dict | None = None) -> bytes:
    """Return a new PDF with ``boxes`` burned in and every hidden layer cleaned.

    ``boxes`` are in PDF points with pages from 1; ``redacted_texts`` are the strings being
    redacted (used to drop bookmarks that name them). ``scan_words`` (``{page number: [OcrWord]}``,
    :meth:`TextLayer.scan_words`) are the words of scanned pages: every text such a page had
    (another tool's invisible layer included) is removed, and its words outside the boxes are
    written back as an invisible text layer. Image pixels under the boxes are set to black. The input
    bytes are not modified. Raises :class:`~redactor.core.errors.InvalidPdfError` for input
    that cannot be opened.
    """
    doc = open_pdf(pdf)
    scan_words = scan_words or {}
    font = pymupdf.Font("helv") if scan_words else None
    redacted = [_norm(t) for t in redacted_texts if t.strip()]
    by_page: dict[int, list[Box]] = {}
    for box in boxes:
        by_page.setdefault(box.page, []).append(box)
    toc = doc.get_toc(simple=False)
    for page in doc:
        image_rects = [pymupdf.Rect(info["bbox"]) for info in page.get_image_info()]
        rects = [_redaction_rect(page, box, image_rects) for box in by_page.get(page.number + 1, [])]
        for rect in rects:
            page.add_redact_annot(rect, fill=(0, 0, 0), cross_out=False)
        page.apply_redactions(
            images=pymupdf.PDF_REDACT_IMAGE_PIXELS,
            graphics=pymupdf.PDF_REDACT_LINE_ART_REMOVE_IF_COVERED,
            text=pymupdf.PDF_REDACT_TEXT_REMOVE,
        )
        if rects and image_rects:
            _blacken_pixels(doc, page, rects)
        words = scan_words.get(page.number + 1)
        if words is not None:
            # the page's own text (none, unmapped glyphs, or another OCR tool's layer) goes
            page.add_redact_annot(page_area(page), fill=False, cross_out=False)
            page.apply_redactions(
                images=pymupdf.PDF_REDACT_IMAGE_NONE,
                graphics=pymupdf.PDF_REDACT_LINE_ART_NONE,
                text=pymupdf.PDF_REDACT_TEXT_REMOVE,
            )
            _scan_text_layer(page, words, rects, font)
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
