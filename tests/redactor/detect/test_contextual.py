"""Identifiers found by their cue words, e-mail, network addresses, addresses."""

from __future__ import annotations

import pytest

from redactor import categories as cat
from tests.recognizers import run, texts


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Bc. Eva Šťastná, narozená 25. 8. 1951, trvale bytem", "25. 8. 1951"),
        ("Datum narození: 10.02.1969", "10.02.1969"),
        ("nar. 3. března 1980 v Brně", "3. března 1980"),
        ("datum narození 8. 12. 1990, e-mail", "8. 12. 1990"),
        ("Smlouva byla uzavřena dne 8. 12. 1990.", None),  # a date, but not of birth
    ],
)
def test_date_of_birth(text, expected):
    assert texts(run("date_of_birth", text)) == ([expected] if expected else [])


@pytest.mark.parametrize(
    ("text", "category", "expected"),
    [
        ("Číslo občanského průkazu: 116266656", cat.ID_CARD, "116266656"),
        ("OP č. 204587123, vydán", cat.ID_CARD, "204587123"),
        ("cestovní pas č. 41234567", cat.PASSPORT, "41234567"),
        ("řidičský průkaz č. EA 123456", cat.DRIVING_LICENCE, "EA 123456"),
        ("SIPO 1234567890", cat.SIPO, "1234567890"),
        ("spojovací číslo SIPO: 9876543210", cat.SIPO, "9876543210"),
        # issue 31: the everyday name, without SIPO beside it, in other cases and across a line
        ("nájemné hradí přes spojovací číslo 4455667788 měsíčně", cat.SIPO, "4455667788"),
        ("pod spojovacím číslem\n1029384756", cat.SIPO, "1029384756"),
        ("spoj. č. 5647382910", cat.SIPO, "5647382910"),
        ("spojovacího čísla (SIPO): 1122334455", cat.SIPO, "1122334455"),
    ],
)
def test_document_numbers_after_cues(text, category, expected):
    assert texts(run("document_number", text), category) == [expected]


def test_document_number_needs_its_cue():
    assert run("document_number", "objednávka číslo 116266656 ze dne") == []
    assert run("document_number", "číslo 1234567890 a spojovací materiál") == []


@pytest.mark.parametrize(
    ("text", "category", "expected"),
    [
        ("registrační značka 7BU 6893.", cat.VEHICLE_PLATE, "7BU 6893"),
        ("RZ: 4HT 8842", cat.VEHICLE_PLATE, "4HT 8842"),
        ("vozidlo 6B8 8285 stojí", cat.VEHICLE_PLATE, "6B8 8285"),
        ("VIN TMBM2GCKP5TAYV1EE, rok výroby", cat.VIN, "TMBM2GCKP5TAYV1EE"),
    ],
)
def test_vehicles(text, category, expected):
    assert texts(run("vehicle", text), category) == [expected]


def test_data_box_id():
    assert texts(run("data_box", "ID datové schránky: ab3cd7e")) == ["ab3cd7e"]
    assert run("data_box", "datová schránka: zřízena") == []


def test_ip_and_mac_addresses():
    found = run("network", "server 192.168.10.25, MAC 00:1A:2B:3C:4D:5E, verze 1.2.3.4.5")
    assert texts(found, cat.IP_ADDRESS) == ["192.168.10.25"]
    assert texts(found, cat.MAC_ADDRESS) == ["00:1A:2B:3C:4D:5E"]
    assert run("network", "dne 6.6.1994 a 999.1.1.1") == []


@pytest.mark.parametrize(
    ("email", "category"),
    [
        ("michal.kolar@volny.cz", cat.EMAIL_PERSONAL),
        ("v.benesova@volny.cz", cat.EMAIL_PERSONAL),
        ("machova.veronika@seznam.cz", cat.EMAIL_PERSONAL),
        ("podatelna@mesto-holesov.cz", cat.EMAIL_GENERIC),
        ("info@firma.cz", cat.EMAIL_GENERIC),
    ],
)
def test_email_personal_or_generic(email, category):
    assert texts(run("email", f"e-mail {email}, tel."), category) == [email]


