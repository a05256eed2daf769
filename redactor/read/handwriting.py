"""Ink on a scanned page that no text explains: handwritten signatures, initials and the parts of
rubber stamps OCR does not read.

A signature is ink, not text: OCR reads it as nothing or as a few low-confidence letters, so no
recognizer ever proposes a box for it. This module finds such ink in the page's picture
(OpenCV, Apache-2.0): dark or coloured pixels outside the words the text layer explains (words
read with confidence, or another tool's layer), without ruled lines, grouped into marks. Whether
a mark is a private person's signature is the decision's business
(:mod:`redactor.decide.signatures`), which looks for the signature block the mark lies in.

Coordinates are PDF points of the unrotated page, as the text layer's boxes are; pages count
from 1.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import pymupdf

from redactor.model import Box

#: Resolution (dots per inch) at which the page is looked at: strokes of a pen are 2–4 pixels wide.
INK_DPI = 100
#: A pixel darker than this (0–255 grey) is ink.
DARK_BELOW = 190
#: A pixel this much more saturated (0–255, HSV) than the paper, and not white, is coloured ink:
#: a light ballpoint's strokes on the real scans have a median saturation of ~50, the paper ~0.
COLOURED_SATURATION = 30
#: OCR words read with at least this confidence (0–100) and two letters or digits explain their ink.
EXPLAINED_CONFIDENCE = 60
#: A straight run of ink at least this long (points) is a ruled line (a signature line, a table), not a mark.
RULE_LENGTH = 36.0
#: A straight run this long (points) or longer is a line of the form, never part of a mark.
TAIL_LENGTH = 100.0
#: A group more than this share (0..1) of whose ink lies on ruled lines is a line, not a mark.
RULED_SHARE = 0.5
#: Strokes closer than this (points, across × down) belong to one mark.
STROKE_GAP = (10.0, 6.0)
#: The smallest mark kept: width, height (points) and inked pixels at :data:`INK_DPI`.
MIN_MARK = (8.0, 5.0, 15)
#: A mark's longest connected stroke has at least this many inked pixels at :data:`INK_DPI`
#: (a pen's stroke; scattered dust has none).
MIN_STROKE = 12
#: The largest: a mark wider or taller (points) is not a signature or a stamp.
MAX_MARK = (320.0, 180.0)


@dataclass(frozen=True)
class InkMark:
    """A group of strokes on page ``page`` (from 1) that no word explains: its box in points,
    ``pixels`` inked at :data:`INK_DPI` and the share (0..1) of them in colour (a pen or a
    stamp pad; a black-and-white scan gives 0)."""

    page: int
    x0: float
    y0: float
    x1: float
    y1: float
    pixels: int
    coloured: float

    @property
    def box(self) -> Box:
        """The mark's box (points)."""
        return Box(self.page, self.x0, self.y0, self.x1, self.y1)

    def to_list(self) -> list[float]:
        """``[x0, y0, x1, y1, pixels, coloured]`` (the page is the caller's key)."""
        return [self.x0, self.y0, self.x1, self.y1, self.pixels, self.coloured]

    @classmethod
    def from_list(cls, page: int, row: list[float]) -> InkMark:
        """The inverse of :meth:`to_list`."""
        x0, y0, x1, y1, pixels, coloured = row
        return cls(page, x0, y0, x1, y1, int(pixels), coloured)


def explained(words: Iterable[tuple[str, float, float, float, float, float]]) -> list[tuple[float, ...]]:
    """The boxes ``(x0, y0, x1, y1)`` (points) of the words ``(text, x0, y0, x1, y1, confidence)``
    whose ink is text: read with :data:`EXPLAINED_CONFIDENCE` or more and holding a letter or a
    digit (a signature read as "Ž/" is not), or a form's label ("E-mail:") however sure OCR was."""
    return [
        (x0, y0, x1, y1)
        for text, x0, y0, x1, y1, confidence in words
        if (confidence >= EXPLAINED_CONFIDENCE and any(c.isalnum() for c in text))
        or (text.endswith(":") and sum(c.isalpha() for c in text) >= 3)
    ]


