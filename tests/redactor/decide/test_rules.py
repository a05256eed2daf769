"""Agency rules on the engine side: matching across Czech inflection, thresholds, precedence
between rules and the engine, occurrences only a rule knows."""

from __future__ import annotations

from dataclasses import replace

import pytest

from redactor import categories as cat
from redactor.decide.rules import (
    PERSON,
    PHRASE,
    LearnedRule,
    apply_rules,
    find_occurrences,
    person_match,
    phrase_match,
    tokens,
)
from redactor.model import Action, Box, ProposedRedaction, Span
from redactor.reasons import Reason


@pytest.mark.parametrize(
    "form",
    ["Obec Horní Lhota", "Obce Horní Lhoty", "Obci Horní Lhotě", "obec Horní Lhota", "OBEC HORNÍ LHOTA"],
)
def test_a_phrase_matches_its_inflected_forms(form):
    pattern = tokens("Obec Horní Lhota")
    if form[0].islower():
        assert not phrase_match(pattern, tokens(form))  # a common noun is another word
    else:
        assert phrase_match(pattern, tokens(form))


@pytest.mark.parametrize("other", ["Obec Dolní Lhota", "Horní Lhota", "Obec Horní Lhota u Brna", "Obec Horní Lhotka"])
def test_a_phrase_does_not_match_other_words(other):
    assert not phrase_match(tokens("Obec Horní Lhota"), tokens(other))


def test_numbers_must_be_equal():
    assert phrase_match(tokens("870312/1234"), tokens("870312 / 1234"))
    assert not phrase_match(tokens("870312/1234"), tokens("870312/1235"))


@pytest.mark.parametrize("form", ["Radek Blažek", "Radkem Blažkem", "Radku Blažkovi", "Blažek Radek", "BLAŽKA Radka"])
def test_a_person_rule_matches_the_name_in_any_form_and_order(form):
    assert person_match(tokens("Radek Blažek"), tokens(form))


def test_a_person_rule_needs_both_names():
    assert not person_match(tokens("Radek Blažek"), tokens("Radek Novák"))
    assert not person_match(tokens("Radek Blažek"), tokens("Blažek"))


def test_find_occurrences_across_lines_and_forms():
    text = "Obec Horní Lhota prodává.\nObci Horní\nLhotě patří pozemek. Obec Dolní Lhota nic."
    found = [text[s.start : s.end] for s in find_occurrences(text, tokens("Obec Horní Lhota"))]
    assert found == ["Obec Horní Lhota", "Obci Horní\nLhotě"]


def _proposal(pid, text, start, action=Action.REDACT, category=cat.COMPANY_NAME, cluster=None):
    return ProposedRedaction(
        id=pid,
        page=1,
        boxes=[Box(1, 0, 0, 10, 10)],
        text=text,
        category=category,
        category_name="Company name" if category == cat.COMPANY_NAME else "Birth number",
        category_type="primary",
        action=action,
        score=0.9,
        reason=Reason("primary", {"category": {"cs": "Název firmy", "en": "Company name"}}),
        recognizer="organization",
        evidence="",
        span=Span(start, start + len(text)),
        cluster=cluster,
    )


def _rule(keep, redact, pattern="Obec Horní Lhota", kind=PHRASE, rid=7, category=None):
    return LearnedRule(rid, kind, pattern, keep, redact, category)


def _boxes(span):
    return [Box(1, span.start, 0, span.end, 10)]


@pytest.mark.parametrize(
    ("keep", "redact", "action"),
    [(1, 0, Action.KEEP), (3, 0, Action.KEEP), (0, 1, Action.REDACT), (1, 1, Action.REVIEW), (2, 1, Action.KEEP)],
)
def test_the_sum_of_votes_decides(keep, redact, action):
    assert _rule(keep, redact).action == action


