"""Ink on a page that no text explains: where a reader of the page sees more than its text layer says.

A page's picture is made of the glyphs of its text, of pictures, of vector paths and shadings.
Text whose characters carry a meaning explains its own ink; anything else may show text that no
extractor reads: a scan, a picture of a document pasted on a text page, a page drawn through an
image's soft mask, text drawn as vector outlines, a stamp. The reader sees that text; the text
layer does not hold it. This module finds such ink in the page as a viewer renders it
(MuPDF: soft masks, blend modes, clipping, outlines and pictures as they show), so that it is
read by OCR before the analysis and again in the published page (:mod:`redactor.publish.page_check`).

What counts (:func:`unexplained_ink`): dark pixels outside the boxes of the visible characters
that carry a meaning and outside the redaction boxes, in connected shapes of a glyph's or a
word's size (OpenCV, Apache-2.0), grouped into regions; ruled lines, frames, filled boxes, dust
and shapes larger than a line of text are not text. Coordinates are PDF points of the unrotated
page, as the text layer's boxes are; pages count from 1.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence

import numpy as np
import pymupdf

from redactor.pdf.pdf_pages import BboxLog, page_area

#: Resolution (dots per inch) at which the page's ink is looked at: a 6-point glyph is 6 pixels tall.
INK_DPI = 72
#: A pixel darker than this (0–255 grey) is ink.
DARK_BELOW = 160
#: What the bbox log calls the drawing of anything but text: pictures, masks, paths, shadings.
INK_KINDS = frozenset({"fill-image", "fill-imgmask", "fill-path", "stroke-path", "fill-shade"})
#: Points around a visible character, or a redaction box, whose ink it explains (anti-aliasing).
EXPLAIN_MARGIN = 1.0
#: A character drawn in a colour lighter than this (0..1 luminance) explains no ink: white text
#: laid over a picture says nothing of the picture's text.
EXPLAINING_LUMINANCE = 0.85
#: The height (points) of a shape that may be a glyph or a word: from a 2-point glyph to a 48-point heading.
GLYPH_HEIGHT = (2.0, 48.0)
#: A shape wider than this many times its height is a rule or a bar, not a word.
WORD_MAX_ASPECT = 25.0
#: A shape filling more than this share of its box, from :data:`SOLID_MIN_AREA` square points, is
#: a filled box (an earlier black bar, a coloured cell), not a glyph.
SOLID_SHARE = 0.85
SOLID_MIN_AREA = 40.0
#: Shapes closer than this many of their heights across (and half a height down) form one region.
REGION_GAP = 1.2
#: Points added around a region, so that OCR sees its glyphs whole.
REGION_MARGIN = 2.0


def _luminance(color: Sequence[float]) -> float:
    """0 (black) .. 1 (white) of a grey, RGB or CMYK colour as MuPDF's text trace gives it."""
    if len(color) == 1:
        return float(color[0])
    if len(color) == 3:
        r, g, b = color
        return 0.299 * r + 0.587 * g + 0.114 * b
    if len(color) == 4:
        c, m, y, k = color
        return float(1 - min(1.0, 0.299 * c + 0.587 * m + 0.114 * y + k))
    return 0.0


def _meaningful(code: int) -> bool:
    """Whether a character code of the text trace names a letter, digit or sign (not U+FFFD, a
    control or a private-use code: a glyph without meaning explains no ink)."""
    if code <= 32 or code == 0xFFFD:
        return False
    return unicodedata.category(chr(code)) not in ("Cc", "Co", "Cs", "Cn")


def explaining_boxes(page: pymupdf.Page) -> list[tuple[float, float, float, float]]:
    """Boxes (points, unrotated page) of the characters of ``page`` that explain their ink: drawn
    visibly (filled or stroked, not invisible, not fully transparent, not near-white) and
    carrying a meaning. A span whose characters all carry one gives its box whole."""
    out: list[tuple[float, float, float, float]] = []
    for span in page.get_texttrace():
        if span.get("type") not in (0, 1, 2) or span.get("opacity", 1) <= 0:
            continue
        if _luminance(span.get("color") or (0.0,)) >= EXPLAINING_LUMINANCE:
            continue
        chars = span.get("chars") or ()
        if all(_meaningful(c[0]) for c in chars):
            out.append(tuple(span["bbox"]))
            continue
        out += [tuple(c[3]) for c in chars if _meaningful(c[0])]
    return out