def ink_marks(
    page: pymupdf.Page, text_boxes: Iterable[tuple[float, ...]], pen_over: Iterable[tuple[float, ...]] = ()
) -> list[InkMark]:
    """The marks on ``page`` that none of ``text_boxes`` (points, :func:`explained`) explains,
    largest first. Inside the boxes of ``pen_over`` (points: the words of a signature block's
    label, :func:`label_boxes`) a pen's coloured strokes stay ink when they are less than half of
    the box's ink and run on outside the words (a signature across "Poskytovatel služeb:", not
    the coloured fringe of bold print); elsewhere a word explains all the ink in its box (a stamp
    over a line of text stays the text's).

    The page is rendered at :data:`INK_DPI`; ink is a pixel darker than :data:`DARK_BELOW` or
    coloured (:data:`COLOURED_SATURATION` above the page's median); ruled lines (straight runs of :data:`RULE_LENGTH`)
    do not make a mark (a group mostly of them, :data:`RULED_SHARE`, is dropped; a signature
    keeps the straight tail of its last stroke), strokes within :data:`STROKE_GAP` are grouped,
    and groups between :data:`MIN_MARK` and :data:`MAX_MARK` kept. Costs one rendering (~0.1 s for an A4 page)."""
    import cv2  # noqa: PLC0415 - only for scanned pages
    import numpy as np  # noqa: PLC0415

    scale = INK_DPI / 72
    pix = page.get_pixmap(dpi=INK_DPI, alpha=False, colorspace=pymupdf.csRGB)
    rgb = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, pix.n)[:, :, :3]
    grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    hsv = cv2.cvtColor(rgb, cv2.COLOR_RGB2HSV)
    # a tinted sheet raises the saturation of the whole page: colour is counted above its own paper's
    saturation = max(COLOURED_SATURATION, float(np.median(hsv[:, :, 1])) + COLOURED_SATURATION)
    coloured = (hsv[:, :, 1] > saturation) & (hsv[:, :, 2] < 245)
    ink = ((grey < DARK_BELOW) | coloured).astype(np.uint8)
    # a pen's strokes are 2–4 pixels wide; the coloured fringe a scanner leaves on black print is one
    pen = cv2.morphologyEx(coloured.astype(np.uint8), cv2.MORPH_OPEN, np.ones((2, 2), np.uint8)).astype(np.uint8)
    turn = page.rotation_matrix  # boxes are points of the unrotated page, the picture is as displayed

    def area_of(box: tuple[float, ...]) -> tuple[slice, slice]:
        x0, y0, x1, y1 = pymupdf.Rect(box) * turn
        return slice(max(0, int(y0 * scale) - 1), int(y1 * scale) + 2), slice(
            max(0, int(x0 * scale) - 1), int(x1 * scale) + 2
        )

    printed = ink.copy()
    for box in text_boxes:
        ink[area_of(box)] = 0
    labels_over = list(pen_over)
    if labels_over:
        # a pen's stroke across a label stays ink: coloured strokes that are a minority of the
        # word's ink (a word printed in colour is coloured all through, and is print) and run on
        # outside the words (a scanner's coloured fringe on bold print stays inside its letters)
        _n, strokes_of = cv2.connectedComponents(pen)
        crossing = np.isin(strokes_of, np.unique(strokes_of[(pen > 0) & (ink > 0)]))
        for box in labels_over:
            area = area_of(box)
            strokes = pen[area] & crossing[area].astype(np.uint8)
            if int(pen[area].sum()) * 2 < int(printed[area].sum()):
                ink[area] |= printed[area] & strokes
    run = max(3, int(RULE_LENGTH * scale))
    rules = np.zeros_like(ink)
    for kernel in ((run, 1), (1, run)):
        opened = cv2.morphologyEx(ink, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, kernel))
        rules = np.maximum(rules, opened.astype(np.uint8))
    # a long straight run (a signature line, a stamp's or a table's frame) joins no strokes into a
    # mark: two signatures and a stamp between them stay three marks; a pen's tail stays with its
    # signature
    runs, run_labels, run_stats, _ = cv2.connectedComponentsWithStats(rules)
    long_runs = [j for j in range(1, runs) if max(run_stats[j, 2], run_stats[j, 3]) >= TAIL_LENGTH * scale]
    if long_runs:
        ink = ink & ~np.isin(run_labels, long_runs)
    gap = cv2.getStructuringElement(
        cv2.MORPH_ELLIPSE, (max(1, int(STROKE_GAP[0] * scale)), max(1, int(STROKE_GAP[1] * scale)))
    )
    count, labels, stats, _ = cv2.connectedComponentsWithStats(cv2.dilate(ink, gap))
    marks = []
    for i in range(1, count):
        x, y, w, h, _area = (int(v) for v in stats[i])
        if not (MIN_MARK[0] * scale <= w <= MAX_MARK[0] * scale and MIN_MARK[1] * scale <= h <= MAX_MARK[1] * scale):
            continue
        inked = (labels[y : y + h, x : x + w] == i) & (ink[y : y + h, x : x + w] > 0)
        pixels = int(inked.sum())
        ruled = int((inked & (rules[y : y + h, x : x + w] > 0)).sum())
        if pixels - ruled < MIN_MARK[2] or ruled > RULED_SHARE * pixels:
            continue  # a ruled line, a table's frame (a pen's long tail stays with its signature)
        strokes, _labels, sizes, _centres = cv2.connectedComponentsWithStats(inked.astype(np.uint8))
        if strokes < 2 or int(sizes[1:, cv2.CC_STAT_AREA].max()) < MIN_STROKE:
            continue  # scanner dust grouped by the gap: no stroke of a pen in it
        share = float(coloured[y : y + h, x : x + w][inked].mean())
        ys, xs = np.nonzero(inked)  # the strokes' own extent, without the grouping's margin
        drawn = pymupdf.Rect(x + int(xs.min()), y + int(ys.min()), x + int(xs.max()) + 1, y + int(ys.max()) + 1)
        r = (drawn / scale) * page.derotation_matrix
        marks.append(
            InkMark(
                page.number + 1, round(r.x0, 2), round(r.y0, 2), round(r.x1, 2), round(r.y1, 2), pixels, round(share, 3)
            )
        )
    return sorted(marks, key=lambda m: -m.pixels)


