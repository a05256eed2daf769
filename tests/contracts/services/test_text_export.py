"""Text exports of a decided contract at both doors: the redactions of the published PDF, the
role and status rules of the service, the audit trail."""

from __future__ import annotations

import json

from django.contrib.messages import get_messages
from django.urls import reverse

from accounts.models import Role
from contracts.models import AuditEvent, Proposal, Status
from contracts.services import exports, publishing, reviewing, uploads
from redactor.model import Box
from tests.plugins.tenants import logged_in, run_latest_job
from tests.plugins.tokens import api, make_token


def _urls(contract):
    web = reverse("contracts:text_export", kwargs={"agency_id": contract.agency_id, "contract_id": contract.pk})
    return web, reverse("api:text_export", kwargs={"contract_id": contract.pk})


def test_a_contract_in_review_has_no_export_yet(processed, clerk, admin_user):
    web, rest = _urls(processed)
    response = logged_in(clerk).get(web, {"mode": "tagged"})
    assert response.status_code == 302
    assert [m.level_tag for m in get_messages(response.wsgi_request)] == ["error"]
    token = make_token(processed.agency, Role.CLERK, created_by=admin_user)[1]
    refused = api(token).get(rest, {"mode": "tagged"})
    assert refused.status_code == 409 and refused.json()["extra"]["code"] == "wrong_status"
    assert not AuditEvent.objects.filter(action="exported_text").exists()


def test_the_exports_follow_the_reviewers_decisions(processed, clerk, reviewer, admin_user):
    # the reviewer keeps the account (a decision against the engine): the export keeps it too
    account = Proposal.objects.get(contract=processed, text__contains="2000145399")
    reviewing.proposals_decide(
        contract=processed, user=reviewer, proposal_ids=[account.pk], decision="reject", learn=False
    )
    publishing.contract_approve(contract=processed, user=reviewer)
    run_latest_job(processed)
    assert processed.status == Status.PUBLISHED, processed.error_message
    web, rest = _urls(processed)

    tagged = logged_in(clerk).get(web, {"mode": "tagged", "format": "txt"})
    assert tagged.status_code == 200 and tagged["Content-Type"].startswith("text/plain")
    text = b"".join(tagged.streaming_content).decode("utf-8")
    assert "Prodávající: [JMÉNO_1], nar. [DATUM_NAROZENÍ_1], rodné číslo [RČ_1], bytem [ADRESA_1]" in " ".join(
        text.split()
    )
    assert "Prodávající [JMÉNO_1] prohlašuje" in " ".join(text.split())
    assert "750403/1238" not in text and "Novák" not in text and "Lipová" not in text
    # kept by the reviewer, kept in the export; the buyer and the price untouched
    assert "19-2000145399/0800" in text and "Obec Horní Lhota" in text and "120 000 Kč" in text

    token = make_token(processed.agency, Role.CLERK, created_by=admin_user)[1]
    lines = api(token).get(rest, {"mode": "removed", "format": "jsonl"})
    assert lines.status_code == 200 and lines["Content-Type"].startswith("application/x-ndjson")
    record = json.loads(b"".join(lines.streaming_content).decode("utf-8"))
    assert record["mode"] == "removed" and "Novák" not in record["text"]
    assert record["label"] and all(record["text"][s:e] == "[…]" for s, e, _label in record["label"])

    events = AuditEvent.objects.filter(contract=processed, action="exported_text").order_by("id")
    assert [e.detail for e in events] == [{"mode": "tagged", "format": "txt"}, {"mode": "removed", "format": "jsonl"}]
    assert events[0].user == clerk and events[1].user.username.startswith("api-")  # the token's user

    # pseudonyms: the agency's seed gives the same substitutes in every export of the agency
    first, second = (
        b"".join(api(token).get(rest, {"mode": "pseudonymised"}).streaming_content).decode("utf-8") for _ in range(2)
    )
    assert first == second and "Novák" not in first and "750403/1238" not in first
    assert "Obec Horní Lhota" in first and "19-2000145399/0800" in first  # kept stays

    bad = api(token).get(rest, {"mode": "anonymised"})
    assert bad.status_code == 400 and bad.json()["extra"]["code"] == "invalid"


def test_a_scanned_contract_is_exported_from_its_ocr_text(agency, clerk, reviewer, contract_pdf):
    """The export reads the OCR words stored at processing (never OCR again), like publishing."""
    from tests.pdfs import scan_of

    contract = uploads.contract_upload(agency=agency, user=clerk, data=scan_of(contract_pdf), filename="sken.pdf")
    run_latest_job(contract)
    assert contract.pages[0]["ocr"]
    publishing.contract_approve(contract=contract, user=reviewer)
    run_latest_job(contract)
    assert contract.status == Status.PUBLISHED, contract.error_message
    file = exports.contract_text_export(contract=contract, user=clerk, mode="tagged", fmt="txt")
    text = " ".join(file.data.decode("utf-8").split())
    assert "rodné číslo [RČ_1]" in text and "750403/1238" not in text and "Novák" not in text
    assert "Obec Horní Lhota" in text and "120 000 Kč" in text


def test_a_contract_with_boxes_over_no_text_exports(processed, clerk, reviewer, admin_user):
    # a signature (an empty span where it stands), a value the reader's check read in a picture
    # (no span) and a reviewer's box over an empty corner: they redact no character of the text
    name = Proposal.objects.filter(contract=processed, text__contains="Novák").first()
    box = [1, 400.0, 700.0, 500.0, 740.0]
    for fields in (
        {"source": "engine", "span_start": name.span_start, "span_end": name.span_start, "recognizer": "signature"},
        {"source": "reader_check", "span_start": None, "span_end": None, "recognizer": "reader_check"},
    ):
        Proposal.objects.create(
            agency=processed.agency,
            contract=processed,
            page=1,
            boxes=[box],
            text="podpis",
            category=name.category,
            category_name=name.category_name,
            category_type=name.category_type,
            suggestion="redact",
            decision="accepted",
            **fields,
        )
    reviewing.proposal_add_manual(contract=processed, user=reviewer, boxes=[Box(*box)], propagate=False, learn=False)
    publishing.contract_approve(contract=processed, user=reviewer)
    run_latest_job(processed)
    assert processed.status == Status.PUBLISHED, processed.error_message
    web, rest = _urls(processed)
    token = make_token(processed.agency, Role.CLERK, created_by=admin_user)[1]
    for mode in ("removed", "tagged", "pseudonymised"):
        answer = api(token).get(rest, {"mode": mode, "format": "jsonl"})
        assert answer.status_code == 200, answer.content
        assert "Novák" not in json.loads(b"".join(answer.streaming_content).decode("utf-8"))["text"]
    assert logged_in(clerk).get(web, {"mode": "tagged"}).status_code == 200


def test_an_export_that_cannot_be_built_says_why(published, clerk, admin_user, monkeypatch):
    def broken(*args, **kwargs):
        raise ValueError("a decided span lies outside the text")

    monkeypatch.setattr(exports.text_export, "export_layer", broken)
    web, rest = _urls(published)
    token = make_token(published.agency, Role.CLERK, created_by=admin_user)[1]
    answer = api(token).get(rest, {"mode": "tagged"}, HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 409 and answer.json()["extra"]["code"] == "export_failed"
    assert f"reference: contract {published.pk}" in answer.json()["message"]
    response = logged_in(clerk).get(web, {"mode": "tagged"})
    assert response.status_code == 302
    [message] = get_messages(response.wsgi_request)
    assert message.level_tag == "error" and published.title in str(message)
