"""Text exports (removed, tagged) built from the decisions the PDF is burned with."""

from __future__ import annotations

import json
import re

import pytest
from django.core.management import call_command

from redactor.core.czech import same_name
from redactor.core.text_export import REMOVED_MARKER, DecidedSpan, export_layer, export_text
from redactor.core.verify import count_word, normalize
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
        export_text(text, pages, spans, "pseudonymised-later")
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
