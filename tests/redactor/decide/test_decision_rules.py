"""Each rule of the policy on its own (redactor.decide.decision_rules), the way each Presidio
recognizer has its own tests: a table of cases, each a finding in a small document with its
parties and persons set by hand, and what that rule alone answers (None: it does not apply).
The whole-document tests (test_policy.py) check the rules together."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from redactor import categories as cat
from redactor.decide import decision_rules as rules
from redactor.decide.category_map import CategoryMap
from redactor.detect.linking import Linker, Person
from redactor.model import Action, Finding, Party, PartyKind, Span

# one line per party block; offsets are found in the text, never counted by hand
TEXT = (
    "Prodávající: Jan Novák, r. č. 750403/1238, bytem Lipová 12, Brno, účet 19-2000145399/0800, "
    "kontaktní osoba Eva Malá.\n"
    "Kupující: Obec Lhota, IČO 00231151, se sídlem Hlavní 1, Lhota, účet 123456789/0100, "
    "zastoupená starostou Petrem Dvořákem.\n"
    "Předmět koupě stojí na pozemku Polní 7, Lhota.\n"
)
SELLER_END = TEXT.index("Kupující")
BUYER_END = TEXT.index("Předmět")
SELLER = Party(1, "prodávající", PartyKind.NATURAL_PERSON, [Span(0, SELLER_END)], ["prodávající"], "Jan Novák")
BUYER = Party(2, "kupující", PartyKind.PUBLIC_BODY, [Span(SELLER_END, BUYER_END)], ["kupující"], "Obec Lhota")
PERSONS = {
    "person:1": Person("person:1", "Jan Novák", None, SELLER, True, "party name"),
    "person:2": Person("person:2", "Eva Malá", None, SELLER, False, "contact", contact="kontaktní osoba"),
    "person:3": Person("person:3", "Petrem Dvořákem", "public_official", BUYER, False, "function", cue="starostou"),
}


def _finding(text: str, category: int, holder: str | None = None, **attributes) -> Finding:
    start = TEXT.index(text)
    return Finding(category, Span(start, start + len(text)), text, 0.9, "test", "", holder, attributes)


def _case(finding: Finding, *, parties=(SELLER, BUYER), persons=PERSONS, cmap=None) -> rules.Case:
    """The case as :func:`decide_finding` hands it to the rules: the address told apart, the
    category's line of the map and its name set."""
    sentences = [Span(0, SELLER_END), Span(SELLER_END, BUYER_END), Span(BUYER_END, len(TEXT))]
    linker = Linker(TEXT, sentences, [finding], list(parties), [])
    linker.persons = dict(persons)
    case = rules.Case(finding, linker, cmap or CategoryMap.default(), {}, [finding])
    rules.address_kind(case)
    case.rule = case.cmap.rule(case.category)
    case.label = rules.category_name(case.cmap, case.category)
    return case


def _answer(rule, case) -> tuple[Action, str] | None:
    assessment = rule(case)
    return None if assessment is None else (assessment.action, assessment.reason.code)


@pytest.mark.parametrize(
    ("finding", "parties", "persons", "category", "expected"),
    [
        # a cue says what the address is: nothing to tell apart
        (("Lipová 12, Brno", cat.ADDRESS_RESIDENCE, None, {"context": "bytem"}), "both", "all", 45, None),
        # a public body's address without a cue is its seat
        (("Hlavní 1, Lhota", cat.ADDRESS_RESIDENCE), "both", "all", cat.ADDRESS_SEAT, None),
        # a natural person's party: a residence, for the later rules
        (("Lipová 12, Brno", cat.ADDRESS_SEAT), "both", "all", cat.ADDRESS_RESIDENCE, None),
        # nobody linked, the document names private persons: review
        (("Polní 7, Lhota", cat.ADDRESS_RESIDENCE), "both", "all", 45, (Action.REVIEW, "address_unlinked")),
        # nobody linked and nobody private in the document: the address of a place, kept
        (("Polní 7, Lhota", cat.ADDRESS_RESIDENCE), "buyer", "none", 45, (Action.KEEP, "address_place")),
        # not an address: not this rule's
        (("750403/1238", cat.BIRTH_NUMBER), "both", "all", cat.BIRTH_NUMBER, None),
    ],
)
def test_address_kind(finding, parties, persons, category, expected):
    text, original, *rest = finding
    f = _finding(text, original, *(rest[:1] or [None]), **(rest[1] if len(rest) > 1 else {}))
    sentences = [Span(0, SELLER_END), Span(SELLER_END, BUYER_END), Span(BUYER_END, len(TEXT))]
    chosen = {"both": [SELLER, BUYER], "buyer": [BUYER]}[parties]
    linker = Linker(TEXT, sentences, [f], chosen, [])
    linker.persons = {"all": dict(PERSONS), "none": {}}[persons]
    case = rules.Case(f, linker, CategoryMap.default(), {}, [f])
    assert _answer(rules.address_kind, case) == expected
    assert case.category == category


