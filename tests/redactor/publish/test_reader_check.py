"""The reader's check (redactor.publish.reader_check): the published pages are read as a reader
sees them, and personal data the analysis did not decide is found, wherever the analysis missed
it (a lone surname it took for a common word, a value its OCR misread), on born-digital pages and
on scans; what a person or the analysis decided stays decided."""

from __future__ import annotations

from dataclasses import replace

import pymupdf
import pytest

from redactor import categories as cat
from redactor.czech import NameGazetteer
from redactor.decide.category_map import CategoryMap
from redactor.detect.nlp import RuleOnlyNlpEngine
from redactor.engine import RedactionEngine
from redactor.model import Action, Box, ProposedRedaction
from redactor.publish.reader_check import ReaderFinding, _Decided, _layer_lines, reader_check, review_items
from redactor.read.ocr import TesseractOcr
from tests.pdfs import pdf_from_paragraphs

needs_tesseract = pytest.mark.skipif(not TesseractOcr().available(), reason="Tesseract with ces is not installed")

#: A lease whose private lessor's surname is also a common word the contract writes in lower
#: case: the analysis redacts the full name but takes the lone "Louka" for the noun (a heading,
#: a list item); a reader sees the surname.
LOUKA = [
    "PACHTOVNÍ SMLOUVA",
    "Propachtovatel: Jan Louka, nar. 12. 3. 1980, bytem Lipová 12, 602 00 Brno",
    "Pachtýř: Obec Záhoří, IČO: 00285030, zastoupená starostou Mgr. Františkem Lukáškem",
    "Předmětem pachtu je pozemek parc. č. 1234, druh pozemku trvalý travní porost (louka).",
    "Louka souhlasí s tím, že pachtýř bude louku kosit dvakrát ročně.",
]


@pytest.fixture(scope="module")
def engine():
    return RedactionEngine(nlp=RuleOnlyNlpEngine())


def _scan(pdf: bytes, dpi: int = 200) -> bytes:
    """``pdf``'s pages as image-only pages (a scan without a text layer)."""
    src = pymupdf.open(stream=pdf, filetype="pdf")
    out = pymupdf.open()
    for page in src:
        new = out.new_page(width=page.rect.width, height=page.rect.height)
        new.insert_image(new.rect, pixmap=page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY))
    return out.tobytes()


def _redact(engine, pdf):
    analysis = engine.analyze(pdf)
    others = [p for p in analysis.proposals if p.action != Action.REDACT]
    return analysis, engine.redact(analysis.document, analysis.to_redact(), others=others)


def test_louka_is_in_no_gazetteer():
    assert NameGazetteer.default().surname_of("Louka") is None


@pytest.mark.parametrize("scanned", [False, True], ids=["born-digital", "scan"])
def test_a_surname_the_analysis_left_is_found_in_the_published_page(engine, scanned):
    if scanned and not TesseractOcr().available():
        pytest.skip("Tesseract with ces is not installed")
    pdf = _scan(pdf_from_paragraphs(LOUKA)) if scanned else pdf_from_paragraphs(LOUKA)
    analysis, result = _redact(engine, pdf)
    assert "Jan Louka" in [p.text for p in analysis.to_redact()]
    assert all(p.text != "Louka" for p in analysis.proposals)  # the analysis missed the lone surname
    (finding,) = result.findings
    assert finding.found_by == "name part" and finding.text == "Louka" and finding.page == 1
    # a scan's published layer is the product's own OCR: the word is read there and in the picture
    assert finding.read_in == "text layer" or scanned
    with pymupdf.open(stream=result.pdf, filetype="pdf") as doc:
        words = doc[0].get_text("words") if not scanned else []
    if words:  # the box proposed is on the lone surname, not on the redacted full name
        (lone,) = [w for w in words if w[4] == "Louka"]
        assert abs(finding.rect[0] - lone[0]) < 1 and abs(finding.rect[1] - lone[1]) < 1
    checked = result.verification.checks["reader_check"]
    assert checked["findings"] == 1
    # a scan's picture is read by OCR (whole or by its lines of text); a text page's is not
    assert (checked["pages_read_whole"] + checked["regions_read"] > 0) == scanned
    # as a review item: one per value, a box on it, the reason says where it was read
    (item,) = review_items(result.findings, CategoryMap.default())
    assert item.action == Action.REVIEW and item.recognizer == "reader_check"
    assert item.reason.code == "still_legible_name" and item.boxes == [finding.box]


