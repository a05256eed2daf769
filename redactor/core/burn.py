"""Burn redactions into a rebuilt PDF and write a clean, fully rewritten file.

The input is the allowlist rebuild of the upload (:mod:`redactor.core.rebuild`): it holds
pages and what they draw, nothing else. What burn-in removes (the failure list of DOMAIN.md,
"How redaction fails"):

1. text under each box: PyMuPDF ``apply_redactions`` deletes the glyphs from the content
   stream (not a black rectangle over live text), within the box trimmed at top and bottom so
   the neighbouring lines keep theirs;
2. image pixels under each box (padded by ``IMAGE_PADDING``) are set to black in the image
   itself, so the original pixels are not kept, masked or clipped; an image drawn through a
   mask keeps its look outside the boxes;
3. vector graphics entirely under a box (``PDF_REDACT_LINE_ART_REMOVE_IF_COVERED``), such as
   a drawn signature;
4. as a second line of defence, what the rebuild already left out (it keeps no actions,
   JavaScript or thumbnails either, see :mod:`redactor.core.rebuild`): annotations, links,
   form fields, embedded files, the Info dictionary and XMP metadata, and bookmarks whose
   title contains a redacted string; verification checks these places again;
5. earlier revisions: the file is written anew with ``garbage=4`` (never incrementally), so
   orphaned objects and old revisions are dropped and the output has one ``%%EOF``. Content
   streams are not rewritten again (MuPDF's ``clean``): the rebuild normalised them and
   redaction rewrote those it changed.

Text outside the boxes stays text; on a scanned page read by OCR, the OCR words outside the
boxes become the page's (invisible) text layer.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

import pymupdf

from .extraction import image_boxes, open_pdf, page_area
from .model import Box
from .page_repair import as_picture

#: Share of the glyph box height trimmed at top and bottom of a text box, so that glyphs of
#: the lines above and below (whose boxes may touch) are not removed with it.
VERTICAL_TRIM = 0.15
#: Padding in points around a box that lies over an image, so no pixel of a scanned glyph survives.
IMAGE_PADDING = 1.5


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip().lower()


def _text_rect(box: Box) -> pymupdf.Rect:
    """The rectangle whose glyphs are removed: the box trimmed at top and bottom, so that the
    glyphs of the lines above and below (whose boxes may touch it) stay."""
    trim = (box.y1 - box.y0) * VERTICAL_TRIM
    return pymupdf.Rect(box.x0 + 0.3, box.y0 + trim, box.x1 - 0.3, box.y1 - trim)


def _redaction_rect(page: pymupdf.Page, box: Box, image_rects: list[pymupdf.Rect]) -> pymupdf.Rect:
    """The rectangle blacked out: over an image it is padded so that no pixel of a scanned glyph
    survives; elsewhere it is :func:`_text_rect`."""
    rect = pymupdf.Rect(box.x0, box.y0, box.x1, box.y1)
    if any(rect.intersects(r) for r in image_rects):
        pad = IMAGE_PADDING
        padded = pymupdf.Rect(rect.x0 - pad, rect.y0 - pad, rect.x1 + pad, rect.y1 + pad)
        return padded & page_area(page)
    return _text_rect(box)


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


def _mask_of(doc: pymupdf.Document, xref: int) -> int:
    """The xref of image ``xref``'s soft mask (/SMask) or stencil mask (/Mask stream), or 0."""
    for key in ("SMask", "Mask"):
        kind, value = doc.xref_get_key(xref, key)
        if kind == "xref":
            return int(value.split()[0])
    return 0


def _write_pixels(doc: pymupdf.Document, xref: int, pix: pymupdf.Pixmap) -> None:
    """Store ``pix`` (no alpha, 1/3/4 components, 8 bits) as the samples of image ``xref`` in
    place, Flate-compressed, keeping every other key of the image, its /SMask included: PyMuPDF's
    ``replace_image`` would build a new image without it."""
    doc.update_stream(xref, pix.samples, compress=True)
    doc.xref_set_key(xref, "BitsPerComponent", "8")
    doc.xref_set_key(xref, "ColorSpace", {1: "/DeviceGray", 3: "/DeviceRGB", 4: "/DeviceCMYK"}[pix.n])
    for key in ("DecodeParms", "Decode", "ImageMask"):
        doc.xref_set_key(xref, key, "null")


