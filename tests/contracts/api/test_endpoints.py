"""Every API endpoint: the happy path, another agency's token (404), revoked or expired tokens
(401), a role too weak (403) and malformed input (400), against the real services, engine,
PostgreSQL and Redis."""

from __future__ import annotations

import hashlib
import io
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import ApiToken, Role
from contracts.models import AuditEvent, Contract, DecisionState, Proposal, Run, Status
from policy.models import AgencyRule
from redactor.publish.verify import verify
from tests.plugins.tenants import run_latest_job
from tests.plugins.tokens import api, make_token

pytestmark = pytest.mark.django_db

CLERK, REVIEWER = Role.CLERK, Role.REVIEWER

# (method, path under /api/v1/contracts/<id>, weakest role allowed, a valid body)
CONTRACT_ENDPOINTS = [
    ("get", "/", CLERK, None),
    ("delete", "/", REVIEWER, None),
    ("get", "/proposals/", REVIEWER, None),
    ("post", "/decisions/", REVIEWER, {"decisions": [{"proposal": 1, "decision": "accept"}]}),
    ("post", "/manual-redactions/", REVIEWER, {"boxes": [[1, 10, 10, 50, 30]]}),
    ("post", "/decisions/00000000-0000-4000-8000-000000000000/undo/", REVIEWER, None),
    ("post", "/approve/", REVIEWER, {}),
    ("post", "/retry/", CLERK, {}),
    ("get", "/download/", CLERK, None),
    ("get", "/download/text/", CLERK, None),
    ("get", "/report/", CLERK, None),
    ("get", "/events/", CLERK, None),
]


def call(client, method, path, body=None):
    if body is None:
        return getattr(client, method)(path)
    return getattr(client, method)(path, body, format="json")


def assert_error(response, status, code=None):
    assert response.status_code == status, response.content[:500]
    body = response.json()
    assert set(body) == {"message", "extra"} and body["message"]
    if code is not None:
        assert body["extra"]["code"] == code
    return body


# -- authentication, tenancy and roles -------------------------------------------------------------
@pytest.mark.parametrize(("method", "path", "role", "body"), CONTRACT_ENDPOINTS)
def test_other_agencys_token_gets_404(uploaded, outsider_token, method, path, role, body):
    response = call(api(outsider_token), method, f"/api/v1/contracts/{uploaded.pk}{path}", body)
    assert_error(response, 404)
    uploaded.refresh_from_db()
    assert uploaded.status == Status.UPLOADED and uploaded.original


@pytest.mark.parametrize("which", ["revoked_token", "expired_token", None, "rdk_00000000_forged", "garbage"])
@pytest.mark.parametrize(("method", "path", "role", "body"), CONTRACT_ENDPOINTS[:3])
def test_bad_tokens_get_401(request, uploaded, which, method, path, role, body):
    raw = request.getfixturevalue(which) if which and which.endswith("_token") else which
    response = call(api(raw), method, f"/api/v1/contracts/{uploaded.pk}{path}", body)
    body = assert_error(response, 401)
    assert response["WWW-Authenticate"].startswith("Bearer")
    if which == "revoked_token":
        assert body["extra"]["code"] == "authentication_failed"


def test_revoked_and_expired_tokens_say_why(revoked_token, expired_token, settings):
    settings.LANGUAGE_CODE = "en"
    assert "revoked" in api(revoked_token).get("/api/v1/contracts/", HTTP_ACCEPT_LANGUAGE="en").json()["message"]
    assert "expired" in api(expired_token).get("/api/v1/contracts/", HTTP_ACCEPT_LANGUAGE="en").json()["message"]


