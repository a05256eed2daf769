"""A signature certification clause is one person's block: its date of birth and home address
are redacted whoever signed, also when OCR misread a character of each."""

from __future__ import annotations

import pytest

from redactor import categories as cat
from redactor.detect.nlp import RuleOnlyNlpEngine
from redactor.engine import RedactionEngine
from redactor.model import Action
from tests.pdfs import pdf_from_paragraphs
from tests.recognizers import run, texts

CLAUSES = [
    # as printed
    (
        "Ověřuji, že Marie SVOBODOVÁ, nar. 12. 3. 1961, bytem Husova 214, 586 01 Jihlava, jejíž totožnost "
        "byla prokázána platným úředním průkazem, podpis uznala za vlastní.",
        "Marie SVOBODOVÁ",
        "12. 3. 1961",
        "Husova 214, 586 01 Jihlava",
    ),
    # as OCR read it: a letter for a diacritic, l for 1, O for 0, a street's initial misread
    (
        "Ovéřuji, že Marle SVOBODOVA, nar. l2. 3. 196l, bytem Hnsova 2l4, 586 O1 Jihlava, jejíž totožnost "
        "byla prokázána, podpis uznala za vlastní.",
        "Marle SVOBODOVA",
        "l2. 3. 196l",
        "Hnsova 2l4, 586 O1 Jihlava",
    ),
    # a notary's wording, "trvale bytem", the date after "narozen/a"
    (
        "Legalizace. Ověřuji, že Ing. Tomáš Procházka, narozen/a 7. 11. 1970, trvale bytem Na Výsluní 27, "
        "251 01 Říčany, který prokázal svou totožnost, podpis před námi vlastnoručně podepsal.",
        "Tomáš Procházka",
        "7. 11. 1970",
        "Na Výsluní 27, 251 01 Říčany",
    ),
]


@pytest.mark.parametrize(("text", "name", "dob", "address"), CLAUSES)
def test_the_clause_gives_the_signers_name_date_of_birth_and_home(text, name, dob, address):
    found = run("certification_clause", text)
    assert texts(found, cat.FULL_NAME) == [name]
    assert texts(found, cat.DATE_OF_BIRTH) == [dob]
    assert texts(found, cat.ADDRESS_RESIDENCE) == [address]
    assert all(f.attributes["clause"] == "certification" for f in found)


@pytest.mark.parametrize(
    "text",
    [
        # no acknowledgement of a signature: not a certification clause
        "Ověřuji, že kopie souhlasí s originálem. Marie Svobodová, nar. 12. 3. 1961, bytem Husova 214.",
        # the acknowledgement far away from the verb
        "Ověřuji " + "x " * 400 + "nar. 12. 3. 1961, bytem Husova 214, 586 01 Jihlava, podpis uznala za vlastní.",
        # an ordinary party block
        "Prodávající: Marie Svobodová, nar. 12. 3. 1961, bytem Husova 214, 586 01 Jihlava",
    ],
)
def test_nothing_outside_a_clause(text):
    assert run("certification_clause", text) == []


def test_a_directors_date_of_birth_and_home_in_the_clause_are_redacted_and_the_name_kept():
    """A company's director has the signature certified: as its statutory representative the
    name stays (the commercial register publishes it), the clause's date of birth and home
    address do not, and they do not make the director a private person."""
    engine = RedactionEngine(nlp=RuleOnlyNlpEngine(), ocr=False)
    pdf = pdf_from_paragraphs(
        [
            "Kupní smlouva č. 12/2026",
            "Prodávající: Obec Horní Lhota, IČO: 00000001, se sídlem Náměstí 1, 679 01 Horní Lhota",
            "Kupující: Zemní práce Kovář s.r.o., IČO: 27082440, se sídlem Průmyslová 5, 602 00 Brno",
            "zastoupená: Petr Dvořák, jednatel",
            "Ověřuji, že Petr Dvořák, nar. 2. 5. 1966, bytem Lipová 12, 679 01 Horní Lhota, podpis uznal za vlastní.",
        ]
    )
    proposals = engine.analyze(pdf).proposals
    by_text = {p.text: p for p in proposals}
    assert by_text["2. 5. 1966"].action == Action.REDACT
    assert by_text["2. 5. 1966"].reason.code == "certification_clause"
    assert by_text["Lipová 12, 679 01 Horní Lhota"].action == Action.REDACT
    names = [p for p in proposals if p.text == "Petr Dvořák"]
    assert len(names) == 2 and all(p.action == Action.KEEP and p.reason.code == "role_exception" for p in names)


FORM_LINES = (
    "Adresát: Městská část Praha 12, Úřad městské části, Na Strži 2937/49, 196 66 Praha 12\n"
    "Jména: Swatopluk\n"
    "Příjmení: Král\n"
    "Datum narození: 4. 12. 1966\n"
    "Trvalý pobyt: I Smichovského Hřbitova 699, 196 66 Praha 12\n"
    "Talefon: 605 895 424\n"
    "E-mail: svatopluk.kraléhemail cz\n"
    "Žádám o poskytnutí kopie smlouvy."
)


def test_a_persons_form_block_gives_each_value_by_its_label_as_ocr_read_it():
    found = {(f.category, f.text) for f in run("form_block", FORM_LINES)}
    assert found == {
        (cat.FULL_NAME, "Swatopluk"),
        (cat.FULL_NAME, "Král"),
        (cat.DATE_OF_BIRTH, "4. 12. 1966"),
        (cat.ADDRESS_RESIDENCE, "I Smichovského Hřbitova 699, 196 66 Praha 12"),
        (cat.PHONE, "605 895 424"),
        (cat.EMAIL_PERSONAL, "svatopluk.kraléhemail cz"),  # the "@" read as "é", the dot as a space
    }


