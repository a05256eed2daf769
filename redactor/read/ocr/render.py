"""Page pictures for OCR: a page rendered at the reading resolution, with a scan coarser than that
enlarged smoothly.

MuPDF enlarges an image without interpolation (unless the PDF asks for it with
``/Interpolate``), so a page scanned at 72 dpi and rendered at 300 dpi reaches Tesseract as
blocks of four by four pixels, and letters, digits and diacritics are misread ("562" as "běž",
"S pozdravem" as "5 pozdrav"). Tesseract works best at 300 dpi and its documentation advises
rescaling a coarser image (tessdoc, "Improving the quality of the output", Rescaling). A page
whose picture is coarser than half the reading resolution is rendered at the picture's own
resolution and enlarged with a Lanczos filter (Pillow); the result has the size a direct
rendering at the reading resolution would have, so word boxes map back to points the same way."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pymupdf

if TYPE_CHECKING:
    from PIL import Image

#: A picture whose resolution is below this share of the reading resolution is enlarged smoothly.
#: A 150-dpi scan read at 300 dpi (each pixel doubled) reads as well either way, spacing and all,
#: on the real scans; a 72-dpi one (each pixel four times over) loses digits and diacritics.
SMOOTH_BELOW = 0.5
#: Pictures covering less than this share of the area read do not set its resolution.
_MIN_SHARE = 0.25


def picture_dpi(page: pymupdf.Page, area: pymupdf.Rect) -> float | None:
    """The resolution (dots per inch, the lower of the two axes) of the largest image drawn over
    at least a quarter of ``area`` (points, unrotated page) of ``page``, its masks included
    (:func:`_finest`); None when no image covers that much (a text page: its glyphs are drawn at
    any resolution)."""
    best: tuple[float, float] | None = None
    for info in page.get_image_info(xrefs=True):
        bbox = pymupdf.Rect(info["bbox"]) & area
        if bbox.is_empty or bbox.get_area() < _MIN_SHARE * area.get_area():
            continue
        drawn = pymupdf.Rect(info["bbox"])
        if drawn.width <= 0 or drawn.height <= 0 or not info.get("width") or not info.get("height"):
            continue
        # an image turned by its matrix: its pixel columns may run along the page's height
        across, down = _finest(page.parent, info.get("xref") or 0, info["width"], info["height"])
        if abs(info["transform"][1]) > abs(info["transform"][0]):
            across, down = down, across
        dpi = min(across / (drawn.width / 72), down / (drawn.height / 72))
        if best is None or bbox.get_area() > best[0]:
            best = (bbox.get_area(), dpi)
    return None if best is None else best[1]


def _coarse(page: pymupdf.Page, area: pymupdf.Rect, dpi: int) -> float | None:
    """The resolution of ``area``'s picture (:func:`picture_dpi`) when it is coarser than
    :data:`SMOOTH_BELOW` × ``dpi`` (:func:`render_gray` enlarges it smoothly), else None."""
    own = picture_dpi(page, area)
    return own if own is not None and round(own) < SMOOTH_BELOW * dpi else None  # a 150-dpi scan measures 149.99998


#: Share of a page's height from which its rows are not rendered apart (:class:`PictureRows`):
#: the whole page costs little more.
ROWS_MAX_SHARE = 0.5


class PictureRows:
    """A page's picture as :func:`render_gray` draws it whole at ``dpi`` (page rotation applied),
    of which only some rows are needed (the lines of a strip): :attr:`size` is the whole
    picture's ``(width, height)`` in pixels, :meth:`rows` the pixels of rows ``top`` to ``bottom``.

    On an upright page whose picture is not enlarged smoothly, only those rows are rendered,
    grown to hold whole every image they cross: MuPDF draws a clip on the same pixel grid as the
    whole page, so the rows are the whole rendering's (a line of a logo at the top of a page costs
    a seventh of the page), while an image it draws only in part is scaled from a part of its
    pixels and may differ in its last digits. Where the grown rows would be :data:`ROWS_MAX_SHARE`
    of the page or more (a scan under them), a turned page, or a coarse scan enlarged as a whole,
    the page is rendered whole once."""

    def __init__(self, page: pymupdf.Page, dpi: int):
        self.page = page
        self.zoom = pymupdf.Matrix(dpi / 72, dpi / 72)
        self.dpi = dpi
        self._whole: np.ndarray | None = None
        self._drawn: list[pymupdf.Rect] | None = None
        self._box = page.rect.transform(self.zoom).round()
        if page.rotation % 360 or _coarse(page, page.rect * page.derotation_matrix, dpi) is not None:
            self._render_whole()
        self.size = (self._box.width, self._box.height) if self._whole is None else self._whole.shape[::-1]

    def _images(self) -> list[pymupdf.Rect]:
        """The boxes (points) of the images the page draws, on the page."""
        if self._drawn is None:
            self._drawn = [pymupdf.Rect(info["bbox"]) & self.page.rect for info in self.page.get_image_info()]
        return self._drawn

    def _render_whole(self) -> np.ndarray:
        self._whole = np.asarray(render_gray(self.page, self.dpi))
        return self._whole

    def rows(self, top: int, bottom: int) -> np.ndarray:
        """Rows ``top`` to ``bottom`` (exclusive; pixels from the picture's top) of the picture,
        grey, all its columns."""
        if self._whole is not None:
            return self._whole[top:bottom]
        rect = self.page.rect
        clip = pymupdf.Rect(rect.x0, top / self.zoom.d, rect.x1, bottom / self.zoom.d)
        cut = True
        while cut:  # an image the rows cross is drawn whole; it may reach another one
            cut = False
            for image in self._images():
                if image.y0 < clip.y1 and clip.y0 < image.y1 and not (clip.y0 <= image.y0 and image.y1 <= clip.y1):
                    clip.y0, clip.y1, cut = min(clip.y0, image.y0), max(clip.y1, image.y1), True
        if clip.height >= ROWS_MAX_SHARE * rect.height:
            return self._render_whole()[top:bottom]
        pix = self.page.get_pixmap(matrix=self.zoom, clip=clip, colorspace=pymupdf.csGRAY, alpha=False)
        box = self._box
        if pix.x != box.x0 or pix.width != box.width or pix.y > top or pix.y + pix.height < bottom:
            return self._render_whole()[top:bottom]  # not the whole rendering's grid: drawn whole
        pixels = np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.stride)[:, : pix.width]
        return pixels[top - pix.y : bottom - pix.y]


def _finest(doc: pymupdf.Document, xref: int, width: int, height: int) -> tuple[int, int]:
    """The pixel size of image ``xref`` (``width`` × ``height``) or of its soft mask or stencil
    mask, whichever is finer: what the page shows is drawn at that resolution (a black image of
    one pixel whose letters are in a full-resolution /SMask is a page of sharp text)."""
    if not xref:
        return width, height
    for key in ("SMask", "Mask"):
        kind, value = doc.xref_get_key(xref, key)
        if kind != "xref":
            continue
        mask = int(value.split()[0])
        sizes = [doc.xref_get_key(mask, side) for side in ("Width", "Height")]
        if all(k == "int" for k, _v in sizes):
            width, height = max(width, int(sizes[0][1])), max(height, int(sizes[1][1]))
    return width, height


def render_gray(page: pymupdf.Page, dpi: int, clip: pymupdf.Rect | None = None) -> Image.Image:
    """``page`` (or its ``clip``, points of the unrotated page) as an 8-bit grey picture of the
    size a rendering at ``dpi`` gives (page rotation applied, as :meth:`pymupdf.Page.get_pixmap`
    does). When the page's picture there is coarser than :data:`SMOOTH_BELOW` × ``dpi``
    (:func:`picture_dpi`), it is rendered at the picture's own resolution and enlarged with a
    Lanczos filter instead of MuPDF's block enlargement."""
    from PIL import Image  # noqa: PLC0415 - only with OCR

    pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False, clip=clip)
    size = (pix.width, pix.height)
    area = page.rect * page.derotation_matrix if clip is None else pymupdf.Rect(clip)
    own = _coarse(page, area, dpi)
    if own is None:
        return Image.frombytes("L", size, pix.samples)
    low = page.get_pixmap(dpi=max(36, math.ceil(own)), colorspace=pymupdf.csGRAY, alpha=False, clip=clip)
    coarse = Image.frombytes("L", (low.width, low.height), low.samples)
    return coarse.resize(size, Image.Resampling.LANCZOS)
