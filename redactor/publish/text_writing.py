"""The text layer of a published page that has none of its own: the OCR words outside the boxes
written as invisible text where the page shows them (:func:`write_words`, turned with a page
scanned on its side), and pages published as pictures with their words written over them
(:func:`publish_as_pictures`). Boxes in PDF points (unrotated page space); pages from 1."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

import pymupdf

from redactor.model import Box
from redactor.pdf.page_repair import as_picture
from redactor.pdf.pdf_pages import IMAGE_PADDING, open_pdf
from redactor.read.ocr import OcrWord


class _Display:
    """The page as its text is read: /Rotate applied, then turned ``turn`` degrees clockwise
    (0, 90, 180, 270: a sheet scanned on its side or upside down, whose words OCR read turned,
    :attr:`~redactor.read.ocr.OcrWord.angle`). Lines run left to right there, so the invisible
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

    def write(
        self,
        page: pymupdf.Page,
        font: pymupdf.Font,
        point: pymupdf.Point,
        text: str,
        size: float,
        morph: pymupdf.Matrix,
    ) -> None:
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


#: A word as written: its text and its rectangle as the page is displayed (points).
Placed = tuple[str, pymupdf.Rect]


@dataclass(frozen=True)
class WrittenText:
    """Words the product writes into a page's published text layer (invisible, render mode 3):
    :class:`~redactor.read.ocr.OcrWord` values with boxes in points (unrotated page space) and
    line numbers; ``replace``: the page's own text goes first (a page read by OCR as a whole, or
    published as a picture), otherwise the words are added to it (pictures read by OCR)."""

    words: list[OcrWord]
    replace: bool = True

    @property
    def turn(self) -> int:
        """Which way most words run (:attr:`~redactor.read.ocr.OcrWord.angle` of the words of two
        or more characters; 0 when none): the layer is laid out with the page turned that way."""
        turns = Counter(w.angle for w in self.words if len(w.text) >= 2)
        return turns.most_common(1)[0][0] if turns else 0


def write_words(
    page: pymupdf.Page,
    words: Iterable[OcrWord],
    font: pymupdf.Font,
    rects: Iterable[pymupdf.Rect] = (),
    turn: int = 0,
) -> int:
    """Write ``words`` (:class:`~redactor.read.ocr.OcrWord`, boxes in points, unrotated page
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
    lines: dict[tuple[int, int, int], list[Placed]] = {}
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


def _line_size(line: list[Placed]) -> float:
    """The font size (points) of a printed line of ``(text, rectangle)``: from its median word
    box, so one tall box (a word the OCR layer stretched over two lines) does not give it a giant
    font that extractors merge with the next line."""
    median: float = sorted(r.height for _t, r in line)[len(line) // 2]
    return max(2.0, median * 0.8)


def _room(lines: list[list[Placed]], sizes: dict[int, float]) -> dict[int, float]:
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


def _printed_lines(line: list[Placed]) -> list[list[Placed]]:
    """A text line's words (text, rectangle as displayed) split into the printed lines they lie
    on: a word that does not share at least 30 % of its height with the word before it (a skewed
    scan drifts a little along a line, a new line does not overlap), or lies back to the left,
    starts a new one (a text line may join two printed lines, a number broken at its hyphen)."""
    out: list[list[Placed]] = []
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
    page: pymupdf.Page,
    display: _Display,
    line: list[Placed],
    font: pymupdf.Font,
    ends: dict[int, float],
    shown: list[pymupdf.Rect],
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


def _clear_of(
    rect: pymupdf.Rect, start: float, width: float, shown: list[pymupdf.Rect], centre: float
) -> tuple[float, float]:
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


def _vertical_words(page: pymupdf.Page, display: _Display, line: list[Placed], font: pymupdf.Font) -> int:
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
    the pixels; :func:`~redactor.pdf.page_repair.as_picture`, same size and rotation) and the
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
        published: bytes = doc.tobytes(garbage=4, deflate=True, no_new_id=False)
        return published
    finally:
        doc.close()
