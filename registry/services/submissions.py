"""Submissions to the registry: the message written, validated and checked for redacted
values, one row per content (idempotent), and the package for agencies that send it themselves."""

from __future__ import annotations

import hashlib
import io
import logging
import zipfile

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from accounts.access import require_role
from accounts.models import Role
from contracts import queue
from contracts.models import PUBLISHED_STATES, Contract
from contracts.services.common import Download, audit
from registry import isrs
from registry.models import RegistrySubmission
from registry.selectors import registry_record

from .corrections import corrected_file_of, corrected_record, correction_files
from .files import published_files
from .metadata import registry_metadata, registry_problems, registry_settings

log = logging.getLogger(__name__)

Operation = RegistrySubmission.Operation
SubmissionState = RegistrySubmission.State
#: Submissions that hold their content: sending the same again returns them.
_LIVE = (SubmissionState.PREPARED, SubmissionState.SENDING, SubmissionState.SENT, SubmissionState.ACCEPTED)
SEND_REGISTRY_SUBMISSION = "registry.jobs.send_registry_submission"


# -- submissions --------------------------------------------------------------------------------
def _files_of(contract: Contract, operation: str) -> list[tuple[str, bytes, str]]:
    """The files ``operation`` may send: a publication's (and its further messages') published
    files; a correction of a record the agency published before (:mod:`.corrections`) sends the
    corrected contract's published files and the record's other files, each corrected file as its
    own correction published it, the rest unchanged; any other operation none."""
    if operation in (Operation.PUBLISH, Operation.ADD_FILES):
        return published_files(contract)
    if operation == Operation.MODIFY:
        others = correction_files(contract)
        if others is not None and contract.redacted:
            return published_files(contract) + others
    return []


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
    *, contract: Contract, user: User | None, operation: str = Operation.PUBLISH, reason: str = ""
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
    ``incomplete`` (:func:`registry_problems`), ``already_sent``, ``reason_required``,
    ``correction_pending`` (a record's correction while one of its files' corrections is not
    published, :func:`.corrections.correction_files`) or ``invalid_xml``.
    """
    if user is not None:
        require_role(user, contract.agency, Role.REVIEWER)
    contract = Contract.objects.select_for_update().get(pk=contract.pk, agency=contract.agency)
    regs = registry_settings(contract.agency)
    metadata = registry_metadata(contract)
    pending = _submittable(contract, operation, reason, metadata)
    entries = _file_entries(_files_of(contract, operation))
    batches, first, xml = _message(contract, operation, metadata, entries, regs.confirmation_email)
    same = contract.registry_submissions.filter(key=_key(operation, xml, first)).first()
    if same is not None:
        _send_again_if_failed(same, regs.channel)
        return same
    if pending.exists():
        raise ValidationError(
            _("This contract was already sent to the registry; correct it with a new metadata version."),
            code="already_sent",
        )
    submission, created = _create(contract, user, operation, xml, first, reason, channel=regs.channel)
    if not created:  # the same content, submitted at the same moment by another request
        _send_again_if_failed(submission, regs.channel)
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


def _submittable(contract: Contract, operation: str, reason: str, metadata) -> QuerySet[RegistrySubmission]:
    """Step 1 of :func:`registry_submit`: refuse what cannot be sent (``wrong_status``,
    ``reason_required``, ``incomplete``); return the submissions of the same operation already
    on their way, which a different content may not join."""
    if operation == Operation.PUBLISH:
        if contract.status not in PUBLISHED_STATES or not contract.redacted:
            raise ValidationError(_("Publish the redacted contract first."), code="wrong_status")
        if corrected_record(contract) is not None:
            raise ValidationError(
                _("This contract corrects a record already in the registry: send it as a correction."),
                code="wrong_status",
            )
        _refuse_a_file_correction(contract)
        pending = contract.registry_submissions.filter(
            operation=Operation.PUBLISH,
            state__in=(SubmissionState.SENDING, SubmissionState.SENT, SubmissionState.ACCEPTED),
        )
    else:
        _refuse_a_file_correction(contract)
        _registered_record(contract)
        corrects = operation == Operation.MODIFY and corrected_record(contract) is not None
        if corrects and (contract.status not in PUBLISHED_STATES or not contract.redacted):
            raise ValidationError(_("Publish the corrected contract first."), code="wrong_status")
        if not reason.strip():
            raise ValidationError(_("Give the reason for the correction or withdrawal."), code="reason_required")
        pending = RegistrySubmission.objects.none()
    if operation in (Operation.PUBLISH, Operation.MODIFY):
        problems = registry_problems(contract, metadata)
        if problems:
            raise ValidationError(" ".join(problems), code="incomplete")
    return pending


def _refuse_a_file_correction(contract: Contract) -> None:
    """A contract that corrects one more file of a record goes to the registry inside the
    record's correction, never on its own: ``ValidationError`` code ``wrong_status``."""
    corrected = corrected_file_of(contract)
    if corrected is not None and corrected.record.correction_id != contract.pk:
        raise ValidationError(
            _(
                "This contract corrects the file %(file)s of record %(record)s: it goes to the registry with the "
                "record's correction, sent from the contract that corrects the record."
            )
            % {"file": corrected.name, "record": corrected.record.record_id},
            code="wrong_status",
        )


