"""The reader's check: what a reader of the published pages can read that the analysis did not decide.

Verification (:mod:`redactor.publish.verify`) proves that what the analysis decided to redact is
gone from the published file. It cannot see what the analysis never found: a value the OCR
misread, a line drawn as outlines, a page drawn through an image's soft mask, a surname the
gazetteers do not know. This check starts from the published pages instead, as a reader sees
them, and asks what personal data they still show:

1. **Reading** (:func:`read_published`): each published page's text layer (every word an
   extractor gets, visible or not), and an OCR of the page as a viewer renders it (MuPDF:
   masks, blend modes, outlines, pictures) wherever its pixels are not explained by that layer
   (:func:`~redactor.read.unexplained.unexplained_ink`): the whole page when that is most of it
   (a scan, a page published as a picture) or lies on most of its lines, else the lines of those
   regions. The OCR reads at its own resolution and segmentation (:data:`PAGE_DPI`, ``--psm 3``
   on a page; the band reader of :mod:`redactor.publish.legibility` on lines), on the rendered
   page itself, never on an image object.
2. **Looking** (:func:`look`): the recognizers that need no context to be sure of what they
   find (:data:`CHECK_RECOGNIZERS`: birth numbers with their checksum, ID card and passport
   numbers after their cue, dates after "nar."/"narozen", phones, e-mails, bank accounts and
   IBANs, home addresses after "bytem", "trvale bytem", "bydliště", "trvalý pobyt", the values
   of a signature certification clause), over the reading with the usual OCR confusions of
   digits undone; and every part (three letters or more) of every name the analysis redacted,
   in every inflected form and one OCR error apart (the rule of
   :func:`~redactor.detect.recognizers.persons.names_agree`).
3. **Judging**: a value found is *decided* when it lies under a redaction box, when a proposal
   of its kind (its category; any part of a name for a name part) that the analysis or a reviewer
   kept stands at its place or carries its text, when a review item stands there, or when the
   category map does not redact its category at all. Everything else is a :class:`ReaderFinding`:
   the contract goes back to review with a box proposed on it (web and API), or the command line
   lists it as a review item and exits saying review is needed. Nothing is published unseen.

Boxes are PDF points of the unrotated page; pages count from 1.
"""

from __future__ import annotations

import re
import time
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import phonenumbers
import pymupdf

from redactor import categories as cat
from redactor.czech import NameGazetteer, folded_nominative_candidates
from redactor.decide.decision_rules import category_name
from redactor.decide.decisions import resolve_overlaps
from redactor.detect.nlp import NlpArtifacts
from redactor.detect.recognizers.base import AnalysisContext, RecognizerRegistry
from redactor.detect.recognizers.persons import NEAR_NAME_MIN_CHARS
from redactor.detect.recognizers.registry import DEFAULT_RECOGNIZERS, build_recognizer
from redactor.model import Action, Box, Finding, ProposedRedaction, Span
from redactor.pdf.pdf_pages import page_area
from redactor.publish.legibility import find, fold, line_rows, read_bands, street_value
from redactor.read.letters import reader_letters
from redactor.read.ocr.tesseract import thread_limit
from redactor.read.unexplained import unexplained_ink
from redactor.reasons import Reason, term
from redactor.text import sentence_spans

if TYPE_CHECKING:  # only the types
    from PIL import Image

    from redactor.decide.category_map import CategoryMap
    from redactor.read.ocr.tesseract import Found, TesseractOcr

#: The recognizers run over the reading: those that need no context beyond their own cue to be
#: sure that what they find is a person's datum (the person recognizer, which needs the whole
#: document's parties, is replaced by the search for the redacted names' parts).
CHECK_RECOGNIZERS = (
    "iban",
    "bank_account",
    "birth_number",
    "document_number",
    "date_of_birth",
    "certification_clause",
    "email",
    "phone",
    "address",
)
#: Resolution (dpi) at which a page read whole is rendered for the check's OCR: another than the
#: analysis' 300 dpi and the band reader's 200 dpi, enough for a scan's 8-point print.
PAGE_DPI = 150
#: Share of the page that unexplained ink must cover for the page to be read whole (a scan's text is
#: all unexplained; a scan under its own visible text leaves its stamps and signatures).
WHOLE_PAGE_SHARE = 0.25
#: Share of the page's height that the lines holding unexplained ink must cover for the page to be
#: read whole all the same (a scan under the product's own text layer: specks and strokes on every
#: line): so many lines cut out and read apart cost more than the page read once.
WHOLE_PAGE_LINES = 0.5
#: A found value lying this share (0..1) or more under redaction boxes is covered, not legible.
COVERED_SHARE = 0.5
#: A kept proposal's box overlapping a found value's by this share (0..1) of the smaller one is at its place.
SAME_PLACE_SHARE = 0.3
#: Shortest redacted value (folded characters) looked for whole in a page's picture.
VALUE_MIN_CHARS = 6
#: Shortest name part (letters) looked for: two letters are read everywhere.
NAME_PART_MIN_CHARS = 3

