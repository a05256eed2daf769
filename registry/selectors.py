"""Reads of the registry's rows: a contract's record and its submissions."""

from __future__ import annotations

from contracts.models import Contract

from .models import RegistryRecord, RegistrySubmission


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
