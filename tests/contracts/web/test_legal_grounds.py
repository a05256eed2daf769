"""The legal ground of every box (§ 3(1) Act 340/2015 Sb.): personal data for the engine's
proposals, the reviewer's choice for their own boxes, kept in the report, the audit trail and the
API."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from rest_framework.test import APIClient

from accounts.services import api_token_create
from contracts import selectors
from contracts.models import AuditEvent
from contracts.services import publishing, reviewing
from tests.contracts.web.test_four_eyes import _decided
from tests.plugins.tenants import run_latest_job

DESIGNATED = datetime.date(2026, 11, 2)


def test_a_manual_box_carries_its_legal_ground_to_the_report_the_audit_and_the_api(processed, reviewer, admin_user):
    """A reviewer's own box over a price the counterparty designated as a trade secret keeps that
    ground (and teaches no rule); the engine's proposals are personal data."""
    from policy.models import AgencyRule
    from redactor import Box

    with pytest.raises(ValidationError) as refused:  # a trade secret without who designated it and when
        reviewing.proposal_add_manual(contract=processed, user=reviewer, boxes=[Box(1, 70, 70, 200, 90)],
                                      legal_ground="trade_secret", claimant="AUTO KOVÁŘ s.r.o.")  # fmt: skip
    assert refused.value.code == "trade_secret_claim"
    outcome = reviewing.proposal_add_manual(
        contract=processed, user=reviewer, boxes=[Box(1, 70, 70, 200, 90)], text="120 000 Kč",
        from_selection=True, legal_ground="trade_secret", claimant=" AUTO KOVÁŘ  s.r.o.", claimed_on=DESIGNATED,
    )  # fmt: skip
    assert (outcome.proposal.trade_secret_claimant, outcome.proposal.trade_secret_claimed_on) == (
        "AUTO KOVÁŘ s.r.o.", DESIGNATED)  # fmt: skip
    assert outcome.proposal.legal_ground == "trade_secret" and not AgencyRule.objects.filter(agency=processed.agency)
    with pytest.raises(ValidationError):
        reviewing.proposal_add_manual(contract=processed, user=reviewer, boxes=[Box(1, 0, 0, 9, 9)], legal_ground="x")
    event = AuditEvent.objects.filter(contract=processed, action="manual_text").latest("pk")
    assert event.detail["legal_ground"] == "trade_secret"
    assert (event.detail["claimant"], event.detail["claimed_on"]) == ("AUTO KOVÁŘ s.r.o.", "2026-11-02")
    _, raw = api_token_create(agency=processed.agency, name="DMS", role="reviewer", created_by=admin_user)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    made = api.post(f"/api/v1/contracts/{processed.pk}/manual-redactions/",
                    {"boxes": [[1, 300, 300, 350, 320]], "legal_ground": "classified"}, format="json")  # fmt: skip
    assert made.status_code == 201, made.content
    assert made.json()["legal_ground"] == "classified" and made.json()["trade_secret_claimant"] == ""
    url = f"/api/v1/contracts/{processed.pk}/manual-redactions/"
    unclaimed = api.post(url, {"boxes": [[1, 300, 330, 350, 340]], "legal_ground": "trade_secret"}, format="json")
    assert unclaimed.status_code == 400 and unclaimed.json()["extra"]["code"] == "trade_secret_claim", unclaimed.content
    claimed = api.post(url,
                       {"boxes": [[1, 300, 330, 350, 340]], "legal_ground": "trade_secret",
                        "trade_secret_claimant": "AUTO KOVÁŘ s.r.o.", "trade_secret_claimed_on": "2026-11-02"},
                       format="json")  # fmt: skip
    assert claimed.status_code == 201 and claimed.json()["trade_secret_claimed_on"] == "2026-11-02", claimed.content
    _decided(processed, reviewer)
    publishing.contract_approve(contract=processed, user=reviewer)
    run_latest_job(processed)
    processed.refresh_from_db()
    report = selectors.contract_report(contract=processed)["redactions"]
    grounds = {p["proposal"]: p["legal_ground"] for p in report}
    claims = {p["proposal"]: (p["trade_secret_claimant"], p["trade_secret_claimed_on"]) for p in report}
    assert claims[outcome.proposal.pk] == ("AUTO KOVÁŘ s.r.o.", DESIGNATED) and claims[made.json()["id"]] == ("", None)
    assert grounds[outcome.proposal.pk] == "trade_secret" and grounds[made.json()["id"]] == "classified"
    manual = {
        outcome.proposal.pk,
        made.json()["id"],
        claimed.json()["id"],
        *outcome.added,
    }  # the selection's other occurrences too
    assert {grounds[pk] for pk in outcome.added} <= {"trade_secret"}
    assert {g for pk, g in grounds.items() if pk not in manual} == {"personal_data"}


