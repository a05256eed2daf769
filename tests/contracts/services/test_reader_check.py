"""Nothing private is published unseen: when the published pages still show personal data the
analysis did not decide, publishing sends the contract back to review with a box proposed on the
value, at every door: the web app, the API and the command line. Born-digital and scanned."""

from __future__ import annotations

import json

import pymupdf
import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation

from contracts.models import AuditEvent, DecisionState, Proposal, Run, Source, Status, Suggestion
from contracts.services import uploads
from redactor.read.ocr import TesseractOcr
from tests.pdfs import pdf_from_paragraphs
from tests.plugins.tenants import logged_in, run_latest_job
from tests.plugins.tokens import api, make_token
from tests.redactor.publish.test_reader_check import LOUKA, _scan

needs_tesseract = pytest.mark.skipif(not TesseractOcr().available(), reason="Tesseract with ces is not installed")


def url(name, contract):
    return reverse(f"contracts:{name}", kwargs={"agency_id": contract.agency_id, "contract_id": contract.pk})


def _processed(agency, clerk, data: bytes):
    contract = uploads.contract_upload(agency=agency, user=clerk, data=data, filename="pacht.pdf", title="Pacht")
    run_latest_job(contract)
    assert contract.status == Status.NEEDS_REVIEW
    return contract


def _text(contract) -> str:
    with contract.redacted.open("rb") as fh, pymupdf.open(stream=fh.read(), filetype="pdf") as doc:
        return " ".join(page.get_text() for page in doc)


