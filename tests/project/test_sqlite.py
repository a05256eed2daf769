"""The quick start's SQLite holds concurrent writers (issue 16: under 10 concurrent API uploads one
request answered 500 "database is locked" and one job failed). Each thread reads and then writes in
one transaction, as an upload and a job do; with SQLite's default deferred transactions two such
writers deadlock and one fails at once, with the settings' IMMEDIATE transactions they queue."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import ROOT

SCRIPT = """
import threading, time, django
django.setup()
from django.db import connection, transaction
from accounts.models import Agency

errors = []

def write(i):
    try:
        with transaction.atomic():
            Agency.objects.count()          # a read first, as the services do
            time.sleep(0.05)                # another writer starts meanwhile
            Agency.objects.create(name=f"Obec {i}", ico=f"{i:08d}")
    except Exception as exc:
        errors.append(repr(exc))
    finally:
        connection.close()

threads = [threading.Thread(target=write, args=(i,)) for i in range(10)]
for t in threads: t.start()
for t in threads: t.join()
print(Agency.objects.count(), len(errors), errors[:1])
"""


def test_ten_concurrent_writers_on_the_embedded_sqlite(tmp_path):
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "1",
    }
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True, timeout=300)
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split()[:2] == ["10", "0"], result.stdout
