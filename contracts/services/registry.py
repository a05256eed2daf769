"""Publishing in the registry of contracts (Act 340/2015 Sb.): the metadata, the messages, the
data box, the replies.

A published contract is only *registered* when the registry replies that it published it; the
reply makes it public and the contract effective (§ 6 of the Act). The flow:

1. processing pre-fills the metadata from the contract (:func:`registry_metadata_prefill`,
   :func:`redactor.core.registry_metadata.prefill`); a clerk or reviewer corrects it
   (:func:`registry_metadata_update`);
2. a reviewer sends it (:func:`registry_submit`): the XML is written and validated against the
   registry's XSD, checked for anything the PDF redacts, and either sent through the agency's
   data box by a job (:func:`registry_submission_send`) or kept as a package to download
   (:func:`registry_package`) for agencies that send through their own records system;
3. a periodic job reads the agency's data box (:func:`registry_replies_fetch`), pairs each reply
   with its submission by the message id, checks every file's SHA-256 and moves the contract to
   *registered*, or records the registry's error in the clerk's words;
4. a registered contract can be corrected (``modifikace``) or withdrawn (``znepristupneni``),
   each with its reason in the audit trail.

Submissions are idempotent: one row per content (operation, XML, files), so sending the same
thing twice returns the first submission and sends nothing.
"""

from __future__ import annotations

import hashlib
import io
import logging
import os
import tempfile
import zipfile
from contextlib import contextmanager
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import secrets
from accounts.access import require_role
from accounts.models import Agency, RegistrySettings, Role
from contracts import queue, selectors
from contracts.databox import DataBoxClient, DataBoxError, OutgoingFile
from contracts.models import PUBLISHED_STATES, Contract, RegistrySubmission, Status, WebhookEvent
from redactor.core import isrs
from redactor.core.registry_metadata import (
    MAX_TEXT,
    ContractMetadata,
    PublishingBody,
    RegistryParty,
    Source,
)
from redactor.core.registry_metadata import redacted_values_in as _redacted_values_in
from redactor.core.registry_prefill import prefill
from redactor.selectors import agency_profile

from .common import audit
from .webhooks import webhooks_notify

log = logging.getLogger(__name__)

Operation = RegistrySubmission.Operation
SubmissionState = RegistrySubmission.State
#: Submissions that hold their content: sending the same again returns them.
_LIVE = (SubmissionState.PREPARED, SubmissionState.SENDING, SubmissionState.SENT, SubmissionState.ACCEPTED)
SEND_REGISTRY_SUBMISSION = "contracts.jobs.send_registry_submission"


# -- settings and metadata ---------------------------------------------------------------------
def registry_settings(agency: Agency) -> RegistrySettings:
    """The agency's registry settings (defaults when none were saved: a package to download)."""
    found = RegistrySettings.objects.filter(agency=agency).first()
    return found if found is not None else RegistrySettings(agency=agency)


def publishing_body(agency: Agency) -> PublishingBody:
    """``subjekt`` from the agency's settings: its data box, name, IČO, the registry settings'
    address (else the first address of its profile) and unit."""
    regs = registry_settings(agency)
    profile = agency_profile(agency=agency)
    return PublishingBody(
        data_box=agency.data_box_id,
        name=agency.name,
        ico=agency.ico,
        address=regs.address or (profile.addresses[0] if profile.addresses else ""),
        unit=regs.unit,
    )


def registry_metadata(contract: Contract) -> ContractMetadata:
    """The contract's registry metadata as stored, its ``subjekt`` from the agency's settings now."""
    meta = ContractMetadata.from_dict(contract.registry_metadata)
    payer = meta.publisher.payer
    meta.publisher = publishing_body(contract.agency)
    meta.publisher.payer = payer
    return meta