@pytest.mark.parametrize(("method", "path", "role", "body"), [e for e in CONTRACT_ENDPOINTS if e[2] == REVIEWER])
def test_clerk_token_gets_403_on_reviewer_operations(uploaded, clerk_token, method, path, role, body):
    Contract.objects.filter(pk=uploaded.pk).update(status=Status.NEEDS_REVIEW)  # so only the role stands in the way
    response = call(api(clerk_token), method, f"/api/v1/contracts/{uploaded.pk}{path}", body)
    assert_error(response, 403, "permission_denied")
    uploaded.refresh_from_db()
    assert uploaded.status == Status.NEEDS_REVIEW and uploaded.original
    assert not Proposal.objects.filter(contract=uploaded).exists()


def test_token_is_stored_hashed_and_records_last_use(agency, admin_user):
    token, raw = make_token(agency, CLERK, created_by=admin_user)
    assert raw.startswith(f"rdk_{token.prefix}_") and len(raw) > 40
    assert token.key_sha256 == hashlib.sha256(raw.encode()).hexdigest()
    assert raw not in str(ApiToken.objects.filter(pk=token.pk).values().get())
    assert token.last_used_at is None
    assert api(raw).get("/api/v1/contracts/").status_code == 200
    token.refresh_from_db()
    assert token.last_used_at is not None
    assert not token.user.has_usable_password()


def test_a_token_with_the_right_prefix_but_wrong_secret_is_refused(agency, admin_user):
    _, raw = make_token(agency, Role.ADMIN, created_by=admin_user)
    assert_error(api(raw[:-4] + "AAAA").get("/api/v1/contracts/"), 401)


def test_throttling_per_token(settings, clerk_token, reviewer_token):
    settings.REDACTOR_API_RATE = "3/minute"
    client = api(clerk_token)
    assert [client.get("/api/v1/contracts/").status_code for _ in range(3)] == [200, 200, 200]
    response = client.get("/api/v1/contracts/")
    body = assert_error(response, 429, "throttled")
    assert int(response["Retry-After"]) > 0 and body["extra"]["retry_after"] > 0
    assert api(reviewer_token).get("/api/v1/contracts/").status_code == 200  # another token has its own budget


# -- upload ---------------------------------------------------------------------------------------
def upload(client, pdf, key=None, **fields):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    data = {"file": io.BytesIO(pdf), **fields}
    data["file"].name = "kupni-smlouva.pdf"
    return client.post("/api/v1/contracts/", data, format="multipart", **headers)


def test_upload_creates_a_contract_of_the_tokens_agency(agency, other_agency, clerk_token, contract_pdf):
    response = upload(
        api(clerk_token),
        contract_pdf,
        title="Kupní smlouva 15",
        counterparty="Jan Novák",
        value_amount="120000.00",
        date_concluded="2026-11-02",
        agency=other_agency.pk,  # ignored: the agency comes from the token
    )
    assert response.status_code == 201, response.content
    body = response.json()
    contract = Contract.objects.get(pk=body["id"])
    assert contract.agency == agency
    assert response["Location"] == f"/api/v1/contracts/{contract.pk}/"
    assert body["status"] == "uploaded" and body["progress"]["state"] == "queued"
    assert str(contract.value_amount) == "120000.00" and contract.date_concluded.isoformat() == "2026-11-02"
    assert contract.created_by.api_token.name == "DMS clerk"
    assert contract.original_sha256 == hashlib.sha256(contract_pdf).hexdigest()


@pytest.mark.parametrize(
    ("pdf", "fields", "status", "code"),
    [
        (b"not a pdf at all", {}, 400, "not_pdf"),
        (b"", {}, 400, "invalid"),
        (None, {"value_amount": "lots"}, 400, "invalid"),
        (None, {"date_concluded": "2026-13-45"}, 400, "invalid"),
        (None, {"value_currency": "korun"}, 400, "invalid"),
    ],
)
def test_malformed_uploads_get_400_and_create_nothing(clerk_token, contract_pdf, pdf, fields, status, code):
    body = assert_error(upload(api(clerk_token), contract_pdf if pdf is None else pdf, **fields), status, code)
    if code == "invalid":
        assert body["extra"]["fields"]
    assert not Contract.objects.exists() and not AuditEvent.objects.exists()