#: The phone recognizer's score for a number after a cue ("tel.", "mobil", "telefon").
PHONE_CUED_SCORE = 0.95
#: A phone number as people write one without a cue: nine digits, in threes or not, maybe after +420.
_PHONE_SHAPE = re.compile(r"(?:\+420[ ]?)?\d{3}[ ]?\d{3}[ ]?\d{3}")
#: A date inside what a recognizer took for a phone number.
_DATE = re.compile(r"\d{1,2}\.\s?\d{1,2}\.\s?\d{2,4}")
#: Digits as OCR misreads them in a number (O and o for 0; l, I, |, ! for 1; S for 5; B for 8).
_DIGIT_CONFUSIONS = str.maketrans({"O": "0", "o": "0", "l": "1", "I": "1", "|": "1", "!": "1", "S": "5", "B": "8"})


@dataclass(frozen=True)
class ReaderFinding:
    """Personal data a reader can read on published page ``page`` (from 1) that the analysis did
    not decide: its ``rect`` (points, unrotated page), the ``text`` as read (in memory and in the
    review item only: reports name it by category), its ``category`` (the category map's ID), what
    found it (``found_by``: a recognizer's name, or ``"name part"``) and where it was read
    (``read_in``: ``"text layer"`` or ``"page picture"``)."""

    page: int
    rect: tuple[float, float, float, float]
    text: str
    category: int
    found_by: str
    read_in: str

    @property
    def box(self) -> Box:
        """The box proposed on the value (points)."""
        return Box(self.page, *self.rect)


@dataclass
class ReaderCheck:
    """What :func:`reader_check` found (``findings``, in page order) and what it looked at
    (``checked``: counts and seconds, never values)."""

    findings: list[ReaderFinding] = field(default_factory=list)
    checked: dict[str, Any] = field(default_factory=dict)


@dataclass
class _Line:
    """One line of a page's reading: its words, each word's box (points) and where it was read."""

    words: list[str]
    boxes: list[tuple[float, float, float, float]]
    read_in: str


@dataclass
class PageReading:
    """What a reader gets from one published page: its lines (text layer and OCR), whether OCR
    read the whole page or ``regions`` of it, and whether OCR could not read what it should."""

    number: int
    lines: list[_Line] = field(default_factory=list)
    whole: bool = False
    regions: int = 0
    unread: bool = False


def _layer_lines(page: pymupdf.Page, covered: Sequence[tuple[float, float, float, float]] = ()) -> list[_Line]:
    """The page's text layer as lines of words with boxes (every word an extractor gets, visible
    or not: an invisible layer is published text too). A line is cut where a ``covered`` box (a
    redaction, points) lies between two words: "28. 3. 2022 ███ 23" is not one number."""
    by_line: dict[tuple[int, int, int], _Line] = {}
    part: dict[tuple[int, int], int] = {}
    last: dict[tuple[int, int], tuple[float, float, float, float]] = {}
    for x0, y0, x1, y1, word, block, line, _n in page.get_text("words"):
        key = (block, line)
        before = last.get(key)
        if before is not None and any(
            before[2] - 0.5 <= c[0] and c[2] <= x0 + 0.5 and c[1] < y1 and y0 < c[3] for c in covered
        ):
            part[key] = part.get(key, 0) + 1
        last[key] = (x0, y0, x1, y1)
        entry = by_line.setdefault((block, line, part.get(key, 0)), _Line([], [], "text layer"))
        entry.words.append(reader_letters(word)[0])
        entry.boxes.append((x0, y0, x1, y1))
    return list(by_line.values())


