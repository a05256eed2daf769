"""What real registry contracts do that the development set did not: officials outside party
blocks, places named like people, organisations' phones and addresses, form layouts, OCR
confusions. Every case here is invented; each stands for a class of real failures."""

from __future__ import annotations

import random

import pymupdf
import pytest

from redactor import categories as cat
from redactor.decide.decision_rules import Assessment
from redactor.decide.repeats import align_addresses, place_only
from redactor.detect.parties import LETTERHEAD
from redactor.detect.roles import OFFICIAL, STAFF, STATUTORY, function_near
from redactor.model import Action, Finding, PartyKind, Span
from redactor.pdf.pdf_pages import open_pdf
from redactor.read.extraction import extract_text_layer
from redactor.read.layout import form_rows, ocr_address_column, ocr_party_columns
from redactor.read.ocr import OcrWord, repair_emails, repair_numbers
from redactor.reasons import Reason
from tests.pdfs import Layout, pdf_from_html, pdf_from_paragraphs, scan_of
from tests.recognizers import run, texts
from tests.synthetic.scan_classes import scan


def _analyse(engine, paragraphs, layout=None):
    analysis = engine.analyze(pdf_from_paragraphs(paragraphs, layout=layout))
    return analysis, {p.text: p for p in analysis.proposals}


# -- officials and representatives -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("before", "name", "after", "kind"),
    [
        ("zastoupené primátorkou města Xaverov JUDr. ", "Alenou Qwertzovou", "", OFFICIAL),
        ("asistenta poslance PS PČR pana\n", "Karla Qwertze", " uzavřené dne", OFFICIAL),
        ("Zastoupená: Mgr. ", "Janem Qwertzem", "\nvedoucím Kanceláře Xaverovské rady", OFFICIAL),
        ("Za objednatele\nIng. ", "Petr Qwertz", "\nvedoucí Odboru dopravy Magistrátu", OFFICIAL),
        ("Xaverovský pozemkový úřad\nvedoucí územního pracoviště Xaverov\n", "Qwertz Petr", " Ing.\n", OFFICIAL),
        ("Zástupce:\n", "Hariet Mona Qwertzová", ", jednatel\n", STATUTORY),
        ("zastoupené\nIng. ", "Milanem Qwertzem", ", předsedou představenstva", STATUTORY),
    ],
)
def test_a_function_of_office_is_found_before_after_or_above_the_name(before, name, after, kind):
    text = before + name + after
    function = function_near(text, len(before), len(before) + len(name))
    assert function is not None and function.kind == kind
    # the reason quotes the function as printed, diacritics and capitals kept ("primátorkou")
    assert function.cue and function.cue in " ".join(text.split())


@pytest.mark.parametrize(
    ("before", "name", "after"),
    [
        ("Starosta předal klíče panu ", "Janu Qwertzovi", "."),
        ("Podklady předá ", "Janu Qwertzovi", "\npředseda."),  # the subject of the sentence, not a title
        ("vedoucí projektu ", "Jan Qwertz", ", tel."),  # a supplier's employee
        ("Stavbyvedoucím zhotovitele je Ing. ", "Jana Qwertzová", ", tel."),
    ],
)
def test_a_function_elsewhere_in_the_sentence_makes_nobody_an_official(before, name, after):
    text = before + name + after
    assert function_near(text, len(before), len(before) + len(name)) is None


def test_an_official_outside_any_party_block_is_kept_everywhere_in_the_document(rules_engine):
    _, d = _analyse(
        rules_engine,
        [
            "Dodatek č. 3 ke smlouvě o nájmu vodovodů",
            "Ve věcech smluvních je oprávněn jednat vedoucí odboru technických sítí Magistrátu.",
            "Článek 1. Nájemce předá pronajímateli seznam staveb do 30 dnů.",
            "V Xaverově dne 1. 2. 2024",
            "Ing. Petr Qwertz",
            "vedoucí Odboru technických sítí Magistrátu města Xaverova",
            "Petru Qwertzovi bude zasláno vyúčtování.",
        ],
    )
    assert d["Petr Qwertz"].action == Action.KEEP and d["Petr Qwertz"].reason.code == "role_exception"
    assert d["Petru Qwertzovi"].action == Action.KEEP  # the same person, another form


def test_a_member_of_parliament_contracting_in_office_is_the_public_side(rules_engine):
    analysis, d = _analyse(
        rules_engine,
        [
            "Smlouva o realizaci projektu",
            "Zadavatel: Poslanec",
            "Vojtěch Qwertz",
            "Sněmovní 176/4, 118 26 Praha 1",
            "Dodavatel: Xaver institut, z.ú., IČO: 05601100",
            "Kontaktní osobou dodavatele je Jan Xaverovský, tel. 774 282 355.",
        ],
    )
    zadavatel = next(p for p in analysis.parties if p.label == "zadavatel")
    assert zadavatel.kind == PartyKind.PUBLIC_BODY
    assert d["Vojtěch Qwertz"].action == Action.KEEP
    assert d["Sněmovní 176/4, 118 26 Praha 1"].action == Action.KEEP
    assert d["Jan Xaverovský"].action == Action.REDACT and d["774 282 355"].action == Action.REDACT


# -- places ---------------------------------------------------------------------------------------
def test_towns_named_like_people_are_places(rules_engine):
    _, d = _analyse(
        rules_engine,
        [
            "Kupující: Obec Xaverov, IČO: 00000001, se sídlem Hlavní 1, 293 01 Mladá Boleslav",
            "Předmět koupě se nachází v Mladé Boleslavi a v Hradci Králové, pobočka v Brně.",
        ],
    )
    assert not any(p.category in cat.NAME_CATEGORIES for p in d.values())
    assert not any(p.action == Action.REVIEW for p in d.values())


