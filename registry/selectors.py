"""Reads of the registry's rows: a contract's record and its submissions, and the records the
agency published before with what their audit found."""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy

from accounts.models import Agency
from contracts.models import Contract
from policy.selectors import category_names
from policy.vocabulary import in_reader_language

from .models import PublishedFile, PublishedRecord, RecordAudit, RecordImport, RegistryRecord, RegistrySubmission


def registry_record(contract: Contract) -> RegistryRecord:
    """The contract's record in the registry; an unsaved blank one (empty metadata, no record id)
    when none was stored yet. Reads only: a service that changes it locks it
    (:func:`registry.services.metadata.record_for_update`)."""
    try:
        return contract.registry_record
    except RegistryRecord.DoesNotExist:
        return RegistryRecord(contract_id=contract.pk)


def last_submission(contract: Contract) -> RegistrySubmission | None:
    """The contract's newest submission, or None; from the list's prefetch when it has one."""
    if "registry_submissions" in getattr(contract, "_prefetched_objects_cache", {}):  # newest first
        submissions = contract.registry_submissions.all()
        return submissions[0] if submissions else None
    return contract.registry_submissions.order_by("-created_at", "-id").first()


def registry_waiting(contract: Contract) -> bool:
    """Whether a publication was sent to the registry and its reply is awaited (the contract's
    status stays *published* until the registry answers)."""
    return contract.registry_submissions.filter(
        operation=RegistrySubmission.Operation.PUBLISH,
        state__in=(RegistrySubmission.State.SENDING, RegistrySubmission.State.SENT),
    ).exists()


def registry_webhook_part(contract: Contract) -> dict | None:
    """The registry's part of a contract's webhook payload (:mod:`contracts.extensions`): the
    record's id and link once the registry published it, else None."""
    record = registry_record(contract)
    return {"record_id": record.record_id, "link": record.link} if record.record_id else None


# -- records the agency published before ---------------------------------------------------------
#: How an exposed field of the metadata reads (``findings["metadata_fields"]``).
METADATA_FIELD_LABELS = {
    "name": gettext_lazy("A private person's name in the metadata"),
    "address": gettext_lazy("A private person's address in the metadata"),
}


@dataclass(frozen=True)
class RecordRow:
    """One record of the audit list, as every door shows it: the record, its ``categories``
    (``[(label, count)]``, most first, the metadata's fields included), ``failed_boxes``, the
    watchdog's ``redacted_pages`` over its files, the ``values`` found and its
    ``exposed_files``."""

    record: PublishedRecord
    categories: list[tuple[str, int]]
    failed_boxes: int
    redacted_pages: int
    #: the values shown per file: ``[(file name, page, category label, text)]``
    values: list[tuple[str, int, str, str]] = dataclasses.field(default_factory=list)
    #: the stored files that expose data (legible values or failed boxes), each with that count,
    #: in the record's order: ``[(file, count)]``; each may be corrected on its own
    exposed_files: list[tuple[PublishedFile, int]] = dataclasses.field(default_factory=list)
    #: whether the record's correction went to the registry (no file can join it any more)
    sent: bool = False


def _labels(version_id: int | None) -> dict[str, str]:
    return {str(n): in_reader_language(cs, en) for n, (cs, en) in category_names(version_id=version_id).items()}


def record_row(record: PublishedRecord, labels: dict[int | None, dict[str, str]] | None = None) -> RecordRow:
    """:class:`RecordRow` of ``record``; ``labels`` caches the category names per map version."""
    findings = record.findings or {}
    labels = labels if labels is not None else {}
    version = findings.get("map_version")
    if version not in labels:
        labels[version] = _labels(version)
    names = labels[version]
    counts = [(names.get(k, k), n) for k, n in findings.get("categories", {}).items()]
    counts += [(str(METADATA_FIELD_LABELS.get(k, k)), n) for k, n in findings.get("metadata_fields", {}).items()]
    files = findings.get("files", [])
    return RecordRow(
        record,
        sorted(counts, key=lambda c: (-c[1], c[0])),
        sum(f.get("failed_boxes", 0) for f in files),
        sum(len(f.get("watchdog", {}).get("redacted", [])) for f in files),
        [
            (f["name"], v["page"], names.get(str(v["category"]), str(v["category"])), v["text"])
            for f in files
            for v in f.get("values", [])
        ],
        _exposed_files(record, files),
        record.correction is not None and record.correction.registry_submissions.exists(),
    )


def _exposed_files(record: PublishedRecord, files: list[dict]) -> list[tuple[PublishedFile, int]]:
    found = {f["name"]: f.get("legible", 0) + f.get("failed_boxes", 0) for f in files}
    stored = [f for f in record.files.all() if f.state == PublishedFile.State.STORED]
    return [(f, found[f.name]) for f in stored if found.get(f.name)]


def published_records(agency: Agency) -> QuerySet[PublishedRecord]:
    """The agency's imported records, the most exposed first (then the newest)."""
    return agency.published_records.select_related("correction").prefetch_related("files__correction")


@dataclass(frozen=True)
class AuditSummary:
    """The audit list's head: ``records`` imported, ``audited``, ``exposing`` (records with an
    exposure), ``categories`` summed over all records (``[(label, count)]``), the newest
    ``audit`` and the recent ``imports``."""

    records: int
    audited: int
    exposing: int
    categories: list[tuple[str, int]]
    audit: RecordAudit | None
    imports: list[RecordImport]


def audit_summary(agency: Agency, rows: list[RecordRow]) -> AuditSummary:
    """The head of the audit list of ``rows`` (:func:`record_row` of every record)."""
    totals: Counter[str] = Counter()
    for row in rows:
        totals.update(dict(row.categories))
    return AuditSummary(
        records=len(rows),
        audited=sum(1 for r in rows if r.record.audit_state in ("done", "failed")),
        exposing=sum(1 for r in rows if r.record.exposure),
        categories=sorted(totals.items(), key=lambda c: (-c[1], c[0])),
        audit=agency.record_audits.first(),
        imports=list(agency.record_imports.all()[:5]),
    )
