"""The rule book (:mod:`redactor.rulebook`): every record names its source, has invented examples
and counter-examples that its kind's harness runs (``benchmarks/rule_book.py``), and every rule
of the product has its record; the proposals name the rules that made and decided them."""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

import pytest

from redactor import categories as cat
from redactor import rulebook
from redactor.decide.rules import LearnedRule, apply_rules
from redactor.detect.recognizers.registry import DEFAULT_RECOGNIZERS
from redactor.engine import RedactionEngine
from tests.pdfs import pdf_from_paragraphs

ENGINE = Path(rulebook.__file__).parent
ROOT = ENGINE.parent
RULES = ENGINE / "data" / "rules.toml"


def _harness():
    spec = importlib.util.spec_from_file_location("rule_book", ROOT / "benchmarks" / "rule_book.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


HARNESS = _harness()


@pytest.mark.parametrize("rule_id", sorted(rulebook.rules()))
def test_every_record_does_what_its_examples_and_counter_examples_say(rule_id):
    failures, _known, stale = HARNESS.check(rulebook.rule(rule_id))
    assert failures == [], "\n".join(failures)
    assert stale == [], f"known failures that now pass (remove them from the data): {stale}"


def test_a_known_failure_is_named_and_counted_not_hidden():
    record = rulebook.rule("certification.clause")
    failures, known, stale = HARNESS.check(record)
    assert failures == [] and stale == [] and len(known) == len(record.known_failures) >= 1


def test_the_harness_fails_a_record_whose_example_is_wrong():
    record = rulebook.rule("id_card.after_cue")
    wrong = rulebook.Rule(**{**record.__dict__, "examples": ("smlouva č. [[123456789]]",)})
    assert HARNESS.check(wrong)[0]


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"id": "x", "kind": "regex"}, "kind"),
        ({"id": "x", "kind": "code", "function": "m:f", "examples": ["a"], "counters": ["b"]}, "source"),
        ({"id": "x", "kind": "code", "function": "m:f", "source": "s", "examples": ["a"]}, "counter"),
        ({"id": "x", "kind": "veto", "source": "s", "examples": ["a"], "counters": ["b"]}, "recognizer"),
        ({"id": "x", "kind": "code", "function": "m:f", "source": "s", "examples": ["a"], "counters": ["b"]}, "name"),
    ],
)
def test_a_record_without_its_kind_source_examples_or_name_is_refused(entry, message):
    with pytest.raises(ValueError, match=message):
        rulebook._record(entry)


def test_ids_are_unique_in_the_data_file():
    ids = re.findall(r'^id = "([^"]+)"', RULES.read_text(encoding="utf-8"), re.M)
    assert len(ids) == len(set(ids)) == len(rulebook.rules())


def test_every_record_names_a_class_of_document_or_a_source_and_a_priority():
    for record in rulebook.rules().values():
        assert record.origin and 0 <= record.priority <= 100, record.id
        assert record.title("cs") != record.title("en"), record.id


def _makers() -> set[str]:
    """Every name a finding or a proposal of the product is made by (``recognizer=``)."""
    names = {c.name for c in DEFAULT_RECOGNIZERS}
    for path in (ENGINE / "decide").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.keyword) and node.arg == "recognizer" and isinstance(node.value, ast.Constant):
                names.add(node.value.value)
            if not isinstance(node, ast.Call):
                continue
            position = {"Finding": 4, "add": 1}.get(getattr(node.func, "id", ""))  # the recognizer's argument
            if position is not None and len(node.args) > position:
                argument = node.args[position]
                if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                    names.add(argument.value)
    names.update({"agency_profile", "earlier_redaction", "earlier_whiteout"})
    # an agency's learned rule names itself ("agency:<pk>"); the document numbers' recognizer names
    # the record it interprets on every finding
    return names - {"agency_rule", "document_number"}


def test_every_recognizer_and_maker_of_the_product_has_its_record():
    makers = _makers()
    assert {"person", "phone", "cued_number", "ink", "repeated_value", "ocr_doubt"} <= makers
    assert sorted(m for m in makers if rulebook.made_by(m).startswith("recognizer:")) == []