#: Less ink than this (square points, apart from text, rules and redaction boxes) is no text worth
#: reading: an icon, a bullet, a tick; a word of five 10-point glyphs covers about 300.
INK_MIN_AREA = 300.0
#: A page with more drawings than this (apart from text, rules and redaction boxes) is rendered
#: without measuring them.
MANY_DRAWINGS = 50
#: A path made only of rectangles this large (points, both sides) is boxes, not glyphs; glyphs drawn
#: as pixels of rectangles are smaller.
BOX_MIN_SIDE = 3.0
#: A path this thin (points) across is a ruled line or a cell border: it shows no text.
RULE_WIDTH = 1.5


def _rules(log: BboxLog) -> list[tuple[float, float, float, float]]:
    """Boxes (points) of the thin paths of a page's bbox log: ruled lines and cell borders."""
    return [
        rect
        for kind, rect in log
        if kind in ("fill-path", "stroke-path")
        and 0 <= min(rect[2] - rect[0], rect[3] - rect[1]) <= RULE_WIDTH
        and max(rect[2] - rect[0], rect[3] - rect[1]) < 1e5  # MuPDF logs a path it could not measure as infinite
    ]


def _sides(rect: tuple[float, float, float, float]) -> tuple[float, float]:
    return rect[2] - rect[0], rect[3] - rect[1]


def _dark_paths(page: pymupdf.Page) -> list[tuple[float, float, float, float]]:
    """Boxes (points) of the vector paths of ``page`` that paint dark: a fill or a stroke darker
    than :data:`DARK_BELOW`, or a fill MuPDF gives no colour (a pattern, a shading: it may paint
    anything). White and light cell backgrounds, and paths made only of rectangles of
    :data:`BOX_MIN_SIDE` or more (filled cells, black bars), are left out."""
    dark = DARK_BELOW / 255
    out = []
    for path in page.get_cdrawings():
        items = path.get("items") or ()
        if items and all(i[0] == "re" and min(_sides(tuple(i[1]))) >= BOX_MIN_SIDE for i in items):
            continue  # boxes (a filled cell, an earlier black bar) paint no glyph
        kind, fill, stroke = path.get("type", ""), path.get("fill"), path.get("color")
        paints = "f" in kind and (fill is None or (_luminance(fill) < dark and path.get("fill_opacity", 1) > 0))
        strokes = "s" in kind and stroke is not None and _luminance(stroke) < dark
        if paints or strokes:
            out.append(tuple(path["rect"]))
    return out


