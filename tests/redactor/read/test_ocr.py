"""Scanned pages: OCR with Tesseract, another tool's OCR layer replaced, black pixels under every
box, an invisible text layer for everything outside the boxes."""

from __future__ import annotations

import io

import pymupdf
import pytest
from PIL import Image

from redactor.detect.nlp import RuleOnlyNlpEngine
from redactor.engine import RedactionEngine
from redactor.read.ocr import (
    LAYER_MIN_AGREEMENT,
    LAYER_MIN_SIMILARITY,
    OcrPage,
    OcrWord,
    StoredOcr,
    TesseractOcr,
    layer_agrees,
    layer_similarity,
    text_quality,
)
from tests.pdfs import pdf_from_paragraphs, rotated_scan_of, scan_of, sideways_scan_of

PARAGRAPHS = [
    "Kupní smlouva č. 2026/15",
    "Prodávající: Jan Novák, nar. 3. 4. 1975, rodné číslo 750403/1238, bytem Lipová 12, 602 00 Brno",
    "Kupující: Obec Horní Lhota, IČO: 00000001, se sídlem Náměstí 1, 679 01 Horní Lhota",
    "Kupní cena 120 000 Kč bude zaplacena na účet prodávajícího č. 19-2000145399/0800.",
]


@pytest.fixture(scope="module")
def engine():
    engine = RedactionEngine(nlp=RuleOnlyNlpEngine())
    assert engine.ocr is not None and engine.ocr.available(), "Tesseract with ces is installed by bin/setup"
    return engine


def test_text_quality_tells_words_from_garbage():
    assert text_quality("Prodávající: Jan Novák, nar. 3. 4. 1975, bytem Lipová 12") > 0.9
    assert text_quality("ÿþ%# ~~ lll1 ,,,| ŽŽŽ §§ xqzwrt ÷÷") < 0.3


def test_ocr_reads_a_scan_into_words_with_boxes_in_points():
    page_pdf = scan_of(pdf_from_paragraphs(PARAGRAPHS))
    doc = pymupdf.open(stream=page_pdf)
    result = TesseractOcr().recognize(doc[0])
    text = " ".join(w.text for w in result.words)
    assert "750403/1238" in text and "Novák," in text
    assert result.mean_confidence > 80
    novak = next(w for w in result.words if w.text.startswith("Novák"))
    assert 0 < novak.x0 < novak.x1 < doc[0].rect.width and 0 < novak.y0 < novak.y1 < 300  # points, top of A4


@pytest.mark.parametrize("turn", [90, 180, 270])
def test_a_sheet_scanned_on_its_side_is_turned_once_read_and_its_boxes_cover_the_right_pixels(engine, turn):
    """A sheet fed sideways or upside down, without /Rotate: the first read is poor, the page's
    orientation is detected once, the page is read upright, and each character's box lies where
    that character is on the page as it is (so a part of a word is blacked out where it is)."""
    scan = sideways_scan_of(pdf_from_paragraphs(PARAGRAPHS), turn)
    doc = pymupdf.open(stream=scan)
    result = TesseractOcr().recognize(doc[0])
    text = " ".join(w.text for w in result.words)
    assert "750403/1238" in text and "Horní" in text and result.mean_confidence > 80
    assert {w.angle for w in result.words} == {turn}  # turned counter-clockwise: the fix is clockwise

    analysis = engine.analyze(scan)
    assert analysis.pages[0].ocr
    redact = analysis.to_redact()
    assert {"750403/1238", "19-2000145399/0800"} <= {p.text for p in redact}
    result = engine.redact(analysis.document, redact)  # raises VerificationError on any leak
    out = pymupdf.open(stream=result.pdf)
    for box in result.boxes:
        pixels = _image_pixels_under(out, out[0], pymupdf.Rect(box.x0, box.y0, box.x1, box.y1))
        assert pixels and max(pixels) == 0, box
    # nothing of the birth number can be read from the published page's pixels, turned upright
    page = TesseractOcr().recognize(out[0])
    assert "750403" not in " ".join(w.text for w in page.words)
    assert "Horní" in " ".join(w.text for w in page.words)


