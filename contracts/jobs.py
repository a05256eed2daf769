"""Background jobs (django-rq). Each takes one id (or none, for the cron job) and calls one service."""

from __future__ import annotations

import logging

from django.db import close_old_connections, connection
from django.utils.translation import gettext as _

from contracts.services import processing, publishing, runs, webhooks
from redactor.core.errors import RedactionError

log = logging.getLogger(__name__)


def _fresh_connections() -> None:
    # a worker keeps connections between jobs; drop dead or expired ones (never inside a transaction)
    if not connection.in_atomic_block:
        close_old_connections()


def _guarded(body, run_id: int) -> None:
    _fresh_connections()
    try:
        body(run_id=run_id)
    except Exception as exc:  # includes rq's JobTimeoutException: the contract must not stay "processing"
        log.exception("run %s failed", run_id)
        runs.run_fail(run_id=run_id, message=_describe(exc))
    finally:
        _fresh_connections()


def _describe(exc: Exception) -> str:
    if type(exc).__name__ == "JobTimeoutException":
        return _("Processing took too long and was stopped. Retry, or split the document.")
    if isinstance(exc, RedactionError):
        return _("The PDF could not be processed: %(reason)s") % {"reason": exc}
    return _("Unexpected error (%(type)s): %(reason)s") % {"type": type(exc).__name__, "reason": exc}


def process_contract(run_id: int) -> None:
    """Extract and detect (:func:`contracts.services.processing.contract_process`)."""
    _guarded(processing.contract_process, run_id)


def publish_contract(run_id: int) -> None:
    """Burn in, verify and publish (:func:`contracts.services.publishing.contract_publish`)."""
    _guarded(publishing.contract_publish, run_id)


def on_job_failure(job, connection, type, value, traceback) -> None:
    """rq failure callback: the work horse died (killed, out of memory) outside our own handler."""
    runs.run_fail(run_id=job.args[0], message=_("The job stopped unexpectedly: %(reason)s") % {"reason": value})


def fail_stale_runs() -> int:
    """Cron job (:mod:`contracts.cron`, every minute): fail the runs whose worker died
    (:func:`contracts.services.runs.runs_fail_stale`); returns how many."""
    _fresh_connections()
    try:
        return runs.runs_fail_stale()
    finally:
        _fresh_connections()


def deliver_webhook(delivery_id: int) -> None:
    """POST one webhook delivery (:func:`contracts.services.webhooks.webhook_deliver`); the service
    schedules retries."""
    _fresh_connections()
    try:
        webhooks.webhook_deliver(delivery_id=delivery_id)
    finally:
        _fresh_connections()
