"""Signatures and stamps on scans: a private person's handwritten signature is proposed for
redaction and burned into the pixels; an official's is kept like the official's name, unless the
agency redacts officials' signatures; ink drawn over a private person's redacted name goes with
it; a handwritten date or a tick outside a signature block is not proposed."""

from __future__ import annotations

import dataclasses

import numpy as np
import pymupdf
import pytest

from redactor.categories import SIGNATURE
from redactor.detect.nlp import RuleOnlyNlpEngine
from redactor.detect.profile import AgencyProfile
from redactor.engine import RedactionEngine
from redactor.model import Action, Box
from redactor.read.handwriting import InkMark, ink_marks, label_boxes
from redactor.read.stored_layer import layer_from_bytes, layer_to_bytes

BLUE = (0.1, 0.2, 0.75)
HEADER = (
    "<p><b>Smlouva o nájmu nebytových prostor</b></p>"
    "<p>1. Pronajímatel: Jan Novák, nar. 3. 4. 1975, bytem Lipová 12, 602 00 Brno</p>"
    "<p>2. Nájemce: Obec Horní Lhota, IČO: 00000001, se sídlem Náměstí 1, 679 01 Horní Lhota, "
    "zastoupená starostou Ing. Petrem Dvořákem</p>"
    "<p>Nájemné činí 12 000 Kč měsíčně a je splatné do 15. dne měsíce.</p>"
)
#: Where the strokes go (points): under the landlord's label, under the mayor's, a date, a tick.
PRIVATE_SIGNATURE = pymupdf.Rect(80, 640, 190, 690)
OFFICIAL_SIGNATURE = pymupdf.Rect(340, 640, 450, 690)
DATE = pymupdf.Rect(120, 560, 200, 575)
OVER_ENTRY = pymupdf.Rect(330, 92, 420, 127)


def _scrawl(page: pymupdf.Page, rect: pymupdf.Rect, loops: int = 3) -> None:
    """A pen's signature: connected loops and a long tail, blue, across ``rect``."""
    points = []
    for i in range(loops * 12 + 1):
        t = i / 12
        x = rect.x0 + (rect.width * 0.75) * i / (loops * 12) + 8 * np.cos(t * 2 * np.pi)
        y = rect.y0 + rect.height / 2 + (rect.height / 2 - 3) * np.sin(t * 2 * np.pi)
        points.append((x, y))
    points.append((rect.x1, rect.y0 + rect.height * 0.7))
    page.draw_polyline(points, color=BLUE, width=1.3)


#: A sole trader's rubber stamp in the landlord's signature block: its text lines (points).
STAMP_TEXT = pymupdf.Rect(200, 648, 330, 676)


def _stamp(page: pymupdf.Page) -> None:
    """A rectangular rubber stamp in blue: a frame and the sole trader's name and home address."""
    page.draw_rect(STAMP_TEXT + (-4, -4, 4, 4), color=BLUE, width=1.2)
    page.insert_htmlbox(
        STAMP_TEXT,
        "<p>Jan Novák – truhlářství<br>Lipová 12, 602 00 Brno</p>",
        css="* {font-family: sans-serif; font-size: 8pt; color: #1a33bf; margin: 0}",
    )