#: A label's words on one row are at most this far apart (points); a label is at most this many words.
LABEL_GAP, LABEL_WORDS = 24.0, 4


def label_boxes(words: Iterable[tuple[str, int, tuple[float, float, float, float]]]) -> list[tuple[float, ...]]:
    """The boxes (points) of the words ``(text, line, box)`` that make a label of a block: a run of
    at most :data:`LABEL_WORDS` words on one line, each within :data:`LABEL_GAP` of the last, whose
    last word ends with a colon ("Poskytovatel služeb:", "Za objednatele:")."""
    rows: dict[int, list[tuple[str, tuple[float, float, float, float]]]] = {}
    for text, line, box in words:
        rows.setdefault(line, []).append((text, box))
    out: list[tuple[float, ...]] = []
    for row in rows.values():
        row.sort(key=lambda w: w[1][0])
        run: list[tuple[str, tuple[float, float, float, float]]] = []
        for text, box in row:
            if run and box[0] - run[-1][1][2] > LABEL_GAP:
                run = []
            run.append((text, box))
            if text.endswith(":") and len(run) <= LABEL_WORDS:
                out += [b for _t, b in run]
                run = []
    return out


def marks_dict(marks: dict[int, list[InkMark]]) -> dict[str, list[list[float]]]:
    """``{page: marks}`` as JSON (page numbers as strings)."""
    return {str(n): [m.to_list() for m in found] for n, found in marks.items()}


def marks_from_dict(data: dict[str, list[list[float]]]) -> dict[int, list[InkMark]]:
    """The inverse of :func:`marks_dict`."""
    return {int(n): [InkMark.from_list(int(n), row) for row in rows] for n, rows in data.items()}
