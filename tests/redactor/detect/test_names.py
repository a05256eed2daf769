"""Czech name inflection and the person recognizer's propagation."""

from __future__ import annotations

import pytest
from faker.providers.person.cs_CZ import Provider

from redactor import categories as cat
from redactor.czech import NameGazetteer, nominative_candidates, same_name
from redactor.detect.nlp import RuleOnlyNlpEngine
from redactor.detect.recognizers.persons import PersonRecognizer, names_agree
from redactor.engine import RedactionEngine
from tests.pdfs import pdf_from_paragraphs
from tests.recognizers import run, texts
from tests.synthetic.declension import feminine, masculine

GAZ = NameGazetteer.default()


@pytest.mark.parametrize(
    ("form", "nominative"),
    [
        ("Nováka", "Novák"),
        ("Novákovi", "Novák"),
        ("Novákem", "Novák"),
        ("Nováku", "Novák"),
        ("Novákové", "Nováková"),
        ("Novákovou", "Nováková"),
        ("Veselého", "Veselý"),
        ("Veselému", "Veselý"),
        ("Veselým", "Veselý"),
        ("Veselé", "Veselá"),
        ("Veselou", "Veselá"),
        ("Hájka", "Hájek"),
        ("Hájkovi", "Hájek"),
        ("Hájkem", "Hájek"),
        ("Němce", "Němec"),
        ("Němcovi", "Němec"),
        ("Kučery", "Kučera"),
        ("Kučerovi", "Kučera"),
        ("Kučerou", "Kučera"),
        ("Krejčího", "Krejčí"),
        ("Krejčímu", "Krejčí"),
        ("Koláře", "Kolář"),
        ("Kolářovi", "Kolář"),
        ("Evě", "Eva"),
        ("Veronice", "Veronika"),
        ("Šárce", "Šárka"),
        ("Barboře", "Barbora"),
        ("Olze", "Olga"),
        ("Marii", "Marie"),
        ("Marií", "Marie"),
        ("Karla", "Karel"),
        ("Zdeňka", "Zdeněk"),
        ("Vaňkovi", "Vaněk"),
        ("Jiřímu", "Jiří"),
    ],
)
def test_nominative_candidates(form, nominative):
    assert nominative in nominative_candidates(form)


@pytest.mark.parametrize(
    ("a", "b"), [("Hájek", "Hájem"), ("Novák", "Nováková"), ("Jan", "Josef"), ("Kopecký", "Kopecká")]
)
def test_different_names_do_not_match(a, b):
    assert not same_name(a, b)


def _sweep():
    cases = []
    for name in sorted(set(Provider.last_names_male) | set(Provider.first_names_male)):
        cases += [(name, form) for form in masculine(name)]
    for name in sorted(set(Provider.last_names_female) | set(Provider.first_names_female)):
        cases += [(name, form) for form in feminine(name)]
    return cases


def test_every_faker_name_is_recovered_from_its_inflected_forms():
    """Genitive, dative and instrumental of each of Faker's 468 cs_CZ names lead back to the
    nominative (a gazetteer lookup of the form finds the name)."""
    missed = []
    for name, form in _sweep():
        if name not in nominative_candidates(form):
            missed.append(f"{form} -> {name}")
    assert not missed, f"{len(missed)} forms not recovered: {missed[:20]}"


def test_gazetteer_reads_inflected_forms():
    assert GAZ.given_name_of("Markétě") == "Markéta"
    assert GAZ.surname_of("Kolářovi") == "Kolář"
    assert GAZ.given_name_of("Holešov") is None
    assert GAZ.mentions_name("kolar") and not GAZ.mentions_name("podatelna")


def _persons(text: str):
    prior = run("organization", text) + run("address", text)
    return [f for f in run(PersonRecognizer(use_ner=False), text, prior) if f.category != cat.ACADEMIC_TITLE]


def test_every_inflected_form_of_a_found_person_is_found():
    text = (
        "Prodávající: Jan Novák, bytem Polní 5, 602 00 Brno. Kupní cenu obdrží pan Novák. "
        "Smlouvu s Janem Novákem uzavřelo město; Novákovi bude zaplaceno. Nováka zastoupí advokát."
    )
    found = [(f.text, f.holder) for f in _persons(text)]
    assert ("Jan Novák", "person:1") in found
    for form in ("Novák", "Janem Novákem", "Novákovi", "Nováka"):
        assert any(t == form and h == "person:1" for t, h in found), form