def _blacken_pixels(doc: pymupdf.Document, page: pymupdf.Page, rects: list[pymupdf.Rect]) -> None:
    """Set the pixels of every image under ``rects`` (points) to black in the image data itself.

    MuPDF's ``PDF_REDACT_IMAGE_PIXELS`` blanks them to white under the black box; a scan's
    redaction should be black in the image too (a viewer that hides the box, or an extracted
    image, shows black, as on a blacked-out paper copy). An image drawn through a mask (a
    transparent signature) has its samples and its mask changed under the boxes only, so it
    keeps its look elsewhere (MuPDF's own redaction made such images opaque). Images in an
    unusual colour space are left to MuPDF's blanking.
    """
    for info in page.get_image_info(xrefs=True):
        xref = info.get("xref") or 0
        bbox = pymupdf.Rect(info["bbox"])
        hits = [r for r in rects if r.intersects(bbox)]
        if not xref or not hits:
            continue
        pix = pymupdf.Pixmap(doc, xref)
        mask = _mask_of(doc, xref)
        if pix.alpha and mask:
            pix = pymupdf.Pixmap(pix, 0)  # the samples without the mask, which is changed on its own
        if pix.alpha or pix.n not in (1, 3, 4):
            continue
        to_image = ~pymupdf.Matrix(info["transform"])  # page point -> unit square of the image
        black = (0,) * pix.n if pix.n != 4 else (0, 0, 0, 255)  # CMYK black is full K
        alpha = pymupdf.Pixmap(doc, mask) if mask else None
        for rect in hits:
            unit = (rect & bbox) * to_image
            for target, value in ((pix, black), (alpha, (0,))):
                if target is None:
                    continue
                irect = pymupdf.IRect(
                    int(unit.x0 * target.width) - 1,
                    int(unit.y0 * target.height) - 1,
                    int(unit.x1 * target.width + 0.999) + 1,
                    int(unit.y1 * target.height + 0.999) + 1,
                ) & pymupdf.IRect(0, 0, target.width, target.height)
                if not irect.is_empty:
                    target.set_rect(irect, value if target.n == len(value) else (0,) * target.n)
        if mask:
            _write_pixels(doc, xref, pix)
            if alpha is not None and not alpha.alpha and alpha.n == 1:
                _write_pixels(doc, mask, alpha)
        else:
            page.replace_image(xref, pixmap=pix)


def _draws_no_image(doc: pymupdf.Document, page: pymupdf.Page) -> bool:
    """True when ``page`` certainly draws no image: no image or form XObject and no pattern in
    its resources, no inline image (``BI``) in its content. Decided without running the
    content (MuPDF's bbox log costs about a millisecond a page); any doubt gives False."""
    if page.get_images(full=True) or page.get_xobjects():
        return False
    kind, value = doc.xref_get_key(page.xref, "Resources")
    if kind == "xref":
        value = doc.xref_object(int(value.split()[0]))
    elif kind != "dict":
        return False  # inherited or unreadable resources: look at what the page draws
    return "/Pattern" not in value and b"BI" not in page.read_contents()


def _has_masked_image(doc: pymupdf.Document, page: pymupdf.Page, rects: list[pymupdf.Rect]) -> bool:
    return any(
        info.get("xref")
        and _mask_of(doc, info["xref"])
        and any(r.intersects(pymupdf.Rect(info["bbox"])) for r in rects)
        for info in page.get_image_info(xrefs=True)
    )


class _Display:
    """The page as its text is read: /Rotate applied, then turned ``turn`` degrees clockwise
    (0, 90, 180, 270: a sheet scanned on its side or upside down, whose words OCR read turned,
    :attr:`~redactor.core.ocr.OcrWord.angle`). Lines run left to right there, so the invisible
    layer is laid out in these coordinates and turned back into the page's own (unrotated)
    coordinates, in which PyMuPDF writes text."""

    def __init__(self, page: pymupdf.Page, turn: int = 0):
        width, height = page.rect.width, page.rect.height  # as displayed
        turned = {
            90: pymupdf.Matrix(0, 1, -1, 0, height, 0),  # (x, y) -> (height - y, x)
            180: pymupdf.Matrix(-1, 0, 0, -1, width, height),
            270: pymupdf.Matrix(0, -1, 1, 0, 0, width),  # (x, y) -> (y, width - x)
        }.get(turn, pymupdf.Matrix(1, 0, 0, 1, 0, 0))
        self.to_display = page.rotation_matrix * turned
        self.to_page = ~self.to_display
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


