"""The agency admin's paths in Debian's Chromium, in Czech: every screen of the console with a
screenshot (``screenshots/admin-*.png``) and no raw code or English word of the product, and the
forms an admin or a member submits (API token, agency settings, profile, a rule, a new member,
the password set from the product's e-mail, the password reset), each with the Origin header a
real browser sends, which the test client never does."""

from __future__ import annotations

import os
import re

import pytest
from django.core import mail
from django.core.management import call_command

from accounts.management.commands.demo import DEMO_AGENCY
from accounts.models import Agency, ApiToken, Membership, ProfileVersion, Role, SettingsChange
from contracts.services import uploads
from policy.models import AgencyRule
from tests.conftest import DATA
from tests.plugins.browser import SCREENSHOTS, log_in
from tests.plugins.tenants import run_latest_job

from .test_czech_tour import admin_screens, problems_in, visible_text

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def _demo(live_server):
    call_command("demo", url=live_server.url, stdout=open(os.devnull, "w"))
    agency = Agency.objects.get(ico=DEMO_AGENCY["ico"])
    return agency, Membership.objects.get(agency=agency, role=Role.ADMIN).user


def _origins(page) -> list[str | None]:
    """The Origin header of every POST the page sends from now on."""
    posts: list[str | None] = []
    page.on("request", lambda r: r.method == "POST" and posts.append(r.headers.get("origin")))
    return posts


def _submit(page, button: str) -> str:
    """Click ``button``, wait for the page the form leads to, return its messages' text."""
    with page.expect_navigation():
        page.click(button)
    assert "403" not in page.title()
    return page.inner_text(".messages") if page.locator(".messages").count() else ""


def _password_set(page, link: str, password: str) -> None:
    """Open a password link from the product's e-mail and set ``password`` through its form."""
    page.goto(link)
    page.fill("input[name=new_password1]", password)
    page.fill("input[name=new_password2]", password)
    with page.expect_navigation():
        page.click("button[type=submit]")


def test_the_admins_screens_in_chromium_in_czech_with_screenshots(live_server, browser_page):
    agency, admin = _demo(live_server)
    contract = uploads.contract_upload(agency=agency, user=admin, data=(DATA / "dev" / "dilo_firma_1.pdf").read_bytes(),
                                       filename="dilo_firma_1.pdf", title="Smlouva o dílo")  # fmt: skip
    run_latest_job(contract)
    screens = admin_screens(agency, admin)
    page = browser_page
    log_in(page, live_server, admin.username)
    SCREENSHOTS.mkdir(exist_ok=True)
    found = {}
    for number, (name, url) in enumerate(screens.items(), start=1):
        response = page.goto(f"{live_server.url}{url}")
        assert response is not None and response.status == 200, name
        page.wait_for_load_state("networkidle")
        found[name] = problems_in(visible_text(page.content()))  # the page as drawn, scripts included
        page.screenshot(path=str(SCREENSHOTS / f"admin-{number:02d}-{name.replace(' ', '-')}.png"), full_page=True)
    assert {name: words for name, words in found.items() if words} == {}
    assert len(list(SCREENSHOTS.glob("admin-*.png"))) >= len(screens)


def test_an_admin_submits_the_consoles_forms_in_chromium(live_server, browser_page):
    agency, admin = _demo(live_server)
    page = browser_page
    log_in(page, live_server, admin.username)
    posts = _origins(page)
    base = f"{live_server.url}/a/{agency.pk}"

    page.goto(f"{base}/api-tokens/")
    page.fill("input[name=name]", "Spisová služba – podatelna")
    _submit(page, "form.card button.primary")
    assert ApiToken.objects.filter(agency=agency, name="Spisová služba – podatelna").exists()
    assert "Spisová služba – podatelna" in page.inner_text("main")

    page.goto(f"{base}/settings/")
    before = agency.data_box_id
    page.fill("input[name=data_box_id]", "abc2def")
    _submit(page, "form.card button.primary")
    agency.refresh_from_db()
    assert agency.data_box_id == "abc2def"
    change = SettingsChange.objects.filter(agency=agency, area=SettingsChange.Area.AGENCY).latest("pk")
    assert change.fields == [
        {"field": "data_box_id", "before": before, "after": "abc2def"}
    ]  # the form's change is audited

    page.goto(f"{base}/profile/")
    page.fill("textarea[name=officials]", "Ing. Kristýna Matoušková; starostka")
    assert "Uloženo jako verze" in _submit(page, "#profile-form button.primary")
    officials = ProfileVersion.objects.filter(agency=agency).order_by("-number").first().data["officials"]
    assert officials == [{"name": "Ing. Kristýna Matoušková", "function": "starostka"}]

    page.goto(f"{base}/rules/new/")
    page.fill("#rule-form input[name=pattern]", "Technické služby Lhota")
    page.fill("#rule-form input[name=keep_votes]", "2")
    _submit(page, "#rule-form button.primary")
    rule = AgencyRule.objects.get(agency=agency, pattern="Technické služby Lhota")
    assert rule.action == "keep"
    _submit(page, "button.danger")  # delete it again from its page
    assert not AgencyRule.objects.filter(pk=rule.pk).exists()

    assert posts and set(posts) == {live_server.url}  # every form named this site as its origin


def test_a_member_created_by_the_admin_sets_a_password_from_the_email_and_later_resets_it(
    live_server,
    browser_page,
    settings,
):
    settings.REDACTOR_PUBLIC_URL = live_server.url  # the address the e-mails link to
    agency, admin = _demo(live_server)
    page = browser_page
    log_in(page, live_server, admin.username)
    posts = _origins(page)
    page.goto(f"{live_server.url}/a/{agency.pk}/members/")
    create = page.locator("form.card", has=page.locator("input[name=form][value=create]"))
    create.locator("input[name=create-username]").fill("nova.urednice")
    create.locator("input[name=create-email]").fill("nova.urednice@example.invalid")
    mail.outbox.clear()
    with page.expect_navigation():
        create.locator("button[type=submit]").click()
    assert Membership.objects.filter(agency=agency, user__username="nova.urednice", role=Role.CLERK).exists()
    [created] = mail.outbox
    assert agency.name in created.body
    link = re.search(r"https?://\S+/reset/\S+/", created.body).group()
    assert link.startswith(live_server.url)
    with page.expect_navigation():
        page.click("form[action$='/logout/'] button")

    # the link from the e-mail, as the new member opens it
    _password_set(page, link, "Jarni-tani-ledu-2026")
    log_in(page, live_server, "nova.urednice", "Jarni-tani-ledu-2026")
    with page.expect_navigation():
        page.click("form[action$='/logout/'] button")

    # forgotten later: the reset from the login page
    mail.outbox.clear()
    page.goto(f"{live_server.url}/")
    page.click("a[href$='/password_reset/']")
    page.fill("input[name=email]", "nova.urednice@example.invalid")
    with page.expect_navigation():
        page.click("button[type=submit]")
    [reset] = mail.outbox
    _password_set(page, re.search(r"https?://\S+/reset/\S+/", reset.body).group(), "Letni-bourka-2026")
    log_in(page, live_server, "nova.urednice", "Letni-bourka-2026")
    assert posts and set(posts) == {live_server.url}