def test_what_a_reviewer_decided_is_decided(engine):
    pdf = pdf_from_paragraphs(LOUKA)
    analysis, result = _redact(engine, pdf)
    assert len(result.findings) == 1
    others = [p for p in analysis.proposals if p.action != Action.REDACT]
    # the reviewer kept it (another Louka, say): the next check does not ask again
    kept = review_items(result.findings, CategoryMap.default())[0]
    kept.action = Action.KEEP
    again = engine.redact(analysis.document, analysis.to_redact(), others=[*others, kept])
    assert again.findings == []
    # the reviewer redacted it: it is burned in, nothing is legible there any more
    redacted = review_items(result.findings, CategoryMap.default())[0]
    redacted.action = Action.REDACT
    burned = engine.redact(analysis.document, [*analysis.to_redact(), redacted], others=others)
    assert burned.findings == []
    with pymupdf.open(stream=burned.pdf, filetype="pdf") as doc:
        assert "Louka souhlasí" not in doc[0].get_text()


class _Misreading(TesseractOcr):
    """The analysis' OCR losing the birth number and its cue (faint print, a stamp over it): what
    a poor scan does. The check reads with its own Tesseract and sees the page as it is."""

    def recognize(self, page, clip=None):
        result = super().recognize(page, clip)
        result.words = [w for w in result.words if not any(k in w.text for k in ("1207", "rodné", "číslo"))]
        return result


@needs_tesseract
def test_a_value_the_analysis_ocr_misread_is_found_in_the_picture():
    engine = RedactionEngine(nlp=RuleOnlyNlpEngine(), ocr=_Misreading())
    body = [
        "KUPNÍ SMLOUVA",
        "Prodávající: Jan Novák, rodné číslo 870312/1207, bytem Lipová 12, 602 00 Brno",
        "Kupující: Obec Záhoří, IČO: 00285030",
    ]
    pdf = _scan(pdf_from_paragraphs(body), dpi=300)
    analysis, result = _redact(engine, pdf)
    assert "870312" not in analysis.text_layer.text  # not read, so no birth number was found
    births = [f for f in result.findings if f.category == cat.BIRTH_NUMBER]
    assert [f.read_in for f in births] == ["page picture"] and births[0].text.replace(" ", "") == "870312/1207"


def _check(pdf: bytes, others=(), cmap=None):
    return reader_check(pdf, boxes=[], redacted=[], others=others, category_map=cmap)


def _proposal(text, category, box, action=Action.KEEP):
    return ProposedRedaction(
        id=1, page=1, boxes=[box], text=text, category=category, category_name="", category_type="",
        action=action, score=1.0, reason=None, recognizer="", evidence="", span=None,
    )  # fmt: skip