#: Smallest gap between two written words, as a share of the larger of their font sizes:
#: poppler joins two glyphs into one word when the gap between them is under about 0.4 of the
#: font size (measured with its ``pdftotext``; an explicit space does not change it), and a
#: printed word gap is about 0.3 of it, so a word is drawn a little narrower than its box
#: rather than glued to the next.
WORD_GAP = 0.5


#: Resolution (dpi) of a page published as a picture: a scan's pixels resampled at 200 dpi move
#: by more than the pixel check allows around dark strokes; 300 dpi is what scanners deliver.
PUBLISHED_PICTURE_DPI = 300


@dataclass(frozen=True)
class WrittenText:
    """Words the product writes into a page's published text layer (invisible, render mode 3):
    :class:`~redactor.core.ocr.OcrWord` values with boxes in points (unrotated page space) and
    line numbers; ``replace``: the page's own text goes first (a page read by OCR as a whole, or
    published as a picture), otherwise the words are added to it (pictures read by OCR)."""

    words: list
    replace: bool = True

    @property
    def turn(self) -> int:
        """Which way most words run (:attr:`~redactor.core.ocr.OcrWord.angle` of the words of two
        or more characters; 0 when none): the layer is laid out with the page turned that way."""
        turns = Counter(w.angle for w in self.words if len(w.text) >= 2)
        return turns.most_common(1)[0][0] if turns else 0


def write_words(
    page: pymupdf.Page, words: list, font: pymupdf.Font, rects: list[pymupdf.Rect] = (), turn: int = 0
) -> int:
    """Write ``words`` (:class:`~redactor.core.ocr.OcrWord`, boxes in points, unrotated page
    space) as invisible text (render mode 3), so that a picture stays searchable; words whose
    box lies mostly under a redaction rectangle of ``rects`` are left out.

    Each word is its own text run at its own place: on the baseline and in the font size of its
    printed line (the line's median word, so one tall box does not give it a giant font), from
    its box's left edge, stretched to :data:`WORD_GAP` of the font size before the next word of its
    row (to its box's right edge where no word follows within two line heights), so that PDFium,
    poppler and MuPDF read it as one separate word and poppler does not take the wide gaps of a
    justified line (over 1 em on scans) for columns and interleave two lines, in
    the printed order (left to right as the page is displayed, /Rotate applied, and turned
    ``turn`` degrees clockwise for a sheet scanned on its side or upside down, see
    :class:`WrittenText`). A line that still stands on its side (words taller than wide) is
    written upwards, word by word. Returns how many words were written."""
    display = _Display(page, turn)
    shown = [display.rect(r) for r in rects]
    lines: dict[tuple, list] = {}
    for w in words:
        if w.text.strip():
            lines.setdefault(w.line, []).append((w.text, display.rect(pymupdf.Rect(w.x0, w.y0, w.x1, w.y1))))
    printed = [
        line
        for text_line in lines.values()
        for line in _printed_lines([(t, r) for t, r in text_line if not _mostly_under(r, shown)])
    ]
    sizes = {id(r): _line_size(line) for line in printed for _t, r in line}
    ends = _room(printed, sizes)
    written = 0
    for line in printed:
        long = [r for t, r in line if len(t) >= 3]  # a digit or an initial is taller than wide anyway
        if sum(r.height > 1.5 * r.width for r in long) * 2 > len(long) > 0:
            written += _vertical_words(page, display, line, font)
        else:
            written += _line_words(page, display, line, font, ends, shown)
    return written


