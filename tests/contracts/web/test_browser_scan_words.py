"""The review page on a scanned page: the words a reviewer selects are the ones OCR read at
processing, from the stored document (Chromium)."""

from __future__ import annotations

import os

import pymupdf
import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from accounts.models import Role
from contracts.models import Status
from tests.plugins.tenants import run_latest_job


@pytest.mark.browser
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_review_page_offers_ocrs_words_on_a_scanned_page(live_server, browser_page):
    """A scan without any text layer: the words a reviewer can select on its picture are the
    ones OCR read at processing, in their order (Chromium)."""
    from accounts.management.commands.demo import DEMO_AGENCY
    from accounts.models import Agency, Membership
    from contracts.services import uploads
    from tests.pdfs import pdf_from_paragraphs, scan_of
    from tests.plugins.browser import log_in
    from tests.plugins.tenants import CONTRACT_TEXT

    call_command("demo", url=live_server.url, stdout=open(os.devnull, "w"))
    agency = Agency.objects.get(ico=DEMO_AGENCY["ico"])
    reviewer = Membership.objects.get(agency=agency, role=Role.REVIEWER).user
    scan = scan_of(pdf_from_paragraphs(CONTRACT_TEXT))
    with pymupdf.open(stream=scan, filetype="pdf") as doc:
        assert doc[0].get_text("words") == []  # nothing but a picture
    contract = uploads.contract_upload(agency=agency, user=reviewer, data=scan, filename="sken.pdf", title="Sken")
    run_latest_job(contract)
    assert contract.status == Status.NEEDS_REVIEW and contract.pages[0]["ocr"]
    ocr = [w[0] for w in contract.ocr_pages["1"]["words"]]
    assert len(ocr) > 30

    page = browser_page
    log_in(page, live_server, reviewer.username)
    page.goto(f"{live_server.url}/a/{agency.pk}/contracts/{contract.pk}/review/")
    with page.expect_response(lambda r: "/pages/1/words.json" in r.url and r.ok):
        page.check("#mode-text")
    expect(page.locator("#page-1 .words span")).to_have_count(len(ocr))
    offered = [t.strip() for t in page.locator("#page-1 .words span").all_inner_texts()]
    assert offered == ocr
