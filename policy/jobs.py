"""Background jobs of the map console; RQ runs them by dotted path (the page queues them through
:func:`policy.preview_jobs.owned_job_start`)."""

from __future__ import annotations

from .preview_jobs import preview_documents, preview_files


def preview_platform(source: str, current: dict, draft: dict) -> dict:
    """The platform preview of ``draft`` against ``current`` (maps in JSON form) on the
    development documents that ``source`` names (:func:`~policy.preview_jobs.preview_files`)."""
    files = preview_files(source)
    return preview_documents([(p.name, p.read_bytes) for p in files], len(files), current, draft)
