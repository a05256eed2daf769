"""What the engine asks of an OCR engine (:class:`Ocr`): Tesseract
(:class:`~redactor.read.ocr.tesseract.TesseractOcr`) reads pages, a replay
(:class:`~redactor.read.ocr.stored.StoredOcr`) gives back what was read at processing."""

from __future__ import annotations

from typing import Protocol

import pymupdf

from redactor.read.ocr.page import OcrPage
from redactor.read.ocr.tesseract import ReadAhead


class Ocr(Protocol):
    """An OCR engine as extraction uses it; boxes in PDF points, pages from 1.

    ``parallel``: pages of one document read at once (1: one at a time, no read-ahead)."""

    parallel: int

    def available(self) -> bool:
        """Whether it can read now (Tesseract and its Czech model are installed)."""
        ...

    def recognize(self, page: pymupdf.Page, clip: pymupdf.Rect | None = None) -> OcrPage | None:
        """The words of ``page`` (of ``clip`` only, when given), or None when nothing is read."""
        ...

    def check_layer(self, page: pymupdf.Page, band: pymupdf.Rect) -> OcrPage | None:
        """The words of ``band`` of ``page``, to check another tool's layer against, or None."""
        ...

    def read_pictures(self, page: pymupdf.Page, regions: list[pymupdf.Rect]) -> OcrPage | None:
        """The words of the pictures ``regions`` of a text page, or None."""
        ...

    def read_ahead(
        self, doc: pymupdf.Document, numbers: list[int], bands: dict[int, pymupdf.Rect] | None = None
    ) -> ReadAhead | None:
        """Pages ``numbers`` of ``doc`` (and the ``bands`` of others, ``{page: band}``) read ahead
        in parallel, or None (nothing to gain)."""
        ...
