"""The audit of what an agency already published: each imported record read by the engine as if
it were to be published now. Nothing is changed in the registry.

For each stored file of a :class:`~registry.models.PublishedRecord` the engine analyses the
published file with the agency's map and profile, as it analyses an upload:

- ``legible``: the values it would redact that are readable in the published file (its text and,
  on scans, what OCR reads from the pictures), by category;
- ``failed_boxes``: black rectangles and white-outs of the earlier hand with live text under them
  (:func:`redactor.read.covered.earlier_boxes`);
- ``watchdog``: the pages Hlídač státu counts as redacted (5 % or more black) and heavily
  redacted (20 %), as :meth:`redactor.StoredDocument.watchdog` scores a publication.

The record's metadata is read by :func:`redactor.metadata.metadata_exposures` (parties that name
private persons). ``exposure`` is the number of exposed values (legible values, failed boxes and
exposed metadata fields), the list's order.

An audit (:class:`~registry.models.RecordAudit`) runs on the low queue one record per job
(:data:`AUDIT_RECORDS`), each job queueing the next: a crashing or memory-bombing file ends its own
job only (the record is marked failed and the audit goes on), other agencies' jobs take their
turn between records, and an audit whose chain of jobs was lost (a worker gone) resumes with the
records still waiting when it is started again.
"""

from __future__ import annotations

import logging
from collections import Counter

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from accounts.access import require_role
from accounts.models import Agency, Role
from accounts.selectors import profile_in_force
from contracts import queue
from contracts.services.common import Download
from contracts.services.uploads import pdf_problem
from policy.runtime import get_engine
from policy.selectors import agency_profile, map_version_in_force
from policy.spreadsheet import spreadsheet_csv
from redactor import Action, CategoryMap, RedactionEngine, errors
from redactor import metadata as engine_metadata
from registry import selectors
from registry.models import PublishedFile, PublishedRecord, RecordAudit

log = logging.getLogger(__name__)

#: The job that audits one record and queues the next (:func:`record_audit_step`), on the low queue.
AUDIT_RECORDS = "registry.jobs.audit_records"
ON_AUDIT_FAILURE = "registry.jobs.on_audit_failure"

#: Values kept per file to show where the exposure is (category, page, text); the counts are whole.
SHOWN_PER_FILE = 50

#: What ``PublishedRecord.findings`` holds: ``categories`` counts the legible values by the
#: category's id in the agency's map version ``map_version`` (its names:
#: :func:`policy.selectors.category_names`), ``metadata_fields`` the exposed fields of the metadata.
FINDINGS_SHAPE = """{
  "map_version": id,
  "categories": {"<category id>": legible values},
  "metadata_fields": {"name": n, "address": n},
  "metadata": [{"party": index from 1, "kind", "person", "fields": ["name", "address"], "known"}],
  "files": [{"name", "pages", "legible": n, "review": n, "failed_boxes": n,
             "watchdog": {"redacted": [pages], "heavy": [pages]},
             "values": [{"category": id, "page": from 1, "text"}], "error": sentence or ""}]
}"""


def record_audit_start(*, agency: Agency, user: User | None) -> RecordAudit:
    """Audit the agency's records not audited yet: returns the audit under way when there is one
    (it goes on; one whose chain of jobs was lost with a worker is queued again), else a new one
    queued on the low queue. Raises ``PermissionDenied`` unless
    ``user`` is a reviewer of the agency (``None``: the system), ``ValidationError`` code
    ``nothing_to_audit`` when every record was audited (re-audit with :func:`record_audit_again`)."""
    if user is not None:
        require_role(user, agency, Role.REVIEWER)
    with transaction.atomic():
        Agency.objects.select_for_update().get(pk=agency.pk)  # one audit per agency at a time
        running = agency.record_audits.filter(state__in=(RecordAudit.State.QUEUED, RecordAudit.State.RUNNING)).first()
        if running is not None:
            if _chain_lost(running):
                _next(running)
            return running
        waiting = agency.published_records.filter(audit_state=PublishedRecord.AuditState.WAITING).count()
        if not waiting:
            raise ValidationError(_("Every imported record is audited already."), code="nothing_to_audit")
        audit = RecordAudit.objects.create(agency=agency, total=waiting, created_by=user)
        _next(audit)
    return audit


def record_audit_again(*, agency: Agency, user: User | None) -> RecordAudit:
    """Audit every imported record again (after a change of the agency's map, or of the engine):
    each record waits again and an audit starts (:func:`record_audit_start`)."""
    if user is not None:
        require_role(user, agency, Role.REVIEWER)
    agency.published_records.exclude(audit_state=PublishedRecord.AuditState.RUNNING).update(
        audit_state=PublishedRecord.AuditState.WAITING
    )
    return record_audit_start(agency=agency, user=user)