def test_surname_first_and_feminine_forms():
    text = "Nájemce: Kučerová Hana, podnikatelka. Nájemné zaplatí Haně Kučerové; s Hanou Kučerovou souhlasí."
    found = {f.text: f.holder for f in _persons(text)}
    assert found.get("Kučerová Hana") == "person:1"
    assert found.get("Haně Kučerové") == "person:1"
    assert found.get("Hanou Kučerovou") == "person:1"


def test_company_and_street_named_after_people_are_not_persons():
    text = (
        "Zhotovitel: Zemní práce Kovář s.r.o., se sídlem Palackého 12, 602 00 Brno. "
        "Za zhotovitele jedná Petr Kovář, jednatel."
    )
    found = [f.text for f in _persons(text)]
    assert found == ["Petr Kovář"]


def test_a_public_bodys_name_takes_no_heading_from_the_next_line():
    """Real contracts gave one proposal "Město Brno PŘÍLOHA" (the party's name and the annex's
    heading below it) and "Město Brno Materiálové" (and the next line's text)."""
    organisations = lambda text: texts(run("organization", text))  # noqa: E731
    assert organisations("Město Brno\nPŘÍLOHA 7.3.1. SMLOUVY\nFORMA") == ["Město Brno"]
    assert organisations("Město Brno\nMateriálové toky se řídí plánem") == ["Město Brno"]
    assert organisations("v registru smluv, které zajistí Město\nVodňany.   sí\nKupující") == ["Město\nVodňany."]
    # a name broken over two lines stays whole
    assert organisations("Brněnské vodárny a\nkanalizace, a.s.") == ["Brněnské vodárny a\nkanalizace, a.s."]
    assert organisations("Statutární město\nBrno, se sídlem Dominikánské nám. 1") == ["Statutární město\nBrno"]


def test_a_town_named_mesto_x_after_a_postal_code_is_no_party():
    """The town "Město Touškov" in "656 16 Město Touškov" is the town of a home address; read as a public
    body it made the seller's phone on the next line the town's (a leak)."""
    text = "Bydliště: Sulická 1218/14, 656 16 Město Touškov\nČ. op: 472414943\nTel. č. +420608126136\n"
    assert texts(run("organization", text)) == []
    text = "Prodávající: Město Touškov, Plzeňská 1, 330 33 Město Touškov, IČO: 00258326"
    assert texts(run("organization", text)) == ["Město Touškov"]


@pytest.mark.parametrize(
    ("text", "found", "kind"),
    [
        # legal forms as the registry's own records type them: a dot left out, a comma without a space
        ("Dodavatel: PANEL SERVIS s.r.o, IČO: 26067340", "PANEL SERVIS s.r.o", "legal_person"),
        ("Dodavatel: SECURITY MONIT  s.r.o, IČO: 60755792", "SECURITY MONIT  s.r.o", "legal_person"),
        ("Dodavatel: ACE Design s.ro, IČO: 60711361", "ACE Design s.ro", "legal_person"),
        ("Dodavatel: ELA LITVÍNOV, spol s  r. o., Litvínov", "ELA LITVÍNOV, spol s  r. o.", "legal_person"),
        ("Dodavatel: INDUSTRY MEASURING,spol. s r.o., Praha", "INDUSTRY MEASURING,spol. s r.o.", "legal_person"),
        ("Dodavatel: STAVBY NOVÁK S.R.O., IČO: 12345678", "STAVBY NOVÁK S.R.O.", "legal_person"),
        # a parenthesis of capitalised words inside a name
        (
            "Dodavatel: Alcon Pharmaceuticals (Czech Republic) s.r.o., Praha",
            "Alcon Pharmaceuticals (Czech Republic) s.r.o.",
            "legal_person",
        ),
        (
            "Dodavatel: ČESKÝ HYDROMETEOROLOGICKÝ ÚSTAV, přísp. org.",
            "ČESKÝ HYDROMETEOROLOGICKÝ ÚSTAV, přísp. org.",
            "public_body",
        ),
        # a branch association, a civic association before 2014, foreign forms
        ("Dodavatel: AVZO TSČ ČR TEPLICE, p.s.", "AVZO TSČ ČR TEPLICE, p.s.", "legal_person"),
        ("Dodavatel: Aeroklub Frýdlant, občanské sdružení", "Aeroklub Frýdlant, občanské sdružení", "legal_person"),
        ("Dodavatel: Liechtensteinische Post AG, Vaduz", "Liechtensteinische Post AG", "legal_person"),
        ("Dodavatel: Terumo BCT Europe N.V., Leuven", "Terumo BCT Europe N.V.", "legal_person"),
        ("Dodavatel: MACROGEN INC., Soul", "MACROGEN INC.", "legal_person"),
    ],
)
def test_legal_forms_as_typed_in_the_registrys_records_name_organisations(text, found, kind):
    [finding] = run("organization", text)
    assert (finding.text, finding.attributes["kind"]) == (found, kind)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Kupující (dále jen Kupec) ABC s.r.o. nejedná", ["ABC s.r.o."]),  # a clause in a parenthesis
        ("(1) ABC s.r.o. se zavazuje", ["ABC s.r.o."]),  # a clause's number
        ("Zhotovitel (Praha) ABC s.r.o.", ["ABC s.r.o."]),  # no capitalised word right before it
        ("Petr Novák se zavazuje", []),  # "se" is no legal form
    ],
)
def test_a_parenthesis_that_is_no_part_of_a_name_stays_out(text, found):
    assert texts(run("organization", text)) == found


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # the municipality's name under a stamp: the office and its department are still a public body
        ("Obecní úřad odbor správy majetku, Náměstí 36, 698 23 Vrbno pod Pradědem", ["Obecní úřad"]),
        ("Městský úřad, odbor výstavby, Husova 5", ["Městský úřad"]),
        ("Obecní úřad je povinen zveřejnit smlouvu", []),  # the kind of office in a sentence, no entry
    ],
)
def test_an_office_named_by_its_kind_before_its_department_is_a_public_body(text, found):
    findings = run("organization", text)
    assert texts(findings) == found
    assert all(f.attributes.get("kind") == "public_body" for f in findings)