def registry_metadata_prefill(*, contract: Contract, analysis, profile) -> ContractMetadata:
    """Fill the contract's metadata from ``analysis`` (the engine's
    :class:`~redactor.core.engine.Analysis`) and the agency's ``profile``; what the clerk typed
    at upload wins over what was read. An amendment whose contract number matches a contract
    the agency registered gets that record as ``navazanyZaznam``. Saves nothing: the caller
    stores ``contract.registry_metadata`` in its transaction."""
    meta = prefill(analysis, profile, unit=registry_settings(contract.agency).unit)
    typed = Source(0, "", "upload")
    if contract.subject:
        meta.subject, meta.sources["subject"] = contract.subject[:MAX_TEXT], typed
    if contract.date_concluded:
        meta.date_concluded, meta.sources["date_concluded"] = contract.date_concluded, typed
    if contract.value_amount is not None:
        if (contract.value_currency or "CZK") == "CZK":
            meta.value_without_vat, meta.sources["value_without_vat"] = contract.value_amount, typed
        else:
            meta.foreign_value, meta.foreign_currency = contract.value_amount, contract.value_currency
            meta.sources["foreign_value"] = typed
    if contract.counterparty and not any(p.name for p in meta.parties):
        meta.parties.insert(0, RegistryParty(name=contract.counterparty[:MAX_TEXT], source=typed))
    if meta.amendment and meta.number and meta.related_record is None:
        earlier = (
            Contract.objects.filter(agency=contract.agency, registry_record_id__isnull=False)
            .exclude(pk=contract.pk)
            .filter(registry_metadata__number=meta.number)
            .order_by("-registered_at")
            .first()
        )
        if earlier is not None:
            meta.related_record = earlier.registry_record_id
            meta.sources["related_record"] = Source(0, earlier.title[:200], "same_number")
    return meta


def _redacted_texts(contract: Contract) -> list[str]:
    """The texts the published PDF blacks out (accepted proposals and manual boxes with text)."""
    return [p.text for p in selectors.proposals_for_contract(contract=contract) if p.will_redact and p.text]


def registry_problems(contract: Contract, metadata: ContractMetadata) -> list[str]:
    """What stops ``metadata`` from being sent, in the interface's language: required fields
    left empty, a value the published PDF redacts (named by field, never quoted), the publishing
    body's data box missing. Empty when it can go."""
    labels = {
        "smluvniStrana": _("at least one contracting party"),
        "predmet": _("the subject"),
        "datumUzavreni": _("the date of conclusion"),
        "ciziMena/mena": _("the currency of the foreign value"),
    }
    problems = []
    for name in isrs.missing_fields(metadata):
        label = labels.get(name) or _("the name of contracting party %(n)s") % {"n": name.split("[")[1].split("]")[0]}
        problems.append(_("Fill in %(what)s.") % {"what": label})
    for path, _value in _redacted_values_in(metadata, _redacted_texts(contract)):
        problems.append(
            _("The field “%(field)s” contains a value the published PDF redacts; the metadata are public too.")
            % {"field": _field_label(path)}
        )
    if not metadata.publisher.data_box and registry_settings(contract.agency).channel == "databox":
        problems.append(_("The agency's data box ID is missing in its settings."))
    return problems


def _field_label(path: str) -> str:
    names = {
        "subject": _("Subject"),
        "number": _("Contract number"),
        "signed_by": _("Signed by"),
        "name": _("name"),
        "ico": _("IČO"),
        "data_box": _("data box"),
        "address": _("address"),
    }
    if path.startswith("parties."):
        _p, index, key = path.split(".")
        return _("Party %(n)s: %(field)s") % {"n": int(index) + 1, "field": names.get(key, key)}
    return names.get(path, path)


@transaction.atomic
def registry_metadata_update(*, contract: Contract, user: AbstractBaseUser, metadata: ContractMetadata) -> Contract:
    """Store the metadata a clerk or reviewer confirmed or corrected (the sources of fields they
    changed become "edited"). Raises ``PermissionDenied`` for a non-member, ``ValidationError``
    (``wrong_status``) for a deleted contract or one whose publication is on its way."""
    require_role(user, contract.agency, Role.CLERK)
    contract = Contract.objects.select_for_update().get(pk=contract.pk, agency=contract.agency)
    if contract.status == Status.DELETED:
        raise ValidationError(_("The contract was deleted."), code="wrong_status")
    before = ContractMetadata.from_dict(contract.registry_metadata)
    old, new = before.to_dict(), metadata.to_dict()
    changed = sorted(k for k in new if k not in ("sources", "publisher") and new[k] != old.get(k))
    metadata.sources = dict(before.sources)
    for key in changed:
        metadata.sources[key] = Source(0, "", "edited")
    contract.registry_metadata = metadata.to_dict()
    contract.save(update_fields=["registry_metadata"])
    audit(contract, user, "registry_metadata_edited", fields=changed)
    return contract


