"""What a reader of a published page picture can still read: redacted values looked for, through
the usual OCR confusions, in a second, independent reading of the page's pixels.

On a scanned page the text layer is the product's own OCR, so a value that reading misread ("@"
read as "Gi", a slash as a digit) is neither found nor covered, while a reader of the picture sees
it; comparing texts cannot show it (DOMAIN.md, "How redaction fails", 8). This module reads the
*published* picture again, with Tesseract at another resolution and segmentation than the
analysis (:data:`LEGIBILITY_DPI`, ``--psm 6`` on a strip of cut-out lines instead of 300 dpi and
``--psm 3`` on the page), and reports every redacted value still legible there.

The reading is limited to where a value can be: the lines of the redaction boxes (a value
misread next to its own box, a partly covered word) and the lines where the analysis' own
reading shows a near match of a redacted value outside the boxes (:func:`near_lines`). The
lines are cut from one rendering of the page, stacked into one strip and read by one Tesseract
call, which costs a fraction of reading the page.

Matching (:func:`fold`, :func:`find`) follows the shared scorer's ``--pixels`` reading of a page
(``score_redaction.py``): case and diacritics folded, spaces and punctuation ignored, up to one
edit in 6-10 characters and two from 11; shorter values only as whole words. It also folds the
confusions Tesseract makes on Czech scans (0/O, 1/l/I, 5/S, 8/B), so "87O312/l234" is
"870312/1234".
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import pymupdf
import regex

from redactor import lexicon
from redactor.model import Box
from redactor.read.ocr.render import PictureRows
from redactor.read.ocr.rescue import band_shift, strip_of
from redactor.read.ocr.tesseract import Found, TesseractOcr

#: Resolution (dpi) of the second reading: another one than the analysis' (300 dpi).
LEGIBILITY_DPI = 200
#: Tesseract's segmentation of the strip of cut-out lines: one uniform block of text.
LEGIBILITY_PSM = 6
#: Points added above and below a line's band, so that a line's ascenders and descenders are whole.
BAND_MARGIN = 3.0
#: Values shorter than this (folded) are not looked for: two or three letters are read everywhere.
MIN_VALUE_CHARS = 3
#: Points added around the words of a legible value when it is covered (:func:`boxes_for`).
COVER_MARGIN = 1.0

#: The lexicon's OCR look-alikes, each read as its group's letter (the text is lower-cased first).
_CONFUSIONS = str.maketrans(
    {c: letter for letter, group in lexicon.OCR_LOOKALIKES.items() for c in group if c.lower() == c and c != letter}
)


def fold(text: str) -> str:
    """``text`` as page pictures are compared: lower case, no diacritics, only letters and digits,
    and the characters Tesseract confuses on Czech scans made one (0→o; 1, i, |, !→l; 5→s; 8→b)."""
    text = unicodedata.normalize("NFKD", text.lower())
    text = "".join(c for c in text if not unicodedata.combining(c))
    return "".join(c for c in text.translate(_CONFUSIONS) if c.isalnum())


def edits_allowed(length: int, numeric: bool = False) -> int:
    """OCR errors forgiven in a folded value of ``length`` characters (the shared scorer's rule):
    none under 6 (then whole words only), one up to 10, two from 11; at most one in a
    ``numeric`` value (mostly digits: a birth number, an account, a phone), where two edits turn
    one number into its neighbour in a table of numbers."""
    edits = 0 if length < 6 else 1 if length <= 10 else 2
    return min(edits, 1) if numeric else edits


def numeric(value: str) -> bool:
    """Whether at least half of ``value``'s letters and digits are digits."""
    alnum = [c for c in value if c.isalnum()]
    return bool(alnum) and sum(c.isdigit() for c in alnum) * 2 >= len(alnum)


@dataclass(frozen=True)
class Legible:
    """A redacted value legible on a page picture: ``page`` from 1, ``rect`` ``(x0, y0, x1, y1)``
    in points of the unrotated page, the ``value`` itself (in memory only: reports name it by
    number, never quote it)."""

    page: int
    value: str
    rect: tuple[float, float, float, float]


def find(value: str, words: Sequence[str]) -> list[tuple[int, int]]:
    """Where the folded ``value`` occurs in a line of ``words``: ``[(first word, last word)]``
    (indexes, inclusive). A value of six or more folded characters matches anywhere in the line
    with :func:`edits_allowed` edits (across word boundaries: OCR splits and joins words); a
    shorter one only as a run of whole words, exactly. A numeric value (:func:`numeric`) is
    allowed fewer edits."""
    target = fold(value)
    if len(target) < MIN_VALUE_CHARS:
        return []
    folded = [fold(w) for w in words]
    if len(target) < 6:
        return _whole_words(target, folded)
    found: list[tuple[int, int]] = []
    line, owner = "", []
    for k, piece in enumerate(folded):
        line += piece
        owner += [k] * len(piece)
    if not line:
        return []
    pattern = f"(?:{regex.escape(target)}){{e<={edits_allowed(len(target), numeric(value))}}}"
    for m in regex.finditer(pattern, line, flags=regex.BESTMATCH):
        if m.end() > m.start():
            found.append((owner[m.start()], owner[m.end() - 1]))
    return found


def street_of(address: str) -> str:
    """The street and house number of ``address`` ("Javorová alej 4/2, 150 00 Praha 5" ->
    "Javorová alej 4/2", "Praha 2, Xaverova 12/3" -> "Xaverova 12/3"): of its parts (between
    commas, or before the postcode) that start with a word and end in a number, the one with the
    longest number, the last of equals; the first part when none does."""
    parts = [p.strip() for p in re.split(r",|\s(?=\d{3}\s?\d{2}(?:\s|$))", address) if p.strip()]
    numbered = [
        (len(re.sub(r"\D", "", m.group())), k, p)
        for k, p in enumerate(parts)
        if (m := re.search(r"^[^\W\d_].*\s(\d{1,4}[^\W\d_]?(?:/\d{1,4}[^\W\d_]?)?)$", p))
    ]
    if numbered:  # a town's district ("Praha 2") has one or two digits, a house number mostly more
        return max(numbered)[2]
    return parts[0] if parts else ""


def street_value(address: str) -> str:
    """The street and number of ``address`` worth looking for on their own (:func:`street_of`),
    or "": a house number of two digits or more, and not the whole address. "Praha 6, 169 00" has
    no street: "Praha 6" alone would be read in every "Praha 1"."""
    street = street_of(address)
    number = re.search(r"(\d+)(?:[^\W\d_])?(?:/\d+[^\W\d_]?)?$", street)
    if street == address.strip() or number is None or len(re.sub(r"\D", "", number.group())) < 2:
        return ""
    return street


def allowances(values: Iterable[str], residual_lines: Iterable[str]) -> dict[str, int]:
    """How often each value may stay legible: its exact (folded) occurrences as whole words in
    the analysed text outside the redactions (``residual_lines``), e.g. a surname redacted for a
    private person and kept for an official who shares it. A near match there does not count:
    it is the misreading this check exists to find."""
    lines = [[fold(w) for w in line.split()] for line in residual_lines]
    joined = [("".join(folded), folded) for folded in lines]
    counts = {}
    for value in values:
        target = fold(value)  # a run of whole words equal to it is a substring of the joined line
        counts[value] = sum(len(_whole_words(target, folded)) for line, folded in joined if target in line)
    return counts


def _whole_words(target: str, folded: Sequence[str]) -> list[tuple[int, int]]:
    """Runs ``(first, last)`` of whole ``folded`` words that together are ``target`` exactly."""
    found = []
    for i in range(len(folded)):
        joined = ""
        for j in range(i, len(folded)):
            joined += folded[j]
            if joined == target and folded[i]:
                found.append((i, j))
            if len(joined) >= len(target):
                break
    return found


def near_lines(
    lines: Iterable[Sequence[tuple[str, tuple[float, float, float, float]]]], values: Iterable[str]
) -> list[tuple[float, float, float, float]]:
    """Boxes (points) of the words of the analysis' own reading, given by line as ``(text,
    box)`` pairs, that match a redacted value (:func:`find`): where the picture may show a value
    the analysis did not redact. Their lines are read again."""
    values = list(values)
    out = []
    for line in lines:
        texts = [t for t, _box in line]
        for value in values:
            for i, j in find(value, texts):
                out += [box for _t, box in line[i : j + 1]]
    return out


def line_rows(rects: Iterable[tuple[float, float, float, float]]) -> list[tuple[float, float]]:
    """The rows ``(top, bottom)`` in points, merged where they touch, of ``rects`` (points) taken
    across the whole width of the page, ``BAND_MARGIN`` above and below."""
    rows = sorted((y0 - BAND_MARGIN, y1 + BAND_MARGIN) for _x0, y0, _x1, y1 in rects if y1 > y0)
    merged: list[list[float]] = []
    for top, bottom in rows:
        if merged and top <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], bottom)
        else:
            merged.append([top, bottom])
    return [(top, bottom) for top, bottom in merged]


