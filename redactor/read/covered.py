"""Text already under black in the input: an earlier redaction that drew an opaque dark rectangle
over live text and left the text in the file, readable by copying it, by a screen reader and by
every extractor (the failure DOMAIN.md lists first: "black boxes over text").

A rectangle counts when it is filled, opaque (fill opacity 0.95 or more), dark (every colour
component at most 0.25 of full), at least 4 points high and wide, and drawn *after* the text it
covers (content-stream order, PyMuPDF's ``seqno``); text drawn after it is on top of it (a white
heading on a black band) and is not covered. A character is covered when the centre of its box
lies inside the rectangle. Redact annotations not yet applied and black square annotations
count the same way (an annotation is drawn over all page content).

Coordinates are PDF points with y growing downwards; pages count from 1.
"""

from __future__ import annotations

import pymupdf

from redactor.model import Box
from redactor.read.extraction import TextLayer

#: A colour component at or under this (0..1) is dark.
DARK = 0.25
#: The smallest side, in points, of a rectangle that can hide text.
MIN_SIDE = 4.0


def _dark(colour: tuple[float, ...] | list[float] | None) -> bool:
    return colour is not None and len(colour) > 0 and all(c <= DARK for c in colour)


def _bars(page: pymupdf.Page) -> list[tuple[pymupdf.Rect, int]]:
    """Dark opaque filled rectangles of ``page`` with the sequence number they are drawn at
    (annotations: after everything)."""
    bars = []
    # MuPDF's drawings as plain tuples (``get_cdrawings``): the same paths ``get_drawings`` gives,
    # without a Python object for every point of every table rule on the page
    for d in page.get_cdrawings():
        if d.get("fill") is None or not _dark(d["fill"]) or (d.get("fill_opacity") or 1.0) < 0.95:
            continue
        rects = [pymupdf.Rect(item[1]) for item in d["items"] if item[0] == "re"]
        quads = [pymupdf.Quad(*item[1]).rect for item in d["items"] if item[0] == "qu"]
        for r in rects + quads or ([pymupdf.Rect(d["rect"])] if d.get("closePath") else []):
            if r.width >= MIN_SIDE and r.height >= MIN_SIDE:
                bars.append((r, d["seqno"]))
    for annot in page.annots() or []:
        colours = annot.colors or {}
        if annot.type[1] in ("Square", "Redact") and _dark(colours.get("fill")) and (annot.opacity or 1) >= 0.95:
            r = annot.rect
            if r.width >= MIN_SIDE and r.height >= MIN_SIDE:
                bars.append((pymupdf.Rect(r), 1 << 30))
    return bars


def covered_text(doc: pymupdf.Document, layer: TextLayer | None = None) -> list[Box]:
    """The dark rectangles of ``doc`` that cover live text drawn before them, one :class:`Box`
    each, clipped to the page. A page whose drawings cannot be read is skipped (nothing to
    report, nothing lost: the text is analysed as any other). ``layer``, the document's text
    layer when it is extracted already, spares the reading of a page's drawing order where none
    of the page's own characters even touches a dark rectangle (pages whose text OCR read are
    always read)."""
    found: list[Box] = []
    own = {p.number for p in layer.pages if not p.ocr and not p.pictures_read} if layer is not None else set()
    for index, page in enumerate(doc):
        try:
            bars = _bars(page)
            if not bars:
                continue
            if index + 1 in own and layer is not None and not _touched(layer, index + 1, [r for r, _s in bars]):
                continue
            spans = page.get_texttrace()
        except (RuntimeError, ValueError):
            continue
        for rect, seqno in bars:
            x0, y0, x1, y1 = rect
            for span in spans:
                if span.get("seqno", 0) >= seqno or span.get("opacity", 1) == 0:
                    continue
                sx0, sy0, sx1, sy1 = span["bbox"]
                if sx1 < x0 or sx0 >= x1 or sy1 < y0 or sy0 >= y1:
                    continue  # no character of the span can have its centre inside
                if any(
                    x0 <= (c[3][0] + c[3][2]) / 2 < x1 and y0 <= (c[3][1] + c[3][3]) / 2 < y1 for c in span["chars"]
                ):
                    clipped = rect & page.rect
                    found.append(Box(index + 1, clipped.x0, clipped.y0, clipped.x1, clipped.y1))
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
