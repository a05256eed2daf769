"""Forms a person submits outside the clerk's and reviewer's day, in Debian's Chromium: the
headers a real browser sends (Origin, Referer, as the page's Referrer-Policy shapes them) reach
Django's CSRF check, which the test client never exercises."""

from __future__ import annotations

import os
import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from accounts import services
from accounts.management.commands.demo import DEMO_AGENCY
from accounts.models import Agency, Membership, Role
from tests.contracts.web.test_czech_tour import problems_in, visible_text
from tests.plugins.browser import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_an_invited_person_creates_an_account_and_joins_in_the_browser(live_server, browser_page):
    call_command("demo", url=live_server.url, stdout=open(os.devnull, "w"))
    agency = Agency.objects.get(ico=DEMO_AGENCY["ico"])
    admin = Membership.objects.get(agency=agency, role=Role.ADMIN).user
    email = "nova.kontrolorka@example.invalid"
    _, raw = services.invitation_create(agency=agency, email=email, role="reviewer", by=admin)
    page = browser_page
    posts = []
    page.on("request", lambda r: r.method == "POST" and posts.append(r.headers.get("origin")))
    page.goto(f"{live_server.url}/accounts/invitation/{raw}/")
    assert problems_in(visible_text(page.content())) == []  # the invitee's page speaks Czech too
    page.fill("input[name=username]", "nova.kontrolorka")
    page.fill("input[name=password1]", "Sedm-trpaslíku-2026")
    page.fill("input[name=password2]", "Sedm-trpaslíku-2026")
    page.click("button[type=submit].primary")
    page.wait_for_url(re.compile(rf"/a/{agency.pk}/contracts/$"))
    assert posts == [live_server.url]  # the browser named this site as the form's origin
    joined = Membership.objects.get(agency=agency, user__username="nova.kontrolorka")
    assert joined.role == Role.REVIEWER and joined.user.email == email
    assert agency.name in page.inner_text(".messages")


def _reviewer_with_two_open_items(live_server, page):
    """A contract whose buyer block names two unknown people (two open review items on page 1),
    and the demo reviewer logged in on its review page. Returns (agency, contract)."""
    from contracts.models import Proposal
    from contracts.services import uploads
    from tests.pdfs import pdf_from_paragraphs
    from tests.plugins.tenants import run_latest_job

    call_command("demo", url=live_server.url, stdout=open(os.devnull, "w"))
    agency = Agency.objects.get(ico=DEMO_AGENCY["ico"])
    reviewer = Membership.objects.get(agency=agency, role=Role.REVIEWER).user
    text = [
        "Kupní smlouva č. 2026/16",
        "Prodávající: Jan Novák, nar. 3. 4. 1975, bytem Lipová 12, 602 00 Brno",
        "Kupující: Obec Horní Lhota, IČO: 00000001, se sídlem Náměstí 1, 679 01 Horní Lhota, "
        "kontakt Xaver Qwertz, technik Yvo Wertzl",
        "Kupní cena 120 000 Kč.",
    ]
    contract = uploads.contract_upload(
        agency=agency, user=reviewer, data=pdf_from_paragraphs(text), filename="k.pdf", title="Kupní smlouva"
    )
    run_latest_job(contract)
    open_items = Proposal.objects.filter(contract=contract, suggestion="review", decision="pending")
    assert {p.text for p in open_items} == {"Xaver Qwertz", "Yvo Wertzl"}
    log_in(page, live_server, reviewer.username)
    page.goto(f"{live_server.url}/a/{agency.pk}/contracts/{contract.pk}/review/")
    return agency, contract


