"""The watchdog's score before and after publishing, where the reviewer and the agency see it:
the review page (planned, reloaded after each decision), the registry panel and the contract page
(as published), the agency's list (its share of redacted contracts)."""

from __future__ import annotations

import re

from django.urls import reverse

from contracts.models import Status
from contracts.services import publishing, reviewing
from redactor import Box
from tests.plugins.tenants import logged_in, run_latest_job


def _page(client, name, contract) -> str:
    return client.get(reverse(name, args=[contract.agency_id, contract.pk])).content.decode()


def test_a_heavily_redacted_page_is_named_before_approval_and_kept_after(processed, reviewer):
    client = logged_in(reviewer)
    page = _page(client, "contracts:review", processed)
    assert 'id="watchdog" data-pending' in page  # the page does not wait for it: its script asks
    before = re.search(r'id="watchdog-pages">(.*?)</span>', _page(client, "contracts:review_watchdog", processed), re.S)
    before = before.group(1)
    # a reviewer blacks out the lower half of page 1 by hand (below the text): the watchdog would
    # count the page heavily redacted, the text stays readable
    width, height = processed.pages[0]["width"], processed.pages[0]["height"]
    reviewing.proposal_add_manual(contract=processed, user=reviewer, boxes=[Box(1, 0, height / 2, width, height)])
    fragment = _page(client, "contracts:review_watchdog", processed)
    assert fragment.startswith('<div class="watchdog" id="watchdog">') and fragment != before
    assert re.search(r'href="#page-1" class="watchdog-heavy">str. 1</a> \(\d+ %, silně\)', fragment)
    publishing.contract_approve(contract=processed, user=reviewer)
    run_latest_job(processed)
    processed.refresh_from_db()
    assert processed.status == Status.PUBLISHED
    assert processed.watchdog["heavy"] == [1] and processed.watchdog["readable"] is True
    assert processed.watchdog["pages"]["1"] >= 0.2
    detail = _page(client, "contracts:detail", processed)
    assert "Jak zveřejněné soubory počítá hlídač registru" in detail  # the registry panel, before sending
    assert 'class="watchdog-heavy"' in detail
    listing = client.get(reverse("contracts:list", args=[processed.agency_id])).content.decode()
    summary = re.search(r'id="watchdog-summary">(.*?)</p>', listing, re.S).group(1)
    assert summary.startswith("Zveřejněné smlouvy: 1. ") and "1 jako silně začerněné" in summary


def test_a_file_left_with_almost_no_text_is_named_unreadable(processed, reviewer):
    width, height = processed.pages[0]["width"], processed.pages[0]["height"]
    reviewing.proposal_add_manual(contract=processed, user=reviewer, boxes=[Box(1, 0, 0, width, height)])
    fragment = _page(logged_in(reviewer), "contracts:review_watchdog", processed)
    assert 'id="watchdog-unreadable"' in fragment and "nečitelný" in fragment


def test_the_report_carries_the_score(published, reviewer):
    from contracts import selectors

    report = selectors.contract_report(contract=published)
    assert report["watchdog"] == {k: published.watchdog[k] for k in ("redacted", "heavy", "readable")}
    assert [p["watchdog_share"] for p in report["pages"]] == [published.watchdog["pages"]["1"]]