CASES = [
    # rule, finding (text, category, holder), expected answer of that rule alone
    (rules.role_exception, ("Petrem Dvořákem", cat.FULL_NAME, "person:3"), (Action.KEEP, "role_exception")),
    (rules.role_exception, ("Jan Novák", cat.FULL_NAME, "person:1"), None),  # private: no role
    (rules.role_exception, ("750403/1238", cat.BIRTH_NUMBER, None), None),  # nobody's name
    (rules.holder_override, ("Hlavní 1, Lhota", cat.ADDRESS_SEAT, None), None),  # a public body's seat: no override
    (rules.holder_override, ("123456789/0100", cat.BANK_ACCOUNT, None), None),  # no override for accounts
    (rules.contact_person, ("Eva Malá", cat.FULL_NAME, "person:2"), (Action.REDACT, "contact_person")),
    (rules.contact_person, ("Jan Novák", cat.FULL_NAME, "person:1"), None),  # the party itself
    (rules.contact_person, ("Petrem Dvořákem", cat.FULL_NAME, "person:3"), None),  # not private
    (rules.primary, ("750403/1238", cat.BIRTH_NUMBER, None), (Action.REDACT, "primary")),
    (rules.primary, ("Lipová 12, Brno", cat.ADDRESS_SEAT, None), (Action.REDACT, "primary_residence")),
    (rules.primary, ("00231151", cat.ICO, None), None),  # not primary
    (rules.not_subject, ("00231151", cat.ICO, None), (Action.KEEP, "not_subject")),
    (rules.not_subject, ("Hlavní 1, Lhota", cat.ADDRESS_RESIDENCE, None), (Action.KEEP, "not_subject_of")),
    (rules.not_subject, ("750403/1238", cat.BIRTH_NUMBER, None), None),
    (rules.secondary, ("19-2000145399/0800", cat.BANK_ACCOUNT, None), (Action.REDACT, "linked_holder")),
    (rules.secondary, ("123456789/0100", cat.BANK_ACCOUNT, None), (Action.KEEP, "not_personal_holder")),
]


@pytest.mark.parametrize(("rule", "finding", "expected"), CASES, ids=[f"{r.__name__}-{f[0]}" for r, f, _ in CASES])
def test_each_rule_alone(rule, finding, expected):
    text, category, holder, *attributes = finding
    assert _answer(rule, _case(_finding(text, category, holder, **(attributes[0] if attributes else {})))) == expected


def test_a_seat_nobody_holds_goes_to_review_by_the_maps_holder_override():
    """A seat (its cue says so) outside every party: the map's override for an unknown holder."""
    case = _case(_finding("Polní 7, Lhota", cat.ADDRESS_SEAT, None, context="sídlo"), parties=(), persons={})
    assert _answer(rules.holder_override, case) == (Action.REVIEW, "holder_rule")


def test_a_secondary_value_with_no_holder_takes_the_maps_fallback():
    case = _case(_finding("123456789/0100", cat.BANK_ACCOUNT), parties=(), persons={})
    assert _answer(rules.secondary, case) == (Action.REVIEW, "unknown_holder")


def test_the_rules_are_tried_in_order_and_the_first_answer_decides():
    """A public official's name: the role exception answers before the name's primary rule
    would redact it; a switched-off category is not proposed at all."""
    official = _finding("Petrem Dvořákem", cat.FULL_NAME, "person:3")
    case = _case(official)
    assert _answer(rules.primary, case) == (Action.REDACT, "primary")
    assert rules.RULES.index(rules.role_exception) < rules.RULES.index(rules.primary)
    assert _answer(rules.decide_finding, _case(official)) == (Action.KEEP, "role_exception")
    data = json.loads(resources.files("redactor").joinpath("data/category_map.json").read_text(encoding="utf-8"))
    for line in data["categories"]:
        if line["id"] == cat.FULL_NAME:
            line["enabled"] = False
    assert rules.decide_finding(_case(official, cmap=CategoryMap.from_dict(data))) is None