def _message(
    contract: Contract, operation: str, metadata, entries: list[dict], email: str
) -> tuple[list[list[str]], list[dict], bytes]:
    """Step 2 of :func:`registry_submit`: the message's XML, the files of its first message and
    the batches of all files (one message each, under the data box's limit). Raises
    ``ValidationError`` (``invalid_xml``, ``invalid``)."""
    try:
        if operation == Operation.PUBLISH:
            batches = isrs.split_files(
                [(f["name"], f["size"]) for f in entries], limit=settings.REDACTOR_REGISTRY_MESSAGE_BYTES
            )
            first = [f for f in entries if f["name"] in batches[0]]
            return batches, first, isrs.publish_xml(metadata, [f["name"] for f in first], email)
        if operation == Operation.MODIFY:
            names = [f["name"] for f in entries]
            return [names], entries, isrs.modify_xml(_registered_record(contract), metadata, names, email)
        if operation == Operation.WITHDRAW:
            return [[]], [], isrs.withdraw_xml(_registered_record(contract), email)
    except isrs.RegistryXmlError as exc:
        raise ValidationError(_("The registry's schema refuses the metadata: %(errors)s") % {"errors": exc},
                              code="invalid_xml") from None  # fmt: skip
    raise ValidationError(_("Unknown registry operation."), code="invalid")


def _send_again_if_failed(submission: RegistrySubmission, channel: str) -> None:
    """Step 3 of :func:`registry_submit` for content submitted before: a submission that failed
    to send through the data box is queued again; any other stays as it is."""
    if submission.state == SubmissionState.FAILED and channel == "databox":
        submission.state, submission.error_code, submission.error_text = SubmissionState.PREPARED, "", ""
        submission.save(update_fields=["state", "error_code", "error_text"])
        queue.enqueue(SEND_REGISTRY_SUBMISSION, submission.pk, timeout=300)


def registry_package(*, contract: Contract, user: User):
    """The submission package for an agency that sends through its own records system: a ZIP
    with the operation's XML under its fixed name (``zverejneni.xml``, ``modifikace.xml``,
    ``znepristupneni.xml``) and the files it names, exactly so named. The package is that of the
    newest submission still waiting to be sent (a correction or withdrawal the reviewer
    prepared), else of the publication, which is prepared when there is none (as
    :func:`registry_submit`, without sending). Raises as :func:`registry_submit`. Returns a
    :class:`~contracts.services.common.Download`."""
    require_role(user, contract.agency, Role.REVIEWER)
    submission = (
        contract.registry_submissions.filter(state=SubmissionState.PREPARED, channel="package")
        .exclude(xml="")
        .order_by("-id")
        .first()
    ) or (contract.registry_submissions.filter(operation=Operation.PUBLISH, state__in=_LIVE).order_by("-id").first())
    if submission is None:
        with transaction.atomic():
            submission = registry_submit(contract=contract, user=user, operation=Operation.PUBLISH)
    files = (
        {name: content for name, content, _k in _files_of(contract, submission.operation)} if submission.files else {}
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(isrs.FILE_NAMES[submission.operation], submission.xml.encode("utf-8"))
        for entry in submission.files:
            zf.writestr(entry["name"], files[entry["name"]])
    audit(contract, user, "registry_package_downloaded", submission=submission.pk)
    return Download(contract.download_name("-registr-smluv", "zip"), buffer.getvalue(), "application/zip", private=True)


def _registered_record(contract: Contract) -> int:
    """The contract's record ID in the registry. Raises ``ValidationError`` (code
    ``wrong_status``) while it has none: a correction or a withdrawal needs the record."""
    record_id = registry_record(contract).record_id
    if not record_id:
        raise ValidationError(_("The contract is not registered yet."), code="wrong_status")
    return record_id