def _page_picture(page: pymupdf.Page, dpi: int) -> tuple[Image.Image, pymupdf.Matrix]:
    """``page`` rendered as a viewer renders it (grey, ``dpi``, rotation applied), and the matrix
    that takes the picture's pixels back to points of the unrotated page."""
    from PIL import Image  # noqa: PLC0415 - only with OCR

    pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False)
    image = Image.frombytes("L", (pix.width, pix.height), pix.samples)
    return image, ~(page.rotation_matrix * pymupdf.Matrix(pix.width / page.rect.width, pix.height / page.rect.height))


def _lines_of(found: Iterable[Found], back: pymupdf.Matrix) -> list[_Line]:
    """Tesseract's words (pixels of a page picture) as lines with boxes in points (``back``)."""
    lines: dict[tuple[int, int, int], _Line] = {}
    for text, _conf, x0, y0, x1, y1, line in found:
        rect = (pymupdf.Rect(x0, y0, x1, y1) * back).normalize()
        entry = lines.setdefault(line, _Line([], [], "page picture"))
        entry.words.append(text)
        entry.boxes.append((rect.x0, rect.y0, rect.x1, rect.y1))
    return list(lines.values())


def read_page(page: pymupdf.Page, ocr: TesseractOcr) -> list[_Line]:
    """OCR of ``page`` whole, rendered as a viewer renders it (grey, at ``ocr``'s resolution,
    page rotation applied), read by ``ocr`` (its segmentation, ``--psm 3`` for the check's page
    reader): its lines with word boxes in points of the unrotated page. Raises
    ``OcrUnavailableError`` when Tesseract or its model is missing."""
    image, back = _page_picture(page, ocr.dpi)
    return _lines_of(ocr.read_image(image), back)


def read_published(
    doc: pymupdf.Document, boxes: Sequence[Box], ocr: TesseractOcr | None, band_reader: TesseractOcr | None
) -> list[PageReading]:
    """What a reader gets from each page of the published ``doc`` into which ``boxes`` (points)
    were burned: the text layer, and OCR where the rendered page shows ink the layer does not
    explain (the whole page with ``ocr`` when that ink covers :data:`WHOLE_PAGE_SHARE` of it, as on a
    scan, or when the lines holding it cover :data:`WHOLE_PAGE_LINES` of its height; else the lines
    of its regions with ``band_reader``). Without
    an OCR engine such a page is marked ``unread``. Whole pages are read ``ocr.parallel`` at a
    time (rendered here, each read by its own Tesseract process in a thread)."""
    readings = []
    whole: list[int] = []
    for page in doc:
        number = page.number + 1
        covered = [(b.x0, b.y0, b.x1, b.y1) for b in boxes if b.page == number]
        reading = PageReading(number, _layer_lines(page, covered))
        readings.append(reading)
        log = page.get_bboxlog()
        regions = unexplained_ink(page, covered=covered, log=log)
        if not regions:
            continue
        share = sum(abs(r) for r in regions) / (abs(page_area(page)) or 1.0)
        if ocr is None or band_reader is None:
            reading.unread = True
        elif share >= WHOLE_PAGE_SHARE or _lines_share(page, regions) >= WHOLE_PAGE_LINES:
            reading.whole = True
            whole.append(number)
        else:
            reading.regions = len(regions)
            for words, word_boxes in read_bands(page, [tuple(r) for r in regions], band_reader):
                reading.lines.append(_Line(list(words), list(word_boxes), "page picture"))
    if whole and ocr is not None:
        for number, lines in zip(whole, _read_pages(doc, whole, ocr), strict=True):
            readings[number - 1].lines += lines
    return readings


def _lines_share(page: pymupdf.Page, regions: Sequence[pymupdf.Rect]) -> float:
    """Share (0..1) of the shown page's height that the lines holding ``regions`` (points,
    unrotated page) cover, as the band reader cuts them (:func:`~redactor.publish.legibility.line_rows`)."""
    shown = [(r * page.rotation_matrix).normalize() for r in regions]
    rows = line_rows((r.x0, r.y0, r.x1, r.y1) for r in shown)
    return sum(bottom - top for top, bottom in rows) / (page.rect.height or 1.0)