# -- phones ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "Cena díla činí 223 456 000,- Kč bez DPH.",
        "Celkem 223 456 789,50 Kč.",
        "cena 223 456 000-Kč",
        "IČ: 73616842\n2. Objednatel: Obec Xaverov",
    ],
)
def test_prices_and_registration_numbers_are_no_phones(text):
    assert texts(run("phone", text)) == []


def test_a_phone_ends_before_the_next_numbered_heading():
    assert texts(run("phone", "kontakt tel. 777 123 456\n2. Předmět smlouvy")) == ["777 123 456"]


def test_an_organisations_switchboard_stays_and_a_contact_persons_phone_goes(rules_engine):
    _, d = _analyse(
        rules_engine,
        [
            "Kupující: Xaverovská zdravotní pojišťovna, IČO: 41197518, se sídlem Orlická 4/2020, 130 00 Praha 3",
            "Doručovací adresa (obec): Praha 1",
            "Ulice, č.p., PSČ: Na Perštýně 359/6, 110 01",
            "tel.: 952 223 111 fax: 952 223 042",
            "Prodávající: Qwertz Medical s.r.o., IČO: 27073262, se sídlem Hvězdova 1689/2a, 140 00 Praha 4",
            "Kontaktní osoba: Jana Qwertzová, tel. 602 123 456",
        ],
    )
    assert d["952 223 111"].action == Action.KEEP and d["952 223 042"].action == Action.KEEP
    assert d["952 223 111"].reason.code == "holder_rule"
    assert d["Na Perštýně 359/6"].action == Action.KEEP
    assert d["602 123 456"].action == Action.REDACT


#: A purchase order on a city district's own paper: its letterhead (name in capitals, the
#: department, seat, switchboard and fax, IČO, DIČ, account), a sole trader's supplier box, and the
#: clerk who handles it in the footer. Every value is invented.
ORDER = [
    "MĚSTSKÁ ČÁST PRAHA 12",
    "Odbor správy majetku",
    "Qwertzova 1250/7, 143 00 Praha 4, tel.: 244 028 111, fax: 244 028 299",
    "IČO: 00231151",
    "DIČ: CZ00231151",
    "Bankovní spojení: Česká spořitelna, a.s., č.ú. 19-3105529107/0800",
    "Objednávka č. OSM/0105/2023",
    "Dodavatel: Xaver Qwertzal, Lipová 12, 602 00 Brno, IČ: 73542113, tel. 602 123 456",
    "Místo dodání: Městská část Praha 12, Qwertzova 1250/7, 143 00 Praha 4",
    "1. Objednáváme u Vás opravu oplocení školní zahrady v ceně 48 500 Kč včetně DPH.",
    "2. Na faktuře uvádějte číslo této objednávky. Splatnost faktury je 21 dnů.",
    "Schválil: Ing. Petr Qwertzík, vedoucí odboru správy majetku",
    "Vyřizuje: Alena Qwertzová, tel.: 244 028 514",
]


def test_an_organisations_letterhead_keeps_its_numbers_and_its_clerk_acts_in_office(rules_engine):
    analysis, d = _analyse(rules_engine, ORDER)
    (head,) = [p for p in analysis.parties if p.label == LETTERHEAD]
    assert head.kind == PartyKind.PUBLIC_BODY and head.name.startswith("MĚSTSKÁ ČÁST PRAHA 12")
    for value in ("244 028 111", "244 028 299", "19-3105529107/0800", "Qwertzova 1250/7, 143 00 Praha 4"):
        assert d[value].action == Action.KEEP, value
    # the clerk under "Vyřizuje" on the body's own paper acts in office, with her work phone
    assert d["Alena Qwertzová"].action == Action.KEEP and d["244 028 514"].action == Action.KEEP
    # the sole trader's entry is his
    assert d["Xaver Qwertzal"].action == Action.REDACT and d["602 123 456"].action == Action.REDACT


def test_the_clerk_who_wrote_a_public_bodys_paper_acts_in_office(rules_engine):
    order = [*ORDER[:-1], "Zpracovala: Alena Qwertzová, tel.: 244 028 514"]
    _, d = _analyse(rules_engine, order)
    assert d["Alena Qwertzová"].action == Action.KEEP and d["244 028 514"].action == Action.KEEP
    _, d = _analyse(rules_engine, ["QWERTZ STAVBY s.r.o.", *order[1:]])
    assert d["Alena Qwertzová"].action == Action.REDACT and d["244 028 514"].action == Action.REDACT


def test_a_letterhead_needs_its_numbers_and_a_clerk_needs_a_public_bodys_paper(rules_engine):
    # a company's order: its clerk is an employee, whose name and phone are redacted
    company = ["QWERTZ STAVBY s.r.o.", *ORDER[1:]]
    analysis, d = _analyse(rules_engine, company)
    assert d["Alena Qwertzová"].action == Action.REDACT and d["244 028 514"].action == Action.REDACT
    # a town's name over a private letter, with no IČO or DIČ below it, opens no letterhead
    letter = ["Město Xaverov", "Jan Qwertz", "Lipová 12, 602 00 Brno", "Vyřizuje: Alena Qwertzová, tel. 602 123 456"]
    analysis, d = _analyse(rules_engine, letter)
    assert not [p for p in analysis.parties if p.label == LETTERHEAD]
    assert d["602 123 456"].action == Action.REDACT


