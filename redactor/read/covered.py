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
    for d in page.get_drawings():
        if d.get("fill") is None or not _dark(d["fill"]) or (d.get("fill_opacity") or 1.0) < 0.95:
            continue
        rects = [item[1] for item in d["items"] if item[0] == "re"]
        quads = [item[1].rect for item in d["items"] if item[0] == "qu"]
        for r in rects + quads or ([d["rect"]] if d.get("closePath") else []):
            if r.width >= MIN_SIDE and r.height >= MIN_SIDE:
                bars.append((pymupdf.Rect(r), d["seqno"]))
    for annot in page.annots() or []:
        colours = annot.colors or {}
        if annot.type[1] in ("Square", "Redact") and _dark(colours.get("fill")) and (annot.opacity or 1) >= 0.95:
            r = annot.rect
            if r.width >= MIN_SIDE and r.height >= MIN_SIDE:
                bars.append((pymupdf.Rect(r), 1 << 30))
    return bars


def covered_text(doc: pymupdf.Document) -> list[Box]:
    """The dark rectangles of ``doc`` that cover live text drawn before them, one :class:`Box`
    each, clipped to the page. A page whose drawings cannot be read is skipped (nothing to
    report, nothing lost: the text is analysed as any other)."""
    found: list[Box] = []
    for index, page in enumerate(doc):
        try:
            bars = _bars(page)
            if not bars:
                continue
            spans = page.get_texttrace()
        except (RuntimeError, ValueError):
            continue
        for rect, seqno in bars:
            for span in spans:
                if span.get("seqno", 0) >= seqno or span.get("opacity", 1) == 0:
                    continue
                if any(
                    rect.contains(pymupdf.Point((c[3][0] + c[3][2]) / 2, (c[3][1] + c[3][3]) / 2))
                    for c in span["chars"]
                ):
                    clipped = rect & page.rect
                    found.append(Box(index + 1, clipped.x0, clipped.y0, clipped.x1, clipped.y1))
                    break
    return found
