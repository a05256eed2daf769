"""Start real RQ workers (``manage.py rqworker``) against the test database and the test Redis."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from django.db import connection

ROOT = Path(__file__).resolve().parent.parent


def worker_env() -> dict[str, str]:
    """The environment of a worker that sees the test database (pytest-django's ``test_…``)."""
    s = connection.settings_dict
    url = f"postgres://{s['USER'] or ''}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"
    return {**os.environ, "DATABASE_URL": url, "DB_CONN_MAX_AGE": "0"}


def start_worker(
    *,
    burst: bool = False,
    queues: tuple[str, ...] = ("default", "ocr", "low"),
    env: dict[str, str] | None = None,
    output=None,
    cwd: Path = ROOT,
) -> subprocess.Popen:
    """A worker on ``queues`` (the default, OCR and low-priority ones unless said), with RQ's
    scheduler as every worker of the product (:class:`contracts.worker.EngineWorker`), in its own
    process group (so a test can kill it with its work horse); ``env`` adds variables, ``output``
    (an open file) receives its log, ``cwd`` is its working directory (the checkout unless said)."""
    args = [sys.executable, str(ROOT / "manage.py"), "rqworker", *queues]
    args += ["--burst"] if burst else []
    return subprocess.Popen(
        args,
        cwd=cwd,
        env={**worker_env(), **(env or {})},
        start_new_session=True,
        stdout=output,
        stderr=subprocess.STDOUT if output is not None else None,
    )


def kill_worker(worker: subprocess.Popen) -> None:
    """SIGKILL a worker and its work horses: rq puts each horse in its own process group, so
    killing the worker's group alone leaves a running horse behind to finish the job."""
    horses = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended meanwhile
            continue
        if int(fields[1]) == worker.pid:  # field 4 of /proc/PID/stat: the parent's pid
            horses.append(int(stat.parent.name))
    for pid in [worker.pid, *horses]:
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    worker.wait(timeout=10)


def start_cron(*, env: dict[str, str] | None = None) -> subprocess.Popen:
    """RQ's cron scheduler with the product's periodic jobs (``manage.py rqcron config.cron``);
    it enqueues each interval job at once on start."""
    args = [sys.executable, "manage.py", "rqcron", "config.cron"]
    return subprocess.Popen(args, cwd=ROOT, env={**worker_env(), **(env or {})}, start_new_session=True)


def flush_queue() -> None:
    """Empty the test Redis database (only database ``TEST_REDIS_URL`` points at)."""
    import django_rq

    django_rq.get_connection("default").flushdb()  # the OCR queue lives in the same database


def wait_for(predicate, timeout: float = 60, interval: float = 0.05):
    """Poll ``predicate`` until it returns something truthy; raises ``TimeoutError``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise TimeoutError("condition not reached")


def die_by_signal(*args) -> None:
    """A job body that ends its work horse by SIGSEGV, as a crash inside a C library does (the
    job's arguments are those of the job it stands in for)."""
    os.kill(os.getpid(), signal.SIGSEGV)


def sleep_for(seconds: float) -> None:
    """A job body that holds its worker for ``seconds`` (a long audit step, an import)."""
    time.sleep(seconds)