#: Seconds one step may run (its job's timeout).
STEP_SECONDS = 1800


def _chain_lost(audit: RecordAudit) -> bool:
    """Whether no step of ``audit`` can still be queued or running: its last step began (or it was
    created) longer ago than a step may run, with a minute's margin."""
    last = audit.stepped_at or audit.created_at
    return (timezone.now() - last).total_seconds() > STEP_SECONDS + 60


def _next(audit: RecordAudit) -> None:
    queue.enqueue(AUDIT_RECORDS, audit.pk, queue="low", timeout=STEP_SECONDS, on_failure=ON_AUDIT_FAILURE)


def record_audit_step(*, audit_id: int) -> PublishedRecord | None:
    """Job body: audit the agency's next waiting record (:func:`record_audit`) and queue the
    next step; with none left, the audit is done. A record a dead job left half audited is
    marked failed first. Returns the record audited, or None."""
    audit = RecordAudit.objects.select_related("agency").get(pk=audit_id)
    if audit.state in (RecordAudit.State.DONE, RecordAudit.State.FAILED):
        return None
    RecordAudit.objects.filter(pk=audit.pk).update(stepped_at=timezone.now())
    records = audit.agency.published_records
    records.filter(audit_state=PublishedRecord.AuditState.RUNNING).update(
        audit_state=PublishedRecord.AuditState.FAILED,
        audit_error=_("The audit of this record stopped unexpectedly (its worker process ended)."),
        audited_at=timezone.now(),
    )
    with transaction.atomic():
        record = (
            records.select_for_update(skip_locked=True)
            .filter(audit_state=PublishedRecord.AuditState.WAITING)
            .order_by("id")
            .first()
        )
        if record is None:
            RecordAudit.objects.filter(pk=audit.pk).update(
                state=RecordAudit.State.DONE, finished_at=timezone.now(), done=_audited(audit)
            )
            return None
        record.audit_state = PublishedRecord.AuditState.RUNNING
        record.save(update_fields=["audit_state"])
        if audit.state == RecordAudit.State.QUEUED:
            RecordAudit.objects.filter(pk=audit.pk).update(state=RecordAudit.State.RUNNING, started_at=timezone.now())
    record_audit(record)
    RecordAudit.objects.filter(pk=audit.pk).update(done=_audited(audit))
    _next(audit)
    return record


def _audited(audit: RecordAudit) -> int:
    """Records of the agency audited (or failed) since the audit was created."""
    return audit.agency.published_records.filter(
        audit_state__in=(PublishedRecord.AuditState.DONE, PublishedRecord.AuditState.FAILED),
        audited_at__gte=audit.created_at,
    ).count()


def record_audit_failed(*, audit_id: int, internal: bool = False) -> None:
    """The step's worker process died (killed, out of memory), or with ``internal`` the step
    stopped on an error of its own: the record it audited is marked failed with a sentence
    saying which, and the audit goes on with the next."""
    audit = RecordAudit.objects.get(pk=audit_id)
    reason = (
        _("The audit of this record stopped because of an internal error; the details are in the operator's log.")
        if internal
        else _("The audit of this record needed more memory or time than one document may use.")
    )
    audit.agency.published_records.filter(audit_state=PublishedRecord.AuditState.RUNNING).update(
        audit_state=PublishedRecord.AuditState.FAILED, audit_error=reason, audited_at=timezone.now()
    )
    if audit.state in (RecordAudit.State.QUEUED, RecordAudit.State.RUNNING):
        _next(audit)


def _engine_inputs(agency: Agency) -> tuple[RedactionEngine, int, CategoryMap, object]:
    engine = get_engine()
    if not engine.loaded:
        engine.load()
    version = map_version_in_force(agency=agency)
    profile = agency_profile(agency=agency, version=profile_in_force(agency=agency))
    return engine, version.pk, CategoryMap.from_dict(version.data), profile


