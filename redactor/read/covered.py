"""Text already under black in the input: an earlier redaction that drew an opaque dark rectangle
over live text and left the text in the file, readable by copying it, by a screen reader and by
every extractor (the failure DOMAIN.md lists first: "black boxes over text").

A rectangle counts when it is filled, opaque (fill opacity 0.95 or more), dark (every colour
component at most 0.25 of full), at least 4 points high and wide, and drawn *after* the text it
covers (content-stream order, PyMuPDF's ``seqno``); text drawn after it is on top of it (a white
heading on a black band) and is not covered. A character is covered when the centre of its box
lies inside the rectangle. Redact annotations not yet applied and black square annotations
count the same way (an annotation is drawn over all page content).

A white-out fails the same way (:func:`whited_text`): an opaque rectangle of the paper's colour
(every component at least 0.95) drawn after the text, over at least :data:`WHITE_MIN_SHARE` of a
character's box; drawn over part of a line's height it also leaves the rest of the letters
legible to the eye ("the lower half of an e-mail address").

Coordinates are PDF points with y growing downwards; pages count from 1.
"""

from __future__ import annotations

from typing import Any

import pymupdf

from redactor.model import Box
from redactor.read.extraction import TextLayer

#: A colour component at or under this (0..1) is dark.
DARK = 0.25
#: The smallest side, in points, of a rectangle that can hide text.
MIN_SIDE = 4.0
#: A colour component at or over this (0..1) is the paper's white.
WHITE = 0.95
#: The share (0..1) of a character's box a white rectangle must cover to hide it, in part.
WHITE_MIN_SHARE = 0.3


def _dark(colour: tuple[float, ...] | list[float] | None) -> bool:
    return colour is not None and len(colour) > 0 and all(c <= DARK for c in colour)


def _white(colour: tuple[float, ...] | list[float] | None) -> bool:
    return colour is not None and len(colour) > 0 and all(c >= WHITE for c in colour)


def _bars(page: pymupdf.Page) -> tuple[list[tuple[pymupdf.Rect, int]], list[tuple[pymupdf.Rect, int]]]:
    """The dark and the white opaque filled rectangles of ``page``, each with the sequence number
    it is drawn at (annotations: after everything), from one reading of its drawings."""
    dark: list[tuple[pymupdf.Rect, int]] = []
    white: list[tuple[pymupdf.Rect, int]] = []

    def add(colour: tuple[float, ...] | list[float] | None, rect: pymupdf.Rect, seqno: int) -> None:
        into = dark if _dark(colour) else white if _white(colour) else None
        if into is not None and rect.width >= MIN_SIDE and rect.height >= MIN_SIDE:
            into.append((rect, seqno))

    # MuPDF's drawings as plain tuples (``get_cdrawings``): the same paths ``get_drawings`` gives,
    # without a Python object for every point of every table rule on the page
    for d in page.get_cdrawings():
        if d.get("fill") is None or (d.get("fill_opacity") or 1.0) < 0.95:
            continue
        rects = [pymupdf.Rect(item[1]) for item in d["items"] if item[0] == "re"]
        quads = [pymupdf.Quad(*item[1]).rect for item in d["items"] if item[0] == "qu"]
        for r in rects + quads or ([pymupdf.Rect(d["rect"])] if d.get("closePath") else []):
            add(d["fill"], r, d["seqno"])
    for annot in page.annots() or []:
        if annot.type[1] in ("Square", "Redact") and (annot.opacity or 1) >= 0.95:
            add((annot.colors or {}).get("fill"), pymupdf.Rect(annot.rect), 1 << 30)
    return dark, white


def covered_text(doc: pymupdf.Document, layer: TextLayer | None = None) -> list[Box]:
    """The dark rectangles of ``doc`` that cover live text drawn before them, one :class:`Box`
    each, clipped to the page (:func:`earlier_boxes`)."""
    return earlier_boxes(doc, layer)[0]


