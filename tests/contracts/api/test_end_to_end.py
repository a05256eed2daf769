"""End to end through the API, as a document-management system would do it: upload over HTTP, a
real RQ worker (with rq's scheduler) processes the contract against the real PostgreSQL and Redis,
a local HTTP server receives the signed webhooks (the first delivery is refused and retried),
bulk-accept, approve, download, and the download leaks nothing by the engine's verifier and the
shared scorer."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys

import pymupdf
import pytest
import requests

from accounts.models import Role
from accounts.services import api_token_create
from contracts.models import WebhookDelivery, WebhookEvent
from contracts.services import webhooks
from contracts.webhooks import verify
from redactor.publish.verify import verify as verify_pdf
from tests.conftest import DATA, SCORER
from tests.receiver import Receiver
from tests.worker import flush_queue, start_worker, wait_for

# serialized_rollback: the flush after a transactional test would also remove the seeded platform map
pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

DOCUMENT = "kupni_auto_1"


def _events(receiver: Receiver, secret: str) -> list[str]:
    """Events received with a valid signature, in order (refused attempts included)."""
    return [
        r.headers["X-Redactor-Event"]
        for r in receiver.requests
        if verify(secret=secret, body=r.body, header=r.headers["X-Redactor-Signature"])
    ]


def test_dms_round_trip_with_webhooks(live_server, agency, admin_user, settings, tmp_path):
    settings.REDACTOR_API_RATE = "1000/minute"
    flush_queue()
    _, token = api_token_create(agency=agency, name="Spisová služba", role=Role.REVIEWER, created_by=admin_user)
    auth = {"Authorization": f"Bearer {token}"}
    base = f"{live_server.url}/api/v1"
    source = DATA / "dev" / f"{DOCUMENT}.pdf"

    with Receiver(statuses=[500]) as receiver:  # the receiver refuses the first delivery
        hook = webhooks.webhook_create(
            agency=agency, url=receiver.url, events=list(WebhookEvent.values), created_by=admin_user
        )
        worker = start_worker(env={"REDACTOR_WEBHOOK_RETRY_DELAYS": "1,1,1"})
        try:
            # 1. upload over HTTP, with an Idempotency-Key; the repeat returns the same contract
            def upload():
                with source.open("rb") as fh:
                    return requests.post(
                        f"{base}/contracts/",
                        headers={**auth, "Idempotency-Key": "spis-2026-0815"},
                        files={"file": (source.name, fh, "application/pdf")},
                        data={
                            "title": "Kupní smlouva – osobní automobil",
                            "value_amount": "185000",
                            "value_currency": "CZK",
                        },
                        timeout=30,
                    )

            first = upload()
            assert first.status_code == 201, first.text
            contract_id = first.json()["id"]
            again = upload()
            assert again.status_code == 200 and again.json()["id"] == contract_id

            # 2. the worker processes it; the needs_review webhook arrives after one refused attempt
            wait_for(lambda: _events(receiver, hook.secret).count("contract.needs_review") == 2, timeout=120)
            detail = requests.get(f"{base}/contracts/{contract_id}/", headers=auth, timeout=30).json()
            assert detail["status"] == "needs_review" and detail["progress"]["percent"] == 100

            # 3. bulk decisions: redact what the engine suggests to redact or to review, keep the rest
            proposals = requests.get(f"{base}/contracts/{contract_id}/proposals/", headers=auth, timeout=30).json()
            assert len(proposals) >= 10
            decisions = [
                {"proposal": p["id"], "decision": "reject" if p["suggestion"] == "keep" else "accept"}
                for p in proposals
            ]
            decided = requests.post(
                f"{base}/contracts/{contract_id}/decisions/", headers=auth, json={"decisions": decisions}, timeout=30
            )
            assert decided.status_code == 200 and decided.json()["pending"] == 0

            # 4. approve; the published webhook arrives
            approved = requests.post(f"{base}/contracts/{contract_id}/approve/", headers=auth, json={}, timeout=30)
            assert approved.status_code == 202, approved.text
            wait_for(lambda: "contract.published" in _events(receiver, hook.secret), timeout=120)
            published = json.loads(next(r.body for r in receiver.requests if b"contract.published" in r.body))
            assert published["contract"]["id"] == contract_id and published["contract"]["status"] == "published"

            # 5. download and report
            download = requests.get(f"{base}/contracts/{contract_id}/download/", headers=auth, timeout=30)
            assert download.status_code == 200 and download.headers["Content-Type"] == "application/pdf"
            report = requests.get(f"{base}/contracts/{contract_id}/report/", headers=auth, timeout=30).json()
        finally:
            os.killpg(worker.pid, signal.SIGTERM)
            worker.wait(timeout=30)

    assert report["verification"]["ok"] is True
    assert report["approved_by"] == f"api:Spisová služba ({admin_user.username})"  # the person behind the token
    assert all(r["decided"] == "reviewer" for r in report["redactions"])
    deliveries = {d.event: d for d in WebhookDelivery.objects.filter(webhook=hook)}
    assert (
        deliveries["contract.needs_review"].attempts == 2 and deliveries["contract.needs_review"].state == "delivered"
    )
    assert deliveries["contract.published"].state == "delivered"

    # 6. no leaks: the engine's verifier and the shared scorer against the gold file
    data = download.content
    with pymupdf.open(source) as doc:
        full_text = "".join(page.get_text() for page in doc)
    # strings redacted once and not kept elsewhere (a kept occurrence of the same string is no leak)
    accepted = [p["text"] for p in proposals if p["suggestion"] != "keep" and full_text.count(p["text"]) == 1]
    assert len(accepted) >= 5
    result = verify_pdf(data, accepted)
    assert result.ok, result.problems
    out_dir, gold = tmp_path / "out", tmp_path / "gold"
    out_dir.mkdir()
    gold.mkdir()
    (out_dir / f"{DOCUMENT}.pdf").write_bytes(data)
    for suffix in (".pdf", ".json"):
        shutil.copy(DATA / "dev" / f"{DOCUMENT}{suffix}", gold)
    scored = tmp_path / "score.json"
    subprocess.run(
        [sys.executable, str(SCORER), str(gold), str(out_dir), "--json", str(scored)], check=True, capture_output=True
    )
    summary = json.loads(scored.read_text())["summary"]
    assert summary["missing_outputs"] == 0 and summary["leaked"] == 0 and summary["lost"] == 0
    assert summary["hidden_leaks"] == summary["raw_leaks"] == summary["unsafe_saves"] == 0