def record_audit(record: PublishedRecord) -> PublishedRecord:
    """Audit one record (module docstring) and store ``findings`` (:data:`FINDINGS_SHAPE`),
    ``exposure`` and the state: done, or failed with a sentence when a file could not be read
    (the other files' findings are kept)."""
    engine, version, cmap, profile = _engine_inputs(record.agency)
    categories: Counter[str] = Counter()
    fields: Counter[str] = Counter()
    meta = engine_metadata.ContractMetadata.from_dict(record.metadata)
    exposures = engine_metadata.metadata_exposures(engine, meta)
    for e in exposures:
        fields.update(e.fields)
    exposed = [
        {"party": e.index, "kind": e.kind.value, "person": e.person, "fields": list(e.fields), "known": e.known}
        for e in exposures
    ]
    files = []
    for f in record.files.filter(state=PublishedFile.State.STORED):
        found = _file_findings(engine, cmap, profile, f)
        files.append(found)
        for v in found.pop("_all", []):
            categories[v] += 1
    errors_seen = [f["error"] for f in files if f["error"]]
    record.findings = {
        "map_version": version,
        "categories": dict(categories),
        "metadata_fields": dict(fields),
        "metadata": exposed,
        "files": files,
    }
    record.exposure = sum(categories.values()) + sum(fields.values()) + sum(f["failed_boxes"] for f in files)
    record.audit_state = PublishedRecord.AuditState.FAILED if errors_seen else PublishedRecord.AuditState.DONE
    record.audit_error = errors_seen[0] if errors_seen else ""
    record.audited_at = timezone.now()
    record.save(update_fields=["findings", "exposure", "audit_state", "audit_error", "audited_at"])
    return record


def _file_findings(engine: RedactionEngine, cmap: CategoryMap, profile, f: PublishedFile) -> dict:
    """One stored file's findings (one item of ``files`` in :data:`FINDINGS_SHAPE`, with
    ``_all``: the category of every legible value)."""
    out: dict = {"name": f.name, "pages": 0, "legible": 0, "review": 0, "failed_boxes": 0,
                 "watchdog": {"redacted": [], "heavy": []}, "values": [], "error": ""}  # fmt: skip
    try:
        with f.content.open("rb") as fh:
            data = fh.read()
        analysis = engine.analyze(data, category_map=cmap, profile=profile)
    except errors.RedactionError as exc:
        out["error"] = pdf_problem(exc)[1]
        return out
    legible = [p for p in analysis.proposals if p.action == Action.REDACT]
    out["pages"] = len(analysis.pages)
    out["legible"] = len(legible)
    out["review"] = sum(1 for p in analysis.proposals if p.action == Action.REVIEW)
    out["failed_boxes"] = len(analysis.covered)
    out["values"] = [{"category": p.category, "page": p.page, "text": p.text} for p in legible[:SHOWN_PER_FILE]]
    out["_all"] = [str(p.category) for p in legible]
    if analysis.document is not None:
        pages = analysis.document.watchdog([])
        out["watchdog"] = {
            "redacted": [p.page for p in pages if p.level != "ok"],
            "heavy": [p.page for p in pages if p.level == "heavy"],
        }
    return out


#: The CSV's columns (one row per record, the most exposed first).
def _csv_columns() -> list[str]:
    """The audit list's CSV header, in the reader's language."""
    return [
        _("Record"), _("Version"), _("Link"), _("Published on"), _("Subject"), _("Audit"), _("Exposed values"),
        _("Earlier boxes with text under them"), _("Pages the watchdog counts as redacted"), _("What it exposes"),
        _("Correction (contract)"),
    ]  # fmt: skip


def published_records_csv(*, agency: Agency, user: User | None) -> Download:
    """The audit list as a CSV file the reader's spreadsheet opens
    (:func:`policy.spreadsheet.spreadsheet_csv`: UTF-8 with a byte-order mark, ``;`` in Czech),
    its header and values in the reader's language: the audit's state by its label, the date as
    the language writes it, what a record exposes as "label: count" joined by commas; cells
    escaped against spreadsheet formulas. Raises ``PermissionDenied`` unless ``user`` is a
    reviewer of the agency (``None``: the system)."""
    if user is not None:
        require_role(user, agency, Role.REVIEWER)
    rows: list[list[object]] = [list(_csv_columns())]
    labels: dict = {}
    for record in selectors.published_records(agency):
        row = selectors.record_row(record, labels)
        published = record.published_at
        rows.append(
            [
                record.record_id,
                record.version_id,
                record.link,
                formats.date_format(timezone.localtime(published), "SHORT_DATETIME_FORMAT") if published else "",
                record.metadata.get("subject", ""),
                record.get_audit_state_display(),
                record.exposure,
                row.failed_boxes,
                row.redacted_pages,
                ", ".join(f"{label}: {n}" for label, n in row.categories),
                record.correction_id or "",
            ]
        )
    return Download("registr-zaznamy-audit.csv", spreadsheet_csv(rows), "text/csv; charset=utf-8", private=True)
