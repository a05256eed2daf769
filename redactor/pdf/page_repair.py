"""MuPDF's part of the rebuild (:mod:`redactor.pdf.rebuild`): redaction marks a clerk left
unapplied are applied before the allowlist copy, and afterwards text outside each page's
visible area is removed and a page whose visible text cannot be read from its text layer
becomes a picture of itself, which OCR then reads like a scan. Boxes in PDF points.
"""

from __future__ import annotations

import unicodedata

import pymupdf

from redactor.pdf.pdf_pages import OCR_MIN_IMAGE_COVERAGE, BboxLog, image_boxes, image_coverage
from redactor.pdf.rebuilt import Rebuilt
from redactor.text import GARBAGE_MAX_QUALITY, text_quality


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
        applied: bytes = doc.tobytes(garbage=3, deflate=True)
        return applied
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


def unreadable_text(page: pymupdf.Page, log: BboxLog, read: str | None = None) -> str | None:
    """Why the visible text of ``page`` cannot be read from its text layer, or None: glyphs
    whose font maps them to no or to meaningless characters (no ToUnicode, Type3 with opaque
    names), or text drawn as vector outlines. ``log`` is the page's ``get_bboxlog()``, ``read``
    its ``get_text("text")`` when the caller has it. A scanned page (mostly image) is left to
    extraction, which replaces a garbled OCR layer itself."""
    if image_coverage(page, image_boxes(page, log)) >= OCR_MIN_IMAGE_COVERAGE:
        return None
    if read is None:
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


#: A run of at least this many glyph-sized filled paths side by side on one line is text drawn as
#: outlines (a party block pasted as vector graphics into a page with ordinary text).
OUTLINE_MIN_RUN = 5
#: Largest side (points) of a filled path that may be one glyph.
GLYPH_MAX_SIDE = 40.0
#: Share of a page's characters in lines without meaning from which the whole page becomes a
#: picture (:func:`as_picture`) rather than those regions.
REGION_MAX_SHARE = 0.5
#: Resolution (dpi) at which a region of glyphs without meaning becomes a picture for OCR.
REGION_DPI = 300


def _outline_runs(log: BboxLog) -> list[pymupdf.Rect]:
    """Lines of text drawn as vector outlines on a page (``log``: its ``get_bboxlog()``): runs of
    :data:`OUTLINE_MIN_RUN` or more glyph-sized filled paths of similar height on one row, each
    within twice its height of the next. Each run is returned as its rectangle (points)."""
    glyphs = [
        pymupdf.Rect(b)
        for kind, b in log
        if kind == "fill-path" and 0 < b[2] - b[0] < GLYPH_MAX_SIDE and 1.0 < b[3] - b[1] < GLYPH_MAX_SIDE
    ]
    rows: list[list[pymupdf.Rect]] = []
    for g in sorted(glyphs, key=lambda r: r.y1):
        if rows and abs(rows[-1][-1].y1 - g.y1) <= 0.3 * max(g.height, rows[-1][-1].height):
            rows[-1].append(g)  # same baseline (outline glyphs of one line end near one bottom)
        else:
            rows.append([g])
    runs = []
    for row in rows:
        row.sort(key=lambda r: r.x0)
        run = [row[0]]
        for g in row[1:]:
            height = max(g.height, run[-1].height)
            if g.x0 - run[-1].x1 <= 2 * height:
                run.append(g)
                continue
            runs.append(run)
            run = [g]
        runs.append(run)
    out = []
    for run in runs:
        if len(run) >= OUTLINE_MIN_RUN:
            rect = pymupdf.Rect(run[0])
            for g in run[1:]:
                rect |= g
            out.append(rect)
    return out


def _meaningless_fonts(doc: pymupdf.Document, page: pymupdf.Page) -> set[str]:
    """Names of the Type3 fonts of ``page`` without a ToUnicode map: their glyphs are drawn
    pictures whose names (if any) need not say which letter they show."""
    out: set[str] = set()
    for xref, _ext, kind, basefont, name, *_rest in page.get_fonts(full=True):
        if kind == "Type3" and doc.xref_get_key(xref, "ToUnicode")[0] == "null":
            out.update(n for n in (basefont, name, f"Type3 ({xref} 0 R)") if n)  # MuPDF's name for a nameless one
    return out


def _unmapped(text: str) -> bool:
    """Whether ``text`` (one span) reads as glyphs without meaning: three or more characters that
    map to nothing (controls, private use, U+FFFD), most of its characters. A bullet of a symbol
    font (one private-use character before a word) is not."""
    chars = [c for c in text if not c.isspace()]
    bad = sum(1 for c in chars if c == "\ufffd" or unicodedata.category(c) in ("Cc", "Co"))
    return bad >= 3 and bad * 2 > len(chars)


