"""The contract life cycle through the services and views: upload, processing, decisions,
manual boxes, approval, publishing with verification, download, retry."""

from __future__ import annotations

import hashlib
import json

import pymupdf
import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from contracts import jobs
from contracts.models import AuditEvent, Contract, Decision, DecisionState, Proposal, Run, Source, Status, Suggestion
from contracts.services import publishing, reviewing, runs
from redactor.model import Box
from tests.plugins.tenants import logged_in, run_latest_job


def url(name, contract, **kw):
    return reverse(f"contracts:{name}", kwargs={"agency_id": contract.agency_id, "contract_id": contract.pk, **kw})


def text_of(data: bytes) -> str:
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        return " ".join(page.get_text() for page in doc)


def test_upload_stores_original_and_queues_processing(agency, clerk, contract_pdf, django_capture_on_commit_callbacks):
    client = logged_in(clerk)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post(
            reverse("contracts:upload", kwargs={"agency_id": agency.pk}),
            {"file": _upload(contract_pdf), "title": "Smlouva", "counterparty": "Jan Novák", "value_amount": "120000"},
        )
    contract = Contract.objects.get()
    assert response.status_code == 302 and response.url == url("detail", contract)
    assert contract.status == Status.UPLOADED and contract.agency == agency and contract.created_by == clerk
    with contract.original.open("rb") as fh:
        assert fh.read() == contract_pdf
    assert contract.original_sha256 == hashlib.sha256(contract_pdf).hexdigest()
    assert "originals/" in contract.original.name and "kupni" not in contract.original.name
    assert Run.objects.get().kind == Run.Kind.PROCESSING
    assert len(callbacks) == 1  # the job is enqueued only after the upload committed


def _upload(data: bytes, name: str = "smlouva.pdf"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, data, content_type="application/pdf")


def test_processing_stores_proposals_with_reasons(processed):
    assert processed.status == Status.NEEDS_REVIEW
    proposals = list(Proposal.objects.filter(contract=processed))
    redact = {p.text for p in proposals if p.suggestion == Suggestion.REDACT}
    assert "750403/1238" in redact and "19-2000145399/0800" in redact
    assert any("Novák" in t for t in redact)
    assert all(p.reason and p.reason_code and p.boxes and p.agency_id == processed.agency_id for p in proposals)
    # the review page names reasons and parties in the interface's language
    birth = next(p for p in proposals if p.text == "750403/1238")
    with translation.override("cs"):
        assert birth.reason_display().startswith("Znečitelnit: Rodné číslo")
        assert birth.party_display().startswith("smluvní strana 1 (prodávající), fyzická osoba")
    with translation.override("en"):
        assert birth.party_display() == birth.party == "natural person party 1 (prodávající)"
    run = Run.objects.get(contract=processed)
    assert run.state == Run.State.SUCCEEDED and run.phase == Run.Phase.DONE and run.percent == 100
    # the page as the engine describes it (PageInfo.to_dict): a born-digital A4 page, nothing read by OCR
    (page,) = processed.pages
    assert {k: page[k] for k in ("number", "width", "height", "needs_ocr", "ocr", "ocr_confidence", "needs_check")} == {
        "number": 1,
        "width": 595.0,
        "height": 842.0,
        "needs_ocr": False,
        "ocr": False,
        "ocr_confidence": None,
        "needs_check": False,
    }
    assert AuditEvent.objects.filter(contract=processed, action="processed").exists()


def test_processing_twice_does_nothing_the_second_time(processed):
    count = Proposal.objects.filter(contract=processed).count()
    run = Run.objects.get(contract=processed)
    jobs.process_contract(run.pk)  # a job delivered twice
    assert Proposal.objects.filter(contract=processed).count() == count


def test_decide_same_cluster_covers_every_occurrence(processed, reviewer):
    novak = [p for p in Proposal.objects.filter(contract=processed) if "Novák" in p.text]
    assert len(novak) >= 2 and len({p.cluster for p in novak}) == 1
    client = logged_in(reviewer)
    response = client.post(
        url("review_decide", processed),
        {"ids": [novak[0].pk], "decision": "reject", "same_cluster": True},
        content_type="application/json",
    )
    assert response.status_code == 200
    assert set(response.json()["changed"]) == {p.pk for p in novak}
    assert all(not p.will_redact for p in Proposal.objects.filter(pk__in=[p.pk for p in novak]))
    assert Decision.objects.filter(kind="reject", user=reviewer).count() == len(novak)


