"""Checksummed identifiers, driven by the shared test vectors (../shared/data/identifiers)."""

from __future__ import annotations

import csv

import pytest

from redactor import categories as cat
from redactor.detect.nlp import NlpArtifacts
from redactor.detect.recognizers.base import AnalysisContext
from redactor.model import Span
from redactor.text import sentence_spans
from tests.conftest import DATA
from tests.recognizers import default_recognizer, run, texts

#: Vectors on which the TSV's source libraries disagree with python-stdnum, our validator.
#: The TSV's ``note`` column names the policy difference; we follow stdnum.
POLICY_DIFFERENCES = {
    ("rodne_cislo", "404040404"): "HavitFramework accepts month 40 as 'cannot validate'; stdnum rejects it",
    ("rodne_cislo", "404040/404"): "same vector with a slash",
    ("DIC (VAT)", "CZ 25557481"): "eu_vat test list; wrong check digit for cz.dic",
    ("DIC (VAT)", "CZ 48207726"): "eu_vat test list; wrong check digit for cz.dic",
    ("DIC (VAT)", "CZ 640913926"): "eu_vat test list; wrong special-case check digit",
    ("DIC (VAT)", "CZ 8058018314"): "eu_vat test list; not a valid birth number",
    ("DIC (VAT)", "CZ 95123891"): "eu_vat test list; legal-entity DIČ may not start with 9",
    ("DIC (VAT)", "CZ CZ 61467839"): "doubled country code; not a DIČ as written in a contract",
}


def _vectors(kind: str) -> list:
    rows = []
    with open(DATA / "identifiers" / "identifier_vectors.tsv", encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            if row["country"] != "CZ" or not row["id_type"].startswith(kind):
                continue
            valid = row["expected"] in ("valid", "check-digit-test")
            reason = POLICY_DIFFERENCES.get((row["id_type"], row["value"]))
            marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
            rows.append(pytest.param(row["value"], valid, id=f"{row['value']}-{row['expected']}", marks=marks))
    return rows


@pytest.mark.parametrize(("value", "valid"), _vectors("rodne_cislo"))
def test_birth_number_vectors(value, valid):
    found = texts(run("birth_number", f"Jan Novák, r. č. {value}, bytem Praha"), cat.BIRTH_NUMBER)
    assert (found == [value]) is valid


@pytest.mark.parametrize(("value", "valid"), _vectors("bank_account"))
def test_bank_account_vectors(value, valid):
    found = texts(run("bank_account", f"na účet č. {value} do 10 dnů"), cat.BANK_ACCOUNT)
    assert (found == [value]) is valid


@pytest.mark.parametrize(("value", "valid"), _vectors("DIC"))
def test_dic_vectors(value, valid):
    written = value if value.upper().startswith("CZ") else f"CZ{value}"
    found = run("dic", f"DIČ: {written}, zapsaná v rejstříku")
    assert bool(found) is valid
    if valid:
        assert found[0].text == written.strip()


@pytest.mark.parametrize(("value", "valid"), _vectors("ICO"))
def test_ico_vectors(value, valid):
    found = texts(run("ico", f"IČO: {value}, DIČ nemá"), cat.ICO)
    assert (found == [value]) is valid


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("r.č. 830623/4849", "830623/4849"),
        ("rodné číslo: 8306234849", "8306234849"),  # without the slash, after a cue
        ("narozena 6952103400 v Praze", "6952103400"),  # +50 months (a woman)
        ("r. č. 045229/1234", None),  # checksum fails
        ("RČ 450101/123", "450101/123"),  # nine digits before 1954
        ("číslo 450101123 je", None),  # nine bare digits without a cue are not enough
        ("tel. 6952103400", "6952103400"),  # ten digits with a valid checksum and date
        ("účet 1733836467/5500", None),  # a bank account, not a birth number
        ("r. č. 830623/\n4849, bytem", "830623/\n4849"),  # broken after the slash at a line end
    ],
)
def test_birth_number_formats(text, expected):
    found = texts(run("birth_number", text))
    assert found == ([expected] if expected else [])


def test_bank_account_split_across_a_line_after_its_hyphen_is_one_account():
    assert texts(run("bank_account", "na účet č. 77243-1231372578/2700.")) == ["77243-1231372578/2700"]


def _scanned(text: str) -> AnalysisContext:
    """``text`` as OCR read it from a scan's pixels."""
    return AnalysisContext(text, NlpArtifacts(), sentence_spans(text), from_pixels=[Span(0, len(text))])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Číslo účtu: 315720400/2010", "315720400/2010"),  # check digit fails, cue, Fio banka
        ("č. ú. 315720400/0800", "315720400/0800"),
        ("Číslo účtu: 315720400/9999", None),  # no such bank
        ("Číslo účtu: 86458/0800", None),  # too short to be taken without its check digit
        ("Smlouva 315720400/2010 ze dne", None),  # no cue
        ("Bankovní spojení: Komerční banka, a.s., pobočka Xaverov 315720400/2010", None),  # cue too far
    ],
)
def test_an_account_read_by_ocr_after_its_cue_is_one_though_its_check_digit_fails(text, expected):
    recognizer = default_recognizer("bank_account")
    recognizer.load()
    found = texts(recognizer.analyze(_scanned(text)), cat.BANK_ACCOUNT)
    assert found == ([expected] if expected else [])
    # typed text is what its author wrote: there the check digit decides
    assert texts(run(recognizer, text), cat.BANK_ACCOUNT) == []


