"""Forms a person submits outside the clerk's and reviewer's day, in Debian's Chromium: the
headers a real browser sends (Origin, Referer, as the page's Referrer-Policy shapes them) reach
Django's CSRF check, which the test client never exercises."""

from __future__ import annotations

import os
import re

import pytest
from django.core.management import call_command

from accounts import services
from accounts.management.commands.demo import DEMO_AGENCY
from accounts.models import Agency, Membership, Role

from .test_browser import browser_page  # noqa: F401 - the fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_an_invited_person_creates_an_account_and_joins_in_the_browser(live_server, browser_page):  # noqa: F811
    call_command("demo", url=live_server.url, stdout=open(os.devnull, "w"))
    agency = Agency.objects.get(ico=DEMO_AGENCY["ico"])
    admin = Membership.objects.get(agency=agency, role=Role.ADMIN).user
    email = "nova.kontrolorka@example.invalid"
    _, raw = services.invitation_create(agency=agency, email=email, role="reviewer", by=admin)
    page = browser_page
    posts = []
    page.on("request", lambda r: r.method == "POST" and posts.append(r.headers.get("origin")))
    page.goto(f"{live_server.url}/accounts/invitation/{raw}/")
    page.fill("input[name=username]", "nova.kontrolorka")
    page.fill("input[name=password1]", "Sedm-trpaslíku-2026")
    page.fill("input[name=password2]", "Sedm-trpaslíku-2026")
    page.click("button[type=submit].primary")
    page.wait_for_url(re.compile(rf"/a/{agency.pk}/contracts/$"))
    assert posts == [live_server.url]  # the browser named this site as the form's origin
    joined = Membership.objects.get(agency=agency, user__username="nova.kontrolorka")
    assert joined.role == Role.REVIEWER and joined.user.email == email
    assert agency.name in page.inner_text(".messages")
