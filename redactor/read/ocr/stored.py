"""OCR read earlier, replayed (:class:`StoredOcr`): publishing extracts exactly the text the
proposals index."""

from __future__ import annotations

import pymupdf

from redactor.read.ocr.page import OcrPage


class StoredOcr:
    """OCR results read earlier (``{page number: OcrPage}``), replayed so that a later
    extraction of the same file (publishing) gives exactly the text the proposals index."""

    #: A replay reads nothing, so nothing is read ahead.
    parallel = 1

    def __init__(self, pages: dict[int, OcrPage]):
        self.pages = pages

    def read_ahead(self, doc: pymupdf.Document, numbers: list[int]) -> None:
        """None: a replay has nothing to read ahead."""
        return None

    def available(self) -> bool:
        """Always True: nothing needs to be installed to replay."""
        return True

    def recognize(self, page: pymupdf.Page, clip: pymupdf.Rect | None = None) -> OcrPage | None:
        """The stored result of ``page``, or None when it was not read by OCR; None for a
        ``clip`` too: a replay reads nothing new (:func:`layers_off` then checks nothing, and the
        stored reads say which layers gave way)."""
        return self.pages.get(page.number + 1) if clip is None else None

    def check_layer(self, page: pymupdf.Page, band: pymupdf.Rect) -> OcrPage | None:
        """The stored sample of ``page`` when its layer was checked on a sample (and kept), else
        None (the page was read in full, and :meth:`recognize` replays that)."""
        stored = self.pages.get(page.number + 1)
        return stored if stored is not None and stored.clip is not None else None

    def read_pictures(self, page: pymupdf.Page, regions: list[pymupdf.Rect]) -> OcrPage | None:
        """The stored words of the pictures of text page ``page``, or None."""
        return self.pages.get(page.number + 1)
