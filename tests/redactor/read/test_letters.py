"""The letters a reader reads (redactor.read.letters) and the values as people write them: one
normalisation before every recognizer, with counter-examples that must stay as written."""

from __future__ import annotations

import unicodedata

import pytest

from redactor import categories as cat
from redactor.read.layout import letter_spaced
from redactor.read.letters import read_as_letters, reader_letters
from redactor.read.lying_layer import agreement
from tests.recognizers import run, texts


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("No\u200bvák", "Novák"),  # zero-width space
        ("780101/12\u206029", "780101/1229"),  # word joiner
        ("Kra\u00adlíková", "Kralíková"),  # soft hyphen inside a word
        (unicodedata.normalize("NFD", "Řezníček"), "Řezníček"),  # decomposed accents
        ("J\u0430n N\u043evák", "Jan Novák"),  # Cyrillic а, о in Latin words
        ("Κarel", "Karel"),  # a Greek capital kappa
        ("\u202eNovák\u202c", "Novák"),  # bidirectional override (category Cf)
    ],
)
def test_what_a_reader_reads(written, read):
    assert reader_letters(written)[0] == read


@pytest.mark.parametrize(
    "kept",
    [
        "Иван Петров",  # a Cyrillic name stays Cyrillic
        "Čeněk Řehoř 0800",  # Czech letters and a zero: neither NFKC nor a skeleton
        "ﬁrma",  # a ligature is a letter a reader reads, left to the recognizers
        "Kralíko-\nvá",
    ],
)
def test_what_stays_as_written(kept):
    assert reader_letters(kept)[0] == kept


def test_a_soft_hyphen_at_a_line_end_is_the_hyphen_a_reader_sees():
    assert reader_letters("Kralíko\u00ad\nvá")[0] == "Kralíko-\nvá"


def test_each_letter_keeps_its_source_and_a_composed_letter_the_union_of_boxes():
    read, source = reader_letters("Rˇa\u200bb")
    assert read == "Rˇab" and source == [0, 1, 2, 4]
    chars = [
        {"c": "a", "bbox": (0, 0, 5, 10)},
        {"c": "\u0301", "bbox": (1, -3, 4, 2)},
        {"c": "\u200b", "bbox": (5, 0, 5, 10)},
        {"c": "b", "bbox": (5, 0, 10, 10)},
    ]
    out = read_as_letters(chars)
    assert [c["c"] for c in out] == ["á", "b"]
    assert out[0]["bbox"] == (0, -3, 5, 10) and out[1]["bbox"] == (5, 0, 10, 10)
    assert chars[0]["c"] == "a"  # the input is not changed


def _chars(text: str, gap: float, synthetic: bool) -> list[dict]:
    out, x = [], 0.0
    for ch in text:
        if ch == " ":
            out.append({"c": " ", "bbox": (x, 0, x + gap, 10), "synthetic": synthetic})
            x += gap
        else:
            out.append({"c": ch, "bbox": (x, 0, x + 5, 10), "synthetic": False})
            x += 5
    return out


def test_digits_the_file_spaces_stay_apart_and_letters_the_extractor_spaced_join():
    spaced = "".join(c["c"] for c in letter_spaced(_chars("m o b i l 6 0 3 1 8", 3, synthetic=True)))
    assert spaced == "mobil603" + "18"  # letter spacing the extractor inserted: one word
    written = _chars("mobil 6 0 3 1 8 1 2 7 2", 3, synthetic=False)
    assert "".join(c["c"] for c in letter_spaced(written)) == "mobil 6 0 3 1 8 1 2 7 2"


def test_agreement_of_a_layer_and_its_picture():
    assert agreement("Zhotovitel: Jan Novák", "Zhotovitel: Jan Novak", digits=False) > 0.9
    assert agreement("Aipipwjufm; Kbo Opwâl", "Zhotovitel: Jan Novák", digits=False) < 0.5
    assert agreement("r. č. 891212/2339", "r. č. 780101/1229", digits=True) < 0.5
    assert agreement("r. č. 780101/1229", "r. č. 78O101/1229", digits=True) > 0.8  # one misread digit


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("rodné číslo 72 05 18 / 1038, bytem", ["72 05 18 / 1038"]),
        ("r. č.: 72 05 18/1038", ["72 05 18/1038"]),
        ("rodné číslo 72 05 18 1038", ["72 05 18 1038"]),  # without the slash after its cue
        ("položky 72 05 18 1038 a 44", []),  # four numbers of a table, no cue, no slash
        ("rodné číslo 72 05 18 / 1039", []),  # the checksum fails
    ],
)
def test_a_birth_number_written_in_pairs(text, expected):
    assert [f.text for f in run("birth_number", text) if f.score > 0] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Jana Nováková, narozena osmého června 1981, bytem", "osmého června 1981"),
        ("nar. dvacátého prvního května 1975", "dvacátého prvního května 1975"),
        ("smlouva uzavřena dne osmého června 2024", None),  # a date in words, not of birth
    ],
)
def test_a_date_of_birth_in_words(text, expected):
    assert texts(run("date_of_birth", text)) == ([expected] if expected else [])


@pytest.mark.parametrize(
    ("text", "expected", "category"),
    [
        ("adresa novak.jan[at]email[dot]cz, tel", "novak.jan[at]email[dot]cz", cat.EMAIL_PERSONAL),
        ("jan.novak(zavináč)post(tečka)cz", "jan.novak(zavináč)post(tečka)cz", cat.EMAIL_PERSONAL),
        ("pište na info [at] firma [dot] cz", "info [at] firma [dot] cz", cat.EMAIL_GENERIC),
    ],
)
def test_an_email_whose_dots_are_spelt_out(text, expected, category):
    assert texts(run("email", text), category) == [expected]


def test_a_dot_spelt_out_without_an_at_is_no_address():
    assert texts(run("email", "viz bod [dot] 3 a www[dot]firma[dot]cz")) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("na účet č. 19 – 2000145399 \\ 0800.", ["19 – 2000145399 \\ 0800"]),
        ("na účet 2000 1453 99 / 0800.", ["2000 1453 99 / 0800"]),
        ("na účet 2000\n1453 99 / 0800.", ["2000\n1453 99 / 0800"]),
        ("v ceně 2 000 145 399 / 0800 Kč", []),  # groups of three are an amount; the checksum fails
        ("položka 2000 1453 98 / 0800", []),  # the checksum fails
    ],
)
def test_an_account_with_unusual_separators(text, expected):
    assert texts(run("bank_account", text)) == expected