def _image_pixels_under(doc: pymupdf.Document, page: pymupdf.Page, rect: pymupdf.Rect) -> list[int]:
    info = page.get_image_info(xrefs=True)[0]
    pix = pymupdf.Pixmap(doc, info["xref"])
    image = Image.open(io.BytesIO(pix.tobytes("png"))).convert("L")
    unit = rect * ~pymupdf.Matrix(info["transform"])
    box = (int(unit.x0 * image.width) + 1, int(unit.y0 * image.height) + 1)
    box += (int(unit.x1 * image.width) - 1, int(unit.y1 * image.height) - 1)
    return list(image.crop(box).get_flattened_data())


@pytest.mark.parametrize(
    ("layer", "source"),
    [(None, "tesseract"), ("invisible", "kept layer"), ("shifted", "tesseract, layer replaced")],
)
def test_a_scan_is_redacted_in_the_pixels_and_keeps_a_searchable_layer(engine, layer, source):
    scan = scan_of(pdf_from_paragraphs(PARAGRAPHS), text_layer=layer)
    analysis = engine.analyze(scan)
    page = analysis.pages[0]
    # an OCR layer that sits on the image is kept; a misaligned one is replaced by Tesseract's words
    assert (page.ocr, page.scan_layer, page.ocr_replaced) == {
        "tesseract": (True, False, False),
        "kept layer": (False, True, False),
        "tesseract, layer replaced": (True, False, True),
    }[source]
    assert page.is_scan and not page.needs_ocr and page.ocr_confidence > 80 and not page.needs_check
    redact = analysis.to_redact()
    assert {"750403/1238", "19-2000145399/0800"} <= {p.text for p in redact}

    result = engine.redact(analysis.document, redact)

    out = pymupdf.open(stream=result.pdf)
    text = out[0].get_text()
    # the kept strings are findable in the (invisible) OCR layer; the redacted ones are gone
    assert "Obec Horní Lhota" in text and "120 000 Kč" in text
    assert "750403" not in text and "Novák" not in text and "2000145399" not in text
    # another tool's invisible word under a box is gone, and no character is under a box; the
    # words the product wrote do not even touch one (a kept layer's glyph boxes come from its own
    # font and may reach into the line above or below, as born-digital text does)
    chars = [
        c
        for b in out[0].get_text("rawdict")["blocks"]
        for ln in b.get("lines", [])
        for s in ln["spans"]
        for c in s["chars"]
    ]
    for box in result.boxes:
        rect = pymupdf.Rect(box.x0, box.y0, box.x1, box.y1)
        assert not [
            c["c"]
            for c in chars
            if not c["c"].isspace() and rect.contains(pymupdf.Rect(c["bbox"]).tl / 2 + pymupdf.Rect(c["bbox"]).br / 2)
        ]
        if source != "kept layer":
            assert out[0].get_textbox(rect).strip() == ""
        # the pixels under every box are black in the image data itself
        pixels = _image_pixels_under(out, out[0], pymupdf.Rect(box.x0, box.y0, box.x1, box.y1))
        assert pixels and max(pixels) == 0, box
    assert all(span["type"] == 3 for span in out[0].get_texttrace())  # the layer is invisible


def test_another_tools_layer_is_checked_on_a_band_and_read_in_full_only_when_the_band_disagrees(engine):
    clauses = [f"Článek {i}. Smluvní strany se dohodly na podmínkách uvedených v této smlouvě." for i in range(1, 30)]
    contract = pdf_from_paragraphs(PARAGRAPHS + clauses)

    kept = engine.analyze(scan_of(contract, text_layer="invisible"))
    page, sample = kept.pages[0], kept.text_layer.ocr_pages[1]
    assert page.scan_layer and not page.ocr and sample.clip is not None
    x0, y0, x1, y1 = sample.clip
    assert (x0, x1) == (0, page.width) and 0 < y1 - y0 < 0.35 * page.height  # a band, not the page
    assert all(y0 <= (w.y0 + w.y1) / 2 <= y1 for w in sample.words)

    shifted = engine.analyze(scan_of(contract, text_layer="shifted"))
    page, full = shifted.pages[0], shifted.text_layer.ocr_pages[1]
    assert page.ocr and page.ocr_replaced and full.clip is None  # the band disagreed: the page was read
    assert "750403/1238" in " ".join(w.text for w in full.words)

    # publishing replays the stored reads and gets the text the proposals point into
    for analysis, scan in ((kept, "invisible"), (shifted, "shifted")):
        stored = {n: type(p).from_dict(p.to_dict()) for n, p in analysis.text_layer.ocr_pages.items()}
        replay = RedactionEngine(nlp=RuleOnlyNlpEngine(), ocr=StoredOcr(stored))
        assert replay.analyze(scan_of(contract, text_layer=scan)).text_layer.text == analysis.text_layer.text