def ink_drawn(
    page: pymupdf.Page, log: BboxLog | None = None, covered: Iterable[tuple[float, float, float, float]] = ()
) -> bool:
    """Whether ``page`` draws anything but text (a picture, a path, a shading) inside its area,
    besides thin rules and what lies inside a ``covered`` box (points: a redaction box drawn
    over its own area is no ink to read), on :data:`INK_MIN_AREA` or more."""
    ax0, ay0, ax1, ay1 = page_area(page)
    m = EXPLAIN_MARGIN
    boxes = [(c[0] - m, c[1] - m, c[2] + m, c[3] + m) for c in covered]
    drawn: set[tuple[float, float, float, float]] = set()
    kinds = ("fill-path", "stroke-path")
    ops = [(kind, rect) for kind, rect in (log if log is not None else page.get_bboxlog()) if kind in INK_KINDS]
    rects = [rect for kind, rect in ops if kind not in kinds]

    def inside(x0: float, y0: float, x1: float, y1: float) -> bool:
        return any(b[0] <= x0 and b[1] <= y0 and x1 <= b[2] and y1 <= b[3] for b in boxes)

    # a page of tables: its cells' white fills show no text, so the paths' colours are looked up;
    # not for paths inside covered boxes alone (the redaction boxes themselves): a path's box in
    # the log holds its box among the drawings, so none of those could count
    if any(kind in kinds and min(_sides(rect)) > RULE_WIDTH and not inside(*rect) for kind, rect in ops):
        rects += _dark_paths(page)
    for x0, y0, x1, y1 in rects:
        if min(x1 - x0, y1 - y0) <= RULE_WIDTH:
            continue
        x0, y0, x1, y1 = max(x0, ax0), max(y0, ay0), min(x1, ax1), min(y1, ay1)
        if x1 <= x0 or y1 <= y0 or inside(x0, y0, x1, y1):
            continue
        drawn.add((x0, y0, x1, y1))
        if len(drawn) > MANY_DRAWINGS:
            return True
    # an icon's frame and its fill are one drawing: what lies inside another drawing counts once
    outer = [
        r
        for r in drawn
        if not any(o != r and o[0] <= r[0] and o[1] <= r[1] and r[2] <= o[2] and r[3] <= o[3] for o in drawn)
    ]
    return sum((r[2] - r[0]) * (r[3] - r[1]) for r in outer) >= INK_MIN_AREA


def unexplained_ink(
    page: pymupdf.Page,
    *,
    covered: Iterable[tuple[float, float, float, float]] = (),
    explained: Sequence[tuple[float, float, float, float]] | None = None,
    log: BboxLog | None = None,
    dpi: int = INK_DPI,
) -> list[pymupdf.Rect]:
    """Regions (points, unrotated page) of ``page`` whose rendered picture shows ink of a glyph's
    or a word's size that neither a visible character with a meaning (``explained``, by default
    :func:`explaining_boxes`) nor a ``covered`` box (a redaction, points) accounts for, in
    reading order. A page that draws nothing but text has none (its picture is not rendered)."""
    covered = list(covered)
    if log is None:
        log = page.get_bboxlog()
    if not ink_drawn(page, log, covered):
        return []
    import cv2  # noqa: PLC0415 - OpenCV only where a page has more than text

    pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False)
    image = np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width)
    dark = (image < DARK_BELOW).astype(np.uint8)
    shown = page.rotation_matrix * pymupdf.Matrix(pix.width / page.rect.width, pix.height / page.rect.height)
    scale = dpi / 72.0
    boxes = list(explaining_boxes(page) if explained is None else explained)
    pad = EXPLAIN_MARGIN * scale
    for x0, y0, x1, y1 in _pixel_boxes([*boxes, *covered, *_rules(log)], shown):
        dark[max(0, int(y0 - pad)) : max(0, int(y1 + pad + 1)), max(0, int(x0 - pad)) : max(0, int(x1 + pad + 1))] = 0
    _count, _labels, stats, _centroids = cv2.connectedComponentsWithStats(dark, connectivity=8)
    low, high = GLYPH_HEIGHT[0] * scale, GLYPH_HEIGHT[1] * scale
    # numpy over the shapes: a scan, or a picture's remnants around a page's text, has thousands
    x, y, w, h, pixels = stats[1:].astype(np.int64).T
    glyph = (pixels >= 3) & (low <= h) & (h <= high) & (w <= WORD_MAX_ASPECT * h)
    solid = (pixels >= SOLID_SHARE * w * h) & (w * h >= SOLID_MIN_AREA * scale * scale)  # a filled box
    kept = glyph & ~solid
    shapes = np.stack([x, y, x + w, y + h], axis=1)[kept].astype(float).tolist()
    back = ~shown
    return [
        (pymupdf.Rect(r) * back).normalize() + (-REGION_MARGIN, -REGION_MARGIN, REGION_MARGIN, REGION_MARGIN)
        for r in _regions(shapes, dark.shape)
    ]


