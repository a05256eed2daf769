"""Issue 31: right in context on contracts never seen – officials in every role, holders from the
structure, supplier contacts – each class without an agency profile and with one
(:mod:`redactor.detect.profile`)."""

from __future__ import annotations

import html

import pymupdf
import pytest

from redactor.detect.profile import AgencyProfile, Official, account_key, address_key, phone_key
from redactor.model import Action
from tests.pdfs import pdf_from_html, pdf_from_paragraphs

OFFICE = "Česká republika – Kancelář Poslanecké sněmovny"
LANDLORD = "Pronajímatel: Jan Dvořák, nar. 12. 3. 1960, bytem Lipová 12, 602 00 Brno"
TENANT = f"Nájemce: {OFFICE}, IČO: 63839407, se sídlem Sněmovní 176/4, 118 26 Praha 1"

PROFILE = AgencyProfile.from_dict(
    {
        "names": ["Kancelář Poslanecké sněmovny"],
        "ico": "63839407",
        "addresses": ["Sněmovní 176/4, 118 26 Praha 1", "Nerudova 3, 118 50 Praha 1"],
        "accounts": ["19-2000145399/0800"],
        "phones": ["+420 257 171 111"],
        "email_domains": ["psp.cz"],
        "officials": [
            {"name": "Ing. Petr Novotný", "function": "vedoucí Kanceláře"},
            {"name": "Mgr. Hana Malá", "function": "poslankyně"},
        ],
    }
)


def actions(engine, paragraphs: list[str], profile: AgencyProfile | None = None) -> dict[str, tuple[str, str]]:
    """``{text: (action, reason code)}`` of every proposal (the last occurrence of a text wins); a
    "\\n" in a paragraph is a line break of the PDF."""
    analysis = engine.analyze(_pdf(paragraphs), profile=profile)
    return {p.text: (p.action.value, p.reason.code) for p in analysis.proposals}


def _pdf(paragraphs: list[str]) -> bytes:
    """A contract of ``paragraphs``, each "\n" a line break of the PDF."""
    return pdf_from_html(
        "".join("<p>" + "<br>".join(html.escape(line) for line in p.split("\n")) + "</p>" for p in paragraphs)
    )


# -- class 1: officials who are not the signatory ---------------------------------------------
OFFICIAL_ROLES = [
    ("beneficiary", "Kancelář bude sloužit pro potřeby poslankyně Mgr. Jany Horákové.", "Jany Horákové"),
    ("beneficiary, accusative", "Pronajímatel pronajímá kancelář pro poslankyni Janu Horákovou.", "Janu Horákovou"),
    ("office of", "Kancelář poslance Karla Procházky se nachází v přízemí.", "Karla Procházky"),
    (
        "recital subject",
        "Vzhledem k tomu, že radní Marie Novotná předložila záměr, uzavírají strany smlouvu.",
        "Marie Novotná",
    ),
    ("club chairman", "Za klub jedná předseda poslaneckého klubu Ing. Tomáš Beneš.", "Tomáš Beneš"),
    ("addressee", "Na vědomí: senátorka Mgr. Hana Bílá", "Hana Bílá"),
    ("label", "Poslanec: Mgr. Karel Procházka", "Karel Procházka"),
    ("label with both genders", "Uživatel prostor (poslanec/poslankyně): Pavel Kříž", "Pavel Kříž"),
    ("name first", "Prostor užívá Mgr. Jana Horáková, poslankyně Poslanecké sněmovny, jako kancelář.", "Jana Horáková"),
    (
        "titles joined by et, across a line break",
        "Prostory budou užívány jako kancelář pro poslance PS PČR pana Mgr. et\nMgr. Jakuba Michálka.",
        "Jakuba Michálka",
    ),
    (
        "function across a line break",
        "Záměr projednal vedoucí\noddělení správy majetku Ivo Černý bez připomínek.",
        "Ivo Černý",
    ),
]


