"""Stopping the quick start (``bin/stopping.sh``, sourced by ``bin/start``): the RQ workers stop
before the private Redis, so none prints a traceback for a Redis that went away, and a work horse
busy with a long job does not outlive them (RQ's horses leave the process group, so the
terminal's Ctrl-C never reaches them)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.conftest import ROOT

#: bin/start's start and stop, cut down to a private Redis, one worker and a job that would run
#: for ten minutes: the worker's horse is running it when the harness stops everything.
HARNESS = r"""
set -euo pipefail
cd "$ROOT"
. bin/stopping.sh
pids=()
redis_pid=""
setsid bin/private-redis "$DIR" &
redis_pid=$!
for _ in $(seq 100); do [ -S "$DIR/redis/redis.sock" ] && break; sleep 0.1; done
export REDIS_URL="unix://:$(cat "$DIR/redis.pass")@$DIR/redis/redis.sock?db=0"
export DATABASE_URL="sqlite:///$DIR/db.sqlite3" SECRET_KEY=stop-test
.venv/bin/python manage.py rqworker default 2> "$DIR/worker.log" > /dev/null &
pids+=($!)
worker=${pids[0]}
.venv/bin/python -c '
import os, time
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
import django_rq
django_rq.get_queue("default").enqueue(time.sleep, 600, job_timeout=900)'
horse=""
for _ in $(seq 300); do horse=$(pgrep -P "$worker" || true); [ -n "$horse" ] && break; sleep 0.1; done
echo "horse $horse"
STOP_GRACE=2 cleanup
# a killed horse whose parent is gone may stay a zombie until PID 1 reaps it: that is gone too
case "$(ps -o stat= -p "$horse" 2>/dev/null || true)" in ""|Z*) echo "horse gone" ;; *) echo "horse alive" ;; esac
kill -0 "$redis_pid" 2>/dev/null && echo "redis alive" || echo "redis gone"
"""


@pytest.mark.skipif(not shutil.which("redis-server") or not shutil.which("setsid"), reason="redis-server needed")
def test_stopping_stops_the_workers_and_their_horses_before_the_private_redis(tmp_path):
    run = subprocess.run(
        ["bash", "-c", HARNESS], env={"ROOT": str(ROOT), "DIR": str(tmp_path), "PATH": "/usr/bin:/bin:/usr/sbin"},
        capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    lines = run.stdout.split("\n")
    assert [line for line in lines if line.startswith("horse ") and line[6:].isdigit()], run.stdout  # it ran the job
    assert "horse gone" in lines and "redis gone" in lines, run.stdout
    worker_log = (tmp_path / "worker.log").read_text()
    assert "Traceback" not in worker_log and "ConnectionError" not in worker_log, worker_log[-2000:]