def _read_pages(doc: pymupdf.Document, numbers: list[int], ocr: TesseractOcr) -> list[list[_Line]]:
    """:func:`read_page` of pages ``numbers`` (from 1), ``ocr.parallel`` at once: each page is
    rendered in this thread (MuPDF is not thread-safe) and read by Tesseract in a thread, at most
    ``ocr.parallel`` pictures held at a time."""
    if ocr.parallel <= 1 or len(numbers) < 2:
        return [read_page(doc[n - 1], ocr) for n in numbers]
    from concurrent.futures import Future, ThreadPoolExecutor  # noqa: PLC0415 - only with parallel OCR

    results: list[list[_Line]] = []
    pending: list[tuple[Future[list[Found]], pymupdf.Matrix]] = []
    with thread_limit(ocr.threads), ThreadPoolExecutor(ocr.parallel, thread_name_prefix="check") as pool:
        for number in numbers:
            if len(pending) >= ocr.parallel:
                future, back = pending.pop(0)
                results.append(_lines_of(future.result(), back))
            image, back = _page_picture(doc[number - 1], ocr.dpi)
            pending.append((pool.submit(ocr.read_image, image), back))
        results += [_lines_of(future.result(), back) for future, back in pending]
    return results


def _as_read(word: str, read_in: str) -> str:
    """``word`` with the digits OCR misread in a number put back ("8OO312/l235" -> "800312/1235"),
    when it was read in a page picture and is mostly digits; else as it is."""
    if read_in != "page picture":
        return word
    alnum = [c for c in word if c.isalnum()]
    if alnum and sum(c.isdigit() for c in alnum) * 2 >= len(alnum) and any(c.isdigit() for c in alnum):
        return word.translate(_DIGIT_CONFUSIONS)
    return word


def _check_registry() -> RecognizerRegistry:
    """The recognizers of :data:`CHECK_RECOGNIZERS`, configured as the analysis configures them."""
    configs = [c for c in DEFAULT_RECOGNIZERS if c.name in CHECK_RECOGNIZERS]
    return RecognizerRegistry([build_recognizer(c, nlp_enabled=False) for c in configs])


_REGISTRY: RecognizerRegistry | None = None


def _registry() -> RecognizerRegistry:
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = _check_registry()
        _REGISTRY.load()
    return _REGISTRY


@dataclass
class _Text:
    """A page's reading as one string, with the box and source of every character and its line."""

    text: str
    boxes: list[tuple[tuple[float, float, float, float], str] | None]
    lines: list[int]
    #: The lines read by OCR in the page's picture (spans of ``text``).
    from_pixels: list[Span] = field(default_factory=list)


def _page_text(lines: Iterable[_Line]) -> _Text:
    chars: list[str] = []
    boxes: list[tuple[tuple[float, float, float, float], str] | None] = []
    numbers: list[int] = []
    pixels: list[Span] = []
    for n, line in enumerate(lines):
        if line.read_in == "page picture":
            pixels.append(Span(len(chars), len(chars) + sum(map(len, line.words)) + len(line.words)))
        for k, (word, box) in enumerate(zip(line.words, line.boxes, strict=True)):
            if k:
                chars.append(" ")
                boxes.append(None)
                numbers.append(n)
            word = _as_read(word, line.read_in)
            chars += list(word)
            boxes += [(box, line.read_in)] * len(word)
            numbers += [n] * len(word)
        chars.append("\n")
        boxes.append(None)
        numbers.append(n)
    return _Text("".join(chars), boxes, numbers, pixels)


def _span_place(text: _Text, start: int, end: int) -> tuple[tuple[float, float, float, float], str] | None:
    """The box (points: the union of its words' boxes on its first line) and source of a span."""
    placed = [(b, text.lines[i]) for i, b in enumerate(text.boxes[start:end], start) if b is not None]
    if not placed:
        return None
    rects = [b[0] for b, line in placed if line == placed[0][1]]
    return (
        (min(r[0] for r in rects), min(r[1] for r in rects), max(r[2] for r in rects), max(r[3] for r in rects)),
        placed[0][0][1],
    )


