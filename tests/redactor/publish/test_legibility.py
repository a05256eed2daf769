"""Scans judged by their pictures: a redacted value that the analysis' OCR misread is found in a
second reading of the published page picture, covered, and verification refuses a picture that
still shows it."""

from __future__ import annotations

from dataclasses import replace

import pymupdf
import pytest

from redactor import engine as engine_module
from redactor.detect.nlp import RuleOnlyNlpEngine
from redactor.engine import RedactionEngine
from redactor.errors import VerificationError
from redactor.model import Box
from redactor.publish.legibility import allowances, edits_allowed, find, fold, street_of, street_value
from redactor.publish.picture_check import legibility_reader, legible_in_pictures
from redactor.read.ocr import OcrPage, StoredOcr, TesseractOcr
from tests.pdfs import pdf_from_paragraphs, scan_of

PARAGRAPHS = [
    "Smlouva o poskytování služeb č. 2026/44",
    "Objednatel: Obec Horní Lhota, IČO: 00000001, se sídlem Náměstí 1, 679 01 Horní Lhota",
    "Poskytovatel: Jaroslav Květoň, bytem Lipová 12, 602 00 Brno",
    "Kontaktní osoba poskytovatele Jaroslav Květoň, e-mail jaroslav.kveton@seznam.cz, je k dispozici denně.",
    "Cena za služby činí 84 000 Kč bez DPH.",
]


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("Květoň", "kveton"),
        ("870312/1234", "b7o3l2l234"),
        ("87O312 / l234", "b7o3l2l234"),  # O for 0, l for 1, a space around the slash
        ("jaroslav.kveton@seznam.cz", "jaroslavkvetonseznamcz"),
        ("S 5 I i 1 |", "ssllll"),
    ],
)
def test_fold_takes_case_diacritics_punctuation_and_ocr_confusions_out(text, folded):
    assert fold(text) == folded


@pytest.mark.parametrize(("length", "edits"), [(3, 0), (5, 0), (6, 1), (10, 1), (11, 2), (30, 2)])
def test_edits_follow_the_shared_scorer(length, edits):
    assert edits_allowed(length) == edits


@pytest.mark.parametrize(
    ("value", "words", "found"),
    [
        ("Jaroslav Květoň", ["Poskytovatel:", "Jaroslav", "Kvetoň,", "bytem"], [(1, 2)]),  # a diacritic lost
        ("Jaroslav Květoň", ["Jaroslav", "Kvetori"], [(0, 1)]),  # ň read as "ri": two edits from 11
        ("jaroslav.kveton@seznam.cz", ["e-mail", "jaroslav.kveton(©seznam.cz,"], [(1, 1)]),  # the @ misread
        ("Jaroslav Květoň", ["e-mail", "jaroslav.kvetonGiseznam.cz"], [(1, 1)]),  # a name inside an e-mail
        ("750403/1238", ["r.", "č.", "75O4O3/l238"], [(2, 2)]),
        ("750403/1238", ["r.", "č.", "7504031238"], [(2, 2)]),  # the slash lost
        ("Bárta", ["Bártová"], []),  # under six characters: whole words only
        ("Bárta", ["pan", "Barta", "a"], [(1, 1)]),
        ("Kos", ["Kostelec", "nad", "Orlicí"], []),
        ("Kos", ["pan", "Kos,", "nar."], [(1, 1)]),
        ("Jaroslav Květoň", ["Jaroslava", "Nováková"], []),
        ("Ab", ["Ab"], []),  # two characters are read everywhere
    ],
)
def test_find_matches_through_ocr_errors_but_not_other_words(value, words, found):
    assert find(value, words) == found


def test_allowances_count_exact_occurrences_outside_the_redactions_only():
    residual = ["starosta Petr Kos podepsal", "Kos.", "Kostelec", "pan K0s"]
    assert allowances(["Kos", "Petr Kos", "Jaroslav Květoň"], residual) == {
        "Kos": 3,  # "K0s" folds to "kos" too: the O/0 confusion is no edit; "Kostelec" is another word
        "Petr Kos": 1,
        "Jaroslav Květoň": 0,
    }


@pytest.fixture(scope="module")
def scan():
    return scan_of(pdf_from_paragraphs(PARAGRAPHS), dpi=200)


