"""Text layer extraction: every character of a PDF with its box, in reading order.

PyMuPDF's ``rawdict`` output gives the characters of each line with their boxes; this module
joins them into one document string (lines separated by ``\\n``) and keeps, for every
character of that string, the box it came from, so that any span found in the text can be
turned back into rectangles to burn in.

Normalisation: each character is NFKC-normalised (ligatures such as "ﬁ" become "fi"; both
characters keep the ligature's box). Line-end hyphenation is undone: inside a number the
hyphen is kept and the line break dropped ("77243-" + "1231372578/2700" is one bank account),
inside a word followed by a lower-case letter both go ("pracov-" + "ní").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pymupdf

from redactor.model import Box, PageInfo, Span
from redactor.pdf.pdf_pages import OCR_MIN_IMAGE_COVERAGE, BboxLog, image_boxes, image_coverage, page_area
from redactor.read.handwriting import InkMark, explained, ink_marks, label_boxes
from redactor.read.layout import (
    COLUMN_GAP,
    Line,
    Tables,
    form_lines,
    form_rows,
    letter_spaced,
    line_text,
    ocr_address_column,
    ocr_party_columns,
    page_lines,
    party_columns,
    without_invisible,
)
from redactor.read.letters import read_as_letters
from redactor.read.lying_layer import FontCheck
from redactor.read.ocr import (
    GARBAGE_MAX_QUALITY,
    LAYER_MIN_AGREEMENT,
    LAYER_MIN_SIMILARITY,
    SAMPLE_MIN_AGREEMENT,
    SCAN_MIN_IMAGE_COVERAGE,
    OcrPage,
    OcrWord,
    ReadAhead,
    described_pictures,
    layer_agrees,
    layer_area,
    layer_sample,
    layer_similarity,
    lost_diacritics,
    may_have_lost_diacritics,
    picture_regions,
    text_quality,
)
from redactor.read.ocr.protocol import Ocr
from redactor.read.unexplained import ink_regions

CharBox = tuple[int, float, float, float, float]  # page (from 1), x0, y0, x1, y1 in points

#: Pages with fewer readable characters than this and mostly covered by images are scans.
OCR_MIN_CHARS = 100
_HYPHENS = "-\u2010\u2011\u00ad"


@dataclass
class Word:
    """A run of non-space characters: its text, span and per-line boxes."""

    text: str
    span: Span
    boxes: list[Box]


@dataclass
class TextLayer:
    """The whole document as one string plus a box for every character.

    ``boxes[i]`` is the box of ``text[i]`` or ``None`` for characters the extractor inserted
    (line breaks, and spaces it had no glyph for).
    """

    text: str
    boxes: list[CharBox | None]
    pages: list[PageInfo]
    ocr_pages: dict[int, OcrPage] = field(default_factory=dict)  # page number -> what OCR read there
    #: page number -> pictures (x0, y0, x1, y1 in points) read by OCR whose invisible text layer
    #: was not analysed (it gave way to the OCR words): burn-in removes that layer
    unread_layers: dict[int, list[tuple[float, float, float, float]]] = field(default_factory=dict)
    #: page number -> span of the words OCR read in the pictures of a text page (they follow the
    #: page's own text): burn-in writes them into the published text layer
    picture_spans: dict[int, Span] = field(default_factory=dict)
    #: page number -> ink on a scanned page that no word explains (signatures, stamps;
    #: :func:`scan_ink`), for :mod:`redactor.decide.signatures`
    ink_marks: dict[int, list[InkMark]] = field(default_factory=dict)
    #: page number -> its :meth:`layer_words` (whole page, nothing redacted), asked for by several
    #: decisions and checks, with the text and boxes they were read from (kept only while those
    #: are the layer's own)
    _page_words: dict[int, tuple[str, list[CharBox | None], list[tuple[Span, OcrWord]]]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    @property
    def pages_needing_ocr(self) -> list[int]:
        """Numbers (from 1) of pages that have no usable text layer."""
        return [p.number for p in self.pages if p.needs_ocr]

    def span_boxes(self, span: Span) -> list[Box]:
        """Rectangles covering ``span``: one per line and page, in PDF points.

        Characters without a box are skipped; a span made only of such characters gives an
        empty list.
        """
        rects: list[Box] = []
        current: list[float] | None = None
        current_page = 0
        last_y = None
        for i in range(span.start, span.end):
            box = self.boxes[i]
            if box is None:
                continue
            page, x0, y0, x1, y1 = box
            mid = (y0 + y1) / 2
            same_line = (
                current is not None
                and page == current_page
                and last_y is not None
                and abs(mid - last_y) < max(2.0, (y1 - y0) * 0.5)
                and x0 >= current[0] - 1.0
            )
            if same_line and current is not None:
                current[0] = min(current[0], x0)
                current[1] = min(current[1], y0)
                current[2] = max(current[2], x1)
                current[3] = max(current[3], y1)
            else:
                if current is not None:
                    rects.append(Box(current_page, *current))
                current = [x0, y0, x1, y1]
                current_page = page
            last_y = mid
        if current is not None:
            rects.append(Box(current_page, *current))
        return rects

    def page_of(self, offset: int) -> int:
        """The number (from 1) of the page whose text holds ``offset`` of :attr:`text`."""
        for info in self.pages:
            if info.start <= offset < info.end:
                return info.number
        return self.pages[-1].number if self.pages else 0

    def written_pages(self) -> dict[int, Span | None]:
        """Where the product writes the published text layer itself, by page number (from 1):
        ``None`` for a page read by OCR as a whole (its text is replaced), the span of the
        picture words for a text page whose pictures were read by OCR (their text is added).
        A kept layer (born-digital text, another tool's checked OCR layer) is not written: it
        stays as it is outside the redactions; nor is a page whose visible text lost its
        diacritics (``text_misread``): the engine publishes it as its picture with the words."""
        out: dict[int, Span | None] = {}
        for info in self.pages:
            if info.text_misread:
                continue  # its visible text is burned as it is, then the page goes as a picture
            if info.ocr:
                out[info.number] = None
            elif info.number in self.picture_spans:
                out[info.number] = self.picture_spans[info.number]
        return out

    def pixel_spans(self) -> list[Span]:
        """Where :attr:`text` was read from pixels by an OCR (ours or another tool's kept layer),
        where a digit may be misread: the pages read as scans or pictures whole, and the words
        read in a text page's pictures."""
        out = [Span(p.start, p.end) for p in self.pages if p.ocr or p.scan_layer or p.pictured]
        return out + [s for n, s in self.picture_spans.items() if not any(p.number == n and p.ocr for p in self.pages)]

    def layer_words(
        self, number: int, span: Span | None = None, redacted: list[Span] | None = None
    ) -> list[tuple[Span, OcrWord]]:
        """The words of page ``number`` (from 1), or of its ``span``, as ``(Span, OcrWord)``
        pairs: where the word is in :attr:`text`, and the word with one box (points, unrotated
        page space), numbered by its line of the text (which may join two printed lines, a
        number broken at "-"): what burn-in writes as an invisible text layer. Characters of the
        ``redacted`` spans are left out, so a word is cut where a redaction ends ("Novákovi,"
        keeps its comma)."""
        if span is None and not redacted:
            known = self._page_words.get(number)
            if known is None or known[0] is not self.text or known[1] is not self.boxes:
                known = (self.text, self.boxes, self._layer_words(number, None, None))
                self._page_words[number] = known
            return list(known[2])
        return self._layer_words(number, span, redacted)

    def _layer_words(self, number: int, span: Span | None, redacted: list[Span] | None) -> list[tuple[Span, OcrWord]]:
        """:meth:`layer_words`, computed."""
        info = self.pages[number - 1]
        start, end = (info.start, info.end) if span is None else (span.start, span.end)
        chars = list(self.text[start:end])
        for r in redacted or ():
            for i in range(max(r.start, start), min(r.end, end)):
                chars[i - start] = " "
        words = []
        offset = start
        for line_no, line in enumerate("".join(chars).split("\n")):
            line_start, offset = offset, offset + len(line) + 1
            for m in re.finditer(r"\S+", line):
                here = Span(line_start + m.start(), line_start + m.end())
                # the union of the word's line boxes on this page is that of its characters there
                boxes = [b for b in self.boxes[here.start : here.end] if b is not None and b[0] == number]
                if boxes:
                    x0, y0 = min(b[1] for b in boxes), min(b[2] for b in boxes)
                    x1, y1 = max(b[3] for b in boxes), max(b[4] for b in boxes)
                    angle = self._direction(here)
                    word = OcrWord(m.group(), x0, y0, x1, y1, 100.0, (line_no, 0, 0), angle)
                    words.append((here, word))
        return words

    def _direction(self, span: Span) -> int:
        """Which way the characters of ``span`` run, as :attr:`~redactor.read.ocr.OcrWord.angle`:
        0 left to right, 90 upwards, 180 right to left (a sheet upside down), 270 downwards; 0 for
        a single character."""
        boxes = [b for b in self.boxes[span.start : span.end] if b is not None]
        if len(boxes) < 2:
            return 0
        dx = (boxes[-1][1] + boxes[-1][3]) / 2 - (boxes[0][1] + boxes[0][3]) / 2
        dy = (boxes[-1][2] + boxes[-1][4]) / 2 - (boxes[0][2] + boxes[0][4]) / 2
        if abs(dx) >= abs(dy):
            return 0 if dx >= 0 else 180
        return 90 if dy < 0 else 270

    def words(self) -> list[Word]:
        """Every whitespace-separated word with its span and boxes, in reading order."""
        return [
            Word(m.group(), Span(m.start(), m.end()), self.span_boxes(Span(m.start(), m.end())))
            for m in re.finditer(r"\S+", self.text)
        ]


class _Builder:
    """Accumulates characters and boxes while applying the de-hyphenation rules."""

    def __init__(self) -> None:
        self.chars: list[str] = []
        self.boxes: list[CharBox | None] = []

    def add(self, ch: str, box: CharBox | None) -> None:
        for c in unicodedata.normalize("NFKC", ch):
            if c in "\r\n\t\f\v" or (c.isspace() and c != " "):
                c = " "
            self.chars.append(c)
            self.boxes.append(box)

    def strip_trailing_spaces(self) -> None:
        while self.chars and self.chars[-1] == " ":
            self.chars.pop()
            self.boxes.pop()

    def break_line(self, next_line: str) -> None:
        """End the current line before a line starting with ``next_line``."""
        self.strip_trailing_spaces()
        if not self.chars or self.chars[-1] == "\n":
            return
        first = next_line.lstrip()[:1]
        if len(self.chars) >= 2 and self.chars[-1] in _HYPHENS and first:
            before = self.chars[-2]
            if before.isdigit() and first.isdigit():
                return  # a number broken after its hyphen: keep the hyphen, drop the break
            if before.isalpha() and first.isalpha():
                if first.islower():
                    self.chars.pop()  # a word hyphenated at the line end
                    self.boxes.pop()
                return  # before an upper-case letter it is a compound: "Frýdek-Místek"

        self.chars.append("\n")
        self.boxes.append(None)


def _scan_with_text_layer(page: pymupdf.Page, coverage: float, text: str) -> bool:
    """True for a scanned page that carries a text layer of another OCR tool: images cover
    most of it and its text is mostly invisible (render mode 3) or reads as garbage."""
    if coverage < SCAN_MIN_IMAGE_COVERAGE or not text.strip():
        return False
    return _invisible_share(page) >= 0.5 or text_quality(text) < GARBAGE_MAX_QUALITY


def _invisible_share(page: pymupdf.Page) -> float:
    """Share (0..1) of the page's characters drawn invisibly (render mode 3 or fully transparent):
    the mark of an OCR layer laid over a scan."""
    spans = page.get_texttrace()
    total = sum(len(s["chars"]) for s in spans)
    invisible = sum(len(s["chars"]) for s in spans if s.get("type") == 3 or s.get("opacity", 1) == 0)
    return invisible / total if total else 0.0


#: A gap between two words of one OCR line wider than this (points) stands between two columns (a
#: signature row's "…, starosta" and the other party's signatory): it is written as three spaces,
#: which a function of office is not linked across (:mod:`redactor.detect.roles`).
COLUMN_BREAK = 4 * COLUMN_GAP
#: An OCR word made only of glyphs that specks, stamps' edges and table rules are read as.
_SPECK = re.compile(r"[©®*|¦•~^`'\";]+")


def _add_ocr_words(builder: _Builder, number: int, result: OcrPage, page: pymupdf.Page) -> int:
    """Feed OCR words into ``builder`` line by line (a party table read column by column, see
    :func:`ocr_party_columns`, or an addressee's block apart from the lines beside it, see
    :func:`ocr_address_column`; else a two-column form read row by row, see :func:`form_rows`);
    each character gets an equal share of its word's box. Returns the number of characters added."""
    # specks OCR read as glyphs ("©", "|", "*'") stand between a label and its value ("jednatel: ©
    # Jan …"): they are no text of the page
    lines = [kept for line in result.lines() if (kept := [w for w in line if not _SPECK.fullmatch(w.text)])]
    upright = not any(w.angle for w in result.words)  # a page scanned on its side has no form columns
    columns = None
    if upright and not page.rotation:
        columns = ocr_party_columns(lines) or ocr_address_column(lines, COLUMN_BREAK)
    if columns is not None:
        lines = columns
    shown = page.rotation_matrix
    rects = []
    for line in lines:
        box = pymupdf.Rect(line[0].x0, line[0].y0, line[0].x1, line[0].y1)
        for w in line[1:]:
            box |= pymupdf.Rect(w.x0, w.y0, w.x1, w.y1)
        rects.append((box * shown).normalize())
    # a party table read column by column is not also read as a form
    groups = (upright and columns is None and form_rows(rects, [" ".join(w.text for w in line) for line in lines])) or [
        [i] for i in range(len(lines))
    ]
    count = 0
    for group in groups:
        words = [w for i in group for w in lines[i]]
        builder.break_line(words[0].text[:3])
        for k, w in enumerate(words):
            if k:
                prev = words[k - 1]
                wide = w.x0 - prev.x1 > COLUMN_BREAK and abs(w.y0 - prev.y0) < 3
                for _ in range(3 if wide else 1):
                    builder.add(" ", None)
            for i, ch in enumerate(w.text):
                builder.add(ch, (number, *w.char_box(i)))
                count += 1
    return count


def extract_text_layer(
    doc: pymupdf.Document,
    pdf: bytes | None = None,
    progress: Callable[[int, int], None] | None = None,
    ocr: Ocr | None = None,
    regions: dict[int, list[tuple[float, float, float, float]]] | None = None,
    distrust: set[int] | frozenset[int] = frozenset(),
    images: dict[int, list[tuple[float, float, float, float]]] | None = None,
    logs: dict[int, BboxLog] | None = None,
) -> TextLayer:
    """Extract every page's characters with boxes into a :class:`TextLayer`.

    ``pdf`` (the document's bytes) lets pdfplumber's table analysis bound party tables (see
    :func:`party_columns`); without it the column heuristic alone applies. Pages are separated
    by a line break. A page has no usable text layer when it has fewer than ``OCR_MIN_CHARS``
    readable characters while images cover at least ``OCR_MIN_IMAGE_COVERAGE`` of it, or when
    most of its characters have no Unicode mapping; with ``ocr`` (an available
    :class:`~redactor.read.ocr.protocol.Ocr`: Tesseract, or a replay) such a page, and a scanned page
    with another tool's invisible or garbled text layer, is read by OCR and its words replace
    the layer (``PageInfo.ocr``, ``ocr_replaced``, ``ocr_confidence``); without it the page is
    marked ``needs_ocr``. ``regions`` (``{page number: [(x0, y0, x1, y1)]}``,
    :attr:`~redactor.pdf.rebuild.Rebuilt.regions`) are pictures the rebuild made of glyphs
    without meaning: they are read by OCR whatever their size. ``distrust``: pages whose other
    tool's OCR layer is replaced by OCR even where it agrees with the page (it was found off the
    pixels where a redaction falls). ``images`` (``{page number: [(x0, y0, x1, y1)]}``,
    :attr:`~redactor.pdf.rebuild.Rebuilt.images`) are the images of the pages the rebuild
    measured; the others are measured here, as are the bbox logs (MuPDF's ``get_bboxlog()``) of the
    pages not in ``logs`` (:attr:`~redactor.pdf.rebuild.Rebuilt.logs`, those of ``doc`` the rebuild
    ran already). ``progress(done, total)`` is called after each page (pages from 1).
    """
    tables = Tables(pdf)
    use_ocr = ocr is not None and ocr.available()
    ahead = None
    if ocr is not None and use_ocr and ocr.parallel > 1:
        # pages without text under a page-sized image, and the bands that check another tool's
        # layer on a scan, are read ahead on the cores the job may use
        bands = {p.number + 1: b for p in doc if (b := _likely_band(p, distrust)) is not None}
        ahead = ocr.read_ahead(doc, [p.number + 1 for p in doc if _bare_scan(p)], bands)
    try:
        inputs = _Inputs(tables, ocr if use_ocr else None, ahead, regions or {}, distrust, images or {}, logs or {})
        return _extract(doc, inputs, progress)
    finally:
        if ahead is not None:
            ahead.close()
        tables.close()


def scan_ink(
    doc: pymupdf.Document, layer: TextLayer, progress: Callable[[int, int], None] | None = None
) -> dict[int, list[InkMark]]:
    """The ink no word explains (:func:`~redactor.read.handwriting.ink_marks`) on each page of
    ``doc`` that is a scan (images cover at least :data:`SCAN_MIN_IMAGE_COVERAGE` of it), by page
    number (from 1). The words that explain ink are those OCR read there with confidence
    (:func:`~redactor.read.handwriting.explained`), or the page's kept text layer; a pen's strokes
    across a block's label stay ink (:func:`~redactor.read.handwriting.label_boxes`).
    ``progress(done, total)`` is called after each scanned page (counted from 1 among them)."""
    out: dict[int, list[InkMark]] = {}
    scanned = [info for info in layer.pages if info.image_coverage >= SCAN_MIN_IMAGE_COVERAGE]
    for done, info in enumerate(scanned, start=1):
        if progress is not None:
            progress(done - 1, len(scanned))
        read = layer.ocr_pages.get(info.number)
        if read is not None and read.clip is None:
            boxes = explained((w.text, w.x0, w.y0, w.x1, w.y1, w.confidence) for w in read.words)
        else:
            boxes = [(w.x0, w.y0, w.x1, w.y1) for _span, w in layer.layer_words(info.number)]
        words = [(w.text, w.line[0], (w.x0, w.y0, w.x1, w.y1)) for _span, w in layer.layer_words(info.number)]
        marks = ink_marks(doc[info.number - 1], boxes, label_boxes(words))
        if marks:
            out[info.number] = marks
        if progress is not None:
            progress(done, len(scanned))
    return out


def _likely_band(page: pymupdf.Page, distrust: set[int] | frozenset[int]) -> pymupdf.Rect | None:
    """The band :func:`_extract` will most likely read to check the other tool's layer of
    scanned ``page`` (:func:`layer_sample`), to read it ahead; None for a page that will not be so
    checked. A wrong guess costs a read that is not used: extraction takes a band read ahead
    only when it is the one it asks for."""
    if page.rotation or page.number + 1 in distrust or _bare_scan(page):
        return None
    text = page.get_text()
    if not _scan_with_text_layer(page, image_coverage(page), text) or text_quality(text) < GARBAGE_MAX_QUALITY:
        return None
    return layer_sample([w[:5] for w in page.get_text("words")], page.rect)


def _bare_scan(page: pymupdf.Page) -> bool:
    """A page that is an image with (almost) no text: OCR will read it in full."""
    return len(page.get_text().strip()) < OCR_MIN_CHARS and image_coverage(page) >= OCR_MIN_IMAGE_COVERAGE


@dataclass
class _Inputs:
    """What every page of one extraction is read with: ``ocr`` (None when no OCR is available),
    ``ahead`` (pages read ahead, :class:`~redactor.read.ocr.ReadAhead`, or None), ``drawn`` (the
    regions to read by OCR whatever their size), ``distrust`` (the pages whose foreign layer is
    replaced), ``known`` (the images of the pages the rebuild measured), ``logs`` (the bbox logs it
    ran) and the party ``tables``."""

    tables: Tables
    ocr: Ocr | None
    ahead: ReadAhead | None
    drawn: dict[int, list[tuple[float, float, float, float]]]
    distrust: set[int] | frozenset[int]
    known: dict[int, list[tuple[float, float, float, float]]]
    logs: dict[int, BboxLog] = field(default_factory=dict)
    fonts: FontCheck = field(default_factory=FontCheck)


@dataclass
class _Page:
    """One page as :func:`_extract` reads it: its lines in reading order, its images and the share
    of the page they cover, how much of its text reads, whether it needs OCR (a scan) or carries
    another tool's OCR layer (``replaced`` until that layer is checked and kept), and what was
    read of it: OCR's ``result`` (``kept_layer`` when it confirmed the other tool's layer,
    ``misread`` when it read diacritics the text lost or the page is set in a font whose Unicode
    map lies, :mod:`redactor.read.lying_layer`) and the ``pictures`` read on a text page; ``raw``
    is its ``get_text("rawdict")`` until the fonts are checked."""

    page: pymupdf.Page
    number: int
    lines: list[Line]
    images: list[pymupdf.Rect]
    coverage: float
    readable: int
    needs_ocr: bool
    replaced: bool
    result: OcrPage | None = None
    kept_layer: bool = False
    misread: bool = False
    pictures: OcrPage | None = None
    raw: dict[str, Any] | None = None

    @classmethod
    def of(cls, page: pymupdf.Page, inputs: _Inputs) -> _Page:
        """The page's lines (party tables column by column, a form row by row) and what they tell."""
        raw = page.get_text("rawdict", flags=pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP)
        read_lines = page_lines(raw)
        lines = party_columns(read_lines, inputs.tables, page)
        if lines == read_lines:  # a party table read column by column is not also read as a form
            lines = form_lines(lines, page)
        readable = sum(1 for _b, chars in lines for c in chars if c["c"] != "\ufffd" and not c["c"].isspace())
        unreadable = sum(1 for _b, chars in lines for c in chars if c["c"] == "\ufffd")
        images = image_boxes(page, known=inputs.known.get(page.number + 1))
        coverage = image_coverage(page, images)
        needs_ocr = (readable < OCR_MIN_CHARS and coverage >= OCR_MIN_IMAGE_COVERAGE) or (unreadable > readable)
        replaced = not needs_ocr and _scan_with_text_layer(page, coverage, "".join(line_text(ln) for ln in lines))
        return cls(page, page.number + 1, lines, images, coverage, readable, needs_ocr, replaced, raw=raw)

    def info(self, start: int, end: int) -> PageInfo:
        """The page's :class:`PageInfo`, its text from ``start`` to ``end`` of the layer."""
        area = page_area(self.page)
        result = self.result
        return PageInfo(
            number=self.number,
            width=area.width,
            height=area.height,
            start=start,
            end=end,
            char_count=self.readable,
            image_coverage=round(self.coverage, 3),
            needs_ocr=self.needs_ocr and result is None,
            ocr=result is not None and not self.kept_layer,
            ocr_replaced=self.replaced and result is not None,
            ocr_confidence=round(result.mean_confidence, 1) if result is not None else None,
            scan_layer=self.kept_layer,
            pictures_read=self.pictures is not None,
            text_misread=self.misread,
        )


def _check_foreign_layer(p: _Page, ocr: Ocr, inputs: _Inputs) -> None:
    """Read a scan that carries another tool's OCR layer (``p.replaced``): the layer is kept when
    it reads well and sits on the image, else replaced.

    A layer that reads well is better kept (it often reads tables Tesseract misses, and it is the
    text the agency published, diacritics or not); one that is garbled or shifted is replaced.
    Where it sits is checked on a band of the page first; only a layer the band does not clearly
    confirm costs a full read, and then the page's words decide: enough of them the same, or (a
    poor scan both readers read differently) most of them alike at the same places. A layer found
    off the pixels where a redaction falls (``distrust``, see ``RedactionEngine.analyze``) is
    replaced whatever the rest of the page says; the read remembers it, so that publishing
    replays the same text."""
    page, number = p.page, p.number
    existing = [w[:5] for w in page.get_text("words")]
    if text_quality(" ".join(w[4] for w in existing)) < GARBAGE_MAX_QUALITY:
        return
    band = layer_sample(existing, page.rect) if not page.rotation and number not in inputs.distrust else None
    sample = None
    if band is not None:
        sample = (inputs.ahead.take(number, band) if inputs.ahead is not None else None) or ocr.check_layer(page, band)
    if sample is not None and layer_agrees(existing, sample) >= SAMPLE_MIN_AGREEMENT:
        p.result, p.kept_layer, p.replaced = sample, True, False
        return
    p.result = ocr.recognize(page)
    if p.result is not None and number in inputs.distrust:
        p.result.layer_off = True
    if (
        p.result is not None
        and not p.result.layer_off
        and (
            layer_agrees(existing, p.result) >= LAYER_MIN_AGREEMENT
            or layer_similarity(existing, p.result) >= LAYER_MIN_SIMILARITY
        )
    ):
        p.kept_layer, p.replaced = True, False


def _check_lost_diacritics(p: _Page, ocr: Ocr) -> None:
    """Visible text on a scan whose Unicode lost the diacritics its glyphs show: what the page
    shows is what Tesseract reads, and the page is published as its picture (``p.misread``)."""
    if may_have_lost_diacritics("".join(line_text(ln) for ln in p.lines)):
        sample = ocr.recognize(p.page)
        existing = [w[:5] for w in p.page.get_text("words")]
        if sample is not None and lost_diacritics(existing, sample):
            p.result, p.misread = sample, True


def _read_pictures(p: _Page, ocr: Ocr, inputs: _Inputs) -> list[tuple[float, float, float, float]] | None:
    """Read the pictures on a text page (a pasted ID card) and the ink the page shows that no
    character with a meaning explains (a small picture of text, a masked image, outlines the
    rebuild did not turn into a picture), outside the pictures read anyway and those a visible
    text layer describes; their words follow the page's text (``p.pictures``). Returns the areas
    whose invisible text gave way to the words read there, or None when nothing was read."""
    page, lines = p.page, p.lines
    visible = [c["bbox"] for _b, cs in lines for c in cs if c["bbox"] and not c.get("invisible")]
    hidden = [c["bbox"] for _b, cs in lines for c in cs if c["bbox"] and c.get("invisible")]
    forced = [pymupdf.Rect(r) for r in inputs.drawn.get(p.number, [])]
    found = picture_regions(page, visible, p.images, hidden)
    regions = forced + [r for r in found if not any(r in f for f in forced)]
    described = described_pictures(page, visible, p.images)
    regions += ink_regions(page, [tuple(r) for r in regions + described], log=inputs.logs.get(p.number))
    p.pictures = ocr.read_pictures(page, regions) if regions else None
    if p.pictures is None:
        return None
    areas = [layer_area(r) for r in regions]
    p.lines = without_invisible(lines, areas)
    return [(r.x0, r.y0, r.x1, r.y1) for r in areas]


def _add_lines(builder: _Builder, number: int, lines: list[Line]) -> None:
    """The characters of a page's text ``lines``, each with its box, line after line."""
    for _bbox, chars in lines:
        chars = letter_spaced(read_as_letters(chars))
        builder.break_line("".join(c["c"] for c in chars[:3]))
        for c in chars:
            if c["bbox"] is None:
                builder.add(c["c"], None)
                continue
            x0, y0, x1, y1 = c["bbox"]
            builder.add(c["c"], (number, x0, y0, x1, y1))


def _read_ocr(p: _Page, inputs: _Inputs) -> None:
    """What OCR reads of the page: a foreign layer checked, lost diacritics looked for on a
    scan's visible text, and a scan (or a replaced layer) read in full."""
    ocr = inputs.ocr
    if ocr is None:
        return
    if p.replaced:
        _check_foreign_layer(p, ocr, inputs)
    if p.result is None and not (p.needs_ocr or p.replaced) and p.coverage >= SCAN_MIN_IMAGE_COVERAGE:
        _check_lost_diacritics(p, ocr)
    if p.result is None and not (p.needs_ocr or p.replaced) and p.raw is not None:
        if inputs.fonts.page_lies(p.page, p.raw, ocr):
            # a font's map names other characters than its glyphs show: the page is read as shown
            p.result, p.misread = ocr.recognize(p.page), True
    p.raw = None
    if p.result is None and (p.needs_ocr or p.replaced):
        p.result = (inputs.ahead.take(p.number) if inputs.ahead is not None else None) or ocr.recognize(p.page)


def _extract(
    doc: pymupdf.Document,
    inputs: _Inputs,
    progress: Callable[[int, int], None] | None,
) -> TextLayer:
    """:func:`extract_text_layer`'s page loop: each page's context (:class:`_Page`), what OCR
    reads of it, its text (OCR's words on a scan, its own lines and the words read in its
    pictures on a text page) and its :class:`PageInfo`."""
    builder = _Builder()
    pages: list[PageInfo] = []
    ocr_pages: dict[int, OcrPage] = {}
    unread: dict[int, list[tuple[float, float, float, float]]] = {}
    pictured_spans: dict[int, Span] = {}
    for page in doc:
        p = _Page.of(page, inputs)
        number, start = p.number, len(builder.chars)
        _read_ocr(p, inputs)
        if p.result is not None:
            ocr_pages[number] = p.result
        if p.result is not None and not p.kept_layer:
            p.readable = _add_ocr_words(builder, number, p.result, page)
        else:
            p.replaced = False
            if inputs.ocr is not None and p.result is None and not p.needs_ocr:
                areas = _read_pictures(p, inputs.ocr, inputs)
                if areas is not None:
                    unread[number] = areas
            _add_lines(builder, number, p.lines)
            if p.pictures is not None:
                ocr_pages[number] = p.pictures
                builder.break_line(p.pictures.words[0].text[:3])
                first = len(builder.chars)
                _add_ocr_words(builder, number, p.pictures, page)
                pictured_spans[number] = Span(first, len(builder.chars))
        builder.strip_trailing_spaces()
        if builder.chars and builder.chars[-1] != "\n":
            builder.chars.append("\n")
            builder.boxes.append(None)
        pages.append(p.info(start, len(builder.chars)))
        if progress is not None:
            progress(number, doc.page_count)
    return TextLayer(
        text="".join(builder.chars),
        boxes=builder.boxes,
        pages=pages,
        ocr_pages=ocr_pages,
        unread_layers=unread,
        picture_spans=pictured_spans,
    )