def registry_preview(contract: Contract, metadata: ContractMetadata | None = None) -> bytes:
    """The XML the metadata give now: ``modifikace.xml`` for a registered contract, else
    ``zverejneni.xml`` naming the files as they will be sent. Raises
    :class:`~redactor.core.isrs.RegistryXmlError` while a required field is empty."""
    metadata = metadata or registry_metadata(contract)
    email = registry_settings(contract.agency).confirmation_email
    if contract.registry_record_id:
        return isrs.modify_xml(contract.registry_record_id, metadata, [], email)
    names = [contract.download_name("", "pdf"), contract.download_name("", "txt")]
    return isrs.publish_xml(metadata, names, email)


# -- submissions --------------------------------------------------------------------------------
def _published_files(contract: Contract) -> list[tuple[str, bytes, str]]:
    """The files the registry gets: ``[(name, content, kind)]``, the published PDF and its text,
    named as the downloads are (ASCII, the registry is case-sensitive)."""
    files = []
    for field, suffix, ext, kind in (
        (contract.redacted, "", "pdf", "pdf"),
        (contract.redacted_text, "", "txt", "text"),
    ):
        if field:
            with field.open("rb") as fh:
                files.append((contract.download_name(suffix, ext), fh.read(), kind))
    return files


def _key(operation: str, xml: bytes, files: list[dict]) -> str:
    h = hashlib.sha256(operation.encode() + b"\0" + xml)
    for f in files:
        h.update(b"\0" + f["name"].encode() + b"\0" + f["sha256"].encode())
    return h.hexdigest()


def _create(contract, user, operation, xml: bytes, files, reason="", follows=None, channel="databox"):
    key = _key(operation, xml, files)
    submission = RegistrySubmission(
        agency=contract.agency,
        contract=contract,
        operation=operation,
        key=key,
        xml=xml.decode("utf-8"),
        files=files,
        reason=reason,
        follows=follows,
        channel=channel,
        created_by=user if user is not None and user.is_authenticated else None,
    )
    submission.full_clean()
    try:
        with transaction.atomic():
            submission.save()
    except IntegrityError:  # the same content submitted at the same moment
        return RegistrySubmission.objects.get(contract=contract, key=key), False
    return submission, True


def _file_entries(files: list[tuple[str, bytes, str]]) -> list[dict]:
    return [{"name": n, "sha256": isrs.sha256(c), "size": len(c), "kind": k} for n, c, k in files]