def _line_size(line: list) -> float:
    """The font size (points) of a printed line of ``(text, rectangle)``: from its median word
    box, so one tall box (a word the OCR layer stretched over two lines) does not give it a giant
    font that extractors merge with the next line."""
    return max(2.0, sorted(r.height for _t, r in line)[len(line) // 2] * 0.8)


def _room(lines: list[list], sizes: dict[int, float]) -> dict[int, float]:
    """For each word of ``lines`` (by ``id`` of its rectangle, as displayed; ``sizes``: its font
    size by the same key) where it must end (points): :data:`WORD_GAP` before the nearest word to
    its right on the same printed row, even when the two belong to different text lines (OCR
    may read two touching words apart)."""
    words = sorted((r for line in lines for _t, r in line), key=lambda r: r.x0)
    ends: dict[int, float] = {}
    for i, rect in enumerate(words):
        for other in words[i + 1 :]:
            if other.x0 > rect.x1 + 2 * rect.height:
                break  # far enough: no extractor glues them
            beside = min(rect.y1, other.y1) - max(rect.y0, other.y0) >= 0.3 * min(rect.height, other.height)
            if beside and other.x0 >= rect.x0 + 0.5 * rect.width:
                end = other.x0 - WORD_GAP * max(sizes[id(rect)], sizes[id(other)])
                ends[id(rect)] = min(ends.get(id(rect), end), end)
    return ends


def _printed_lines(line: list) -> list[list]:
    """A text line's words (text, rectangle as displayed) split into the printed lines they lie
    on: a word that does not share at least 30 % of its height with the word before it (a skewed
    scan drifts a little along a line, a new line does not overlap), or lies back to the left,
    starts a new one (a text line may join two printed lines, a number broken at its hyphen)."""
    out: list[list] = []
    for text, rect in line:
        if out:
            last = out[-1][-1][1]
            beside = min(rect.y1, last.y1) - max(rect.y0, last.y0) >= 0.3 * min(rect.height, last.height)
            if beside and rect.x0 >= last.x0 - 1:
                out[-1].append((text, rect))
                continue
        out.append([(text, rect)])
    return out


def _line_words(
    page: pymupdf.Page, display: _Display, line: list, font: pymupdf.Font, ends: dict[int, float], shown: list
) -> int:
    """:func:`write_words` for one printed line of ``(text, rectangle as displayed)``; ``ends``:
    where each word must end (:func:`_room`); ``shown``: the redaction rectangles as displayed,
    which a word moved out of an overlap must not reach. Each word is followed by a space character, which
    PDFium reads as a word break on any page, turned ones included (it judges gaps along the
    page's x axis), and between two words that OCR put on printed lines of their own (table
    cells of a skewed row)."""
    line = sorted(line, key=lambda w: w[1].x0)
    size = _line_size(line)
    baseline = sorted(r.y1 for _t, r in line)[len(line) // 2] - size * 0.15 / 0.8
    # where extractors put the vertical centre of a written glyph (MuPDF's character box runs
    # from the font's ascender to its descender), which verification checks against the boxes
    centre = baseline - size * (font.ascender + font.descender) / 2
    written, free = 0, -math.inf  # where the next word of the line may begin
    for n, (text, rect) in enumerate(line):
        natural = font.text_length(text, fontsize=size)
        if natural <= 0:
            continue
        # OCR boxes of a poor scan overlap (a word read twice): the later word moves right
        start = max(rect.x0, free)
        width = max(ends.get(id(rect), rect.x1) - start, 0.3 * rect.width, 0.1)
        if start > rect.x0 and any(r.intersects(pymupdf.Rect(start, rect.y0, start + width, rect.y1)) for r in shown):
            start, width = rect.x0, rect.width
        if n + 1 < len(line) and rect.width > 3 * natural and line[n + 1][1].x0 > start + natural:
            # a box the OCR stretched over the words after it (a whole line for "(recepce)")
            # stops before the next word of its line
            width = min(width, max(line[n + 1][1].x0 - WORD_GAP * size - start, natural))
        start, width = _clear_of(rect, start, width, shown, centre)
        display.write(page, font, pymupdf.Point(start, baseline), text + " ", size, pymupdf.Matrix(width / natural, 1))
        free = start + width + WORD_GAP * size
        written += 1
    return written


def _clear_of(rect: pymupdf.Rect, start: float, width: float, shown: list, centre: float) -> tuple[float, float]:
    """``(start, width)`` of a word drawn in ``rect`` (as displayed) made to stop short of the
    redaction rectangles ``shown`` on its row: those whose height holds ``centre``, the vertical
    centre of the glyphs as written (points). A comma after a redacted name keeps its own place,
    and no glyph of the text layer has its centre in a black box (what verification checks); a
    box that the stretch reaches ends it, one under its start moves the start past it."""
    end = start + width
    for r in sorted(shown, key=lambda r: r.x0):
        if not r.y0 < centre < r.y1 or r.x1 <= start or r.x0 >= end:
            continue  # a box of the line above or below (their boxes overlap this one's), or clear
        if r.x0 <= start:
            start = r.x1 + 0.25
        else:
            end = r.x0 - 0.25
    return start, max(end - start, 0.1)


def _mostly_under(rect: pymupdf.Rect, rects: list[pymupdf.Rect]) -> bool:
    """Whether half of ``rect`` or more, or its centre, lies under one of ``rects``."""
    centre = pymupdf.Point((rect.x0 + rect.x1) / 2, (rect.y0 + rect.y1) / 2)
    area = abs(rect) or 1e-9
    return any(r.contains(centre) or abs(rect & r) >= 0.5 * area for r in rects)


def _vertical_words(page: pymupdf.Page, display: _Display, line: list, font) -> int:
    """A line of a page scanned sideways (words taller than wide as displayed): each word is
    written on its own, turned 90° to run upwards inside its box, followed by a space."""
    written = 0
    for text, rect in line:
        size = max(2.0, rect.width * 0.7)
        natural = font.text_length(text, fontsize=size)
        if natural <= 0:
            continue
        baseline = pymupdf.Point(rect.x1 - rect.width * 0.25, rect.y1)
        turn = pymupdf.Matrix(rect.height / natural, 1) * pymupdf.Matrix(90)
        display.write(page, font, baseline, text + " ", size, turn)
        written += 1
    return written


def publish_as_pictures(pdf: bytes, pages: dict[int, WrittenText], boxes: list[Box]) -> bytes:
    """``pdf`` (a redacted document) with each of ``pages`` (numbers from 1) replaced by a picture
    of itself, as a scan is published: the page rendered as it looks (its boxes already black in
    the pixels; :func:`~redactor.core.page_repair.as_picture`, same size and rotation) and the
    page's words written as its invisible text layer (:func:`write_words`). ``boxes`` (points,
    pages from 1) are painted black once more before the page is rendered, so the picture can
    only be darker than the burned page where a redaction is. For a page whose text an extractor
    reads other than it was analysed: what the picture shows is what the reviewer saw, and its
    text is the analysed text; no written word reaches into a box. Written anew (``garbage=4``,
    one ``%%EOF``)."""
    doc = open_pdf(pdf)
    try:
        font = pymupdf.Font("helv")
        for number, text in sorted(pages.items()):
            page = doc[number - 1]
            rects = [pymupdf.Rect(b.x0, b.y0, b.x1, b.y1) for b in boxes if b.page == number]
            for rect in rects:
                padded = rect + (-IMAGE_PADDING, -IMAGE_PADDING, IMAGE_PADDING, IMAGE_PADDING)
                page.draw_rect(padded, color=None, fill=(0, 0, 0), overlay=True)
            as_picture(doc, page, PUBLISHED_PICTURE_DPI)
            # the boxes bound the written words too: a word before a redacted one is not stretched
            # over the box to the next word kept
            write_words(doc[number - 1], text.words, font, rects, turn=text.turn)
        return doc.tobytes(garbage=4, deflate=True, no_new_id=False)
    finally:
        doc.close()


def burn_in(
    pdf: bytes,
    boxes: list[Box],
    redacted_texts: list[str],
    written: dict[int, WrittenText] | None = None,
    unread_layers: dict | None = None,
) -> bytes:
    """Return a new PDF with ``boxes`` burned in and every hidden layer cleaned.

    ``boxes`` are in PDF points with pages from 1; ``redacted_texts`` are the strings being
    redacted (used to drop bookmarks that name them). ``written`` (``{page number:
    WrittenText}``) are the words the product writes into a page's text layer (:func:`write_words`):
    a page read by OCR as a whole loses every text it had (another tool's invisible layer
    included) and gets its words outside the boxes; pictures read by OCR get theirs added.
    ``unread_layers`` (``{page number: [(x0, y0, x1, y1)]}``,
    :attr:`TextLayer.unread_layers`) are pictures whose invisible text was not analysed (OCR
    read their pixels instead): that invisible text is removed. Image pixels under the boxes are
    set to black. The input
    bytes are not modified. Raises :class:`~redactor.core.errors.InvalidPdfError` for input
    that cannot be opened.
    """
    doc = open_pdf(pdf)
    written = written or {}
    font = pymupdf.Font("helv") if written else None
    redacted = [_norm(t) for t in redacted_texts if t.strip()]
    by_page: dict[int, list[Box]] = {}
    for box in boxes:
        by_page.setdefault(box.page, []).append(box)
    toc = doc.get_toc(simple=False)
    for page in doc:
        here = by_page.get(page.number + 1, [])
        image_rects = image_boxes(page) if here and not _draws_no_image(doc, page) else []
        rects = [_redaction_rect(page, box, image_rects) for box in here]
        over_images = any(r.intersects(i) for r in rects for i in image_rects)
        masked = over_images and _has_masked_image(doc, page, rects)
        # MuPDF turns an image drawn through a mask opaque when it blanks its pixels: such a
        # page's images are changed by _blacken_pixels alone
        images = pymupdf.PDF_REDACT_IMAGE_NONE if masked else pymupdf.PDF_REDACT_IMAGE_PIXELS
        padded = [r for r, box in zip(rects, here, strict=True) if r != _text_rect(box)]
        for box in here:
            page.add_redact_annot(_text_rect(box), fill=(0, 0, 0), cross_out=False)
        page.apply_redactions(
            images=pymupdf.PDF_REDACT_IMAGE_NONE if padded else images,  # pixels: in the padded pass
            graphics=pymupdf.PDF_REDACT_LINE_ART_REMOVE_IF_COVERED,
            text=pymupdf.PDF_REDACT_TEXT_REMOVE,
        )
        if padded:
            # over an image the box grows by IMAGE_PADDING for the pixels only: the glyphs of a
            # text line next to it (a visible text layer over a scan) stay
            for rect in padded:
                page.add_redact_annot(rect, fill=(0, 0, 0), cross_out=False)
            page.apply_redactions(
                images=images, graphics=pymupdf.PDF_REDACT_LINE_ART_NONE, text=pymupdf.PDF_REDACT_TEXT_NONE
            )
        if over_images:
            # a fresh page object: PyMuPDF caches image information (xrefs) across apply_redactions
            page = doc.reload_page(page)
            _blacken_pixels(doc, page, rects)
        for region in (unread_layers or {}).get(page.number + 1, []):
            page.add_redact_annot(pymupdf.Rect(region), fill=False, cross_out=False)
        if (unread_layers or {}).get(page.number + 1):
            page.apply_redactions(
                images=pymupdf.PDF_REDACT_IMAGE_NONE,
                graphics=pymupdf.PDF_REDACT_LINE_ART_NONE,
                text=pymupdf.PDF_REDACT_TEXT_REMOVE_INVISIBLE,
            )
        text = written.get(page.number + 1)
        if text is not None:
            if text.replace:
                # the page's own text (none, unmapped glyphs, or another OCR tool's layer) goes
                page.add_redact_annot(page_area(page), fill=False, cross_out=False)
                page.apply_redactions(
                    images=pymupdf.PDF_REDACT_IMAGE_NONE,
                    graphics=pymupdf.PDF_REDACT_LINE_ART_NONE,
                    text=pymupdf.PDF_REDACT_TEXT_REMOVE,
                )
            write_words(page, text.words, font, rects, text.turn)
        for widget in list(page.widgets() or []):
            page.delete_widget(widget)
        for annot in list(page.annots() or []):
            page.delete_annot(annot)
        for link in page.get_links():
            page.delete_link(link)
    doc.set_metadata({})
    doc.del_xml_metadata()
    for i in reversed(range(doc.embfile_count())):
        doc.embfile_del(i)
    doc.set_toc(_filter_toc([entry[:3] for entry in toc], redacted))
    data = doc.tobytes(garbage=4, deflate=True, no_new_id=False)
    doc.close()
    return data
