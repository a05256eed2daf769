"""Owned background jobs: a job a page (or an API client) starts and polls, whose progress and
result stay in Redis for :data:`RESULT_TTL` seconds and are shown only to the owner (the platform,
or one agency) that started it (:func:`owned_job_start`, :func:`owned_job_state`). Two kinds use
them: the category-map preview (analysing documents under two maps takes seconds per document,
4.4 s for the development folder inside a web request before) and the agency's bulk text export.

The job bodies are :func:`policy.jobs.preview_platform` (the development documents) and
:func:`contracts.jobs.preview_contract` (an agency's contract, read by the contracts app); both
run :func:`preview_documents`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import django_rq
from django.conf import settings
from rq import get_current_job
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus

from redactor import TextLayer

from .preview import map_preview

#: Seconds a finished preview can still be shown.
RESULT_TTL = 3600


def preview_files(source: str) -> list[Path]:
    """The development documents (``REDACTOR_PREVIEW_DIR``) that a platform preview's ``source``
    names: ``dall`` every PDF there, ``d<name>`` one of them (only names listed in the folder,
    never a path from the request); empty for anything else."""
    folder = Path(settings.REDACTOR_PREVIEW_DIR)
    files = sorted(folder.glob("*.pdf")) if folder.is_dir() else []
    return files if source == "dall" else [p for p in files if source == f"d{p.name}"]


#: The queue of owned jobs (previews, bulk exports): workers take it after ``default`` and ``ocr``,
#: so an admin's heavy job never delays a contract's processing.
QUEUE = "low"


def owned_job_start(owner_key: str, job: str, *args, once: str = "", **meta) -> str:
    """Queue the job ``job`` (a dotted path) with ``args`` for ``owner_key`` ("platform" or
    "agency:<id>") on the low-priority :data:`QUEUE`; returns the RQ job id the page then polls
    with :func:`owned_job_state`. With ``once`` (e.g. the draft's id) a job of the same owner and
    ``once`` still queued or running is returned instead of starting another: clicking again
    does not pile up work. ``meta`` is kept with the job (:func:`owned_job_meta`)."""
    connection = django_rq.get_connection(QUEUE)
    marker = f"redactor:owned-job:{owner_key}:{once}"
    if once:
        stored = connection.get(marker)
        running = stored.decode() if isinstance(stored, bytes) else stored
        if running:
            state = owned_job_state(owner_key, running)
            if state is not None and state.state == "running":
                return running
    queued = django_rq.get_queue(QUEUE).enqueue(
        job,
        *args,
        meta={"owner": owner_key, "done": 0, "total": 0, **meta},
        result_ttl=RESULT_TTL,
        failure_ttl=RESULT_TTL,
        job_timeout=settings.REDACTOR_JOB_TIMEOUT,
    )
    if once:
        connection.set(marker, queued.id, ex=RESULT_TTL)
    return queued.id


def owned_job_meta(owner_key: str, job_id: str) -> dict:
    """The ``meta`` :func:`owned_job_start` kept with job ``job_id`` of ``owner_key`` (empty for
    another owner's, an unknown or an expired job)."""
    try:
        job = Job.fetch(job_id, connection=django_rq.get_connection(QUEUE))
    except (NoSuchJobError, ValueError):
        return {}
    return dict(job.meta) if job.meta.get("owner") == owner_key else {}


@dataclass
class OwnedJobState:
    """An owned job as the page shows it: ``state`` is "running" (queued or started),
    "finished" (``result`` set) or "failed" (``error``: the code of why, when the job said it,
    :func:`report_failure`, which the job's owner words); ``done`` of ``total`` documents analysed."""

    state: str
    done: int
    total: int
    result: dict | None = None
    error: str = ""


def owned_job_state(owner_key: str, job_id: str) -> OwnedJobState | None:
    """The job ``job_id`` if ``owner_key`` started it, else None (unknown, expired, or
    another owner's: the same answer, so ids tell nothing)."""
    try:
        job = Job.fetch(job_id, connection=django_rq.get_connection(QUEUE))
    except (NoSuchJobError, ValueError):
        return None
    if job.meta.get("owner") != owner_key:
        return None
    status = job.get_status(refresh=False)
    done, total = job.meta.get("done", 0), job.meta.get("total", 0)
    if status == JobStatus.FINISHED:
        return OwnedJobState("finished", total, total, job.return_value())
    if status in (JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED):
        return OwnedJobState("failed", done, total, error=job.meta.get("error", ""))
    return OwnedJobState("running", done, total)


def preview_documents(
    documents: Iterable[tuple[str, Callable[[], bytes | TextLayer]]], count: int, current: dict, draft: dict
) -> dict:
    """Job body: run :func:`~policy.preview.map_preview` on each ``(name, read)`` document
    (``read()`` gives its stored text layer, or its PDF bytes), reporting ``done``/``total`` in
    the job's meta; returns
    ``{"rows": [(name, PreviewRow), ...], "total": findings, "documents": count}``."""
    rows, total = [], 0
    for done, (name, read) in enumerate(documents, start=1):
        changed, found = map_preview(read(), current, draft)
        rows += [(name, row) for row in changed]
        total += found
        report_progress(done, count)
    return {"rows": rows, "total": total, "documents": count}


def report_failure(code: str) -> None:
    """Inside an owned job that is failing: the code of why (what :func:`owned_job_state` gives as
    its ``error``; the owner's service words it in the reader's language); nothing outside a job."""
    job = get_current_job()
    if job is not None:
        job.meta["error"] = code
        job.save_meta()


def report_progress(done: int, total: int) -> None:
    """Inside an owned job: ``done`` of ``total`` items finished (what :func:`owned_job_state`
    shows); nothing outside a job."""
    job = get_current_job()
    if job is not None:
        job.meta.update(done=done, total=total)
        job.save_meta()
