"""How the upload looks: each page's grey picture at a low resolution, taken once from the upload
and kept with the analysed document, so that verification compares a publication with the upload
(:func:`redactor.publish.verify.render_changes`) without opening the upload again.

Sizes are PDF points; pages count from 1.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pymupdf

#: Resolution (dpi) of the before/after page pictures compared outside the boxes.
RENDER_DPI = 36


@dataclass(frozen=True)
class PageLook:
    """One page of the upload as the pixel check compares it: its ``width`` and ``height`` in
    points, the ``unit`` its picture was scaled by (the rebuild folds a page's /UserUnit into its
    size: the picture is drawn at the size the page is published at) and ``grey``, its picture
    at :data:`RENDER_DPI` × ``unit`` (rows down the page, 0 black .. 255 white)."""

    width: float
    height: float
    unit: float
    grey: np.ndarray

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PageLook):
            return NotImplemented
        return (self.width, self.height, self.unit) == (other.width, other.height, other.unit) and np.array_equal(
            self.grey, other.grey
        )

    __hash__ = None  # type: ignore[assignment]  # a picture (an array) is not hashable, so neither is its look


def page_unit(before: pymupdf.Page, after: pymupdf.Page) -> float:
    """The scale ``after`` (the page as published) has against ``before`` (as uploaded): 1.0
    unless the rebuild folded a /UserUnit into the page's size."""
    return after.rect.width / before.rect.width if before.rect.width else 1.0


def page_look(before: pymupdf.Page, unit: float, dpi: int = RENDER_DPI) -> PageLook:
    """:class:`PageLook` of ``before`` drawn at ``dpi`` × ``unit``."""
    scale = dpi / 72 * unit
    pix = before.get_pixmap(matrix=pymupdf.Matrix(scale, scale), colorspace=pymupdf.csGRAY, alpha=False)
    grey = np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.stride)[:, : pix.width].copy()
    return PageLook(before.rect.width, before.rect.height, unit, grey)


def upload_looks(upload: bytes, published: bytes, dpi: int = RENDER_DPI) -> list[PageLook]:
    """The pages of ``upload`` as they look at the sizes of the pages of ``published`` (the
    rebuild, whose page sizes publication keeps): one :class:`PageLook` per page of ``upload``
    (at their own size when the two have different page counts: the pixel check reports that).
    Raises ``pymupdf`` errors for unreadable input (the caller read it before)."""
    with pymupdf.open(stream=upload, filetype="pdf") as a, pymupdf.open(stream=published, filetype="pdf") as b:
        return looks_of(a, b, dpi)


def looks_of(before: pymupdf.Document, after: pymupdf.Document, dpi: int = RENDER_DPI) -> list[PageLook]:
    """:func:`upload_looks` of two open documents (left open)."""
    if before.page_count != after.page_count:
        return [page_look(pa, 1.0, dpi) for pa in before]
    return [page_look(pa, page_unit(pa, pb), dpi) for pa, pb in zip(before, after, strict=True)]