def _sure(f: Finding) -> bool:
    """Whether a recognizer's finding in the reading is a person's datum without more context:
    the categories personal for anyone, a home address only after a residence cue (or inside a
    certification clause), and the holder-dependent contact values, a phone only after its cue or
    as a mobile number written as one (:func:`_mobile_as_written`); a seat, a generic e-mail, a
    name are not."""
    if f.category == cat.ADDRESS_RESIDENCE:
        return f.recognizer == "certification_clause" or f.attributes.get("context") == "residence"
    if f.category == cat.BIRTH_NUMBER:
        return f.score >= 0.5
    if f.category == cat.PHONE:  # digits of a table read by OCR make numbers libphonenumber accepts
        if _DATE.search(f.text):
            return False  # "28. 3. 2022 23": a date and a number beside it
        return f.score >= PHONE_CUED_SCORE or _mobile_as_written(f.text)
    return f.category in cat.PERSONAL_FOR_ANYONE or f.category in cat.CONTACT_CATEGORIES


def _mobile_as_written(text: str) -> bool:
    """Whether ``text`` is a Czech mobile number written as people write one (nine digits, in
    threes or not, maybe after +420): a fixed-line number without its cue is as likely three
    cells of a table that OCR read as one line."""
    if not _PHONE_SHAPE.fullmatch(text.strip()):
        return False
    try:
        number = phonenumbers.parse(text, "CZ")
    except phonenumbers.NumberParseException:
        return False
    return phonenumbers.number_type(number) == phonenumbers.PhoneNumberType.MOBILE


def look(
    reading: PageReading, name_parts: dict[str, frozenset[str]], values: Sequence[tuple[str, int]] = ()
) -> list[ReaderFinding]:
    """The personal data a reader finds in one page's ``reading``: what the check's recognizers
    are sure of (:func:`_sure`), the words that are a part of a redacted name (``name_parts``:
    folded nominatives by part, :func:`redacted_name_parts`), capitalised or in capitals, in any
    inflected form or one OCR error apart, and, in what OCR read in the page's picture, the
    redacted ``values`` (:func:`redacted_values`: text and category) as the pictures' second
    reading matches them (:func:`~redactor.publish.legibility.find`: a few OCR errors allowed)."""
    recognized = _recognized(reading)
    return (
        recognized
        + _names_beside(reading, recognized)
        + _name_parts_seen(reading, name_parts)
        + _values_seen(reading, values)
    )


#: Longest word (letters) that a full stop after it makes an abbreviation ("Tel.", "Mob.", "Ing.").
ABBREVIATION_MAX_LETTERS = 4
_ABBREVIATED = re.compile(r"\W*[^\W\d_]+\.\W*")
#: Lines above a person's datum on which a name beside it is looked for (a party block's first
#: line names the person, the next ones give the birth number and the home).
NAME_LINES_ABOVE = 2


def _names_beside(reading: PageReading, recognized: Sequence[ReaderFinding]) -> list[ReaderFinding]:
    """:func:`look`'s names beside the personal data it recognised: on the line of a birth
    number, a home address, a phone or an e-mail the check read, and on the
    :data:`NAME_LINES_ABOVE` lines above it, a capitalised word after a given name of the
    gazetteer ("Karel Vomacka": Czech names are given name then surname), which names the person
    whose datum it is. The given name and the word after it are one finding (category surname)."""
    rows = {
        (round(f.rect[1]), round(f.rect[3]))
        for f in recognized
        if f.category in cat.PERSONAL_FOR_ANYONE
        or f.category in cat.CONTACT_CATEGORIES
        or f.category == cat.ADDRESS_RESIDENCE
    }
    if not rows:
        return []
    gazetteer = NameGazetteer.default()
    out: list[ReaderFinding] = []
    for k, line in enumerate(reading.lines):
        near = [
            reading.lines[j]
            for j in range(k, min(len(reading.lines), k + NAME_LINES_ABOVE + 1))
            if reading.lines[j].read_in == line.read_in
        ]
        tops = [(min(b[1] for b in ln.boxes), max(b[3] for b in ln.boxes)) for ln in near if ln.boxes]
        if not any(_rows_meet(top, row) for top in tops for row in rows):
            continue
        words = [w.strip(".,;:()[]„“\"'") for w in line.words]
        for i in range(len(words) - 1):
            given, surname = words[i], words[i + 1]
            if _ABBREVIATED.fullmatch(line.words[i + 1]) and len(surname) <= ABBREVIATION_MAX_LETTERS:
                continue  # "Hana Tel. 603 …": an abbreviated cue, no surname
            if not (
                given[:1].isupper()
                and surname[:1].isupper()
                and surname.isalpha()
                and len(surname) >= NAME_PART_MIN_CHARS
            ):
                continue
            if gazetteer.given_name_of(given) is None or gazetteer.given_name_of(surname) is not None:
                continue
            box = _union(line.boxes[i : i + 2])
            out.append(
                ReaderFinding(
                    reading.number, box, f"{given} {surname}", cat.SURNAME, "name beside a value", line.read_in
                )
            )
    return out


