"""Redaction boxes on a page picture widened to the whole word's ink, never a part of a word.

A box drawn from OCR words covers what OCR said the word spans: when OCR split a word ("Vondráč"
+ "ková"), or gave each character an equal share of a word box that the span ends inside, the
box stops short and the last letters of a surname stay legible beside it. On the pages whose
text the product read from the picture, each box is widened left and right along the ink of its
own line until a gap as wide as a space between words; a box that would have to grow further than
:data:`MAX_GROWTH` times its height (a rule, a table's border, handwriting running on) stays as
it is.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import pymupdf

from redactor.model import Box

#: Resolution (dpi) at which a page's ink is looked at.
INK_DPI = 150
#: A pixel darker than this grey level (0..255) is ink.
INK_LEVEL = 128
#: A run of blank columns at least this share of the box's height is a gap between words.
WORD_GAP = 0.3
#: The farthest a box grows on either side, as a multiple of its height.
MAX_GROWTH = 2.0
#: The part of a box's height whose ink counts (its middle: ascenders, descenders and underlines
#: of the lines above and below stay out).
MIDDLE = (0.25, 0.75)


def widen_to_ink(pdf: bytes, boxes: Sequence[Box], pages: Iterable[int]) -> list[Box]:
    """``boxes`` (points, pages from 1) with those on ``pages`` (page numbers) widened to the ink of
    the words they cut into, in the order given; the others unchanged."""
    wanted = set(pages)
    if not any(b.page in wanted for b in boxes):
        return list(boxes)
    out = list(boxes)
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        for number in sorted(wanted):
            if number > doc.page_count:
                continue
            page = doc[number - 1]
            scale = INK_DPI / 72
            shown = page.rotation_matrix * pymupdf.Matrix(scale, scale)
            pix = page.get_pixmap(matrix=pymupdf.Matrix(scale, scale), colorspace=pymupdf.csGRAY, alpha=False)
            ink = np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width) < INK_LEVEL
            for i, box in enumerate(out):
                if box.page != number:
                    continue
                rect = (pymupdf.Rect(box.x0, box.y0, box.x1, box.y1) * shown).normalize()
                if rect.height < 2 or abs(page.rotation) % 180:
                    continue  # a box on a page turned on its side: its line runs up the picture
                left, right = _grow(ink, rect)
                if (left, right) != (rect.x0, rect.x1):
                    wide = pymupdf.Rect(left, rect.y0, right, rect.y1) * ~shown
                    out[i] = Box(number, min(box.x0, wide.x0), box.y0, max(box.x1, wide.x1), box.y1)
    return out


def _grow(ink: np.ndarray, rect: pymupdf.Rect) -> tuple[float, float]:
    """The left and right edges (pixels) of ``rect`` grown along the ink of its middle rows."""
    height = rect.height
    top = int(rect.y0 + MIDDLE[0] * height)
    bottom = max(top + 1, int(rect.y0 + MIDDLE[1] * height))
    band = ink[max(0, top) : min(ink.shape[0], bottom)]
    if band.size == 0:
        return rect.x0, rect.x1
    columns = np.asarray(band.any(axis=0), dtype=bool)
    gap = max(2, int(WORD_GAP * height))
    reach = int(MAX_GROWTH * height)
    return _edge(columns, int(rect.x0), -1, gap, reach, rect.x0), _edge(columns, int(rect.x1), 1, gap, reach, rect.x1)


def _edge(columns: np.ndarray, start: int, step: int, gap: int, reach: int, unchanged: float) -> float:
    """Walk from column ``start`` in direction ``step`` over inked columns and gaps shorter than
    ``gap``; the last inked column before a gap (its outer edge), or ``unchanged`` when the box's
    edge touches no ink. When no such gap comes within ``reach`` columns (a value glued to its
    label, "tel:774282355", read as one word and boxed by an equal share per character), the
    edge of the glyph the box cuts into: the last inked column before the first blank one."""
    blank, last, x = 0, None, start
    glyph: float | None = None
    cuts = 0 <= start + step < len(columns) and bool(columns[start + step])  # the box ends inside a glyph
    for _ in range(reach):
        x += step
        if x < 0 or x >= len(columns):
            break
        if columns[x]:
            blank, last = 0, x
        else:
            blank += 1
            if cuts and last is not None and glyph is None:
                glyph = float(last + 1) if step > 0 else float(last)
            if blank >= gap:
                if last is None:
                    return unchanged
                return float(last + 1) if step > 0 else float(last)
    return unchanged if glyph is None else glyph