def test_what_the_analysis_or_its_map_decided_is_decided():
    pdf = pdf_from_paragraphs(["Objednatel: Obec Záhoří, tel. 602 123 456", "rodné číslo 870312/1207"])
    found = {f.category: f for f in _check(pdf).findings}
    assert set(found) == {cat.PHONE, cat.BIRTH_NUMBER}
    phone, birth = found[cat.PHONE], found[cat.BIRTH_NUMBER]
    # the analysis kept the public body's phone at its place; a review item names the birth number
    kept = [_proposal("602 123 456", cat.PHONE, phone.box), _proposal("x", 0, birth.box, Action.REVIEW)]
    assert _check(pdf, kept).findings == []
    # a decision on another kind of value at the same place decides nothing of this one
    assert [f.category for f in _check(pdf, [_proposal("602 123 456", cat.ADDRESS_SEAT, phone.box)]).findings] == [
        cat.PHONE,
        cat.BIRTH_NUMBER,
    ]
    # the same value kept elsewhere is decided here too
    assert [f.category for f in _check(pdf, [_proposal("602 123 456", cat.PHONE, Box(2, 0, 0, 1, 1))]).findings] == [
        cat.BIRTH_NUMBER
    ]
    # an agency whose map does not redact phones at all is not asked about them
    data = CategoryMap.default().to_dict()
    for rule in data["categories"]:
        if rule["id"] == cat.PHONE:
            rule["type"] = "not_subject"
    assert [f.category for f in _check(pdf, cmap=CategoryMap.from_dict(data)).findings] == [cat.BIRTH_NUMBER]


def test_a_line_of_the_text_layer_is_cut_at_a_redaction_box():
    """ "28. 3. 2022 ███ 23": the words on either side of a box are not one number."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((56, 100), "V Praze dne 28. 3. 2022            23", fontsize=11)  # a burned word's gap
    words = page.get_text("words")
    gap = (words[-2][2] + 2, words[-2][1], words[-1][0] - 2, words[-1][3])
    assert [" ".join(line.words) for line in _layer_lines(page)] == ["V Praze dne 28. 3. 2022 23"]
    assert [" ".join(line.words) for line in _layer_lines(page, [gap])] == ["V Praze dne 28. 3. 2022", "23"]


def test_a_home_the_analysis_kept_as_a_seat_is_found(engine):
    """The address after "bytem" is kept as the public body's seat (the same street and number as
    its seat above): a seat was decided, not a home, and a reader sees a home address. (The
    analysis now redacts a home after its cue whatever seat has its street; the seat decision is
    made here as an earlier rule made it.)"""
    body = [
        "SMLOUVA O NÁJMU",
        "Pronajímatel: Obec Záhoří, IČO 00285030, se sídlem Na Výsluní 27/5, 612 00 Brno",
        "Nájemce: Jan Novák, nar. 12. 3. 1980",
        "Nájemce, bytem Na Výsluní 27/5, 612 00 Brno, převezme byt.",
    ]
    pdf = pdf_from_paragraphs(body)
    analysis = engine.analyze(pdf)
    (home,) = [p for p in analysis.to_redact() if p.text.startswith("Na Výsluní")]
    as_seat = replace(home, action=Action.KEEP, category=cat.ADDRESS_SEAT)
    others = [p for p in analysis.proposals if p.action != Action.REDACT] + [as_seat]
    redacted = [p for p in analysis.to_redact() if p is not home]
    result = engine.redact(analysis.document, redacted, others=others)
    (finding,) = result.findings
    assert finding.category == cat.ADDRESS_RESIDENCE and finding.found_by == "address"
    assert finding.rect[1] > 120  # the home after "bytem", not the seat above it


def test_a_surname_in_a_kept_street_named_after_someone_was_decided_with_the_street(engine):
    """A private supplier Ondřej Svoboda, and the customer's seat on "Nábřeží Ludvíka Svobody":
    the genitive "Svobody" is a form of the redacted surname, inside the seat the analysis kept."""
    body = [
        "SMLOUVA O POSKYTOVÁNÍ SLUŽEB",
        "Objednatel: Město Vítkov, IČO: 00300870, sídlo: Nábřeží Ludvíka Svobody 871, 288 60 Vítkov",
        "Poskytovatel: Ondřej Svoboda, nar. 12. 3. 1980, bytem Lipová 12, 602 00 Brno",
        "Ondřej Svoboda se zavazuje poskytovat úklidové služby.",
    ]
    analysis, result = _redact(engine, pdf_from_paragraphs(body))
    seat = [p for p in analysis.proposals if p.text.startswith("Nábřeží Ludvíka Svobody")]
    assert seat and all(p.action == Action.KEEP for p in seat)
    assert "Ondřej Svoboda" in [p.text for p in analysis.to_redact()]
    assert result.findings == []
    # the same word elsewhere is not decided by the seat
    (box,) = seat[0].boxes
    decided = _Decided.of([], seat)
    inside = ReaderFinding(1, (box.x0 + 80, box.y0, box.x0 + 120, box.y1), "Svobody", cat.SURNAME, "name part", "")
    elsewhere = ReaderFinding(1, (56.0, 400.0, 96.0, 412.0), "Svobody", cat.SURNAME, "name part", "")
    assert decided.known(inside) and not decided.known(elsewhere)
    # a kept organisation's name decides none of its words: a signature row read as one name
    (company,) = [p for p in analysis.proposals if p.text == "Město Vítkov"]
    misread = replace(company, text="Město Vítkov Ondřej Svobody", boxes=seat[0].boxes)
    assert not _Decided.of([], [misread]).known(inside)


def test_an_account_whose_number_looks_like_a_mobile_is_an_account():
    """Of overlapping findings the check keeps the analysis' own choice: "604524761/0800" is the
    public body's account (kept), not a mobile number nobody decided."""
    pdf = pdf_from_paragraphs(["Dotaci vrátí na účet poskytovatele 604524761/0800."])
    (account,) = _check(pdf).findings
    assert account.category == cat.BANK_ACCOUNT and account.text == "604524761/0800"
    assert _check(pdf, [_proposal("604524761/0800", cat.BANK_ACCOUNT, account.box)]).findings == []