def test_the_contract_page_says_which_other_grounds_it_has(processed, reviewer):
    from redactor import Box
    from tests.plugins.tenants import logged_in

    page = logged_in(reviewer).get(f"/a/{processed.agency_id}/contracts/{processed.pk}/").content.decode()
    assert 'id="other-grounds"' not in page  # only personal data so far
    reviewing.proposal_add_manual(contract=processed, user=reviewer, boxes=[Box(1, 70, 70, 200, 90)],
                                  legal_ground="trade_secret", claimant="AUTO KOVÁŘ s.r.o.",
                                  claimed_on=DESIGNATED)  # fmt: skip
    page = logged_in(reviewer).get(f"/a/{processed.agency_id}/contracts/{processed.pk}/").content.decode()
    section = page.split('id="other-grounds"')[1].split("</section>")[0]
    assert "Obchodní tajemství označené smluvní stranou" in section and ": 1." in section
    assert "AUTO KOVÁŘ s.r.o. (2. listopadu 2026)" in section


def _box_pixels(pdf: bytes, rect: tuple[float, float, float, float], inset: float = 4):
    """The box's pixels at 300 dpi, without the strips burn-in leaves at its top and bottom."""
    import numpy as np
    import pymupdf

    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    pix = page.get_pixmap(dpi=300, clip=pymupdf.Rect(rect) + (1.5, inset, -1.5, -inset), colorspace=pymupdf.csGRAY)
    return np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width)


def _published(contract) -> bytes:
    with contract.redacted.open("rb") as fh:
        return fh.read()


def test_an_agency_that_prints_grounds_gets_each_boxs_code_in_white_pixels_and_never_as_text(processed, reviewer):
    """The ground's short code is printed inside the box as a picture: a reader (OCR) sees it,
    no text extractor does, and a box too small for it stays plain black."""
    import pymupdf
    import pytesseract
    from PIL import Image

    from accounts.services import agency_update
    from redactor import Box

    agency = processed.agency
    agency_update(agency=agency, name=agency.name, ico=agency.ico, data_box_id=agency.data_box_id,
                  print_legal_grounds=True)  # fmt: skip
    wide, tiny = (70.0, 700.0, 170.0, 724.0), (300.0, 760.0, 306.0, 764.0)
    reviewing.proposal_add_manual(contract=processed, user=reviewer, boxes=[Box(1, *wide)], legal_ground="trade_secret",
                                  claimant="AUTO KOVÁŘ s.r.o.", claimed_on=DESIGNATED)  # fmt: skip
    reviewing.proposal_add_manual(contract=processed, user=reviewer, boxes=[Box(1, *tiny)], legal_ground="classified")
    _decided(processed, reviewer)
    publishing.contract_approve(contract=processed, user=reviewer)
    run_latest_job(processed)
    processed.refresh_from_db()
    assert processed.status == "published", processed.error_message
    labels = processed.verification["checks"]["labels"]  # the engine's boxes say "OÚ" too
    assert labels["too_small"] == 1 and labels["printed"] >= 2, labels
    pdf = _published(processed)
    pixels = _box_pixels(pdf, wide)
    assert (pixels > 200).sum() > 50 and (pixels < 50).mean() > 0.6  # white letters on black
    read = pytesseract.image_to_string(Image.fromarray(pixels), config="--psm 7").strip()
    assert "".join(c for c in read if c.isalpha()) == "OT", read  # the clip's edge may read as "|"
    assert _box_pixels(pdf, tiny, inset=1).max() < 60  # too small for a code: plain black
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    assert not any(code in page.get_text() for page in doc for code in ("OT", "UI", "OÚ"))
    assert not doc[0].get_text("words", clip=pymupdf.Rect(wide))


def test_without_the_setting_a_box_is_plain_black(processed, reviewer):
    from redactor import Box

    box = (70.0, 700.0, 170.0, 722.0)
    reviewing.proposal_add_manual(contract=processed, user=reviewer, boxes=[Box(1, *box)], legal_ground="trade_secret",
                                  claimant="AUTO KOVÁŘ s.r.o.", claimed_on=DESIGNATED)  # fmt: skip
    _decided(processed, reviewer)
    publishing.contract_approve(contract=processed, user=reviewer)
    run_latest_job(processed)
    processed.refresh_from_db()
    assert "labels" not in processed.verification["checks"]
    assert _box_pixels(_published(processed), box).max() < 60


def test_a_trade_secret_claim_keeps_only_plain_text_and_a_possible_day(processed, reviewer):
    from redactor import Box

    outcome = reviewing.proposal_add_manual(
        contract=processed, user=reviewer, boxes=[Box(1, 70, 70, 200, 90)], legal_ground="trade_secret",
        claimant="AUTO\u202e\x07 KOVÁŘ\u2066 s.r.o.\u2069", claimed_on=DESIGNATED,
    )  # fmt: skip
    assert outcome.proposal.trade_secret_claimant == "AUTO KOVÁŘ s.r.o."  # no control or direction overrides
    for day in (datetime.date(1, 1, 1), datetime.date(1991, 12, 31)):
        with pytest.raises(ValidationError) as refused:
            reviewing.proposal_add_manual(
                contract=processed, user=reviewer, boxes=[Box(1, 70, 100, 200, 120)], legal_ground="trade_secret",
                claimant="AUTO KOVÁŘ s.r.o.", claimed_on=day,
            )  # fmt: skip
        assert refused.value.code == "invalid" and "1992" in refused.value.messages[0]