def test_a_reviewer_decides_a_groups_open_items_at_once_in_the_browser(live_server, browser_page):
    """Two unknown names in the buyer's block wait for review: one click on the group keeps both,
    as one action that can be undone, and teaches the agency nothing (no "everywhere" decision)."""
    from contracts.models import Proposal
    from policy.models import AgencyRule

    page = browser_page
    agency, contract = _reviewer_with_two_open_items(live_server, page)
    button = page.locator("button.group-reject")
    assert button.count() == 1 and button.inner_text().endswith("(2)")
    with page.expect_response(lambda r: "/review/decide/" in r.url and r.ok):
        button.click()
    assert set(Proposal.objects.filter(contract=contract, text__in=["Xaver Qwertz", "Yvo Wertzl"])
               .values_list("decision", flat=True)) == {"rejected"}  # fmt: skip
    assert not AgencyRule.objects.filter(agency=agency).exists()
    expect(page.locator("button.group-reject")).to_have_count(0)  # nothing left open in the group


def test_a_reviewer_decides_a_pages_open_items_at_once_and_undoes_it_in_the_browser(live_server, browser_page):
    """The page's caption offers its open review items at once: one click redacts both names on
    page 1 (nothing learned), the undo puts both back to review."""
    from contracts.models import Proposal
    from policy.models import AgencyRule

    page = browser_page
    agency, contract = _reviewer_with_two_open_items(live_server, page)
    button = page.locator("#page-1 button.page-accept")
    assert button.count() == 1 and button.inner_text() == "Znečitelnit nerozhodnuté na této straně (2)"
    with page.expect_response(lambda r: "/review/decide/" in r.url and r.ok):
        button.click()
    names = Proposal.objects.filter(contract=contract, text__in=["Xaver Qwertz", "Yvo Wertzl"])
    assert set(names.values_list("decision", flat=True)) == {"accepted"}
    assert not AgencyRule.objects.filter(agency=agency).exists()
    expect(page.locator("#last-count")).to_have_text("Začerněno: 2 výskyty")  # once the page has read the answer
    expect(page.locator("#page-1 button.page-accept")).to_have_count(0)
    with page.expect_response(lambda r: "/review/undo/" in r.url and r.ok):
        page.click("#undo-last")
    assert set(names.values_list("decision", flat=True)) == {"pending"}
    expect(page.locator("#page-1 button.page-accept")).to_have_count(1)


def test_a_second_reviewer_returns_and_then_approves_in_the_browser(live_server, browser_page):
    """Four eyes in Chromium: the agency admin (who decided nothing) sends the reviewer's approved
    contract back with a reason, then approves it after the reviewer approves again."""
    from accounts.services import agency_update
    from contracts.models import Contract, Status
    from contracts.services import publishing

    page = browser_page
    agency, contract = _reviewer_with_two_open_items(live_server, page)
    reviewer = Membership.objects.get(agency=agency, role=Role.REVIEWER).user
    admin = Membership.objects.get(agency=agency, role=Role.ADMIN).user
    agency_update(agency=agency, name=agency.name, ico=agency.ico, data_box_id=agency.data_box_id, user=admin,
                  second_approval=True)  # fmt: skip
    from contracts import selectors
    from contracts.services import reviewing

    open_ids = list(selectors.proposals_open(contract=contract).values_list("pk", flat=True))
    reviewing.proposals_decide(contract=contract, user=reviewer, proposal_ids=open_ids, decision="accept")
    assert publishing.contract_approve(contract=contract, user=reviewer) is None
    page.context.clear_cookies()
    log_in(page, live_server, admin.username)
    review = f"{live_server.url}/a/{agency.pk}/contracts/{contract.pk}/review/"
    page.goto(review)
    page.fill("#return-form input[name=reason]", "Zkontrolujte kontakt kupujícího.")
    with page.expect_navigation():
        page.click("#return")
    assert Contract.objects.get(pk=contract.pk).status == Status.NEEDS_REVIEW
    assert "Vráceno ke kontrole" in page.inner_text(".messages")
    publishing.contract_approve(contract=contract, user=reviewer)
    page.goto(review)
    with page.expect_navigation():
        page.click("#second-approve")
    approved = Contract.objects.get(pk=contract.pk)
    assert approved.status == Status.APPROVED and approved.approved_by == admin
