"""The documentation's commands run as written: the API walkthrough of ``docs/api.md`` against a
live server with a real worker, and the backup, restore and agency commands of
``docs/operations/backup.md`` on a quick-start-like folder (SQLite, files under ``var/``).

Each runs in a folder of its own that looks like the repository's (``manage.py``, ``.venv`` and
``tests`` linked in, ``var/`` its own), so the commands' relative paths hold and nothing is
written into the checkout. Only what the docs tell the reader to adapt is adapted: the server's
address and the token file ``bin/start`` would have written."""

from __future__ import annotations

import datetime
import os
import re
import sqlite3
import subprocess
import tarfile
from pathlib import Path

import pytest
import requests

from tests.conftest import ROOT

DOCS = ROOT / "docs"


def _folder(tmp_path: Path) -> Path:
    """A folder that looks like the repository's for the commands: the code linked in, ``var/`` own."""
    folder = tmp_path / "checkout"
    (folder / "var").mkdir(parents=True)
    for name in ("manage.py", ".venv", "tests", "config", "accounts", "contracts", "policy", "registry", "redactor",
                 "templates", "static", "locale"):  # fmt: skip
        (folder / name).symlink_to(ROOT / name)
    return folder


def _sh_blocks(markdown: str) -> list[str]:
    return re.findall(r"```sh\n(.*?)```", markdown, re.S)


def _run(command: str, cwd: Path, env: dict[str, str], timeout: float = 300) -> subprocess.CompletedProcess:
    """``command`` in bash, as a reader pastes it (``manage.py`` as the docs write it is run with
    the checkout's ``.venv/bin/python``, as the quick start does)."""
    command = re.sub(r"(?m)^manage\.py ", ".venv/bin/python manage.py ", command)
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
    return done


