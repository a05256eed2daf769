"""The review page of a long scan on a laptop's screen and on a desktop's (Chromium): the proposal
list shows at least ten proposals beside the approval card, and a page a link jumps to keeps its
caption and its page-wide buttons visible under the sticky toolbar, and clickable. Screenshots of
both sizes go to ``screenshots/`` (not in the tree)."""

from __future__ import annotations

import os
import re
from collections import Counter

import pymupdf
import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from accounts.models import Role
from contracts.models import Proposal, Status
from tests.plugins.tenants import run_latest_job

SIZES = [(1366, 768), (1920, 1080)]

#: Proposals whose top and bottom are inside the list's visible part.
_ITEMS_SHOWN = """() => {
  const list = document.getElementById("proposal-list").getBoundingClientRect();
  return [...document.querySelectorAll("#proposal-list .item")].filter((item) => {
    const r = item.getBoundingClientRect();
    return r.height > 0 && r.top >= list.top && r.bottom <= list.bottom && r.bottom <= window.innerHeight;
  }).length;
}"""


def _longest_scan(shared_data):
    """The longest PDF of the real contracts without gold (a scanned inventory of 73 pages)."""
    pdfs = sorted((shared_data / "real" / "more").glob("*.pdf"))
    counts = {}
    for path in pdfs:
        with pymupdf.open(path) as doc:
            counts[path] = doc.page_count
    return max(counts, key=counts.get)


def _below_toolbar_and_visible(page, selector: str) -> bool:
    toolbar = page.locator("#toolbar").bounding_box()
    box = page.locator(selector).bounding_box()
    viewport = page.viewport_size
    return box is not None and box["y"] >= toolbar["y"] + toolbar["height"] - 1 and box["y"] < viewport["height"]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_long_scans_review_page_fits_a_laptop_and_a_desktop(live_server, browser_page, shared_data):
    from accounts.management.commands.demo import DEMO_AGENCY
    from accounts.models import Agency, Membership
    from contracts.services import uploads
    from tests.plugins.browser import SCREENSHOTS, log_in

    call_command("demo", url=live_server.url, stdout=open(os.devnull, "w"))
    agency = Agency.objects.get(ico=DEMO_AGENCY["ico"])
    reviewer = Membership.objects.get(agency=agency, role=Role.REVIEWER).user
    scan = _longest_scan(shared_data)
    contract = uploads.contract_upload(
        agency=agency, user=reviewer, data=scan.read_bytes(), filename=scan.name, title="Inventura"
    )
    run_latest_job(contract)
    assert contract.status == Status.NEEDS_REVIEW and len(contract.pages) > 50
    proposals = Proposal.objects.filter(contract=contract)
    assert proposals.count() >= 10
    # a page with two or more open review items has page-wide buttons ("redact the page's items"):
    # the last page with two proposals gets them open for review (the layout is under test here,
    # not what the engine proposes on this inventory)
    per_page = Counter(p.boxes[0][0] for p in proposals if p.boxes)
    far_page = max(n for n, count in per_page.items() if count >= 2)
    on_far_page = [p.pk for p in proposals if p.boxes and p.boxes[0][0] == far_page]
    Proposal.objects.filter(pk__in=on_far_page).update(suggestion="review", decision="pending")

    page = browser_page
    refused = []  # every request of the pages answers (the favicon included)
    page.on("response", lambda r: r.status >= 400 and refused.append(f"{r.status} {r.url}"))
    log_in(page, live_server, reviewer.username)
    SCREENSHOTS.mkdir(exist_ok=True)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{live_server.url}/a/{agency.pk}/contracts/{contract.pk}/review/")
        page.wait_for_selector("#proposal-list .item")
        toolbar = page.locator("#toolbar").bounding_box()
        assert toolbar["height"] <= 0.12 * height, f"the toolbar takes {toolbar['height']} px of {height}"
        page.screenshot(path=str(SCREENSHOTS / f"review-long-scan-list-{width}x{height}.png"))
        shown = page.evaluate(_ITEMS_SHOWN)
        assert shown >= 10, f"{width}×{height}: the proposal list shows {shown} proposals"
        assert page.locator("#approve").is_visible()

        # a link of the approval card (the last page named there) jumps below the toolbar
        link = page.locator("#approve-form a[href^='#page-']").last
        target = link.get_attribute("href")
        link.click()
        expect(page).to_have_url(re.compile(re.escape(target) + "$"))
        assert _below_toolbar_and_visible(page, f"{target} figcaption"), f"{width}×{height}: {target} hidden"

        # a page with an open review item: its caption and page-wide buttons are clickable after the jump
        page.evaluate(f"location.hash = '#page-{far_page}'")
        caption = f"#page-{far_page} figcaption"
        page.wait_for_selector(f"{caption} .page-actions button")
        assert _below_toolbar_and_visible(page, caption), f"{width}×{height}: page {far_page}'s caption hidden"
        page.locator(f"{caption} .page-actions button").first.click(trial=True, timeout=5_000)
        shot = SCREENSHOTS / f"review-long-scan-{width}x{height}.png"
        page.screenshot(path=str(shot))
        print("screenshot:", shot)
    assert refused == []
