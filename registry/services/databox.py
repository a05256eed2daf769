"""The agency's data box: the client with its sealed credentials, sending a submission (a job),
reading the registry's replies (the cron job) and what each registry error means for a clerk."""

from __future__ import annotations

import logging
import os
import tempfile
from contextlib import contextmanager
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import secrets
from accounts.models import Agency
from contracts import queue
from contracts.models import Contract, Status, WebhookEvent
from contracts.services.common import audit
from contracts.services.webhooks import webhooks_notify
from registry import isrs
from registry.databox import DataBoxClient, DataBoxError, OutgoingFile
from registry.models import PublishedRecord, RegistrySettings, RegistrySubmission

from .corrections import further_corrections
from .metadata import record_for_update, registry_settings
from .submissions import SEND_REGISTRY_SUBMISSION, Operation, SubmissionState, _files_of, _key

log = logging.getLogger(__name__)


# -- the data box ----------------------------------------------------------------------------------
@contextmanager
def databox_client(agency: Agency):
    """A :class:`~registry.databox.DataBoxClient` with the agency's credentials and environment,
    as a context: a system certificate is unsealed into a private temporary file (mode 0600) that
    is removed when the context ends. Raises ``ValidationError`` (code ``no_databox``) when the
    agency has no data-box login."""
    regs = registry_settings(agency)
    if regs.channel != "databox" or not regs.login:
        raise ValidationError(_("The agency has no data-box login in its registry settings."), code="no_databox")
    base = (
        settings.REDACTOR_DATABOX_URL_PRODUCTION
        if regs.environment == RegistrySettings.Environment.PRODUCTION
        else settings.REDACTOR_DATABOX_URL_TEST
    )
    cert = None
    try:
        if regs.certificate_sealed:
            handle, cert = tempfile.mkstemp(suffix=".pem")
            with os.fdopen(handle, "w") as fh:
                fh.write(secrets.unseal(regs.certificate_sealed))
        yield DataBoxClient(
            base,
            login=regs.login,
            password=secrets.unseal(regs.password_sealed),
            cert=cert,
            timeout=settings.REDACTOR_DATABOX_TIMEOUT,
        )
    finally:
        if cert is not None:
            os.unlink(cert)


def _our_ref(submission: RegistrySubmission) -> str:
    return f"redactor-{submission.pk}"


def send_failure_text(exc: Exception) -> str:
    """Why a send failed, in the clerk's words: ISDS's own message for a status ISDS gave (Czech,
    from the service), a sentence of ours for a refused login, an unreachable box or a local
    problem; never a library's exception text (host names, ports, stack details)."""
    if isinstance(exc, ValidationError):
        return "; ".join(exc.messages)
    if isinstance(exc, DataBoxError) and exc.code == "login":
        return _("the data box refused the login; check the login, password or certificate in the registry settings")
    if isinstance(exc, DataBoxError) and exc.code not in ("transport", "") and exc.message:
        return exc.message
    if isinstance(exc, DataBoxError):
        return _("the data box could not be reached (the network or the data-box service is unavailable)")
    return _("the data-box connection could not be set up; check the registry settings")


def registry_submission_send(*, submission_id: int) -> None:
    """Job body: send one prepared submission through the agency's data box.

    Claims the submission (prepared → sending) so that a job running twice sends once; a send
    that fails leaves it *failed* with the reason, to be retried with :func:`registry_submit`."""
    claimed = RegistrySubmission.objects.filter(pk=submission_id, state=SubmissionState.PREPARED).update(
        state=SubmissionState.SENDING
    )
    if not claimed:
        log.info("registry submission %s already taken", submission_id)
        return
    submission = RegistrySubmission.objects.select_related("contract", "agency").get(pk=submission_id)
    contract = submission.contract
    try:
        contents = {name: data for name, data, _k in _files_of(contract, submission.operation)}
        main = isrs.FILE_NAMES[submission.operation]
        files = [OutgoingFile(main, submission.xml.encode("utf-8"), "application/xml", "main")]
        for entry in submission.files:
            data = contents.get(entry["name"])
            if data is None or isrs.sha256(data) != entry["sha256"]:
                raise ValidationError(_("The published file changed since the submission was prepared."))
            mime = "application/pdf" if entry["kind"] == "pdf" else "text/plain"
            files.append(OutgoingFile(entry["name"], data, mime))
        with databox_client(submission.agency) as client:
            message_id = client.send(
                recipient=settings.REDACTOR_REGISTRY_DATABOX,
                annotation=f"Registr smluv: {contract.title}"[:255],
                files=files,
                our_ref=_our_ref(submission),
            )
    except (DataBoxError, ValidationError, ValueError) as exc:
        log.warning("registry submission %s not sent: %r", submission_id, exc)  # the raw cause, for the operator
        text = send_failure_text(exc)
        with transaction.atomic():
            submission.state, submission.error_code = SubmissionState.FAILED, getattr(exc, "code", "") or "send"
            submission.error_text = _("Not sent: %(why)s. Try again; nothing reached the registry.") % {"why": text}
            submission.save(update_fields=["state", "error_code", "error_text"])
            audit(contract, None, "registry_send_failed", submission=submission.pk, code=submission.error_code)
        return
    with transaction.atomic():
        submission.state, submission.message_id, submission.sent_at = SubmissionState.SENT, message_id, timezone.now()
        submission.save(update_fields=["state", "message_id", "sent_at"])
        audit(contract, None, f"registry_{submission.operation}_sent", submission=submission.pk, message_id=message_id)


