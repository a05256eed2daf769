"""Background jobs are sent to RQ by dotted path, after the surrounding transaction commits:
nothing imports :mod:`contracts.jobs` back, and a job never starts on rows that were rolled back.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta

import django_rq
from django.conf import settings
from django.db import close_old_connections, connection, transaction
from redis.exceptions import RedisError
from rq import Callback, Worker
from rq.job import Job, JobStatus
from rq.utils import now as rq_now

#: The jobs (:mod:`contracts.jobs`), each taking one id and calling one service.
PROCESS_CONTRACT = "contracts.jobs.process_contract"
PUBLISH_CONTRACT = "contracts.jobs.publish_contract"
DELIVER_WEBHOOK = "contracts.jobs.deliver_webhook"
ON_JOB_FAILURE = "contracts.jobs.on_job_failure"


def enqueue(
    job: str,
    *args,
    queue: str = "default",
    timeout: int | None = None,
    delay_seconds: float = 0,
    on_failure: str | None = None,
    then: Callable[[str], None] | None = None,
    at_front: bool = False,
) -> None:
    """Queue ``job`` (a dotted path) with ``args`` on RQ queue ``queue`` once the current
    transaction commits (at once outside one): ``timeout`` in seconds (RQ's default when None),
    ``delay_seconds`` before it may start (RQ's scheduler), ``on_failure`` a dotted path RQ calls
    when the work horse dies, ``at_front`` ahead of the jobs already waiting. ``then(job_id)``
    runs after it was queued."""

    def send() -> None:
        options: dict = {}
        if timeout:
            options["job_timeout"] = timeout
        if on_failure:
            options["on_failure"] = Callback(on_failure)
        if at_front:
            options["at_front"] = True
        rq_queue = django_rq.get_queue(queue)
        if delay_seconds:
            queued = rq_queue.enqueue_in(timedelta(seconds=delay_seconds), job, *args, **options)
        else:
            queued = rq_queue.enqueue(job, *args, **options)
        if then is not None:
            then(queued.id)

    transaction.on_commit(send)


def fresh_connections() -> None:
    """Drop the database connections a worker kept from an earlier job if they are dead or
    expired (never inside a transaction); every job calls it before and after its work."""
    if not connection.in_atomic_block:
        close_old_connections()


#: Seconds within which a worker executing a job last reported to Redis for the job to count as
#: running (RQ's worker reports every ``job_monitoring_interval``, 30 s, while its horse works).
WORKER_ALIVE_SECONDS = 90


def job_running(job_id: str) -> bool:
    """Whether the RQ job ``job_id`` is being executed now by a worker that is alive: the job is
    started, the worker it names holds it as its current job, and that worker reported within
    :data:`WORKER_ALIVE_SECONDS` (or ``REDACTOR_JOB_STALE_SECONDS``, when shorter). A job busy in
    one long call (a renderer inside MuPDF) reports no progress, yet its worker does; False when
    Redis cannot be asked."""
    try:
        connection_ = django_rq.get_connection()
        job = Job.fetch(job_id, connection=connection_)
        if job.get_status() != JobStatus.STARTED or not job.worker_name:
            return False
        worker = Worker.find_by_key(Worker.redis_worker_namespace_prefix + job.worker_name, connection=connection_)
        if worker is None or worker.get_current_job_id() != job_id or worker.last_heartbeat is None:
            return False
        window = min(WORKER_ALIVE_SECONDS, settings.REDACTOR_JOB_STALE_SECONDS)
        return (rq_now() - worker.last_heartbeat).total_seconds() < window
    except Exception:  # no such job, Redis unreachable, a worker key half written: not running
        return False


def worker_count(queue: str) -> int:
    """How many RQ workers serve ``queue`` now (registered in Redis, each looked up: a worker
    that died without unregistering is not counted); 0 when none is, or Redis cannot be asked."""
    try:
        return len(Worker.all(queue=django_rq.get_queue(queue)))
    except (RedisError, OSError):
        return 0


#: Seconds a process keeps the count of :func:`workers_registered` (every API poll asks it; the
#: workers change when the service is restarted or scaled, not from one poll to the next).
WORKERS_SEEN_SECONDS = 5.0
_workers_seen: dict[str, tuple[float, int]] = {}


def workers_registered(queue: str) -> int:
    """How many RQ workers are registered for ``queue`` (a dead worker counted until its
    registration is cleaned: for an estimate, not for telling whether any runs), as Redis said
    at most :data:`WORKERS_SEEN_SECONDS` ago in this process (asking opens a connection to
    Redis: a poll would otherwise pay it every time); 0 when Redis cannot be asked."""
    now = time.monotonic()
    seen = _workers_seen.get(queue)
    if seen is not None and now - seen[0] < WORKERS_SEEN_SECONDS:
        return seen[1]
    try:
        count = Worker.count(queue=django_rq.get_queue(queue))
    except (RedisError, OSError):
        return 0
    _workers_seen[queue] = (now, count)
    return count


def offers_waiting(queue: str, job: str, taken: set[str]) -> int:
    """How many jobs ``job`` (a dotted path) wait on ``queue`` to take a run: queued, delayed, or
    started without having taken one yet (``taken``: the ids of the jobs that hold a run).
    Raises ``RedisError`` when Redis cannot be asked."""
    rq_queue = django_rq.get_queue(queue)
    started = rq_queue.started_job_registry.get_job_ids()
    ids = rq_queue.get_job_ids() + rq_queue.scheduled_job_registry.get_job_ids() + started
    jobs = Job.fetch_many(ids, connection=rq_queue.connection)
    return sum(1 for j in jobs if j is not None and j.func_name == job and j.id not in taken)
