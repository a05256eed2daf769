"""Background jobs (django-rq). Each takes one id (or none, for the cron job) and calls one service."""

from __future__ import annotations

import logging

from django.utils.translation import gettext as _
from rq import get_current_job

from accounts.models import Agency
from contracts import selectors
from contracts.queue import fresh_connections
from contracts.services import exports, files, processing, publishing, runs, uploads, webhooks
from policy.preview_jobs import preview_documents, report_failure
from redactor import errors

log = logging.getLogger(__name__)


def _guarded(body, run_id: int) -> None:
    """Take a queued run for the job queued for ``run_id`` (:func:`contracts.services.runs.run_take`:
    the fair choice among the runs waiting on its queue, often another one; the run records this
    job's id with the claim, for :func:`on_job_failure`), and run ``body`` on it; any exception
    fails that run."""
    fresh_connections()
    try:
        job = get_current_job()
        run = runs.run_take(run_id, job_id=job.id if job is not None else "")
        if run is None:
            log.info("job for run %s: no run of its queue is waiting any more", run_id)
            return
        try:
            body(run=run)
        except Exception as exc:  # includes rq's JobTimeoutException: the contract must not stay "processing"
            log.exception("run %s failed", run.pk)  # the operator's log keeps the type, text and traceback
            runs.run_fail(run_id=run.pk, message=_describe(exc, run.pk))
    finally:
        fresh_connections()


def _describe(exc: Exception, run_id: int) -> str:
    """What the clerk reads about a failed run: a sentence in their language, never an exception
    type or a library's message (those may quote the document and mean nothing to a clerk)."""
    if type(exc).__name__ == "JobTimeoutException":
        return _("Processing took too long and was stopped. Retry, or split the document.")
    if isinstance(exc, MemoryError):
        return _(
            "Processing needed more memory than one document may use and was stopped. Split the document, "
            "or print it to PDF, and upload it again."
        )
    if isinstance(exc, errors.RedactionError):
        return uploads.pdf_problem(exc)[1]
    return _(
        "Processing stopped because of an internal error (reference: run %(run)d); the details are in the "
        "operator's log. Retry; if it fails again, tell the operator."
    ) % {"run": run_id}


def process_contract(run_id: int) -> None:
    """Extract and detect (:func:`contracts.services.processing.contract_process`)."""
    _guarded(processing.contract_process, run_id)


def publish_contract(run_id: int) -> None:
    """Burn in, verify and publish (:func:`contracts.services.publishing.contract_publish`)."""
    _guarded(publishing.contract_publish, run_id)


def on_job_failure(job, connection, type, value, traceback) -> None:
    """rq failure callback: the work horse died (killed, out of memory) outside our own handler;
    the run it had taken (the one that records this job, :func:`_guarded`) fails. A horse that
    died before it took one leaves nothing to fail."""
    run_id = runs.run_of_job(job.id)
    log.error("run %s: the work horse died: %s", run_id, value)
    if run_id is None:
        return
    runs.run_fail(
        run_id=run_id,
        message=_(
            "The job stopped unexpectedly (its worker process ended, e.g. out of memory). Retry; if it fails "
            "again, split the document."
        ),
    )


def fail_stale_runs() -> int:
    """Cron job (:mod:`contracts.cron`, every minute): fail the runs whose worker died
    (:func:`contracts.services.runs.runs_fail_stale`); returns how many."""
    fresh_connections()
    try:
        return runs.runs_fail_stale()
    finally:
        fresh_connections()


def offer_lost_runs() -> int:
    """Cron job (:mod:`contracts.cron`, every minute and at its start): a job again for each
    queued run whose job was lost (:func:`contracts.services.runs.runs_offer_lost`)."""
    fresh_connections()
    try:
        return runs.runs_offer_lost()
    finally:
        fresh_connections()


def deliver_webhook(delivery_id: int) -> None:
    """POST one webhook delivery (:func:`contracts.services.webhooks.webhook_deliver`); the service
    schedules retries."""
    fresh_connections()
    try:
        webhooks.webhook_deliver(delivery_id=delivery_id)
    finally:
        fresh_connections()


def export_agency(agency_id: int, user_id: int | None, mode: str, fmt: str) -> dict:
    """The agency's bulk text export (:func:`contracts.services.exports.agency_export_build`); a
    failure says why in the job's meta (:func:`policy.preview_jobs.report_failure`)."""
    fresh_connections()
    try:
        return exports.agency_export_build(agency_id=agency_id, user_id=user_id, mode=mode, fmt=fmt)
    except Exception as exc:  # rq's JobTimeoutException too: the admin reads why, the log keeps the rest
        log.exception("bulk export of agency %s failed", agency_id)
        report_failure("timeout" if type(exc).__name__ == "JobTimeoutException" else "internal")
        raise
    finally:
        fresh_connections()


def prune_exports() -> int:
    """Cron job: delete the bulk exports' zips nobody can ask for any more
    (:func:`contracts.services.exports.exports_prune`)."""
    fresh_connections()
    return exports.exports_prune()


def sweep_storage() -> int:
    """Cron job: delete the files no contract names any more
    (:func:`contracts.services.files.storage_sweep`)."""
    fresh_connections()
    return files.storage_sweep()


def preview_contract(agency_id: int, contract_id: int, current: dict, draft: dict) -> dict:
    """The agency map console's preview of ``draft`` against ``current`` (maps in JSON form) on
    one of the agency's contracts: its analysed document as processing stored it
    (:func:`contracts.selectors.contract_text_layer`: a scan is not OCR'd again), decided
    under both maps by :func:`policy.preview_jobs.preview_documents`."""
    fresh_connections()
    try:
        contract = selectors.contract_get(agency=Agency.objects.get(pk=agency_id), contract_id=contract_id)
        return preview_documents([(contract.title, lambda: selectors.contract_text_layer(contract))], 1, current, draft)
    finally:
        fresh_connections()