@pytest.fixture(scope="module")
def misread(scan):
    """The scan analysed from OCR words in which the e-mail address was misread beyond any
    recognizer ("jaroslav.kvetonGiseznam" without a domain): the analysis redacts the name and
    knows of no e-mail, while the picture shows the address, with the name in it."""
    ocr = TesseractOcr()
    with pymupdf.open(stream=scan, filetype="pdf") as doc:
        page = ocr.recognize(doc[0])
    words = [
        replace(w, text="jaroslav.kvetonGiseznam") if "seznam" in w.text else w
        for w in page.words
        if "@" not in w.text or "seznam" in w.text
    ]
    assert any(w.text == "jaroslav.kvetonGiseznam" for w in words), [w.text for w in page.words]
    stored = StoredOcr({1: OcrPage(1, words)})
    analysis = RedactionEngine(nlp=RuleOnlyNlpEngine(), ocr=stored).analyze(scan)
    redacted = {p.text for p in analysis.to_redact()}
    assert "Jaroslav Květoň" in redacted and not any("seznam" in t for t in redacted)
    return analysis


@pytest.fixture(scope="module")
def engine():
    engine = RedactionEngine(nlp=RuleOnlyNlpEngine())
    assert legibility_reader(engine.ocr) is not None, "Tesseract with ces is installed by bin/setup"
    return engine


def _page_words(pdf: bytes) -> str:
    """The published page as a third reading (Tesseract, 300 dpi, the whole page) sees it, folded."""
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        return fold(" ".join(w.text for w in TesseractOcr().recognize(doc[0]).words))


def test_the_text_layer_passes_while_the_picture_still_shows_the_value(engine, scan, misread):
    first = engine.burn_and_verify(misread.document, misread.to_redact())
    assert first.verification.ok  # the text comparison cannot see what the OCR misread
    assert "jaroslavkveton" in _page_words(first.pdf)
    reader = legibility_reader(engine.ocr)
    found, checked = legible_in_pictures(first.pdf, first.boxes, misread.to_redact(), misread.text_layer, reader)
    assert [f.page for f in found] == [1] and checked["legible"] == 1
    assert checked["pages"] == 1 and checked["bands"] >= 1


def test_a_value_legible_in_the_picture_is_covered_and_the_result_verified(engine, scan, misread):
    result = engine.redact(misread.document, misread.to_redact())
    assert result.verification.ok
    assert len(result.covered) == 1 and result.covered[0] in result.boxes
    assert result.verification.checks["legible_in_pictures"]["covered"] == 1
    assert result.verification.checks["legible_in_pictures"]["legible"] == 0
    seen = _page_words(result.pdf)
    assert "jaroslavkveton" not in seen and "kveton" not in seen
    assert "poskytovatel" in seen and fold("84 000") in seen  # the rest of the page stays legible
    with pymupdf.open(stream=result.pdf, filetype="pdf") as doc:
        assert "Kontaktní osoba poskytovatele" in doc[0].get_text()  # and machine-readable


def test_verification_refuses_a_picture_on_which_a_redacted_value_stays_legible(engine, scan, misread, monkeypatch):
    """When the value cannot be covered (here: the cover misses it), publishing is refused with
    the page named, and the value is never quoted."""
    monkeypatch.setattr(engine_module, "boxes_for", lambda found: [Box(1, 1, 1, 3, 3) for _ in found])
    with pytest.raises(VerificationError) as caught:
        engine.redact(misread.document, misread.to_redact())
    assert not caught.value.result.ok
    problems = [p for p in caught.value.result.problems if "legible in the page's picture" in p]
    assert problems and problems[0].startswith("page 1: redacted value ")
    assert "Květoň" not in str(caught.value) and "seznam" not in str(caught.value)


def test_born_digital_pages_are_not_read_again(engine):
    pdf = pdf_from_paragraphs(PARAGRAPHS)
    analysis = engine.analyze(pdf)
    result = engine.redact(analysis.document, analysis.to_redact())
    assert result.verification.checks["legible_in_pictures"]["pages"] == 0
    assert result.covered == []