def test_a_public_bodys_responsible_person_in_its_entry_is_its_staff(rules_engine):
    """A lease form names the public lessee's clerk under "Odpovědná osoba" with her work phone:
    the body's employee acting in her job (kept); the company's contact person stays an employee
    whose name and phone are redacted."""
    analysis, d = _analyse(
        rules_engine,
        [
            "Pronajímatel: Qwertz Servis s.r.o., IČO: 27073262, se sídlem Lipová 12, 602 00 Brno",
            "Kontaktní osoba: Xaver Qwertzal, tel. 602 123 456, e-mail: xaver.qwertzal@qwertzservis.cz",
            "Nájemce: Krajská hygienická stanice Xaverovského kraje",
            "IČO: 89889436",
            "zastoupená: MUDr. Janou Qwertzovou, ředitelkou",
            "Odpovědná osoba: Bc. Alena Qwertzíková, referentka",
            "telefon: 569 808 404",
            "email: alena.qwertzikova@khsx.cz",
            "(dále jen nájemce)",
        ],
    )
    (lessee,) = [p for p in analysis.parties if p.label == "nájemce"]
    assert lessee.kind == PartyKind.PUBLIC_BODY
    assert d["Alena Qwertzíková"].action == Action.KEEP and d["569 808 404"].action == Action.KEEP
    assert d["alena.qwertzikova@khsx.cz"].action == Action.KEEP  # her work e-mail (the map's holder rule)
    assert d["Xaver Qwertzal"].action == Action.REDACT and d["602 123 456"].action == Action.REDACT
    assert d["xaver.qwertzal@qwertzservis.cz"].action == Action.REDACT


def test_a_clerk_for_a_public_party_named_by_its_alias_acts_in_office(rules_engine):
    """After the signatures, "Za úřad práce vyřizuje:" names the Labour Office (written in the
    instrumental in the heading) by its alias: its clerk and her work phone are kept; the same line
    for a company keeps them redacted."""
    text = [
        "DODATEK č. 1 uzavřený mezi",
        "Úřadem práce České republiky",
        "IČ: 98328531",
        "(dále jen úřad práce) na straně jedné",
        "a",
        "Qwertz Stavby s.r.o., IČO: 27073262",
        "(dále jen zaměstnavatel) na straně druhé.",
        "Článek I. Ostatní ustanovení dohody zůstávají beze změny.",
        "Za úřad práce vyřizuje:",
        "Alena Qwertzíková",
        "tel.: 541 707 303",
    ]
    analysis, d = _analyse(rules_engine, text)
    assert [p.kind for p in analysis.parties if p.label == "úřad práce"] == [PartyKind.PUBLIC_BODY]
    assert d["Alena Qwertzíková"].action == Action.KEEP and d["541 707 303"].action == Action.KEEP
    company = text[:-3] + ["Za zaměstnavatele vyřizuje:", "Alena Qwertzíková", "tel.: 541 707 303"]
    _, d = _analyse(rules_engine, company)
    assert d["Alena Qwertzíková"].action == Action.REDACT and d["541 707 303"].action == Action.REDACT


def test_an_employee_addressed_at_a_public_bodys_department_is_its_staff(rules_engine):
    """An internal paper of a town office is addressed to its finance department's employee: the
    name and the office's address are the body's. A citizen's address block keeps being hers."""
    internal = [
        "Městský úřad Xaverov",
        "Odbor finanční",
        "Alena Qwertzíková",
        "Lipová 12",
        "612 00 Xaverov",
        "Věc: Žádost o uvolnění finančních prostředků",
        "Žádám o uvolnění prostředků ve výši 12 345,00 Kč z položky 5169.",
    ]
    _, d = _analyse(rules_engine, internal)
    assert d["Alena Qwertzíková"].action == Action.KEEP
    assert all(p.action == Action.KEEP for t, p in d.items() if "Lipová 12" in t)
    # a citizen's sender block above the office's address: hers
    letter = ["Alena Qwertzíková", "Lipová 12", "612 00 Xaverov", *internal[:2], "Náměstí 2", "612 00 Xaverov"]
    _, d = _analyse(rules_engine, letter + internal[5:])
    assert d["Alena Qwertzíková"].action == Action.REDACT
    assert [p.action for t, p in d.items() if t.startswith("Lipová 12")] == [Action.REDACT]


@pytest.mark.parametrize(
    ("organisation", "action"),
    [("Městský úřad Xaverov, Odbor finanční", Action.KEEP), ("Qwertz Účetnictví s.r.o.", Action.REDACT)],
)
def test_an_accountant_is_the_staff_of_the_body_whose_paper_names_her(rules_engine, organisation, action):
    """ "účetní paní Bc. X" (Decree 416/2004 Sb.: the roles of a public body's financial control)
    after a public body is its staff acting in her job; after a company, its employee."""
    _, d = _analyse(
        rules_engine,
        [organisation, "Doklady předá účetní paní Bc. Alena Qwertzíková do 10. 8. 2023.", "S pozdravem"],
    )
    assert d["Alena Qwertzíková"].action == action


def test_accounting_as_an_adjective_makes_nobody_staff():
    assert function_near("Účetní doklady předá Jan Qwertz", 22, 32) is None
    found = function_near("správce rozpočtu Ing. Jan Qwertz", 22, 32)
    assert found is not None and found.kind == STAFF


