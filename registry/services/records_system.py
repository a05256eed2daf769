"""The agency that sends through its own records system (the package channel): recording that a
package left, and the registry's reply that arrived there.

The registry answers the data box that sent the message (ISRS 1.2.1, chapter 3: every message
gets an ``odpoved*`` or a ``chyba`` naming the original message in ``puvodniZprava``). With the
package channel that box is read by the agency's records system, not by this service, so the
reply reaches the contract only when a person or the records system hands it over. A reply is
checked before it changes anything: it must answer one of this contract's submissions, paired
by the data-box message id when one was recorded and otherwise by the SHA-256 of every file
the submission carried (the registry lists each file's hash in its reply)."""

from __future__ import annotations

import re
from datetime import date, datetime, time

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.access import require_role
from accounts.models import Role
from contracts.models import Contract
from contracts.services.common import audit
from registry import isrs
from registry.models import RegistrySubmission
from registry.selectors import registry_record

from .databox import _apply_reply
from .submissions import Operation, SubmissionState

#: Submissions a reply may still answer.
_AWAITING = (SubmissionState.PREPARED, SubmissionState.SENT)
#: Largest reply accepted, bytes: the registry's replies are a few kilobytes (metadata and hashes).
REPLY_MAX_BYTES = 2 * 1024 * 1024
_MESSAGE_ID = re.compile(r"^\d{1,20}$")


def _awaiting(contract: Contract):
    return contract.registry_submissions.filter(channel="package", state__in=_AWAITING).order_by("-id")


@transaction.atomic
def registry_package_sent(
    *, contract: Contract, user: User, message_id: str = "", sent_on: date | None = None
) -> RegistrySubmission:
    """Record that the prepared submission of ``contract`` left the agency's records system.

    ``message_id`` is the data-box message's id (dmID, up to 20 digits) the records system
    shows, or empty when the person does not have it; with it the registry's reply is paired
    by that id, without it by the files' hashes. ``sent_on`` is the day it left (None: now; an
    earlier day is kept as its noon, local time). Returns the submission, now *sent*. Raises
    ``PermissionDenied`` unless ``user`` is a reviewer, ``ValidationError`` with code
    ``wrong_status`` when nothing prepared waits to be sent, ``invalid`` for a malformed id or a
    day before the submission was prepared or after today.
    """
    require_role(user, contract.agency, Role.REVIEWER)
    message_id = message_id.strip()
    if message_id and not _MESSAGE_ID.match(message_id):
        raise ValidationError(_("A data-box message id is a number of up to 20 digits."), code="invalid")
    submission = _awaiting(contract).select_for_update().filter(state=SubmissionState.PREPARED).first()
    if submission is None:
        raise ValidationError(_("No prepared submission waits to be sent for this contract."), code="wrong_status")
    today = timezone.localdate()
    if sent_on is not None and not timezone.localdate(submission.created_at) <= sent_on <= today:
        raise ValidationError(_("The package cannot have left before it was prepared or after today."), code="invalid")
    sent_at = timezone.now() if sent_on in (None, today) else timezone.make_aware(datetime.combine(sent_on, time(12)))
    submission.state, submission.sent_at, submission.message_id = SubmissionState.SENT, sent_at, message_id
    submission.save(update_fields=["state", "sent_at", "message_id"])
    audit(contract, user, "registry_package_sent", submission=submission.pk, message_id=message_id,
          sent_on=timezone.localdate(sent_at).isoformat())  # fmt: skip
    return submission


def _answered(contract: Contract, reply: isrs.Reply) -> RegistrySubmission | None:
    """The submission ``reply`` answers among those of ``contract`` still waiting, or None."""
    candidates = list(_awaiting(contract).select_for_update())
    by_id = [s for s in candidates if s.message_id and s.message_id == reply.message_id]
    if by_id:
        return by_id[0]
    if reply.record is None:  # a refusal names only the message: the last one sent without an id
        unnamed = [s for s in candidates if s.state == SubmissionState.SENT and not s.message_id]
        return unnamed[0] if len(unnamed) == 1 else None
    published = {f.sha256.lower() for f in reply.record.files}
    record_id = registry_record(contract).record_id
    for submission in candidates:
        if submission.message_id:
            continue  # paired by its id only
        if submission.files:
            if {f["sha256"] for f in submission.files} <= published:
                return submission
        elif submission.operation != Operation.PUBLISH and reply.record.record_id == record_id:
            return submission
    return None


@transaction.atomic
def registry_reply_record(*, contract: Contract, user: User, xml: bytes) -> RegistrySubmission:
    """Apply the registry's reply (``odpoved*`` or ``chyba`` XML, as the registry sent it to the
    agency's data box) to the submission of ``contract`` it answers, as the service does with a
    reply it reads itself: a success registers the contract with every file's SHA-256 checked,
    a refusal records the registry's error in the clerk's words.

    Returns the submission. Raises ``PermissionDenied`` unless ``user`` is a reviewer,
    ``ValidationError`` with code ``not_a_reply`` (not a reply of the registry, or larger than
    :data:`REPLY_MAX_BYTES`) or ``not_this_contract`` (it answers none of this contract's
    waiting submissions: another contract's reply, or one recorded before).
    """
    require_role(user, contract.agency, Role.REVIEWER)
    if len(xml) > REPLY_MAX_BYTES:
        raise ValidationError(_("This is not a reply of the registry of contracts: the file is too large."),
                              code="not_a_reply")  # fmt: skip
    try:
        reply = isrs.parse_reply(xml)
    except isrs.RegistryXmlError:
        raise ValidationError(
            _("This is not a reply of the registry of contracts. Upload the XML file of the registry's message "
              "(odpovedZverejneni.xml, or chyba.xml when it refused)."),
            code="not_a_reply",
        ) from None  # fmt: skip
    submission = _answered(contract, reply)
    if submission is None:
        raise ValidationError(
            _("This reply answers no message of this contract that waits for the registry (another contract's "
              "reply, or one already recorded)."),
            code="not_this_contract",
        )  # fmt: skip
    if submission.state == SubmissionState.PREPARED:
        submission.sent_at = timezone.now()
    submission.state, submission.message_id = SubmissionState.SENT, reply.message_id
    submission.save(update_fields=["state", "sent_at", "message_id"])
    audit(contract, user, "registry_reply_recorded", submission=submission.pk, message_id=reply.message_id)
    _apply_reply(submission, reply)
    submission.refresh_from_db()
    return submission
