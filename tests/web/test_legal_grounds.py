"""The legal ground of every box (§ 3(1) Act 340/2015 Sb.): personal data for the engine's
proposals, the reviewer's choice for their own boxes, kept in the report, the audit trail and the
API."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from rest_framework.test import APIClient

from accounts.services import api_token_create
from contracts import selectors
from contracts.models import AuditEvent
from contracts.services import publishing, reviewing

from .conftest import run_latest_job
from .test_four_eyes import _decided


def test_a_manual_box_carries_its_legal_ground_to_the_report_the_audit_and_the_api(processed, reviewer, admin_user):
    """A reviewer's own box over a price the counterparty designated as a trade secret keeps that
    ground (and teaches no rule); the engine's proposals are personal data."""
    from policy.models import AgencyRule
    from redactor import Box

    outcome = reviewing.proposal_add_manual(
        contract=processed, user=reviewer, boxes=[Box(1, 70, 70, 200, 90)], text="120 000 Kč",
        from_selection=True, legal_ground="trade_secret",
    )  # fmt: skip
    assert outcome.proposal.legal_ground == "trade_secret" and not AgencyRule.objects.filter(agency=processed.agency)
    with pytest.raises(ValidationError):
        reviewing.proposal_add_manual(contract=processed, user=reviewer, boxes=[Box(1, 0, 0, 9, 9)], legal_ground="x")
    event = AuditEvent.objects.filter(contract=processed, action="manual_text").latest("pk")
    assert event.detail["legal_ground"] == "trade_secret"
    _, raw = api_token_create(agency=processed.agency, name="DMS", role="reviewer", created_by=admin_user)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    made = api.post(f"/api/v1/contracts/{processed.pk}/manual-redactions/",
                    {"boxes": [[1, 300, 300, 350, 320]], "legal_ground": "classified"}, format="json")  # fmt: skip
    assert made.status_code == 201, made.content
    assert made.json()["legal_ground"] == "classified"
    _decided(processed, reviewer)
    publishing.contract_approve(contract=processed, user=reviewer)
    run_latest_job(processed)
    processed.refresh_from_db()
    grounds = {p["proposal"]: p["legal_ground"] for p in selectors.contract_report(contract=processed)["redactions"]}
    assert grounds[outcome.proposal.pk] == "trade_secret" and grounds[made.json()["id"]] == "classified"
    manual = {outcome.proposal.pk, made.json()["id"], *outcome.added}  # the selection's other occurrences too
    assert {grounds[pk] for pk in outcome.added} <= {"trade_secret"}
    assert {g for pk, g in grounds.items() if pk not in manual} == {"personal_data"}


def test_the_contract_page_says_which_other_grounds_it_has(processed, reviewer):
    from redactor import Box

    from .conftest import logged_in

    page = logged_in(reviewer).get(f"/a/{processed.agency_id}/contracts/{processed.pk}/").content.decode()
    assert 'id="other-grounds"' not in page  # only personal data so far
    reviewing.proposal_add_manual(contract=processed, user=reviewer, boxes=[Box(1, 70, 70, 200, 90)],
                                  legal_ground="trade_secret")  # fmt: skip
    page = logged_in(reviewer).get(f"/a/{processed.agency_id}/contracts/{processed.pk}/").content.decode()
    section = page.split('id="other-grounds"')[1].split("</section>")[0]
    assert "Obchodní tajemství označené smluvní stranou" in section and ": 1." in section
