"""Parties, the category map and its decisions, on small contracts built in the test."""

from __future__ import annotations

import copy
import json

import pytest

from redactor import categories as cat
from redactor.decide.category_map import CategoryMap
from redactor.errors import CategoryMapError
from redactor.model import Action, PartyKind
from tests.pdfs import pdf_from_paragraphs

SALE = [
    "Prodávající:",
    "Jméno a příjmení: Ing. Petr Svoboda",
    "Datum narození: 12.03.1975",
    "Adresa: Lipová 12/3, 602 00 Brno",
    "Kupující:",
    "Obec Dolní Lhota, Hlavní 1, 789 01 Dolní Lhota, IČ: 00177041, zastoupená Janem Dvořákem, starostou",
    "1. Prodávající prodává kupujícímu automobil, VIN TMBM2GCKP5TAYV1EE, registrační značka 1AB 2345.",
    "2. Kupující zaplatí kupní cenu na bankovní účet prodávajícího číslo 1733836467/5500. "
    "Přeplatek vrátí prodávající na účet kupujícího 6970183319/0100.",
    "3. Petr Svoboda prohlašuje, že vozidlo nemá vady. Svobodovi bude zaplaceno do 10 dnů.",
    "Kupující:",
    "Jan Dvořák, starosta",
]


def _decisions(engine, paragraphs, cmap=None):
    analysis = engine.analyze(pdf_from_paragraphs(paragraphs), category_map=cmap)
    return analysis, {(p.text, p.category): p for p in analysis.proposals}


def test_parties_are_segmented_and_classified(engine):
    analysis, _ = _decisions(engine, SALE)
    kinds = {p.label: p.kind for p in analysis.parties}
    assert kinds == {"prodávající": PartyKind.NATURAL_PERSON, "kupující": PartyKind.PUBLIC_BODY}
    buyer = next(p for p in analysis.parties if p.label == "kupující")
    assert len(buyer.blocks) == 2  # header entry and signature block


def test_decisions_follow_the_map(engine):
    _, d = _decisions(engine, SALE)
    assert d[("Petr Svoboda", cat.FULL_NAME)].action == Action.REDACT
    assert d[("Svobodovi", cat.SURNAME)].action == Action.REDACT
    assert d[("12.03.1975", cat.DATE_OF_BIRTH)].action == Action.REDACT
    assert d[("Lipová 12/3, 602 00 Brno", cat.ADDRESS_RESIDENCE)].action == Action.REDACT
    assert d[("TMBM2GCKP5TAYV1EE", cat.VIN)].action == Action.REDACT
    assert d[("1AB 2345", cat.VEHICLE_PLATE)].action == Action.REDACT
    seller_account = d[("1733836467/5500", cat.BANK_ACCOUNT)]
    assert seller_account.action == Action.REDACT
    assert seller_account.reason.code == "linked_holder"
    assert "natural person party 1 (prodávající)" in str(seller_account.reason)
    buyer_account = d[("6970183319/0100", cat.BANK_ACCOUNT)]
    assert buyer_account.action == Action.KEEP
    assert buyer_account.reason.code == "not_personal_holder"
    assert "public body party 2 (kupující)" in str(buyer_account.reason)
    assert d[("Hlavní 1, 789 01 Dolní Lhota", cat.ADDRESS_SEAT)].action == Action.KEEP
    assert d[("00177041", cat.ICO)].action == Action.KEEP
    mayor = d[("Jan Dvořák", cat.FULL_NAME)]
    assert mayor.action == Action.KEEP and mayor.reason.code == "role_exception"
    assert "acts as a public official" in str(mayor.reason)
    assert d[("Janem Dvořákem", cat.FULL_NAME)].action == Action.KEEP


def test_every_proposal_carries_what_a_reviewer_needs(engine):
    analysis, _ = _decisions(engine, SALE)
    for p in analysis.proposals:
        assert p.page == 1 and p.boxes and p.reason and p.category_name
        assert p.category_type in ("primary", "secondary", "not_subject")
        assert all(b.x1 > b.x0 and b.y1 > b.y0 for b in p.boxes)


def test_public_official_exception_is_switchable(engine):
    data = CategoryMap.default().to_dict()
    for exception in data["role_exceptions"]:
        exception["enabled"] = False
    _, d = _decisions(engine, SALE, CategoryMap.from_dict(data))
    assert d[("Jan Dvořák", cat.FULL_NAME)].action == Action.REDACT


def test_sole_trader_place_of_business_is_redacted_by_the_methodology(engine):
    _, d = _decisions(
        engine,
        [
            "Pronajímatel: Město Holešov, se sídlem Nádražní 190, 769 01 Holešov, IČO 00287172",
            "Nájemce: Hana Kučerová, fyzická osoba podnikající, IČO 55944272, místo podnikání Tyršova 618/17, "
            "269 01 Rakovník, e-mail h.kucerova@centrum.cz, tel. +420 775 315 716",
            "Čl. 1 Nájemné činí 14 900 Kč měsíčně. Kauci složila Hana Kučerová z účtu 5915024361/0600.",
        ],
    )
    place = d[("Tyršova 618/17, 269 01 Rakovník", cat.ADDRESS_SEAT)]
    assert place.action == Action.REDACT and place.reason.code == "holder_rule"
    assert "sole trader party 2" in str(place.reason)
    assert d[("Nádražní 190, 769 01 Holešov", cat.ADDRESS_SEAT)].action == Action.KEEP
    assert d[("5915024361/0600", cat.BANK_ACCOUNT)].action == Action.REDACT
    assert d[("h.kucerova@centrum.cz", cat.EMAIL_PERSONAL)].action == Action.REDACT