@pytest.mark.parametrize(
    ("line", "category", "value"),
    [
        ("Teletory: +420 604 062 222", cat.PHONE, "+420 604 062 222"),  # "Telefon" unreadable
        ("Kontakt: jan.kral@email.cz", cat.EMAIL_PERSONAL, "jan.kral@email.cz"),
    ],
)
def test_a_line_after_the_form_with_an_unreadable_label_joins_it_by_its_values_shape(line, category, value):
    text = "Jméno: Jan\nPříjmení: Král\nDatum narození: 4. 12. 1966\n" + line + "\nŽádám o kopii smlouvy."
    assert (category, value) in {(f.category, f.text) for f in run("form_block", text)}


def test_a_line_after_the_form_that_is_no_phone_or_e_mail_stays_out():
    text = "Jméno: Jan\nPříjmení: Král\nPoznámka: 15 dnů\nVěc: 2026"
    assert {f.text for f in run("form_block", text)} == {"Jan", "Král"}


@pytest.mark.parametrize(
    "text",
    [
        "Telefon: 257 171 111\nE-mail: podatelna@praha12.cz\nAdresa: Na Strži 2937/49, 196 66 Praha 12",  # an office
        "Jméno: Jan\nFunkce: starosta\nTelefon: 257 171 111\nE-mail: starosta@lhota.cz",  # someone in office
        "Jméno: Jan Novák",  # one line is no block
    ],
)
def test_no_personal_block_without_a_natural_persons_field_or_in_an_office(text):
    assert run("form_block", text) == []


def test_the_block_is_the_persons_whatever_body_it_is_addressed_to():
    """The public body in the line above would make the phone its own (a holder in the same
    sentence); the form makes it the requester's."""
    engine = RedactionEngine(nlp=RuleOnlyNlpEngine(), ocr=False)
    proposals = engine.analyze(pdf_from_paragraphs(FORM_LINES.split("\n"))).proposals
    action = {p.text: (p.action, p.reason.code) for p in proposals}
    for value in ("4. 12. 1966", "605 895 424", "svatopluk.kraléhemail cz"):
        assert action[value] == (Action.REDACT, "form_block"), value
    assert action["Městská část Praha"][0] == Action.KEEP


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Ing. Tomáš Procházka\nNa Výsluní 27\n251 01 Říčany\nMěstský úřad Říčany", ["Na Výsluní 27\n251 01 Říčany"]),
        ("Kupní smlouva\nJan Novák\nLipová 12\n6O2 00 Brno", ["Lipová 12\n6O2 00 Brno"]),  # O for 0
        ("Jana Malá, Ph.D.\nU Potoka 5\nVěc: nabídka", ["U Potoka 5"]),
        ("Obec Horní Lhota\nNáměstí 1\n679 01 Horní Lhota", []),  # no person's name: an office
        ("Jan Novák\nstarosta\nObec Horní Lhota, Náměstí 1", []),  # a function, not a home
        ("Jan Novák\nIČO: 12345678\nLipová 12", []),
        ("Pozemkový fond\nvedoucím pracoviště\nPetrem Ing.\n97 072\nCZ45797072", []),  # no name line, no street
        ("SMLOUVA č. 13/2020\nZadavatel: Poslanec\nVojtěch Pikal\nSněmovní 176/4", []),  # a party block
        ("Smlouva o dílo\nuzavřená mezi\nstranami\npodle zákona\nč. 89/2012 Sb.\nna dobu\nJan Novák\nLipová 12", []),
    ],
)
def test_a_letters_sender_block_without_cue_words_is_a_home_address(text, found):
    findings = run("letter_head", text)
    assert texts(findings) == found
    assert all(f.category == cat.ADDRESS_RESIDENCE and f.attributes["clause"] == "letter" for f in findings)


LEGALISATION_RECORD = (
    "Podle ověřovací knihy Úřadu městské části Praha 2\n"
    "poř. č. legalizace 52208X/19/K\n"
    "XAVERA QWERTZOVÁ\n"
    "7.10.1975, Kolín\n"
    "jměno, připmary. datum a misto narození\n"  # as OCR reads the small print
    "Praha 2, Xaverova 12/3\n"
    "acresa mista Irvajoho pobytu\n"
    "OP 209911233\n"
    "číslo a druh předloženého dokladu totožnosti\n"
)


def test_a_legalisation_records_values_stand_above_their_labels():
    """Decree 36/2006 Sb. prints the signer's data as values over small labels: the date of birth,
    the home address and the identity document's number are found by the label under them."""
    found = {(f.category, f.text) for f in run("certification_clause", LEGALISATION_RECORD)}
    assert found == {
        (cat.DATE_OF_BIRTH, "7.10.1975"),
        (cat.ADDRESS_RESIDENCE, "Praha 2, Xaverova 12/3"),
        (cat.ID_CARD, "209911233"),
    }
    # without a word of legalisation before them, such lines are no record
    assert run("certification_clause", LEGALISATION_RECORD.split("\n", 2)[2]) == []
    # the name and the date on one line, the labels garbled otherwise
    garbled = (
        "poř. č. legalizace 52208X/19/K\nXAVERA QWERTZOVÁ, 7.10.1975, Kolín\n"
        "jméro. přijmení. dalum a místo nározěm\nPraha 2, Xaverova 12/3\nacreta mista trvalého pobytu\n"
    )
    assert {(f.category, f.text) for f in run("certification_clause", garbled)} == {
        (cat.DATE_OF_BIRTH, "7.10.1975"),
        (cat.ADDRESS_RESIDENCE, "Praha 2, Xaverova 12/3"),
    }
    # a contract's date of conclusion is no date of birth
    assert run("certification_clause", "legalizace 1/2019\n12. 9. 2019\ndatum uzavření smlouvy") == []