REPLY = [
    "STATUTÁRNÍ MĚSTO XAVEROV",
    "Magistrát města Xaverova, odbor kancelář tajemníka",
    "Dolní náměstí 12/4, 612 00 Xaverov",
    "Vyřizuje: Mgr. Alena Qwertzová",
    "Tel.: 543 606 707",
    "Věc: Poskytnutí informace podle zákona č. 106/1999 Sb.",
    "Statutární město Xaverov obdrželo dne 2. 6. 2023 žádost o poskytnutí informace, kterou podal "
    "žadatel Bc. Jan Qwertz, nar. 3.4.1981, bytem Na Výsluní 27/5, Xaverov 9. (dále jen: „žadatel“).",
    "Kopie protokolů zasíláme žadateli na adresu Na Výsluní 27/5, 612 00 Xaverov 9.",
]


def test_a_reply_on_an_offices_paper_asks_about_its_clerk_and_redacts_the_requesters_home(rules_engine):
    """A town office answers a request for information: its name, department and postal address
    head the page (no IČO), its clerk handles it; the requester is named where the sentence
    introduces him as "žadatel", with his home after "bytem" and again without a cue. Only the
    letterhead above says the clerk is the office's: her name and line are asked, not kept."""
    analysis, d = _analyse(rules_engine, REPLY)
    clerk, line = d["Alena Qwertzová"], d["543 606 707"]
    assert clerk.action == Action.REVIEW and line.action == Action.REVIEW
    assert clerk.reason.code == line.reason.code == "kept_on_one_guess"
    assert all(p.action == Action.KEEP for t, p in d.items() if t.startswith("Dolní náměstí 12/4"))
    (requester,) = [p for p in analysis.parties if p.label == "žadatel"]
    assert requester.kind == PartyKind.NATURAL_PERSON and requester.name == "Jan Qwertz"
    homes = [p for p in analysis.proposals if p.text.startswith("Na Výsluní 27/5")]
    assert len(homes) == 2 and all(p.action == Action.REDACT for p in homes)


@pytest.mark.parametrize(
    "confirmed",
    [
        ["Vyřizuje: Mgr. Alena Qwertzová, referentka odboru"],  # her function beside her name
        ["Vyřizuje: Mgr. Alena Qwertzová", "E-mail: alena.qwertzova@xaverov.cz"],  # her e-mail on the town's domain
    ],
)
def test_a_clerk_on_an_offices_paper_with_a_second_signal_is_kept(rules_engine, confirmed):
    """The same reply, with a function beside the clerk or her e-mail on the town's domain: two
    signals, a keep (DOMAIN.md: a public body's employee acting in her job)."""
    _, d = _analyse(rules_engine, [*REPLY[:3], *confirmed, *REPLY[4:]])
    assert d["Alena Qwertzová"].action == Action.KEEP and d["543 606 707"].action == Action.KEEP


def test_a_companys_order_mailbox_stays_beside_its_redacted_sales_agent(rules_engine):
    """A generic mailbox on a domain that spells the company's name is the company's, though its
    sales agent is named in the same sentence; a mailbox on another domain there stays his."""
    entry = [
        "Pronajímatel: Qwertzservis Morava s.r.o., IČO: 29178312, se sídlem Lipová 12, 602 00 Brno",
        "zastoupený: Radek Qwertzal, jednatel",
        "Nájemce: Město Xaverov, IČO: 00231151",
    ]
    sentence = "4.1. Kontaktní osobou pronajímatele je obchodní zástupce Jan Qwertz, objednávky lze zasílat na {}."
    _, d = _analyse(rules_engine, [*entry, sentence.format("objednavky@qwertzservis-morava.cz")])
    assert d["objednavky@qwertzservis-morava.cz"].action == Action.KEEP
    assert d["Jan Qwertz"].action == Action.REDACT and d["Radek Qwertzal"].action == Action.KEEP
    # one letter misread by OCR is still the company's domain
    _, d = _analyse(rules_engine, [*entry, sentence.format("objednavky@qwertzservis-morawa.cz")])
    assert d["objednavky@qwertzservis-morawa.cz"].action == Action.KEEP
    _, d = _analyse(rules_engine, [*entry, sentence.format("objednavky@xaver-obchod.cz")])
    assert d["objednavky@xaver-obchod.cz"].action == Action.REDACT


def test_a_home_after_its_cue_stays_a_home_though_a_seat_has_its_street(rules_engine):
    analysis, _ = _analyse(
        rules_engine,
        [
            "SMLOUVA O NÁJMU",
            "Pronajímatel: Obec Xaverov, IČO 00285030, se sídlem Na Výsluní 27/5, 612 00 Xaverov",
            "Nájemce: Jan Qwertz, nar. 12. 3. 1980",
            "Nájemce, bytem Na Výsluní 27/5, 612 00 Xaverov, převezme byt.",
        ],
    )
    seat, home = [p for p in analysis.proposals if p.text.startswith("Na Výsluní")]
    assert seat.action == Action.KEEP and home.action == Action.REDACT


@pytest.mark.parametrize(
    ("text", "home"),
    [
        ("Ověřuji, že Jana Qwertzová, nar. 1. 2. 1980, bytem Lipová   602 00 Brno, podpis", "Lipová   602 00 Brno"),
        ("Prodávající: Jan Qwertz, bytem Na Výsluní, 612 00 Xaverov 9", "Na Výsluní, 612 00 Xaverov 9"),
    ],
)
def test_a_home_whose_house_number_ocr_lost_is_still_a_home_after_its_cue(text, home):
    found = run("address", text)
    assert home in texts(found, cat.ADDRESS_RESIDENCE)
    assert [f.attributes.get("context") for f in found if f.text == home] == ["residence"]