def test_a_date_beside_a_number_is_no_phone():
    """A line of the published layer "V Praze dne 28. 3. 2022 … 23" (a stamp between): a date and
    a number, whatever libphonenumber makes of them after a cue."""
    pdf = pdf_from_paragraphs(["Kontakt: V Praze dne 28. 3. 2022 23", "tel. 602 123 456"])
    assert [f.text for f in _check(pdf).findings] == ["602 123 456"]


def test_a_name_beside_a_persons_datum_is_found_and_a_name_elsewhere_is_not():
    pdf = pdf_from_paragraphs(
        [
            "Objednatel: Obec Záhoří, starosta Karel Dvořák",
            "Předmětem smlouvy je oprava střechy.",
            "Zhotovitel: Karel Vomacka",
            "r. č. 780101/1229, bytem Lipová 12, 602 00 Brno",
        ]
    )
    found = _check(pdf).findings
    names = [f.text for f in found if f.found_by == "name beside a value"]
    assert names == ["Karel Vomacka"]  # the mayor two lines above no datum is not asked about
    assert {f.category for f in found} >= {cat.BIRTH_NUMBER, cat.SURNAME}
    # a name the analysis kept at its place is decided
    vomacka = next(f for f in found if f.text == "Karel Vomacka")
    kept = [_proposal("Karel Vomacka", cat.FULL_NAME, vomacka.box)]
    assert "Karel Vomacka" not in [f.text for f in _check(pdf, kept).findings]


def test_a_capitalised_word_after_a_given_name_that_is_a_given_name_too_is_not_a_surname():
    pdf = pdf_from_paragraphs(["Zhotovitel: Jan Petr, rodné číslo 780101/1229"])
    assert [f.text for f in _check(pdf).findings if f.found_by == "name beside a value"] == []


def test_an_abbreviated_cue_after_a_given_name_is_no_surname():
    pdf = pdf_from_paragraphs(["Vyřizuje: Šimonová Hana Tel.: 603 181 272, rodné číslo 780101/1229"])
    assert [f.text for f in _check(pdf).findings if f.found_by == "name beside a value"] == []
