"""Publishing in the registry of contracts (Act 340/2015 Sb.): the metadata, the messages, the
data box, the replies.

A published contract is only *registered* when the registry replies that it published it; the
reply makes it public and the contract effective (§ 6 of the Act). The flow:

1. processing pre-fills the metadata from the contract (:func:`registry_metadata_prefill`,
   :func:`redactor.metadata.fields.prefill`); a clerk or reviewer corrects it
   (:func:`registry_metadata_update`);
2. a reviewer sends it (:func:`registry_submit`): the XML is written and validated against the
   registry's XSD, checked for anything the PDF redacts, and either sent through the agency's
   data box by a job (:func:`registry_submission_send`) or kept as a package to download
   (:func:`registry_package`) for agencies that send through their own records system, which
   record that it left (:func:`registry_package_sent`) and hand over the registry's reply
   (:func:`registry_reply_record`);
3. a periodic job reads the agency's data box (:func:`registry_replies_fetch`), pairs each reply
   with its submission by the message id, checks every file's SHA-256 and moves the contract to
   *registered*, or records the registry's error in the clerk's words;
4. a registered contract can be corrected (``modifikace``) or withdrawn (``znepristupneni``),
   each with its reason in the audit trail.

Submissions are idempotent: one row per content (operation, XML, files), so sending the same
thing twice returns the first submission and sends nothing.

The package: :mod:`.metadata` (settings, pre-fill, corrections, problems, preview),
:mod:`.submissions` (the message, idempotent submissions, the package), :mod:`.databox`
(sending, replies, error advice) and :mod:`.records_system` (a package sent by the agency's own
records system and the registry's reply handed over from there). The doors and the jobs import its names from here.
"""

from __future__ import annotations

from .databox import (
    databox_client,
    error_advice,
    registry_replies_fetch,
    registry_replies_fetch_all,
    registry_submission_send,
)
from .metadata import (
    publishing_body,
    registry_metadata,
    registry_metadata_prefill,
    registry_metadata_update,
    registry_preview,
    registry_problems,
    registry_settings,
    registry_settings_update,
)
from .records_system import REPLY_MAX_BYTES, registry_package_sent, registry_reply_record
from .submissions import SEND_REGISTRY_SUBMISSION, Operation, SubmissionState, registry_package, registry_submit

__all__ = [
    "REPLY_MAX_BYTES",
    "SEND_REGISTRY_SUBMISSION",
    "Operation",
    "SubmissionState",
    "databox_client",
    "error_advice",
    "publishing_body",
    "registry_metadata",
    "registry_metadata_prefill",
    "registry_metadata_update",
    "registry_package",
    "registry_package_sent",
    "registry_preview",
    "registry_problems",
    "registry_replies_fetch",
    "registry_replies_fetch_all",
    "registry_reply_record",
    "registry_settings",
    "registry_settings_update",
    "registry_submission_send",
    "registry_submit",
]
