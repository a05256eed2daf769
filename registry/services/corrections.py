"""Correcting a record the agency published before: from an audit's finding to a new version of
the record in the registry.

:func:`record_correct` makes a contract whose original is one of the record's published files
(the one with most findings, or the one the reviewer chose), linked to it
(``PublishedFile.correction``). It is processed and reviewed like any upload. The record's first
correction (``PublishedRecord.correction``) carries the record: its registry record holds the
published record's id and the published metadata, with every party the audit found naming a
private person replaced as the registry's XSD prescribes for § 5(6) of Act 340/2015
(:data:`redactor.metadata.NOT_PUBLIC`, the address emptied). A record with more files that expose
data gets a correction per file the same way; those go to the registry only inside the record's
correction. Once the record's correction is published, the registry panel sends a ``modifikace``
of the record (:func:`registry.services.registry_submit`), whose files are the corrected
contracts' published files and the record's other stored files, unchanged. It is refused while a
file's correction is not published yet, and while a file the audit found exposing data has no
correction and no reviewer stated that it goes as it is (:func:`record_file_as_is`, recorded in
the audit trail): nothing exposing goes out again without a word.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.access import require_role
from accounts.models import Role
from contracts.models import PUBLISHED_STATES, Contract
from contracts.services.common import audit
from contracts.services.uploads import RegistryMetadata, contract_upload
from redactor import metadata as engine_metadata
from registry.models import PublishedFile, PublishedRecord, RegistryRecord

from .files import published_files


def file_findings(record: PublishedRecord) -> dict[str, int]:
    """What the audit found in each of the record's files, by name: legible values and failed
    boxes."""
    return {f["name"]: f.get("legible", 0) + f.get("failed_boxes", 0) for f in record.findings.get("files", [])}


def files_to_decide(record: PublishedRecord) -> list[tuple[PublishedFile, int]]:
    """The record's stored files that expose data (with their findings) and have neither a
    correction nor a reviewer's statement that they go as they are: what holds its correction's
    ``modifikace`` back (the record's own corrected file excluded)."""
    found = file_findings(record)
    waiting = record.files.filter(state=PublishedFile.State.STORED, correction=None, as_is_at=None)
    return [(f, found[f.name]) for f in waiting.order_by("id") if found.get(f.name)]


def correction_sent(record: PublishedRecord) -> bool:
    """Whether the record's correction went to the registry (no file can join it any more)."""
    return record.correction is not None and record.correction.registry_submissions.exists()


def _most_exposed(record: PublishedRecord) -> PublishedFile | None:
    """The record's stored file with most findings (legible values and failed boxes), the first
    on a tie."""
    found = file_findings(record)
    stored = list(record.files.filter(state=PublishedFile.State.STORED).order_by("id"))
    return max(stored, key=lambda f: found.get(f.name, 0), default=None)


def corrected_metadata(record: PublishedRecord) -> engine_metadata.ContractMetadata:
    """The record's published metadata with the parties the audit found naming private persons
    (``findings["metadata"]``) named by :data:`~redactor.metadata.NOT_PUBLIC`, their address
    emptied, each marked private with the source note ``not_public``."""
    meta = engine_metadata.ContractMetadata.from_dict(record.metadata)
    for exposed in record.findings.get("metadata", []):
        index = exposed["party"] - 1
        if 0 <= index < len(meta.parties):
            party = meta.parties[index]
            party.name, party.address, party.private = engine_metadata.NOT_PUBLIC, "", True
            party.source = engine_metadata.Source(page=1, text="", note="not_public")
    return meta


def record_correct(*, record: PublishedRecord, user: User, file_id: int | None = None) -> Contract:
    """Make the contract that corrects the record's stored file ``file_id`` (None: the record's
    correction if it has one, else its most exposed file; module docstring) and queue its
    processing; a file being corrected already returns its contract.

    Raises ``PermissionDenied`` unless ``user`` is a reviewer of the record's agency;
    ``ValidationError`` code ``no_file`` when the record has no stored file (or ``file_id`` is not
    one of them), ``already_sent`` for a further file once the record's correction was sent to
    the registry, and as :func:`contracts.services.uploads.contract_upload` for a file that cannot
    be processed."""
    require_role(user, record.agency, Role.REVIEWER)
    with transaction.atomic():
        locked = PublishedRecord.objects.select_for_update().get(pk=record.pk)
        stored = locked.files.filter(state=PublishedFile.State.STORED)
        if file_id is None and locked.correction is not None:
            return locked.correction
        chosen = stored.filter(pk=file_id).first() if file_id is not None else _most_exposed(locked)
        if chosen is None:
            raise ValidationError(_("This record has no file fetched from the registry to correct."), code="no_file")
        if chosen.correction is not None:
            return chosen.correction
        lead = locked.correction
        if correction_sent(locked):
            raise ValidationError(
                _("The correction of this record was already sent to the registry; a further file cannot join it."),
                code="already_sent",
            )
        contract = _correction_upload(locked, chosen, user, further=lead is not None)
        if lead is None:
            locked.correction, locked.correction_file = contract, chosen
            locked.save(update_fields=["correction", "correction_file"])
        chosen.correction, chosen.as_is_by, chosen.as_is_at = contract, None, None
        chosen.save(update_fields=["correction", "as_is_by", "as_is_at"])
        audit(contract, user, "record_correction_started", record_id=locked.record_id, file=chosen.name,
              sha256=chosen.sha256)  # fmt: skip
    return contract


def record_file_as_is(*, record: PublishedRecord, user: User, file_id: int) -> PublishedFile:
    """A reviewer states that the record's stored file ``file_id``, which the audit found exposing
    data, goes to the registry unchanged with the record's correction; recorded on the file and
    in the audit trail of the record's correction (the file, its findings). Correcting the file
    later takes the statement back.

    Raises ``PermissionDenied`` unless ``user`` is a reviewer of the record's agency;
    ``ValidationError`` code ``no_correction`` before the record has a correction,
    ``already_sent`` once it went to the registry, ``no_file`` for a file that is not one of
    the record's stored files exposing data without a correction."""
    require_role(user, record.agency, Role.REVIEWER)
    with transaction.atomic():
        locked = PublishedRecord.objects.select_for_update().get(pk=record.pk)
        if locked.correction is None:
            raise ValidationError(
                _("Correct the record first; a file goes as it is only with the record's correction."),
                code="no_correction",
            )
        if correction_sent(locked):
            raise ValidationError(
                _("The correction of this record was already sent to the registry."), code="already_sent"
            )
        chosen = {f.pk: (f, n) for f, n in files_to_decide(locked)}.get(file_id)
        if chosen is None:
            raise ValidationError(
                _("This file has nothing left to decide: it does not expose data, or it is being corrected."),
                code="no_file",
            )
        f, found = chosen
        f.as_is_by, f.as_is_at = user, timezone.now()
        f.save(update_fields=["as_is_by", "as_is_at"])
        audit(locked.correction, user, "record_file_sent_as_is", record_id=locked.record_id, file=f.name,
              findings=found)  # fmt: skip
    return f


def _correction_upload(record: PublishedRecord, chosen: PublishedFile, user: User, *, further: bool) -> Contract:
    """The contract made from ``chosen``; the record's first correction (not ``further``) also
    gets the registry record with the corrected metadata."""
    with chosen.content.open("rb") as fh:
        data = fh.read()
    meta = corrected_metadata(record)
    names = {"record": record.record_id, "file": chosen.name, "subject": meta.subject}
    if further:
        title = _("Correction of record %(record)d, file %(file)s: %(subject)s") % names
    else:
        title = _("Correction of record %(record)d: %(subject)s") % names
    contract = contract_upload(
        agency=record.agency,
        user=user,
        data=data,
        filename=chosen.name,
        title=title,
        metadata=RegistryMetadata(subject=meta.subject[:300], date_concluded=meta.date_concluded),
    )
    if not further:
        RegistryRecord.objects.update_or_create(
            contract=contract,
            defaults={
                "metadata": meta.to_dict(),
                "record_id": record.record_id,
                "version_id": record.version_id,
                "link": record.link,
                "registered_at": record.published_at,
            },
        )
    return contract


def correction_published(contract: Contract) -> bool:
    """Whether a file's correction ``contract`` is published, so its files can go to the registry."""
    return contract.status in PUBLISHED_STATES and bool(contract.redacted)


def corrected_record(contract: Contract) -> PublishedRecord | None:
    """The record ``contract`` is the correction of (the one that sends its new version), or None."""
    return PublishedRecord.objects.filter(correction=contract).first()


def corrected_file_of(contract: Contract) -> PublishedFile | None:
    """The published file ``contract`` corrects (with its record), or None."""
    return PublishedFile.objects.select_related("record").filter(correction=contract).first()


def further_corrections(contract: Contract) -> list[tuple[PublishedFile, Contract]]:
    """The record's other files with a correction of their own and that correction, when
    ``contract`` is the record's correction; else empty."""
    record = corrected_record(contract)
    if record is None:
        return []
    files = record.files.exclude(correction=None).exclude(correction=contract).select_related("correction")
    return [(f, f.correction) for f in files if f.correction is not None]


def correction_files(contract: Contract) -> list[tuple[str, bytes, str]] | None:
    """The record's other stored files, sent beside the record's correction ``contract``'s files
    (``[(name, content, kind)]``): a file with a correction of its own as that contract published
    it, the others unchanged; None when ``contract`` is no record's correction. Raises
    ``ValidationError`` code ``files_undecided`` while a file exposing data has neither a
    correction nor a statement that it goes as it is (:func:`files_to_decide`), and
    ``correction_pending`` while a file's correction is not published."""
    record = corrected_record(contract)
    if record is None:
        return None
    undecided = files_to_decide(record)
    if undecided:
        raise ValidationError(
            ngettext(
                "The file %(files)s of this record still shows personal data and has no correction: correct it, "
                "or state on this page that it goes to the registry as it is.",
                "The files %(files)s of this record still show personal data and have no correction: correct "
                "them, or state on this page that they go to the registry as they are.",
                len(undecided),
            )
            % {"files": ", ".join(f"{f.name} ({n})" for f, n in undecided)},
            code="files_undecided",
        )
    out: list[tuple[str, bytes, str]] = []
    others = record.files.filter(state=PublishedFile.State.STORED).select_related("correction").order_by("id")
    for f in others.exclude(pk=record.correction_file_id) if record.correction_file_id else others:
        if f.correction is not None and f.correction != contract:
            if not correction_published(f.correction):
                raise ValidationError(
                    _("The file %(file)s of this record is still being corrected: publish “%(title)s” first.")
                    % {"file": f.name, "title": f.correction.title},
                    code="correction_pending",
                )
            out.extend(published_files(f.correction))
            continue
        with f.content.open("rb") as fh:
            out.append((f.name, fh.read(), "pdf"))
    return out


def correction_file_names(contract: Contract) -> list[str] | None:
    """The names of the files a ``modifikace`` of the record that ``contract`` corrects carries,
    as :func:`correction_files` would send them (the contract's published PDF and text first),
    read from the records alone, for a preview; None when ``contract`` is no record's correction."""
    record = corrected_record(contract)
    if record is None:
        return None
    names = [contract.download_name("", "pdf"), contract.download_name("", "txt")]
    others = record.files.filter(state=PublishedFile.State.STORED).select_related("correction").order_by("id")
    for f in others.exclude(pk=record.correction_file_id) if record.correction_file_id else others:
        if f.correction is not None and f.correction != contract:
            names += [f.correction.download_name("", "pdf"), f.correction.download_name("", "txt")]
        else:
            names.append(f.name)
    return names
