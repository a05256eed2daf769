"""OCR read earlier, replayed (:class:`StoredOcr`): publishing extracts exactly the text the
proposals index."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pymupdf

from redactor.read.ocr.page import OcrPage

if TYPE_CHECKING:
    from redactor.read.ocr.protocol import Ocr
    from redactor.read.ocr.tesseract import ReadAhead


class StoredOcr:
    """OCR results read earlier (``{page number: OcrPage}``), replayed so that a later
    extraction of the same file (publishing) gives exactly the text the proposals index."""

    #: A replay reads nothing, so nothing is read ahead.
    parallel = 1

    def __init__(self, pages: dict[int, OcrPage]):
        self.pages = pages

    def read_ahead(
        self, doc: pymupdf.Document, numbers: list[int], bands: dict[int, pymupdf.Rect] | None = None
    ) -> None:
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


class ReadAgain:
    """The OCR of a second extraction of the same document, after pages were found off
    (``distrust``, :meth:`~redactor.engine.RedactionEngine.analyze`): every other page replays what
    the first extraction read there (``earlier``, its ``TextLayer.ocr_pages``: the same calls with
    the same bands come again, so the replay is exact), and only the distrusted pages, or a page
    not read before, go to ``live``. A document whose layer was off on 3 of 73 pages is read by
    Tesseract 3 more times, not 73."""

    def __init__(self, live: Ocr, earlier: dict[int, OcrPage], distrust: set[int] | frozenset[int]):
        self.live = live
        self.earlier = {n: page for n, page in earlier.items() if n not in distrust}
        self.parallel = live.parallel

    def available(self) -> bool:
        """Whether the live OCR can read."""
        return bool(self.live.available())

    def read_ahead(
        self, doc: pymupdf.Document, numbers: list[int], bands: dict[int, pymupdf.Rect] | None = None
    ) -> ReadAhead | None:
        """The live read-ahead of the pages and bands not read before."""
        fresh = {n: b for n, b in (bands or {}).items() if n not in self.earlier}
        return self.live.read_ahead(doc, [n for n in numbers if n not in self.earlier], fresh)

    def _earlier(self, page: pymupdf.Page, clip: pymupdf.Rect | None) -> OcrPage | None:
        stored = self.earlier.get(page.number + 1)
        if stored is None:
            return None
        if clip is None:
            return stored if stored.clip is None else None
        band = tuple(round(v, 2) for v in clip)
        return stored if stored.clip is not None and tuple(stored.clip) == band else None

    def recognize(self, page: pymupdf.Page, clip: pymupdf.Rect | None = None) -> OcrPage | None:
        """The first read of ``page`` (its ``clip``), or a live read."""
        return self._earlier(page, clip) or self.live.recognize(page, clip)

    def check_layer(self, page: pymupdf.Page, band: pymupdf.Rect) -> OcrPage | None:
        """The first sample of ``page`` on ``band``, or a live one."""
        return self._earlier(page, band) or self.live.check_layer(page, band)

    def read_pictures(self, page: pymupdf.Page, regions: list[pymupdf.Rect]) -> OcrPage | None:
        """The first read of ``page``'s pictures, or a live one."""
        stored = self.earlier.get(page.number + 1)
        return stored if stored is not None else self.live.read_pictures(page, regions)