def _rows_meet(line: tuple[float, float], row: tuple[int, int]) -> bool:
    """Whether a line's top and bottom (points) overlap a finding's row."""
    return line[0] < row[1] and row[0] < line[1]


def _recognized(reading: PageReading) -> list[ReaderFinding]:
    """:func:`look`'s findings of the check's recognizers that are sure (:func:`_sure`)."""
    text = _page_text(reading.lines)
    out: list[ReaderFinding] = []
    if not text.text.strip():
        return out
    context = AnalysisContext(text.text, NlpArtifacts(), sentence_spans(text.text), from_pixels=text.from_pixels)
    # of overlapping findings the analysis' own choice: "604524761/0800" is an account, not a phone
    for f in resolve_overlaps(_registry().analyze(context)):
        if not _sure(f):
            continue
        place = _span_place(text, f.span.start, f.span.end)
        if place is not None:
            out.append(
                ReaderFinding(reading.number, place[0], f.text.replace("\n", " "), f.category, f.recognizer, place[1])
            )
    return out


def _name_parts_seen(reading: PageReading, name_parts: dict[str, frozenset[str]]) -> list[ReaderFinding]:
    """:func:`look`'s words that are a part of a redacted name, capitalised or in capitals."""
    parts = frozenset().union(*name_parts.values()) if name_parts else frozenset()
    out: list[ReaderFinding] = []
    if not parts:
        return out
    for line in reading.lines:
        for word, box in zip(line.words, line.boxes, strict=True):
            token = word.strip(".,;:()[]„“\"'")
            letters = sum(c.isalpha() for c in token)
            if letters < NAME_PART_MIN_CHARS or not token[:1].isupper() or not token.replace("-", "").isalpha():
                continue
            form = token.capitalize() if token.isupper() else token
            if _part_of(folded_nominative_candidates(form), parts):
                out.append(ReaderFinding(reading.number, box, token, cat.SURNAME, "name part", line.read_in))
    return out


def _values_seen(reading: PageReading, values: Sequence[tuple[str, int]]) -> list[ReaderFinding]:
    """:func:`look`'s redacted values that OCR read in the page's picture."""
    out: list[ReaderFinding] = []
    for line in reading.lines if values else ():
        if line.read_in != "page picture":
            continue  # the text layer holds no redacted value: verification proved it
        for value, category in values:
            for i, j in find(value, line.words):
                box = _union(line.boxes[i : j + 1])
                words = " ".join(line.words[i : j + 1])
                out.append(ReaderFinding(reading.number, box, words, category, "redacted value", line.read_in))
    return out


def _union(rects: Sequence[tuple[float, float, float, float]]) -> tuple[float, float, float, float]:
    """The box (points) around ``rects``."""
    return (min(r[0] for r in rects), min(r[1] for r in rects), max(r[2] for r in rects), max(r[3] for r in rects))


def redacted_values(proposals: Iterable[ProposedRedaction]) -> list[tuple[str, int]]:
    """The redacted values looked for whole in the pictures: every redacted proposal's text of
    :data:`VALUE_MIN_CHARS` folded characters or more (names go by their parts, titles and
    signatures not at all), and of an address also its street and number alone, which a letter
    repeats without the postcode ("Javorová alej 4/2")."""
    out: dict[str, int] = {}
    for p in proposals:
        if p.category in cat.NAME_CATEGORIES or p.category in (cat.ACADEMIC_TITLE, cat.SIGNATURE) or not p.text:
            continue
        street = street_value(p.text) if p.category in cat.ADDRESS_CATEGORIES else ""
        for value in (p.text, street):
            if len(fold(value)) >= VALUE_MIN_CHARS:
                out.setdefault(value.strip(), p.category)
    return sorted(out.items())