def test_upload_without_a_file_is_400(clerk_token):
    body = assert_error(api(clerk_token).post("/api/v1/contracts/", {"title": "x"}, format="multipart"), 400, "invalid")
    assert "file" in body["extra"]["fields"]


def test_oversized_upload_is_413(settings, clerk_token, contract_pdf):
    settings.REDACTOR_MAX_UPLOAD_BYTES = 1000
    assert_error(upload(api(clerk_token), contract_pdf), 413, "too_large")
    assert not Contract.objects.exists()


def test_idempotency_key_returns_the_first_contract(clerk_token, reviewer_token, contract_pdf, other_agency):
    first = upload(api(clerk_token), contract_pdf, key="dms-4711", title="A")
    again = upload(api(reviewer_token), contract_pdf, key="dms-4711", title="A")  # another token, same agency
    assert first.status_code == 201 and again.status_code == 200
    assert again["Idempotent-Replayed"] == "true" and again.json()["id"] == first.json()["id"]
    assert Contract.objects.count() == 1 and Run.objects.count() == 1
    assert upload(api(clerk_token), contract_pdf, key="dms-4712", title="A").status_code == 201
    assert Contract.objects.count() == 2


def test_idempotency_key_reused_for_another_upload_is_422(clerk_token, contract_pdf):
    assert upload(api(clerk_token), contract_pdf, key="dms-1", title="A").status_code == 201
    assert_error(upload(api(clerk_token), contract_pdf, key="dms-1", title="B"), 422, "idempotency_mismatch")
    assert Contract.objects.count() == 1


def test_an_idempotency_key_over_255_characters_is_refused_and_nothing_is_stored(clerk_token, contract_pdf):
    assert_error(upload(api(clerk_token), contract_pdf, key="k" * 256, title="A"), 400, "invalid")
    assert Contract.objects.count() == 0
    assert upload(api(clerk_token), contract_pdf, key="k" * 255, title="A").status_code == 201


def test_idempotency_keys_are_per_agency(clerk_token, outsider_token, contract_pdf):
    a = upload(api(clerk_token), contract_pdf, key="same", title="A").json()["id"]
    b = upload(api(outsider_token), contract_pdf, key="same", title="A").json()["id"]
    assert a != b and Contract.objects.get(pk=a).agency_id != Contract.objects.get(pk=b).agency_id


# -- list and detail ------------------------------------------------------------------------------
def test_list_filters_paginates_and_hides_other_agencies(
    agency, clerk, outsider, other_agency, clerk_token, contract_pdf
):
    from contracts.services import uploads

    for i in range(3):
        uploads.contract_upload(agency=agency, user=clerk, data=contract_pdf, filename=f"{i}.pdf", title=f"Smlouva {i}")
    uploads.contract_upload(agency=other_agency, user=outsider, data=contract_pdf, filename="x.pdf", title="Cizí")
    Contract.objects.filter(title="Smlouva 1").update(status=Status.PUBLISHED)
    client = api(clerk_token)
    page = client.get("/api/v1/contracts/?limit=2").json()
    assert page["count"] == 3 and len(page["results"]) == 2 and page["next"]
    assert [c["title"] for c in page["results"]] == ["Smlouva 2", "Smlouva 1"]
    assert [c["title"] for c in client.get("/api/v1/contracts/?status=published").json()["results"]] == ["Smlouva 1"]
    assert [c["title"] for c in client.get("/api/v1/contracts/?q=louva 0").json()["results"]] == ["Smlouva 0"]
    future = (timezone.now() + timedelta(days=1)).isoformat()
    assert client.get("/api/v1/contracts/", {"created_after": future}).json()["count"] == 0
    assert_error(client.get("/api/v1/contracts/?status=lost"), 400, "invalid")
    assert_error(client.get("/api/v1/contracts/?created_after=yesterday"), 400, "invalid")