@pytest.mark.parametrize("scanned", [False, True], ids=["born-digital", "scan"])
def test_web_sends_the_contract_back_to_review_instead_of_publishing(agency, clerk, reviewer, scanned):
    if scanned and not TesseractOcr().available():
        pytest.skip("Tesseract with ces is not installed")
    data = _scan(pdf_from_paragraphs(LOUKA)) if scanned else pdf_from_paragraphs(LOUKA)
    contract = _processed(agency, clerk, data)
    client = logged_in(reviewer)
    response = client.post(url("approve", contract), {"ocr_pages_checked": "on"})
    assert response.status_code == 302
    run_latest_job(contract)
    # nothing was published: the contract is back in review, the run says why
    assert contract.status == Status.NEEDS_REVIEW and not contract.redacted
    run = Run.objects.filter(contract=contract).order_by("-id").first()
    assert run.kind == Run.Kind.PUBLISHING and run.state == Run.State.FAILED
    assert "Nothing was published" in run.error or "Nic nebylo zveřejněno" in run.error
    (item,) = Proposal.objects.filter(contract=contract, source=Source.READER_CHECK)
    assert item.text == "Louka" and item.suggestion == Suggestion.REVIEW and item.decision == DecisionState.PENDING
    assert item.reason_code == "still_legible_name" and item.boxes and item.boxes[0][0] == 1
    assert AuditEvent.objects.filter(contract=contract, action="still_legible").get().detail == {
        "values": 1,
        "pages": [1],
    }
    # the review page lists it with its reason in the reviewer's language, and the contract page says why
    state = client.get(url("review_state", contract), HTTP_ACCEPT_LANGUAGE="cs").json()
    (listed,) = [p for p in state["proposals"] if p["source"] == "reader_check"]
    with translation.override("cs"):
        assert listed["reason"].startswith("Čeká na kontrolu:") and listed["suggestion"] == "review"
    page = client.get(url("detail", contract), HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    assert "Nic nebylo zveřejněno" in page
    # approval waits for a decision on it
    client.post(url("approve", contract), {"ocr_pages_checked": "on"})
    contract.refresh_from_db()
    assert contract.status == Status.NEEDS_REVIEW
    # the reviewer redacts it: the next publication burns it in and passes
    decided = client.post(
        url("review_decide", contract), {"ids": [item.pk], "decision": "accept"}, content_type="application/json"
    )
    assert decided.status_code == 200
    client.post(url("approve", contract), {"ocr_pages_checked": "on"})
    run_latest_job(contract)
    assert contract.status == Status.PUBLISHED, contract.error_message
    assert contract.verification["checks"]["reader_check"]["findings"] == 0
    if not scanned:
        assert "Louka" not in _text(contract)


def test_a_value_the_reviewer_keeps_is_published_as_kept(agency, clerk, reviewer):
    contract = _processed(agency, clerk, pdf_from_paragraphs(LOUKA))
    client = logged_in(reviewer)
    client.post(url("approve", contract))
    run_latest_job(contract)
    item = Proposal.objects.get(contract=contract, source=Source.READER_CHECK)
    client.post(
        url("review_decide", contract), {"ids": [item.pk], "decision": "reject"}, content_type="application/json"
    )
    client.post(url("approve", contract))
    run_latest_job(contract)
    assert contract.status == Status.PUBLISHED, contract.error_message
    assert "Louka souhlasí" in _text(contract)  # a person decided it: kept, and not asked again
    assert Proposal.objects.filter(contract=contract, source=Source.READER_CHECK).count() == 1


def test_api_sends_the_contract_back_to_review_instead_of_publishing(agency, clerk, admin_user):
    contract = _processed(agency, clerk, pdf_from_paragraphs(LOUKA))
    _, token = make_token(agency, created_by=admin_user)
    base = f"/api/v1/contracts/{contract.pk}"
    assert api(token).post(f"{base}/approve/", {}, format="json").status_code == 202
    run_latest_job(contract)
    status = api(token).get(f"{base}/", HTTP_ACCEPT_LANGUAGE="en").json()
    assert status["status"] == "needs_review"
    proposals = api(token).get(f"{base}/proposals/", HTTP_ACCEPT_LANGUAGE="en").json()
    (item,) = [p for p in proposals if p["source"] == "reader_check"]
    assert item["text"] == "Louka" and item["suggestion"] == "review" and item["decision"] == "pending"
    assert item["reason"].startswith("Needs review: a form of a name redacted elsewhere")
    refused = api(token).post(f"{base}/approve/", {}, format="json")
    assert refused.status_code == 409 and refused.json()["extra"]["code"] == "undecided"
    body = {"decisions": [{"proposal": item["id"], "decision": "accept"}]}
    assert api(token).post(f"{base}/decisions/", body, format="json").status_code == 200
    assert api(token).post(f"{base}/approve/", {}, format="json").status_code == 202
    run_latest_job(contract)
    assert contract.status == Status.PUBLISHED
    download = api(token).get(f"{base}/download/")
    with pymupdf.open(stream=b"".join(download.streaming_content), filetype="pdf") as doc:
        assert "Louka" not in doc[0].get_text()


@pytest.mark.parametrize("scanned", [False, True], ids=["born-digital", "scan"])
def test_the_command_line_lists_review_items_and_says_review_is_needed(tmp_path, capsys, scanned):
    if scanned and not TesseractOcr().available():
        pytest.skip("Tesseract with ces is not installed")
    source = tmp_path / "pacht.pdf"
    source.write_bytes(_scan(pdf_from_paragraphs(LOUKA)) if scanned else pdf_from_paragraphs(LOUKA))
    code = 0
    try:
        call_command("redact", str(source), "--out-dir", str(tmp_path / "out"))
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr().out
    assert code == 3
    assert "pacht.pdf: ok" in out and "review needed: 1 value(s) still legible in the published pages" in out
    # what would be published is written; the JSON beside it names the value as a review item
    assert (tmp_path / "out" / "pacht.pdf").read_bytes().startswith(b"%PDF")
    report = json.loads((tmp_path / "out" / "pacht.json").read_text(encoding="utf-8"))
    (item,) = [p for p in report["proposals"] if p["recognizer"] == "reader_check"]
    assert item["action"] == "review" and item["text"] == "Louka" and item["boxes"][0]["page"] == 1
    assert item["reason"]["code"] == "still_legible_name"
    assert item["reason"]["text"]["cs"].startswith("Čeká na kontrolu:")
    assert report["verification"]["checks"]["reader_check"]["findings"] == 1
