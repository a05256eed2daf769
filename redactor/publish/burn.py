"""Burn redactions into a rebuilt PDF and write a clean, fully rewritten file.

The input is the allowlist rebuild of the upload (:mod:`redactor.pdf.rebuild`): it holds
pages and what they draw, nothing else. What burn-in removes (the failure list of DOMAIN.md,
"How redaction fails"):

1. text under each box: PyMuPDF ``apply_redactions`` deletes the glyphs from the content
   stream (not a black rectangle over live text), within the box trimmed at top and bottom so
   the neighbouring lines keep theirs;
2. image pixels under each box (padded by ``IMAGE_PADDING``) are set to black in the image
   itself, so the original pixels are not kept, masked or clipped; an image drawn through a
   mask keeps its look outside the boxes;
3. vector graphics entirely under a box (``PDF_REDACT_LINE_ART_REMOVE_IF_COVERED``), such as
   a drawn signature;
4. as a second line of defence, what the rebuild already left out (it keeps no actions,
   JavaScript or thumbnails either, see :mod:`redactor.pdf.rebuild`): annotations, links,
   form fields, embedded files, the Info dictionary and XMP metadata, and bookmarks whose
   title contains a redacted string; verification checks these places again;
5. earlier revisions: the file is written anew with ``garbage=4`` (never incrementally), so
   orphaned objects and old revisions are dropped and the output has one ``%%EOF``. Content
   streams are not rewritten again (MuPDF's ``clean``): the rebuild normalised them and
   redaction rewrote those it changed.

Text outside the boxes stays text; on a scanned page read by OCR, the OCR words outside the
boxes become the page's (invisible) text layer.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import pymupdf

from redactor.model import Box
from redactor.pdf.pdf_pages import IMAGE_PADDING, image_boxes, open_pdf, over_images, page_area
from redactor.publish.text_writing import WrittenText, write_words

#: Largest and smallest size (points) of a code printed inside a box; a box too small for the
#: smallest stays plain black.
LABEL_SIZES = (9.0, 4.0)
#: Resolution (dots per inch) of the picture a code is printed as.
LABEL_DPI = 200

#: Share of the glyph box height trimmed at top and bottom of a text box, so that glyphs of
#: the lines above and below (whose boxes may touch) are not removed with it.
VERTICAL_TRIM = 0.15


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip().lower()


def _text_rect(box: Box) -> pymupdf.Rect:
    """The rectangle whose glyphs are removed: the box trimmed at top and bottom, so that the
    glyphs of the lines above and below (whose boxes may touch it) stay."""
    trim = (box.y1 - box.y0) * VERTICAL_TRIM
    return pymupdf.Rect(box.x0 + 0.3, box.y0 + trim, box.x1 - 0.3, box.y1 - trim)


def _redaction_rect(page: pymupdf.Page, box: Box, image_rects: list[pymupdf.Rect]) -> pymupdf.Rect:
    """The rectangle blacked out: over an image it is padded so that no pixel of a scanned glyph
    survives; elsewhere it is :func:`_text_rect`."""
    rect = pymupdf.Rect(box.x0, box.y0, box.x1, box.y1)
    if over_images((box.x0, box.y0, box.x1, box.y1), [tuple(r) for r in image_rects]):
        pad = IMAGE_PADDING
        padded = pymupdf.Rect(rect.x0 - pad, rect.y0 - pad, rect.x1 + pad, rect.y1 + pad)
        return padded & page_area(page)
    return _text_rect(box)


#: A bookmark as PyMuPDF's ``get_toc(simple=True)`` gives it: ``[level, title, page]`` (page from 1).
TocEntry = list[Any]


def label_size(box: Box, code: str) -> float | None:
    """The font size (points) at which ``code`` fits inside ``box`` (points) with a margin, at
    most :data:`LABEL_SIZES` [0]; None when it would be smaller than :data:`LABEL_SIZES` [1]."""
    inner = _text_rect(box) + (1, 0.5, -1, -0.5)  # within the black the box leaves (trimmed)
    if inner.is_empty or not code:
        return None
    size = min(LABEL_SIZES[0], inner.height * 0.9)
    width = pymupdf.get_text_length(code, fontname="helv", fontsize=size)
    if width > inner.width:
        size *= inner.width / width
    return size if size >= LABEL_SIZES[1] else None


def _print_label(page: pymupdf.Page, box: Box, code: str) -> bool:
    """Print ``code`` white on black inside ``box``, as a picture (never as text: the published
    text layer holds the contract's words only, and no glyph may lie under a box). Returns
    whether it fitted (:func:`label_size`)."""
    size = label_size(box, code)
    if size is None:
        return False
    inner = _text_rect(box) + (1, 0.5, -1, -0.5)
    with pymupdf.open() as scratch:
        sheet = scratch.new_page(width=inner.width, height=inner.height)
        sheet.draw_rect(sheet.rect, color=None, fill=(0, 0, 0))
        width = pymupdf.get_text_length(code, fontname="helv", fontsize=size)
        baseline = (inner.height + size * 0.7) / 2
        sheet.insert_text(((inner.width - width) / 2, baseline), code, fontsize=size, fontname="helv", color=(1, 1, 1))
        pix = sheet.get_pixmap(dpi=LABEL_DPI, colorspace=pymupdf.csGRAY, alpha=False)
    page.insert_image(inner, pixmap=pix)
    return True


def _filter_toc(toc: list[TocEntry], redacted: list[str]) -> list[TocEntry]:
    """Drop bookmarks whose title contains a redacted string, with their sub-entries."""
    out, drop_below = [], None
    for level, title, *rest in toc:
        if drop_below is not None and level > drop_below:
            continue
        drop_below = None
        if any(r and r in _norm(title) for r in redacted):
            drop_below = level
            continue
        out.append([level, title, *rest])
    # keep the hierarchy valid: a level may rise by at most one
    fixed, prev = [], 0
    for level, title, *rest in out:
        level = min(level, prev + 1)
        fixed.append([level, title, *rest])
        prev = level
    return fixed


def _mask_of(doc: pymupdf.Document, xref: int) -> int:
    """The xref of image ``xref``'s soft mask (/SMask) or stencil mask (/Mask stream), or 0."""
    for key in ("SMask", "Mask"):
        kind, value = doc.xref_get_key(xref, key)
        if kind == "xref":
            return int(value.split()[0])
    return 0


def _write_pixels(doc: pymupdf.Document, xref: int, pix: pymupdf.Pixmap) -> None:
    """Store ``pix`` (no alpha, 1/3/4 components, 8 bits) as the samples of image ``xref`` in
    place, Flate-compressed, keeping every other key of the image, its /SMask included: PyMuPDF's
    ``replace_image`` would build a new image without it."""
    doc.update_stream(xref, pix.samples, compress=True)
    doc.xref_set_key(xref, "BitsPerComponent", "8")
    doc.xref_set_key(xref, "ColorSpace", {1: "/DeviceGray", 3: "/DeviceRGB", 4: "/DeviceCMYK"}[pix.n])
    for key in ("DecodeParms", "Decode", "ImageMask"):
        doc.xref_set_key(xref, key, "null")


def _blacken_pixels(doc: pymupdf.Document, page: pymupdf.Page, rects: list[pymupdf.Rect]) -> None:
    """Set the pixels of every image under ``rects`` (points) to black in the image data itself.

    MuPDF's ``PDF_REDACT_IMAGE_PIXELS`` blanks them to white under the black box; a scan's
    redaction should be black in the image too (a viewer that hides the box, or an extracted
    image, shows black, as on a blacked-out paper copy). An image drawn through a mask (a
    transparent signature) has its samples and its mask changed under the boxes only, so it
    keeps its look elsewhere (MuPDF's own redaction made such images opaque). Images in an
    unusual colour space are left to MuPDF's blanking.
    """
    for info in page.get_image_info(xrefs=True):
        xref = info.get("xref") or 0
        bbox = pymupdf.Rect(info["bbox"])
        hits = [r for r in rects if r.intersects(bbox)]
        if not xref or not hits:
            continue
        pix = pymupdf.Pixmap(doc, xref)
        mask = _mask_of(doc, xref)
        if pix.alpha and mask:
            pix = pymupdf.Pixmap(pix, 0)  # the samples without the mask, which is changed on its own
        if pix.alpha or pix.n not in (1, 3, 4):
            continue
        to_image = ~pymupdf.Matrix(info["transform"])  # page point -> unit square of the image
        black = (0,) * pix.n if pix.n != 4 else (0, 0, 0, 255)  # CMYK black is full K
        alpha = pymupdf.Pixmap(doc, mask) if mask else None
        for rect in hits:
            unit = (rect & bbox) * to_image
            for target, value in ((pix, black), (alpha, (0,))):
                if target is None:
                    continue
                irect = pymupdf.IRect(
                    int(unit.x0 * target.width) - 1,
                    int(unit.y0 * target.height) - 1,
                    int(unit.x1 * target.width + 0.999) + 1,
                    int(unit.y1 * target.height + 0.999) + 1,
                ) & pymupdf.IRect(0, 0, target.width, target.height)
                if not irect.is_empty:
                    target.set_rect(irect, value if target.n == len(value) else (0,) * target.n)
        if mask:
            _write_pixels(doc, xref, pix)
            if alpha is not None and not alpha.alpha and alpha.n == 1:
                _write_pixels(doc, mask, alpha)
        else:
            page.replace_image(xref, pixmap=pix)


def _draws_no_image(doc: pymupdf.Document, page: pymupdf.Page) -> bool:
    """True when ``page`` certainly draws no image: no image or form XObject and no pattern in
    its resources, no inline image (``BI``) in its content. Decided without running the
    content (MuPDF's bbox log costs about a millisecond a page); any doubt gives False."""
    if page.get_images(full=True) or page.get_xobjects():
        return False
    kind, value = doc.xref_get_key(page.xref, "Resources")
    if kind == "xref":
        value = doc.xref_object(int(value.split()[0]))
    elif kind != "dict":
        return False  # inherited or unreadable resources: look at what the page draws
    return "/Pattern" not in value and b"BI" not in page.read_contents()


def _has_masked_image(doc: pymupdf.Document, page: pymupdf.Page, rects: list[pymupdf.Rect]) -> bool:
    return any(
        info.get("xref")
        and _mask_of(doc, info["xref"])
        and any(r.intersects(pymupdf.Rect(info["bbox"])) for r in rects)
        for info in page.get_image_info(xrefs=True)
    )


def burn_in(
    pdf: bytes,
    boxes: list[Box],
    redacted_texts: list[str],
    written: dict[int, WrittenText] | None = None,
    unread_layers: dict[int, list[tuple[float, float, float, float]]] | None = None,
    labels: list[tuple[Box, str]] | None = None,
    known_images: dict[int, list[tuple[float, float, float, float]]] | None = None,
) -> bytes:
    """Return a new PDF with ``boxes`` burned in and every hidden layer cleaned.

    ``boxes`` are in PDF points with pages from 1; ``redacted_texts`` are the strings being
    redacted (used to drop bookmarks that name them). ``written`` (``{page number:
    WrittenText}``) are the words the product writes into a page's text layer (:func:`write_words`):
    a page read by OCR as a whole loses every text it had (another tool's invisible layer
    included) and gets its words outside the boxes; pictures read by OCR get theirs added.
    ``unread_layers`` (``{page number: [(x0, y0, x1, y1)]}``,
    :attr:`TextLayer.unread_layers`) are pictures whose invisible text was not analysed (OCR
    read their pixels instead): that invisible text is removed. Image pixels under the boxes are
    set to black. ``labels`` (a box, points, and a short code) are printed white inside their
    boxes as pictures (:func:`label_size`; a box too small stays plain). ``known_images``
    (``{page number: [(x0, y0, x1, y1)]}``, points) are the images pages of ``pdf`` draw where the caller
    knows them (:attr:`~redactor.pdf.rebuild.Rebuilt.images`); the others are measured here. The
    input bytes are not modified. Raises :class:`~redactor.errors.InvalidPdfError` for input
    that cannot be opened.
    """
    doc = open_pdf(pdf)
    written = written or {}
    font = pymupdf.Font("helv") if written else None
    redacted = [_norm(t) for t in redacted_texts if t.strip()]
    by_page: dict[int, list[Box]] = {}
    for box in boxes:
        by_page.setdefault(box.page, []).append(box)
    toc = doc.get_toc(simple=False)
    for page in doc:
        number = page.number + 1
        page, rects = _burn_boxes(doc, page, by_page.get(number, []), (known_images or {}).get(number))
        _remove_invisible_text(page, (unread_layers or {}).get(number, []))
        text = written.get(number)
        if text is not None:
            _write_text(page, text, font, rects)
        for box, code in labels or ():
            if box.page == number:
                _print_label(page, box, code)
        _remove_interactive(page)
    _clean_document(doc, toc, redacted)
    data: bytes = doc.tobytes(garbage=4, deflate=True, no_new_id=False)
    doc.close()
    return data


def _burn_boxes(
    doc: pymupdf.Document,
    page: pymupdf.Page,
    here: list[Box],
    known: list[tuple[float, float, float, float]] | None,
) -> tuple[pymupdf.Page, list[pymupdf.Rect]]:
    """Burn the boxes ``here`` into ``page``: the text and line art under them removed, the
    pixels of images under them black (``known``: the images the page draws, when the caller
    knows them). Returns the page (a fresh object when its images changed) and the boxes'
    rectangles as burned."""
    if not here or (known is None and _draws_no_image(doc, page)):
        image_rects = []
    else:
        image_rects = image_boxes(page, known=known)
    rects = [_redaction_rect(page, box, image_rects) for box in here]
    over_images = any(r.intersects(i) for r in rects for i in image_rects)
    masked = over_images and _has_masked_image(doc, page, rects)
    # MuPDF turns an image drawn through a mask opaque when it blanks its pixels: such a
    # page's images are changed by _blacken_pixels alone
    images = pymupdf.PDF_REDACT_IMAGE_NONE if masked else pymupdf.PDF_REDACT_IMAGE_PIXELS
    padded = [r for r, box in zip(rects, here, strict=True) if r != _text_rect(box)]
    for box in here:
        page.add_redact_annot(_text_rect(box), fill=(0, 0, 0), cross_out=False)
    page.apply_redactions(
        images=pymupdf.PDF_REDACT_IMAGE_NONE if padded else images,  # pixels: in the padded pass
        graphics=pymupdf.PDF_REDACT_LINE_ART_REMOVE_IF_COVERED,
        text=pymupdf.PDF_REDACT_TEXT_REMOVE,
    )
    if padded:
        # over an image the box grows by IMAGE_PADDING for the pixels only: the glyphs of a
        # text line next to it (a visible text layer over a scan) stay
        for rect in padded:
            page.add_redact_annot(rect, fill=(0, 0, 0), cross_out=False)
        page.apply_redactions(
            images=images, graphics=pymupdf.PDF_REDACT_LINE_ART_NONE, text=pymupdf.PDF_REDACT_TEXT_NONE
        )
    if over_images:
        # a fresh page object: PyMuPDF caches image information (xrefs) across apply_redactions
        page = doc.reload_page(page)
        _blacken_pixels(doc, page, rects)
    return page, rects


def _remove_invisible_text(page: pymupdf.Page, regions: list[tuple[float, float, float, float]]) -> None:
    """Remove the invisible text over the pictures ``regions`` (points) whose pixels OCR read."""
    if not regions:
        return
    for region in regions:
        page.add_redact_annot(pymupdf.Rect(region), fill=False, cross_out=False)
    page.apply_redactions(
        images=pymupdf.PDF_REDACT_IMAGE_NONE,
        graphics=pymupdf.PDF_REDACT_LINE_ART_NONE,
        text=pymupdf.PDF_REDACT_TEXT_REMOVE_INVISIBLE,
    )


def _write_text(page: pymupdf.Page, text: WrittenText, font: pymupdf.Font | None, rects: list[pymupdf.Rect]) -> None:
    """Write ``text``'s words outside ``rects`` into the page's text layer (:func:`write_words`),
    first removing the page's own text when ``text`` replaces it."""
    if text.replace:
        # the page's own text (none, unmapped glyphs, or another OCR tool's layer) goes
        page.add_redact_annot(page_area(page), fill=False, cross_out=False)
        page.apply_redactions(
            images=pymupdf.PDF_REDACT_IMAGE_NONE,
            graphics=pymupdf.PDF_REDACT_LINE_ART_NONE,
            text=pymupdf.PDF_REDACT_TEXT_REMOVE,
        )
    write_words(page, text.words, font, rects, text.turn)


def _remove_interactive(page: pymupdf.Page) -> None:
    """Delete the page's form fields, annotations and links."""
    for widget in list(page.widgets() or []):
        page.delete_widget(widget)
    for annot in list(page.annots() or []):
        page.delete_annot(annot)
    for link in page.get_links():
        page.delete_link(link)


def _clean_document(doc: pymupdf.Document, toc: list[list[object]], redacted: list[str]) -> None:
    """Empty the document's metadata and XMP, drop its attachments, and keep only the bookmarks
    of ``toc`` that name no ``redacted`` string."""
    doc.set_metadata({})
    doc.del_xml_metadata()
    try:
        for i in reversed(range(doc.embfile_count())):
            doc.embfile_del(i)
    except (ValueError, RuntimeError, pymupdf.mupdf.FzErrorBase):  # a broken embedded-files tree: drop it whole
        catalog = doc.pdf_catalog()
        if doc.xref_get_key(catalog, "Names")[0] == "dict":
            doc.xref_set_key(catalog, "Names/EmbeddedFiles", "null")
        else:
            doc.xref_set_key(catalog, "Names", "null")
    doc.set_toc(_filter_toc([entry[:3] for entry in toc], redacted))