@pytest.mark.parametrize(
    ("text", "expected", "category", "context"),
    [
        ("bytem Zahradní 1461/38, 276 01 Mělník, č. ú.", "Zahradní 1461/38, 276 01 Mělník", 45, "residence"),
        ("se sídlem náměstí T. G. Masaryka 145, 460 01 Mnichovo Hradiště", None, 46, "seat"),
        (
            "místo podnikání Tyršova 618/17, 269 01 Rakovník, datum",
            "Tyršova 618/17, 269 01 Rakovník",
            46,
            "place_of_business",
        ),
        ("Adresa: V Zahradách 484/46, 779 00 Olomouc", "V Zahradách 484/46, 779 00 Olomouc", 45, None),
        (
            "bytem Na Výsluní 196/34, 591 01 Žďár nad Sázavou, tel.",
            "Na Výsluní 196/34, 591 01 Žďár nad Sázavou",
            45,
            "residence",
        ),
        ("nemovitost:\nObřanská 101a\nBrno", "Obřanská 101a", 45, None),
        ("trvale bytem Lhota č. p. 12, 387 01 Volyně", "Lhota č. p. 12, 387 01 Volyně", 45, "residence"),
        ("Sídlo: Těšnov 1163/5, 110 00 Praha 1", "Těšnov 1163/5, 110 00 Praha 1", 46, "seat"),
        (  # a square's name broken before its street word (synthetic grant_1_25 leaked it)
            "trvale bytem Hostivařské\nNám. 165, 621 64 Zlín, tel.",
            "Hostivařské\nNám. 165, 621 64 Zlín",
            45,
            "residence",
        ),
        (  # a PSČ broken across lines: a street named after a person is still a street
            "IČO 09064702, Josefa Šimůnka 1792/4, 411\n12 Bystré\nPříjemce:",
            "Josefa Šimůnka 1792/4, 411\n12 Bystré",
            45,
            None,
        ),
        (  # a street whose kind follows its name in small letters
            "Odpověď zašlete na adresu Javorová alej 4/2, 150 00 Praha 5, děkuji.",
            "Javorová alej 4/2, 150 00 Praha 5",
            45,
            None,
        ),
        ("bytem Husovy sady 12, 586 01 Jihlava", "Husovy sady 12, 586 01 Jihlava", 45, "residence"),
        (  # an embankment's name broken after its first words
            "sídlo Nábřeží Ludvíka\nSvobody 2499/35, 655 20 Lázně Bělohrad, bankovní účet",
            "Nábřeží Ludvíka\nSvobody 2499/35, 655 20 Lázně Bělohrad",
            46,
            "seat",
        ),
    ],
)
def test_addresses_and_their_cues(text, expected, category, context):
    found = run("address", text)
    assert len(found) == 1
    f = found[0]
    if expected:
        assert f.text == expected
    assert f.category == category
    assert f.attributes["context"] == context


@pytest.mark.parametrize(
    "text",
    [
        "Článek 1 – Smluvní strany",
        "dne 8. 9. 2024",
        "Brno 4,00 m",
        "ČKAIT 1851288",
        "zákon 89/2012 Sb.",
        "Subdodavatelé 6",
        "Cena 3 280 191 Kč",
        "parc. č. 781 a 615",
        "budovy č. p. 350",
        "služeb uvedených v čl. III. Činí 3 220 Kč měsíčně",  # an OCR capital on a verb
        "V Praze 15. 10. 2021",  # the place and date of signing
        "V Praze 1. 5.2021",
        "Švestková 12903",  # an inventory number after a street: house numbers have four digits
    ],
)
def test_things_that_are_not_addresses(text):
    assert run("address", text) == []
