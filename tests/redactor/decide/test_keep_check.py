"""The keep check: a contact kept on the page's layout alone is asked, a second signal keeps it;
and whose a value is across layouts (the rule book's records hold the rest of the examples)."""

import pytest

from redactor.decide.keep_check import domain_names
from redactor.model import Action, PartyKind
from tests.pdfs import pdf_from_paragraphs


def _analyse(engine, paragraphs):
    analysis = engine.analyze(pdf_from_paragraphs(paragraphs))
    return analysis, {p.text: p for p in analysis.proposals}


@pytest.mark.parametrize(
    ("domain", "name"),
    [
        ("mulhota.cz", "Městský úřad Lhota"),
        ("nemhb.cz", "Nemocnice Havlíčkův Brod"),
        ("knihovnapisek.cz", "Městská knihovna Písek"),
        ("kr-jihomoravsky.cz", "KRAJSKÝ ÚŘAD JIHOMORAVSKÉHO KRAJE"),
        ("aquaservis-morava.cz", "AQUASERVIS MORAVA s.r.o."),
    ],
)
def test_an_organisations_domain_spells_its_name(domain, name):
    assert domain_names(domain, name)


@pytest.mark.parametrize(
    ("domain", "name"),
    [
        ("seznam.cz", "Městský úřad Lhota"),
        ("email.cz", "Elektro Šimáček"),
        ("centrum.cz", "Nemocnice Havlíčkův Brod"),
        ("gmail.com", "Městská knihovna Písek"),
        ("xaver-obchod.cz", "Qwertzservis Morava s.r.o."),
    ],
)
def test_a_free_mail_or_another_domain_spells_no_organisation(domain, name):
    assert not domain_names(domain, name)


LETTER = [
    "Městský úřad Lhota, odbor dopravy, Náměstí 1, 679 01 Lhota",
    "Vyřizuje: Jana Qwertzová, tel. 516 123 456",
    "Věc: Rozhodnutí o povolení zvláštního užívání komunikace",
]


def test_a_clerk_kept_only_under_an_offices_head_is_asked_in_the_reviewers_words(rules_engine):
    _, d = _analyse(rules_engine, LETTER)
    clerk, line = d["Jana Qwertzová"], d["516 123 456"]
    assert clerk.action == line.action == Action.REVIEW
    assert clerk.reason.code == "kept_on_one_guess"
    assert "only where it stands on the page says so" in clerk.reason.render()
    assert clerk.rules[-1]["id"] == "decision:kept_on_one_guess"


@pytest.mark.parametrize(
    "second",
    [
        "Vyřizuje: Jana Qwertzová, referentka odboru, tel. 516 123 456",  # a function beside her
        "Vyřizuje: Jana Qwertzová, tel. 516 123 456, e-mail: jana.qwertzova@mulhota.cz",  # the office's domain
        "Vyřizuje: npor. Jana Qwertzová, tel. 516 123 456",  # a rank before her name
    ],
)
def test_a_second_signal_keeps_the_clerk_and_her_line(rules_engine, second):
    _, d = _analyse(rules_engine, [LETTER[0], second, LETTER[2]])
    assert d["Jana Qwertzová"].action == Action.KEEP and d["516 123 456"].action == Action.KEEP


def test_a_company_named_again_without_its_form_stays_the_company(rules_engine):
    analysis, d = _analyse(
        rules_engine,
        [
            "Odbor předal k úhradě fakturu společnosti QWERTZ STŘECHY s.r.o., IČO 28630416, na 2 330,00 Kč.",
            "LIKVIDAČNÍ LIST",
            "Dodavatel: QWERTZ STŘECHY IČO 28630416",
        ],
    )
    assert not [p for p in analysis.parties if p.kind.is_private_person]
    assert all(p.action == Action.KEEP for t, p in d.items() if "QWERTZ" in t)
    assert any(p.rules[0]["id"] == "organization.named_again" for t, p in d.items() if "QWERTZ STŘECHY IČO" in t)