def read_bands(
    page: pymupdf.Page, rects: Iterable[tuple[float, float, float, float]], ocr: TesseractOcr
) -> list[tuple[list[str], list[tuple[float, float, float, float]]]]:
    """Read the lines of ``page``'s picture that hold ``rects`` (points, unrotated page), cut out
    across the page's width, stacked into one strip and read once by ``ocr`` (at its own dpi and
    segmentation). Returns the lines read: ``(words, boxes)`` with boxes in points of the
    unrotated page. A page without such lines gives ``[]``."""
    from PIL import Image  # noqa: PLC0415 - only with OCR

    picture = PictureRows(page, ocr.dpi)
    width, height = picture.size
    shown = page.rotation_matrix * pymupdf.Matrix(width / page.rect.width, height / page.rect.height)
    back = ~shown
    shown_rects = [(pymupdf.Rect(r) * shown).normalize() for r in rects]
    bands = [
        (max(0, int(top)), min(height, int(bottom) + 1))
        for top, bottom in line_rows((r.x0, r.y0, r.x1, r.y1) for r in shown_rects)
    ]
    bands = [(top, bottom) for top, bottom in bands if bottom > top]
    if not bands:
        return []
    first = bands[0][0]  # only the rows from the first band to the last are drawn
    strip, offsets = strip_of(picture.rows(first, bands[-1][1]), [(t - first, b - first) for t, b in bands])
    offsets = [(start, end, top + first) for start, end, top in offsets]
    lines: dict[tuple[int, int, int, int], tuple[list[str], list[tuple[float, float, float, float]]]] = {}
    found: list[Found] = ocr.read_image(Image.fromarray(strip))
    for text, _conf, x0, y0, x1, y1, line in found:
        placed = band_shift(offsets, y0, y1)
        if placed is None:
            continue
        band, shift = placed
        rect = pymupdf.Rect(x0, y0 + shift, x1, y1 + shift) * back
        words, boxes = lines.setdefault((band, *line), ([], []))
        words.append(text)
        boxes.append((rect.x0, rect.y0, rect.x1, rect.y1))
    return list(lines.values())


