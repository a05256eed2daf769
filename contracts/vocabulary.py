"""What a person reads for the codes the product stores about a contract: the audit trail's
actions, in the interface's language. A code without a label here is shown as it is, and the
Czech page tour (tests/web/test_czech_tour.py) fails on it."""

from __future__ import annotations

import re

from django.utils.translation import gettext_lazy as _

from contracts.models import RegistrySubmission

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
    "published": _("Published"),
    "verification_failed": _("Verification failed"),
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
