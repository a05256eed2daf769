"""An installation made by an earlier release upgrades without losing data.

A database written by the release in which maps and rules still belonged to the Django app
``redactor`` (``tests/data/database_before_policy_app.sql``, an SQLite dump of that release's
migrated demo database with an agency map version, a draft, an agency rule with its vote, and a
contract and proposal that point at them) migrates to today's schema in a fresh process, as
``bin/start`` runs it. A database of the release before the registry owned its models, written
with that release's models on SQLite and on PostgreSQL, keeps its registry rows."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import uuid

import pytest
from django.db import connection

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


# -- the registry's rows move into the registry app -------------------------------------------------
#: The release before the registry owned its models: where its apps' migrations ended.
PREVIOUS_RELEASE = [
    ("accounts", "0009_agency_signatures_printed_grounds"),
    ("contracts", "0017_contract_rebuilt"),
    ("policy", "0007_platform_map_official_email"),
]

_SETUP = """
import os, django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()
"""

#: Migrates an empty database to the previous release and writes, with that release's models,
#: an agency with registry settings, a registered contract with a submission, a contract with no
#: registry values, and a user allowed to change submissions; prints the rows as JSON.
_PREVIOUS = (
    _SETUP
    + """
import json, sys
from datetime import datetime, timezone
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

targets = [tuple(t) for t in json.loads(sys.argv[1])]
executor = MigrationExecutor(connection)
executor.migrate(targets)
apps = executor.loader.project_state(targets).apps
Agency, Contract = apps.get_model("accounts", "Agency"), apps.get_model("contracts", "Contract")
Settings, Submission = apps.get_model("accounts", "RegistrySettings"), apps.get_model("contracts", "RegistrySubmission")
ContentType, Permission = apps.get_model("contenttypes", "ContentType"), apps.get_model("auth", "Permission")
User = apps.get_model("auth", "User")

agency = Agency.objects.create(name="Obec Horní Lhota", ico="00012345", data_box_id="abc1234")
Settings.objects.create(agency=agency, channel="databox", environment="production", unit="Odbor správy",
                        address="Náměstí 1, Horní Lhota", login="hl0001", password_sealed="sealed")
original = {"original_name": "smlouva.pdf", "original_size": 1000, "original_sha256": "d" * 64}
registered = Contract.objects.create(
    agency=agency, title="Oprava chodníku", status="registered", **original,
    registry_metadata={"subject": "Oprava chodníku", "parties": [{"name": "Stavby s.r.o.", "ico": "27074358"}]},
    registry_record_id=8123456, registry_version_id=9123456,
    registry_link="https://smlouvy.gov.cz/smlouva/9123456",
    registered_at=datetime(2026, 3, 2, 10, 30, tzinfo=timezone.utc),
)
Contract.objects.create(agency=agency, title="Ještě nezpracovaná", status="uploaded", **original)
first = Submission.objects.create(agency=agency, contract=registered, operation="zverejneni", state="accepted",
                                  channel="databox", key="a" * 64, xml="<zverejneni/>", message_id="4711",
                                  files=[{"name": "smlouva.pdf", "sha256": "b" * 64, "size": 10, "kind": "pdf"}])
Submission.objects.create(agency=agency, contract=registered, operation="pridaniPrilohy", state="prepared",
                          channel="databox", key="c" * 64, follows=first)
content_type, _ = ContentType.objects.get_or_create(app_label="contracts", model="registrysubmission")
permission, _ = Permission.objects.get_or_create(
    content_type=content_type, codename="change_registrysubmission", defaults={"name": "Can change submission"})
User.objects.create(username="spravce").user_permissions.add(permission)

print(json.dumps({
    "settings": list(Settings.objects.order_by("pk").values()),
    "submissions": list(Submission.objects.order_by("pk").values()),
    "contracts": list(Contract.objects.order_by("pk").values(
        "pk", "registry_metadata", "registry_record_id", "registry_version_id", "registry_link", "registered_at")),
}, default=str))
"""
)

#: Reads the same rows with today's models; prints them as JSON.
_TODAY = (
    _SETUP
    + """
import json
from django.contrib.auth.models import User
from django.db import connection
from contracts.models import Contract
from registry.models import RegistryRecord, RegistrySettings, RegistrySubmission
from registry.selectors import registry_record

with connection.cursor() as cursor:
    columns = [c.name for c in connection.introspection.get_table_description(cursor, "contracts_contract")]
records = {}
for contract in Contract.objects.order_by("pk"):
    r = registry_record(contract)
    records[contract.pk] = {"registry_metadata": r.metadata, "registry_record_id": r.record_id,
                            "registry_version_id": r.version_id, "registry_link": r.link,
                            "registered_at": r.registered_at}
print(json.dumps({
    "settings": list(RegistrySettings.objects.order_by("pk").values()),
    "submissions": list(RegistrySubmission.objects.order_by("pk").values()),
    "contracts": [{"pk": pk, **values} for pk, values in records.items()],
    "stored_records": RegistryRecord.objects.count(),
    "registry_columns": [c for c in columns if c.startswith("regist")],
    "may_change": User.objects.get(username="spravce").has_perm("registry.change_registrysubmission"),
    "follows": RegistrySubmission.objects.get(operation="pridaniPrilohy").follows.operation,
}, default=str))
"""
)


def _run(script: str, database_url: str, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, DATABASE_URL=database_url, SECRET_KEY="upgrade-test")
    return subprocess.run(
        [sys.executable, "-c", script, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_database(request, tmp_path):
    """The URL of an empty database of each engine the product runs on."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'db.sqlite3'}"
        return
    import psycopg

    s = connection.settings_dict
    server = {"host": s["HOST"] or "127.0.0.1", "port": s["PORT"] or 5432, "user": s["USER"] or None}
    name = f"upgrade_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(**server, dbname="postgres", autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgres://{server['user'] or ''}@{server['host']}:{server['port']}/{name}"
    finally:
        with psycopg.connect(**server, dbname="postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_database_of_the_previous_release_keeps_its_registry_rows_in_the_registry_app(empty_database):
    """The release before kept the registry's settings in ``accounts``, its submissions in
    ``contracts`` and five registry fields on the contract; migrating (as ``bin/start`` does)
    keeps every settings and submission row as it was, in the same tables and with the same ids,
    copies the contract's fields into its registry record, and moves the content type with the
    permissions that point at it."""
    previous = _run(_PREVIOUS, empty_database, json.dumps(PREVIOUS_RELEASE))
    assert previous.returncode == 0, previous.stderr[-3000:]
    before = json.loads(previous.stdout.strip().splitlines()[-1])
    assert len(before["submissions"]) == 2 and len(before["settings"]) == 1

    env = dict(os.environ, DATABASE_URL=empty_database, SECRET_KEY="upgrade-test")
    migrate = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input"], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip
    assert migrate.returncode == 0, migrate.stderr[-3000:]
    assert "registry.0001_initial... OK" in migrate.stdout
    assert "contracts.0019_registry_fields_to_registry_record... OK" in migrate.stdout

    today = _run(_TODAY, empty_database)
    assert today.returncode == 0, today.stderr[-3000:]
    after = json.loads(today.stdout.strip().splitlines()[-1])
    assert after["settings"] == before["settings"]  # the same rows, ids and sealed secrets
    assert after["submissions"] == before["submissions"]
    assert after["contracts"] == before["contracts"]  # the registered one's values, the other's blanks
    assert after["stored_records"] == 1  # a contract with no registry value gets its record when one is written
    assert after["registry_columns"] == [] and after["may_change"] and after["follows"] == "zverejneni"