def test_title_before_unknown_name_is_a_person():
    found = [f.text for f in _persons("zastoupený: Ing. Xaver Qwerty, jednatelem")]
    assert found == ["Xaver Qwerty"]


def test_titles_are_reported_with_their_person():
    findings = run(PersonRecognizer(use_ner=False), "1) PhDr. Michal Kolář, r.č. 830623/4849, Ph.D.")
    titles = [(f.text, f.holder) for f in findings if f.category == cat.ACADEMIC_TITLE]
    assert ("PhDr.", "person:1") in titles


def test_sentence_initial_adjective_is_not_propagated_when_the_tagger_says_so(engine):
    analysis = engine.analyze(
        __import__("tests.pdfs", fromlist=["pdf_from_paragraphs"]).pdf_from_paragraphs(
            [
                "Propachtovatel: Markéta Konečná, bytem Polní 5, 602 00 Brno.",
                "Konečná cena činí 5 000 Kč. Konečná a Kolář souhlasí.",
            ]
        )
    )
    redacted = [p.text for p in analysis.to_redact()]
    assert redacted.count("Konečná") == 1  # "Konečná a Kolář", not "Konečná cena"


@pytest.mark.parametrize(
    "text",
    [
        "Nájemce: Xenie Qwertová, fyzická osoba podnikající",
        "Jméno a příjmení: Xenie Qwertová",
        "zastoupená: Xenie Qwertová",
    ],
)
def test_a_party_label_or_form_label_makes_unknown_words_a_name(text):
    assert [f.text for f in _persons(text)] == ["Xenie Qwertová"]


def test_a_cue_is_a_whole_word_not_the_start_of_one():
    """The cue "p." (pan) was matched as a pattern, so "PO" (požární ochrana) before an annex's heading
    cued "PRO NÁVŠTĚVY" as a name, which was redacted in every assistant contract of a real
    publisher, and its "Pro" in every sentence."""
    assert texts(run("person", "INSTRUKTÁŽ BOZP A PO PRO NÁVŠTĚVY / EXTERNISTY")) == []
    assert texts(run("person", "Pro návštěvy platí pokyny BOZP a PO.")) == []
    assert texts(run("person", "předá p. Xaver Qwerty a pí. Xenie Qwertová")) == ["Xaver Qwerty", "Xenie Qwertová"]


def test_a_p_glued_to_capitals_in_an_inventory_cues_no_name():
    """A real inventory of sewers lists "2376 K, P.BOHUNICE ARMENSKA" (a sewer in the Bohunice
    district, Arménská street): the "P." glued to it made a person of a place and a street, and
    the district was redacted on 20 pages. Glued to its words, "p." cues only a known name."""
    assert texts(run("person", "2376 K, P.BOHUNICE ARMENSKA9+\n12959 K.P.BOHUNICE ARMENSKA 11")) == []
    assert texts(run("person", "předá p.Jan Qwerty")) == ["Jan Qwerty"]


