"""Reasons in the reader's language: the engine's :class:`~redactor.reasons.Reason` codes
rendered with Django's translations (``locale/*/django.po``), for the review page, the API and
the CLI."""

from __future__ import annotations

import re

from django.utils import translation
from django.utils.translation import gettext

from redactor import Reason, rules


def reason_text(code: str, params: dict | None, fallback: str = "") -> str:
    """The reason with ``code`` and ``params`` as a sentence in the active language; ``fallback``
    (the stored English sentence) for rows that carry no code."""
    if not code:
        return fallback
    language = (translation.get_language() or "cs")[:2]
    return Reason(code, dict(params or {})).render(gettext, language)


#: The words a rule saw, as its evidence quotes them from the document ("date after 'nar.'").
_QUOTED = re.compile(r"['‘“„]([^'’”“]{1,60})['’”“]")


def rule_lines(hits: list[dict], reason: str) -> list[dict[str, str]]:
    """What made and decided a proposal (its ``rules``: ``[{"id", "saw"}]``), for the reader in
    the active language: each rule's ``id``, its ``name`` and the document's ``words`` it saw
    (quoted in its evidence; empty when it saw none, a checksum); the decision's line reads the
    proposal's ``reason`` sentence. The English ``saw`` and the rule's ``source`` go along for
    integrators."""
    language = (translation.get_language() or "cs")[:2]
    out = []
    for hit in hits:
        rule_id, saw = hit.get("id", ""), hit.get("saw", "")
        if rule_id.startswith(("decision:", "agency:")):
            name, source = gettext("Decision: %(reason)s") % {"reason": reason}, ""
        else:
            record = rules.book_rule(rule_id)
            name = record.title(language) if record else gettext("A rule this version does not know")
            source = record.origin if record else ""
        words = _QUOTED.search(saw)
        out.append(
            {"id": rule_id, "name": name, "words": words.group(1) if words else "", "saw": saw, "source": source}
        )
    return out


def reason_texts(reason: Reason) -> dict[str, str]:
    """``{"cs": …, "en": …}``: the reason in both interface languages (the CLI's JSON)."""
    out = {}
    for language in ("cs", "en"):
        with translation.override(language):
            out[language] = reason.render(gettext, language)
    return out


def reason_fields(reason: Reason) -> dict:
    """Model field values for a proposal's reason: the code, its parameters and the English
    sentence (kept for exports and for readers without the code)."""
    return {"reason": str(reason), "reason_code": reason.code, "reason_params": reason.params}