# -- addresses ------------------------------------------------------------------------------------
def test_a_representatives_home_address_is_redacted_and_the_seat_kept(rules_engine):
    _, d = _analyse(
        rules_engine,
        [
            "Kupující: Qwertz Agro, s.r.o., Oblekovice 368, Znojmo, PSČ 671 81, IČ: 45478295",
            "zastoupená jednatelem Ing. Josefem Qwertzem, bytem: Znojmo, Bratrstva 21",
            "(dále jen „kupující“)",
        ],
    )
    assert d["Josefem Qwertzem"].action == Action.KEEP
    # the town written before the street is part of the home: one box, never a half left legible
    home = d["Znojmo, Bratrstva 21"]
    assert home.action == Action.REDACT and home.category == cat.ADDRESS_RESIDENCE


def test_an_address_nobody_is_linked_to_is_a_place(rules_engine):
    _, d = _analyse(
        rules_engine,
        [
            "Pronajímatel: Statutární město Xaverov, IČO: 44992785",
            "Nájemce: Xaverovské vodárny a.s., IČO: 46347275",
            "Přípojky: Brno, Kuklenská 49, Brno, Kuklenská 37, vlastník ABB Xaverov a.s.",
            "Rekonstrukce vodovodu Renneská",
            "2) stavba č. 7457",
        ],
    )
    kept = [p for p in d.values() if p.category in cat.ADDRESS_CATEGORIES]
    assert kept and all(p.action == Action.KEEP for p in kept)
    assert "Renneská 2" not in d


# -- accounts --------------------------------------------------------------------------------------
def test_an_account_belongs_to_the_party_its_possessive_names_not_to_its_bank(rules_engine):
    _, d = _analyse(
        rules_engine,
        [
            "1. Pronajímatel: Petr Qwertz",
            "2. Nájemce: Česká republika - Kancelář Xaverovské sněmovny, IČO: 00006572",
            "Nájemné je splatné na účet pronajímatele vedený u Komerční banky a.s., číslo účtu 6842591/0100.",
            "Bankovní spojení nájemce: ČNB, číslo účtu: 5622001/0710",
        ],
    )
    assert d["6842591/0100"].action == Action.REDACT
    assert d["5622001/0710"].action == Action.KEEP  # an account at the Czech National Bank is a public body's


def test_an_account_the_sentence_calls_the_towns_is_the_towns_in_a_persons_entry(rules_engine):
    """An internal paper of a town office: a clerk's entry, then "na účet města č. …" – the
    possessive names the town, not the clerk whose entry the sentence stands in."""
    _, d = _analyse(
        rules_engine,
        [
            "Pronajímatel: Petr Qwertz, bytem Lipová 12, 602 00 Brno",
            "Nájemné bude připsáno na účet města č. 19-2000145399/0800 do 15. dne měsíce.",
            "Vratná kauce bude připsána na účet pronajímatele č. 6842591/0100.",
        ],
    )
    assert d["19-2000145399/0800"].action == Action.KEEP
    assert d["6842591/0100"].action == Action.REDACT


def test_an_account_at_a_merged_bank_is_still_an_account():
    assert texts(run("bank_account", "číslo účtu: 1019345548/6100")) == ["1019345548/6100"]
    assert texts(run("bank_account", "číslo účtu: 1019345548/0000")) == []


def test_an_account_on_a_scan_whose_check_digit_fails_is_redacted_after_its_cue(rules_engine):
    """A private landlord's account on a scanned lease fails its check digit (mistyped, or a digit
    misread): after "Číslo účtu:" it is still the account a reader sees, not a phone of the bank
    named before it. Typed in a born-digital file, the check digit decides."""
    paragraphs = [
        "Pronajímatel: Xavera Qwertzová, Javorová 77, Xaverov",
        "Bankovní spojení: Fio banka, a.s.",
        "Číslo účtu: 315720400/2010",
        "Nájemce: Česká republika - Kancelář Senátu",
    ]
    scanned = rules_engine.analyze(scan_of(pdf_from_paragraphs(paragraphs), dpi=200))
    account = [p for p in scanned.proposals if "315720400" in p.text]
    assert [(p.text, p.category, p.action) for p in account] == [("315720400/2010", cat.BANK_ACCOUNT, Action.REDACT)]
    typed = rules_engine.analyze(pdf_from_paragraphs(paragraphs))
    assert not [p for p in typed.proposals if p.category == cat.BANK_ACCOUNT]


# -- form layouts -------------------------------------------------------------------------------
def _two_column_form() -> bytes:
    """Labels in one text block, their values in another: stored column by column."""
    doc = pymupdf.open()
    page = doc.new_page()
    labels = ["1. Poskytovatel služeb:", "Sídlo:", "Číslo účtu:", "IČ:", "2. Objednatel:", "Zastoupená:"]
    values = [
        "Xaver Qwertz",
        "Lipová 12, 602 00 Brno",
        "275956642/0300",
        "06319432",
        "Obec Horní Lhota",
        "Ing. Jana Nová, starostka",
    ]
    page.insert_font(fontname="F0", fontbuffer=pymupdf.Font("cjk").buffer)  # a font with Czech letters
    page.insert_textbox(pymupdf.Rect(56, 80, 200, 300), "\n".join(labels), fontname="F0", fontsize=11)
    page.insert_textbox(pymupdf.Rect(220, 80, 540, 300), "\n".join(values), fontname="F0", fontsize=11)
    return doc.tobytes()