def _scan(*, signature_over_name: bool = False, stamp: bool = False) -> bytes:
    """A one-page lease as a colour scan (150 dpi picture, no text layer) with the landlord's and
    the mayor's signatures, a handwritten date and a tick."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_htmlbox(pymupdf.Rect(60, 60, 540, 400), HEADER, css="* {font-family: sans-serif; font-size: 11pt}")
    page.insert_htmlbox(pymupdf.Rect(60, 555, 120, 575), "<p>V Brně dne</p>", css="* {font-size: 11pt}")
    page.insert_htmlbox(pymupdf.Rect(80, 615, 250, 635), "<p>Pronajímatel:</p>", css="* {font-size: 11pt}")
    page.insert_htmlbox(pymupdf.Rect(340, 615, 520, 635), "<p>Nájemce:</p>", css="* {font-size: 11pt}")
    page.insert_htmlbox(
        pymupdf.Rect(340, 700, 540, 720), "<p>Ing. Petr Dvořák, starosta</p>", css="* {font-size: 11pt}"
    )
    if signature_over_name:  # no signature block: the strokes cross the landlord's entry in the header
        _scrawl(page, OVER_ENTRY, loops=2)
    else:
        _scrawl(page, PRIVATE_SIGNATURE)
    _scrawl(page, OFFICIAL_SIGNATURE)
    if stamp:
        _stamp(page)
    page.draw_polyline([(DATE.x0, DATE.y1), (DATE.x0 + 20, DATE.y0), (DATE.x0 + 40, DATE.y1)], color=BLUE, width=1.2)
    page.draw_polyline([(40, 300), (44, 306), (52, 294)], color=BLUE, width=1.2)  # a reader's tick in the margin
    pix = page.get_pixmap(dpi=150)
    out = pymupdf.open()
    scanned = out.new_page(width=595, height=842)
    scanned.insert_image(scanned.rect, pixmap=pix)
    return out.tobytes()


@pytest.fixture(scope="module")
def engine():
    engine = RedactionEngine(nlp=RuleOnlyNlpEngine())
    assert engine.ocr is not None and engine.ocr.available(), "Tesseract with ces is installed by bin/setup"
    return engine


@pytest.fixture(scope="module")
def scan():
    return _scan()


@pytest.fixture(scope="module")
def analysis(engine, scan):
    return engine.analyze(scan)


def _signatures(analysis):
    return [p for p in analysis.proposals if p.category == SIGNATURE]


def _covers(box: Box, rect: pymupdf.Rect, slack: float = 4.0) -> bool:
    return (
        box.x0 <= rect.x0 + slack
        and box.y0 <= rect.y0 + slack
        and box.x1 >= rect.x1 - slack
        and box.y1 >= rect.y1 - slack
    )


def _blue_pixels(pdf: bytes, rect: pymupdf.Rect) -> int:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    pix = page.get_pixmap(dpi=100, clip=rect, colorspace=pymupdf.csRGB, alpha=False)
    rgb = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, 3).astype(int)
    return int(((rgb[:, :, 2] - rgb[:, :, 0]) > 60).sum())


def test_the_private_persons_signature_is_proposed_over_all_its_strokes_and_the_officials_kept(analysis):
    found = _signatures(analysis)
    private = [p for p in found if p.action == Action.REDACT]
    kept = [p for p in found if p.action == Action.KEEP]
    assert len(private) == 1 and len(kept) == 1, [(p.action, p.reason.code, p.boxes) for p in found]
    assert _covers(private[0].boxes[0], PRIVATE_SIGNATURE)
    assert private[0].reason.code == "signature_party" and private[0].text == ""
    assert _covers(kept[0].boxes[0], OFFICIAL_SIGNATURE)
    assert kept[0].reason.code == "signature_official"
    # the date written by hand beside "V Brně dne" and the tick in the margin are nobody's signature
    for p in found:
        assert not p.boxes[0].y1 < 600, p


def test_the_signature_is_burned_into_the_pixels_and_the_officials_left(engine, scan, analysis):
    assert _blue_pixels(scan, PRIVATE_SIGNATURE) > 100
    result = engine.redact(analysis.document, analysis.to_redact())
    assert result.verification.ok
    assert _blue_pixels(result.pdf, PRIVATE_SIGNATURE) == 0
    assert _blue_pixels(result.pdf, OFFICIAL_SIGNATURE) > 100


def test_an_agency_that_redacts_officials_signatures_gets_both(engine, analysis):
    profile = AgencyProfile().with_signatures(redact_officials=True)
    decided = engine.decide_layer(analysis.text_layer, profile=profile)
    actions = sorted((p.action.value, p.reason.code) for p in _signatures(decided))
    assert actions == [("redact", "signature_official_redacted"), ("redact", "signature_party")]


def test_a_map_that_redacts_officials_names_redacts_their_signatures(engine, analysis):
    cmap = engine.category_map
    stricter = dataclasses.replace(cmap, role_exceptions=[])
    decided = engine.decide_layer(analysis.text_layer, stricter)
    # the mayor's printed name is now redacted, and the signature above it follows the name
    codes = sorted(p.reason.code for p in _signatures(decided) if p.action == Action.REDACT)
    assert codes == ["signature_party", "signature_private"]


def test_strokes_across_a_private_persons_entry_go_with_that_person(engine):
    analysis = engine.analyze(_scan(signature_over_name=True))
    over = [p for p in _signatures(analysis) if p.reason.code in ("ink_over_value", "ink_in_entry")]
    assert len(over) == 1 and over[0].action == Action.REDACT
    assert _covers(over[0].boxes[0], OVER_ENTRY, slack=6)


def test_a_sole_traders_stamp_in_the_landlords_block_is_made_illegible(engine):
    scan = _scan(stamp=True)
    assert _blue_pixels(scan, STAMP_TEXT) > 100
    analysis = engine.analyze(scan)
    result = engine.redact(analysis.document, analysis.to_redact())
    assert result.verification.ok
    assert _blue_pixels(result.pdf, STAMP_TEXT) == 0  # read as text and redacted, or boxed as the signer's ink
    # the stamp's frame joins neither signature to the other: the landlord's goes, the mayor's stays
    assert _blue_pixels(result.pdf, PRIVATE_SIGNATURE) == 0
    assert _blue_pixels(result.pdf, OFFICIAL_SIGNATURE) > 100


def test_the_ink_marks_are_kept_with_the_stored_layer(analysis):
    again = layer_from_bytes(layer_to_bytes(analysis.text_layer))
    assert again.ink_marks == analysis.text_layer.ink_marks
    assert any(isinstance(m, InkMark) for marks in again.ink_marks.values() for m in marks)


def test_printed_text_and_ruled_lines_are_no_marks():
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 100), "Smlouva o dílo", fontsize=12)
    page.draw_line((72, 200), (300, 200), width=1)  # a signature line
    page.draw_rect(pymupdf.Rect(72, 300, 400, 500), width=1)  # a table's frame
    words = [(x0, y0, x1, y1) for x0, y0, x1, y1, *_ in page.get_text("words")]
    assert ink_marks(page, words) == []
    _scrawl(page, pymupdf.Rect(100, 150, 200, 195))
    marks = ink_marks(page, words)
    assert len(marks) == 1 and marks[0].coloured > 0.5
    assert _covers(marks[0].box, pymupdf.Rect(100, 150, 200, 195), slack=3)


def test_a_pen_across_a_printed_label_is_ink_and_a_word_printed_in_colour_is_not():
    """A real sole trader signed across the printed "Poskytovatel služeb:": OCR read the label with
    confidence, so the strokes inside its box were taken for the label's print and the little
    left outside was too small for a signature. Over a label's words a pen's coloured strokes
    are a minority of the ink and stay ink; a label printed in colour is coloured all through and
    is print; over other words (a stamp across a line of text) the words explain their box."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 700), "Poskytovatel sluzeb:", fontsize=11)
    page.insert_text((72, 400), "Objednatel:", fontsize=14, color=BLUE)
    page.insert_text((72, 500), "Smluvni strany se dohodly na teto smlouve", fontsize=11)
    found = page.get_text("words")
    words = [(x0, y0, x1, y1) for x0, y0, x1, y1, *_ in found]
    labels = label_boxes((w[4], w[5] * 1000 + w[6], (w[0], w[1], w[2], w[3])) for w in found)
    assert len(labels) == 3  # "Poskytovatel sluzeb:" and "Objednatel:"
    assert ink_marks(page, words, labels) == []
    strokes = [(88, 704), (96, 689), (101, 706), (108, 690), (114, 703), (121, 692)]
    page.draw_polyline(strokes, color=BLUE, width=1.3)
    page.draw_polyline([(x, y - 200) for x, y in strokes], color=BLUE, width=1.3)  # over the sentence
    [mark] = ink_marks(page, words, labels)
    assert mark.coloured > 0.5 and mark.y0 < 693 and mark.x0 < 92 and mark.x1 > 118  # the strokes over the label


def test_a_label_ocr_misread_under_a_pen_still_names_its_party():
    """ "Poskyfóvatel služeb:" (the t under a stroke read as f) is still the provider's block; a
    different role noun is not."""
    from redactor.decide.signatures import _party_of
    from redactor.model import Party, PartyKind, Span

    provider = Party(1, "Poskytovatel služeb", PartyKind.SOLE_TRADER, [Span(0, 10)], ["poskytovatel služeb"])
    client = Party(2, "Objednatel", PartyKind.PUBLIC_BODY, [Span(20, 30)], ["objednatel"])
    assert _party_of("Poskyfóvatel služeb", [provider, client]) is provider
    assert _party_of("Poskytovatel služeb", [provider, client]) is provider
    assert _party_of("Objednatel", [provider, client]) is client
    assert _party_of("Poskxfóvatel služeb", [provider, client]) is None  # two letters of the stem off
