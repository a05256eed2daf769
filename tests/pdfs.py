"""Small PDFs built in tests with PyMuPDF (the dev set's second producer, PyMuPDF Story)."""

from __future__ import annotations

import html
import io

import pymupdf


def pdf_from_paragraphs(paragraphs: list[str], *, metadata: dict | None = None) -> bytes:
    """A one-or-more-page PDF with one ``<p>`` per paragraph (plain text, escaped)."""
    body = "".join(f"<p>{html.escape(p)}</p>" for p in paragraphs)
    return pdf_from_html(body, metadata=metadata)


def pdf_from_html(body: str, *, metadata: dict | None = None) -> bytes:
    """Render HTML onto A4 pages with PyMuPDF Story."""
    story = pymupdf.Story(html=f"<body style='font-family: sans-serif; font-size: 11pt'>{body}</body>")
    mediabox = pymupdf.paper_rect("a4")
    where = mediabox + (56, 56, -56, -56)
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