def meaningless_regions(doc: pymupdf.Document, page: pymupdf.Page, log: BboxLog) -> tuple[list[pymupdf.Rect], float]:
    """Regions (points, unrotated) of a text page whose glyphs have no meaning a text extractor can
    read: lines of text drawn as vector outlines (:func:`_outline_runs`), and lines set in a Type3
    font without a Unicode map or read as characters that map to nothing, merged where they touch
    and padded by two points; and the share (0..1) of the page's characters those lines hold.
    Such a region on a page that also has ordinary text is read by OCR; the page's other text
    stays text."""
    rects = _outline_runs(log)
    fonts = _meaningless_fonts(doc, page)
    total = meaningless = 0
    for block in page.get_text("dict", flags=pymupdf.TEXT_MEDIABOX_CLIP)["blocks"]:
        for line in block.get("lines", []):
            for span in line["spans"]:
                chars = len("".join(span["text"].split()))
                total += chars
                if chars and (span["font"] in fonts or _unmapped(span["text"])):
                    rects.append(pymupdf.Rect(span["bbox"]))
                    meaningless += chars
    merged: list[pymupdf.Rect] = []
    for rect in sorted((r + (-2, -2, 2, 2) for r in rects), key=lambda r: (r.y0, r.x0)):
        for k, other in enumerate(merged):
            if other.intersects(rect):
                merged[k] = other | rect  # (a Rect's |= rebinds the loop's name, not the list's entry)
                break
        else:
            merged.append(pymupdf.Rect(rect))
    area = (page.rect * page.derotation_matrix).normalize()
    return [r & area for r in merged], meaningless / total if total else 0.0


def region_as_picture(page: pymupdf.Page, rect: pymupdf.Rect) -> None:
    """Replace what ``page`` draws inside ``rect`` (points, unrotated) by a picture of it
    (:data:`REGION_DPI`): its text and the paths it holds whole go, the picture keeps its look."""
    rotation = page.rotation
    page.set_rotation(0)
    pix = page.get_pixmap(dpi=REGION_DPI, clip=rect, alpha=False)
    page.add_redact_annot(rect, fill=False, cross_out=False)
    page.apply_redactions(
        images=pymupdf.PDF_REDACT_IMAGE_NONE,
        graphics=pymupdf.PDF_REDACT_LINE_ART_REMOVE_IF_COVERED,
        text=pymupdf.PDF_REDACT_TEXT_REMOVE,
    )
    page.insert_image(rect, pixmap=pix)
    page.set_rotation(rotation)


def finish_pages(data: bytes, result: Rebuilt, *, keep_open: bool = False) -> tuple[bytes, pymupdf.Document | None]:
    """MuPDF's part of the rebuild: remove text drawn outside each page's visible area
    (redaction of the four bands around it), turn regions of a text page whose glyphs have no
    meaning (:func:`meaningless_regions`) into pictures of themselves (``result.regions``), and
    turn pages whose visible text cannot be read (:func:`unreadable_text`) into pictures. ``data``
    is returned unchanged when no page needs any of it, then with ``keep_open`` also the open
    document that read it (else None)."""
    doc = pymupdf.open(stream=data, filetype="pdf")
    try:
        changed = False
        for number in range(doc.page_count):
            page = doc[number]
            log = page.get_bboxlog()
            read: str | None = None
            if image_coverage(page, image_boxes(page, log)) < OCR_MIN_IMAGE_COVERAGE and (
                len((read := page.get_text("text")).strip()) >= 100
            ):
                regions, share = meaningless_regions(doc, page, log)
                if share >= REGION_MAX_SHARE:
                    regions = []  # mostly glyphs without meaning: the whole page becomes a picture
                for rect in regions:
                    region_as_picture(page, rect)
                if regions:
                    result.note("glyphs without meaning read as pictures", len(regions))
                    result.regions[number + 1] = [tuple(r) for r in regions]
                    page = doc.reload_page(page)
                    log = page.get_bboxlog()
                    read = None  # the regions' text is gone
                    changed = True
            reason = unreadable_text(page, log, read)
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
                if number + 1 not in result.regions:  # the page as it is published: its images are known
                    result.images[number + 1] = [tuple(r) for r in image_boxes(page, log)]
                    result.logs[number + 1] = log
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
            result.logs.clear()  # measured on the bytes read, not on those returned
            return doc.tobytes(garbage=3, deflate=True), None
        kept, doc = (doc, None) if keep_open else (None, doc)
        return data, kept
    finally:
        if doc is not None:
            doc.close()