@transaction.atomic
def registry_submit(
    *, contract: Contract, user: AbstractBaseUser | None, operation: str = Operation.PUBLISH, reason: str = ""
) -> RegistrySubmission:
    """Prepare ``operation`` for ``contract`` and, with the data-box channel, queue its sending.

    ``zverejneni`` publishes a published contract (files over the 20 MB of one message: the first
    message carries what fits, ``pridani_prilohy`` submissions follow once the registry has
    replied); ``modifikace`` sends the corrected metadata of a registered contract and
    ``znepristupneni`` withdraws it, both with a ``reason`` (required, audit trail).

    Returns the submission; the same content submitted again returns the first submission and
    queues nothing (a submission that failed to send is queued again). Raises
    ``PermissionDenied`` unless ``user`` is a reviewer (``None``: the system), ``ValidationError``
    with code ``wrong_status`` (not published, or not registered for a correction),
    ``incomplete`` (:func:`registry_problems`), ``already_sent``, ``reason_required`` or
    ``invalid_xml``.
    """
    if user is not None:
        require_role(user, contract.agency, Role.REVIEWER)
    contract = Contract.objects.select_for_update().get(pk=contract.pk, agency=contract.agency)
    regs = registry_settings(contract.agency)
    metadata = registry_metadata(contract)
    email = regs.confirmation_email
    if operation == Operation.PUBLISH:
        if contract.status not in PUBLISHED_STATES or not contract.redacted:
            raise ValidationError(_("Publish the redacted contract first."), code="wrong_status")
        pending = contract.registry_submissions.filter(
            operation=Operation.PUBLISH,
            state__in=(SubmissionState.SENDING, SubmissionState.SENT, SubmissionState.ACCEPTED),
        )
    else:
        if not contract.registry_record_id:
            raise ValidationError(_("The contract is not registered yet."), code="wrong_status")
        if not reason.strip():
            raise ValidationError(_("Give the reason for the correction or withdrawal."), code="reason_required")
        pending = RegistrySubmission.objects.none()
    if operation in (Operation.PUBLISH, Operation.MODIFY):
        problems = registry_problems(contract, metadata)
        if problems:
            raise ValidationError(" ".join(problems), code="incomplete")
    files = _published_files(contract) if operation == Operation.PUBLISH else []
    entries = _file_entries(files)
    try:
        if operation == Operation.PUBLISH:
            batches = isrs.split_files(
                [(f["name"], f["size"]) for f in entries], limit=settings.REDACTOR_REGISTRY_MESSAGE_BYTES
            )
            first = [f for f in entries if f["name"] in batches[0]]
            xml = isrs.publish_xml(metadata, [f["name"] for f in first], email)
        elif operation == Operation.MODIFY:
            batches, first = [[]], []
            xml = isrs.modify_xml(contract.registry_record_id, metadata, [], email)
        elif operation == Operation.WITHDRAW:
            batches, first = [[]], []
            xml = isrs.withdraw_xml(contract.registry_record_id, email)
        else:
            raise ValidationError(_("Unknown registry operation."), code="invalid")
    except isrs.RegistryXmlError as exc:
        raise ValidationError(_("The registry's schema refuses the metadata: %(errors)s") % {"errors": exc},
                              code="invalid_xml") from None  # fmt: skip
    same = contract.registry_submissions.filter(key=_key(operation, xml, first)).first()
    if same is None and pending.exists():
        raise ValidationError(
            _("This contract was already sent to the registry; correct it with a new metadata version."),
            code="already_sent",
        )
    submission, created = (
        (same, False)
        if same is not None
        else _create(contract, user, operation, xml, first, reason, channel=regs.channel)
    )
    if not created:
        if submission.state == SubmissionState.FAILED and regs.channel == "databox":
            submission.state, submission.error_code, submission.error_text = SubmissionState.PREPARED, "", ""
            submission.save(update_fields=["state", "error_code", "error_text"])
            queue.enqueue(SEND_REGISTRY_SUBMISSION, submission.pk, timeout=300)
        return submission
    for batch in batches[1:]:  # the rest of the files, sent once the registry accepted the first
        rest = [f for f in entries if f["name"] in batch]
        _create(contract, user, Operation.ADD_FILES, b"", rest, follows=submission, channel=regs.channel)
    audit(
        contract,
        user,
        f"registry_{operation}_prepared",
        submission=submission.pk,
        files=[f["name"] for f in entries],
        channel=regs.channel,
        **({"reason": reason} if reason else {}),
    )
    if regs.channel == "databox":
        queue.enqueue(SEND_REGISTRY_SUBMISSION, submission.pk, timeout=300)
    return submission


def registry_package(*, contract: Contract, user: AbstractBaseUser):
    """The submission package for an agency that sends through its own records system: a ZIP
    with ``zverejneni.xml`` and the files it names, exactly so named. Prepares the submission
    when there is none (as :func:`registry_submit`, without sending). Raises as
    :func:`registry_submit`. Returns a :class:`~contracts.services.publishing.Download`."""
    from .publishing import Download  # noqa: PLC0415 - publishing -> processing -> registry

    require_role(user, contract.agency, Role.REVIEWER)
    submission = (
        contract.registry_submissions.filter(operation=Operation.PUBLISH, state__in=_LIVE).order_by("-id").first()
    )
    if submission is None:
        with transaction.atomic():
            submission = registry_submit(contract=contract, user=user, operation=Operation.PUBLISH)
    files = {name: content for name, content, _k in _published_files(contract)}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(isrs.FILE_NAMES[Operation.PUBLISH], submission.xml.encode("utf-8"))
        for entry in submission.files:
            zf.writestr(entry["name"], files[entry["name"]])
    audit(contract, user, "registry_package_downloaded", submission=submission.pk)
    return Download(contract.download_name("-registr-smluv", "zip"), buffer.getvalue(), "application/zip", private=True)


