"""The product's files in their storage (issue 33): moving an installation's files from one storage
into another (local disk into a bucket when a deployment grows past one machine), verified by
SHA-256 and resumable, and sweeping files no contract names any more."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta

from django.core.files.storage import Storage, default_storage
from django.db import transaction
from django.utils import timezone

from contracts.models import Contract

log = logging.getLogger(__name__)

#: Bytes read at a time while hashing or copying.
CHUNK = 1024 * 1024


def _storage_errors() -> tuple[type[Exception], ...]:
    errors: tuple[type[Exception], ...] = (OSError,)  # local disk (full, unwritable)
    try:
        from botocore.exceptions import BotoCoreError, ClientError  # noqa: PLC0415 - only with S3
    except ImportError:
        return errors
    return (*errors, BotoCoreError, ClientError)


#: What a storage raises when it cannot keep or give a file: ``OSError`` (local disk) and boto3's
#: errors (a bucket unreachable, refusing the credentials, full).
STORAGE_ERRORS = _storage_errors()


@dataclass
class CopyReport:
    """What :func:`storage_copy` did, by file name (the storage's names, ``originals/3/….pdf``):
    ``copied`` now, ``present`` (already in the target with the same SHA-256, so not copied
    again), ``failed`` (name → the reason, in English for the operator's log) and ``missing``
    (files the database names that the target does not hold after the run)."""

    copied: list[str] = field(default_factory=list)
    present: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when every file is in the target and verified."""
        return not self.failed and not self.missing


def storage_names(storage: Storage, folder: str = "") -> Iterator[str]:
    """Every file name in ``storage`` under ``folder`` (recursively, ``/``-separated), sorted
    within each folder. A folder that does not exist yields nothing."""
    try:
        folders, files = storage.listdir(folder)
    except FileNotFoundError:
        return
    prefix = f"{folder}/" if folder else ""
    for name in sorted(files):
        yield prefix + name
    for sub in sorted(folders):
        yield from storage_names(storage, prefix + sub)


def storage_sha256(storage: Storage, name: str) -> str:
    """Hex SHA-256 of the file ``name`` in ``storage``, read in chunks."""
    digest = hashlib.sha256()
    with storage.open(name, "rb") as fh:
        for chunk in fh.chunks(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def delete_after_commit(files: list[tuple[Storage, str]]) -> None:
    """Delete ``files`` (``(storage, name)``) once the surrounding transaction commits. Robust:
    the transaction stands when the storage is unreachable now; the daily sweep
    (:func:`storage_sweep`) removes what is left once it answers."""

    def delete() -> None:
        for storage, name in files:
            storage.delete(name)

    transaction.on_commit(delete, robust=True)


def referenced_files() -> dict[str, str | None]:
    """Every file the database names (originals, published PDFs and texts, stored documents of
    every contract not deleted) → the SHA-256 it must have (the upload's for an original; None
    for the files made from it)."""
    names: dict[str, str | None] = {}
    rows = Contract.objects.values_list(
        "original", "original_sha256", "redacted", "redacted_text", "analysed", "rebuilt"
    )
    for original, sha, *made in rows.iterator():
        if original:
            names[original] = sha or None
        for name in made:
            if name:
                names[name] = None
    return names


def storage_copy(*, source: Storage, target: Storage, progress: Callable[[str, str], None] | None = None) -> CopyReport:
    """Copy every file of ``source`` into ``target`` under the same name, and verify each copy by
    reading it back from ``target`` and comparing its SHA-256 with the source's (and, for an
    original, with the hash taken at upload: a damaged original is reported, not copied).

    Resumable: a file the target already holds with the same SHA-256 is not copied again (a second
    run copies nothing); one it holds with other content is replaced. Nothing is deleted from
    ``source``. ``progress(name, outcome)`` is called per file (outcome ``copied``, ``present`` or
    ``failed``). Returns a :class:`CopyReport`, whose ``missing`` lists what the database names but
    the target lacks afterwards."""
    expected = referenced_files()
    report = CopyReport()

    def note(name: str, outcome: str) -> None:
        if progress is not None:
            progress(name, outcome)

    for name in storage_names(source):
        digest = storage_sha256(source, name)
        if expected.get(name) not in (None, digest):
            report.failed[name] = "the source no longer matches the SHA-256 taken at upload"
            note(name, "failed")
            continue
        if target.exists(name):
            if storage_sha256(target, name) == digest:
                report.present.append(name)
                note(name, "present")
                continue
            target.delete(name)  # an earlier run's copy that differs: made again
        with source.open(name, "rb") as fh:
            saved = target.save(name, fh)
        if saved != name:
            report.failed[name] = f"the target stored it as {saved}"
        elif storage_sha256(target, name) != digest:
            report.failed[name] = "the copy read back does not match the source's SHA-256"
        else:
            report.copied.append(name)
            note(name, "copied")
            continue
        note(name, "failed")
    report.missing = sorted(name for name in expected if name not in report.failed and not target.exists(name))
    return report


#: The folders of the contracts' files (``contracts.models``' upload paths); bulk exports have
#: their own pruning (:func:`contracts.services.exports.exports_prune`).
CONTRACT_FOLDERS = ("originals", "redacted", "analysed")


def storage_orphans(storage: Storage, *, older_than: timedelta) -> list[str]:
    """Files of ``storage`` under :data:`CONTRACT_FOLDERS` that no contract names and that are
    older than ``older_than``: left by a deletion whose removal failed (the storage was
    unreachable after the database committed) or by an upload whose transaction was rolled back
    after its file was stored. The age keeps an upload being committed right now out of it."""
    referenced = set(referenced_files())
    cutoff = timezone.now() - older_than
    return [
        name
        for folder in CONTRACT_FOLDERS
        for name in storage_names(storage, folder)
        if name not in referenced and storage.get_modified_time(name) < cutoff
    ]


def storage_sweep(*, older_than: timedelta = timedelta(days=1)) -> int:
    """Delete :func:`storage_orphans` older than ``older_than`` (a day) from the default storage;
    returns how many. Run by the cron scheduler (``contracts.cron``)."""
    orphans = storage_orphans(default_storage, older_than=older_than)
    for name in orphans:
        default_storage.delete(name)
    if orphans:
        log.info("removed %d files no contract names", len(orphans))
    return len(orphans)