@pytest.mark.parametrize("profile", [None, PROFILE], ids=["without profile", "with profile"])
@pytest.mark.parametrize(("case", "sentence", "name"), OFFICIAL_ROLES, ids=[c[0] for c in OFFICIAL_ROLES])
def test_an_official_named_in_office_in_any_role_is_kept(rules_engine, profile, case, sentence, name):
    found = actions(rules_engine, ["Smlouva o nájmu", LANDLORD, TENANT, sentence], profile)
    assert found[name] == ("keep", "role_exception"), (case, found)
    assert found["Jan Dvořák"][0] == "redact"  # the private landlord stays private


def test_the_profile_keeps_its_official_named_without_any_function(rules_engine):
    paragraphs = ["Smlouva o nájmu", LANDLORD, TENANT, "Klíče převezme Hana Malá v pondělí."]
    assert actions(rules_engine, paragraphs)["Hana Malá"][0] == "redact"
    kept = actions(rules_engine, paragraphs, PROFILE)["Hana Malá"]
    assert kept == ("keep", "role_exception")


def test_a_private_namesake_of_an_official_is_told_apart_by_a_home_address(rules_engine):
    paragraphs = [
        "Smlouva o nájmu",
        "Pronajímatel: Hana Malá, bytem Dlouhá 3, 110 00 Praha 1",
        TENANT,
        "Nájemné bude placeno pronajímateli měsíčně.",
    ]
    assert actions(rules_engine, paragraphs, PROFILE)["Hana Malá"][0] == "redact"
    paragraphs[1] = "Kontakt: Hana Malá, trvale bytem Dlouhá 3, 110 00 Praha 1"
    assert actions(rules_engine, paragraphs, PROFILE)["Hana Malá"][0] == "redact"


# -- class 2: holders from the structure, not from proximity -----------------------------------
def test_a_companys_account_in_its_own_entry_is_the_companys_whoever_the_sentence_names(rules_engine):
    paragraphs = [
        "Kupní smlouva",
        "Prodávající: TERMO servis a.s., IČO 25596641, se sídlem Hlavní 5, 602 00 Brno",
        "kontaktní osoba: Petr Malý, tel. 777 123 456, bankovní spojení: 19-2000145399/0800",
        "Kupující: Obec Lhota, IČO 00231231, se sídlem Lhota 1, 500 01 Lhota",
    ]
    for profile in (None, PROFILE):
        found = actions(rules_engine, paragraphs, profile)
        assert found["19-2000145399/0800"][0] == "keep", found
        assert found["777 123 456"][0] == "redact"  # the contact's phone stays his


def test_an_account_named_as_a_persons_stays_personal_in_an_organisations_entry(rules_engine):
    paragraphs = [
        "Smlouva o dílo",
        "Zhotovitel: Stavby Morava s.r.o., IČO 25596641, se sídlem Hlavní 5, 602 00 Brno",
        "Objednatel: Obec Lhota, IČO 00231231, se sídlem Lhota 1, 500 01 Lhota",
        "Odměnu obdrží Jan Dvořák, nar. 1. 2. 1970, na účet pana Dvořáka č. 1234567899/0800.",
    ]
    assert actions(rules_engine, paragraphs)["1234567899/0800"][0] == "redact"


def test_the_seat_written_again_beside_a_person_is_the_organisations(rules_engine):
    paragraphs = [
        "Smlouva o nájmu",
        LANDLORD,
        TENANT,
        "Adresa pro doručování nájemce: Ing. Petr Novotný, Sněmovní 176/4, 118 26 Praha 1",
    ]
    analysis = rules_engine.analyze(pdf_from_paragraphs(paragraphs))
    seats = [p for p in analysis.proposals if p.text.startswith("Sněmovní")]
    assert len(seats) == 2 and all(p.action == Action.KEEP for p in seats)
    assert {p.reason.code for p in seats} >= {"seat_elsewhere"}