# -- the data box ----------------------------------------------------------------------------------
@contextmanager
def databox_client(agency: Agency):
    """A :class:`~contracts.databox.DataBoxClient` with the agency's credentials and environment,
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
        contents = {name: data for name, data, _k in _published_files(contract)}
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
        text = exc.message if isinstance(exc, DataBoxError) else "; ".join(getattr(exc, "messages", [str(exc)]))
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
    contract.registry_record_id, contract.registry_version_id = record.record_id, record.version_id
    contract.registry_link = record.link[:300]
    fields = ["registry_record_id", "registry_version_id", "registry_link", "error_message"]
    if mismatched:
        contract.error_message = _("The registry of contracts published the record, but: %(advice)s") % {
            "advice": submission.error_text
        }
    else:
        contract.error_message = ""
    if submission.operation == Operation.WITHDRAW:
        contract.status, contract.registry_link = Status.PUBLISHED, ""
        fields.append("status")
        audit(contract, None, "registry_withdrawn", submission=submission.pk, record_id=record.record_id)
    elif submission.operation == Operation.PUBLISH and not mismatched:
        contract.status, contract.registered_at = Status.REGISTERED, record.published_at or timezone.now()
        fields += ["status", "registered_at"]
        audit(contract, None, "registered", submission=submission.pk, record_id=record.record_id, link=record.link,
              sha256_checked=len(submission.files))  # fmt: skip
        webhooks_notify(contract=contract, event=WebhookEvent.REGISTERED)
        for follower in RegistrySubmission.objects.filter(follows=submission, state=SubmissionState.PREPARED):
            xml = isrs.add_files_xml([f["name"] for f in follower.files], record_id=record.record_id)
            follower.xml, follower.key = xml.decode("utf-8"), _key(Operation.ADD_FILES, xml, follower.files)
            follower.save(update_fields=["xml", "key"])
            queue.enqueue(SEND_REGISTRY_SUBMISSION, follower.pk, timeout=300)
    else:
        audit(contract, None, f"registry_{submission.operation}_accepted", submission=submission.pk,
              version_id=record.version_id, hash_mismatch=mismatched)  # fmt: skip
    contract.save(update_fields=fields)


def registry_replies_fetch(*, agency: Agency) -> int:
    """Job body: read the registry's replies in the agency's data box and apply each to the
    submission it answers (paired by ``puvodniZprava``, the message id). Returns how many
    were applied. A reply that answers nothing of ours is left unread; one that is not readable
    is logged. Raises :class:`~contracts.databox.DataBoxError` when the box cannot be read."""
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


@transaction.atomic
def registry_settings_update(
    *,
    agency: Agency,
    user: AbstractBaseUser,
    channel: str,
    environment: str,
    unit: str = "",
    address: str = "",
    confirmation_email: str = "",
    login: str = "",
    password: str | None = None,
    certificate: str | None = None,
) -> RegistrySettings:
    """Save the agency's registry settings; ``password`` and ``certificate`` (PEM with its key)
    are stored encrypted, None keeps the stored one, "" removes it. Raises ``PermissionDenied``
    unless ``user`` is an agency admin, ``ValidationError`` for invalid values."""
    require_role(user, agency, Role.ADMIN)
    regs = RegistrySettings.objects.select_for_update().filter(agency=agency).first() or RegistrySettings(agency=agency)
    regs.channel, regs.environment = channel, environment
    regs.unit, regs.address, regs.confirmation_email, regs.login = unit, address, confirmation_email, login
    if password is not None:
        regs.password_sealed = secrets.seal(password)
    if certificate is not None:
        regs.certificate_sealed = secrets.seal(certificate)
    regs.full_clean()
    regs.save()
    return regs
