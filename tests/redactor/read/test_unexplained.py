"""Ink on a page that no text explains (redactor.read.unexplained): what a reader sees that the
text layer does not say is found, and what the text, a rule or a box explains is not."""

from __future__ import annotations

import pymupdf

from redactor.read.unexplained import ink_regions, unexplained_ink
from tests.adversarial import BODY as LOUKA
from tests.pdfs import pdf_from_paragraphs


def test_ink_no_text_explains():
    """Text alone, ruled lines and filled boxes are explained; a picture of text, outlines and
    white text laid over a picture of text are not."""
    text_only = pymupdf.open(stream=pdf_from_paragraphs(LOUKA), filetype="pdf")
    assert unexplained_ink(text_only[0]) == []
    page = text_only[0]
    page.draw_line((56, 300), (540, 300), width=0.8)  # a rule
    page.draw_rect(pymupdf.Rect(56, 320, 200, 340), fill=(0, 0, 0))  # a filled box
    assert unexplained_ink(page) == []
    card = pymupdf.open()
    cp = card.new_page(width=300, height=40)
    cp.insert_text((5, 25), "Karel Vomacka 780101/1229", fontsize=14)
    page.insert_image(pymupdf.Rect(56, 400, 356, 440), pixmap=cp.get_pixmap(dpi=150))
    page.insert_text((60, 425), "XXXXXXXXXXXXXXXX", fontsize=14, color=(1, 1, 1))  # white text explains nothing
    picture = pymupdf.Rect(56, 400, 356, 440)
    regions = unexplained_ink(page)
    assert regions and all(r.intersects(picture) and r.y1 < 450 for r in regions)
    (read,) = ink_regions(page)  # the analysis reads the picture's words as one region
    assert read in picture + (-3, -3, 3, 3) and read.x0 < 70 and read.x1 > 230  # all of "Karel … 1229"
    # a redaction box covers what lies under it
    assert unexplained_ink(page, covered=[(50, 395, 360, 445)]) == []


def test_outlines_in_any_shape_are_unexplained_ink():
    """Text drawn as vector outlines, whether each line is one path, the glyphs are stroked or a
    whole page has no text at all, shows as ink no character explains."""
    from tests.adversarial import outline_glyphs_stroked, outline_line_one_path, outline_page_one_path_per_line

    for build in (outline_line_one_path, outline_glyphs_stroked):
        with pymupdf.open(stream=build().pdf, filetype="pdf") as doc:
            (line,) = ink_regions(doc[0])
            assert 400 < line.y0 < line.y1 < 440 and line.width > 200, build.__name__
    with pymupdf.open(stream=outline_page_one_path_per_line().pdf, filetype="pdf") as doc:
        assert len(unexplained_ink(doc[0])) >= 5  # every line of the contract


def test_the_pictures_a_visible_text_layer_describes_are_not_read_again():
    """A scan under its own visible text: its ink is the text's, the analysis does not read it."""
    from redactor.read.ocr import described_pictures

    doc = pymupdf.open()
    page = doc.new_page()
    scan = pymupdf.open(stream=pdf_from_paragraphs(LOUKA), filetype="pdf")[0].get_pixmap(dpi=100)
    page.insert_image(page.rect, pixmap=scan)
    page.insert_text((80, 100), "Propachtovatel: Jan Louka, nar. 12. 3. 1980", fontsize=10)
    raw = page.get_text("rawdict")["blocks"]
    visible = [c["bbox"] for b in raw for line in b.get("lines", []) for s in line["spans"] for c in s["chars"]]
    (described,) = described_pictures(page, visible, [page.rect])
    assert ink_regions(page, [tuple(described)]) == []


def test_regions_of_glyphs_without_meaning_that_touch_are_one_picture():
    """Two runs of outline glyphs on lines that touch once padded are one region (the merge kept
    the first region unchanged: a Rect's ``|=`` on the loop's name rebinds it, not the list's)."""
    from redactor.pdf.page_repair import meaningless_regions

    glyphs = [("fill-path", (50.0 + 8 * k, 100.0, 56.0 + 8 * k, 110.0)) for k in range(6)]
    glyphs += [("fill-path", (50.0 + 8 * k, 112.0, 56.0 + 8 * k, 122.0)) for k in range(6)]
    doc = pymupdf.open()
    page = doc.new_page()
    (region,) = meaningless_regions(doc, page, glyphs)[0]
    assert region.y0 < 100 and region.y1 > 122