def test_the_profile_keeps_the_agencys_own_address_account_phone_and_mail_beside_a_person(rules_engine):
    paragraphs = [
        "Smlouva o nájmu",
        LANDLORD,
        TENANT,
        "Kontaktní osoba nájemce: Jitka Krátká, Nerudova 3, 118 50 Praha 1, tel. 257 171 111, e-mail "
        "posta@psp.cz; nájemce platí z účtu 19-2000145399/0800",
    ]
    found = actions(rules_engine, paragraphs, PROFILE)
    for value in ("Nerudova 3, 118 50 Praha 1", "257 171 111", "posta@psp.cz", "19-2000145399/0800"):
        assert found[value] == ("keep", "agency_own"), (value, found)
    assert found["Jan Dvořák"][0] == "redact"
    assert found["12. 3. 1960"][0] == "redact" and found["Lipová 12, 602 00 Brno"][0] == "redact"


def test_the_agencys_name_without_diacritics_and_inflected_makes_a_public_body(rules_engine):
    paragraphs = [
        "Smlouva",
        "Pronajimatel: Jan Dvorak, nar. 12. 3. 1960, bytem Lipova 12, 602 00 Brno",
        "Najemce: Kancelar Poslanecke snemovny, Snemovni 176/4, 118 26 Praha 1",
        "Nájemce zastupuje Ing. Petr Novotný.",
    ]
    analysis = rules_engine.analyze(pdf_from_paragraphs(paragraphs), profile=PROFILE)
    kinds = {p.label: p.kind.value for p in analysis.parties}
    assert kinds.get("nájemce") == "public_body", kinds


def test_a_numbered_label_without_its_colon_opens_the_public_bodys_entry(rules_engine):
    """A real office lease reads "2. Nájemce Česká republika — Kancelář Poslanecké sněmovny" (the
    OCR lost the colon): the tenant was no party, so its seat went to review and the director
    authorised to sign ("Oprávněn k jednání Ing. Mgr. X", titles between cue and name) was
    redacted as a private person."""
    paragraphs = [
        "Smlouva o nájmu nebytových prostor poslance",
        "1. Pronajímatel: Jan Dvořák\nbytem Lipová 12, 602 00 Brno\nnar. 12. 3. 1960",
        "2. Nájemce Česká republika — Kancelář Poslanecké sněmovny\nAdresa: Sněmovní 176/4, 118 26 Praha 1\n"
        "Zastoupená: Mgr. Petrem Novotným\nIČ: 00006572\nOprávněn k jednání Ing. Mgr. Hana Malá\n"
        "a podpisu smlouvy: ředitelka odboru hospodářské správy",
        "I.",
        "Pronajímatel přenechává nájemci do užívání prostory v domě č. p. 960 v Brně.",
        "Za nájemce: Mgr. Petr Novotný",  # a later label of the role with its colon
    ]
    analysis = rules_engine.analyze(_pdf(paragraphs))
    kinds = {p.label: p.kind.value for p in analysis.parties}
    assert kinds.get("nájemce") == "public_body", kinds
    found = {p.text: p.action.value for p in analysis.proposals}
    assert found["Hana Malá"] == "keep" and found["Sněmovní 176/4, 118 26 Praha 1"] == "keep", found
    assert found["Jan Dvořák"] == "redact"


def test_an_account_redacted_in_the_landlords_entry_is_redacted_where_the_rent_is_assigned(rules_engine):
    """The landlord's account, redacted in his entry, stood again in a clause that assigns the
    rent to his bank ("směrovány na účet č. X, vedený u UniCredit Bank"), where it was taken for
    the bank's and kept: the copy published what the box hid. One value, one action."""
    paragraphs = [
        "Smlouva o nájmu",
        "Pronajímatel: Jan Dvořák, nar. 12. 3. 1960, bytem Lipová 12, 602 00 Brno, číslo účtu: 62166006/2700",
        TENANT,
        "Pohledávky nájemného jsou postoupeny ve prospěch banky UniCredit Bank Czech Republic, a.s., se sídlem "
        "Želetavská 1525/1, 140 92 Praha 4, IČO 64948242. Veškeré úhrady musí být směrovány na účet č. "
        "62166006/2700, vedený u UniCredit Bank Czech Republic, a.s.",
    ]
    analysis = rules_engine.analyze(pdf_from_paragraphs(paragraphs))
    accounts = [p for p in analysis.proposals if p.text == "62166006/2700"]
    assert [p.action.value for p in accounts] == ["redact", "redact"]
    assert accounts[1].reason.code == "repeated_value"


