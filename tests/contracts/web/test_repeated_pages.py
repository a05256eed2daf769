"""Repeated pages: an annex attached twice is recognised as a repeat of its first copy, and the
decisions taken there are applied to the repeat's open items with one click (Chromium)."""

from __future__ import annotations

import os
import re

import pymupdf
import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from accounts.management.commands.demo import DEMO_AGENCY
from accounts.models import Agency, Membership, Role
from tests.factories import AgencyFactory
from tests.plugins.browser import log_in

ANNEX = [
    "Příloha č. 1 – Ceník servisních prací a kontaktní osoby dodavatele pro rok 2026",
    "Servisní technik pro lokalitu Horní Lhota: Ing. Petr Novák, tel. 777 123 456, v pracovní dny od 7 do 15 hodin.",
    "Hodinová sazba technika činí 650 Kč bez DPH, výjezd do 30 km 400 Kč bez DPH, nad 30 km 12 Kč za km.",
    "Náhradní díly se účtují podle platného ceníku výrobce se slevou 5 procent z katalogové ceny.",
    "Reklamace se uplatňují písemně na adrese sídla dodavatele nebo elektronicky na podatelnu dodavatele.",
]


FIRST_PAGE = [
    "Smlouva o servisu č. 2026/31",
    "Objednatel: Obec Horní Lhota, IČO: 00000001, se sídlem Náměstí 1, 679 01 Horní Lhota",
    "Dodavatel: Servis Lhota s.r.o., IČO: 27074358, se sídlem Polní 5, 679 01 Horní Lhota",
    "Cena služeb je uvedena v příloze č. 1, která je připojena dvakrát pro každou smluvní stranu.",
]
#: A later contract's own first page: another subject, the same annex after it.
LATER_PAGE = [
    "Dodatek č. 1 ke smlouvě o servisu veřejného osvětlení a dopravního značení na rok 2027",
    "Smluvní strany se dohodly na rozšíření předmětu plnění o údržbu světelné signalizace u školy.",
    "Termín plnění se prodlužuje do konce kalendářního roku, ostatní ujednání zůstávají beze změny.",
    "Dodatek nabývá účinnosti dnem uveřejnění v registru smluv podle zákona č. 340/2015 Sb.",
]


def _contract_with_a_repeated_annex(first_page: list[str] = FIRST_PAGE) -> bytes:
    from tests.pdfs import pdf_from_paragraphs

    doc = pymupdf.open(stream=pdf_from_paragraphs(first_page), filetype="pdf")
    for _ in range(2):
        doc.insert_pdf(pymupdf.open(stream=pdf_from_paragraphs(ANNEX), filetype="pdf"))
    return doc.tobytes()


def test_the_second_copy_of_an_annex_repeats_the_first(engine):
    from redactor.read.review import repeated_pages

    analysis = engine.analyze(_contract_with_a_repeated_annex())
    assert len(analysis.pages) == 3
    assert repeated_pages(analysis.text_layer) == {3: 2}


def _demo_reviewer(live_server):
    """The demo agency (``manage.py demo``) and its reviewer."""
    call_command("demo", url=live_server.url, stdout=open(os.devnull, "w"))
    agency = Agency.objects.get(ico=DEMO_AGENCY["ico"])
    return agency, Membership.objects.get(agency=agency, role=Role.REVIEWER).user


@pytest.mark.browser
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_repeated_page_is_decided_as_its_first_copy_in_the_browser(live_server, browser_page):
    from contracts.models import Proposal
    from contracts.services import uploads
    from tests.plugins.tenants import run_latest_job

    agency, reviewer = _demo_reviewer(live_server)
    contract = uploads.contract_upload(agency=agency, user=reviewer, data=_contract_with_a_repeated_annex(),
                                       filename="servis.pdf", title="Smlouva o servisu")  # fmt: skip
    run_latest_job(contract)
    items = {p.page: p for p in Proposal.objects.filter(contract=contract, text="777 123 456")}
    assert set(items) == {2, 3}
    page = browser_page
    log_in(page, live_server, reviewer.username)
    page.goto(f"{live_server.url}/a/{agency.pk}/contracts/{contract.pk}/review/")
    assert "opakuje stranu" in page.inner_text("#page-3 figcaption")
    assert page.locator("#page-3 button.page-like").count() == 0  # nothing decided on page 2 yet
    page.click(f'.item[data-id="{items[2].pk}"]')  # a proposal's buttons show on the selected one
    with page.expect_response(lambda r: "/review/decide/" in r.url and r.ok):
        page.click(f'.item[data-id="{items[2].pk}"] button.reject-one')  # keep, only on page 2
    like = page.locator("#page-3 button.page-like")
    expect(like).to_have_text("Rozhodnout jako na straně 2 (1)")  # once the page has read the answer
    with page.expect_response(lambda r: "/review/decide/" in r.url and r.ok):
        like.click()
    items[3].refresh_from_db()
    assert items[3].decision == "rejected"