def whited_text(doc: pymupdf.Document, layer: TextLayer | None = None) -> list[Box]:
    """The white rectangles of ``doc`` drawn over live text, each over at least
    :data:`WHITE_MIN_SHARE` of a character's box (a white-out, module docstring)
    (:func:`earlier_boxes`)."""
    return earlier_boxes(doc, layer)[1]


def earlier_boxes(doc: pymupdf.Document, layer: TextLayer | None = None) -> tuple[list[Box], list[Box]]:
    """``(black, white)``: the dark rectangles of ``doc`` that cover live text drawn before them,
    and the white-outs (module docstring), one :class:`Box` each, clipped to the page; each page's
    drawings and text order are read once for both. A page whose drawings cannot be read is
    skipped (nothing to report, nothing lost: the text is analysed as any other). ``layer``, the
    document's text layer when it is extracted already, spares the reading of a page's drawing
    order where none of the page's own characters even touches such a rectangle (pages whose
    text OCR read are always read)."""
    black: list[Box] = []
    whiteouts: list[Box] = []
    own = {p.number for p in layer.pages if not p.ocr and not p.pictures_read} if layer is not None else set()
    for index, page in enumerate(doc):
        try:
            dark, white = _bars(page)
            if not dark and not white:
                continue
            bars = [r for r, _s in dark + white]
            if index + 1 in own and layer is not None and not _touched(layer, index + 1, bars):
                continue
            spans = page.get_texttrace()
        except (RuntimeError, ValueError):
            continue
        black += _hiding(page, dark, spans, white=False)
        whiteouts += _hiding(page, white, spans, white=True)
    return black, whiteouts


def _hides(rect: pymupdf.Rect, char: tuple[float, float, float, float], white: bool) -> bool:
    """Whether ``rect`` hides the character of box ``char``: over its centre (a dark box), over
    :data:`WHITE_MIN_SHARE` of it (a white one)."""
    x0, y0, x1, y1 = rect
    cx0, cy0, cx1, cy1 = char
    if not white:
        return bool(x0 <= (cx0 + cx1) / 2 < x1 and y0 <= (cy0 + cy1) / 2 < y1)
    area = (cx1 - cx0) * (cy1 - cy0)
    overlap = max(0.0, min(x1, cx1) - max(x0, cx0)) * max(0.0, min(y1, cy1) - max(y0, cy0))
    return bool(area > 0 and overlap >= WHITE_MIN_SHARE * area)


def _hiding(
    page: pymupdf.Page, bars: list[tuple[pymupdf.Rect, int]], spans: list[dict[str, Any]], *, white: bool
) -> list[Box]:
    """The ``bars`` of ``page`` (1-based page in the boxes) drawn over a character of ``spans``
    (the page's text trace) that was drawn before them."""
    found: list[Box] = []
    for rect, seqno in bars:
        x0, y0, x1, y1 = rect
        for span in spans:
            if span.get("seqno", 0) >= seqno or span.get("opacity", 1) == 0:
                continue
            sx0, sy0, sx1, sy1 = span["bbox"]
            if sx1 < x0 or sx0 >= x1 or sy1 < y0 or sy0 >= y1:
                continue  # no character of the span can lie under it
            if any(_hides(rect, c[3], white) for c in span["chars"] if not chr(c[0]).isspace()):
                clipped = rect & page.rect
                found.append(Box(page.number + 1, clipped.x0, clipped.y0, clipped.x1, clipped.y1))
                break
    return found


def _touched(layer: TextLayer, number: int, bars: list[pymupdf.Rect]) -> bool:
    """Whether a character box of page ``number`` of ``layer`` overlaps one of ``bars``."""
    info = layer.pages[number - 1]
    for box in layer.boxes[info.start : info.end]:
        if box is None or box[0] != number:
            continue
        _page, x0, y0, x1, y1 = box
        for bar in bars:
            if x0 <= bar.x1 and x1 >= bar.x0 and y0 <= bar.y1 and y1 >= bar.y0:
                return True
    return False