def test_a_title_that_ocr_read_after_the_forms_labels_comes_before_the_form():
    """Tesseract read a real assistant contract's label column first, then the title above the
    form, then the values: the title landed in the middle of the tenant's entry, which it ended
    (a heading in capitals), and the director authorised to sign fell out of it."""
    lines = [  # (x0, y0, x1, y1, text) in Tesseract's order
        (82, 193, 191, 204, "1. Poskytovatel služeb:"),
        (82, 206, 106, 215, "Sídlo:"),
        (81, 285, 150, 295, "2. Objednatel:"),
        (81, 311, 133, 322, "Zastoupená:"),
        (250, 114, 357, 126, "SMLOUVA"),
        (199, 138, 395, 151, "o zajištění služeb asistenta poslance"),
        (253, 193, 356, 204, "Ing. Jan Qwertz"),
        (252, 206, 455, 216, "Lipová 12, 602 00 Brno"),
        (253, 282, 490, 295, "Česká republika - Kancelář Poslanecké sněmovny"),
        (252, 311, 357, 322, "Mgr. Janem Horákem"),
        (252, 324, 445, 335, "vedoucím Kanceláře Poslanecké sněmovny"),
        (80, 390, 378, 401, "Oprávněn k jednání Ing. Mgr. Hana Malá"),
    ]
    order = form_rows([pymupdf.Rect(line[:4]) for line in lines], [line[4] for line in lines])
    assert order == [[4], [5], [0, 6], [1, 7], [2, 8], [3, 9], [10], [11]]


def test_a_two_column_form_is_read_label_by_label(rules_engine):
    data = _two_column_form()
    doc = open_pdf(data)
    text = extract_text_layer(doc, data).text
    doc.close()
    assert "Sídlo: Lipová 12, 602 00 Brno" in text and "Číslo účtu: 275956642/0300" in text
    analysis = rules_engine.analyze(data)
    d = {p.text: p for p in analysis.proposals}
    assert d["Xaver Qwertz"].action == Action.REDACT
    assert d["275956642/0300"].action == Action.REDACT  # the sole trader's, not the town's
    assert d["Jana Nová"].action == Action.KEEP


def _ocr_line(number: int, *words: tuple[float, str]) -> list[OcrWord]:
    """One OCR line at row ``number`` (14 points apart) of ``(x0, text)`` words, 5 points a letter."""
    y = 200.0 + 14 * number
    return [OcrWord(text, x0, y, x0 + 5 * len(text), y + 10, 90.0, (1, number, 0)) for x0, text in words]


def test_an_order_header_read_across_its_columns_is_read_column_by_column():
    """Tesseract read a city district's order row by row: the supplier's address and the place of
    delivery in one line ("Lipová 1204/7   Úřad městské části"); each column comes under its label."""
    lines = [
        _ocr_line(0, (60, "Objednávka"), (120, "č."), (135, "12/2023")),
        _ocr_line(1, (60, "Dodavatel:"), (300, "Místo"), (332, "dodání:")),
        _ocr_line(2, (84, "Radek"), (118, "Qwertz"), (316, "Městská"), (357, "část"), (380, "Praha"), (410, "11")),
        _ocr_line(3, (84, "Lipová"), (123, "1204/7"), (206, ":"), (319, "Úřad"), (343, "městské"), (380, "části")),
        _ocr_line(4, (86, "12000"), (116, "Praha"), (320, "Qwertzova"), (376, "1120/3")),
        _ocr_line(5, (85, "IČ:"), (111, "73542113"), (321, "149"), (338, "00"), (351, "PRAHA"), (389, "11")),
        _ocr_line(6, (60, "Úklid"), (87, "a"), (95, "drobná"), (131, "údržba"), (165, "zasedacích"), (220, "radnice")),
    ]
    lines[6] += _ocr_line(6, (260, "dle"), (280, "nabídky"))  # full-width text ends the table
    order = [" ".join(w.text for w in line) for line in ocr_party_columns(lines) or []]
    assert order == [
        "Objednávka č. 12/2023",
        "Dodavatel:",
        "Radek Qwertz",
        "Lipová 1204/7 :",
        "12000 Praha",
        "IČ: 73542113",
        "Místo dodání:",
        "Městská část Praha 11",
        "Úřad městské části",
        "Qwertzova 1120/3",
        "149 00 PRAHA 11",
        "Úklid a drobná údržba zasedacích radnice dle nabídky",
    ]


def test_a_speck_between_the_party_labels_does_not_hide_the_table():
    """A lease form's boxed header: OCR read a speck ("*'") between "Pronajímatel:" and
    "Nájemce:"; the columns are still read each under its label."""
    lines = [
        _ocr_line(0, (60, "Pronajímatel:"), (132, "*'"), (297, "Nájemce:")),
        _ocr_line(
            1, (61, "jednatel:"), (123, "Radek"), (160, "Qwertz"), (296, "Adresa:"), (366, "Lipová"), (400, "12")
        ),
        _ocr_line(2, (61, "IČO:"), (123, "73542113"), (296, "IČO:"), (366, "70890692")),
    ]
    order = [" ".join(w.text for w in line) for line in ocr_party_columns(lines) or []]
    assert order == [
        "Pronajímatel:",
        "jednatel: Radek Qwertz",
        "IČO: 73542113",
        "Nájemce:",
        "Adresa: Lipová 12",
        "IČO: 70890692",
    ]


