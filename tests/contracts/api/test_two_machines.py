"""Two machines that share nothing but PostgreSQL, Redis and an S3 bucket (issue 33): a web
process (gunicorn) and an RQ worker, each started in a temporary working directory of its own with
a media folder of its own, both on the bucket of a real S3 server (SeaweedFS). Ten contracts are
uploaded through the API to the web process, the worker processes them from the bucket, three
are decided, approved and published by the worker, and the web process serves the published
files it never wrote. Neither media folder receives a file."""

from __future__ import annotations

import hashlib
import os
import signal
import socket
import subprocess
import sys

import pymupdf
import pytest
import requests
from django.conf import settings as django_settings

from accounts.models import Role
from accounts.services import api_token_create
from tests.conftest import DATA
from tests.s3server import machine
from tests.worker import flush_queue, start_worker, wait_for, worker_env

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

UPLOADS = 10
PUBLISHED = 3


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _machine(root, name: str, s3_env: dict[str, str]):
    """A machine's environment: the shared services and the bucket, folders of its own."""
    base = {**worker_env(), **s3_env, "SECRET_KEY": django_settings.SECRET_KEY, "REDACTOR_API_RATE": "100000/minute"}
    return machine(root, name, base)


def _files(folder) -> list[str]:
    return [str(p) for p in folder.rglob("*") if p.is_file()]


def test_web_and_worker_without_a_shared_folder_take_contracts_from_upload_to_published(
    s3_server, agency, admin_user, tmp_path
):
    flush_queue()
    s3_env = s3_server.env(AWS_LOCATION="two-machines")
    _, token = api_token_create(agency=agency, name="Spisová služba", role=Role.REVIEWER, created_by=admin_user)
    auth = {"Authorization": f"Bearer {token}"}
    web_env, web_home = _machine(tmp_path, "web", s3_env)
    worker_env_, worker_home = _machine(tmp_path, "worker", s3_env)
    port = _free_port()
    web = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi:application", "-b", f"127.0.0.1:{port}", "-w", "2"],
        cwd=web_home,
        env=web_env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    worker = start_worker(env=worker_env_, cwd=worker_home)
    base = f"http://127.0.0.1:{port}/api/v1"
    sources = sorted((DATA / "dev").glob("*.pdf"))[:UPLOADS]
    assert len(sources) == UPLOADS
    try:
        wait_for(lambda: _answers(f"{base}/contracts/", auth), timeout=60, interval=0.2)
        ids = []
        for source in sources:
            with source.open("rb") as fh:
                answer = requests.post(
                    f"{base}/contracts/",
                    headers=auth,
                    files={"file": (source.name, fh, "application/pdf")},
                    data={"title": source.stem},
                    timeout=60,
                )
            assert answer.status_code == 201, answer.text
            ids.append(answer.json()["id"])

        def statuses() -> dict[int, str]:
            return {i: requests.get(f"{base}/contracts/{i}/", headers=auth, timeout=30).json()["status"] for i in ids}

        def settled() -> dict[int, str] | None:
            now = statuses()
            return now if all(v not in ("uploaded", "processing") for v in now.values()) else None

        processed = wait_for(settled, timeout=600, interval=1)
        assert set(processed.values()) == {"needs_review"}, processed

        for contract_id in ids[:PUBLISHED]:
            proposals = requests.get(f"{base}/contracts/{contract_id}/proposals/", headers=auth, timeout=30).json()
            decisions = [
                {"proposal": p["id"], "decision": "reject" if p["suggestion"] == "keep" else "accept"}
                for p in proposals
            ]
            decided = requests.post(
                f"{base}/contracts/{contract_id}/decisions/", headers=auth, json={"decisions": decisions}, timeout=30
            )
            assert decided.status_code == 200 and decided.json()["pending"] == 0, decided.text
            approved = requests.post(f"{base}/contracts/{contract_id}/approve/", headers=auth, json={}, timeout=30)
            assert approved.status_code == 202, approved.text
        published = wait_for(
            lambda: all(statuses()[i] == "published" for i in ids[:PUBLISHED]) or None, timeout=300, interval=1
        )
        assert published
        for contract_id in ids[:PUBLISHED]:
            download = requests.get(f"{base}/contracts/{contract_id}/download/", headers=auth, timeout=30)
            report = requests.get(f"{base}/contracts/{contract_id}/report/", headers=auth, timeout=30).json()
            assert download.status_code == 200 and report["verification"]["ok"] is True
            assert hashlib.sha256(download.content).hexdigest() == report["redacted_sha256"]
            with pymupdf.open(stream=download.content, filetype="pdf") as doc:
                assert "smlouv" in "".join(page.get_text() for page in doc).lower()
    finally:
        for process in (web, worker):
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=30)
            try:  # what is left of its group (a gunicorn worker, a work horse) holds a database session
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    # every file is an object: 10 originals, 3 published PDFs and 3 texts; no media folder got one
    keys = s3_server.keys("two-machines/")
    assert len([k for k in keys if "/originals/" in k]) == UPLOADS
    assert len([k for k in keys if k.endswith(".pdf") and "/redacted/" in k]) == PUBLISHED
    assert len([k for k in keys if k.endswith(".txt")]) == PUBLISHED
    assert _files(web_home / "media") == [] and _files(worker_home / "media") == []


def _answers(url: str, auth: dict[str, str]) -> bool:
    """Whether the web process serves ``url`` yet: gunicorn listens before its workers have
    loaded Django, so a refused connection or a read that outlasts the probe means "not yet"
    (a booting worker beside the RQ worker's warm-up took 2.4 s alone, more on a loaded machine)."""
    try:
        return requests.get(url, headers=auth, timeout=10).status_code == 200
    except (requests.ConnectionError, requests.Timeout):
        return False