FORM = [
    "Žádost o poskytnutí informace podle zákona č. 106/1999 Sb.",
    "Adresát: Městská část Praha 12, Úřad městské části, Generála Šišky 2375/6, 143 00 Praha 4",
    "Jméno: Radim",
    "Příjmení: Vondráček",
    "Datum narození: 14. 6. 1983",
    "Trvalý pobyt: Jeseniova 1142/58, 130 00 Praha 3",
    "Telefon: 604 123 987",
    "E-mail: radim.vondracek@seznam.cz",
    "Žádám o poskytnutí kopie smlouvy o dílo uzavřené dne 3. 2. 2026.",
]


def test_a_scanned_form_of_labelled_fields_is_one_persons_block(engine):
    """A requester's form, scanned: the given name and the surname on separate lines are one
    person's name, and the block's date of birth, address, phone and e-mail (whose "@" OCR reads
    as "©" and a space) are that person's; the public body it is addressed to stays."""
    scan = scan_of(pdf_from_paragraphs(FORM), dpi=200)
    analysis = engine.analyze(scan)
    redacted = {p.text for p in analysis.to_redact()}
    for value in ("Radim", "Vondráček", "14. 6. 1983", "Jeseniova 1142/58", "604 123 987", "seznam.cz"):
        assert any(value in t for t in redacted), (value, redacted)
    assert not any("Městská část" in t or "Generála" in t for t in redacted)
    result = engine.redact(analysis.document, analysis.to_redact())
    seen = _page_words(result.pdf)
    for value in ("Vondráček", "Jeseniova", "604123987", "radim.vondracek", "1983"):
        assert fold(value) not in seen, value
    assert fold("Městská část Praha 12") in seen and fold("Žádám o poskytnutí kopie smlouvy") in seen


def test_a_misread_address_ocr_was_unsure_of_beside_a_redacted_name_is_a_doubt_with_its_box(scan):
    """The e-mail misread as "jaroslav.kvetonGiseznam.cz" is no e-mail to any recognizer; when
    Tesseract was unsure of it (confidence 12 of 100) on the line of the redacted name, the reviewer
    gets a doubt with the word's box instead of silence. Read with confidence, it gets none."""
    with pymupdf.open(stream=scan, filetype="pdf") as doc:
        page = TesseractOcr().recognize(doc[0])

    def analysed(confidence: float):
        words = [
            replace(w, text="jaroslav.kvetonGiseznam.cz,", confidence=confidence) if "seznam" in w.text else w
            for w in page.words
        ]
        return RedactionEngine(nlp=RuleOnlyNlpEngine(), ocr=StoredOcr({1: OcrPage(1, words)})).analyze(scan)

    doubts = [p for p in analysed(12).proposals if p.reason.code == "ocr_doubt"]
    assert [(p.text, p.action.value, p.page) for p in doubts] == [("jaroslav.kvetonGiseznam.cz,", "review", 1)]
    box = doubts[0].boxes[0]
    assert box.x1 - box.x0 > 100  # the whole word, in points
    assert not [p for p in analysed(90).proposals if p.reason.code == "ocr_doubt"]


@pytest.mark.parametrize(
    ("address", "street"),
    [
        ("Javorová alej 4/2, 150 00 Praha 5", "Javorová alej 4/2"),
        ("Praha 2, Xaverova 12/3", "Xaverova 12/3"),  # town first
        ("Xaverov 9, Na Výsluní 27/5, PSČ: 612 00", "Na Výsluní 27/5"),
        ("Qwertzova 1120/3 149 00 Praha 11", "Qwertzova 1120/3"),
        ("Praha 5, Lipová 5", "Lipová 5"),
        ("Lhota č. p. 12, 387 01 Volyně", "Lhota č. p. 12"),
    ],
)
def test_the_street_and_number_of_an_address(address, street):
    """A letter repeats a home's street and number without its postcode and town: that part is
    looked for too, whichever order the address was written in."""
    assert street_of(address) == street


def test_a_town_alone_is_no_street_to_look_for():
    """ "Praha 6, 169 00" names a district, not a home: "Praha 6" is not looked for alone (it would
    be read in every "Praha 1" of a public body's seat), while a street with its number is."""
    assert street_value("Praha 6, 169 00") == ""
    assert street_value("Javorová alej 4/2, 150 00 Praha 5") == "Javorová alej 4/2"
    assert street_value("Javorová alej 4/2") == ""  # the value itself is looked for already