def test_detail_shows_status_and_progress(processed, clerk_token):
    body = api(clerk_token).get(f"/api/v1/contracts/{processed.pk}/").json()
    assert body["status"] == "needs_review" and body["page_count"] == 1
    assert body["progress"] == {**body["progress"], "kind": "processing", "state": "succeeded", "percent": 100}


def test_a_contract_under_way_says_when_to_ask_again_and_a_waiting_one_does_not(
    settings, processed, clerk_token, contract_pdf
):
    settings.REDACTOR_API_POLL_SECONDS = 3
    client = api(clerk_token)
    created = upload(client, contract_pdf)
    assert created.status_code == 201 and created.json()["status"] == "uploaded"
    assert created["Retry-After"] == "3"
    queued = client.get(f"/api/v1/contracts/{created.json()['id']}/")
    assert queued["Retry-After"] == "3"
    waiting = client.get(f"/api/v1/contracts/{processed.pk}/")  # needs review: nothing under way
    assert waiting.json()["status"] == "needs_review" and "Retry-After" not in waiting
    settings.REDACTOR_API_POLL_SECONDS = 0  # never "ask again at once"
    assert client.get(f"/api/v1/contracts/{created.json()['id']}/")["Retry-After"] == "1"


def test_unknown_contract_is_404(clerk_token):
    assert_error(api(clerk_token).get("/api/v1/contracts/999999/"), 404, "not_found")


# -- proposals and decisions ----------------------------------------------------------------------
def test_proposals_carry_reasons(processed, reviewer_token):
    proposals = api(reviewer_token).get(f"/api/v1/contracts/{processed.pk}/proposals/").json()
    birth = next(p for p in proposals if p["text"] == "750403/1238")
    assert birth["suggestion"] == "redact" and birth["boxes"][0][0] == 1
    assert birth["decision"] == "pending" and birth["will_redact"] is True
    # structured, and a sentence in the client's language (Czech unless Accept-Language says otherwise)
    assert birth["reason_code"] == "primary"
    assert birth["reason_params"]["category"] == {
        "cs": "Rodné číslo / číslo pojištěnce",
        "en": "Birth number / insurance number",
    }
    assert birth["reason"] == "Znečitelnit: Rodné číslo / číslo pojištěnce – osobní údaj sám o sobě."
    english = api(reviewer_token).get(f"/api/v1/contracts/{processed.pk}/proposals/", HTTP_ACCEPT_LANGUAGE="en").json()
    birth_en = next(p for p in english if p["text"] == "750403/1238")
    assert birth_en["reason"] == "Redact: Birth number / insurance number – personal data on its own."
    # the category's name speaks the same language as the reason
    assert birth["category_name"] == "Rodné číslo / číslo pojištěnce"
    assert birth_en["category_name"] == "Birth number / insurance number"


def test_bulk_decisions_apply_to_every_occurrence(processed, reviewer_token):
    novak = Proposal.objects.filter(contract=processed, text__startswith="Jan Novák")
    assert novak.count() == 2
    birth = Proposal.objects.get(contract=processed, text="750403/1238")
    body = {
        "decisions": [
            {"proposal": novak.first().pk, "decision": "reject", "same_cluster": True},
            {"proposal": birth.pk, "decision": "accept"},
        ]
    }
    response = api(reviewer_token).post(f"/api/v1/contracts/{processed.pk}/decisions/", body, format="json")
    assert response.status_code == 200, response.content
    assert sorted(response.json()["changed"]) == sorted([*novak.values_list("pk", flat=True), birth.pk])
    assert set(novak.values_list("decision", flat=True)) == {DecisionState.REJECTED}
    birth.refresh_from_db()
    assert birth.decision == DecisionState.ACCEPTED and birth.decided_by.api_token.name == "DMS reviewer"
    data = response.json()
    assert sorted(data["affected"]) == sorted(data["changed"])
    # keeping the engine's "redact" taught a person rule; accepting its birth number taught nothing
    assert [r.pattern for r in AgencyRule.objects.filter(pk__in=data["rules"])] == ["Jan Novák"]

    # one request is one action: undo restores all of it and takes the vote back
    undo = api(reviewer_token).post(f"/api/v1/contracts/{processed.pk}/decisions/{data['batch']}/undo/")
    assert undo.status_code == 200, undo.content
    assert sorted(undo.json()["restored"]) == sorted(data["changed"])
    assert set(novak.values_list("decision", flat=True)) == {DecisionState.PENDING}
    assert not AgencyRule.objects.exists()
    again = api(reviewer_token).post(f"/api/v1/contracts/{processed.pk}/decisions/{data['batch']}/undo/")
    assert_error(again, 404, "not_found")