def test_an_addressee_block_beside_a_replys_reference_lines_is_read_apart():
    """A town's reply: "Vyřizuje: Mgr. X" on the left, the addressee's name and postal address on the
    right of the same rows. The clerk's lines come first, then the addressee's block."""
    lines = [
        _ocr_line(0, (62, "Č.j.:"), (117, "MMX/1234/2023"), (332, "Vážený"), (370, "pan")),
        _ocr_line(
            1, (62, "Vyřizuje:"), (117, "Mgr."), (139, "Alena"), (170, "Qwertzová"), (332, "Jan"), (352, "Qwertz")
        ),
        _ocr_line(2, (62, "Tel.:"), (117, "543"), (135, "606"), (154, "707"), (332, "Lipová"), (368, "12")),
        _ocr_line(
            3, (62, "Datum:"), (117, "14."), (133, "6."), (143, "2023"), (332, "612"), (352, "00"), (367, "Xaverov")
        ),
        _ocr_line(4, (61, "Věc:"), (87, "Poskytnutí"), (143, "informace")),
    ]
    order = [" ".join(w.text for w in line) for line in ocr_address_column(lines, 48) or []]
    assert order == [
        "Č.j.: MMX/1234/2023",
        "Vyřizuje: Mgr. Alena Qwertzová",
        "Tel.: 543 606 707",
        "Datum: 14. 6. 2023",
        "Vážený pan",
        "Jan Qwertz",
        "Lipová 12",
        "612 00 Xaverov",
        "Věc: Poskytnutí informace",
    ]
    # a form's labels and values in two columns, with no postal address on the right: rows stay
    form = [
        _ocr_line(k, (62, label), (232, value))
        for k, (label, value) in enumerate([("Jméno:", "Jan"), ("Obec:", "Xaverov"), ("Datum:", "1.2.2023")])
    ]
    assert ocr_address_column(form, 48) is None


def test_a_function_is_not_linked_across_a_signature_rows_column_gap():
    """OCR writes the gap between a signature row's columns as three spaces: "…, starosta" belongs
    to the left signatory, not to the other party's attorney on the right."""
    row = "Mgr. Jan Qwertz, starosta   Petr Qwertzal"
    assert function_near(row, row.index("Petr"), len(row)) is None
    joined = row.replace("   ", " ")
    assert function_near(joined, joined.index("Petr"), len(joined)) is not None


@pytest.mark.parametrize(
    "header",
    [
        ((60, "Sídlo:"), (300, "Lipová"), (340, "1204/7")),  # a label and its value: a form row
        ((60, "Dodavatel:"), (300, "Radek"), (340, "Qwertz")),  # a party and its name on one line
        ((60, "Vyřizuje:"), (300, "Telefon:")),  # labels, but neither a party's
    ],
)
def test_lines_that_open_no_party_table_keep_their_order(header):
    lines = [_ocr_line(0, *header)] + [_ocr_line(k, (84, "Qwertz"), (320, "Lipová")) for k in (1, 2, 3)]
    assert ocr_party_columns(lines) is None


def test_a_sole_traders_address_in_a_scanned_orders_supplier_box_is_redacted_and_the_place_of_delivery_kept(
    rules_engine,
):
    """A purchase order scanned: the supplier box and the place of delivery side by side. Read row
    by row, the supplier's address shared a sentence with the city district and was kept as its
    seat; read column by column it is the sole trader's."""
    cell = "<td style='width: 50%; vertical-align: top'>{}</td>"
    body = (
        "<p>Městská část Praha 11, Úřad městské části, IČO: 92114415</p>"
        "<p>Objednávka č. OSM/0417/2023</p><table style='width: 100%'><tr>"
        + cell.format(
            "Dodavatel:<br>Radek Novotný<br>Lipová 1204/7<br>120 00 Praha 2<br>IČ: 73542113<br>DIČ: CZ8001011205"
        )
        + cell.format(
            "Místo dodání:<br>„Městská část Praha 11<br>Úřad městské části<br>Qwertzova 1120/3<br>149 00 Praha 11"
        )
        + "</tr></table><p>Úklid a drobná údržba zasedacích místností radnice dle cenové nabídky dodavatele.</p>"
        "<p>Celková cena objednávky 148 500,00 Kč včetně DPH.</p>"
    )
    # 72 dpi, skewed and noisy: Tesseract reads the two columns as one
    pdf, _how = scan(pdf_from_html(body), random.Random(2))
    analysis = rules_engine.analyze(pdf)
    assert all(page.ocr for page in analysis.pages)
    actions = {p.text: p.action for p in analysis.proposals}
    supplier = [a for text, a in actions.items() if "Lipová" in text]
    assert supplier and set(supplier) == {Action.REDACT}, actions
    assert Action.REDACT not in {a for text, a in actions.items() if "Qwertzova" in text}, actions


@pytest.mark.parametrize("layout", [Layout(), Layout("serif", 9, 30, "a5"), Layout("monospace", 13, 110, "a4")])
def test_cues_and_values_split_by_a_line_break_still_link(rules_engine, layout):
    _, d = _analyse(
        rules_engine,
        [
            "Nájemce: Jan Qwertz, fyzická osoba podnikající, IČO 71308598, místo podnikání Krátká 128, "
            "464 97 Xaverov nad Nežárkou, datum narození: 1. 12. 1999, e-mail: qwertz@email.cz, "
            "telefon: +420 602 158 958, spojovací číslo SIPO 1029317048",
        ],
        layout,
    )
    for value in ("1. 12. 1999", "+420 602 158 958", "1029317048", "qwertz@email.cz"):
        found = [p for t, p in d.items() if t.replace("\n", " ") == value]
        assert found and found[0].action == Action.REDACT, value


