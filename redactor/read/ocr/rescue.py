"""Lines a page reading missed: ink in the page picture that no word Tesseract gave explains.

Tesseract's page layout analysis (``--psm 3``) drops whole lines now and then: a stamp or a
signature over the text, speckle noise or a low resolution make it take a region for a picture,
and the text in it is neither analysed nor written into the published text layer, while a reader
of the scan sees it. :func:`missed_bands` finds the rows of the picture whose ink lies outside
every word's box, in bands of a text line's height; :func:`strip_of` stacks them into one
strip, which the driver reads once as a block of text (``--psm 6``) and adds the words read with
confidence (:meth:`~redactor.read.ocr.tesseract.TesseractOcr.recognize`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

#: A pixel darker than this grey level (0..255) is ink.
INK_LEVEL = 128
#: A row holds missed text when at least this share of the picture's width (and
#: :data:`ROW_MIN_PIXELS`) of its ink lies outside every word's box: a stamp's ring or a table's
#: vertical rules give a few pixels a row, a line of letters many.
ROW_MIN_SHARE = 0.004
ROW_MIN_PIXELS = 6
#: Rows this close (pixels) join one band.
BAND_GAP = 2
#: A band taller than a line is split at its rows with less ink than this share of its inkiest
#: rows (90th percentile): what joins lines there is a stroke, not letters.
SPLIT_SHARE = 0.2
#: A band is read again when its height is between these multiples of the page's median word
#: height: lower is a rule or an underline, higher a picture or a block of handwriting.
BAND_MIN_HEIGHT = 0.5
BAND_MAX_HEIGHT = 2.5
#: ... and when its rows hold on average this many missed ink pixels, and at least
#: :data:`TEXT_SHARE` of what a row of the lines that were read holds (a stamp's arc or a
#: signature's stroke holds far less than a line of letters).
BAND_MIN_INK = 8
TEXT_SHARE = 0.3
#: Pixels added above and below a band, so that its letters are whole.
BAND_MARGIN = 3
#: White pixels between two bands of the strip.
STRIP_GAP = 30
#: Words read in the strip with a lower confidence (0..100) are taken for noise (a signature's stroke).
RESCUE_MIN_CONFIDENCE = 60.0

Box = tuple[float, float, float, float]


def missed_bands(image: np.ndarray, boxes: Sequence[Box]) -> list[tuple[int, int]]:
    """Rows ``(top, bottom)`` (pixels, bottom exclusive) of the grey picture ``image`` (height ×
    width, uint8) that hold ink outside every word's box in ``boxes`` (pixels ``(x0, y0, x1,
    y1)``), as bands of a text line's height (see the module's thresholds). A page with no
    word gives no band (nothing tells a line's height; the page is read whole anyway)."""
    heights = sorted(y1 - y0 for _x0, y0, _x1, y1 in boxes if y1 > y0)
    if not heights:
        return []
    line = heights[len(heights) // 2]
    ink = image < INK_LEVEL
    read_rows = np.zeros(image.shape[0], bool)
    for _x0, y0, _x1, y1 in boxes:
        read_rows[max(0, int(y0)) : int(y1) + 1] = True
    text_rows = ink.sum(axis=1)[read_rows]
    text_level = float(np.median(text_rows[text_rows > 0])) if text_rows.any() else 0.0
    for x0, y0, x1, y1 in boxes:
        ink[max(0, int(y0)) : int(y1) + 1, max(0, int(x0)) : int(x1) + 1] = False
    rows = ink.sum(axis=1)
    floor = max(ROW_MIN_PIXELS, ROW_MIN_SHARE * image.shape[1])
    bands = []
    for top, bottom in _runs(rows >= floor, 0):
        if bottom - top <= BAND_MAX_HEIGHT * line:
            bands.append((top, bottom))
            continue
        # lines joined by a stamp's ring or a stroke down the page: split at the rows that hold
        # only the stroke (a line of letters has far more ink a row)
        local = rows[top:bottom]
        bands += _runs(local >= max(floor, SPLIT_SHARE * float(np.percentile(local, 90))), top)
    out = []
    for top, bottom in bands:
        height = bottom - top
        if not (BAND_MIN_HEIGHT * line <= height <= BAND_MAX_HEIGHT * line):
            continue
        if float(rows[top:bottom].mean()) < max(BAND_MIN_INK, TEXT_SHARE * text_level):
            continue
        out.append((max(0, top - BAND_MARGIN), min(image.shape[0], bottom + BAND_MARGIN)))
    return out


def _runs(dense: np.ndarray, offset: int) -> list[tuple[int, int]]:
    """Runs ``(top, bottom)`` of True rows in ``dense``, gaps of :data:`BAND_GAP` rows bridged,
    shifted by ``offset``."""
    runs: list[tuple[int, int]] = []
    start = last = -1
    for y in np.flatnonzero(dense):
        if start >= 0 and y - last <= BAND_GAP + 1:
            last = int(y)
            continue
        if start >= 0:
            runs.append((offset + start, offset + last + 1))
        start = last = int(y)
    if start >= 0:
        runs.append((offset + start, offset + last + 1))
    return runs


def strip_of(image: np.ndarray, bands: Sequence[tuple[int, int]]) -> tuple[np.ndarray, list[tuple[int, int, int]]]:
    """The ``bands`` of ``image`` stacked into one picture with :data:`STRIP_GAP` white rows
    around each, and where each band lies: ``(first row in the strip, last row + 1, its top in
    the page)``, to turn a word's place in the strip back into the page's."""
    gap = np.full((STRIP_GAP, image.shape[1]), 255, np.uint8)
    parts, offsets, y = [gap], [], STRIP_GAP
    for top, bottom in bands:
        offsets.append((y, y + bottom - top, top))
        parts += [image[top:bottom], gap]
        y += bottom - top + STRIP_GAP
    return np.vstack(parts), offsets


def band_shift(offsets: Sequence[tuple[int, int, int]], y0: float, y1: float) -> tuple[int, float] | None:
    """Which band of a strip (:func:`strip_of`'s ``offsets``) a word read from ``y0`` to ``y1``
    (strip pixels) lies in, by its middle, and what to add to its rows to put it back on the page:
    ``(band index, shift)``; None for a word in a gap between bands."""
    middle = (y0 + y1) / 2
    for k, (start, end, top) in enumerate(offsets):
        if start <= middle < end:
            return k, float(top - start)
    return None


def worth_keeping(text: str, confidence: float) -> bool:
    """Whether a word read in the strip is text, not a stroke read as letters: read with
    :data:`RESCUE_MIN_CONFIDENCE` or more, with two letters or digits, half of it so."""
    alnum = sum(c.isalnum() for c in text)
    return confidence >= RESCUE_MIN_CONFIDENCE and alnum >= 2 and 2 * alnum >= len(text)


#: A line read in the strip is kept when its words' mean confidence reaches this (0..100) ...
RESCUE_LINE_MIN_CONFIDENCE = 70.0


def line_worth_keeping(words: Sequence[tuple[str, float]]) -> bool:
    """Whether a line read in the strip (``(text, confidence)`` of its words that
    :func:`worth_keeping` let through) is text: a mean confidence of
    :data:`RESCUE_LINE_MIN_CONFIDENCE` and two words, or one of four letters or digits (a lone
    short word is what speckles and strokes read as)."""
    if not words or sum(c for _t, c in words) / len(words) < RESCUE_LINE_MIN_CONFIDENCE:
        return False
    return len(words) >= 2 or sum(ch.isalnum() for ch in words[0][0]) >= 4
