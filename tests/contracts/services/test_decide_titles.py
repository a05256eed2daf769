"""A decision covers what the reviewer chose and its occurrences, never the name it stands next
to: keeping a natural person's title keeps the title, and a decision that would publish a name
nobody chose names the person and asks (at the web page, the API and in Chromium)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from playwright.sync_api import expect

from accounts.models import Role
from contracts.models import Proposal
from contracts.services import reviewing, uploads
from redactor import categories as cat
from tests.pdfs import pdf_from_paragraphs
from tests.plugins.browser import log_in
from tests.plugins.tenants import logged_in, run_latest_job
from tests.plugins.tokens import api, make_token

TEXT = [
    "Kupní smlouva č. 2026/16",
    "Prodávající: Ing. Ladislav Koubek, nar. 3. 4. 1975, bytem Lipová 12, 602 00 Brno, tel. 603 817 091",
    "Kupující: Obec Horní Lhota, IČO: 00000001, se sídlem Náměstí 1, 679 01 Horní Lhota",
    "Prodávající Ing. Koubek prohlašuje, že předmět koupě nemá právní vady.",
    "Kupní cena 120 000 Kč. Za prodávajícího Ladislav Koubek, za kupujícího starosta Petr Dvořák",
]


@pytest.fixture
def koubek(agency, clerk):
    contract = uploads.contract_upload(
        agency=agency, user=clerk, data=pdf_from_paragraphs(TEXT), filename="koubek.pdf", title="Kupní smlouva Koubek"
    )
    run_latest_job(contract)
    return contract


def _redacted(contract, **filters) -> list[bool]:
    return [p.will_redact for p in Proposal.objects.filter(contract=contract, **filters).order_by("pk")]


@pytest.mark.django_db
def test_keeping_a_title_keeps_the_title_not_the_name(koubek, reviewer):
    title = Proposal.objects.filter(contract=koubek, category=cat.ACADEMIC_TITLE).first()
    outcome = reviewing.proposals_decide(
        contract=koubek, user=reviewer, proposal_ids=[title.pk], decision="reject", same_cluster=True
    )
    titles = Proposal.objects.filter(contract=koubek, category=cat.ACADEMIC_TITLE)
    assert sorted(outcome.affected) == sorted(t.pk for t in titles) and outcome.forms == ["Ing."]
    assert _redacted(koubek, category=cat.ACADEMIC_TITLE) == [False, False]
    names = Proposal.objects.filter(contract=koubek, category__in=cat.NAME_CATEGORIES, cluster=title.cluster)
    assert names.count() == 3 and all(p.will_redact for p in names)  # "Ladislav Koubek" ×2, "Koubek"
    # nor does the phone kept everywhere keep the person's name or address
    phone = Proposal.objects.get(contract=koubek, text="603 817 091")
    reviewing.proposals_decide(
        contract=koubek, user=reviewer, proposal_ids=[phone.pk], decision="reject", same_cluster=True
    )
    assert all(p.will_redact for p in names.all()) and _redacted(koubek, text__startswith="Lipová") == [True]


@pytest.mark.django_db
def test_a_decision_that_would_publish_a_name_nobody_chose_asks_first(koubek, reviewer, admin_user, settings):
    settings.LANGUAGE_CODE = "en"
    # the same words read apart from the person (a possible personal datum, no person's cluster):
    # keeping them everywhere would publish the person's name as well, so the reviewer is asked
    _first, second = Proposal.objects.filter(contract=koubek, text="Ladislav Koubek").order_by("pk")
    Proposal.objects.filter(pk=second.pk).update(cluster="", category=cat.SUSPICIOUS, category_name="")
    surname = second
    with pytest.raises(ValidationError) as asked:
        reviewing.proposals_decide(
            contract=koubek, user=reviewer, proposal_ids=[surname.pk], decision="reject", same_cluster=True
        )
    assert asked.value.code == "confirm_names" and "Ladislav Koubek" in asked.value.messages[0]
    assert _redacted(koubek, text="Ladislav Koubek") == [True, True]  # nothing was decided
    # the API door: 409 naming the person, then the same request confirmed
    token = make_token(koubek.agency, Role.REVIEWER, created_by=admin_user)[1]
    url = reverse("api:decisions", kwargs={"contract_id": koubek.pk})
    body = {"decisions": [{"proposal": surname.pk, "decision": "reject", "same_cluster": True}]}
    refused = api(token).post(url, body, format="json")
    assert refused.status_code == 409 and refused.json()["extra"]["code"] == "confirm_names"
    assert "Ladislav Koubek" in refused.json()["message"]
    assert api(token).post(url, {**body, "confirm_names": True}, format="json").status_code == 200
    assert _redacted(koubek, text="Ladislav Koubek") == [False, False]
    # the web page's door answers with the code the page asks on
    reviewing.proposals_decide(
        contract=koubek, user=reviewer, proposal_ids=[surname.pk], decision="accept", same_cluster=True
    )
    decide = reverse("contracts:review_decide", kwargs={"agency_id": koubek.agency_id, "contract_id": koubek.pk})
    answer = logged_in(reviewer).post(
        decide, {"ids": [surname.pk], "decision": "reject", "same_cluster": True}, content_type="application/json"
    )
    assert answer.status_code == 400 and answer.json()["code"] == "confirm_names"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_keeping_a_title_in_the_browser_keeps_one_title_and_asks_before_a_name(live_server, browser_page):
    from django.core.management import call_command

    from accounts.models import Agency, Membership

    call_command("demo", url=live_server.url, stdout=open("/dev/null", "w"))
    demo = Agency.objects.get(ico="00000001")
    clerk = Membership.objects.get(agency=demo, user__username="urednik").user
    contract = uploads.contract_upload(
        agency=demo, user=clerk, data=pdf_from_paragraphs(TEXT), filename="koubek.pdf", title="Kupní smlouva Koubek"
    )
    run_latest_job(contract)
    title = Proposal.objects.filter(contract=contract, category=cat.ACADEMIC_TITLE).first()
    page = browser_page
    log_in(page, live_server, "kontrolor")
    page.goto(f"{live_server.url}/a/{demo.pk}/contracts/{contract.pk}/review/")
    item = page.locator(f'.item[data-id="{title.pk}"]')
    item.click()
    with page.expect_response(lambda r: "/review/decide/" in r.url and r.ok):
        item.locator("button.reject").click()
    expect(page.locator("#last-count")).to_contain_text("2 výskyty")  # the two "Ing.", nothing else
    assert _redacted(contract, category=cat.ACADEMIC_TITLE) == [False, False]
    assert _redacted(contract, category__in=cat.NAME_CATEGORIES, cluster=title.cluster) == [True, True, True]
    # the same words read apart from the person: keeping them everywhere would publish the name
    _first, surname = Proposal.objects.filter(contract=contract, text="Ladislav Koubek").order_by("pk")
    Proposal.objects.filter(pk=surname.pk).update(cluster="", category=cat.SUSPICIOUS, category_name="")
    page.reload()
    asked = []

    def answer(dialog):
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", answer)
    item = page.locator(f'.item[data-id="{surname.pk}"]')
    item.click()
    with page.expect_response(lambda r: "/review/decide/" in r.url and r.status == 400):
        item.locator("button.reject").click()
    for _ in range(100):  # Playwright hands the page's confirm() over while it runs
        if asked:
            break
        page.wait_for_timeout(50)
    assert "Ladislav Koubek" in asked[0] and "zveřejnil" in asked[0], asked
    assert _redacted(contract, text="Ladislav Koubek") == [True, True]  # dismissed: nothing decided
    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_response(lambda r: "/review/decide/" in r.url and r.ok):
        item.locator("button.reject").click()
    assert _redacted(contract, text="Ladislav Koubek") == [False, False]
