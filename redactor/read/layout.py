"""The reading order of a page's lines before they become the text layer: party tables read
column by column (pdfplumber finds the table), form rows of label and value cells joined, and
letter-spaced lines read as words. Boxes are in PDF points (PyMuPDF page space), pages from 1.
"""

from __future__ import annotations

import io
import itertools
import re
from typing import Any, NotRequired, Protocol, TypedDict, TypeVar

import pdfplumber
import pymupdf

from redactor.czech import role_of


class RawChar(TypedDict):
    """A character of PyMuPDF's ``get_text("rawdict")`` as the engine reads it: ``c`` the
    character, ``bbox`` its box in points (None for a space the reading order inserts),
    ``invisible`` for text in render mode 3 (:func:`page_lines`). PyMuPDF's own keys (``origin``,
    ``synthetic``) stay on the dictionaries; the engine does not read them."""

    c: str
    bbox: tuple[float, float, float, float] | None
    invisible: NotRequired[bool]


Line = tuple[tuple[float, float, float, float], list[RawChar]]  # line bbox (points), its rawdict chars
_LABEL_CELL = re.compile(r"^\s*(?:[Zz]a\s+)?([^\W\d_]+(?:\s+[^\W\d_]+)?)\s*:\s*$")


def page_lines(raw: dict[str, Any]) -> list[Line]:
    """The text lines of a page's ``get_text("rawdict")`` output as (line box in points, its
    characters), characters of invisible text (render mode 3) marked ``invisible``. ``raw`` is
    PyMuPDF's dictionary as it gives it (``Any``: PyMuPDF declares no type for it)."""
    out: list[Line] = []
    for block in raw["blocks"]:
        if block.get("type") != 0:
            continue
        for line in block["lines"]:
            # an invisible character (render mode 3, an OCR layer) is marked: over a picture
            # that is read by OCR it gives way to the words read from the pixels
            chars = [
                c | {"invisible": True} if not span.get("alpha", 255) else c
                for span in line["spans"]
                for c in span["chars"]
            ]
            if chars:
                out.append((tuple(line["bbox"]), chars))
    return out


def line_text(line: Line) -> str:
    """The characters of ``line`` as one string."""
    return "".join(c["c"] for c in line[1])


class Tables:
    """pdfplumber's table analysis, opened once per document and only when a page needs it."""

    def __init__(self, pdf: bytes | None):
        self.pdf = pdf
        self._plumber: pdfplumber.PDF | None = None

    def bottom(self, page_number: int, x: float, y: float) -> float | None:
        """Bottom (points) of the table around ``(x, y)`` on a page (``page_number`` from 1)."""
        if self.pdf is None:
            return None
        if self._plumber is None:
            self._plumber = pdfplumber.open(io.BytesIO(self.pdf))
        for table in self._plumber.pages[page_number - 1].find_tables():
            x0, top, x1, bottom = table.bbox
            if x0 - 2 <= x <= x1 + 2 and top - 2 <= y <= bottom + 2:
                return float(bottom)
        return None

    def close(self) -> None:
        """Release pdfplumber's document, if it was opened."""
        if self._plumber is not None:
            self._plumber.close()


#: A form label: a few words ending with a colon ("Sídlo:", "Bankovní spojení:", "1. Pronajímatel:").
_FORM_LABEL = re.compile(r"^\s*(?:\d{1,2}\.?\s*)?[^\W\d_][^:]{0,60}:\s*$")