def test_a_receptions_phone_in_a_safety_annex_is_kept(rules_engine):
    paragraphs = [
        "Smlouva o zajištění služeb asistenta poslance",
        LANDLORD.replace("Pronajímatel", "Poskytovatel služeb") + ", tel. 777 123 456",
        TENANT.replace("Nájemce", "Objednatel"),
        "10. Každý zpozorovaný požár je nutné ohlásit a volat ohlašovnu požáru (recepce) na tel. 257171509.",
    ]
    found = actions(rules_engine, paragraphs)
    assert found["257171509"] == ("keep", "holder_rule"), found
    assert found["777 123 456"][0] == "redact"


def _signature_columns(rows: list[tuple[float, str]]) -> bytes:
    """A lease whose second page is drawn line by line at ``(y, text)`` (points): a signature
    block in columns comes out of extraction with the columns of a row joined into one line."""
    contract = pdf_from_paragraphs(
        [
            "Smlouva o nájmu",
            "Pronajímatel: Město Mariánské Lázně, IČO: 00254061, se sídlem Ruská 155, 353 01 Mariánské Lázně",
            TENANT,
            "Nájemné činí 15 000 Kč měsíčně.",
        ]
    )
    doc = pymupdf.open(stream=contract)
    page = doc.new_page(width=595, height=842)  # the signatures' page
    writer = pymupdf.TextWriter(page.rect)
    for y, text in rows:
        writer.append((60, y), text, font=pymupdf.Font("helv"), fontsize=10)
    writer.write_text(page)
    return doc.tobytes()


def test_a_function_under_a_name_in_its_column_of_a_signature_block_makes_an_official(rules_engine):
    """A real signature block: "PhDr. X   Poslanec PS PČR   Ing. Y" over "místostarosta" under
    the first name only. The extracted line joins the three columns, so the function stands two
    lines from the name and next to another; only the page geometry tells whose it is."""
    pdf = _signature_columns(
        [
            (690, "Pronajímatel:                                   Poslanec PS PČR:                 Nájemce:"),
            (704, "PhDr. Luděk Nosek                           Ing. Petr Třešňák                 Ing. Hana Malá"),
            (718, "  místostarosta"),
        ]
    )
    found = {p.text: (p.action.value, p.reason.code) for p in rules_engine.analyze(pdf).proposals}
    assert found["Luděk Nosek"] == ("keep", "role_exception"), found


def test_a_function_under_a_name_inside_a_sentence_makes_no_official(rules_engine):
    """The same geometry in running text is no signature block: a name inside a line of prose
    (words close on both sides) takes nothing from the line below."""
    pdf = _signature_columns(
        [
            (690, "Předávací protokol podepíše pronajímatel Jan Dvořák, nar. 1. 2. 1970, a nájemce"),
            (704, "převezme klíče, jakmile starosta obce potvrdí, že jsou prostory v pořádku."),
        ]
    )
    analysis = rules_engine.analyze(pdf)
    name = next(p for p in analysis.proposals if p.text == "Jan Dvořák")
    assert name.action.value == "redact"


# -- class 3: supplier contacts ----------------------------------------------------------------
CONTACT_CUES = [
    "kontaktní osoba: Lukáš Pokorný",
    "Vyřizuje: Lukáš Pokorný",
    "Ve věcech technických jedná: Ing. Lukáš Pokorný",
    "ve věcech smluvních: Lukáš Pokorný",
    "Osoba oprávněná jednat ve věcech technických: Lukáš Pokorný",
    "Technický zástupce: Lukáš Pokorný",
    "Technický zástupce: Mgr. et Mgr. Lukáš Pokorný, telefon: 608460908",  # "et" joins two titles
    "Pověřený pracovník: Lukáš Pokorný",
]
SUPPLIER = [
    "Smlouva o dílo",
    "Objednatel: Obec Lhota, IČO 00231231, se sídlem Lhota 1, 500 01 Lhota, zastoupená starostou Janem Veselým",
    "Zhotovitel: Stavby Morava s.r.o.",
    "se sídlem Hlavní 5, 602 00 Brno, IČO 25596641",
    "zastoupená Ing. Pavlem Kubátem, jednatelem",
]


