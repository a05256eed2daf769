"""The agency's bulk text export: a job for agency admins at both doors, a zip of every decided
contract, an audit entry per contract, nothing for another agency."""

from __future__ import annotations

import io
import json
import zipfile

import django_rq
import pytest
from django.urls import reverse
from rq import SimpleWorker

from accounts.models import Role
from contracts.models import AuditEvent, Status
from contracts.services import exports, uploads
from tests.plugins.tenants import logged_in, run_latest_job
from tests.plugins.tokens import api, make_token


@pytest.fixture
def worker():
    """Runs the queued jobs on the test Redis in this process (SimpleWorker, burst)."""
    queue = django_rq.get_queue("low")  # owned jobs: the low-priority queue
    queue.empty()
    yield lambda: SimpleWorker([queue], connection=queue.connection).work(burst=True)
    queue.empty()


def test_an_admin_token_exports_every_decided_contract(published, agency, clerk, admin_user, worker, contract_pdf):
    in_review = uploads.contract_upload(agency=agency, user=clerk, data=contract_pdf, filename="druha.pdf")
    run_latest_job(in_review)
    assert in_review.status == Status.NEEDS_REVIEW  # not decided: not exported
    worker()  # nothing else queued
    token = make_token(agency, Role.ADMIN, created_by=admin_user)[1]
    assert api(make_token(agency, Role.CLERK, created_by=admin_user)[1]).post("/api/v1/exports/", {}).status_code == 403

    started = api(token).post("/api/v1/exports/", {"mode": "tagged", "format": "jsonl"}, format="json")
    assert started.status_code == 202 and started.json()["state"] == "running"
    job = started.json()["id"]
    early = api(token).get(f"/api/v1/exports/{job}/download/")
    assert early.status_code == 409
    worker()
    state = api(token).get(f"/api/v1/exports/{job}/").json()
    assert state["state"] == "finished" and state["contracts"] == 1 and state["failed"] == []
    zipped = api(token).get(f"/api/v1/exports/{job}/download/")
    assert zipped.status_code == 200 and zipped["Content-Type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(b"".join(zipped.streaming_content))) as archive:
        assert archive.namelist() == ["export-tagged.jsonl"]
        lines = archive.read("export-tagged.jsonl").decode("utf-8").splitlines()
    record = json.loads(lines[0])
    assert len(lines) == 1 and "[JMÉNO_1]" in record["text"] and "Novák" not in record["text"]
    assert record["document"].endswith(f"-{published.pk}.pdf")
    event = AuditEvent.objects.get(contract=published, action="exported_text")
    assert event.detail == {"mode": "tagged", "format": "jsonl", "bulk": True}
    assert not AuditEvent.objects.filter(contract=in_review, action="exported_text").exists()
    assert api(token).post("/api/v1/exports/", {"mode": "anonymised"}, format="json").status_code == 400


def test_the_export_page_for_agency_admins(published, agency, admin_user, reviewer, outsider, worker):
    page = reverse("contracts:exports", kwargs={"agency_id": agency.pk})
    assert logged_in(reviewer).get(page).status_code == 403
    client = logged_in(admin_user)
    assert "1" in client.get(page).content.decode()  # one decided contract
    started = client.post(page, {"mode": "pseudonymised", "format": "txt"})
    assert started.status_code == 302 and "?job=" in started["Location"]
    running = client.get(started["Location"])
    assert running.context["state"].state == "running" and b'http-equiv="refresh"' in running.content
    worker()
    finished = client.get(started["Location"])
    assert finished.context["state"].state == "finished"
    job = started["Location"].split("job=")[1]
    download = reverse("contracts:export_download", kwargs={"agency_id": agency.pk, "job_id": job})
    assert download in finished.content.decode()
    response = client.get(download)
    with zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content))) as archive:
        (name,) = archive.namelist()
        text = archive.read(name).decode("utf-8")
    assert name.endswith(f"-{published.pk}-pseudonymised.txt")
    assert "Novák" not in text and "750403/1238" not in text and "Obec Horní Lhota" in text
    # another agency's admin cannot see or download it
    other = logged_in(outsider)
    other_page = reverse("contracts:exports", kwargs={"agency_id": outsider.memberships.get().agency_id})
    assert other.get(other_page, {"job": job}).status_code == 404
    # the category map's preview page given the export's job id (the agency's other job kind): 404
    preview = reverse("agency_map_preview", kwargs={"agency_id": agency.pk})
    assert client.get(preview, {"job": job}).status_code == 404
    assert client.post(page, {"mode": "x", "format": "txt"}).status_code == 302  # refused with a message


def test_a_contract_left_out_and_a_failed_export_say_why(published, agency, admin_user, worker, monkeypatch):
    worker()
    token = make_token(agency, Role.ADMIN, created_by=admin_user)[1]
    with published.analysed.open("wb") as fh:  # storage damage: the analysed text no longer matches
        fh.write(b"not the stored layer")
    with published.original.open("wb") as fh:
        fh.write(b"%PDF-1.7\n" + b"\x00garbage" * 50)
    job = api(token).post("/api/v1/exports/", {"mode": "removed"}, format="json").json()["id"]
    worker()
    state = api(token).get(f"/api/v1/exports/{job}/", HTTP_ACCEPT_LANGUAGE="cs").json()
    assert state["state"] == "finished" and state["contracts"] == 0 and state["failed"] == [published.pk]
    [failure] = state["failures"]
    assert failure["contract"] == published.pk and failure["title"] == published.title
    assert "poškoz" in failure["reason"] and state["error"] is None
    page = reverse("contracts:exports", kwargs={"agency_id": agency.pk})
    shown = logged_in(admin_user).get(page, {"job": job}).content.decode()
    assert f"{published.title}: {failure['reason']}" in shown

    def broken(**kwargs):
        raise RuntimeError("the zip could not be written")

    monkeypatch.setattr(exports, "agency_export_build", broken)
    job = api(token).post("/api/v1/exports/", {"mode": "removed"}, format="json").json()["id"]
    worker()
    state = api(token).get(f"/api/v1/exports/{job}/", HTTP_ACCEPT_LANGUAGE="en").json()
    assert state["state"] == "failed" and "internal error" in state["error"]
    shown = logged_in(admin_user).get(page, {"job": job}).content.decode()
    assert 'id="export-failed"' in shown and "vnitřní chybě" in shown
