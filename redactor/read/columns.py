"""Cells of a page laid out in columns: what is printed right under a name that stands alone in
its column (a signature block of three columns, "PhDr. X    Poslanec PS PČR    Ing. Y" over
"místostarosta"). The analysed text joins such columns into one line, so the function under a
name is two lines away from it in the text and beside another name; only the boxes tell which
name it belongs to. Boxes in PDF points, pages from 1.
"""

from __future__ import annotations

import re

from redactor import lexicon
from redactor.model import Span
from redactor.read.extraction import TextLayer
from redactor.read.ocr import OcrWord

#: Academic titles and "pan"/"paní" before or after a name, as one word ("Ing.Mgr.", "Ph.D.,").
_TITLE = re.compile(rf"^(?:[^\W\d_]{{1,6}}\.)+,?$|^(?:{lexicon.alternatives('mister_missus')}|et|,)$", re.I)


class ColumnCells:
    """Reads the cell under a name in a column layout, from the words and boxes of ``layer``."""

    def __init__(self, layer: TextLayer):
        self.layer = layer
        self._pages: dict[int, list[OcrWord]] = {}

    def _words(self, number: int) -> list[OcrWord]:
        if number not in self._pages:
            self._pages[number] = [w for _s, w in self.layer.layer_words(number) if w.angle == 0]
        return self._pages[number]

    def below(self, span: Span) -> str | None:
        """The words printed under ``span`` (offsets into the layer's text) in its column, or None.

        ``span`` must be on one printed line with nothing but titles within a gap (the larger of
        12 pt and 1.2 line heights) to its left and right: a cell of its own, as in a signature
        block, never a name inside a sentence. The cell below is the first printed line under
        it (within 2.5 line heights) whose words overlap the name across: from the first such
        word, the words to its right up to the next gap; it must start its own column too (only
        marks without letters, such as a signature's strokes read as "1 „", may stand closer)."""
        if not _may_stand_alone(self.layer.text, span):
            return None  # words of a sentence on either side: no geometry needed to say so
        boxes = self.layer.span_boxes(span)
        if len(boxes) != 1:
            return None
        box = boxes[0]
        height = box.y1 - box.y0
        if height <= 0:
            return None
        gap = max(12.0, 1.2 * height)
        words = self._words(box.page)
        row = [w for w in words if box.y0 <= (w.y0 + w.y1) / 2 <= box.y1]
        if not _alone(row, box.x0, box.x1, gap):
            return None
        under = [
            w
            for w in words
            if box.y1 - 0.3 * height <= w.y0 <= box.y1 + 2.5 * height
            and w.x0 < box.x1
            and w.x1 > box.x0
            and _letters(w.text)
        ]
        if not under:
            return None
        top = min(under, key=lambda w: w.y0)
        line = sorted((w for w in words if top.y0 <= (w.y0 + w.y1) / 2 <= top.y1), key=lambda w: w.x0)
        first = min((w for w in under if abs(w.y0 - top.y0) < 0.5 * height), key=lambda w: w.x0)
        left = [w for w in line if w.x1 <= first.x0 + 0.5 and _letters(w.text)]
        if left and first.x0 - max(w.x1 for w in left) < gap:
            return None
        cell, end = [first.text], first.x1
        for w in line:
            if w.x0 > first.x0 + 0.5:
                if w.x0 - end >= gap:
                    break
                cell.append(w.text)
                end = w.x1
        return " ".join(cell)


def _may_stand_alone(text: str, span: Span) -> bool:
    """False when the words next to ``span`` on its line of ``text`` (titles aside) begin in lower
    case, as the words of a sentence do; a name in a cell of its own has nothing beside it in the
    text or the capitalised first word of the next cell."""
    start = text.rfind("\n", 0, span.start) + 1
    end = text.find("\n", span.end)
    before = [w for w in text[start : span.start].split() if not _TITLE.match(w)]
    after = [w for w in text[span.end : end if end >= 0 else len(text)].split() if not _TITLE.match(w)]
    return not (before and before[-1][:1].islower()) and not (after and after[0][:1].islower())


def _letters(word: str) -> bool:
    """True for a word with two or more letters (not a stroke of a signature read as "1" or "„")."""
    return sum(c.isalpha() for c in word) >= 2


def _alone(row: list[OcrWord], x0: float, x1: float, gap: float) -> bool:
    """True when the words of ``row`` outside ``x0..x1`` (points) are titles, marks without
    letters (a signature's strokes or a table's rule read as "7", ":" or "-") or lie at least
    ``gap`` away on each side."""
    row = [w for w in row if _letters(w.text)]
    left = sorted((w for w in row if w.x1 <= x0 + 0.5), key=lambda w: -w.x1)
    edge = x0
    for w in left:
        if edge - w.x1 >= gap:
            break
        if not _TITLE.match(w.text):
            return False
        edge = w.x0
    right = sorted((w for w in row if w.x0 >= x1 - 0.5), key=lambda w: w.x0)
    edge = x1
    for w in right:
        if w.x0 - edge >= gap:
            break
        if not _TITLE.match(w.text):
            return False
        edge = w.x1
    return True