def _part_of(candidates: frozenset[str], parts: frozenset[str]) -> bool:
    """Whether a word's folded nominative ``candidates`` name one of the redacted name ``parts``
    (folded nominatives): the same, or from :data:`~redactor.detect.recognizers.persons.NEAR_NAME_MIN_CHARS`
    letters one OCR error apart (the rule of :func:`~redactor.detect.recognizers.persons.names_agree`)."""
    if candidates & parts:
        return True
    return any(
        len(c) >= NEAR_NAME_MIN_CHARS and _one_edit(c, p)
        for c in candidates
        for p in parts
        if len(p) >= NEAR_NAME_MIN_CHARS and abs(len(c) - len(p)) <= 1
    )


def _one_edit(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by one substitution, insertion or deletion at most."""
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    if len(a) == len(b):
        return a[i + 1 :] == b[i + 1 :]
    return a[i:] == b[i + 1 :]


def redacted_name_parts(proposals: Iterable[ProposedRedaction]) -> dict[str, frozenset[str]]:
    """Every part (:data:`NAME_PART_MIN_CHARS` letters or more, capitalised) of every name among
    the redacted ``proposals``, with the folded nominatives it may inflect from."""
    parts: dict[str, frozenset[str]] = {}
    for p in proposals:
        if p.category not in cat.NAME_CATEGORIES or not p.text:
            continue
        for word in re.findall(r"[^\W\d_]+(?:-[^\W\d_]+)?", p.text):
            if len(word) >= NAME_PART_MIN_CHARS and word[:1].isupper():
                form = word.capitalize() if word.isupper() else word
                parts[form] = folded_nominative_candidates(form)
    return parts


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    """Area (square points) the two boxes share."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _area(r: tuple[float, float, float, float]) -> float:
    return max(0.0, r[2] - r[0]) * max(0.0, r[3] - r[1])


def _folded(text: str) -> str:
    return fold(unicodedata.normalize("NFKC", text))


#: A decided proposal's page, boxes (points), folded text, category (None: a review item, which a
#: person will look at whatever it is) and its words folded.
_Place = tuple[int, list[tuple[float, float, float, float]], str, int | None, frozenset[str]]


def _same_kind(found: int, decided: int | None) -> bool:
    """Whether a decision on a value of category ``decided`` concerns a found value of category
    ``found``: the same category, any two parts of a name, or a review item."""
    if decided is None or decided == found:
        return True
    return found in cat.NAME_CATEGORIES and decided in cat.NAME_CATEGORIES


@dataclass
class _Decided:
    """What the analysis and the reviewers decided, by page: the redaction boxes, and the boxes,
    folded texts and categories of what was kept or left for review."""

    redacted: dict[int, list[tuple[float, float, float, float]]]
    kept: list[_Place]

    @classmethod
    def of(cls, boxes: Sequence[Box], others: Sequence[ProposedRedaction]) -> _Decided:
        redacted: dict[int, list[tuple[float, float, float, float]]] = {}
        for b in boxes:
            redacted.setdefault(b.page, []).append((b.x0, b.y0, b.x1, b.y1))
        kept = [
            (
                p.page,
                [(b.x0, b.y0, b.x1, b.y1) for b in p.boxes],
                _folded(p.text),
                None if p.action == Action.REVIEW else p.category,
                frozenset(_folded(w) for w in p.text.split()),
            )
            for p in others
        ]
        return cls(redacted, kept)

    def covered(self, f: ReaderFinding) -> bool:
        """Whether ``f`` lies under redaction boxes (:data:`COVERED_SHARE` of it)."""
        under = sum(_overlap(f.rect, r) for r in self.redacted.get(f.page, []))
        return under >= COVERED_SHARE * max(_area(f.rect), 1e-6)

    def known(self, f: ReaderFinding) -> bool:
        """Whether a decision on a value of ``f``'s kind (:func:`_same_kind`) was made at its place
        or on its text (a name part: on a name that holds the word): a proposal kept or left for
        review. A name part that is a word of an address kept at its place (a street named after
        a person) was decided with it; a kept organisation's name decides none of its words (a
        signature row misread as one name holds the signer's). A home address the analysis kept
        as an organisation's seat was decided as a seat, not as a home, and is found."""
        value = _folded(f.text)
        for page, rects, text, category, words in self.kept:
            here = page == f.page and any(
                _overlap(f.rect, r) >= SAME_PLACE_SHARE * min(_area(f.rect), _area(r)) for r in rects
            )
            if here and f.found_by == "name part" and category in cat.ADDRESS_CATEGORIES and value in words:
                return True  # a word of a kept street named after someone ("Nábřeží Ludvíka Svobody 871")
            if not _same_kind(f.category, category):
                continue
            if here:
                return True
            if value and text and (value == text or (f.found_by == "name part" and value in words)):
                return True
        return False


def reader_check(
    pdf: bytes | pymupdf.Document,
    *,
    boxes: Sequence[Box],
    redacted: Sequence[ProposedRedaction],
    others: Sequence[ProposedRedaction] = (),
    category_map: CategoryMap | None = None,
    ocr: TesseractOcr | None = None,
    band_reader: TesseractOcr | None = None,
) -> ReaderCheck:
    """Check the published ``pdf`` (bytes, or the document already open) as a reader sees it
    (see the module docstring): ``boxes`` (points) were burned into it for the ``redacted``
    proposals; ``others`` are the proposals that were kept (by the analysis or a reviewer) or left
    for review; ``category_map`` says which categories are not subject to redaction; ``ocr``
    reads whole pages and ``band_reader`` lines (:func:`read_published`). Returns the findings and
    what was checked: ``{"pages", "pages_read_whole", "regions_read", "pages_unread", "found",
    "decided", "findings", "seconds"}``."""
    started = time.perf_counter()
    doc = pymupdf.open(stream=pdf, filetype="pdf") if isinstance(pdf, bytes) else pdf
    try:
        readings = read_published(doc, boxes, ocr, band_reader)
    finally:
        if isinstance(pdf, bytes):
            doc.close()
    parts, values = redacted_name_parts(redacted), redacted_values(redacted)
    decided = _Decided.of(boxes, others)
    found: list[ReaderFinding] = []
    seen = 0
    for reading in readings:
        for f in look(reading, parts, values):
            seen += 1
            if decided.covered(f) or _not_subject(f.category, category_map):
                continue
            if decided.known(f):
                continue
            if any(g.page == f.page and _overlap(g.rect, f.rect) > 0 for g in found):
                continue  # one place, one finding (a value read in the layer and in the picture)
            found.append(f)
    found.sort(key=lambda f: (f.page, f.rect[1], f.rect[0]))
    checked = {
        "pages": len(readings),
        "pages_read_whole": sum(r.whole for r in readings),
        "regions_read": sum(r.regions for r in readings),
        "pages_unread": [r.number for r in readings if r.unread],
        "found": seen,
        "decided": seen - len(found),
        "findings": len(found),
        "seconds": round(time.perf_counter() - started, 3),
    }
    return ReaderCheck(found, checked)


def _not_subject(category: int, category_map: CategoryMap | None) -> bool:
    """Whether the agency's category map does not redact ``category`` at all (not subject to
    redaction, or switched off)."""
    if category_map is None:
        return False
    rule = category_map.rule(category)
    return rule is not None and (rule.type == "not_subject" or not rule.enabled)


def review_items(
    findings: Iterable[ReaderFinding], category_map: CategoryMap, first_id: int = 1
) -> list[ProposedRedaction]:
    """``findings`` as proposals for review (action review, the reason ``still_legible`` or
    ``still_legible_name`` saying where it was read), one per value (the same text of the same
    category, folded, with a box on each place it was read), in page order, numbered from
    ``first_id``: what the command line lists in its report and the web app stores."""
    groups: dict[tuple[str, int], list[ReaderFinding]] = {}
    for f in findings:
        groups.setdefault((_folded(f.text), f.category), []).append(f)
    out = []
    for k, found in enumerate(sorted(groups.values(), key=lambda g: (g[0].page, g[0].rect[1], g[0].rect[0]))):
        f = found[0]
        rule = category_map.rule(f.category)
        where = term("in_text_layer" if all(g.read_in == "text layer" for g in found) else "in_picture")
        if f.found_by == "name part":
            reason = Reason("still_legible_name", {"where": where})
        else:
            reason = Reason("still_legible", {"category": category_name(category_map, f.category), "where": where})
        out.append(
            ProposedRedaction(
                id=first_id + k,
                page=f.page,
                boxes=[g.box for g in found],
                text=f.text,
                category=f.category,
                category_name=rule.name_en if rule else str(f.category),
                category_type=rule.type if rule else "unknown",
                action=Action.REVIEW,
                score=1.0,
                reason=reason,
                recognizer="reader_check",
                evidence=f"{f.found_by}, read in the {f.read_in}",
                span=Span(0, 0),
                cluster=None,
            )
        )
    return out