def form_rows(rects: list[pymupdf.Rect], texts: list[str]) -> list[list[int]] | None:
    """Reading order of a two-column form: labels in one column, their values in the next.

    Forms such as "Sídlo:  Na Petynce 717/46" are often stored (or read by OCR) column by
    column: every label first, then every value, so a value ends up far from its label and next
    to the wrong party. When a label line (a few words ending with ":") has a line to its right
    on the same row, the band of the page from the first to the last such row is read row by
    row, left to right; lines above that band come first, everything else keeps its order.
    ``rects`` are the lines' boxes as the page is displayed, ``texts`` their text, both in the
    source order. Returns groups of line indices (one group per output line, a row's lines
    joined left to right), or None when the page has no such form.
    """
    n = len(rects)
    heights = sorted(r.height for r in rects if r.height > 0)
    if not heights:
        return None
    median = heights[len(heights) // 2]
    paired = _label_value_pairs(rects, texts)
    # a source that already reads each label with its value (next to each other) is in order;
    # only a column-by-column source (labels first, values far after them) is re-read
    pairs = list(zip(paired[::2], paired[1::2], strict=True))
    apart = [abs(i - j) > 1 for i, j in pairs]
    if len(pairs) < 2 or sum(apart) * 2 <= len(pairs):
        return None
    top = min(rects[i].y0 for i in paired) - 0.25 * median
    bottom = max(rects[i].y1 for i in paired) + 0.25 * median
    band = [i for i in range(n) if top <= (rects[i].y0 + rects[i].y1) / 2 <= bottom]
    rows = _rows(rects, band, median)
    inside = set(band)
    # what stands above the form (a title that OCR read after the form's label column) comes
    # first; everything else keeps its order, the form where its first line was
    above = [i for i in range(n) if i not in inside and rects[i].y1 <= top]
    out: list[list[int]] = [[i] for i in above]
    placed = False
    for i in range(n):
        if i in inside:
            if not placed:
                out.extend(rows)
                placed = True
        elif i not in above:
            out.append([i])
    return out


def _label_value_pairs(rects: list[pymupdf.Rect], texts: list[str]) -> list[int]:
    """The form labels of :func:`form_rows` with a line to their right on the same row, as a flat
    list ``[label, value, label, value, …]`` (the value the nearest such line)."""
    n = len(rects)
    labels = [bool(_FORM_LABEL.match(t)) and len(t.split()) <= 6 for t in texts]
    paired: list[int] = []
    for i in range(n):
        if not labels[i]:
            continue
        a = rects[i]
        right = [
            j
            for j in range(n)
            if j != i
            and not labels[j]
            and rects[j].x0 >= a.x1 - 2
            and min(a.y1, rects[j].y1) - max(a.y0, rects[j].y0) >= 0.5 * min(a.height, rects[j].height)
        ]
        if right:
            paired += [i, min(right, key=lambda j: rects[j].x0)]
    return paired


def _rows(rects: list[pymupdf.Rect], band: list[int], median: float) -> list[list[int]]:
    """The lines of ``band`` grouped into rows (centres within half a ``median`` line height of
    the row's mean), top to bottom, each row left to right."""
    rows: list[list[int]] = []
    for i in sorted(band, key=lambda i: ((rects[i].y0 + rects[i].y1) / 2, rects[i].x0)):
        centre = (rects[i].y0 + rects[i].y1) / 2
        if rows:
            last = rows[-1]
            mean = sum((rects[j].y0 + rects[j].y1) / 2 for j in last) / len(last)
            if abs(centre - mean) <= 0.5 * max(median, 1.0):
                last.append(i)
                continue
        rows.append([i])
    return [sorted(row, key=lambda i: rects[i].x0) for row in rows]


def form_lines(lines: list[Line], page: pymupdf.Page) -> list[Line]:
    """:func:`form_rows` applied to a text layer's lines; a row's lines become one line, the
    parts separated by a space without a box."""
    shown = page.rotation_matrix
    rects = [(pymupdf.Rect(ln[0]) * shown).normalize() for ln in lines]
    groups = form_rows(rects, [line_text(ln) for ln in lines])
    if groups is None:
        return lines
    out: list[Line] = []
    for group in groups:
        if len(group) == 1:
            out.append(lines[group[0]])
            continue
        chars: list[RawChar] = []
        for k, i in enumerate(group):
            if k:
                chars.append({"c": " ", "bbox": None})
            chars.extend(lines[i][1])
        box = pymupdf.Rect(lines[group[0]][0])
        for i in group[1:]:
            box |= pymupdf.Rect(lines[i][0])
        out.append((tuple(box), chars))
    return out


class _Word(Protocol):
    """A word read by OCR as :func:`ocr_party_columns` reads it: its text and box (points)."""

    @property
    def text(self) -> str: ...
    @property
    def x0(self) -> float: ...
    @property
    def y0(self) -> float: ...
    @property
    def x1(self) -> float: ...
    @property
    def y1(self) -> float: ...


_W = TypeVar("_W", bound=_Word)

#: Words on one OCR line further apart than this (points) stand in separate columns.
COLUMN_GAP = 24.0


def _segments(words: list[_W]) -> list[list[_W]]:
    """``words`` (one line, left to right) cut where two words are more than :data:`COLUMN_GAP` apart."""
    out: list[list[_W]] = []
    for w in words:
        if out and w.x0 - out[-1][-1].x1 <= COLUMN_GAP:
            out[-1].append(w)
        else:
            out.append([w])
    return out


#: The widest gap (points) between two words of one line of running text; columns stand further apart.
_WORD_SPACE = 8.0


def _legible(word: _W) -> bool:
    """False for a speck OCR read as a glyph ("*'", "©", "|"): no letter or digit."""
    return any(ch.isalnum() for ch in word.text)


def _runs_across(line: list[_W], edge: float) -> bool:
    """True when ``line`` runs across the column edge at ``edge`` (points): a word crosses it, or
    the words either side of it stand a word space apart (a sentence across the page)."""
    if any(w.x0 < edge < w.x1 - 2 for w in line):
        return True
    words = [w for w in line if _legible(w)]
    left = max((w.x1 for w in words if w.x1 <= edge + 2), default=None)
    right = min((w.x0 for w in words if w.x0 >= edge - 2), default=None)
    return left is not None and right is not None and right - left <= _WORD_SPACE


def ocr_party_columns(lines: list[list[_W]]) -> list[list[_W]] | None:
    """Read an OCR'd party table column by column.

    An order's or a form's header sets its parties side by side ("Dodavatel:" | "Místo dodání:"
    or "Pronajímatel:" | "Nájemce:") with each party's name, address and numbers in a column
    under its label. OCR reads such a table row by row, into lines that run across both columns
    ("Lipová 1204/7   Úřad městské části"), so a supplier's address lands in a sentence with
    the other party's name. When a line (``lines``: words in Tesseract's reading order, boxes in
    points of an upright page) is a row of label cells, the first a party role
    (:func:`redactor.czech.role_of`) and each cell a label of one or two words ending with a colon
    (specks with no letter or digit between them ignored), the lines after it, down to the first
    that runs across a column's edge (full-width text), are
    cut at the columns' edges and read column by column, each under its label. Returns the lines in
    that order, or None when no line opens such a table.
    """
    for at, line in enumerate(lines):
        # a speck read as a glyph ("*'", "©") between the label cells is no cell of the row
        cells = _segments(sorted((w for w in line if _legible(w)), key=lambda w: w.x0))
        if len(cells) < 2:
            continue
        labels = [_LABEL_CELL.match(" ".join(w.text for w in cell)) for cell in cells]
        first = labels[0]
        if not all(labels) or first is None or not role_of(first.group(1)):
            continue
        edges = [cell[0].x0 - 2 for cell in cells[1:]]
        region = []
        for below in lines[at + 1 :]:
            if any(_runs_across(below, edge) for edge in edges):
                break  # full-width text: the table has ended
            region.append(below)
        if len(region) < 2:
            continue
        columns: list[list[list[_W]]] = [[cell] for cell in cells]
        for below in region:
            parts: list[list[_W]] = [[] for _ in cells]
            for w in sorted(below, key=lambda w: w.x0):
                parts[sum(w.x0 >= edge for edge in edges)].append(w)
            for column, part in zip(columns, parts, strict=True):
                if part:
                    column.append(part)
        ordered = [part for column in columns for part in column]
        return lines[:at] + ordered + lines[at + 1 + len(region) :]
    return None


#: A postcode and a town opening a line ("612 00 Brno"): the last line of a postal address.
_POSTCODE_TOWN = re.compile(r"^\d{3}\s?\d{2}\s+[^\W\d_]")


def ocr_address_column(lines: list[list[_W]], gap: float) -> list[list[_W]] | None:
    """Read an addressee's block set beside a letter's reference lines apart from them.

    A reply's header sets the office's lines ("Vyřizuje: Mgr. X", "Tel.: …", "Datum: …") on the
    left and the addressee's name and postal address on the right; OCR reads each row across both
    ("Vyřizuje: Mgr. X   Bc. Y"), so the clerk's name runs into the addressee's. When three or more
    consecutive lines (``lines``: words in Tesseract's reading order, boxes in points of an upright
    page) each have a gap wider than ``gap`` points before words that start at one edge (within 8
    points), and the last of those right-hand parts opens with a postcode and a town, the left
    parts are read first, then the right ones. Returns the lines in that order, or None.
    """
    cuts = [_wide_cut(line, gap) for line in lines]
    at = 0
    while at < len(lines):
        first = cuts[at]
        if first is None:
            at += 1
            continue
        edge = first[1][0].x0
        block: list[tuple[list[_W], list[_W]]] = []
        for cut in cuts[at:]:
            if cut is None or abs(cut[1][0].x0 - edge) > 8:
                break
            block.append(cut)
        ends = [k for k, (_left, right) in enumerate(block) if _POSTCODE_TOWN.match(" ".join(w.text for w in right))]
        if ends and ends[-1] >= 2:
            block = block[: ends[-1] + 1]
            return lines[:at] + [left for left, _ in block] + [right for _, right in block] + lines[at + len(block) :]
        at += len(block)
    return None


def _wide_cut(line: list[_W], gap: float) -> tuple[list[_W], list[_W]] | None:
    """``line``'s legible words cut at the first gap wider than ``gap`` points, else None."""
    words = sorted((w for w in line if _legible(w)), key=lambda w: w.x0)
    for k in range(1, len(words)):
        if words[k].x0 - words[k - 1].x1 > gap:
            return words[:k], words[k:]
    return None


def party_columns(lines: list[Line], tables: Tables, page: pymupdf.Page) -> list[Line]:
    """Read a party table column by column.

    Contracts often set the parties side by side: a row of labels ("Prodávající:" |
    "Kupující:") above a row of entries. Read row by row, the two parties interleave. When two
    party labels stand on one row, the lines below them, down to the bottom of the table as
    pdfplumber finds it (or, without ruling lines, to the first line that crosses a column
    boundary), are reordered column by column, each column under its label.
    """
    labels = [ln for ln in lines if (m := _LABEL_CELL.match(line_text(ln))) and role_of(m.group(1))]
    drawn: list[pymupdf.Rect] | None = None  # the area the page's drawings cover, read once when needed
    for first in labels:
        row = sorted((ln for ln in labels if abs(ln[0][1] - first[0][1]) < 3), key=lambda ln: ln[0][0])
        if len(row) < 2 or row[0] is not first:
            continue
        bounds = [ln[0][0] - 2 for ln in row[1:]]
        top = min(ln[0][1] for ln in row)
        x, y = first[0][0] + 1, (first[0][1] + first[0][3]) / 2
        # pdfplumber's table finder follows ruling lines, and a table lies within the lines that
        # draw it: where no drawing reaches around the label, it has nothing to find
        if drawn is None:
            rects = [d["rect"] for d in page.get_drawings()]
            # min/max, not Rect union: MuPDF skips a rule's zero-height rectangle as empty
            drawn = (
                [
                    pymupdf.Rect(
                        min(r.x0 for r in rects) - 3,
                        min(r.y0 for r in rects) - 3,
                        max(r.x1 for r in rects) + 3,
                        max(r.y1 for r in rects) + 3,
                    )
                ]
                if rects
                else []
            )
        ruled = any(area.contains((x, y)) for area in drawn)
        bottom = tables.bottom(page.number + 1, x, y) if ruled else None
        below = sorted((ln for ln in lines if ln[0][1] >= top - 1), key=lambda ln: (ln[0][1], ln[0][0]))
        region = []
        for ln in below:
            (x0, y0, x1, _y1) = ln[0]
            if bottom is not None and y0 > bottom:
                break
            if bottom is None and any(x0 < b < x1 - 2 for b in bounds):
                break  # full-width text: the table has ended
            region.append(ln)
        if len(region) <= len(row):
            continue

        columns = tuple(bounds)

        def reading_order(ln: Line, b: tuple[float, ...] = columns) -> tuple[int, float, float]:
            return sum(ln[0][0] >= x for x in b), ln[0][1], ln[0][0]

        ordered = sorted(region, key=reading_order)
        ids = {id(ln) for ln in region}
        at = next(i for i, ln in enumerate(lines) if id(ln) in ids)
        rest = [ln for ln in lines if id(ln) not in ids]
        return rest[:at] + ordered + rest[at:]
    return lines


def letter_spaced(chars: list[RawChar]) -> list[RawChar]:
    """A line set with wide letter spacing ("K a r e l   V o m a c k a": the extractor puts a
    space between every two letters) read as words: spaces narrower than the line's word gaps
    go, a word gap becomes one space without a box. A line where at least six tokens are and
    60 % of them are single characters counts as letter-spaced; a word gap is a distance between
    two glyphs over 1.8 times the median distance (and at least 1.5 points more), or a space the
    file itself writes (not one PyMuPDF inserted, ``synthetic``) before or after a digit. A line whose
    median distance exceeds half the glyph height is a row of table cells and, like every other
    line, is returned as it is."""
    tokens = "".join(c["c"] for c in chars).split()
    if len(tokens) < 6 or sum(len(t) == 1 for t in tokens) < 0.6 * len(tokens):
        return chars
    glyphs = [(c, c["bbox"]) for c in chars if not c["c"].isspace() and c["bbox"] is not None]
    gaps = [b[0] - a[2] for (_, a), (_, b) in itertools.pairwise(glyphs)]
    if not gaps:
        return chars
    median = sorted(gaps)[len(gaps) // 2]
    height = sorted(box[3] - box[1] for _, box in glyphs)[len(glyphs) // 2]
    if median > 0.5 * height:
        return chars  # cells of a table, not letters of a word
    # a space the file itself writes between digits ("mobil 6 0 3 1 8 …") separates them as its
    # writer did; only the spaces the extractor inserted for wide gaps are letter spacing
    written = set()
    for before, space, after in zip(chars, chars[1:], chars[2:], strict=False):
        if space["c"] == " " and not space.get("synthetic", True) and (before["c"].isdigit() or after["c"].isdigit()):
            written.add(id(after))
    out = [glyphs[0][0]]
    for gap, (glyph, _box) in zip(gaps, glyphs[1:], strict=True):
        if gap > max(1.8 * median, median + 1.5) or id(glyph) in written:
            out.append({"c": " ", "bbox": None})
        out.append(glyph)
    return out


def _on_any(bbox: tuple[float, float, float, float], regions: list[pymupdf.Rect]) -> bool:
    centre = pymupdf.Point((bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2)
    return any(r.contains(centre) for r in regions)


def without_invisible(lines: list[Line], regions: list[pymupdf.Rect]) -> list[Line]:
    """``lines`` without the invisible characters that lie on one of the pictures ``regions``
    (another tool's OCR layer of a picture that is read by OCR here: such a layer may be a line
    off the pixels, and boxes must follow the pixels)."""
    out = []
    for bbox, chars in lines:
        kept = [c for c in chars if not (c.get("invisible") and c["bbox"] and _on_any(c["bbox"], regions))]
        if any(not c["c"].isspace() for c in kept):
            out.append((bbox, kept))
    return out