def test_statute_references_are_not_accounts():
    assert run("bank_account", "zákon č. 89/2012 Sb., občanský zákoník, a 340/2015 Sb.") == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("IBAN CZ29 0100 8367 1334 3580 3623", "CZ29 0100 8367 1334 3580 3623"),
        ("IBAN CZ29 0100 8367 1334 3580\n3623, BIC", "CZ29 0100 8367 1334 3580\n3623"),
        ("IBAN: CZ6508000000192000145399.", "CZ6508000000192000145399"),
        ("IBAN CZ29 0100 8367 1334 3580 3624", None),  # mod 97 fails
    ],
)
def test_iban(text, expected):
    assert texts(run("iban", text)) == ([expected] if expected else [])


@pytest.mark.parametrize(
    ("text", "expected", "holder"),
    [
        ("DIČ: CZ32154712", "CZ32154712", "legal_person"),
        ("DIČ CZ 264 67 704", "CZ 264 67 704", "legal_person"),
        ("DIČ: CZ6952103400", "CZ6952103400", "natural_person"),  # CZ + birth number
        ("DIČ: CZ32154713", None, None),
    ],
)
def test_dic_tells_natural_from_legal_person(text, expected, holder):
    found = run("dic", text)
    assert texts(found) == ([expected] if expected else [])
    if expected:
        assert found[0].holder == holder


@pytest.mark.parametrize(
    "phone",
    [
        "+420 723 551 453",
        "+420774158127",
        "731494339",
        "702 974 254",
        "702 974\n254",
        "+420 602-123-456",
        "00420 603 061 476",
        "603 06 14 76",
    ],
)
def test_phone_spacings(phone):
    assert texts(run("phone", f"Kontakt: tel. {phone}, e-mail níže")) == [phone]


def test_a_phone_whole_at_the_end_of_its_line_is_read_before_a_line_of_other_digits():
    """A sole trader's stamp on a real lease ends "tel.: 603 817 091" over the page number "3":
    read as one number with it, the phone was no phone and went to review as a mistyped number."""
    assert texts(run("phone", "IČO: 152 64 530\ntel.: 603 817 091\n3\n/\n")) == ["603 817 091"]
    assert texts(run("phone", "Tel.: 603 817 091\nIČO: 15264530")) == ["603 817 091"]


def test_a_phone_after_an_organisations_service_is_the_organisations():
    """The fire-reporting reception of the Chamber's buildings in the safety annex of every
    assistant contract ("volat ohlašovnu požáru (recepce) na tel. 257171509") was redacted as a
    private person's phone: no person answers a reception, a registry office or a help line."""
    found = run("phone", "Požár je nutné ohlásit a volat ohlašovnu požáru (recepce) na tel. 257171509 nebo 1508.")
    assert [(f.text, f.attributes.get("service")) for f in found] == [("257171509", "ohlašovnu")]
    found = run("phone", "Recepce je v přízemí. Pronajímatel: Jan Novák, tel. 777 123 456.")
    assert [f.attributes.get("service") for f in found] == [None]


def test_inventory_numbers_without_a_cue_are_no_phones_unless_grouped_as_phones():
    """Cells of a real inventory of a water network ("27-39 60648", "8-10-12 1596", "21819 8503")
    are valid fixed-line numbers to libphonenumber and were redacted as phones; without a context
    word a fixed-line number must be grouped as phones are written. A mobile needs no cue."""
    assert run("phone", "9072 K.P. 27-39 60648 x\npoložka 8-10-12 1596\nsíť 21819 8503") == []
    assert texts(run("phone", "Sídlo: Praha, 257 171 111")) == ["257 171 111"]
    assert texts(run("phone", "Jan Novák, 777 12 34 56, jan@example.cz")) == ["777 12 34 56"]


def test_a_fixed_line_number_in_a_column_of_figures_is_no_phone():
    """A real inventory's price column ("17954355⏎200322907⏎2218803") and its rows opening with
    inventory numbers ("…ST.355⏎112480 SPL KANAL⏎78470 KANAL") gave valid fixed-line numbers
    without a cue, proposed as phones. A phone opening its line next to other figures is a cell."""
    assert run("phone", "11720910\n17954355\n200322907\n2218803\n18525594") == []
    assert run("phone", "celkem:\nPor.cena\n2297689\n50853\n485102437\nopravky Nasev") == []
    assert run("phone", "75306 V.R.JUNDROV-ZAPAD ST.355\n112480 SPL KANAL-KOMÍN\n78470 KANAL KABÁTNÍKOVA") == []
    # a phone in a contact block, under an address, with a cue, or a mobile among figures stays a phone
    assert texts(run("phone", "Jan Novák\n545 212 111\njan@example.cz")) == ["545 212 111"]
    assert texts(run("phone", "Lipová 12\n602 00 Brno\n545 212 111")) == ["545 212 111"]
    assert texts(run("phone", "17954355\ntel. 200322907\n2218803")) == ["200322907"]
    assert texts(run("phone", "17954355\n777123456\n2218803")) == ["777123456"]


@pytest.mark.parametrize(
    "text",
    ["Cena činí 224 000 Kč", "IČO: 32154712", "ČKAIT 1851288", "dne 6. 6. 1994", "cena 123 456 789 Kč"],
)
def test_things_that_are_not_phones(text):
    assert run("phone", text) == []


def test_payment_card_needs_luhn_and_a_cue():
    assert texts(run("payment_card", "platební karta 4111 1111 1111 1111")) == ["4111 1111 1111 1111"]
    assert run("payment_card", "platební karta 4111 1111 1111 1112") == []
    assert run("payment_card", "číslo zakázky 4111 1111 1111 1111") == []