def test_full_review_publishes_a_verified_pdf(processed, reviewer):
    client = logged_in(reviewer)
    ids = list(Proposal.objects.filter(contract=processed, suggestion="redact").values_list("pk", flat=True))
    assert (
        client.post(
            url("review_decide", processed), {"ids": ids, "decision": "accept"}, content_type="application/json"
        ).status_code
        == 200
    )
    # a manual box over the contract number, which no recognizer proposes
    with processed.original.open("rb") as fh, pymupdf.open(stream=fh.read(), filetype="pdf") as doc:
        r = doc[0].search_for("2026/15")[0]
    response = client.post(
        url("review_manual", processed),
        {"boxes": [[1, r.x0 - 1, r.y0 - 1, r.x1 + 1, r.y1 + 1]]},
        content_type="application/json",
    )
    assert response.status_code == 200
    manual = Proposal.objects.get(contract=processed, source=Source.MANUAL_BOX)
    assert manual.decision == DecisionState.ACCEPTED
    response = client.post(url("approve", processed))
    assert response.status_code == 302
    processed.refresh_from_db()
    assert processed.status == Status.APPROVED and processed.approved_by == reviewer
    run_latest_job(processed)
    assert processed.status == Status.PUBLISHED, processed.error_message
    assert processed.verification["ok"] is True
    assert 0 < processed.page_coverage["1"] < 0.05
    download = client.get(url("download", processed))
    assert download.status_code == 200
    assert download["Content-Disposition"].startswith('attachment; filename="kupni-smlouva-202615-anonymizovano.pdf"')
    text = text_of(b"".join(download.streaming_content))
    for secret in ("750403/1238", "2000145399", "Novák", "Lipová", "2026/15"):
        assert secret not in text
    assert "Obec Horní Lhota" in text and "120 000 Kč" in text
    # the published text beside the PDF: the same kept words, nothing the boxes hide (the manual
    # box over the contract number has no span of its own: its characters go by their boxes)
    companion = client.get(url("download_text", processed))
    assert companion.status_code == 200 and companion["Content-Type"] == "text/plain; charset=utf-8"
    assert companion["Content-Disposition"].startswith('attachment; filename="kupni-smlouva-202615-anonymizovano.txt"')
    published = b"".join(companion.streaming_content).decode("utf-8")
    for secret in ("750403/1238", "2000145399", "Novák", "Lipová", "2026/15"):
        assert secret not in published
    assert "Obec Horní Lhota" in published and "120 000 Kč" in published and "[…]" in published
    with processed.original.open("rb") as fh:  # the original is untouched
        assert hashlib.sha256(fh.read()).hexdigest() == processed.original_sha256
    page = client.get(url("detail", processed))
    assert b'id="coverage"' in page.content and b'id="download"' in page.content
    assert url("download_text", processed).encode() in page.content
    assert b'id="pages-as-pictures"' not in page.content  # every page kept its own text layer
    actions = list(AuditEvent.objects.filter(contract=processed).values_list("action", flat=True))
    assert actions[:2] == ["uploaded", "processed"] and "manual_box" in actions
    assert actions[-2:] == ["downloaded_redacted", "downloaded_text"]


def test_pages_published_as_pictures_are_named_on_the_contract_page(processed, reviewer):
    """Issue 29: the reviewer reads, in the interface's language, which pages were published as
    pictures (their text could not be verified as analysed), never the verifier's own words."""
    processed.status, processed.published_at = Status.PUBLISHED, processed.created_at
    processed.verification = {
        "ok": True,
        "problems": [],
        "checks": {"extractors": ["pdfium", "poppler"], "pages_as_pictures": {"2": ["page 2: poppler reads text"]}},
    }
    processed.save(update_fields=["status", "published_at", "verification"])
    assert processed.pages_as_pictures == [2]
    page = logged_in(reviewer).get(url("detail", processed), HTTP_ACCEPT_LANGUAGE="cs")
    notice = page.content.decode()
    assert 'id="pages-as-pictures"' in notice and "Strany zveřejněné jako obraz: 2." in notice
    assert "poppler reads" not in notice


def test_approval_waits_for_undecided_proposals(processed, reviewer):
    Proposal.objects.filter(contract=processed).update(suggestion=Suggestion.REVIEW)
    with pytest.raises(ValidationError) as refused:
        publishing.contract_approve(contract=processed, user=reviewer)
    assert refused.value.code == "undecided"
    processed.refresh_from_db()
    assert processed.status == Status.NEEDS_REVIEW


def test_pages_without_text_need_a_confirmation(processed, reviewer):
    processed.pages = [{**processed.pages[0], "needs_ocr": True}]
    processed.save(update_fields=["pages"])
    with pytest.raises(ValidationError) as refused:
        publishing.contract_approve(contract=processed, user=reviewer)
    assert refused.value.code == "ocr_unchecked"
    publishing.contract_approve(contract=processed, user=reviewer, ocr_pages_checked=True)
    processed.refresh_from_db()
    assert processed.status == Status.APPROVED and processed.ocr_confirmed_by == reviewer


