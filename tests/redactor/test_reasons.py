"""Reasons are codes with parameters, rendered in the reader's language."""

from __future__ import annotations

from redactor.reasons import TEMPLATES, TERMS, Reason, localised, term


def test_a_reason_renders_nested_parties_terms_and_localised_names():
    who = {
        "code": "who_party_how",
        "params": {"kind": term("natural_person"), "index": 2, "label": "nájemce", "how": term("possessive")},
    }
    reason = Reason(
        "linked_holder", {"category": localised("Číslo bankovního účtu", "Bank account number"), "who": who}
    )
    assert (
        str(reason) == "Redact: Bank account number – belongs to natural person party 2 (nájemce), named as its owner."
    )
    catalogue = {
        TEMPLATES["linked_holder"]: "Znečitelnit: %(category)s – patří: %(who)s.",
        TEMPLATES["who_party_how"]: "smluvní strana %(index)s (%(label)s), %(kind)s – %(how)s",
        TERMS["natural_person"]: "fyzická osoba",
        TERMS["possessive"]: "uvedena jako vlastník",
    }
    czech = reason.render(lambda m: catalogue.get(m, m), "cs")  # templates and terms translated, names localised
    assert czech == (
        "Znečitelnit: Číslo bankovního účtu – patří: smluvní strana 2 (nájemce), fyzická osoba – uvedena jako vlastník."
    )


def test_a_broken_translation_falls_back_to_english():
    reason = Reason("primary", {"category": localised("Telefonní číslo", "Phone number")})
    assert (
        reason.render(lambda m: "Znečitelnit: %(kategorie)s", "cs")
        == "Redact: Telefonní číslo – personal data on its own."
    )


def test_reasons_round_trip_through_json():
    reason = Reason(
        "low_score", {"score": 0.7, "reason": Reason("not_subject", {"category": localised("A", "B")}).to_dict()}
    )
    again = Reason.from_dict(reason.to_dict())
    assert (
        again == reason
        and str(again) == "Needs review: the recognizer is not sure of this value (Keep: B – not personal data.)"
    )


def test_an_unknown_code_renders_as_itself():
    assert str(Reason("no_such_code", {"x": 1})) == "no_such_code"


def test_every_template_names_only_parameters_it_is_given():
    """Each template formats with string parameters for its placeholders (no typo in a %(name)s)."""
    import re

    for code, template in TEMPLATES.items():
        names = set(re.findall(r"%\((\w+)\)s", template))
        assert template % dict.fromkeys(names, "x"), code
    assert all(isinstance(v, str) and v for v in TERMS.values())
