"""Reasons in the reader's language: the engine's :class:`~redactor.reasons.Reason` codes
rendered with Django's translations (``locale/*/django.po``), for the review page, the API and
the CLI."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext

from redactor import Reason


def reason_text(code: str, params: dict | None, fallback: str = "") -> str:
    """The reason with ``code`` and ``params`` as a sentence in the active language; ``fallback``
    (the stored English sentence) for rows that carry no code."""
    if not code:
        return fallback
    language = (translation.get_language() or "cs")[:2]
    return Reason(code, dict(params or {})).render(gettext, language)


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