def test_company_representative_is_kept_and_its_employee_redacted(engine):
    _, d = _decisions(
        engine,
        [
            "1.1 Objednatel: Město Holešov, sídlo: Nádražní 93, 767 01 Holešov, IČO: 00287172",
            "1.2 Zhotovitel: Zemní práce Kovář s.r.o., sídlo: Krátká 390, 695 01 Hodonín, IČO: 40039021",
            "zastoupený: Petr Kovář, jednatelem společnosti, bankovní spojení: 1371224761/2010",
            "1.3 Stavbyvedoucím zhotovitele je Ing. Veronika Benešová, tel. 777 123 456.",
        ],
    )
    assert d[("Zemní práce Kovář s.r.o.", cat.COMPANY_NAME)].action == Action.KEEP
    assert d[("Petr Kovář", cat.FULL_NAME)].action == Action.KEEP
    assert d[("1371224761/2010", cat.BANK_ACCOUNT)].action == Action.KEEP
    assert d[("Veronika Benešová", cat.FULL_NAME)].action == Action.REDACT
    assert d[("777 123 456", cat.PHONE)].action == Action.REDACT


def test_account_with_no_identifiable_holder_goes_to_review(engine):
    _, d = _decisions(engine, ["Platby budou hrazeny na účet 1733836467/5500 vždy do 15. dne v měsíci."])
    assert d[("1733836467/5500", cat.BANK_ACCOUNT)].action == Action.REVIEW


def test_map_round_trips_through_json():
    cmap = CategoryMap.default()
    again = CategoryMap.from_dict(json.loads(json.dumps(cmap.to_dict())))
    assert again.to_dict() == cmap.to_dict()
    assert len(cmap.categories) >= 34


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (
            lambda d: d["categories"][0]["depends_on"].append({"category": 999, "scopes": ["sentence"]}),
            "unknown category 999",
        ),
        (lambda d: d["categories"][0].update(type="sometimes"), "type 'sometimes'"),
        (lambda d: d["categories"][0]["depends_on"].append({"category": 2, "scopes": ["page"]}), "invalid scopes"),
        (lambda d: d["role_exceptions"].append({"role": "mayor", "categories": [4], "action": "keep"}), "unknown role"),
        (lambda d: d.update(format="other"), "format"),
    ],
)
def test_invalid_maps_are_refused_with_an_explanation(mutate, message):
    data = copy.deepcopy(CategoryMap.default().to_dict())
    mutate(data)
    with pytest.raises(CategoryMapError, match=message):
        CategoryMap.from_dict(data)


def test_disabled_category_makes_no_proposals(engine):
    data = CategoryMap.default().to_dict()
    for row in data["categories"]:
        if row["id"] == cat.PHONE:
            row["enabled"] = False
    _, d = _decisions(engine, ["Kontakt: Jan Novák, tel. 777 123 456."], CategoryMap.from_dict(data))
    assert ("777 123 456", cat.PHONE) not in d


@pytest.mark.parametrize("border", ["1", "0"], ids=["ruled table (pdfplumber)", "borderless table (column heuristic)"])
def test_parties_side_by_side_in_a_table_are_read_column_by_column(engine, border):
    from tests.pdfs import pdf_from_html

    pdf = pdf_from_html(
        f"<p>KUPNÍ SMLOUVA</p><table border={border}><tr><td>Prodávající:</td><td>Kupující:</td></tr>"
        "<tr><td>Petr Svoboda<br/>nar. 12. 3. 1975<br/>bytem Lipová 12/3, 602 00 Brno<br/>"
        "č. ú. 1733836467/5500</td><td>Město Holešov<br/>se sídlem Nádražní 93, 767 01 Holešov<br/>"
        "IČO: 00287172<br/>č. ú. 6970183319/0100<br/>zastoupené Janem Dvořákem, starostou</td></tr></table>"
        "<p>1. Prodávající prodává kupujícímu automobil za 100 000 Kč.</p>"
    )
    analysis = engine.analyze(pdf)
    assert [(p.label, p.kind) for p in analysis.parties] == [
        ("prodávající", PartyKind.NATURAL_PERSON),
        ("kupující", PartyKind.PUBLIC_BODY),
    ]
    d = {(p.text, p.category): p.action for p in analysis.proposals}
    assert d[("1733836467/5500", cat.BANK_ACCOUNT)] == Action.REDACT
    assert d[("6970183319/0100", cat.BANK_ACCOUNT)] == Action.KEEP
    assert d[("Janem Dvořákem", cat.FULL_NAME)] == Action.KEEP


def test_possessive_after_the_value_names_its_holder(engine):
    _, d = _decisions(
        engine,
        [
            "Zapůjčitel: Město Holešov, IČO 00287172, se sídlem Nádražní 93, 767 01 Holešov",
            "Vydlužitel: Petr Svoboda, r. č. 830623/4849, trvalý pobyt Lipová 12/3, 602 00 Brno",
            "1. Zapůjčitel zašle částku na účet 1733836467/5500 vydlužitele a splátky přijímá na účet "
            "6970183319/0100 zapůjčitele.",
        ],
    )
    assert d[("1733836467/5500", cat.BANK_ACCOUNT)].action == Action.REDACT
    assert d[("6970183319/0100", cat.BANK_ACCOUNT)].action == Action.KEEP
