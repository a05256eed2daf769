"""Background runs of a contract (processing, publishing): queueing, claiming, progress,
failure and retry. A run is claimed once (a job may be delivered twice); a failure leaves the
contract visibly failed, with a retry."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

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


def run_goes_first(run: Run) -> bool:
    """Whether ``run`` is queued at the front of its queue: when its agency has no other run
    waiting in the same queue. An agency that sends forty contracts at once has one of them ahead
    of another agency's single one at most, not forty: each agency's next run waits for the runs
    being worked on and for other agencies' first ones, never for another agency's whole backlog
    (a fair share per agency on RQ's first-in, first-out queues)."""
    waiting = Run.objects.filter(agency_id=run.agency_id, state=Run.State.QUEUED).exclude(pk=run.pk)
    slow = _slow(waiting)
    same = slow if run_queue(run) == "ocr" else waiting.exclude(pk__in=slow.values("pk"))
    return not same.exists()


def run_start(contract: Contract, kind: str) -> Run:
    """Create a queued run of ``kind`` (:class:`~contracts.models.Run.Kind`) and send its job
    once the surrounding transaction has committed, at the front of its queue when its agency has
    nothing else waiting there (:func:`run_goes_first`); the RQ job id is stored on the run."""
    run = Run.objects.create(agency=contract.agency, contract=contract, kind=kind)
    _send(run, at_front=run_goes_first(run))
    return run


def _send(run: Run, *, at_front: bool = False, delay_seconds: float = 0) -> None:
    """Queue the job of ``run`` on its queue (:func:`run_queue`) and store its RQ job id."""
    queue.enqueue(
        queue.PROCESS_CONTRACT if run.kind == Run.Kind.PROCESSING else queue.PUBLISH_CONTRACT,
        run.pk,
        queue=run_queue(run),
        at_front=at_front,
        delay_seconds=delay_seconds,
        timeout=settings.REDACTOR_JOB_TIMEOUT,
        on_failure=queue.ON_JOB_FAILURE,
        then=lambda job_id: _remember_job(run, job_id),
    )


#: The statuses in which a run of the contract is queued or running (processing, publishing).
WORK_UNDER_WAY = (Status.UPLOADED, Status.PROCESSING, Status.APPROVED)


def poll_after(contract: Contract) -> int | None:
    """Seconds a client should wait before it asks about ``contract`` again while a run of it is
    queued or running (``REDACTOR_API_POLL_SECONDS``, at least 1); None when nothing is under way
    and the status stays until someone acts. The API sends it as ``Retry-After`` (RFC 9110
    § 10.2.3: delay-seconds), the convention for the status of long-running operations (Microsoft
    REST API Guidelines, "Long-running operations"), so that a client polling many contracts
    leaves the cores to the work it waits for."""
    if contract.status not in WORK_UNDER_WAY:
        return None
    return max(1, settings.REDACTOR_API_POLL_SECONDS)


def agency_share(queue_name: str) -> int:
    """How many runs of one agency may run at once on ``queue_name``: ``REDACTOR_AGENCY_RUNS``
    when set, else every worker that serves the queue but one (at least one). With two workers,
    one agency's forty contracts (or one heavy document and its neighbour) leave a worker to the
    next agency's contract, which then waits for no other agency's work; a single agency working
    alone gets one worker less than it could. Without a registered worker (a synchronous queue,
    the tests): no limit."""
    if settings.REDACTOR_AGENCY_RUNS:
        return settings.REDACTOR_AGENCY_RUNS
    return max(1, queue.worker_count(queue_name) - 1) if queue.worker_count(queue_name) else 0


def run_claim(run_id: int) -> Run | None:
    """Mark a queued run as running; None when another execution already took it (a job may run
    twice) or when its agency already runs its share (:func:`agency_share`): then the run is
    queued again, :data:`DEFER_SECONDS` later, behind the other agencies' work."""
    run = Run.objects.filter(pk=run_id, state=Run.State.QUEUED).select_related("contract").first()
    if run is None:
        return None
    share = agency_share(run_queue(run))
    alive = timezone.now() - timedelta(seconds=settings.REDACTOR_JOB_STALE_SECONDS)  # a dead worker's holds none
    running = Run.objects.filter(agency_id=run.agency_id, state=Run.State.RUNNING, heartbeat_at__gte=alive)
    if share and running.count() >= share:
        _send(run, delay_seconds=DEFER_SECONDS)
        return None
    now = timezone.now()
    if not Run.objects.filter(pk=run_id, state=Run.State.QUEUED).update(
        state=Run.State.RUNNING, started_at=now, heartbeat_at=now
    ):
        return None
    return selectors.run_get(run_id=run_id)


#: Seconds a run whose agency already runs its share waits before it is offered to a worker again.
DEFER_SECONDS = 2


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

    A run whose worker died (no heartbeat for ``REDACTOR_JOB_STALE_SECONDS``) is failed first.
    Raises ``ValidationError`` when nothing failed.
    """
    contract = Contract.objects.select_for_update().get(pk=contract.pk, agency=contract.agency)
    latest = selectors.run_latest(contract=contract)
    kind = latest.kind if latest is not None else Run.Kind.PROCESSING
    # publishing again publishes: the reviewer's right, whichever door asks
    require_role(user, contract.agency, Role.REVIEWER if kind == Run.Kind.PUBLISHING else Role.CLERK)
    if latest is not None and selectors.run_is_stale(latest):
        Run.objects.filter(pk=latest.pk).update(
            state=Run.State.FAILED, error=_("The worker stopped responding."), finished_at=timezone.now()
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
    up as a failure the clerk can retry; pages only read."""
    count = 0
    running = Run.objects.filter(state=Run.State.RUNNING)
    if agency is not None:
        running = running.filter(agency=agency)
    for run in running:
        if selectors.run_is_stale(run):
            run_fail(run_id=run.pk, message=_("The worker stopped responding (it may have been restarted). Retry."))
            count += 1
    return count


def _remember_job(run: Run, job_id: str) -> None:
    """Store the RQ job's id on ``run`` once it is queued (a retry and the admin find it)."""
    Run.objects.filter(pk=run.pk).update(rq_job_id=job_id)
