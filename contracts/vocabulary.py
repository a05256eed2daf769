"""What a person reads for the codes the product stores about a contract: the audit trail's
actions, in the interface's language. The apps above contracts add the labels of their own codes
(:func:`add_vocabulary`). A code without a label is shown as it is, and the Czech page tour
(tests/contracts/web/test_czech_tour.py) fails on it."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Mapping
from datetime import date

from django.utils import formats, timezone
from django.utils.dateparse import parse_datetime
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from contracts.models import LegalGround, Run

AUDIT_ACTIONS: dict[str, str | Promise] = {
    "uploaded": _("Uploaded"),
    "processed": _("Processed"),
    "failed": _("Job failed"),
    "retried": _("Started again"),
    "decision_accept": _("Redacted by the reviewer"),
    "decision_reject": _("Kept by the reviewer"),
    "decision_reset": _("Back to the suggestion"),
    "decision_undone": _("Decision undone"),
    "manual_box": _("Manual box"),
    "manual_text": _("Manual text selection"),
    "approved": _("Approved"),
    "first_approval": _("Approved by the first reviewer"),
    "second_approval_returned": _("Returned to review by the second reviewer"),
    "published": _("Published"),
    "verification_failed": _("Verification failed"),
    "still_legible": _("Not published: the published pages still show values nobody decided"),
    "downloaded_redacted": _("Redacted PDF downloaded"),
    "downloaded_text": _("Published text downloaded"),
    "downloaded_original": _("Original downloaded"),
    "exported_text": _("Text exported"),
    "deleted": _("Data deleted"),
    "earlier_redaction_found": _("Text readable under an earlier redaction found"),
    "document_stored": _("Analysed document stored for review and publishing"),
    "decided_like_earlier": _("A page decided as the page of an earlier contract it repeats"),
}
_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
_ISO_TIME = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")

#: Labels of the actions apps above contracts write (:func:`add_vocabulary`): functions from an
#: action code to its label, or None when the code is not theirs.
_ACTION_LABELS: list[Callable[[str], str | None]] = []
#: Labels of detail values apps above contracts write, by the detail's key: a function from the
#: value to its text, or None when it does not know the value.
_DETAIL_VALUES: dict[str, Callable[[object], str | None]] = {}


def add_vocabulary(
    *,
    actions: Mapping[str, str | Promise] | None = None,
    action_label: Callable[[str], str | None] | None = None,
    details: Mapping[str, str | Promise] | None = None,
    detail_values: dict[str, Callable[[object], str | None]] | None = None,
) -> None:
    """Labels an app above contracts adds for the codes it writes into a contract's audit trail
    (call it from ``AppConfig.ready``; contracts never import the app): ``actions`` by code,
    ``action_label`` for a family of codes, ``details`` for detail keys (shown after the ones
    here) and ``detail_values`` for the values of a detail key."""
    AUDIT_ACTIONS.update(actions or {})
    if action_label is not None and action_label not in _ACTION_LABELS:
        _ACTION_LABELS.append(action_label)
    AUDIT_DETAILS.update(details or {})
    _DETAIL_VALUES.update(detail_values or {})


def audit_action_label(action: str) -> str:
    """The audit action ``action`` (``"decision_accept"``, ``"registry_zverejneni_sent"``) as a
    person reads it in the active language; an unknown code as it is."""
    if action in AUDIT_ACTIONS:
        return str(AUDIT_ACTIONS[action])
    for label_of in _ACTION_LABELS:
        label = label_of(action)
        if label is not None:
            return label
    return action


#: The keys of an audit event's detail (``contracts.services.common.audit``) as a person reads
#: them on the audit trail; the CSV export keeps the keys and the JSON.
AUDIT_DETAILS: dict[str, str | Promise] = {
    "filename": _("file name"),
    "size": _("size (bytes)"),
    "sha256": _("SHA-256"),
    "pages": _("pages"),
    "ocr_pages": _("pages with no text read"),
    "redact": _("to redact"),
    "keep": _("to keep"),
    "review": _("for review"),
    "rules_applied": _("agency rules applied"),
    "rule_changed": _("proposals changed by agency rules"),
    "rule_added": _("proposals added by agency rules"),
    "profile_version": _("agency profile version"),
    "stage": _("stage"),
    "error": _("error"),
    "proposal": _("proposal"),
    "proposals": _("proposals"),
    "same_cluster": _("every occurrence"),
    "also": _("also proposed at"),
    "removed": _("proposals removed"),
    "votes": _("rule votes withdrawn"),
    "rules": _("agency rules"),
    "batch": _("batch"),
    "boxes": _("boxes"),
    "covered": _("values covered after reading the page pictures again"),
    "text": _("text"),
    "redactions": _("redactions"),
    "problems": _("problems"),
    "mode": _("export"),
    "format": _("format"),
    "bulk": _("bulk export"),
    "files": _("files"),
    "legal_ground": _("legal ground"),
    "page": _("page"),
    "earlier_contract": _("earlier contract"),
    "earlier_page": _("its page"),
    "claimant": _("trade secret designated by"),
    "claimed_on": _("designated on"),
    "first_approval_by": _("first approved by"),
    "reason": _("reason"),
    "values": _("values"),
}
#: Keys of an audit event's detail that mean nothing to a person: the batch that ties one
#: reviewer action's decisions together for undo (the CSV export keeps it).
HIDDEN_DETAILS = frozenset({"batch"})
#: Export modes (``redactor.publish.text_export.ExportMode``) as the export pages name them.
EXPORT_MODES = {"removed": _("removed"), "tagged": _("tagged"), "pseudonymised": _("pseudonymised")}


def audit_detail_items(detail: dict[str, object]) -> list[tuple[str, str]]:
    """An audit event's ``detail`` as ``(label, value)`` pairs for the audit trail, in the
    interface's language: codes by their labels (a run's stage, an export mode, a legal ground,
    and what the apps above added: a metadata field, a registry channel), yes/no for flags,
    boxes counted, lists joined; a key without a label in :data:`AUDIT_DETAILS` as it is;
    :data:`HIDDEN_DETAILS` left out. In the order of :data:`AUDIT_DETAILS`, unknown keys last."""
    items: list[tuple[str, str]] = []
    order = {key: i for i, key in enumerate(AUDIT_DETAILS)}  # PostgreSQL's jsonb keeps no key order
    for key, value in sorted(detail.items(), key=lambda kv: order.get(kv[0], len(order))):
        if key in HIDDEN_DETAILS:
            continue
        text: str
        if key == "boxes" and isinstance(value, list):
            text = str(len(value))
        elif key == "stage" and value in Run.Kind.values:
            text = str(Run.Kind(value).label)
        elif key == "mode" and isinstance(value, str):
            text = str(EXPORT_MODES.get(value, value))
        elif key == "legal_ground" and value in LegalGround.values:
            text = str(LegalGround(value).label)
        else:
            added = _DETAIL_VALUES[key](value) if key in _DETAIL_VALUES else None
            text = added if added is not None else _value_text(value)
        items.append((str(AUDIT_DETAILS.get(key, key)), text))
    return items


def _value_text(value: object) -> str:
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    if value is None or value == [] or value == "":
        return "–"
    if isinstance(value, list):
        return ", ".join(_value_text(v) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_value_text(v)}" for k, v in value.items())
    if isinstance(value, str):
        return _date_text(value) or value
    return str(value)


def _date_text(value: str) -> str | None:
    """An ISO 8601 day or time (as details store them) the way the interface writes dates
    ("2. března 2026"), or None for any other text."""
    if _ISO_DAY.fullmatch(value):
        with contextlib.suppress(ValueError):
            return formats.date_format(date.fromisoformat(value), "DATE_FORMAT")
    elif _ISO_TIME.match(value):
        when = parse_datetime(value)
        if when is not None:
            aware = when if timezone.is_aware(when) else timezone.make_aware(when)
            return formats.date_format(timezone.localtime(aware), "DATETIME_FORMAT")
    return None