@pytest.mark.parametrize("profile", [None, PROFILE], ids=["without profile", "with profile"])
@pytest.mark.parametrize("cue", CONTACT_CUES)
def test_a_suppliers_contact_person_is_redacted_with_its_reason(rules_engine, cue, profile):
    found = actions(rules_engine, [*SUPPLIER, cue], profile)
    assert found["Lukáš Pokorný"] == ("redact", "contact_person"), found
    assert found["Pavlem Kubátem"][0] == "keep" and found["Janem Veselým"][0] == "keep"


def test_a_contact_in_the_clause_on_communication_is_redacted_and_a_statutory_contact_kept(rules_engine):
    clause = "5. Za zhotovitele je oprávněn jednat ve věcech technických Ing. Radek Bureš, tel. 603 111 222."
    found = actions(rules_engine, [*SUPPLIER, clause, "Kontaktní osoba: Ing. Pavel Kubát, jednatel"])
    assert found["Radek Bureš"] == ("redact", "contact_person")
    assert found["Pavel Kubát"][0] == "keep"


# -- the profile's matching ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Sněmovní 176/4, 118 26 Praha 1", "Snemovni 176/4, Praha 1"),
        ("Sněmovní 176/4", "Sněmovní l76/ 4, 118 26 Praha"),
        ("Lhota 1, 500 01 Lhota", "Lhota 1"),
    ],
)
def test_addresses_compare_by_street_and_house_number(a, b):
    assert address_key(a) == address_key(b) is not None


def test_other_house_numbers_and_accounts_differ():
    assert address_key("Sněmovní 176/4") != address_key("Sněmovní 176/5")
    assert account_key("19-2000145399/0800") == account_key("CZ65 0800 0000 1920 0014 5399")
    assert account_key("2000145399/0800") != account_key("19-2000145399/0800")
    assert phone_key("+420 257 171 111") == phone_key("257171111")


def test_official_matches_every_case_and_order_and_no_other_given_name():
    profile = AgencyProfile(officials=(Official("Ing. Petr Novotný", "starosta"),))
    for words in (["Petrem", "Novotným"], ["Novotný", "Petr"], ["Petra", "Novotneho"], ["Novotnému"]):
        assert profile.official(words) is not None, words
    assert profile.official(["Pavel", "Novotný"]) is None


def test_profile_round_trips_and_drops_blanks():
    data = PROFILE.to_dict()
    assert AgencyProfile.from_dict(data) == PROFILE
    assert AgencyProfile.from_dict({"names": [" ", "Obec"], "officials": [{"name": ""}]}).to_dict()["names"] == ["Obec"]
    assert AgencyProfile.from_dict(None).empty


def test_a_company_represented_on_a_power_of_attorney_is_represented_by_a_private_person(rules_engine):
    """ "zastoupena: X" is a company's statutory body unless X acts on a power of attorney (Civil
    Code § 441): an employee or an attorney, whom the methodology redacts; the company's jednatel
    beside them stays, and so does a public body's official acting on a power of attorney."""
    supplier = [
        "Smlouva o dílo",
        "Objednatel: Obec Lhota, IČO 00231231, se sídlem Lhota 1, 500 01 Lhota, zastoupená tajemníkem "
        "Ing. Janem Veselým na základě plné moci",
        "Zhotovitel: Stavby Morava s.r.o., se sídlem Hlavní 5, 602 00 Brno, IČO 25596641",
        "zastoupená: Hanou Qwertzmannovou",
        "Cena díla činí 120 000 Kč bez DPH.",
        "Zhotovitel prohlašuje, že Hana Qwertzmannová je oprávněna jej zastupovat na základě plné moci "
        "udělené jednatelem společnosti Ing. Pavlem Kubátem.",
    ]
    found = actions(rules_engine, supplier, None)
    assert found["Hanou Qwertzmannovou"] == ("redact", "attorney_person"), found
    assert found["Hana Qwertzmannová"][0] == "redact"
    assert found["Pavlem Kubátem"][0] == "keep" and found["Janem Veselým"][0] == "keep"