def legible_values(
    doc: pymupdf.Document,
    regions: dict[int, list[tuple[float, float, float, float]]],
    values: Iterable[str],
    allowed: dict[str, int],
    ocr: TesseractOcr,
) -> list[Legible]:
    """Redacted ``values`` legible on the pictures of ``doc``'s pages: ``regions`` gives, by page
    number (from 1), the rectangles (points) whose lines are read (:func:`read_bands`); a value
    counts when it is read there more often than ``allowed`` (:func:`allowances`) in the whole
    document. Returns one :class:`Legible` per place beyond what is allowed (words read as
    several values, a name and its surname, are one place), in page order."""
    values = sorted({v for v in values if len(fold(v)) >= MIN_VALUE_CHARS})
    seen: dict[str, list[Legible]] = {}
    for number in sorted(regions):
        if not regions[number] or number > doc.page_count:
            continue
        for words, boxes in read_bands(doc[number - 1], regions[number], ocr):
            for value in values:
                for i, j in find(value, words):
                    x0 = min(b[0] for b in boxes[i : j + 1])
                    y0 = min(b[1] for b in boxes[i : j + 1])
                    x1 = max(b[2] for b in boxes[i : j + 1])
                    y1 = max(b[3] for b in boxes[i : j + 1])
                    seen.setdefault(value, []).append(Legible(number, value, (x0, y0, x1, y1)))
    out: dict[tuple[int, tuple[float, float, float, float]], Legible] = {}
    for value, found in seen.items():
        for legible in found[allowed.get(value, 0) :]:
            # the same words read as several values (a name, its surname): one place, the longest
            key = (legible.page, legible.rect)
            if key not in out or len(value) > len(out[key].value):
                out[key] = legible
    return sorted(out.values(), key=lambda f: (f.page, f.rect[1], f.rect[0]))


def boxes_for(found: Iterable[Legible]) -> list[Box]:
    """Redaction boxes (points, pages from 1) over legible values, ``COVER_MARGIN`` wider."""
    return [
        Box(
            f.page,
            f.rect[0] - COVER_MARGIN,
            f.rect[1] - COVER_MARGIN,
            f.rect[2] + COVER_MARGIN,
            f.rect[3] + COVER_MARGIN,
        )
        for f in found
    ]
