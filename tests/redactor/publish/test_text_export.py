"""Text exports (removed, tagged) built from the decisions the PDF is burned with."""

from __future__ import annotations

import json
import re

import pytest
from django.core.management import call_command
from stdnum import iban
from stdnum.cz import bankaccount, rc

from redactor.czech import nominative_candidates, same_name
from redactor.model import Box, Span
from redactor.publish.pseudonyms import Pseudonymiser, plausible_case
from redactor.publish.text_export import REMOVED_MARKER, DecidedSpan, export_layer, export_text, published_text
from redactor.publish.verify import verify
from redactor.text import count_word, normalize
from tests.conftest import DATA, SHARED_DATA

DEV = SHARED_DATA / "dev" if SHARED_DATA.is_dir() else DATA / "dev"


def _gold(name: str) -> dict:
    return json.loads((DEV / f"{name}.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def analysed(rules_engine):
    """Every dev contract (the full set when ../shared is here, else the bundled ten), analysed."""
    return {p.stem: rules_engine.analyze(p.read_bytes()) for p in sorted(DEV.glob("*.pdf"))}


def test_the_removed_export_of_a_contract(analysed):
    analysis = analysed["kupni_auto_1"]
    export = export_layer(analysis.text_layer, analysis.to_redact(), "removed")
    text = normalize(export.text)
    assert "Jméno a příjmení: […] […]" in " ".join(export.text.split())  # the title and the name
    assert export.text.count(REMOVED_MARKER) == len(export.spans) > 5
    for item in _gold("kupni_auto_1")["items"]:
        if item["expected"] == "redact":
            assert count_word(text, item["text"]) == 0, item["text"]
        else:  # kept data is untouched, as often as in the contract
            assert count_word(text, item["text"]) == item["occurrences"], item["text"]


def test_the_tagged_export_indexes_one_person_once_in_every_form(analysed):
    analysis = analysed["kupni_auto_1"]
    export = export_layer(analysis.text_layer, analysis.to_redact(), "tagged")
    text = " ".join(export.text.split())
    assert "Jméno a příjmení: [TITUL_1] [JMÉNO_1]" in text and "Rodné číslo: [RČ_1]" in text
    assert "[ÚČET_1]" in text and "Město Holešov" in text and "63 000 Kč" in text
    assert set(re.findall(r"\[JMÉNO_\d+\]", text)) == {"[JMÉNO_1]"}  # one private person


@pytest.mark.parametrize("mode", ["removed", "tagged"])
def test_no_redact_item_of_the_dev_set_survives_an_export(analysed, mode):
    """A scorer-like check over text: no gold ``redact`` string, nor its run of six or more digits."""
    for name, analysis in analysed.items():
        text = normalize(export_layer(analysis.text_layer, analysis.to_redact(), mode).text)
        digits = re.sub(r"\D", "", text)
        for item in _gold(name)["items"]:
            if item["expected"] != "redact":
                continue
            assert count_word(text, item["text"]) == 0, (name, item["text"])
            run = max(re.findall(r"\d+", item["text"]), key=len, default="")
            assert len(run) < 6 or run not in digits, (name, item["text"])


def test_every_form_of_a_gold_name_gets_one_index(analysed):
    """Each gold name (in any case) that the export tags is tagged with one index per document:
    forms that can be the same name share it."""
    checked = 0
    for name, analysis in analysed.items():
        layer = analysis.text_layer
        export = export_layer(layer, analysis.to_redact(), "tagged")
        names = [
            i["text"] for i in _gold(name)["items"] if i["expected"] == "redact" and i["category"] == "PERSON_NAME"
        ]
        for form in names:
            indexes = set()
            for other in names:
                if not same_name(form, other):
                    continue
                for m in re.finditer(r"(?<!\w)" + re.escape(other) + r"(?!\w)", layer.text):
                    hit = [i for i, (s, e) in enumerate(export.origins) if s <= m.start() and m.end() <= e]
                    assert hit, (name, other)  # every occurrence is inside a marker
                    indexes.add((export.spans[hit[0]][2], export.indexes[hit[0]]))
            assert len(indexes) == 1, (name, form, indexes)
            checked += 1
    assert checked >= 20


def test_pages_neighbours_and_page_breaks():
    text = "Jan Novák, nar. 1. 2. 1980\nPodpis: Jan Novák\nNováková Jana"
    pages = [(0, 26), (27, 44), (45, 58)]
    spans = [
        DecidedSpan(0, 3, 1, "person:1"),
        DecidedSpan(4, 9, 2, "person:1"),
        DecidedSpan(16, 26, 56, "person:1"),
        DecidedSpan(35, 38, 1, "person:1"),
        DecidedSpan(39, 44, 2, "person:1"),
        DecidedSpan(45, 53, 2, None),
        DecidedSpan(54, 58, 1, None),
    ]
    tagged = export_text(text, pages, spans, "tagged")
    assert tagged.text == "[JMÉNO_1], nar. [DATUM_NAROZENÍ_1]\fPodpis: [JMÉNO_1]\f[JMÉNO_2] [JMÉNO_3]"
    assert [tagged.text[s:e] for s, e, _ in tagged.spans] == [
        "[JMÉNO_1]",
        "[DATUM_NAROZENÍ_1]",
        "[JMÉNO_1]",
        "[JMÉNO_2]",
        "[JMÉNO_3]",
    ]
    removed = export_text(text, pages, spans, "removed")
    assert removed.text == "[…], nar. […]\fPodpis: […]\f[…] […]"
    record = json.loads(removed.to_jsonl_record("a.pdf"))
    assert record["label"][0] == [0, 3, "REMOVED"] and record["text"] == removed.text
    # a span across a page break leaves a marker on both pages
    across = export_text("ab\ncd", [(0, 2), (3, 5)], [DecidedSpan(1, 4, 12)], "removed")
    assert across.text == "a[…]\f[…]d"
    with pytest.raises(ValueError, match="unknown export mode"):
        export_text(text, pages, spans, "anonymised")
    with pytest.raises(ValueError, match="outside the text"):
        export_text(text, pages, [DecidedSpan(50, 90, 1)], "removed")


@pytest.mark.django_db
def test_the_command_writes_text_and_jsonl(tmp_path, capsys):
    sources = [str(DATA / "dev" / "kupni_auto_1.pdf"), str(tmp_path / "missing.pdf")]
    with pytest.raises(SystemExit):
        call_command("export_text", *sources, "--out-dir", str(tmp_path / "txt"))
    out = capsys.readouterr().out
    assert "kupni_auto_1.pdf: ok, removed" in out and "missing.pdf: error: cannot read the file" in out
    tagged = (tmp_path / "txt" / "kupni_auto_1.tagged.txt").read_text(encoding="utf-8")
    assert "[RČ_1]" in tagged and "Dvořáková" not in tagged
    call_command(
        "export_text", sources[0], "--out-dir", str(tmp_path / "jsonl"), "--format", "jsonl", "--mode", "tagged"
    )
    lines = (tmp_path / "jsonl" / "export-tagged.jsonl").read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[0])
    assert len(lines) == 1 and record["document"] == "kupni_auto_1.pdf" and record["mode"] == "tagged"
    assert all(record["text"][s:e].startswith(f"[{label}_") for s, e, label in record["label"])
    assert not (tmp_path / "jsonl" / "export-removed.jsonl").exists()


def test_no_redact_item_of_the_dev_set_survives_pseudonymisation(analysed):
    for name, analysis in analysed.items():
        text = normalize(export_layer(analysis.text_layer, analysis.to_redact(), "pseudonymised", b"test").text)
        digits = re.sub(r"\D", "", text)
        for item in _gold(name)["items"]:
            if item["expected"] == "redact":
                assert count_word(text, item["text"]) == 0, (name, item["text"])
                run = max(re.findall(r"\d+", item["text"]), key=len, default="")
                assert len(run) < 6 or run not in digits, (name, item["text"])
            else:
                assert count_word(text, item["text"]) == item["occurrences"], (name, item["text"])


def test_one_person_gets_one_pseudonym_in_the_case_of_each_occurrence(analysed):
    """Every form of a gold name becomes the same substitute name, declined like the original:
    the substitute's nominative is one per name, and the form keeps the original's case ending."""
    substitutes = Pseudonymiser(b"unused")  # only its grammar: nominatives of the substitutes
    checked = 0
    for name, analysis in analysed.items():
        layer = analysis.text_layer
        export = export_layer(layer, analysis.to_redact(), "pseudonymised", b"test")
        names = [
            i["text"] for i in _gold(name)["items"] if i["expected"] == "redact" and i["category"] == "PERSON_NAME"
        ]
        for form in names:
            chosen: list[set[str]] = []
            for other in names:
                if not same_name(form, other):
                    continue
                for m in re.finditer(r"(?<!\w)" + re.escape(other) + r"(?!\w)", layer.text):
                    hit = next(i for i, (s, e) in enumerate(export.origins) if s <= m.start() and m.end() <= e)
                    s, e = export.origins[hit]
                    original_words = re.findall(r"\w+", layer.text[s:e])
                    shown = export.text[export.spans[hit][0] : export.spans[hit][1]]
                    if shown.startswith("["):  # no substitute of that form: the tag, never the name
                        continue
                    new = re.findall(r"\w+", shown)[original_words.index(other)]
                    assert new != other
                    surname = substitutes.nominative(other, surname=False) not in substitutes.gazetteer.given_names
                    names_of = substitutes.gazetteer.surnames if surname else substitutes.gazetteer.given_names
                    bases = {
                        c
                        for c in nominative_candidates(new)
                        if c in names_of and c != other and plausible_case(c, new, surname=surname)
                    }
                    assert bases, (name, other, new)  # a case of some other gazetteer name
                    chosen.append(bases)
            # one substitute name: some nominative of which every substitute form is a case
            assert not chosen or set.intersection(*chosen), (name, form, chosen)
            checked += bool(chosen)
    # at least 2.75 checked name forms per contract: 50 of the shared set's 18, 28 of the bundled ten
    assert checked >= 2.75 * len(analysed), (checked, len(analysed))


def test_pseudonymised_identifiers_are_valid_and_new(analysed):
    analysis = analysed["pacht_1"]
    export = export_layer(analysis.text_layer, analysis.to_redact(), "pseudonymised", b"test")
    shown = {label: export.text[s:e] for (s, e, label), (o, f) in zip(export.spans, export.origins, strict=True)}
    originals = {
        label: analysis.text_layer.text[o:f]
        for (_s, _e, label), (o, f) in zip(export.spans, export.origins, strict=True)
    }
    assert rc.is_valid(shown["RČ"]) and shown["RČ"] != originals["RČ"]
    assert bankaccount.is_valid(shown["ÚČET"]) and shown["ÚČET"] != originals["ÚČET"]
    assert iban.is_valid(shown["IBAN"]) and shown["IBAN"] != originals["IBAN"]
    # the same seed gives the same substitutes; another seed others
    again = export_layer(analysis.text_layer, analysis.to_redact(), "pseudonymised", b"test")
    other = export_layer(analysis.text_layer, analysis.to_redact(), "pseudonymised", b"other")
    assert again.text == export.text and other.text != export.text


@pytest.mark.parametrize(
    ("original", "male"),
    [("7504031238", True), ("755403/1239", False), ("0571011230", False), ("530401123", True)],
)
def test_a_substitute_birth_number_keeps_form_and_sex(original, male):
    for seed in (b"a", b"b", b"c"):
        new = Pseudonymiser(seed).birth_number(original)
        assert new is not None and rc.is_valid(new.replace("/", "")) and new != original
        assert ("/" in new) == ("/" in original) and len(new) == len(original)
        assert (int(new.replace("/", "")[2:4]) < 50) == male


@pytest.mark.parametrize(
    ("form", "expected"),
    [
        ("Novákovi", "Novák"),
        ("Janovi", "Jan"),
        ("Janě", "Jana"),
        ("Petře", "Petra"),
        ("Marka", "Marek"),
        ("Karlovi", "Karel"),
        ("Vlastimilovi", "Vlastimil"),
        ("Novákovou", "Nováková"),
        ("Jiřího", "Jiří"),
    ],
)
def test_the_nominative_of_a_declined_name(form, expected):
    pseudo = Pseudonymiser(b"x")
    surname = expected in ("Novák", "Nováková")
    assert pseudo.nominative(form, surname=surname) == expected
    substitute = pseudo.name_word(form, surname=surname)
    if substitute is not None:  # declined like the original: the same case of another name
        base = pseudo.nominative(substitute, surname=surname)
        assert base != expected and plausible_case(base, substitute, surname=surname)


# -- the companion text published beside the PDF -------------------------------------------------


def test_the_published_text_keeps_every_kept_item_and_no_redacted_one(rules_engine, analysed):
    analysis = analysed["kupni_auto_1"]
    result = rules_engine.redact(analysis.document, analysis.to_redact())
    companion = result.text
    assert result.verification.checks["companion_chars"] == len(companion) > 500
    assert companion.count("\f") == len(analysis.pages) - 1
    assert all(c.isprintable() or c in "\n\f" for c in companion)  # plain text, nothing else in it
    text = normalize(companion)
    digits = re.sub(r"\D", "", text)
    for item in _gold("kupni_auto_1")["items"]:
        if item["expected"] == "redact":
            assert count_word(text, item["text"]) == 0, item["text"]
            run = max(re.findall(r"\d+", item["text"]), key=len, default="")
            assert len(run) < 6 or run not in digits, item["text"]
        else:
            assert count_word(text, item["text"]) == item["occurrences"], item["text"]


def test_the_published_text_of_every_dev_contract_matches_its_gold(rules_engine, analysed):
    """Scored like the PDF by the shared scorer: no ``redact`` string (nor its run of six or more
    digits), every ``keep`` string as often as the contract has it."""
    for name, analysis in analysed.items():
        text = normalize(rules_engine.redact(analysis.document, analysis.to_redact()).text)
        digits = re.sub(r"\D", "", text)
        for item in _gold(name)["items"]:
            found = count_word(text, item["text"])
            if item["expected"] == "redact":
                run = max(re.findall(r"\d+", item["text"]), key=len, default="")
                assert found == 0 and (len(run) < 6 or run not in digits), (name, item["text"])
            else:
                assert found >= item["occurrences"], (name, item["text"])


def test_a_box_over_part_of_a_word_hides_those_characters_in_the_published_text(analysed):
    """A reviewer's box without a span (drawn over the page) still removes what it covers."""
    layer = analysed["kupni_auto_1"].text_layer
    start = layer.text.index("Holešov")
    page, x0, y0, _x1, y1 = layer.boxes[start]
    _p, _x0, _y0, x1, _y1 = layer.boxes[start + 2]
    whole = published_text(layer, [], [])
    assert REMOVED_MARKER not in whole and whole.count("Holešov") == layer.text.count("Holešov") > 0
    covered = published_text(layer, [], [Box(page, x0 + 0.5, y0 + 0.5, x1 - 0.5, y1 - 0.5)])
    assert covered.count("Holešov") == whole.count("Holešov") - 1 and f"{REMOVED_MARKER}ešov" in covered
    # a box on the line below that grazes the line's character boxes (as tall as the line) does
    # not take its characters: burn-in does not remove them from the PDF either
    below = Box(page, x0 - 20, y1 - 2, x1 + 20, y1 + 12)
    assert published_text(layer, [], [below]).count("Holešov") == whole.count("Holešov")
    # words burn-in left out (an OCR box overlapping a box) go too; with the spaces between
    # them, neighbouring runs are one marker
    word_end = layer.text.index(" ", start + 8)
    left_out = [Span(start, start + 7), Span(start + 8, word_end)]
    assert published_text(layer, [], [], left_out).count(REMOVED_MARKER) == 1


def test_verification_reads_the_published_text_like_an_extractor(rules_engine, analysed):
    analysis = analysed["kupni_auto_1"]
    result = rules_engine.redact(analysis.document, analysis.to_redact())
    secret = next(p.text for p in analysis.to_redact() if p.category_name.startswith("Birth"))
    leaky = verify(result.pdf, [secret], companion_text=result.text + "\n" + secret)
    assert not leaky.ok and any(p.startswith("companion text: redacted value") for p in leaky.problems)
    assert secret not in " ".join(leaky.problems)  # the problem does not quote the value
    assert verify(result.pdf, [secret], companion_text=result.text).ok