def test_decisions_without_learning_leave_the_rules_alone(processed, reviewer_token):
    novak = Proposal.objects.filter(contract=processed, text__startswith="Jan Novák").first()
    body = {"decisions": [{"proposal": novak.pk, "decision": "reject", "same_cluster": True}], "learn": False}
    response = api(reviewer_token).post(f"/api/v1/contracts/{processed.pk}/decisions/", body, format="json")
    assert response.status_code == 200 and response.json()["rules"] == []
    assert not AgencyRule.objects.exists()


def test_undo_of_a_later_changed_action_is_409(processed, reviewer_token, outsider_token):
    novak = Proposal.objects.filter(contract=processed, text__startswith="Jan Novák").first()
    url = f"/api/v1/contracts/{processed.pk}/decisions/"
    first = api(reviewer_token).post(url, {"decisions": [{"proposal": novak.pk, "decision": "reject"}]}, format="json")
    api(reviewer_token).post(url, {"decisions": [{"proposal": novak.pk, "decision": "accept"}]}, format="json")
    response = api(reviewer_token).post(f"{url}{first.json()['batch']}/undo/")
    assert_error(response, 409, "changed_since")
    assert_error(api(outsider_token).post(f"{url}{first.json()['batch']}/undo/"), 404, "not_found")


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"decisions": []},
        {"decisions": [{"proposal": 1, "decision": "maybe"}]},
        {"decisions": [{"proposal": "x", "decision": "accept"}]},
        {"decisions": "accept all"},
        {"decisions": [{"proposal": 10**30, "decision": "accept"}]},  # past any database key
    ],
)
def test_malformed_decisions_are_400(processed, reviewer_token, body):
    response = api(reviewer_token).post(f"/api/v1/contracts/{processed.pk}/decisions/", body, format="json")
    assert_error(response, 400, "invalid")


def test_decisions_on_another_contracts_proposals_are_400_and_change_nothing(
    processed, reviewer_token, agency, clerk, contract_pdf
):
    from contracts.services import uploads

    other = uploads.contract_upload(agency=agency, user=clerk, data=contract_pdf, filename="b.pdf")
    run_latest_job(other)
    mine = Proposal.objects.filter(contract=processed).first()
    foreign = Proposal.objects.filter(contract=other).first()
    body = {"decisions": [{"proposal": mine.pk, "decision": "reject"}, {"proposal": foreign.pk, "decision": "reject"}]}
    response = api(reviewer_token).post(f"/api/v1/contracts/{processed.pk}/decisions/", body, format="json")
    assert_error(response, 400, "unknown_proposals")  # the service names them; nothing is decided
    assert not Proposal.objects.exclude(decision=DecisionState.PENDING).exists()


def test_invalid_json_is_400(processed, reviewer_token):
    response = api(reviewer_token).post(
        f"/api/v1/contracts/{processed.pk}/decisions/", "{not json", content_type="application/json"
    )
    assert_error(response, 400, "parse_error")


