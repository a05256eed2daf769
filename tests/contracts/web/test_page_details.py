"""Small things a person sees: a reviewer's own box is named in the reader's language, the
webhook page names every event, the browser's favicon request is answered, and the agency admin's
navigation keeps one line on a 1366-pixel laptop."""

from __future__ import annotations

import os

import pytest
from django.core.management import call_command
from django.urls import reverse

from contracts.models import WebhookEvent
from contracts.services import reviewing
from redactor.model import Box
from tests.plugins.browser import log_in
from tests.plugins.tenants import logged_in


@pytest.mark.django_db
def test_a_reviewers_own_box_is_named_in_the_readers_language(processed, reviewer, settings):
    settings.LANGUAGE_CODE = "cs"  # drawn in Czech ...
    reviewing.proposal_add_manual(
        contract=processed, user=reviewer, boxes=[Box(1, 400, 700, 500, 740)], propagate=False, learn=False
    )
    state = reverse("contracts:review_state", kwargs={"agency_id": processed.agency_id, "contract_id": processed.pk})
    client = logged_in(reviewer)
    english = client.get(state, HTTP_ACCEPT_LANGUAGE="en").json()["proposals"]  # ... read in English
    czech = client.get(state, HTTP_ACCEPT_LANGUAGE="cs").json()["proposals"]
    manual = [p["category_name"] for p in english if p["source"] == "manual_box"]
    assert manual == ["Manual redaction"]
    assert [p["category_name"] for p in czech if p["source"] == "manual_box"] == ["Ruční znečitelnění"]


@pytest.mark.django_db
def test_the_webhook_page_names_every_event(agency, admin_user):
    page = logged_in(admin_user).get(reverse("webhooks:list", kwargs={"agency_id": agency.pk})).content.decode()
    assert all(f"<code>{code}</code>" in page for code in WebhookEvent.values), page


@pytest.mark.django_db
def test_the_favicon_request_is_answered(client):
    answer = client.get("/favicon.ico", secure=True)
    assert answer.status_code == 301 and answer["Location"].endswith(".svg")
    assert client.get(answer["Location"], secure=True).status_code == 200


@pytest.mark.browser
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_admins_navigation_keeps_one_line_on_a_laptop(live_server, browser_page):
    call_command("demo", url=live_server.url, stdout=open(os.devnull, "w"))
    page = browser_page
    page.set_viewport_size({"width": 1366, "height": 768})
    log_in(page, live_server, "spravce")
    links = page.locator("header nav > a, header nav > details > summary")
    tops = {round(box["y"]) for box in (links.nth(i).bounding_box() for i in range(links.count()))}
    assert len(tops) == 1, tops  # every entry on one line
    assert page.locator("header.top").bounding_box()["height"] < 60
    page.click("#nav-admin summary")
    page.click("#nav-admin >> text=Webhooky")
    page.wait_for_url("**/webhooks/")
