"""Background runs of a contract (processing, publishing): queueing, claiming, progress,
failure and retry. A run is claimed once (a job may be delivered twice); a failure leaves the
contract visibly failed, with a retry."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.access import require_role
from accounts.models import Agency, Role
from contracts import queue, selectors
from contracts.models import Contract, Run, Status, WebhookEvent
from redactor import JobProgress, ProgressReport, Step

from .common import audit
from .webhooks import webhooks_notify


def run_queue(run: Run) -> str:
    """The RQ queue of a run, by size class: ``ocr`` (the slow queue) for processing a contract
    with scanned pages (OCR takes seconds per page) or over ``REDACTOR_SLOW_QUEUE_BYTES``,
    ``default`` for everything else, so that ordinary contracts of every agency keep a worker of
    their own while a large one is read (bin/start: one worker serves ``default`` only)."""
    if run.kind != Run.Kind.PROCESSING:
        return "default"
    slow = run.contract.scan_pages or run.contract.original_size > settings.REDACTOR_SLOW_QUEUE_BYTES
    return "ocr" if slow else "default"


def _slow(runs: QuerySet[Run]) -> QuerySet[Run]:
    """The runs of ``runs`` that :func:`run_queue` sends to ``ocr``, as a query."""
    return runs.filter(kind=Run.Kind.PROCESSING).filter(
        Q(contract__scan_pages__gt=0) | Q(contract__original_size__gt=settings.REDACTOR_SLOW_QUEUE_BYTES)
    )


def _of_class(runs: QuerySet[Run], run: Run) -> QuerySet[Run]:
    """The runs of ``runs`` that a worker takes from the same queue and job as ``run``:
    processing runs of the same queue (:func:`run_queue`), or publishing runs."""
    runs = runs.filter(kind=run.kind)
    if run.kind != Run.Kind.PROCESSING:
        return runs
    slow = _slow(runs)
    return slow if run_queue(run) == "ocr" else runs.exclude(pk__in=slow.values("pk"))


def run_start(contract: Contract, kind: str) -> Run:
    """Create a queued run of ``kind`` (:class:`~contracts.models.Run.Kind`) and offer a worker
    its job once the surrounding transaction has committed; the RQ job id is stored on the run.
    Which queued run a worker then takes is decided when it takes one (:func:`run_take`)."""
    run = Run.objects.create(agency=contract.agency, contract=contract, kind=kind)
    _send(run)
    return run


def _send(run: Run) -> None:
    """Queue a job for ``run`` on its queue (:func:`run_queue`) and store its RQ job id."""
    queue.enqueue(
        queue.PROCESS_CONTRACT if run.kind == Run.Kind.PROCESSING else queue.PUBLISH_CONTRACT,
        run.pk,
        queue=run_queue(run),
        timeout=settings.REDACTOR_JOB_TIMEOUT,
        on_failure=queue.ON_JOB_FAILURE,
        then=lambda job_id: _remember_job(run, job_id),
    )


#: The statuses in which a run of the contract is queued or running (processing, publishing).
WORK_UNDER_WAY = (Status.UPLOADED, Status.PROCESSING, Status.APPROVED)


#: The most seconds ``Retry-After`` asks a client to wait while a run is under way: what a wrong
#: estimate can cost it.
POLL_CAP_SECONDS = 20
#: The share of the estimated time to go that a client is asked to wait: it asks again a little
#: before the run is likely done, rather than after.
POLL_SHARE = 0.75


def poll_after(contract: Contract) -> int | None:
    """Seconds a client should wait before it asks about ``contract`` again while a run of it is
    queued or running; None when nothing is under way and the status stays until someone acts.
    Three quarters of the time the run likely has to go (:func:`run_seconds_to_go`), at least
    ``REDACTOR_API_POLL_SECONDS`` (and 1), at most :data:`POLL_CAP_SECONDS`: a client that waits
    behind a backlog of a hundred contracts asks a few times instead of every two seconds. The API
    sends it as ``Retry-After`` (RFC 9110 § 10.2.3: delay-seconds), the convention for the status
    of long-running operations (Microsoft REST API Guidelines, "Long-running operations"), so that
    a client polling many contracts leaves the cores to the work it waits for."""
    if contract.status not in WORK_UNDER_WAY:
        return None
    floor = max(1, settings.REDACTOR_API_POLL_SECONDS)
    run = selectors.run_latest(contract=contract)
    if run is not None:
        run.contract = contract  # its queue is read from the contract at hand, not fetched again
    to_go = run_seconds_to_go(run) if run is not None else None
    if to_go is None:
        return floor
    return int(min(POLL_CAP_SECONDS, max(floor, to_go * POLL_SHARE)))


#: How many of a queue's latest finished runs its mean run time is taken from.
RECENT_RUNS = 20


def run_seconds_to_go(run: Run) -> float | None:
    """The seconds ``run`` likely has to go, or None when nothing tells: a running run's own
    estimate (``seconds_left``); a queued one's rounds of the workers serving its queue before
    it is done, each as long as the mean of the queue's last :data:`RECENT_RUNS` runs. The runs
    taken before it are those the fair queue (:func:`run_take`) would take first: its agency's
    older ones and, of each other agency, as many as it has rounds to wait, plus one."""
    if run.state == Run.State.RUNNING:
        return run.seconds_left
    if run.state != Run.State.QUEUED:
        return None
    mean = _mean_run_seconds(run)
    if mean is None:
        return None
    queued = _of_class(Run.objects.filter(state=Run.State.QUEUED), run)
    own = queued.filter(agency_id=run.agency_id, pk__lt=run.pk).count()
    others = queued.exclude(agency_id=run.agency_id).values("agency_id").annotate(n=Count("pk"))
    ahead = own + sum(min(row["n"], own + 1) for row in others)
    workers = max(1, queue.workers_registered(run_queue(run)))
    return (ahead // workers + 1) * mean


def _mean_run_seconds(run: Run) -> float | None:
    """The mean time of the last :data:`RECENT_RUNS` runs of ``run``'s queue and kind, or None
    before any; kept :data:`MEAN_CACHE_SECONDS` in the shared cache (every poll asks)."""
    key = f"redactor:run-seconds:{run.kind}:{run_queue(run)}"
    cached = cache.get(key)
    if cached is not None:
        return cached or None
    finished = _of_class(Run.objects.filter(state=Run.State.SUCCEEDED, started_at__isnull=False), run)
    times = [
        (end - start).total_seconds()
        for start, end in finished.order_by("-finished_at").values_list("started_at", "finished_at")[:RECENT_RUNS]
        if start is not None and end is not None
    ]
    mean = sum(times) / len(times) if times else 0.0
    cache.set(key, mean, MEAN_CACHE_SECONDS)
    return mean or None


#: Seconds the mean run time of a queue is kept (:func:`_mean_run_seconds`).
MEAN_CACHE_SECONDS = 15


def _holding() -> dict[int, int]:
    """How many runs each agency has running now, by agency id (a run whose worker stopped
    reporting for ``REDACTOR_JOB_STALE_SECONDS`` holds no worker)."""
    alive = timezone.now() - timedelta(seconds=settings.REDACTOR_JOB_STALE_SECONDS)
    running = Run.objects.filter(state=Run.State.RUNNING, heartbeat_at__gte=alive)
    return dict(running.values("agency_id").annotate(n=Count("pk")).values_list("agency_id", "n"))


def run_take(run_id: int, *, job_id: str = "") -> Run | None:
    """The run a worker takes for the job queued for run ``run_id``, claimed (running) by the job
    ``job_id`` (stored on the run with the claim, so a work horse that dies fails that run): of the
    queued runs of the same queue and kind (:func:`_of_class`), the oldest one of the agency
    that has the fewest runs running now; None when none is queued any more.

    Every queued run has one job on its queue, and the jobs are interchangeable: a free worker
    always takes work while any is waiting (an agency alone uses every worker), and the agency it
    serves is chosen when it is free, not when the jobs were queued, so an agency's backlog yields
    to another agency's contract at the next free worker and never waits for it in turn (a fair
    queue by agency: each agency's next run competes with the others' by the workers it holds
    now, no timer re-offers anything). A run another worker claimed first is passed over for the
    next one."""
    hint = Run.objects.filter(pk=run_id).select_related("contract").first()
    if hint is None:
        return None
    while True:  # until a claim holds or nothing of the class is queued
        holding = _holding()
        oldest: dict[int, int] = {}  # agency id -> its oldest queued run of the class
        queued = _of_class(Run.objects.filter(state=Run.State.QUEUED), hint)
        for pk, agency_id in queued.order_by("pk").values_list("pk", "agency_id"):
            oldest.setdefault(agency_id, pk)
        if not oldest:
            return None
        fairest = min(oldest.items(), key=lambda item: (holding.get(item[0], 0), item[1]))[1]
        run = run_claim(fairest, job_id=job_id)
        if run is not None:
            return run


def run_stuck(run: Run, now=None) -> str | None:
    """Why the queued ``run`` is stuck, in the interface's language, or None while it is not: it
    has waited ``REDACTOR_QUEUE_WAIT_SECONDS`` and in that time no run of its queue and kind
    started and none is running (the queue did not move: no worker serves it, or its job was
    lost with Redis). A long queue that is being worked on is not stuck, however long it is.
    :func:`contract_retry` offers it to a worker again."""
    if run.state != Run.State.QUEUED:
        return None
    now = now or timezone.now()
    since = now - timedelta(seconds=settings.REDACTOR_QUEUE_WAIT_SECONDS)
    if run.created_at > since:
        return None
    alive = now - timedelta(seconds=settings.REDACTOR_JOB_STALE_SECONDS)
    moving = Q(started_at__gte=since) | Q(state=Run.State.RUNNING, heartbeat_at__gte=alive)
    if _of_class(Run.objects.all(), run).filter(moving).exists():
        return None
    minutes = max(1, round((now - run.created_at).total_seconds() / 60))
    if not queue.worker_count(run_queue(run)):
        return ngettext(
            "The contract has been waiting for %(minutes)d minute and no worker of the service is running to "
            "process it. Tell the service's operator; once a worker runs, Retry.",
            "The contract has been waiting for %(minutes)d minutes and no worker of the service is running to "
            "process it. Tell the service's operator; once a worker runs, Retry.",
            minutes,
        ) % {"minutes": minutes}
    return ngettext(
        "The contract has been waiting for %(minutes)d minute although no worker is busy with its queue. Retry; "
        "if it waits again, tell the service's operator.",
        "The contract has been waiting for %(minutes)d minutes although no worker is busy with its queue. Retry; "
        "if it waits again, tell the service's operator.",
        minutes,
    ) % {"minutes": minutes}


def run_claim(run_id: int, *, job_id: str = "") -> Run | None:
    """Mark the queued run ``run_id`` as running (by the RQ job ``job_id`` when given, in the
    same update); None when it is not queued (another execution already took it: a job may run
    twice)."""
    now = timezone.now()
    taken = {"rq_job_id": job_id} if job_id else {}
    if not Run.objects.filter(pk=run_id, state=Run.State.QUEUED).update(
        state=Run.State.RUNNING, started_at=now, heartbeat_at=now, **taken
    ):
        return None
    return selectors.run_get(run_id=run_id)


def run_progress(
    run: Run, phase: str, done: int = 0, total: int = 0, *, percent: int | None = None, seconds_left: int | None = None
) -> None:
    """Record the running ``run``'s phase (a :class:`~contracts.models.Run.Phase`), the phase's
    counter (pages from 1; 0 of 0 when it counts none), the whole job's ``percent`` when known
    (0–100), the ``seconds_left`` estimated, and its heartbeat."""
    fields: dict[str, object] = {"phase": phase, "progress_done": done, "progress_total": total}
    if percent is not None:
        fields |= {"progress_percent": percent, "seconds_left": seconds_left}
    Run.objects.filter(pk=run.pk, state=Run.State.RUNNING).update(**fields, heartbeat_at=timezone.now())


def run_tracker(run: Run) -> JobProgress:
    """A :class:`~redactor.progress.JobProgress` that records each report on ``run`` (the engine's
    steps, then storing, planned by the document's pages)."""

    def record(report: ProgressReport) -> None:
        run_progress(
            run, report.step.value, report.done, report.total, percent=report.percent, seconds_left=report.seconds_left
        )

    return JobProgress(report=record, per_page=(Step.STORING,))


def run_fail(*, run_id: int, message: str) -> None:
    """Mark a run and its contract failed with ``message`` (shown to the clerk, who may retry).

    Does nothing when the run already finished (a late failure callback after success).
    """
    with transaction.atomic():
        run = Run.objects.select_for_update().filter(pk=run_id).first()
        if run is None or run.state in (Run.State.SUCCEEDED, Run.State.FAILED):
            return
        run.state, run.error, run.finished_at = Run.State.FAILED, message[:4000], timezone.now()
        run.save(update_fields=["state", "error", "finished_at"])
        contract = selectors.contract_get(agency=run.agency, contract_id=run.contract_id)
        contract.status, contract.error_message = Status.FAILED, message[:4000]
        contract.save(update_fields=["status", "error_message"])
        audit(contract, None, "failed", stage=run.kind, error=message[:500])
        webhooks_notify(contract=contract, event=WebhookEvent.FAILED)


@transaction.atomic
def contract_retry(*, contract: Contract, user: User) -> Run:
    """Run the failed stage again (processing, or publishing of an approved contract).

    A run whose worker died (no heartbeat for ``REDACTOR_JOB_STALE_SECONDS``) and a queued run
    that is stuck (:func:`run_stuck`) are failed first, with their reason. Raises
    ``ValidationError`` (code ``not_failed``) when nothing failed or is stuck.
    """
    contract = Contract.objects.select_for_update().get(pk=contract.pk, agency=contract.agency)
    latest = selectors.run_latest(contract=contract)
    kind = latest.kind if latest is not None else Run.Kind.PROCESSING
    # publishing again publishes: the reviewer's right, whichever door asks
    require_role(user, contract.agency, Role.REVIEWER if kind == Run.Kind.PUBLISHING else Role.CLERK)
    stuck = run_stuck(latest) if latest is not None else None
    if latest is not None and (stuck or selectors.run_is_stale(latest)):
        Run.objects.filter(pk=latest.pk).update(
            state=Run.State.FAILED, error=stuck or _("The worker stopped responding."), finished_at=timezone.now()
        )
        contract.status = Status.FAILED
    if contract.status != Status.FAILED:
        raise ValidationError(_("Only a failed contract can be retried."), code="not_failed")
    contract.status = Status.APPROVED if kind == Run.Kind.PUBLISHING else Status.PROCESSING
    contract.error_message = ""
    contract.save(update_fields=["status", "error_message"])
    audit(contract, user, "retried", stage=kind)
    return run_start(contract, kind)


def runs_fail_stale(*, agency: Agency | None = None) -> int:
    """Fail the running jobs (of ``agency`` only, when given) whose worker stopped reporting for
    ``REDACTOR_JOB_STALE_SECONDS``; returns how many. Run every minute by the cron job
    :func:`contracts.jobs.fail_stale_runs` (:mod:`contracts.cron`), so that a killed worker shows
    up as a failure the clerk can retry; pages only read. A run whose job a live worker is still
    executing (:func:`contracts.queue.job_running`: one long call that reports nothing) is left to
    its job, which ends by itself, by its timeout or by its failure callback."""
    count = 0
    running = Run.objects.filter(state=Run.State.RUNNING)
    if agency is not None:
        running = running.filter(agency=agency)
    for run in running:
        if selectors.run_is_stale(run) and not (run.rq_job_id and queue.job_running(run.rq_job_id)):
            run_fail(run_id=run.pk, message=_("The worker stopped responding (it may have been restarted). Retry."))
            count += 1
    return count


#: Seconds a queued run is left to its own job before it counts as one whose job was lost.
LOST_AFTER_SECONDS = 30


def runs_offer_lost() -> int:
    """Queue a job again for each queued run that no job waits for (:func:`contracts.queue.offers_waiting`:
    jobs lost with Redis, as the quick start's Redis keeps nothing on disk, or removed by hand):
    per queue and kind, as many of its oldest runs queued for :data:`LOST_AFTER_SECONDS` as it has
    runs beyond the jobs waiting; returns how many. Run every minute by cron and when it starts
    (:mod:`contracts.cron`). A job too many finds nothing to take and ends."""
    since = timezone.now() - timedelta(seconds=LOST_AFTER_SECONDS)
    classes: dict[tuple[str, str], list[Run]] = {}
    for run in Run.objects.filter(state=Run.State.QUEUED).select_related("contract").order_by("pk"):
        classes.setdefault((run_queue(run), run.kind), []).append(run)
    offered = 0
    for (queue_name, kind), waiting in classes.items():
        job = queue.PROCESS_CONTRACT if kind == Run.Kind.PROCESSING else queue.PUBLISH_CONTRACT
        taken = set(Run.objects.filter(state=Run.State.RUNNING).values_list("rq_job_id", flat=True))
        missing = len(waiting) - queue.offers_waiting(queue_name, job, taken)
        for run in [r for r in waiting if r.created_at <= since][: max(0, missing)]:
            _send(run)
            offered += 1
    return offered


def _remember_job(run: Run, job_id: str) -> None:
    """Store the RQ job's id on ``run`` once it is queued (a retry and the admin find it), unless
    a worker took the run meanwhile (the job that took it is stored then)."""
    Run.objects.filter(pk=run.pk, state=Run.State.QUEUED).update(rq_job_id=job_id)


def run_of_job(job_id: str) -> int | None:
    """The id of the running run the RQ job ``job_id`` took (:func:`run_take`), or None."""
    return Run.objects.filter(rq_job_id=job_id, state=Run.State.RUNNING).values_list("pk", flat=True).first()
