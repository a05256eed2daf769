"""An installation made by an earlier release upgrades without losing data: a database written by
the release in which maps and rules still belonged to the Django app ``redactor``
(``tests/data/database_before_policy_app.sql``, an SQLite dump of that release's migrated demo
database with an agency map version, a draft, an agency rule with its vote, and a contract and
proposal that point at them) migrates to today's schema in a fresh process, as ``bin/start`` runs
it."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys

from tests.conftest import ROOT

DUMP = ROOT / "tests" / "data" / "database_before_policy_app.sql"


def _migrate(db_path) -> subprocess.CompletedProcess:
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{db_path}", SECRET_KEY="upgrade-test")
    return subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_database_of_the_release_before_the_policy_app_migrates_without_loss(tmp_path):
    db_path = tmp_path / "db.sqlite3"
    with sqlite3.connect(db_path) as db:
        db.executescript(DUMP.read_text(encoding="utf-8"))
        before = {
            table: db.execute(f"SELECT * FROM {table} ORDER BY id").fetchall()
            for table in (
                "redactor_mapversion",
                "redactor_mapdraft",
                "redactor_mapchange",
                "redactor_agencyrule",
                "redactor_rulevote",
            )
        }
        proposal_rules = db.execute("SELECT id, rule_id FROM contracts_proposal").fetchall()
        contract_maps = db.execute("SELECT id, map_version_id FROM contracts_contract").fetchall()
    assert before["redactor_agencyrule"] and before["redactor_rulevote"] and proposal_rules[0][1] is not None

    result = _migrate(db_path)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "policy.0005_policy_app_tables... OK" in result.stdout
    assert "policy.0001_initial" not in result.stdout  # the old app's migrations count as applied

    with sqlite3.connect(db_path) as db:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert not {t for t in tables if t.startswith("redactor_")}
        for old, rows in before.items():
            new = old.replace("redactor_", "policy_")
            after = db.execute(f"SELECT * FROM {new} ORDER BY id").fetchall()
            assert after[: len(rows)] == rows  # every row kept as it was
            if new == "policy_mapversion":  # later releases publish the shipped map's additions on top
                added = db.execute(
                    "SELECT agency_id, number FROM policy_mapversion WHERE id > ? ORDER BY id", (rows[-1][0],)
                ).fetchall()
                assert len(after) == len(rows) + len(added)
                assert all(agency is None for agency, _n in added)
                assert [n for _a, n in added] == sorted(n for _a, n in added)
                # the platform map in force has every holder rule of the shipped map (a staff
                # member's work e-mail of a public body kept, added by 0007)
                (latest,) = db.execute(
                    "SELECT data FROM policy_mapversion WHERE agency_id IS NULL ORDER BY number DESC LIMIT 1"
                ).fetchall()
                overrides = json.loads(latest[0])["holder_overrides"]
                assert {"category": 6, "holders": ["public_body"]}.items() <= next(
                    o for o in overrides if o["category"] == 6
                ).items()
            else:
                assert after == rows
        assert db.execute("SELECT id, rule_id FROM contracts_proposal").fetchall() == proposal_rules
        assert db.execute("SELECT id, map_version_id FROM contracts_contract").fetchall() == contract_maps
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        # the permission given on agency rules is still the user's, now on the policy app's model
        granted = db.execute(
            "SELECT ct.app_label FROM auth_user_user_permissions up JOIN auth_permission p ON p.id = up.permission_id"
            " JOIN django_content_type ct ON ct.id = p.content_type_id WHERE p.codename = 'change_agencyrule'"
        ).fetchall()
        assert granted == [("policy",)]
        assert not db.execute("SELECT * FROM django_content_type WHERE app_label = 'redactor'").fetchall()

    again = _migrate(db_path)  # a second start finds nothing to do
    assert again.returncode == 0 and "No migrations to apply" in again.stdout
