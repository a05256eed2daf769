"""The registry's background jobs, sent to RQ by dotted path after commit
(:data:`registry.services.SEND_REGISTRY_SUBMISSION`) or run by the cron scheduler
(:mod:`registry.cron`); each calls one service."""

from __future__ import annotations

import logging

from contracts.queue import fresh_connections
from registry import services
from registry.services import audit, published

log = logging.getLogger(__name__)


def send_registry_submission(submission_id: int) -> None:
    """Send one submission to the registry of contracts through the agency's data box
    (:func:`registry.services.registry_submission_send`)."""
    fresh_connections()
    try:
        services.registry_submission_send(submission_id=submission_id)
    finally:
        fresh_connections()


def fetch_registry_replies() -> int:
    """Cron job (:mod:`registry.cron`): read the registry's replies for every agency waiting for
    one (:func:`registry.services.registry_replies_fetch_all`); returns how many were applied."""
    fresh_connections()
    try:
        return services.registry_replies_fetch_all()
    finally:
        fresh_connections()


def import_records(import_id: int) -> None:
    """Import an agency's records from a registry dump (:func:`registry.services.published.record_import_run`)."""
    fresh_connections()
    try:
        published.record_import_run(import_id=import_id)
    except Exception:
        log.exception("import %s failed", import_id)
        published.record_import_fail(import_id=import_id)
    finally:
        fresh_connections()


def audit_records(audit_id: int) -> None:
    """Audit one record and queue the next (:func:`registry.services.audit.record_audit_step`)."""
    fresh_connections()
    try:
        audit.record_audit_step(audit_id=audit_id)
    except Exception as exc:  # rq's JobTimeoutException included: the record must not stay "running"
        log.exception("audit %s: a step failed", audit_id)
        audit.record_audit_failed(audit_id=audit_id, internal=type(exc).__name__ != "JobTimeoutException")
    finally:
        fresh_connections()


def on_audit_failure(job, connection, type, value, traceback) -> None:
    """rq failure callback: the work horse of an audit step died (killed, out of memory)."""
    log.error("audit %s: the work horse died: %s", job.args[0], value)
    fresh_connections()
    audit.record_audit_failed(audit_id=job.args[0])


def on_import_failure(job, connection, type, value, traceback) -> None:
    """rq failure callback: the work horse of an import died (killed, out of memory)."""
    log.error("import %s: the work horse died: %s", job.args[0], value)
    fresh_connections()
    published.record_import_fail(import_id=job.args[0])