def _published_then_repeated(agency, reviewer):
    """An annexed contract decided (the technician's phone kept on both annex pages) and
    published, then a second contract with another first page and the same annex, processed."""
    from contracts.models import Proposal, Suggestion
    from contracts.services import publishing, reviewing, uploads
    from tests.plugins.tenants import run_latest_job

    first = uploads.contract_upload(agency=agency, user=reviewer, data=_contract_with_a_repeated_annex(),
                                    filename="servis.pdf", title="Smlouva o servisu 2026/31")  # fmt: skip
    run_latest_job(first)
    phones = list(Proposal.objects.filter(contract=first, text="777 123 456").values_list("pk", flat=True))
    others = Proposal.objects.filter(contract=first, suggestion=Suggestion.REVIEW).exclude(pk__in=phones)
    if others:
        reviewing.proposals_decide(contract=first, user=reviewer, proposal_ids=[p.pk for p in others],
                                   decision="accept", learn=False)  # fmt: skip
    reviewing.proposals_decide(contract=first, user=reviewer, proposal_ids=phones, decision="reject", learn=False)
    publishing.contract_approve(contract=first, user=reviewer, ocr_pages_checked=True)
    run_latest_job(first)
    first.refresh_from_db()
    assert first.status == "published", first.error_message
    second = uploads.contract_upload(
        agency=agency, user=reviewer, data=_contract_with_a_repeated_annex(LATER_PAGE),
        filename="servis-2027.pdf", title="Smlouva o servisu 2027/02",
    )  # fmt: skip
    run_latest_job(second)
    return first, second


def test_a_page_repeating_an_earlier_published_contracts_page_is_decided_as_there(agency, reviewer, admin_user):
    from rest_framework.test import APIClient

    from accounts.services import api_token_create
    from contracts import selectors
    from contracts.models import AuditEvent, Proposal
    from contracts.services import reviewing

    first, second = _published_then_repeated(agency, reviewer)
    repeats = selectors.contract_repeats_elsewhere(contract=second)
    assert {page: (e.contract_id, e.page) for page, e in repeats.items()} == {2: (first.pk, 2), 3: (first.pk, 2)}
    phone = Proposal.objects.get(contract=second, text="777 123 456", page=2)
    assert phone.decision == "pending"
    earlier, outcome = reviewing.proposals_decide_like_earlier(contract=second, user=reviewer, page=2)
    phone.refresh_from_db()
    assert earlier.contract_id == first.pk and phone.decision == "rejected" and phone.pk in outcome.changed
    event = AuditEvent.objects.get(contract=second, action="decided_like_earlier")
    assert event.detail["earlier_contract"] == first.pk and event.detail["page"] == 2
    # the API: the list of repeated pages, the same action on page 3, and page 1 repeats nothing
    _, raw = api_token_create(agency=agency, name="DMS", role="reviewer", created_by=admin_user)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    listed = api.get(f"/api/v1/contracts/{second.pk}/repeated-pages/").json()
    assert [(r["page"], r["repeats_page"], r["earlier"]["contract"]) for r in listed] == [
        (2, None, first.pk), (3, 2, first.pk)]  # fmt: skip
    done = api.post(f"/api/v1/contracts/{second.pk}/pages/3/decide-like-earlier/")
    assert done.status_code == 200 and done.json()["earlier"]["page"] == 2, done.content
    assert Proposal.objects.get(contract=second, text="777 123 456", page=3).decision == "rejected"
    refused = api.post(f"/api/v1/contracts/{second.pk}/pages/1/decide-like-earlier/")
    assert refused.status_code == 400 and refused.json()["extra"]["code"] == "no_repeat"


def test_a_contract_of_another_agency_is_never_compared(agency, reviewer):
    from contracts import selectors
    from contracts.models import Contract

    first, second = _published_then_repeated(agency, reviewer)
    Contract.objects.filter(pk=first.pk).update(agency=AgencyFactory(name="Jiný úřad"))
    assert selectors.contract_repeats_elsewhere(contract=second) == {}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_page_repeating_an_earlier_contract_is_decided_as_there_in_the_browser(live_server, browser_page):
    from contracts.models import Proposal

    agency, reviewer = _demo_reviewer(live_server)
    _first, second = _published_then_repeated(agency, reviewer)
    phone = Proposal.objects.get(contract=second, text="777 123 456", page=2)
    page = browser_page
    log_in(page, live_server, reviewer.username)
    page.goto(f"{live_server.url}/a/{agency.pk}/contracts/{second.pk}/review/")
    caption = page.inner_text("#page-2 figcaption")
    assert "opakuje stranu 2 dřívější smlouvy" in caption and "Smlouva o servisu 2026/31" in caption, caption
    like = page.locator("#page-2 button.page-like-earlier")
    assert like.inner_text().startswith("Rozhodnout jako tam (")
    with page.expect_response(lambda r: "/review/like-earlier/" in r.url and r.ok):
        like.click()
    phone.refresh_from_db()
    assert phone.decision == "rejected"
    # the page redraws once its script has read the answer: wait for that, not for the answer alone
    expect(page.locator("#last-count")).to_have_text(re.compile(r"^Rozhodnuto jako na straně dřívější smlouvy"))
    expect(page.locator("#page-2 button.page-like-earlier")).to_have_count(0)