def test_a_municipal_library_is_a_public_body_and_its_curator_its_staff(rules_engine):
    analysis, d = _analyse(
        rules_engine,
        [
            "Půjčitel: MUDr. Karel Qwertz, bytem Písek, Budějovická 1180, sběratel",
            "Vypůjčitel: Městská knihovna Písek, Velké náměstí 114, 397 01 Písek, IČO: 03672816",
            "Kontakty: kurátorka výstavy Bc. Alena Qwertzová, tel. +420 382 213 318",
        ],
    )
    (library,) = [p for p in analysis.parties if p.label == "vypůjčitel"]
    assert library.kind == PartyKind.PUBLIC_BODY
    assert d["Alena Qwertzová"].action == Action.KEEP
    assert d["Karel Qwertz"].action == Action.REDACT


@pytest.mark.parametrize(
    ("line", "home"),
    [
        ("Půjčitel: Jan Qwertz, nar. 1. 2. 1980, bytem Písek, Budějovická 1180, sběratel", "Písek, Budějovická 1180"),
        ("Prodávající: Jan Qwertz, bytem Brno - Královo Pole, Palackého třída 12", "Brno - Královo Pole"),
        ("Prodávající: Jan Qwertz, bydliště: Kopřivnice, ul. Pod Bílou horou 1218", "Kopřivnice, ul. Pod"),
    ],
)
def test_a_home_written_town_first_is_redacted_whole_never_by_halves(rules_engine, line, home):
    analysis, _ = _analyse(
        rules_engine, [line, "Kupující: Obec Lhota, IČO 00283924, se sídlem Náměstí 1, 679 01 Lhota"]
    )
    (box,) = [p for p in analysis.proposals if home in " ".join(p.text.split())]
    assert box.action == Action.REDACT


def test_a_seat_written_town_first_stays_the_organisations(rules_engine):
    analysis, _ = _analyse(
        rules_engine, ["Objednatel: Statutární město Brno, se sídlem v Brně, Dominikánské nám. 1, IČO 44992785"]
    )
    (seat,) = [p for p in analysis.proposals if "Dominikánské" in p.text]
    assert seat.action == Action.KEEP and seat.text.startswith("Brně")


@pytest.mark.parametrize(
    ("email", "action"),
    [
        ("hasici.kopec@seznam.cz", Action.REVIEW),
        ("obec.lhota@seznam.cz", Action.KEEP),
        ("podatelna@lhota.cz", Action.KEEP),
    ],
)
def test_a_free_mail_address_kept_as_an_organisations_is_asked_unless_it_names_one(rules_engine, email, action):
    _, d = _analyse(
        rules_engine,
        [
            f"Objednatel: Obec Lhota, IČO 00283924, se sídlem Náměstí 1, 679 01 Lhota, e-mail: {email}",
            "Zhotovitel: ALFA STAVBY s.r.o., IČO 25596641, se sídlem Lipová 12, 602 00 Brno",
        ],
    )
    assert d[email].action == action
    if action == Action.REVIEW:
        assert d[email].reason.code == "free_mail_kept"


def test_a_companys_representative_with_no_function_is_asked_with_a_function_kept(rules_engine):
    """ "zastoupená: X" alone does not tell a statutory body (kept) from an employee (redacted)."""
    entry = "Dodavatel: ALFA STAVBY s.r.o., IČO 25596641, se sídlem Lipová 12, 602 00 Brno"
    buyer = "Objednatel: Obec Lhota, IČO 00283924, se sídlem Náměstí 1, 679 01 Lhota"
    _, d = _analyse(rules_engine, [entry, "zastoupena: Ing. Jana Qwertzová", buyer])
    assert d["Jana Qwertzová"].action == Action.REVIEW and d["Jana Qwertzová"].reason.code == "represented_only"
    _, d = _analyse(rules_engine, [entry, "zastoupena: Ing. Jana Qwertzová, jednatelka", buyer])
    assert d["Jana Qwertzová"].action == Action.KEEP
