"""The lexicon (:mod:`redactor.lexicon`): every Czech cue word of the rule layer is a form of a
family in ``data/lexicon.toml``, compiled under one OCR tolerance, and the rule layer spells no
word itself."""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

import pytest

from redactor import lexicon, rulebook
from redactor.detect.recognizers.addresses import address_context

ENGINE = Path(lexicon.__file__).parent
ROOT = ENGINE.parent


def _rule_layer():
    spec = importlib.util.spec_from_file_location("rule_layer", ROOT / "benchmarks" / "rule_layer.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _concrete(form: str) -> str:
    """A text the form stands for: a stem's further letters left out, spaces as written."""
    return form.replace("*", "")


def test_every_family_names_its_source_and_tolerance_and_has_forms():
    for family in lexicon.families().values():
        assert family.forms, family.name
        assert family.tolerance in ("exact", "ocr", "pattern"), family.name
        assert len(family.source) >= 20, family.name


def test_every_family_is_used_by_the_engine_or_its_rule_book():
    used: set[str] = set()
    for path in ENGINE.rglob("*.py"):
        if path.name == "lexicon.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                used.add(node.value)
    for record in rulebook.rules().values():  # the rule book's records name families too
        for key in ("cue", "between"):
            value = record.params.get(key, ())
            used.update([value] if isinstance(value, str) else value)
    assert sorted(set(lexicon.families()) - used) == []


def test_the_rule_layer_spells_no_czech_word_in_a_pattern():
    figures = _rule_layer().measure(ROOT)
    assert figures["regex_literals_with_words"] == 0
    assert figures["diacritic_classes"] == 0


def test_the_counter_sees_a_word_spelt_in_a_pattern(tmp_path):
    """The guard above can fail: a module spelling "bytem" in a pattern is counted."""
    layer = _rule_layer()
    module = tmp_path / "redactor" / "detect" / "spelt.py"
    module.parent.mkdir(parents=True)
    module.write_text('import re\nCUE = re.compile(r"(?:trvale )?bytem\\s*:")\nOK = re.compile(f"{x(\'bytem\')}")\n')
    assert layer.measure(tmp_path)["regex_literals_with_words"] == 1


@pytest.mark.parametrize("name", [f.name for f in lexicon.families().values() if f.tolerance == "ocr"])
def test_an_ocr_form_matches_without_diacritics_and_with_each_single_confusion(name):
    pattern = re.compile(lexicon.alternatives(name))
    for form in lexicon.forms(name):
        text = _concrete(form)
        assert pattern.fullmatch(text), (name, text)
        assert pattern.fullmatch(lexicon.fold(text)), (name, lexicon.fold(text))
        for k, c in enumerate(text):
            for group in lexicon.OCR_GLYPHS:
                if lexicon.fold(c) in group:
                    for misread in group:
                        variant = text[:k] + misread + text[k + 1 :]
                        assert pattern.fullmatch(variant), (name, variant)


def test_an_exact_form_matches_only_as_written():
    pattern = re.compile(lexicon.alternatives("office_units", folded=True))
    assert pattern.fullmatch("oddeleni")
    assert not pattern.fullmatch("odde1eni")


def test_forms_expand_their_alternatives_in_order():
    assert lexicon.expand("trval(ý|ým) pobyt(|em)") == [
        "trvalý pobyt",
        "trvalý pobytem",
        "trvalým pobyt",
        "trvalým pobytem",
    ]
    assert lexicon.expand("bytem") == ["bytem"]


def test_a_space_after_an_abbreviation_s_dot_may_be_missing():
    pattern = re.compile(lexicon.alternatives("birth_number", bounded=True), re.I)
    assert pattern.fullmatch("r.č.") and pattern.fullmatch("r. č.") and pattern.fullmatch("R. Č.")
    assert not pattern.search("určitě")  # bounded: "rč" inside a word is none


def test_an_unknown_family_is_named():
    with pytest.raises(KeyError, match="nemovitost"):
        lexicon.family("nemovitost")


@pytest.mark.parametrize(
    "cue",
    ["bydlištěm", "bydlistem", "trvalý pobyt", "trvaly pobyt", "trvale bytem", "bydIiště", "místem trvalého pobytu"],
)
def test_a_residence_cue_is_a_residence_however_ocr_read_its_letters(cue):
    text = f"Jan Novák, {cue} "
    assert address_context(text + "Lipová 12", len(text))[0] == "residence"


def test_a_seat_is_no_residence():
    text = "Obec Xaverov, se sidlem "
    assert address_context(text + "Lipová 12", len(text))[0] == "seat"