def test_a_name_in_the_genitive_in_capitals_names_a_street_not_a_person():
    """A real inventory of cable boxes lists "185479 K.S.KAROLINY SVETLE" (a box in Karoliny Světlé
    street): the given name in the genitive with a surname made a person, redacted on two pages
    and propagated to "KAR.SVETLE" and "SVETEL." elsewhere. Czech names streets and things after
    persons in the genitive; a person is named in the case a word of the sentence asks for."""
    inventory = "37611 K.S.KR.POLE FIBICHOVA\n185479 K.S.KAROLINY SVETLE\n274908 K.S.KLUCHOVA ZOUBKOVA\n"
    assert texts(run("person", inventory + "24821 LIŠEN KAR.SVETLE 25\n58158 ROZVADĚČ MOTOR A SVETEL.")) == []
    # governed by a word before it, followed by a person's datum, or in the nominative: a person
    assert texts(run("person", "Předmět je ve vlastnictví KAROLINY NOVÁKOVÉ.")) == ["KAROLINY NOVÁKOVÉ"]
    assert texts(run("person", "185479 KAROLINY NOVÁKOVÉ, nar. 3. 4. 1975")) == ["KAROLINY NOVÁKOVÉ"]
    assert texts(run("person", "185479 K.S.KAROLINA NOVÁKOVÁ")) == ["KAROLINA NOVÁKOVÁ"]


def test_a_nominative_does_not_depend_on_the_order_of_a_set():
    """ "Radkem" inflects both "Radek" and "Radko", as long as each other: the answer is the same
    under every hash seed (it flipped between runs of the registry pre-fill and of the
    pseudonymised export)."""
    import subprocess
    import sys

    code = (
        "from redactor.czech import NameGazetteer; "
        "from redactor.publish.pseudonyms import Pseudonymiser; "
        "print(NameGazetteer.default().given_name_of('Radkem'), "
        "Pseudonymiser(b'x').nominative('Radkem', surname=False))"
    )
    answers = {
        subprocess.run(
            [sys.executable, "-c", code], env={"PYTHONHASHSEED": str(seed), "PATH": ""}, capture_output=True, text=True
        ).stdout.strip()
        for seed in range(8)
    }
    assert answers == {"Radek Radek"}


def test_a_name_misread_by_ocr_stays_the_same_persons():
    """A director's surname read without its caron, and a private seller's with one letter
    wrong, are the same two persons: the director's name stays kept in the misread form, the
    seller's redacted."""
    pdf = pdf_from_paragraphs(
        [
            "Kupní smlouva č. 12/2026",
            "Prodávající: Jan Kratochvíl, nar. 4. 5. 1970, bytem Lipová 12, 602 00 Brno",
            "Kupující: Zemní práce Kovář s.r.o., IČO: 27082440, se sídlem Průmyslová 5, 602 00 Brno",
            "zastoupená: Petr Dvořák, jednatel",
            "Kupující prohlašuje, že Petr Dvorák převezme vozidlo. Prodávající Jan Kratochvíi předá klíče.",
        ]
    )
    proposals = RedactionEngine(nlp=RuleOnlyNlpEngine(), ocr=False).analyze(pdf).proposals
    action = {p.text: p.action.value for p in proposals if p.category == cat.FULL_NAME}
    assert action == {
        "Jan Kratochvíl": "redact",
        "Petr Dvořák": "keep",
        "Petr Dvorák": "keep",
        "Jan Kratochvíi": "redact",
    }
    assert len({p.cluster for p in proposals if p.text.startswith("Petr")}) == 1


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [("Dvořák", "Dvorák", True), ("Dvořákem", "Dvofák", True), ("Svobodová", "Svobodova", True)]
    + [("Novák", "Nowák", False), ("Novák", "Nováček", False), ("Kučera", "Kučerová", False)],
)
def test_names_agree_through_one_ocr_error_from_six_letters(a, b, same):
    assert names_agree(nominative_candidates(a), nominative_candidates(b)) is same


