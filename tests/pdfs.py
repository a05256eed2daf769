"""Small PDFs built in tests with PyMuPDF (the dev set's second producer, PyMuPDF Story)."""

from __future__ import annotations

import html
import io
import unicodedata
from dataclasses import dataclass

import pymupdf


@dataclass(frozen=True)
class Layout:
    """Page geometry and type of a rendered test contract: the same paragraphs set with another
    font, size, margin or paper break their lines elsewhere, so every field lands at a line end
    in some layout."""

    font: str = "sans-serif"  # a CSS generic family PyMuPDF Story knows: sans-serif, serif, monospace
    size: float = 11.0  # points
    margin: float = 56.0  # points on every side
    paper: str = "a4"  # a PyMuPDF paper name: a4, a5, letter


def pdf_from_paragraphs(paragraphs: list[str], *, metadata: dict | None = None, layout: Layout | None = None) -> bytes:
    """A one-or-more-page PDF with one ``<p>`` per paragraph (plain text, escaped)."""
    body = "".join(f"<p>{html.escape(p)}</p>" for p in paragraphs)
    return pdf_from_html(body, metadata=metadata, layout=layout)


def pdf_from_html(body: str, *, metadata: dict | None = None, layout: Layout | None = None) -> bytes:
    """Render HTML onto pages (A4, 11 pt sans-serif, 56 pt margins unless ``layout`` says
    otherwise) with PyMuPDF Story."""
    layout = layout or Layout()
    story = pymupdf.Story(html=f"<body style='font-family: {layout.font}; font-size: {layout.size}pt'>{body}</body>")
    mediabox = pymupdf.paper_rect(layout.paper)
    m = layout.margin
    where = mediabox + (m, m, -m, -m)
    out = io.BytesIO()
    writer = pymupdf.DocumentWriter(out)
    more = True
    while more:
        device = writer.begin_page(mediabox)
        more, _ = story.place(where)
        story.draw(device)
        writer.end_page()
    writer.close()
    doc = pymupdf.open(stream=out.getvalue(), filetype="pdf")
    if metadata:
        doc.set_metadata(metadata)
    data = doc.tobytes(garbage=3, deflate=True)
    doc.close()
    return data


def scan_of(pdf: bytes, *, dpi: int = 150, text_layer: str | None = None) -> bytes:
    """An image-only copy of ``pdf`` as a scanner makes it: each page rendered to a grey image
    at ``dpi`` and placed on a page of the same size. ``text_layer="invisible"`` adds the original
    words as invisible text (render mode 3) at their places, as another OCR tool would;
    ``"shifted"`` puts them 30 points lower than the image shows them (a misaligned OCR layer);
    ``"unmarked"`` draws them without their diacritics as visible text under the image, as a
    scanner's compact PDF whose font maps "ř" to "r" reads."""
    src = pymupdf.open(stream=pdf, filetype="pdf")
    out = pymupdf.open()
    font = pymupdf.Font("helv")
    for page in src:
        pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
        new = out.new_page(width=page.rect.width, height=page.rect.height)
        if text_layer == "unmarked":
            writer = pymupdf.TextWriter(new.rect)
            for x0, _y0, _x1, y1, word, *_ in page.get_text("words"):
                plain = "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))
                writer.append((x0, y1 - 2), plain, font=font, fontsize=10)
            writer.write_text(new, render_mode=0)
        new.insert_image(new.rect, pixmap=pix)
        if text_layer in ("invisible", "shifted"):
            shift = 30 if text_layer == "shifted" else 0
            writer = pymupdf.TextWriter(new.rect)
            for x0, _y0, _x1, y1, word, *_ in page.get_text("words"):
                writer.append((x0, y1 - 2 + shift), word, font=font, fontsize=10)
            writer.write_text(new, render_mode=3)
    data = out.tobytes(garbage=3, deflate=True)
    out.close()
    src.close()
    return data


def sideways_scan_of(pdf: bytes, turn: int, *, dpi: int = 150) -> bytes:
    """An image-only copy of ``pdf`` whose sheets were fed the wrong way: each page's image lies
    turned ``turn`` degrees counter-clockwise (90, 180 or 270) on a page of the turned size,
    with no /Rotate to say so; a viewer shows the text on its side or upside down."""
    from PIL import Image

    src = pymupdf.open(stream=pdf, filetype="pdf")
    out = pymupdf.open()
    for page in src:
        pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
        image = Image.frombytes("L", (pix.width, pix.height), pix.samples).rotate(turn, expand=True)
        buf = io.BytesIO()
        image.save(buf, format="PNG")
        w, h = (page.rect.height, page.rect.width) if turn in (90, 270) else (page.rect.width, page.rect.height)
        out.new_page(width=w, height=h).insert_image(pymupdf.Rect(0, 0, w, h), stream=buf.getvalue())
    data = out.tobytes(garbage=3, deflate=True)
    out.close()
    src.close()
    return data


def rotated_scan_of(pdf: bytes, rotation: int, *, dpi: int = 150) -> bytes:
    """An image-only copy of ``pdf`` stored the way many scanners store a page: the image lies
    turned by ``rotation`` degrees (90, 180 or 270) on a page whose /Rotate turns it upright
    again, so a viewer shows the page as printed while the page's own coordinates are sideways."""
    from PIL import Image

    src = pymupdf.open(stream=pdf, filetype="pdf")
    out = pymupdf.open()
    for page in src:
        pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
        image = Image.frombytes("L", (pix.width, pix.height), pix.samples)
        stored = image.rotate(rotation, expand=True)  # counter-clockwise; /Rotate turns it back clockwise
        buf = io.BytesIO()
        stored.save(buf, format="PNG")
        w, h = (page.rect.height, page.rect.width) if rotation in (90, 270) else (page.rect.width, page.rect.height)
        new = out.new_page(width=w, height=h)
        new.insert_image(new.rect, stream=buf.getvalue())
        new.set_rotation(rotation)
    data = out.tobytes(garbage=3, deflate=True)
    out.close()
    src.close()
    return data


def scan_with_one_line_off(pdf: bytes, line_start: str, shift: float = 14.0) -> bytes:
    """An image-only copy of ``pdf`` with another tool's invisible layer that sits on the image,
    except for the line starting with ``line_start``, which is ``shift`` points lower."""
    src = pymupdf.open(stream=pdf, filetype="pdf")
    page = src[0]
    out = pymupdf.open()
    new = out.new_page(width=page.rect.width, height=page.rect.height)
    new.insert_image(new.rect, pixmap=page.get_pixmap(dpi=150, colorspace=pymupdf.csGRAY))
    writer = pymupdf.TextWriter(new.rect)
    off = None
    for x0, _y0, _x1, y1, word, *_ in page.get_text("words"):
        if word == line_start:
            off = y1
        down = shift if off is not None and abs(y1 - off) < 1 else 0
        writer.append((x0, y1 - 2 + down), word, font=pymupdf.Font("helv"), fontsize=10)
    writer.write_text(new, render_mode=3)
    return out.tobytes(garbage=3, deflate=True)