# -- OCR confusions -------------------------------------------------------------------------------
def test_an_at_sign_misread_by_ocr_is_put_right():
    words = [
        OcrWord(t, 10 * i, 0, 10 * i + 8, 5, 90, (1, 1, 1))
        for i, t in enumerate(
            ["E-mail:", "blesno©Axaverov.cz", "tender.ec(Aqwertz.cz,", "jan.qwertz", "©Aih21.org", "©2020"]
            + ["x.qwertz(©volny.cz.", "q.wertz(Yatlas.cz.", "jan.qwertz(dqwertz.cz", "jan.qwertzGiseznam.cz"]
            + ["e-mail", "xaver.qwertz", "atlas.cz.", "x.qwertz©", "seznam.cz", "www.Gisat.cz", "Firma©", "ABC"]
            + ["jqwertzAvolny.cz", "CeskaAsmlouva.cz", "VODAvolny.cz"]
        )
    ]
    assert [w.text for w in repair_emails(words)] == [
        "E-mail:",
        "blesno@xaverov.cz",
        "tender.ec@qwertz.cz,",
        "jan.qwertz@ih21.org",
        "©2020",
        "x.qwertz@volny.cz.",
        "q.wertz@atlas.cz.",
        "jan.qwertz@qwertz.cz",
        "jan.qwertz@seznam.cz",
        "e-mail",
        "xaver.qwertz@atlas.cz.",  # the at sign read as a space, right after the cue word
        "x.qwertz@seznam.cz",
        "www.Gisat.cz",  # a web address is no e-mail
        "Firma©",
        "ABC",
        "jqwertz@volny.cz",  # an "@" read as a capital A in a word otherwise in small letters
        "CeskaAsmlouva.cz",  # a capital elsewhere: no e-mail
        "VODAvolny.cz",
    ]
    turned = [
        OcrWord("jan.qwertz", 0, 0, 5, 40, 90, (1, 1, 1), 90),
        OcrWord("©Aih21.org", 0, 45, 5, 90, 90, (1, 1, 1), 90),
    ]
    assert [(w.text, w.angle) for w in repair_emails(turned)] == [("jan.qwertz@ih21.org", 90)]  # a sideways page


def test_a_day_and_a_bank_code_misread_by_ocr_are_put_right_where_they_can_be_checked():
    """Real scans read "uzavřená dne [.7. 2018" and "číslo účtu: 2100048174/20 10": the date
    and the account (a keep item, or a private person's account that no recognizer would find)
    were not in the published text as printed. A day's "1" is put right before a year; a split
    bank code is joined only when the account passes the Czech account check."""
    texts = ["dne", "[.7.", "2018", "účtu:", "2100048174/20", "10", "l.7.2018", "bod", "l.", "2100048174/20", "11"]
    words, x = [], 10.0
    for t in texts:
        words.append(OcrWord(t, x, 100, x + 6 * len(t), 110, 90, (1, 1, 1)))
        x += 6 * len(t) + 3
    assert [w.text for w in repair_numbers(words)] == [
        "dne",
        "1.7.",
        "2018",
        "účtu:",
        "2100048174/2010",
        "1.7.2018",
        "bod",
        "l.",  # no year follows: a list item, left alone
        "2100048174/20",  # "2100048174/2011" fails the account check
        "11",
    ]
    joined = repair_numbers(words)[4]
    assert (joined.x0, joined.x1) == (words[4].x0, words[5].x1)


@pytest.mark.parametrize(
    ("value", "place"),
    [
        ("Praha - Libuš", True),  # a district: part of "Městská část Praha - Libuš" elsewhere
        ("143 00 Praha 4", True),
        ("Libuš", True),
        ("Jeseniova 1142/58, 130 00 Praha 3", False),
        ("Lipová 12", False),
        ("Na Výsluní 27 251 01 Říčany", False),
    ],
)
def test_a_place_alone_is_no_value_to_spread(value, place):
    """The town part of a home address is redacted where it stands, but "one value, one action"
    never spreads it: elsewhere it is a place, or part of a public body's name."""
    assert place_only(value, cat.ADDRESS_RESIDENCE) is place
    assert place_only(value, cat.PHONE) is False


def test_a_home_printed_again_without_a_link_is_redacted_as_its_first_print():
    """A sole trader's home printed three times; the third, after a line break no link reaches,
    was left for review (an address linked to nobody) while the other two were redacted."""

    def assessed(text: str, start: int, action: Action, category: int = cat.ADDRESS_RESIDENCE) -> Assessment:
        finding = Finding(category, Span(start, start + len(text)), text, 0.9, "address", "")
        return Assessment(
            finding, category, action, Reason("primary" if action == Action.REDACT else "address_unlinked")
        )

    decisions = [
        assessed("Polní 548/52, 739 23 Kostelec", 0, Action.REDACT),
        assessed("Polní 548/52, 739 23 Kostelec nad Černými lesy", 100, Action.REVIEW),
        assessed("Lipová 12, 602 00 Brno", 200, Action.REVIEW),  # another address: still a doubt
        assessed("Polní 548/52, 739 23 Kostelec", 300, Action.KEEP, cat.ADDRESS_SEAT),  # a seat stays kept
    ]
    align_addresses(decisions)
    assert [(d.action, d.reason.code) for d in decisions] == [
        (Action.REDACT, "primary"),
        (Action.REDACT, "repeated_value"),
        (Action.REVIEW, "address_unlinked"),
        (Action.KEEP, "address_unlinked"),
    ]