#: What each of the registry's error codes means for the clerk, and what to do
#: (ISRS_aplikacni_rozhrani.pdf, chapter 8).
def error_advice(code: str) -> str:
    """The registry's error ``code`` in the clerk's words with what to do."""
    advice = {
        "1": _("The registry did not find the operation in the message. Send it again; if it repeats, contact "
               "support."),
        "2": _("The registry found the metadata invalid. Check the fields and send again."),
        "3": _("The publishing body's data box differs from the sending box and no mandate exists. Check the "
               "agency's data box ID in its settings."),
        "4": _("A file named in the message was not in it. Send it again."),
        "5": _("The registry does not accept one of the file types."),
        "6": _("The registry does not know the record this message refers to. Check the record ID."),
        "7": _("The record was withdrawn and cannot be changed; publish the contract as a new record."),
        "8": _("The mandate to publish for this body is not valid."),
        "9": _("This mandate already exists."),
        "10": _("The registry does not know the message this one refers to."),
        "11": _("The message this one refers to did not publish a contract."),
        "hash": _("The registry holds a file whose SHA-256 differs from the published one. Withdraw the record and "
                  "publish it again."),
    }  # fmt: skip
    return advice.get(code, _("The registry refused the message."))


def _apply_reply(submission: RegistrySubmission, reply: isrs.Reply) -> None:
    contract = Contract.objects.select_for_update().get(pk=submission.contract_id)
    submission.reply = {
        "operation": reply.operation,
        "message_id": reply.message_id,
        "error_code": reply.error_code,
        "error_text": reply.error_text,
        "info": reply.info,
        "schema_errors": reply.schema_errors[:5],
    }
    submission.replied_at = timezone.now()
    if not reply.ok:
        submission.state, submission.error_code = SubmissionState.REJECTED, reply.error_code
        submission.error_text = error_advice(reply.error_code)
        submission.save(update_fields=["state", "error_code", "error_text", "reply", "replied_at"])
        contract.error_message = _("The registry of contracts refused the submission: %(advice)s") % {
            "advice": submission.error_text
        }
        contract.save(update_fields=["error_message"])
        audit(contract, None, "registry_rejected", submission=submission.pk, code=reply.error_code,
              text=reply.error_text[:500])  # fmt: skip
        webhooks_notify(contract=contract, event=WebhookEvent.REGISTRY_REJECTED)
        return
    record = reply.record
    assert record is not None, "isrs.parse_reply gives every success reply its record"
    submission.reply.update(
        record_id=record.record_id,
        version_id=record.version_id,
        link=record.link,
        published_at=record.published_at.isoformat() if record.published_at else None,
        files=[{"name": f.name, "sha256": f.sha256} for f in record.files],
    )
    published = {f.name: f.sha256 for f in record.files}
    mismatched = [f["name"] for f in submission.files if published.get(f["name"]) != f["sha256"]]
    submission.state = SubmissionState.ACCEPTED
    submission.error_code, submission.error_text = ("hash", error_advice("hash")) if mismatched else ("", "")
    submission.save(update_fields=["state", "error_code", "error_text", "reply", "replied_at"])
    stored = record_for_update(contract)
    stored.record_id, stored.version_id, stored.link = record.record_id, record.version_id, record.link[:300]
    fields = ["error_message"]
    if mismatched:
        contract.error_message = _("The registry of contracts published the record, but: %(advice)s") % {
            "advice": submission.error_text
        }
    else:
        contract.error_message = ""
    if submission.operation == Operation.WITHDRAW:
        contract.status, stored.link = Status.PUBLISHED, ""
        fields.append("status")
        audit(contract, None, "registry_withdrawn", submission=submission.pk, record_id=record.record_id)
    elif submission.operation == Operation.PUBLISH and not mismatched:
        contract.status, stored.registered_at = Status.REGISTERED, record.published_at or timezone.now()
        fields.append("status")
        audit(contract, None, "registered", submission=submission.pk, record_id=record.record_id, link=record.link,
              sha256_checked=len(submission.files))  # fmt: skip
        webhooks_notify(contract=contract, event=WebhookEvent.REGISTERED)
        for follower in RegistrySubmission.objects.filter(follows=submission, state=SubmissionState.PREPARED):
            xml = isrs.add_files_xml([f["name"] for f in follower.files], record_id=record.record_id)
            follower.xml, follower.key = xml.decode("utf-8"), _key(Operation.ADD_FILES, xml, follower.files)
            follower.save(update_fields=["xml", "key"])
            if follower.channel == "databox":  # a records system sends its own next package
                queue.enqueue(SEND_REGISTRY_SUBMISSION, follower.pk, timeout=300)
    else:
        audit(contract, None, f"registry_{submission.operation}_accepted", submission=submission.pk,
              version_id=record.version_id, hash_mismatch=mismatched)  # fmt: skip
        if submission.operation == Operation.MODIFY and submission.files and not mismatched:
            # a correction of a record published before: its new version is this contract
            corrected = PublishedRecord.objects.filter(correction=contract)
            if corrected.update(version_id=record.version_id, corrected_at=timezone.now()):
                contract.status, stored.registered_at = Status.REGISTERED, record.published_at or timezone.now()
                fields.append("status")
                webhooks_notify(contract=contract, event=WebhookEvent.REGISTERED)
                for _file, further in further_corrections(contract):  # their files went in this version
                    audit(further, None, f"registry_{submission.operation}_accepted",
                          submission=submission.pk, version_id=record.version_id, hash_mismatch=False)  # fmt: skip
    stored.save()
    contract.save(update_fields=fields)