def test_pages_read_in_parallel_give_the_text_of_pages_read_one_after_another():
    clauses = [f"Článek {i}. Smluvní strany se dohodly na podmínkách této smlouvy." for i in range(1, 8)]
    doc = pymupdf.open()
    for k in range(3):  # three scanned pages and a text page between them
        page = pymupdf.open(stream=scan_of(pdf_from_paragraphs(PARAGRAPHS[k:] + clauses)))
        doc.insert_pdf(page)
        if k == 1:
            doc.insert_pdf(pymupdf.open(stream=pdf_from_paragraphs(clauses)))
    scan = doc.tobytes()
    one = RedactionEngine(nlp=RuleOnlyNlpEngine(), ocr=TesseractOcr()).analyze(scan)
    three = RedactionEngine(nlp=RuleOnlyNlpEngine(), ocr=TesseractOcr(parallel=3)).analyze(scan)
    assert [p.ocr for p in three.pages] == [True, True, False, True]
    assert three.text_layer.text == one.text_layer.text and "750403/1238" in three.text_layer.text
    assert [p.to_dict()["words"] for p in three.text_layer.ocr_pages.values()] == [
        p.to_dict()["words"] for p in one.text_layer.ocr_pages.values()
    ]


def test_without_tesseract_a_scan_is_reported_not_guessed():
    engine = RedactionEngine(nlp=RuleOnlyNlpEngine(), ocr=False)
    analysis = engine.analyze(scan_of(pdf_from_paragraphs(PARAGRAPHS)))
    assert analysis.pages_needing_ocr == [1] and analysis.proposals == []


@pytest.mark.parametrize("rotation", [90, 180, 270])
def test_a_scan_stored_rotated_is_read_redacted_and_verified(engine, rotation):
    """Scanners often store a page sideways with /Rotate to show it upright: boxes, pixels and the
    invisible layer must follow the page's own (unrotated) coordinates, not the displayed ones."""
    scan = rotated_scan_of(pdf_from_paragraphs(PARAGRAPHS), rotation)
    analysis = engine.analyze(scan)
    page = analysis.pages[0]
    assert page.ocr and page.ocr_confidence > 80
    assert (page.width, page.height) == ((842, 595) if rotation in (90, 270) else (595, 842))
    redact = analysis.to_redact()
    assert {"750403/1238", "19-2000145399/0800"} <= {p.text for p in redact}

    result = engine.redact(analysis.document, redact)  # raises VerificationError on any leak

    out = pymupdf.open(stream=result.pdf)
    assert out[0].rotation == rotation
    text = out[0].get_text()
    assert "Obec Horní Lhota" in text and "120 000 Kč" in text
    assert "750403" not in text and "Novák" not in text and "2000145399" not in text
    for box in result.boxes:
        assert 0 <= box.x0 < box.x1 <= page.width and 0 <= box.y0 < box.y1 <= page.height
        assert out[0].get_textbox(pymupdf.Rect(box.x0, box.y0, box.x1, box.y1)).strip() == ""
        pixels = _image_pixels_under(out, out[0], pymupdf.Rect(box.x0, box.y0, box.x1, box.y1))
        assert pixels and max(pixels) == 0, box


