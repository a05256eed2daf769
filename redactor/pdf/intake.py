"""The checks an upload passes before anything of it is stored: one function for every door (the
web form, the API, the command line's batch), so that they refuse the same files for the same
reasons."""

from __future__ import annotations

from dataclasses import dataclass

import pikepdf

from redactor.errors import InvalidPdfError
from redactor.pdf.active_content import refuse_active_content
from redactor.pdf.pdf_limits import PdfLimits, check_pdf_limits
from redactor.pdf.pdf_pages import MAX_PAGE_POINTS, open_pdf, page_size_check


@dataclass(frozen=True)
class UploadFacts:
    """What :func:`check_upload` learned: the page count and the pages that look scanned (from 1;
    :attr:`~redactor.pdf.pdf_limits.PageLoad.looks_scanned`, read from the structure)."""

    pages: int
    scan_pages: list[int]


def check_upload(
    data: bytes,
    *,
    max_pages: int | None = None,
    max_page_points: float = MAX_PAGE_POINTS,
    limits: PdfLimits | None = None,
) -> UploadFacts:
    """Check the bytes of an upload: what they inflate to and draw (``limits``,
    :func:`~redactor.pdf.pdf_limits.check_pdf_limits`, before any renderer meets a bomb), that
    MuPDF opens them (:func:`~redactor.pdf.pdf_pages.open_pdf`: a PDF, not damaged, not
    encrypted, at most ``max_pages`` pages), no active content
    (:func:`~redactor.pdf.active_content.refuse_active_content`) and no page side over
    ``max_page_points`` points. Raises the :class:`~redactor.errors.InvalidPdfError` subclass that
    says why; a file MuPDF opens but qpdf cannot read is damaged (``InvalidPdfError``): the
    processing job reads it with both."""
    load = None
    try:
        load = check_pdf_limits(data, limits)
    except (pikepdf.PdfError, pikepdf.PasswordError):
        pass  # qpdf cannot read it: MuPDF below says whether it is damaged or encrypted
    doc = open_pdf(data, max_pages=max_pages)
    try:
        refuse_active_content(data)
        page_size_check(doc, max_page_points)
        pages = doc.page_count
    finally:
        doc.close()
    if load is None:
        raise InvalidPdfError("qpdf cannot read the file")
    return UploadFacts(pages, [n for n, page in enumerate(load.pages, start=1) if page.looks_scanned])