def test_a_keep_rule_overrides_the_engine_and_says_so():
    text = "Kupující: Obec Horní Lhota, dále Obci Horní Lhotě."
    engine = [_proposal(1, "Obec Horní Lhota", 10), _proposal(2, "Obci Horní Lhotě", 33)]
    out = apply_rules([_rule(3, 0)], text, engine, _boxes)
    assert [p.action for p in out.proposals] == [Action.KEEP, Action.KEEP]
    reason = out.proposals[0].reason
    assert reason.code == "agency_rule_overruled"
    assert str(reason).startswith("Keep: agency rule “Obec Horní Lhota”, 3 decisions")
    assert "(the engine said: Redact: Company name – personal data on its own.)" in str(reason)
    assert out.rule_of == {1: 7, 2: 7} and out.changed == 2 and out.added == 0
    assert engine[0].action == Action.REDACT  # the input is not modified


def test_conflicting_votes_send_to_review_with_the_split():
    out = apply_rules([_rule(2, 2)], "Obec Horní Lhota", [_proposal(1, "Obec Horní Lhota", 0)], _boxes)
    assert out.proposals[0].action == Action.REVIEW
    assert "4 decisions: 2 keep, 2 redact" in str(out.proposals[0].reason)


def test_a_keep_rule_never_silences_a_birth_number():
    p = _proposal(1, "750403/1238", 0, category=cat.BIRTH_NUMBER)
    out = apply_rules([_rule(5, 0, pattern="750403/1238")], "750403/1238", [p], _boxes)
    assert out.proposals[0].action == Action.REVIEW
    assert out.proposals[0].reason.code == "agency_rule_guard"
    assert "no rule keeps a birth number" in str(out.proposals[0].reason)


def test_a_redact_rule_adds_occurrences_no_recognizer_found():
    text = "Technik Xaver Qwertz přijde. Xavera Qwertze zavolejte."
    out = apply_rules([_rule(0, 2, pattern="Xaver Qwertz", kind=PERSON, category=cat.FULL_NAME)], text, [], _boxes)
    assert [(p.text, p.action, p.recognizer) for p in out.proposals] == [
        ("Xaver Qwertz", Action.REDACT, "agency_rule"),
        ("Xavera Qwertze", Action.REDACT, "agency_rule"),
    ]
    assert out.added == 2 and all(p.category == cat.FULL_NAME for p in out.proposals)


def test_a_keep_rule_adds_nothing():
    text = "Obec Horní Lhota a Obci Horní Lhotě"
    assert apply_rules([_rule(2, 0)], text, [], _boxes).proposals == []


def test_a_person_rule_covers_every_mention_of_the_person():
    text = "Ing. Radek Blažek, starosta. Blažkovi bude zasláno."
    engine = [
        _proposal(1, "Radek Blažek", 5, category=cat.FULL_NAME, cluster="person:1"),
        _proposal(2, "Blažkovi", 29, category=cat.SURNAME, cluster="person:1"),
        _proposal(3, "Jan Novák", 60, category=cat.FULL_NAME, cluster="person:2"),
    ]
    out = apply_rules([_rule(1, 0, pattern="Radkem Blažkem", kind=PERSON)], text, engine, _boxes)
    assert [p.action for p in out.proposals] == [Action.KEEP, Action.KEEP, Action.REDACT]


def test_no_rule_overrides_an_official_or_a_statutory_representative_in_office():
    """A redact rule for a person (a reviewer once decided a private namesake) leaves the mention
    the category map kept as an official acting in office; the same name elsewhere follows it."""
    text = "Za obec jedná starosta Jan Novák. Prodávající: Jan Novák, nar. 1970."
    official = replace(
        _proposal(1, "Jan Novák", 23, action=Action.KEEP, category=cat.FULL_NAME, cluster="person:1"),
        reason=Reason("role_exception", {"action": "keep", "name": "Jan Novák", "role": "starosta", "party": "",
                                         "cue": "starosta"}),
    )  # fmt: skip
    seller = _proposal(2, "Jan Novák", 47, action=Action.REVIEW, category=cat.FULL_NAME, cluster="person:2")
    rule = _rule(0, 3, pattern="Jan Novák", kind=PERSON, category=cat.FULL_NAME)
    out = apply_rules([rule], text, [official, seller], _boxes)
    by_id = {p.id: p for p in out.proposals}
    assert (by_id[1].action, by_id[1].reason.code) == (Action.KEEP, "role_exception")
    assert by_id[2].action == Action.REDACT and out.rule_of == {2: 7}
    assert out.added == 0