def test_every_record_is_applied_by_the_product():
    """A record's recognizer exists, its function imports, and an id named in code is a record."""
    names = {c.name for c in DEFAULT_RECOGNIZERS}
    for record in rulebook.rules().values():
        if "recognizer" in record.params:
            assert record.params["recognizer"] in names, record.id
        if record.kind == "code":
            assert callable(HARNESS._function(record)), record.id
    named_in_code = set()
    for path in ENGINE.rglob("*.py"):
        named_in_code.update(re.findall(r'rule="([a-z_.]+)"', path.read_text(encoding="utf-8")))
    assert named_in_code <= set(rulebook.rules())


def test_a_word_added_to_a_family_takes_effect_in_the_records_that_name_it(monkeypatch):
    """The document numbers are interpreted from the records: a cue word added to the lexicon's
    family is found at once, without a line of code."""
    from redactor import lexicon
    from redactor.detect.recognizers.contextual import DocumentNumberRecognizer
    from tests.recognizers import run

    text = "legitimace č. 123456789"
    assert not run(DocumentNumberRecognizer(), text)
    family = lexicon.family("id_card")
    added = lexicon.Family(family.name, (*family.forms, "legitimace"), family.tolerance, family.source)
    monkeypatch.setitem(lexicon.families(), "id_card", added)
    lexicon.alternatives.cache_clear()
    try:
        found = run(DocumentNumberRecognizer(), text)
    finally:
        monkeypatch.undo()
        lexicon.alternatives.cache_clear()
    assert [(f.category, f.text, f.rules[0]["id"]) for f in found] == [(cat.ID_CARD, "123456789", "id_card.after_cue")]


@pytest.fixture(scope="module")
def analysis():
    return RedactionEngine().analyze(
        pdf_from_paragraphs(
            [
                "Kupní smlouva",
                "Prodávající: Jan Novák, nar. 1. 2. 1980, OP č. AB 654321, bytem Lipová 12, 602 00 Brno",
                "Kupující: Obec Lhota, IČO 00283924, zastoupená starostou Ing. Petrem Dvořákem",
                "Totožnost prodávajícího byla ověřena dokladem AB 654321.",
            ]
        )
    )


def test_every_proposal_names_the_rules_that_made_and_decided_it(analysis):
    by_text = {}
    for p in analysis.proposals:
        assert p.rules and p.rules[-1]["id"] == f"decision:{p.reason.code}", p.text
        for hit in p.rules[:-1]:
            assert hit["id"] in rulebook.rules() and hit["saw"], (p.text, hit)
        by_text.setdefault(p.text, []).append([h["id"] for h in p.rules[:-1]])
    assert ["id_card.after_cue"] in by_text["AB 654321"]
    assert ["id_card.after_cue", "repeats.same_value"] in by_text["AB 654321"]  # the second print, by repetition
    assert by_text["1. 2. 1980"] == [["birth_date.after_cue"]]
    saw = next(p.rules[0]["saw"] for p in analysis.proposals if p.text == "1. 2. 1980")
    assert "nar." in saw  # what the rule saw: the cue word
    assert analysis.proposals[0].to_dict()["rules"] == analysis.proposals[0].rules


def test_an_agency_rule_that_decides_a_proposal_names_itself_as_the_decision(analysis):
    rule = LearnedRule(7, "phrase", "Jan Novák", keep_votes=0, redact_votes=3)
    layer = analysis.text_layer
    outcome = apply_rules([rule], layer.text, analysis.proposals, layer.span_boxes)
    decided = next(p for p in outcome.proposals if p.text == "Jan Novák")
    assert decided.rules[-1]["id"] == "agency:7" and "Jan Novák" in decided.rules[-1]["saw"]
    assert not any(h["id"].startswith("decision:") for h in decided.rules)
    record = rule.record()  # a learned rule is a record of the book's shape, above the book's rules
    assert (record.id, record.kind, record.params["expect"]) == ("agency:7", "holder", "redact")
    assert record.priority > max(r.priority for r in rulebook.rules().values())
    assert rulebook.marked(record.examples[0]) == ("Jan Novák", [(0, 9)])