def test_verification_failure_blocks_publication_and_names_the_leak(processed, reviewer):
    # a proposal whose box misses its text: burn-in covers the wrong place, verification must refuse
    Proposal.objects.filter(contract=processed).update(decision=DecisionState.REJECTED)
    novak = Proposal.objects.filter(contract=processed, text__contains="Novák").first()
    Proposal.objects.filter(pk=novak.pk).update(decision=DecisionState.ACCEPTED, boxes=[[1, 500, 800, 520, 810]])
    publishing.contract_approve(contract=processed, user=reviewer)
    run_latest_job(processed)
    assert processed.status == Status.NEEDS_REVIEW
    assert processed.verification["ok"] is False
    # the reviewer is pointed to the proposal (page and category); the value itself is written
    # nowhere: not in the message, the stored report, the run or the audit trail (issue 16)
    with translation.override("cs"):
        place = translation.gettext("page %(page)d: %(category)s") % {
            "page": novak.page,
            "category": novak.category_name,
        }
    assert place in processed.error_message
    run = Run.objects.filter(contract=processed).order_by("-id").first()
    stored = [processed.error_message, json.dumps(processed.verification), run.error]
    stored += [json.dumps(e.detail) for e in AuditEvent.objects.filter(contract=processed)]
    assert not any("Novák" in text or "Novak" in text for text in stored)
    assert not processed.redacted
    assert Run.objects.filter(contract=processed).order_by("-id").first().state == Run.State.FAILED


def test_corrupted_original_fails_visibly_and_retry_works(uploaded, clerk, contract_pdf):
    # the stored file no longer matches what was uploaded (storage damage): processing must fail, not hang
    with open(uploaded.original.path, "wb") as fh:
        fh.write(b"%PDF-1.7\n" + b"\x00garbage" * 50)
    from contracts.jobs import process_contract

    process_contract(Run.objects.get(contract=uploaded).pk)
    uploaded.refresh_from_db()
    assert uploaded.status == Status.FAILED
    assert "damaged" in uploaded.error_message or "poškozen" in uploaded.error_message
    page = logged_in(clerk).get(url("detail", uploaded))
    assert b"Retry" in page.content or b"Zkusit znovu" in page.content
    with open(uploaded.original.path, "wb") as fh:  # restored from backup
        fh.write(contract_pdf)
    response = logged_in(clerk).post(url("retry", uploaded))
    assert response.status_code == 302
    run_latest_job(uploaded)
    assert uploaded.status == Status.NEEDS_REVIEW and uploaded.error_message == ""


def test_stale_running_job_is_failed_and_can_be_retried(uploaded, clerk, settings):
    settings.REDACTOR_JOB_STALE_SECONDS = 0
    run = Run.objects.get(contract=uploaded)
    Run.objects.filter(pk=run.pk).update(state=Run.State.RUNNING)  # a worker took it and was killed
    logged_in(clerk).get(url("detail", uploaded))  # pages only read: the cron job fails the run
    assert Run.objects.get(pk=run.pk).state == Run.State.RUNNING
    assert jobs.fail_stale_runs() == 1
    uploaded.refresh_from_db()
    assert uploaded.status == Status.FAILED
    runs.contract_retry(contract=uploaded, user=clerk)
    run_latest_job(uploaded)
    assert uploaded.status == Status.NEEDS_REVIEW


def test_manual_text_selection_is_verified_like_a_detection(processed, reviewer):
    Proposal.objects.filter(contract=processed).update(decision=DecisionState.ACCEPTED)
    with processed.original.open("rb") as fh, pymupdf.open(stream=fh.read(), filetype="pdf") as doc:
        words = [w for w in doc[0].get_text("words") if w[4] in ("předmět", "koupě")]
    boxes = [Box(1, *w[:4]) for w in words]
    reviewing.proposal_add_manual(
        contract=processed, user=reviewer, boxes=boxes, text="předmět koupě", from_selection=True
    )
    publishing.contract_approve(contract=processed, user=reviewer)
    run_latest_job(processed)
    assert processed.status == Status.PUBLISHED
    with processed.redacted.open("rb") as fh:
        assert "předmět koupě" not in text_of(fh.read())


def test_reviewer_deletes_a_contracts_data_from_its_page(
    processed, reviewer, clerk, django_capture_on_commit_callbacks
):
    import os

    detail = f"/a/{processed.agency_id}/contracts/{processed.pk}/"
    assert b'id="delete"' in logged_in(reviewer).get(detail).content
    assert b'id="delete"' not in logged_in(clerk).get(detail).content
    path = processed.original.path
    with django_capture_on_commit_callbacks(execute=True):
        response = logged_in(reviewer).post(detail + "delete/")
    assert response.status_code == 302 and response.url == f"/a/{processed.agency_id}/contracts/"
    assert Contract.objects.get(pk=processed.pk).status == "deleted" and not os.path.exists(path)
    assert not Proposal.objects.filter(contract=processed).exists()
    assert AuditEvent.objects.filter(contract=processed, action="deleted").exists()
    assert logged_in(reviewer).get(detail).status_code == 404


@pytest.mark.parametrize(
    "body",
    [json.dumps({"ids": [10**30], "decision": "accept"}), "[" * 100_000 + "]" * 100_000],
    ids=["an id past any database key", "100,000 nested arrays"],
)
def test_the_review_page_refuses_impossible_requests_with_a_sentence(processed, reviewer, body):
    response = logged_in(reviewer).post(url("review_decide", processed), body, content_type="application/json")
    assert response.status_code == 400 and response.json()["message"], response.content
