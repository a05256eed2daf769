"""What a person reads for the codes the product stores about a contract: the audit trail's
actions, in the interface's language. A code without a label here is shown as it is, and the
Czech page tour (tests/contracts/web/test_czech_tour.py) fails on it."""

from __future__ import annotations

import re

from django.utils.translation import gettext_lazy as _

from accounts.models import RegistrySettings
from contracts.models import LegalGround, RegistrySubmission, Run

AUDIT_ACTIONS = {
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
    "registered": _("Registered in the registry"),
    "registry_rejected": _("Refused by the registry"),
    "registry_withdrawn": _("Withdrawn from the registry"),
    "registry_send_failed": _("Sending to the registry failed"),
    "registry_metadata_edited": _("Registry metadata edited"),
    "registry_package_downloaded": _("Registry package downloaded"),
    "earlier_redaction_found": _("Text readable under an earlier redaction found"),
    "document_stored": _("Analysed document stored for review and publishing"),
    "decided_like_earlier": _("A page decided as the page of an earlier contract it repeats"),
    "registry_package_sent": _("Registry package sent from the records system"),
    "registry_reply_recorded": _("The registry's reply recorded by hand"),
}
#: ``registry_<operation>_<phase>``: a submission's operation (its label) and how far it got.
REGISTRY_PHASES = {
    "prepared": _("prepared"),
    "sent": _("sent to the registry"),
    "accepted": _("accepted by the registry"),
}
_REGISTRY_ACTION = re.compile(r"registry_(?P<operation>[A-Za-z]+)_(?P<phase>prepared|sent|accepted)")


def audit_action_label(action: str) -> str:
    """The audit action ``action`` (``"decision_accept"``, ``"registry_zverejneni_sent"``) as a
    person reads it in the active language; an unknown code as it is."""
    if action in AUDIT_ACTIONS:
        return str(AUDIT_ACTIONS[action])
    m = _REGISTRY_ACTION.fullmatch(action)
    if m and m["operation"] in RegistrySubmission.Operation.values:
        return f"{RegistrySubmission.Operation(m['operation']).label} – {REGISTRY_PHASES[m['phase']]}"
    return action


#: The registry metadata's fields (the keys of ``ContractMetadata.to_dict`` and of a party) as a
#: person reads them.
REGISTRY_FIELDS = {
    "subject": _("Subject"),
    "number": _("Contract number"),
    "signed_by": _("Signed by"),
    "date_concluded": _("Date of conclusion"),
    "value_without_vat": _("Value without VAT"),
    "value_with_vat": _("Value with VAT"),
    "foreign_value": _("Value in a foreign currency"),
    "foreign_currency": _("Currency"),
    "related_record": _("Related record"),
    "amendment": _("Amendment"),
    "parties": _("Contracting parties"),
    "name": _("name"),
    "ico": _("IČO"),
    "data_box": _("data box"),
    "address": _("address"),
}


def registry_field_label(path: str) -> str:
    """A metadata field (``"subject"``, ``"parties.0.address"``: parties counted from 0) as a
    person reads it ("Subject", "Party 1: address"); an unknown name as it is."""
    if path.startswith("parties.") and path.count(".") == 2:
        _parties, index, key = path.split(".")
        if index.isdigit():
            return str(_("Party %(n)s: %(field)s") % {"n": int(index) + 1, "field": REGISTRY_FIELDS.get(key, key)})
    return str(REGISTRY_FIELDS.get(path, path))


#: The keys of an audit event's detail (``contracts.services.common.audit``) as a person reads
#: them on the audit trail; the CSV export keeps the keys and the JSON.
AUDIT_DETAILS = {
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
    "fields": _("fields"),
    "submission": _("registry submission"),
    "channel": _("channel"),
    "message_id": _("data-box message"),
    "code": _("error code"),
    "record_id": _("record ID"),
    "version_id": _("version ID"),
    "link": _("link"),
    "sha256_checked": _("files whose SHA-256 was checked"),
    "hash_mismatch": _("files whose SHA-256 differs"),
    "legal_ground": _("legal ground"),
    "page": _("page"),
    "earlier_contract": _("earlier contract"),
    "earlier_page": _("its page"),
    "claimant": _("trade secret designated by"),
    "claimed_on": _("designated on"),
}
#: Keys of an audit event's detail that mean nothing to a person: the batch that ties one
#: reviewer action's decisions together for undo (the CSV export keeps it).
HIDDEN_DETAILS = frozenset({"batch"})
#: Export modes (``redactor.publish.text_export.ExportMode``) as the export pages name them.
EXPORT_MODES = {"removed": _("removed"), "tagged": _("tagged"), "pseudonymised": _("pseudonymised")}


def audit_detail_items(detail: dict[str, object]) -> list[tuple[str, str]]:
    """An audit event's ``detail`` as ``(label, value)`` pairs for the audit trail, in the
    interface's language: codes by their labels (a run's stage, an export mode, a metadata field,
    a registry channel), yes/no for flags, boxes counted, lists joined; a key without a label
    in :data:`AUDIT_DETAILS` as it is; :data:`HIDDEN_DETAILS` left out. In the order of
    :data:`AUDIT_DETAILS`, unknown keys last."""
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
        elif key == "fields" and isinstance(value, list):
            text = ", ".join(registry_field_label(str(f)) for f in value)
        elif key == "channel" and value in RegistrySettings.Channel.values:
            text = str(RegistrySettings.Channel(value).label)
        elif key == "legal_ground" and value in LegalGround.values:
            text = str(LegalGround(value).label)
        else:
            text = _value_text(value)
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
    return str(value)
