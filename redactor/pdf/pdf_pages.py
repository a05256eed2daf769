"""Opening a PDF safely and what its pages are made of: the size check, the visible area in the
coordinates text and redactions use, the images drawn and how much of a page they cover. Boxes
in PDF points; page numbers from 1."""

from __future__ import annotations

from collections.abc import Sequence

import pymupdf

from redactor.errors import EncryptedPdfError, InvalidPdfError, PdfTooLargeError

#: Share of the page area covered by images above which a page may be a scan.
OCR_MIN_IMAGE_COVERAGE = 0.3


def open_pdf(data: bytes, *, max_pages: int | None = None) -> pymupdf.Document:
    """Open PDF bytes with PyMuPDF, refusing what cannot be redacted safely.

    Raises :class:`InvalidPdfError` for empty, non-PDF or damaged input,
    :class:`EncryptedPdfError` for password-protected files and :class:`PdfTooLargeError`
    when the page count exceeds ``max_pages``.
    """
    if not data:
        raise InvalidPdfError("the file is empty")
    if b"%PDF-" not in data[:1024]:
        raise InvalidPdfError("the file is not a PDF")
    if not data.startswith(b"%PDF-"):
        # readers accept a header anywhere in the first 1024 bytes, but a file with HTML or a
        # script in front of it is a polyglot that a browser may run: refused
        raise InvalidPdfError("the file has other content before the PDF header")
    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except Exception as exc:  # PyMuPDF raises several types for broken files
        raise InvalidPdfError(f"the PDF is damaged and cannot be opened ({exc})") from exc
    if doc.needs_pass or doc.is_encrypted:
        doc.close()
        raise EncryptedPdfError("the PDF is password-protected; upload it without a password")
    if doc.page_count == 0:
        doc.close()
        raise InvalidPdfError("the PDF is damaged or empty: it has no readable pages")
    if max_pages is not None and doc.page_count > max_pages:
        count = doc.page_count
        doc.close()
        raise PdfTooLargeError(f"the PDF has {count} pages; the limit is {max_pages}")
    return doc


#: Longest page side accepted, in points (48 in, 122 cm: ISO A0 is 84 × 119 cm); larger pages
#: cost gigabytes to render and MuPDF refuses some of them outright.
MAX_PAGE_POINTS = 3456.0


def page_size_check(doc: pymupdf.Document, max_points: float = MAX_PAGE_POINTS) -> None:
    """Raise :class:`PdfTooLargeError` when a page of ``doc`` has a side longer than
    ``max_points`` (points; the MediaBox as displayed)."""
    for page in doc:
        width, height = page.rect.width, page.rect.height
        if max(width, height) > max_points:
            raise PdfTooLargeError(
                f"page {page.number + 1} measures {width:.0f} × {height:.0f} pt; the limit is {max_points:.0f} pt"
            )


#: Padding in points around a box that lies over an image, so no pixel of a scanned glyph
#: survives (burn-in, :mod:`redactor.publish.burn`, and pages published as pictures).
IMAGE_PADDING = 1.5

Rectangle = tuple[float, float, float, float]


def over_images(rect: Rectangle, images: Sequence[Rectangle]) -> bool:
    """Whether ``rect`` (x0, y0, x1, y1 in points) and one of ``images`` share a non-empty area:
    a box burn-in grows by :data:`IMAGE_PADDING`."""
    x0, y0, x1, y1 = rect
    return any(x0 < ix1 and ix0 < x1 and y0 < iy1 and iy0 < y1 for ix0, iy0, ix1, iy1 in images)


def page_area(page: pymupdf.Page) -> pymupdf.Rect:
    """The page's rectangle in the coordinates that text, images and redactions use (points,
    origin at the top left of the CropBox, **unrotated**): PyMuPDF reports ``page.rect`` as
    displayed, with width and height swapped on a page with /Rotate 90 or 270, while character
    boxes, image boxes and redaction rectangles stay in the unrotated space."""
    return (page.rect * page.derotation_matrix).normalize()


#: MuPDF's bbox log of a page (``page.get_bboxlog()``): what was drawn, in order, as
#: ``(kind, (x0, y0, x1, y1))`` with kinds such as ``"fill-image"``, ``"fill-text"``, ``"fill-path"``.
BboxLog = list[tuple[str, tuple[float, float, float, float]]]


def image_boxes(
    page: pymupdf.Page,
    log: BboxLog | None = None,
    known: Sequence[tuple[float, float, float, float]] | None = None,
) -> list[pymupdf.Rect]:
    """Boxes (points, unrotated page coordinates) of every image drawn on ``page``, stencil
    masks included, one per drawing, from MuPDF's bbox log (``log``, ``page.get_bboxlog()``,
    when the caller already has it): cheaper than ``get_image_info``, which builds a text page.
    ``known``: the same boxes measured earlier on this page (the rebuild's
    :attr:`~redactor.pdf.rebuild.Rebuilt.images`), returned as they are without measuring."""
    if known is not None:
        return [pymupdf.Rect(box) for box in known]
    if log is None:
        log = page.get_bboxlog()
    return [pymupdf.Rect(bbox) for kind, bbox in log if kind in ("fill-image", "fill-imgmask")]


def image_coverage(page: pymupdf.Page, images: list[pymupdf.Rect] | None = None) -> float:
    """Share (0..1) of the page area covered by images, overlaps counted once per image;
    ``images`` are the page's :func:`image_boxes`, when the caller already has them."""
    full = page_area(page)
    area = float(abs(full))
    if not area:
        return 0.0
    covered = 0.0
    for rect in image_boxes(page) if images is None else images:
        covered += abs(rect & full)
    return min(1.0, covered / area)
