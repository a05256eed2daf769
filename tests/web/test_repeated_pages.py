"""Repeated pages: an annex attached twice is recognised as a repeat of its first copy, and the
decisions taken there are applied to the repeat's open items with one click (Chromium)."""

from __future__ import annotations

import os

import pymupdf
import pytest
from django.core.management import call_command

from accounts.management.commands.demo import DEMO_AGENCY
from accounts.models import Agency, Membership, Role

from .test_browser import browser_page, log_in  # noqa: F401 - the fixture

ANNEX = [
    "Příloha č. 1 – Ceník servisních prací a kontaktní osoby dodavatele pro rok 2026",
    "Servisní technik pro lokalitu Horní Lhota: Ing. Petr Novák, tel. 777 123 456, v pracovní dny od 7 do 15 hodin.",
    "Hodinová sazba technika činí 650 Kč bez DPH, výjezd do 30 km 400 Kč bez DPH, nad 30 km 12 Kč za km.",
    "Náhradní díly se účtují podle platného ceníku výrobce se slevou 5 procent z katalogové ceny.",
    "Reklamace se uplatňují písemně na adrese sídla dodavatele nebo elektronicky na podatelnu dodavatele.",
]


def _contract_with_a_repeated_annex() -> bytes:
    from tests.pdfs import pdf_from_paragraphs

    doc = pymupdf.open(stream=pdf_from_paragraphs([
        "Smlouva o servisu č. 2026/31",
        "Objednatel: Obec Horní Lhota, IČO: 00000001, se sídlem Náměstí 1, 679 01 Horní Lhota",
        "Dodavatel: Servis Lhota s.r.o., IČO: 27074358, se sídlem Polní 5, 679 01 Horní Lhota",
        "Cena služeb je uvedena v příloze č. 1, která je připojena dvakrát pro každou smluvní stranu.",
    ]), filetype="pdf")  # fmt: skip
    for _ in range(2):
        doc.insert_pdf(pymupdf.open(stream=pdf_from_paragraphs(ANNEX), filetype="pdf"))
    return doc.tobytes()


def test_the_second_copy_of_an_annex_repeats_the_first(engine):
    from redactor import repeated_pages

    analysis = engine.analyze(_contract_with_a_repeated_annex())
    assert len(analysis.pages) == 3
    assert repeated_pages(analysis.text_layer) == {3: 2}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_repeated_page_is_decided_as_its_first_copy_in_the_browser(live_server, browser_page):  # noqa: F811
    from contracts.models import Proposal
    from contracts.services import uploads

    from .conftest import run_latest_job

    call_command("demo", url=live_server.url, stdout=open(os.devnull, "w"))
    agency = Agency.objects.get(ico=DEMO_AGENCY["ico"])
    reviewer = Membership.objects.get(agency=agency, role=Role.REVIEWER).user
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
    with page.expect_response(lambda r: "/review/decide/" in r.url and r.ok):
        page.click(f'.item[data-id="{items[2].pk}"] button.reject-one')  # keep, only on page 2
    like = page.locator("#page-3 button.page-like")
    assert like.inner_text() == "Rozhodnout jako na straně 2 (1)"
    with page.expect_response(lambda r: "/review/decide/" in r.url and r.ok):
        like.click()
    items[3].refresh_from_db()
    assert items[3].decision == "rejected"
