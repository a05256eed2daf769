"""Every reason the engine can give has a Czech translation (the interface's default language)."""

from __future__ import annotations

import pytest
from django.utils.translation import trans_real

from policy.i18n import reason_texts
from redactor.reasons import TEMPLATES, TERMS, Reason

#: Messages whose Czech form is written the same way.
SAME_IN_CZECH = {TEMPLATES["agency_rule"], TEMPLATES["who_role"]}


@pytest.mark.parametrize("message", sorted({*TEMPLATES.values(), *TERMS.values()}))
def test_every_reason_template_and_term_is_translated(message):
    catalog = trans_real.translation("cs")._catalog
    assert catalog.get(message), f"no Czech translation for {message!r} in locale/cs/LC_MESSAGES/django.po"
    if message not in SAME_IN_CZECH:
        assert catalog.get(message) != message


def test_a_reason_reads_in_czech_and_english():
    who = {"code": "who_role", "params": {"role": {"term": "public_official"}, "name": "Ing. Jana Nová"}}
    reason = Reason("not_personal_holder", {"category": {"cs": "Telefonní číslo", "en": "Phone number"}, "who": who})
    assert reason_texts(reason) == {
        "cs": "Ponechat: Telefonní číslo – patří: veřejný funkcionář Ing. Jana Nová, ne soukromé osobě.",
        "en": "Keep: Phone number – belongs to a public official Ing. Jana Nová, not to a private person.",
    }