def _pixel_boxes(boxes: Sequence[tuple[float, float, float, float]], matrix: pymupdf.Matrix) -> np.ndarray:
    """``boxes`` (points) through ``matrix`` onto a picture's pixels, as rows ``x0, y0, x1, y1``
    (all four corners transformed at once; a box MuPDF could not measure is left out)."""
    rows = np.array([b for b in boxes if all(abs(v) < 1e5 for v in b)], dtype=float).reshape(-1, 4)
    a, b, c, d, e, f = matrix
    xs = np.stack([rows[:, 0], rows[:, 2], rows[:, 0], rows[:, 2]], axis=1)
    ys = np.stack([rows[:, 1], rows[:, 1], rows[:, 3], rows[:, 3]], axis=1)
    px, py = a * xs + c * ys + e, b * xs + d * ys + f
    return np.stack([px.min(axis=1), py.min(axis=1), px.max(axis=1), py.max(axis=1)], axis=1)


def _regions(shapes: list[list[float]], size: tuple[int, int]) -> list[list[float]]:
    """``shapes`` (pixel boxes on a picture of ``size`` rows × columns) merged into regions:
    shapes within :data:`REGION_GAP` of their typical height across and half of it down are one
    region; a region of a single shape less than twice as wide as it is high (a dot, a tick, a
    lone glyph-sized mark) is no text. In reading order."""
    if not shapes:
        return []
    import cv2  # noqa: PLC0415

    mask = np.zeros(size, np.uint8)
    for x0, y0, x1, y1 in shapes:
        mask[int(y0) : int(y1), int(x0) : int(x1)] = 1
    height = float(np.median([b[3] - b[1] for b in shapes]))
    kernel = np.ones((max(1, int(0.5 * height)), max(3, int(REGION_GAP * height))), np.uint8)
    count, labels, stats, _centroids = cv2.connectedComponentsWithStats(cv2.dilate(mask, kernel), connectivity=8)
    rows = np.array(shapes, dtype=float)
    owner = labels[((rows[:, 1] + rows[:, 3]) / 2).astype(int), ((rows[:, 0] + rows[:, 2]) / 2).astype(int)]
    members = np.bincount(owner, minlength=count)
    out = []
    for k in range(1, count):
        x, y, w, h, _pixels = (int(v) for v in stats[k])
        # the dilation grew the region: its shapes' own extent is what is read (numpy: a scan
        # under its own text layer has thousands of shapes, each region would test them all)
        inside = rows[(x <= rows[:, 0]) & (rows[:, 2] <= x + w) & (y <= rows[:, 1]) & (rows[:, 3] <= y + h)]
        if not len(inside):
            continue
        box = [
            float(inside[:, 0].min()),
            float(inside[:, 1].min()),
            float(inside[:, 2].max()),
            float(inside[:, 3].max()),
        ]
        if members[k] >= 2 or box[2] - box[0] >= 2 * (box[3] - box[1]):
            out.append(box)
    return sorted(out, key=lambda r: (r[1], r[0]))


#: Regions of unexplained ink closer than this (points) are read as one picture: a logo's lines,
#: a stamp's words, one OCR call instead of several.
READ_TOGETHER = 12.0


def ink_regions(
    page: pymupdf.Page, read: Sequence[tuple[float, float, float, float]] = (), log: BboxLog | None = None
) -> list[pymupdf.Rect]:
    """The regions of ``page`` (points, unrotated) the analysis reads by OCR because of
    unexplained ink (:func:`unexplained_ink`), outside the pictures it reads anyway (``read``),
    merged where they lie within :data:`READ_TOGETHER` of each other."""
    found = unexplained_ink(page, covered=read, log=log)
    merged: list[pymupdf.Rect] = []
    for rect in found:
        grown = rect + (-READ_TOGETHER, -READ_TOGETHER, READ_TOGETHER, READ_TOGETHER)
        for k, other in enumerate(merged):
            if other.intersects(grown):
                merged[k] = pymupdf.Rect(other) | rect
                break
        else:
            merged.append(pymupdf.Rect(rect))
    area = page_area(page)
    return [r & area for r in merged if not (r & area).is_empty]
