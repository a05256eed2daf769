"""``bin/setup`` opens the database before migrating it: a ``DATABASE_URL`` naming a database that
does not exist stops it with one sentence saying what to do, not a traceback."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import ROOT


def _check(url: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, DATABASE_URL=url, SECRET_KEY="database-check-test")
    command = [sys.executable, "manage.py", "database_check"]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_a_database_that_does_not_exist_is_named_with_what_to_do():
    run = _check("postgres://postgres:s3cret@127.0.0.1:5432/redactor_no_such_database")
    assert run.returncode == 1
    assert 'database "redactor_no_such_database" does not exist' in run.stderr
    assert "createdb redactor_no_such_database" in run.stderr and "Traceback" not in run.stderr
    assert "s3cret" not in run.stderr  # the password is not printed


def test_a_database_that_opens_says_so(tmp_path):
    run = _check(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    assert run.returncode == 0 and "opens" in run.stdout