def _quick_start_env(folder: Path) -> dict[str, str]:
    """The quick start's settings for ``folder``: SQLite and files under its ``var/``."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")}
    (folder / "var" / "secret_key").write_text("docs-commands-test-secret")
    return env | {"VAR_DIR": str(folder / "var"), "SECRET_KEY_FILE": str(folder / "var" / "secret_key")}


def test_the_backup_pages_commands_run_as_written(tmp_path):
    page = (DOCS / "operations" / "backup.md").read_text()
    code = re.findall(r"`([^`\n]+)`", page)

    def command(start: str) -> str:
        """The page's fullest spelling of the command (``manage.py backup redactor-$(date +%F).tar``
        rather than a mention of ``manage.py backup``)."""
        return max((c for c in code if c == start or c.startswith(start + " ")), key=len)

    old = _folder(tmp_path)
    env = _quick_start_env(old)
    _run("manage.py migrate --noinput", old, env)
    _run(command("manage.py database_check"), old, env)
    created = _run(command("manage.py agency_create"), old, env)
    assert "https://redactor.example.cz/" in created.stdout + created.stderr  # the invitation's link
    [sqlite_block] = [b for b in _sh_blocks(page) if "sqlite3 var/db.sqlite3" in b]
    _run(sqlite_block, old, env)  # SQLite's online backup
    today = datetime.date.today().isoformat()
    copy = sqlite3.connect(old / "var" / f"backup-{today}.sqlite3")
    assert copy.execute("select name from accounts_agency").fetchall() == [("Obec Dolní Bukovina",)]
    copy.close()
    _run(command("manage.py backup"), old, env)
    archive = old / f"redactor-{today}.tar"
    assert tarfile.is_tarfile(archive) and oct(archive.stat().st_mode & 0o777) == "0o600"
    _run(command("manage.py store_documents"), old, env)

    # the new machine: an empty database migrated, then the restore as the page words it
    new = _folder(tmp_path / "new")
    env_new = {k: v for k, v in _quick_start_env(new).items() if k != "SECRET_KEY_FILE"}
    env_new["SECRET_KEY_FILE"] = str(new / "var" / "restored_key")
    (new / "var" / "restored_key").write_text("the new machine's own key")
    (new / archive.name).symlink_to(archive)
    _run(command("manage.py migrate"), new, env_new)
    restore = command("manage.py restore")
    assert "…" in restore  # the page leaves the file's date to the reader
    _run(restore.replace("…", today), new, env_new)
    restored = sqlite3.connect(new / "var" / "db.sqlite3")
    assert restored.execute("select name, ico from accounts_agency").fetchall() == [("Obec Dolní Bukovina", "00000019")]
    restored.close()
    assert (new / "var" / "restored_key").read_text().strip() == "docs-commands-test-secret"


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_api_walkthrough_runs_as_written(live_server, settings, tmp_path, admin_user):
    from accounts.models import Agency, Role
    from accounts.services import api_token_create
    from contracts.models import AuditEvent
    from tests.worker import flush_queue, start_worker, worker_env

    settings.REDACTOR_API_RATE = "1000/minute"
    # the quick start's demo agency (IČO 00000001) with the reviewer's token bin/start writes
    agency = Agency.objects.filter(pk=admin_user.memberships.get().agency_id)
    agency.update(ico="00000001")
    _, token = api_token_create(agency=agency.get(), name="Demo", role=Role.REVIEWER, created_by=admin_user)
    folder = _folder(tmp_path)
    (folder / "var" / "demo_token").write_text(token + "\n")
    page = (DOCS / "api.md").read_text()
    [walkthrough] = [b for b in _sh_blocks(page) if "export REDACTOR_TOKEN=$(cat var/demo_token)" in b]
    assert "API=http://127.0.0.1:8000/api/v1" in walkthrough
    script = walkthrough.replace("http://127.0.0.1:8000", live_server.url)  # where this server listens
    # between the steps the reader waits for the job, as step 2 says (poll, or a webhook)
    steps = re.split(r"(?m)^(?=# \d+\. )", script)
    assert [s[:5] for s in steps[1:]] == ["# 1. ", "# 2. ", "# 3. ", "# 4. ", "# 5. ", "# 6. ", "# 7. "]
    ready = '\nuntil curl -sS -H "$AUTH" $API/contracts/$ID/ | grep -q \'"status":"%s"\'; do sleep 0.5; done\n'
    script = "".join(
        step + (ready % "needs_review" if step.startswith("# 2. ") else "")
        + (ready % "published" if step.startswith("# 5. ") else "")
        for step in steps
    )  # fmt: skip
    script = "set -x\n" + script
    flush_queue()
    worker = start_worker()
    try:
        done = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", script],
            cwd=folder,
            env=worker_env(),
            capture_output=True,
            text=True,
            timeout=600,
        )
    finally:
        worker.terminate()
        worker.wait(timeout=30)
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    assert '"extra":{"code"' not in done.stdout, done.stdout[-3000:]  # no example answered with an error
    # what the reader gets: the PDF and its text beside it, a report that verified, the export's
    # job, and a 404 after the delete
    pdf = folder / "smlouva-anonymizovano.pdf"
    assert pdf.read_bytes().startswith(b"%PDF") and (folder / "smlouva-anonymizovano.txt").stat().st_size > 0
    assert re.search(r'"verification":\s*\{[^{}]*"ok":\s*true', done.stdout), done.stdout[-3000:]
    contract_id = int(re.search(r"\+ ID=(\d+)", done.stderr).group(1))
    assert AuditEvent.objects.filter(contract_id=contract_id, action="published").exists()
    gone = requests.get(
        f"{live_server.url}/api/v1/contracts/{contract_id}/", headers={"Authorization": f"Bearer {token}"}, timeout=10
    )
    assert gone.status_code == 404


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_records_walkthrough_runs_as_written_on_the_demo_month(live_server, settings, tmp_path):
    """``docs/registry.md``'s walkthrough of records published before, on the quick start's own
    demo month (served as ``bin/start`` serves it), step by step, waiting where it says to."""
    import functools
    import http.server
    import threading

    from django.core.management import call_command

    from accounts.models import Agency, Role
    from accounts.services import api_token_create
    from contracts.models import Contract
    from registry.demo import write_demo_month
    from registry.models import PublishedRecord, RecordAudit, RecordImport
    from tests.worker import flush_queue, start_worker, wait_for, worker_env

    settings.REDACTOR_API_RATE = "1000/minute"
    call_command("demo", url=live_server.url, stdout=open(os.devnull, "w"))
    agency = Agency.objects.get(ico="00000001")
    reviewer = agency.memberships.get(role=Role.REVIEWER).user
    _, token = api_token_create(agency=agency, name="Demo", role=Role.REVIEWER, created_by=reviewer)
    served_dir = tmp_path / "demo-open-data"
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(served_dir))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}/"
    write_demo_month(served_dir, base, ico=agency.ico, data_box=agency.data_box_id, name=agency.name)
    folder = _folder(tmp_path)
    (folder / "var" / "demo_token").write_text(token + "\n")
    page = (DOCS / "registry.md").read_text()
    [walkthrough] = [b for b in _sh_blocks(page) if "registry/records/imports/" in b]
    preamble, *steps = re.split(r"(?m)^(?=# \d+\. )", walkthrough.replace("http://127.0.0.1:8000", live_server.url))
    assert [s[:5] for s in steps] == ["# 1. ", "# 2. ", "# 3. ", "# 4. "]
    urls = {"REDACTOR_REGISTRY_OPEN_DATA_URL": base, "REDACTOR_REGISTRY_FILES_URL": f"{base}smlouva/soubor/"}
    settings.REDACTOR_REGISTRY_OPEN_DATA_URL = base
    env = worker_env() | urls
    flush_queue()
    worker = start_worker(env=urls)
    try:
        for step in steps:
            done = subprocess.run(
                ["bash", "-euo", "pipefail", "-c", preamble + step], cwd=folder, env=env, capture_output=True,
                text=True, timeout=300,
            )  # fmt: skip
            assert done.returncode == 0 and '"code"' not in done.stdout, f"{step}\n{done.stdout}\n{done.stderr}"
            if step.startswith("# 1. "):  # "when the import is done"
                wait_for(lambda: RecordImport.objects.filter(agency=agency, state="done").exists(), timeout=120)
            if step.startswith("# 2. "):  # "when the audit is done"
                wait_for(lambda: RecordAudit.objects.filter(agency=agency, state="done").exists(), timeout=300)
            if step.startswith("# 3. "):
                assert '"record_id":9100002' in done.stdout
    finally:
        worker.terminate()
        worker.wait(timeout=30)
        server.shutdown()
    record = PublishedRecord.objects.get(agency=agency, record_id=9100002)
    assert record.exposure > 0 and Contract.objects.filter(pk=record.correction_id).exists()
    assert (folder / "zaznamy-audit.csv").read_bytes().startswith(b"\xef\xbb\xbf")
