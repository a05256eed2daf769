"""Scanned contracts through the product: the OCR queue, OCR at processing, the stored OCR words
replayed at publishing, the low-confidence check before approval, real scans in review."""

from __future__ import annotations

import json

import django_rq
import pymupdf
import pytest
from django.core.exceptions import ValidationError

from contracts.models import Proposal, Status
from contracts.services import publishing, uploads
from tests.pdfs import pdf_from_paragraphs, scan_of
from tests.plugins.tenants import CONTRACT_TEXT, logged_in, run_latest_job
from tests.worker import flush_queue

pytestmark = pytest.mark.django_db


@pytest.fixture
def scan() -> bytes:
    return scan_of(pdf_from_paragraphs(CONTRACT_TEXT))


def test_a_scan_goes_to_the_ocr_queue_and_a_born_digital_contract_does_not(
    agency, clerk, scan, contract_pdf, django_capture_on_commit_callbacks
):
    flush_queue()
    with django_capture_on_commit_callbacks(execute=True):
        scanned = uploads.contract_upload(agency=agency, user=clerk, data=scan, filename="sken.pdf")
    with django_capture_on_commit_callbacks(execute=True):
        digital = uploads.contract_upload(agency=agency, user=clerk, data=contract_pdf, filename="smlouva.pdf")
    assert (scanned.scan_pages, digital.scan_pages) == (1, 0)
    ocr_jobs = django_rq.get_queue("ocr").get_job_ids()
    default_jobs = django_rq.get_queue("default").get_job_ids()
    assert [r.rq_job_id for r in scanned.runs.all()] == ocr_jobs
    assert [r.rq_job_id for r in digital.runs.all()] == default_jobs
    flush_queue()


def test_a_scan_is_read_reviewed_and_published_with_black_pixels_and_a_text_layer(
    agency, clerk, reviewer, scan, monkeypatch
):
    contract = uploads.contract_upload(agency=agency, user=clerk, data=scan, filename="sken.pdf")
    run_latest_job(contract)
    assert contract.status == Status.NEEDS_REVIEW
    page = contract.pages[0]
    assert page["ocr"] and page["ocr_confidence"] > 80 and not page["needs_check"]
    assert contract.ocr_pages["1"]["words"]
    birth = Proposal.objects.get(contract=contract, text="750403/1238")
    assert birth.suggestion == "redact"

    # publishing replays the stored OCR words: Tesseract is not asked again
    def no_tesseract(self, page):
        raise AssertionError("OCR ran again at publishing")

    monkeypatch.setattr("redactor.read.ocr.TesseractOcr.recognize", no_tesseract)
    publishing.contract_approve(contract=contract, user=reviewer)
    run_latest_job(contract)
    assert contract.status == Status.PUBLISHED, contract.error_message
    with contract.redacted.open("rb") as fh:
        published = fh.read()
    doc = pymupdf.open(stream=published)
    text = doc[0].get_text()
    assert "Obec Horní Lhota" in text and "120 000 Kč" in text  # the invisible OCR layer
    assert "750403" not in text and "Novák" not in text
    x0, y0, x1, y1 = birth.boxes[0][1:]
    pix = doc[0].get_pixmap(dpi=72, clip=pymupdf.Rect(x0 + 1, y0 + 1, x1 - 1, y1 - 1), colorspace=pymupdf.csGRAY)
    assert max(pix.samples) == 0


def test_low_confidence_pages_must_be_checked_before_approval(agency, clerk, reviewer, scan):
    contract = uploads.contract_upload(agency=agency, user=clerk, data=scan, filename="sken.pdf")
    run_latest_job(contract)
    contract.pages = [{**contract.pages[0], "ocr_confidence": 55.0, "needs_check": True}]
    contract.save(update_fields=["pages"])
    with pytest.raises(ValidationError) as refused:
        publishing.contract_approve(contract=contract, user=reviewer)
    assert refused.value.code == "ocr_unchecked"
    detail = logged_in(reviewer).get(f"/a/{agency.pk}/contracts/{contract.pk}/")
    assert 'id="pages-to-check"' in detail.content.decode()
    publishing.contract_approve(contract=contract, user=reviewer, ocr_pages_checked=True)
    contract.refresh_from_db()
    assert contract.status == Status.APPROVED and contract.ocr_confirmed_by == reviewer


@pytest.mark.slow
def test_a_real_sideways_scan_can_be_reviewed(agency, clerk, reviewer, data_dir):
    data = (data_dir / "real" / "TestData_668.pdf").read_bytes()
    contract = uploads.contract_upload(agency=agency, user=clerk, data=data, filename="TestData_668.pdf")
    run_latest_job(contract)
    assert contract.status == Status.NEEDS_REVIEW and contract.scan_pages == 2
    assert [p["ocr"] for p in contract.pages] == [True, True] and contract.pages_to_check == [1, 2]
    client = logged_in(reviewer)
    page = client.get(f"/a/{agency.pk}/contracts/{contract.pk}/review/")
    assert page.status_code == 200 and "ocr-note" in page.content.decode()
    state = json.loads(client.get(f"/a/{agency.pk}/contracts/{contract.pk}/review/state.json").content)
    proposals = [p for p in state["proposals"] if p["boxes"]]
    assert proposals and {p["page"] for p in proposals} <= {1, 2}
    chosen = next(p for p in proposals if p["suggestion"] == "redact")
    response = client.post(
        f"/a/{agency.pk}/contracts/{contract.pk}/review/decide/",
        {"ids": [chosen["id"]], "decision": "reject"},
        content_type="application/json",
    )
    assert response.status_code == 200
    assert Proposal.objects.get(pk=chosen["id"]).decision == "rejected"
