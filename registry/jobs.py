"""The registry's background jobs, sent to RQ by dotted path after commit
(:data:`registry.services.SEND_REGISTRY_SUBMISSION`) or run by the cron scheduler
(:mod:`registry.cron`); each calls one service."""

from __future__ import annotations

from contracts.queue import fresh_connections
from registry import services


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
