"""The stored document: what processing keeps of a contract and what every later reader opens
instead of the upload. The allowlist rebuild of the upload (:class:`~redactor.pdf.rebuilt.Rebuilt`,
its PDF the one analysis read, burn-in burns into and review pictures are drawn from), the
analysed text layer (:class:`~redactor.read.extraction.TextLayer`, the page words a reviewer
selects, OCR's words on a scan) and the upload's looks (:class:`~redactor.read.looks.PageLook`,
what verification compares a publication with). None of its readers opens the upload.

Stored as two files: the rebuilt PDF, and the layer with the rebuild's report and the looks
(:mod:`redactor.read.stored_layer`). Coordinates are PDF points, y growing downwards, in the
unrotated page (as proposals' boxes are); pages count from 1.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from redactor.errors import StoredLayerError
from redactor.model import Box, Span
from redactor.pdf.ink import widen_to_ink
from redactor.pdf.pdf_pages import IMAGE_PADDING, over_images
from redactor.pdf.rebuild import open_rebuilt
from redactor.pdf.rebuilt import Rebuilt
from redactor.read.extraction import TextLayer, extract_text_layer
from redactor.read.looks import PageLook, upload_looks
from redactor.read.ocr import OcrPage, StoredOcr
from redactor.read.review import (
    MAX_RENDER_PIXELS,
    WatchdogPage,
    black_areas,
    page_coverage,
    page_signatures,
    render_page,
    repeated_pages,
    spans_in_boxes,
    watchdog_pages,
)
from redactor.read.stored_layer import LAYER_FORMAT, StoredParts, layer_to_bytes, read_stored

#: A word of a page: its text and its box ``(x0, y0, x1, y1)`` in points.
PageWord = tuple[str, float, float, float, float]


@dataclass
class StoredDocument:
    """A contract's document as processing stored it (module docstring).

    ``rebuilt`` is the allowlist rebuild (its ``pdf`` and what it removed), ``layer`` the analysed
    text layer. ``upload`` is the original's bytes, held only from the analysis to the first
    reading of :meth:`looks` (processing stores the looks; a stored document read back has them
    and no upload).
    """

    #: The format of the layer file (:data:`~redactor.read.stored_layer.LAYER_FORMAT`); a layer
    #: file of another format is read by :meth:`layer_of` (format 2) or not at all.
    FORMAT: ClassVar[int] = LAYER_FORMAT

    rebuilt: Rebuilt
    layer: TextLayer
    upload: bytes | None = field(default=None, repr=False)
    _looks: list[PageLook] | None = field(default=None, repr=False)

    @property
    def pdf(self) -> bytes:
        """The rebuilt PDF."""
        return self.rebuilt.pdf

    @property
    def page_count(self) -> int:
        """Pages of the document."""
        return len(self.layer.pages)

    def looks(self) -> list[PageLook]:
        """How the upload's pages look (:func:`~redactor.read.looks.upload_looks`), what
        verification compares a publication with; a document whose rebuild applied a clerk's own
        redaction marks is compared with the rebuild, which changed its look on purpose. Drawn
        once from ``upload``. Raises ``ValueError`` for a document read back without them."""
        if self._looks is None:
            if self.upload is None:
                raise ValueError("a stored document without the upload's looks")
            marked = bool(self.rebuilt.removed.get("redaction marks applied"))
            self._looks = upload_looks(self.pdf if marked else self.upload, self.pdf)
        return self._looks

    # -- what review reads ------------------------------------------------------------------
    def picture(
        self, page: int, *, zoom: float = 1.5, boxes: list[Box] | None = None, max_pixels: int = MAX_RENDER_PIXELS
    ) -> bytes:
        """PNG of page ``page`` as :func:`~redactor.read.review.render_page` draws it, with
        ``boxes`` burned in when given. Raises ``IndexError`` and ``InvalidPdfError`` like it."""
        return render_page(self.pdf, page, zoom=zoom, redact=boxes, max_pixels=max_pixels)

    def words(self, page: int) -> list[PageWord]:
        """The words of page ``page`` as analysed (:meth:`words_of` of the layer)."""
        return self.words_of(self.layer, page)

    @staticmethod
    def words_of(layer: TextLayer, page: int) -> list[PageWord]:
        """The words of page ``page`` of an analysed ``layer`` (the text layer's, OCR's on a
        scan), in reading order: what a reviewer selects on the page's picture; the rebuilt PDF
        is not needed. Raises ``IndexError`` for a page out of range."""
        if not 1 <= page <= len(layer.pages):
            raise IndexError(f"page {page} out of range 1..{len(layer.pages)}")
        return [(w.text, w.x0, w.y0, w.x1, w.y1) for _span, w in layer.layer_words(page)]

    def spans_under(self, boxes: list[Box]) -> list[Span]:
        """The layer's text under ``boxes`` (:func:`~redactor.read.review.spans_in_boxes`)."""
        return spans_in_boxes(self.layer, boxes)

    def repeated_pages(self) -> dict[int, int]:
        """Pages repeating an earlier one (:func:`~redactor.read.review.repeated_pages`)."""
        return repeated_pages(self.layer)

    def signatures(self) -> dict[int, list[int]]:
        """Each page's MinHash signature (:func:`~redactor.read.review.page_signatures`), kept
        so that a later contract's pages are compared with this one's without its text."""
        return page_signatures(self.layer)

    def coverage(self, boxes: list[Box]) -> dict[int, float]:
        """The blacked-out share (0..1) of each page with ``boxes`` burned in
        (:func:`~redactor.read.review.page_coverage`)."""
        return page_coverage(boxes, {p.number: (p.width, p.height) for p in self.layer.pages})

    def black_areas(
        self, boxes: list[Box] | None = None, pages: Iterable[int] | None = None, pictured: Iterable[int] = ()
    ) -> dict[int, np.ndarray]:
        """The solid black already in each page's picture (:func:`~redactor.read.review.black_areas`
        of the rebuild) or, with ``boxes``, in the pictures of the pages as published with them
        (:meth:`burned` with ``pictured``, painted black); ``pages`` (from 1) limits the pages
        drawn."""
        return black_areas(self.pdf, self.burned(boxes, pictured) if boxes else (), pages)

    def burned(self, boxes: list[Box], pictured: Iterable[int] = ()) -> list[Box]:
        """``boxes`` as publishing blackens them: on a page read by OCR widened to the ink of the
        words they cut into (:func:`~redactor.pdf.ink.widen_to_ink`), and where a box lies over a
        picture of the page (the rebuild's images) or on a page published as a picture of itself
        (its text misread, or one of ``pictured``), also grown by :data:`~redactor.pdf.pdf_pages.IMAGE_PADDING` on every
        side (:mod:`redactor.publish.burn`,
        :func:`~redactor.publish.text_writing.publish_as_pictures`). Points, pages from 1."""
        boxes = widen_to_ink(self.pdf, boxes, [p.number for p in self.layer.pages if p.ocr])
        images = self.rebuilt.images
        pictured = {p.number for p in self.layer.pages if p.text_misread} | set(pictured)
        grown = []
        for b in boxes:
            if b.page in pictured or over_images((b.x0, b.y0, b.x1, b.y1), images.get(b.page, ())):
                pad = IMAGE_PADDING
                grown.append(Box(b.page, max(0.0, b.x0 - pad), max(0.0, b.y0 - pad), b.x1 + pad, b.y1 + pad))
        return [*boxes, *grown]

    def watchdog(
        self, boxes: list[Box], black: dict[int, np.ndarray] | None = None, pictured: Iterable[int] = ()
    ) -> list[WatchdogPage]:
        """Each page as the registry's watchdog would score it when published with ``boxes``
        (:func:`~redactor.read.review.watchdog_pages`), the pages ``pictured`` published as
        pictures of themselves: ``black`` is :meth:`black_areas` with the same boxes when the
        caller kept it (drawn otherwise), the pages' pictures as publishing leaves them. Before
        approval and after publishing the same boxes give the same figures; what a renderer adds
        along a box's edge (under a point) is left out."""
        if black is None:
            black = self.black_areas(boxes, pictured=pictured)
        return watchdog_pages(self.layer, boxes, black)

    # -- storage ----------------------------------------------------------------------------
    def layer_bytes(self) -> bytes:
        """The file stored beside the rebuilt PDF: the layer, the rebuild's report and the looks
        (:func:`~redactor.read.stored_layer.layer_to_bytes`); draws the looks when not yet drawn."""
        return layer_to_bytes(self.layer, self.rebuilt, self.looks())

    @classmethod
    def from_stored(cls, layer_bytes: bytes, pdf: bytes) -> StoredDocument:
        """The document from its two stored files (:meth:`layer_bytes` and :attr:`pdf`; the
        caller checked their hashes). Raises :class:`~redactor.read.stored_layer.StoredLayerError`
        for a damaged layer file or one stored without the rebuild's report and looks (before
        documents were stored)."""
        document = cls.from_parts(read_stored(layer_bytes), pdf)
        if document is None:
            raise StoredLayerError("a text layer stored without its document")
        return document

    @classmethod
    def from_parts(cls, parts: StoredParts, pdf: bytes) -> StoredDocument | None:
        """The document from a layer file already read (:func:`~redactor.read.stored_layer.read_stored`)
        and the rebuilt ``pdf``; None when the layer was stored without the rebuild's report and
        looks."""
        if parts.rebuild is None or parts.looks is None:
            return None
        rebuild = dataclasses.replace(parts.rebuild, pdf=pdf)
        return cls(rebuild, parts.layer, _looks=parts.looks)

    @staticmethod
    def layer_of(layer_bytes: bytes) -> TextLayer:
        """The text layer of a stored layer file, of this format or of the layer-only format 2
        (the rebuilt PDF is not needed). Raises
        :class:`~redactor.errors.StoredLayerError` for anything else."""
        return read_stored(layer_bytes).layer

    @classmethod
    def from_upload(
        cls,
        upload: bytes,
        layer_bytes: bytes | None = None,
        ocr_pages: dict[str, Any] | None = None,
        max_pages: int | None = None,
    ) -> StoredDocument:
        """The document of ``upload`` analysed before documents were stored: its allowlist
        rebuild (:func:`~redactor.pdf.rebuild.open_rebuilt`, same errors) with the layer stored
        then (``layer_bytes``, any format :meth:`layer_of` reads), or without one the text
        extracted again, scanned pages from ``ocr_pages`` (the OCR words stored then,
        ``{"<page>": OcrPage.to_dict()}``: never read again, so the proposals' offsets stay
        valid). Raises :class:`~redactor.errors.StoredLayerError` for a damaged ``layer_bytes``."""
        layer = cls.layer_of(layer_bytes) if layer_bytes is not None else None
        doc, prepared = open_rebuilt(upload, max_pages=max_pages)
        try:
            if layer is None:
                stored = StoredOcr({int(n): OcrPage.from_dict(page) for n, page in (ocr_pages or {}).items()})
                layer = extract_text_layer(
                    doc, prepared.pdf, ocr=stored, regions=prepared.regions, images=prepared.images
                )
        finally:
            doc.close()
        return cls(prepared, layer, upload=upload)
