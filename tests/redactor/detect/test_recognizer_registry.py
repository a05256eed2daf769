"""The recognizer registry as data: which recognizers, in which order, with which context
words, and the one declared dependency between recognizers."""

from __future__ import annotations

import pytest

from redactor import categories as cat
from redactor.detect.nlp import NlpArtifacts
from redactor.detect.recognizers.base import AnalysisContext, Recognizer
from redactor.detect.recognizers.registry import (
    DEFAULT_RECOGNIZERS,
    RECOGNIZERS,
    RecognizerConfig,
    default_registry,
)
from redactor.text import sentence_spans

TEXT = "Prodávající: Jan Novák, bytem Palackého 12, 110 00 Praha 1, účet č. 19-2000145399/0800."


def _analyze(registry, text: str = TEXT):
    return registry.analyze(AnalysisContext(text, NlpArtifacts(), sentence_spans(text)))


def test_the_default_configuration_runs_every_recognizer_once():
    assert sorted(c.name for c in DEFAULT_RECOGNIZERS) == sorted(RECOGNIZERS)
    registry = default_registry(nlp_enabled=False)
    assert [r.name for r in registry.recognizers] == [c.name for c in DEFAULT_RECOGNIZERS]
    assert registry.get("person").reads == ("organization", "address", "email")


def test_an_order_that_breaks_a_declared_dependency_is_refused():
    names = [c.name for c in DEFAULT_RECOGNIZERS]
    config = tuple(RecognizerConfig(n) for n in ["person", *[n for n in names if n != "person"]])
    with pytest.raises(ValueError, match="must run before \\['person'\\]"):
        default_registry(nlp_enabled=False, config=config)


@pytest.mark.parametrize(("context", "score"), [(DEFAULT_RECOGNIZERS[1].context, 0.95), ((), 0.8)])
def test_context_words_come_from_the_configuration(context, score):
    assert DEFAULT_RECOGNIZERS[1].name == "bank_account"
    config = (RecognizerConfig("bank_account", context=context),)
    (found,) = _analyze(default_registry(config=config))
    assert found.text == "19-2000145399/0800" and found.score == score
    assert ("cue" in found.evidence) == bool(context)


class _Street(Recognizer):
    """Claims the street "Jana Nováka 12" as an address, under a name the person recognizer
    does not read."""

    name = "street"

    def analyze(self, context):
        start = context.text.index("Jana Nováka")
        return [self.finding(cat.ADDRESS_RESIDENCE, start, start + 14, context.text, 1.0, "test")]


def test_a_recognizer_sees_only_the_findings_it_reads():
    text = "Prodávající: Eva Malá, bytem Jana Nováka 12, 110 00 Praha 1."
    registry = default_registry(nlp_enabled=False)
    for first, street_read_as_person in ((registry.get("address"), False), (_Street(), True)):
        found = _analyze(type(registry)([first, registry.get("person")]), text)
        persons = [f.text for f in found if f.recognizer == "person"]
        assert ("Jana Nováka" in persons) == street_read_as_person, persons
        assert "Eva Malá" in persons