def test_manual_redaction(processed, reviewer_token):
    url = f"/api/v1/contracts/{processed.pk}/manual-redactions/"
    response = api(reviewer_token).post(url, {"boxes": [[1, 100, 300, 200, 320]], "text": "podpis"}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["source"] == "manual_box" and response.json()["decision"] == "accepted"
    assert_error(api(reviewer_token).post(url, {"boxes": [[9, 1, 1, 50, 50]]}, format="json"), 400, "bad_box")
    assert_error(api(reviewer_token).post(url, {"boxes": [[1, 2, 3]]}, format="json"), 400, "invalid")


# -- approve, publish, download, report -----------------------------------------------------------
def test_approve_publish_download_and_report(processed, reviewer_token, clerk_token, admin_user):
    client = api(reviewer_token)
    url = f"/api/v1/contracts/{processed.pk}"
    assert_error(api(clerk_token).get(f"{url}/download/"), 409, "not_published")
    assert_error(api(clerk_token).get(f"{url}/download/text/"), 409, "not_published")
    assert_error(api(clerk_token).get(f"{url}/report/"), 409, "not_published")
    response = client.post(f"{url}/approve/", {}, format="json")
    assert response.status_code == 202 and response.json()["status"] == "approved"
    assert response.json()["progress"]["kind"] == "publishing" and int(response["Retry-After"]) >= 1
    assert_error(client.post(f"{url}/approve/", {}, format="json"), 409, "wrong_status")
    run_latest_job(processed)
    assert "Retry-After" not in api(clerk_token).get(f"{url}/")  # published: nothing left to wait for
    download = api(clerk_token).get(f"{url}/download/")
    assert download.status_code == 200 and download["Content-Type"] == "application/pdf"
    pdf = b"".join(download.streaming_content)
    assert pdf.startswith(b"%PDF") and b"750403" not in pdf
    assert verify(pdf, ["750403/1238", "Lipová 12"]).ok
    # the published text beside the PDF: plain UTF-8, the kept data in it, the redacted data not
    text = api(clerk_token).get(f"{url}/download/text/")
    assert text.status_code == 200 and text["Content-Type"] == "text/plain; charset=utf-8"
    assert text["Content-Disposition"].startswith("attachment") and ".txt" in text["Content-Disposition"]
    published = b"".join(text.streaming_content).decode("utf-8")
    assert "Obec Horní Lhota" in published and "[…]" in published
    assert "750403" not in published and "Lipová 12" not in published
    assert api(reviewer_token).get(url + "/").json()["links"]["download_text"] == f"{url}/download/text/"
    report = api(clerk_token).get(f"{url}/report/").json()
    assert report["status"] == "published" and report["verification"]["ok"] is True
    assert report["approved_by"] == f"api:DMS reviewer ({admin_user.username})"  # the person behind the token
    assert report["redacted_sha256"] == hashlib.sha256(pdf).hexdigest()
    births = next(c for c in report["by_category"] if c["category_name"].startswith("Birth number"))
    assert births["redacted"] == 1
    assert {r["decided"] for r in report["redactions"]} == {"suggestion"}
    assert report["pages"][0]["page"] == 1 and 0 < report["pages"][0]["blacked_out"] < 0.2
    actions = [e["action"] for e in api(clerk_token).get(f"{url}/events/").json()]
    assert actions[:3] == ["uploaded", "processed", "approved"]
    assert {"downloaded_redacted", "downloaded_text"} <= set(actions)


def test_approve_with_open_items_is_409(processed, reviewer_token):
    Proposal.objects.filter(contract=processed).update(suggestion="review")
    assert_error(
        api(reviewer_token).post(f"/api/v1/contracts/{processed.pk}/approve/", {}, format="json"), 409, "undecided"
    )


def test_malformed_approve_is_400(processed, reviewer_token):
    body = {"ocr_pages_checked": "perhaps"}
    assert_error(api(reviewer_token).post(f"/api/v1/contracts/{processed.pk}/approve/", body, format="json"), 400)


def test_retry(processed, clerk_token):
    url = f"/api/v1/contracts/{processed.pk}/retry/"
    assert_error(api(clerk_token).post(url), 409, "not_failed")
    Contract.objects.filter(pk=processed.pk).update(status=Status.FAILED)
    Run.objects.filter(contract=processed).update(state=Run.State.FAILED)
    response = api(clerk_token).post(url)
    assert response.status_code == 202 and response.json()["status"] == "processing"
    assert int(response["Retry-After"]) >= 1


# -- delete ---------------------------------------------------------------------------------------
def test_delete_removes_files_and_personal_data_and_keeps_the_audit_trail(
    processed, reviewer_token, django_capture_on_commit_callbacks
):
    url = f"/api/v1/contracts/{processed.pk}/manual-redactions/"
    box = {"boxes": [[1, 100, 300, 200, 320]], "text": "Jan Novák, podpis"}
    assert api(reviewer_token).post(url, box, format="json").status_code == 201
    path = processed.original.path
    with django_capture_on_commit_callbacks(execute=True):
        response = api(reviewer_token).delete(f"/api/v1/contracts/{processed.pk}/")
    assert response.status_code == 204
    import os

    assert not os.path.exists(path)
    row = Contract.objects.get(pk=processed.pk)
    assert row.status == Status.DELETED and not row.original and row.persons == []
    assert not Proposal.objects.filter(contract=processed).exists()
    trail = AuditEvent.objects.filter(contract=processed)
    assert [e.action for e in trail] == ["uploaded", "processed", "manual_box", "deleted"]
    assert "Novák" not in str([e.detail for e in trail]) and trail[2].detail["boxes"]
    assert_error(api(reviewer_token).get(f"/api/v1/contracts/{processed.pk}/"), 404)
    assert api(reviewer_token).get("/api/v1/contracts/").json()["count"] == 0


def test_delete_while_processing_is_409(uploaded, reviewer_token):
    assert_error(api(reviewer_token).delete(f"/api/v1/contracts/{uploaded.pk}/"), 409, "wrong_status")
    assert Contract.objects.get(pk=uploaded.pk).original


# -- schema and docs ------------------------------------------------------------------------------
def test_schema_and_docs_are_served_without_a_token(client):
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    doc = schema.json()
    assert doc["components"]["securitySchemes"]["apiToken"]["scheme"] == "bearer"
    assert "/api/v1/contracts/{contract_id}/decisions/" in doc["paths"]
    docs = client.get("/api/v1/docs/")
    assert docs.status_code == 200 and b"swagger-ui" in docs.content and b"cdn." not in docs.content


def test_schema_is_english_whatever_the_browser_asks(client):
    schema = client.get("/api/v1/schema/?format=json", HTTP_ACCEPT_LANGUAGE="cs").json()
    status = next(p for p in schema["paths"]["/api/v1/contracts/"]["get"]["parameters"] if p["name"] == "status")
    assert "Needs review" in status["description"] and "Čeká" not in status["description"]


def test_list_queries_do_not_grow_with_the_page(
    agency, clerk, clerk_token, contract_pdf, django_assert_max_num_queries
):
    from contracts.services import uploads

    for i in range(6):
        uploads.contract_upload(agency=agency, user=clerk, data=contract_pdf, filename=f"{i}.pdf")
    with django_assert_max_num_queries(8):
        page = api(clerk_token).get("/api/v1/contracts/").json()
    assert page["count"] == 6 and all(c["progress"]["state"] == "queued" for c in page["results"])


def test_a_body_nested_deeper_than_python_reads_is_400(processed, reviewer_token):
    deep = b"[" * 100_000 + b"]" * 100_000
    response = api(reviewer_token).post(
        f"/api/v1/contracts/{processed.pk}/decisions/", deep, content_type="application/json"
    )
    assert response.status_code == 400 and response.json()["extra"]["code"] == "parse_error", response.content
