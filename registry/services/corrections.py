"""Correcting a record the agency published before: from an audit's finding to a new version of
the record in the registry.

:func:`record_correct` makes a contract whose original is the record's published file (the one
with most findings, or the one the reviewer chose), linked to the record
(``PublishedRecord.correction``). It is processed and reviewed like any upload. Its registry record
carries the published record's id and the published metadata, with every party the audit found
naming a private person replaced as the registry's XSD prescribes for § 5(6) of Act 340/2015
(:data:`redactor.metadata.NOT_PUBLIC`, the address emptied). Once the contract is published, the
registry panel sends a ``modifikace`` of the record (:func:`registry.services.registry_submit`),
whose files are the corrected contract's published files and the record's other stored files,
unchanged.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.access import require_role
from accounts.models import Role
from contracts.models import Contract
from contracts.services.common import audit
from contracts.services.uploads import RegistryMetadata, contract_upload
from redactor import metadata as engine_metadata
from registry.models import PublishedFile, PublishedRecord, RegistryRecord


def _most_exposed(record: PublishedRecord) -> PublishedFile | None:
    """The record's stored file with most findings (legible values and failed boxes), the first
    on a tie."""
    found = {f["name"]: f.get("legible", 0) + f.get("failed_boxes", 0) for f in record.findings.get("files", [])}
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
    """Make the contract that corrects ``record`` (module docstring) from its stored file
    ``file_id`` (None: the most exposed) and queue its processing; a record being corrected
    already returns its contract. Raises ``PermissionDenied`` unless ``user`` is a reviewer of the
    record's agency, ``ValidationError`` code ``no_file`` when the record has no stored file (or
    ``file_id`` is not one of them), and as :func:`contracts.services.uploads.contract_upload`
    for a file that cannot be processed."""
    require_role(user, record.agency, Role.REVIEWER)
    with transaction.atomic():
        locked = PublishedRecord.objects.select_for_update().get(pk=record.pk)
        if locked.correction is not None:
            return locked.correction
        stored = locked.files.filter(state=PublishedFile.State.STORED)
        chosen = stored.filter(pk=file_id).first() if file_id is not None else _most_exposed(locked)
        if chosen is None:
            raise ValidationError(_("This record has no file fetched from the registry to correct."), code="no_file")
        with chosen.content.open("rb") as fh:
            data = fh.read()
        meta = corrected_metadata(locked)
        title = _("Correction of record %(record)d: %(subject)s") % {
            "record": locked.record_id,
            "subject": meta.subject,
        }
        contract = contract_upload(
            agency=locked.agency,
            user=user,
            data=data,
            filename=chosen.name,
            title=title,
            metadata=RegistryMetadata(subject=meta.subject[:300], date_concluded=meta.date_concluded),
        )
        RegistryRecord.objects.update_or_create(
            contract=contract,
            defaults={
                "metadata": meta.to_dict(),
                "record_id": locked.record_id,
                "version_id": locked.version_id,
                "link": locked.link,
                "registered_at": locked.published_at,
            },
        )
        locked.correction, locked.correction_file = contract, chosen
        locked.save(update_fields=["correction", "correction_file"])
        audit(contract, user, "record_correction_started", record_id=locked.record_id, file=chosen.name,
              sha256=chosen.sha256)  # fmt: skip
    return contract


def correction_files(contract: Contract) -> list[tuple[str, bytes, str]] | None:
    """The record's other stored files, sent again unchanged beside the corrected contract's
    files (``[(name, content, "pdf")]``), or None when ``contract`` corrects no record."""
    record = PublishedRecord.objects.filter(correction=contract).first()
    if record is None:
        return None
    out = []
    others = record.files.filter(state=PublishedFile.State.STORED).order_by("id")
    for f in others.exclude(pk=record.correction_file_id) if record.correction_file_id else others:
        with f.content.open("rb") as fh:
            out.append((f.name, fh.read(), "pdf"))
    return out