def registry_replies_fetch(*, agency: Agency) -> int:
    """Job body: read the registry's replies in the agency's data box and apply each to the
    submission it answers (paired by ``puvodniZprava``, the message id). Returns how many
    were applied. A reply that answers nothing of ours is left unread; one that is not readable
    is logged. Raises :class:`~registry.databox.DataBoxError` when the box cannot be read."""
    regs = registry_settings(agency)
    waiting = {
        s.message_id: s
        for s in RegistrySubmission.objects.filter(agency=agency, state=SubmissionState.SENT).exclude(message_id="")
    }
    if not waiting or regs.pk is None:
        return 0
    now = timezone.now()
    oldest = min(s.sent_at or now for s in waiting.values())
    since = min(oldest, regs.replies_checked_at or oldest) - timedelta(hours=1)
    applied = 0
    refs = {_our_ref(s) for s in waiting.values()}
    with databox_client(agency) as client:
        for message in client.received(since, now + timedelta(minutes=5)):
            if message.sender_box != settings.REDACTOR_REGISTRY_DATABOX:
                continue
            if message.our_ref and message.our_ref not in refs:
                continue
            files = client.download(message.message_id)
            xml = next((data for name, data in files if name.lower().endswith(".xml")), None)
            if xml is None:
                continue
            try:
                reply = isrs.parse_reply(xml)
            except isrs.RegistryXmlError as exc:
                log.warning("unreadable registry reply %s: %s", message.message_id, exc)
                continue
            submission = waiting.pop(reply.message_id, None)
            if submission is None:
                continue
            with transaction.atomic():
                _apply_reply(submission, reply)
            client.mark_downloaded(message.message_id)
            applied += 1
    RegistrySettings.objects.filter(pk=regs.pk).update(replies_checked_at=now)
    return applied


def registry_replies_fetch_all() -> int:
    """Job body of the periodic check: :func:`registry_replies_fetch` for every agency with a
    submission waiting for its reply; one agency's failure does not stop the others."""
    total = 0
    agencies = Agency.objects.filter(
        pk__in=RegistrySubmission.objects.filter(state=SubmissionState.SENT).values("agency_id")
    )
    for agency in agencies:
        try:
            total += registry_replies_fetch(agency=agency)
        except (DataBoxError, ValidationError) as exc:
            log.warning("registry replies of agency %s not read: %s", agency.pk, exc)
    return total