def test_a_layer_that_says_roughly_what_tesseract_reads_at_the_same_places_sits_on_its_picture():
    """A poor scan: the layer says "7 924 Kč", Tesseract "T924 Kč"; few words agree letter for
    letter, but nearly all are alike at the same places. The same layer two lines lower is not."""
    pairs = [  # (the layer's word, Tesseract's word at the same place)
        ("Brno", "Bmo"),
        ("Obřanská", "Obfanská"),
        ("155", "155"),
        ("924", "T924"),
        ("Kč", "Kč"),
        ("hodnota", "hodnata"),
        ("přípojky", "připojky;"),
        ("Karmen", "Karen"),
        ("International", "lnternational"),
    ]
    layer, read = [], []
    for i, (theirs, ours) in enumerate(pairs):
        x, y = 72.0 + 120 * (i % 3), 100.0 + 14 * (i // 3)
        layer.append((x, y, x + 60, y + 10, theirs))
        read.append(OcrWord(ours, x + 1, y + 0.5, x + 59, y + 10.5, 60.0, (1, 1, i // 3)))
    page = OcrPage(1, read)
    assert layer_agrees(layer, page) < LAYER_MIN_AGREEMENT  # letter for letter: the layer is judged poor
    assert layer_similarity(layer, page) >= LAYER_MIN_SIMILARITY  # alike at the same places: it is kept
    shifted = [(x0, y0 + 28, x1, y1 + 28, text) for x0, y0, x1, y1, text in layer]
    assert layer_similarity(shifted, page) == 0.0


def test_a_second_extraction_reads_only_the_distrusted_pages_again():
    """After a kept layer was found off on some pages, the document is extracted again: the other
    pages replay their first reads (the same band, the same page), only the distrusted ones and
    pages never read go to Tesseract."""
    from redactor.read.ocr.stored import ReadAgain

    class Counting:
        parallel = 1

        def __init__(self):
            self.calls = []

        def available(self):
            return True

        def read_ahead(self, doc, numbers, bands=None):
            self.calls.append(("ahead", tuple(numbers)))
            return None

        def recognize(self, page, clip=None):
            self.calls.append(("page", page.number + 1, clip is not None))
            return OcrPage(page.number + 1)

        def check_layer(self, page, band):
            self.calls.append(("band", page.number + 1))
            return OcrPage(page.number + 1, clip=tuple(round(v, 2) for v in band))

        def read_pictures(self, page, regions):
            self.calls.append(("pictures", page.number + 1))
            return None

    doc = pymupdf.open()
    for _ in range(4):
        doc.new_page()
    band = pymupdf.Rect(0, 100, 595, 200)
    first = {
        1: OcrPage(1, clip=(0.0, 100.0, 595.0, 200.0)),  # a layer kept on its band sample
        2: OcrPage(2, clip=(0.0, 100.0, 595.0, 200.0)),  # the one found off where a name is
        3: OcrPage(3),  # a bare scan read in full
    }
    live = Counting()
    again = ReadAgain(live, first, distrust={2})
    assert again.check_layer(doc[0], band) is first[1]
    assert again.recognize(doc[2]) is first[3]
    assert again.read_ahead(doc, [3, 4]) is None and live.calls == [("ahead", (4,))]
    assert again.recognize(doc[1]).number == 2 and live.calls[-1] == ("page", 2, False)  # read again in full
    assert again.check_layer(doc[0], pymupdf.Rect(0, 300, 595, 400)).clip == (0.0, 300.0, 595.0, 400.0)
    assert live.calls[-1] == ("band", 1)  # another band than the first read: read live
    assert again.recognize(doc[3]).number == 4 and live.calls[-1] == ("page", 4, False)


@pytest.mark.skipif(not TesseractOcr().available(), reason="Tesseract with ces is not installed")
def test_a_reader_after_burn_in_reads_in_process_as_the_program_reads():
    from redactor.read.ocr import in_process

    assert in_process.usable()
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=80)
    page.insert_text((10, 40), "Zhotovitel: Karel Vomacka, r. c. 780101/1229", fontsize=14)
    pix = page.get_pixmap(dpi=200, colorspace=pymupdf.csGRAY)
    image = Image.frombytes("L", (pix.width, pix.height), pix.samples)
    program, api = TesseractOcr(psm=6), TesseractOcr().reading(dpi=200, psm=6)
    assert api.in_process and not program.in_process
    by_program = [w[0] for w in program.read_image(image)]
    by_api = [w[0] for w in api.read_image(image)]
    assert by_api == by_program == ["Zhotovitel:", "Karel", "Vomacka,", "r.", "c.", "780101/1229"]
    (first, *_rest) = api.read_image(image)
    assert first[2:6] == program.read_image(image)[0][2:6]  # the same pixels' box


@pytest.mark.skipif(not TesseractOcr().available(), reason="Tesseract with ces is not installed")
def test_the_workers_warm_up_loads_a_model_before_the_fork():
    from contracts.worker import warm_engine
    from redactor.read.ocr import in_process

    warm_engine()
    assert in_process._IDLE.get("ces")  # a horse forked now inherits the loaded model