def test_a_word_the_document_writes_as_a_noun_is_no_surname():
    """A real list of water and sewer connections ends a line with "Dr.Hála" and opens the next
    with "Vodovod"; the pair became a person "Hála Vodovod" and VODOVOD (the document's
    "vodovod", a water main) was redacted 124 times over 73 pages. A word the document also
    writes in lower case is a common word there, neither a title's surname nor a propagated one."""
    lines = "Kanal. příp. Berkova 22, Dr.Hála\nVodovod oP: Kounicova 36\nVODOVOD Jeřabinova"
    assert [f.text for f in _persons("Přípojky: vodovod a kanalizace.\n" + lines)] == []
    assert [f.text for f in _persons("Přípojky vodovodu.\n" + lines)] == []  # another form of it
    # without the lower-case noun, the same words are a name and the capitals its forms
    assert [f.text for f in _persons(lines)] == ["Hála\nVodovod", "VODOVOD"]
    # a surname the gazetteer knows stays a surname wherever the text uses the word
    found = [f.text for f in _persons("Nájemce: Ing. Petr Zima. V zimě topí nájemce; Zima zaplatí zálohu.")]
    assert found == ["Petr Zima", "Zima"]


@pytest.mark.parametrize(
    "written",
    [
        "e-mail: petr.kolbaba12@seznam.cz",  # the surname inside the party's own e-mail address
        "e-mail: kolbaba@email.cz",
        "web: www.kolbaba.cz",
        "web: https://kolbaba-truhlarstvi.cz/kontakt",
        "ID datové schránky: kolba4a",  # letters and digits: an identifier, not a written word
    ],
)
def test_a_surname_in_an_address_or_identifier_is_still_propagated(written):
    """Letters inside an e-mail address, a web address or a data-box ID are not the document's
    lower-case writing of a word: a surname in no gazetteer ("Kolbaba") that the party's e-mail
    address also spells stays a surname, and its later mentions alone are redacted. (The rule
    that a word the document writes in lower case is a common word took the e-mail's letters for
    such a writing, and "Pan Kolbaba souhlasí" stayed readable.)"""
    assert GAZ.surname_of("Kolbaba") is None
    text = (
        f"Pronajímatel: Petr Kolbaba, bytem Lipová 12, 602 00 Brno, {written}\n"
        "Pan Kolbaba souhlasí s podmínkami. Nájemné se platí panu Kolbabovi."
    )
    found = [f.text for f in _persons(text)]
    assert found == ["Petr Kolbaba", "Kolbaba", "Kolbabovi"]
    # a word the document does write in lower case is still a common word there
    assert [f.text for f in _persons("Přípojky: vodovod.\nKanal. příp. Dr.Hála\nVodovod oP: Kounicova 36")] == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a given name in no list before a surname the gazetteer knows
        ("Komunikaci vyřizuje Vladivoj Matoušek, tel. 602 123 456.", ["Vladivoj Matoušek"]),
        ("Kazimíra Pospíšilová, narozená 1. 3. 1972, utrpěla úraz. Kazimíře Pospíšilové se uhradí škoda.",
         ["Kazimíra Pospíšilová", "Kazimíře Pospíšilové"]),
        # both unlisted: a woman's surname, or a person's datum right after the two words
        ("Stavbyvedoucím je Oksana Mrkourková, e-mail o.m@seznam.cz. Deník povede Mrkourková.",
         ["Oksana Mrkourková", "Mrkourková"]),
        ("Služby bude vykonávat Cyprián Rampas, narozen 1. 2. 1980. Rampas je zaměstnanec.",
         ["Cyprián Rampas", "Rampas"]),
        # a village's name as a given name only with a person's datum after it
        ("Služby bude osobně vykonávat Budislav\nŘíha, narozen 11. 10. 1962.", ["Budislav\nŘíha"]),
        # no person: a cue before a surname, a street, a place, two words without any evidence
        ("Panem Novákem podepsaný předávací protokol je přílohou.", []),
        ("Sídlo: Nábřeží Ludvíka Svobody 871, 288 60 Vítkov", []),
        ("Předání proběhne ve Velké Bíteši u Brna.", []),
        ("Technické Služby zajistí odvoz.", []),
        # an inventory's streets in capitals, a square named after somebody
        ("VP-J MASAROVA NOSKOVÁ 12\nNAVRŠÍ SVOBODY 4\nTALICHOVA KOHOUT 7", []),
        ("Přípojka Masarova Kursová, vodovod.", []),
    ],
)  # fmt: skip
def test_names_outside_the_gazetteers(text, expected):
    """Real people's given names and surnames are often in no list (old Czech, Slavic, foreign,
    rare): two capitalised words are a name when the second is a surname the gazetteer knows,
    has the shape of a woman's surname (-ová), or is followed by a person's datum."""
    assert [f.text for f in _persons(text) if f.category in cat.NAME_CATEGORIES] == expected
