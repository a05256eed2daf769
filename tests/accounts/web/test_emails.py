"""The product's own e-mails in the interface's language: the invitation, the account an agency
admin created and the password reset name the agency (where there is one), link to the service's
configured address (``REDACTOR_PUBLIC_URL``) and carry none of Django's stock text ("you're
receiving this email because you requested a password reset", "Thanks for using our site")."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.urls import reverse

from tests.plugins.tenants import logged_in

pytestmark = pytest.mark.django_db

PUBLIC = "https://redakce.example.cz"
STOCK = ("password reset for your user account", "Thanks for using our site", "The testserver team", "testserver")


@pytest.fixture
def czech_admin(admin_user, settings):
    settings.REDACTOR_PUBLIC_URL = PUBLIC
    client = logged_in(admin_user)
    client.cookies["django_language"] = "cs"
    return client


def _members(agency) -> str:
    return reverse("accounts:members", kwargs={"agency_id": agency.pk})


def _clean(message) -> None:
    for line in STOCK:
        assert line not in message.body and line not in message.subject
    assert "\n" not in message.subject


def test_the_invitation_is_czech_names_the_agency_and_links_to_the_service(czech_admin, agency):
    czech_admin.post(
        _members(agency), {"form": "invite", "invite-email": "nova@example.invalid", "invite-role": "reviewer"}
    )
    (message,) = mail.outbox
    _clean(message)
    assert message.subject == f"Pozvánka – {agency.name} (Redactor)"
    assert "Kontrolor" in message.body and agency.name in message.body
    assert re.search(rf"^{re.escape(PUBLIC)}/accounts/invitation/\S+/$", message.body, re.M)


def test_a_created_account_is_told_so_not_that_it_asked_for_a_reset(czech_admin, agency):
    data = {"form": "create", "create-username": "nova", "create-email": "nova@example.invalid",
            "create-role": "clerk"}  # fmt: skip
    czech_admin.post(_members(agency), data)
    (message,) = mail.outbox
    _clean(message)
    assert message.subject == f"Váš účet – {agency.name} (Redactor)"
    assert "vytvořil(a)" in message.body and "nova" in message.body
    assert re.search(rf"^{re.escape(PUBLIC)}/accounts/reset/\S+/\S+/$", message.body, re.M)


def test_the_password_reset_mail_is_the_products(client, clerk, settings):
    settings.REDACTOR_PUBLIC_URL = PUBLIC
    client.cookies["django_language"] = "cs"
    response = client.post(reverse("password_reset"), {"email": clerk.email})
    assert response.status_code == 302
    (message,) = mail.outbox
    _clean(message)
    assert message.subject == "Nastavení nového hesla v Redactoru"
    assert clerk.get_username() in message.body and f"Redactor – {PUBLIC}" in message.body
    assert re.search(rf"^{re.escape(PUBLIC)}/accounts/reset/\S+/\S+/$", message.body, re.M)
