"""Login lockout and password reset behind a reverse proxy (issue 16): the client address comes
from X-Forwarded-For for TRUSTED_PROXY_COUNT proxies, so one attacker behind the proxy's shared
address cannot lock out everybody; password-reset e-mails are limited per address and per e-mail."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client, RequestFactory
from django.urls import reverse

from accounts.access import client_ip
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db
PROXY = "10.0.0.2"  # every request reaches the service from the proxy


def test_the_client_address_is_the_one_the_trusted_proxy_saw(settings):
    request = RequestFactory().get("/", HTTP_X_FORWARDED_FOR="6.6.6.6, 93.184.216.34", REMOTE_ADDR=PROXY)
    settings.TRUSTED_PROXY_COUNT = 0
    assert client_ip(request) == PROXY
    settings.TRUSTED_PROXY_COUNT = 1
    assert client_ip(request) == "93.184.216.34"  # 6.6.6.6 was written by the client: not trusted
    settings.TRUSTED_PROXY_COUNT = 2
    assert client_ip(request) == "6.6.6.6"


def test_an_attacker_behind_the_proxy_locks_out_only_himself(clerk, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    url = reverse("login")
    attacker, colleague = Client(), Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        attacker.post(url, {"username": clerk.username, "password": "wrong"}, REMOTE_ADDR=PROXY,
                      HTTP_X_FORWARDED_FOR="198.51.100.7")  # fmt: skip
    locked = attacker.post(url, {"username": clerk.username, "password": PASSWORD}, REMOTE_ADDR=PROXY,
                           HTTP_X_FORWARDED_FOR="198.51.100.7")  # fmt: skip
    assert locked.status_code == 429
    response = colleague.post(url, {"username": clerk.username, "password": PASSWORD}, REMOTE_ADDR=PROXY,
                              HTTP_X_FORWARDED_FOR="203.0.113.20")  # fmt: skip
    assert response.status_code == 302 and "_auth_user_id" in colleague.session


def test_password_reset_is_limited_per_email_and_per_address(clerk, reviewer, settings, mailoutbox):
    cache.clear()
    settings.REDACTOR_PASSWORD_RESET_RATE_EMAIL = "2/h"
    settings.REDACTOR_PASSWORD_RESET_RATE_IP = "3/h"
    url = reverse("password_reset")

    def ask(email, address="192.0.2.1"):
        return Client().post(url, {"email": email}, REMOTE_ADDR=address)

    assert [ask(clerk.email).status_code for _ in range(3)] == [302, 302, 429]
    assert len(mailoutbox) == 2
    assert ask(clerk.email, address="192.0.2.99").status_code == 429  # per e-mail, from anywhere
    assert ask(reviewer.email).status_code == 429  # this address has asked 3 times
    assert ask(reviewer.email, address="192.0.2.50").status_code == 302
    assert ask("nobody@example.org", address="192.0.2.51").status_code == 302  # same answer as for a member
    assert len(mailoutbox) == 3


def test_password_spraying_from_one_address_is_refused(clerk, settings):
    """Issue 30: one address tries one password against 20 usernames; the (username, address)
    lockout never triggers, the count per address does, for every username, the right password
    included; another address is not affected."""
    cache.clear()
    settings.REDACTOR_LOGIN_FAILURES_PER_ADDRESS = 10
    url = reverse("login")
    answers = [
        Client().post(url, {"username": f"urednik{i}", "password": "Jaro2026!"}, REMOTE_ADDR="198.51.100.9").status_code
        for i in range(20)
    ]
    assert answers[:10] == [200] * 10 and answers[10:] == [429] * 10  # the form again, then refused
    refused = Client().post(url, {"username": clerk.username, "password": PASSWORD}, REMOTE_ADDR="198.51.100.9")
    assert refused.status_code == 429
    colleague = Client()
    response = colleague.post(url, {"username": clerk.username, "password": PASSWORD}, REMOTE_ADDR="203.0.113.20")
    assert response.status_code == 302 and "_auth_user_id" in colleague.session


def test_one_username_tried_from_many_addresses_is_refused(clerk, settings):
    """Issue 30: a botnet, 20 addresses with one attempt each against one username: refused from
    the 10th failure on (the default limit), from any address, until the window ends."""
    cache.clear()
    settings.REDACTOR_LOGIN_FAILURES_PER_USERNAME = 10  # the default
    url = reverse("login")
    answers = [
        Client().post(url, {"username": clerk.username, "password": f"heslo{i}"}, REMOTE_ADDR=f"192.0.2.{i + 1}")
        for i in range(20)
    ]
    limit = settings.REDACTOR_LOGIN_FAILURES_PER_USERNAME
    assert [a.status_code for a in answers] == [200] * limit + [429] * (20 - limit)
    assert "_auth_user_id" not in Client().session
    late = Client().post(url, {"username": clerk.username, "password": PASSWORD}, REMOTE_ADDR="203.0.113.77")
    assert late.status_code == 429  # until the window ends, even with the password
    cache.clear()  # the window ended
    owner = Client()
    response = owner.post(url, {"username": clerk.username, "password": PASSWORD}, REMOTE_ADDR="203.0.113.77")
    assert response.status_code == 302 and "_auth_user_id" in owner.session


def test_a_body_declared_too_large_is_refused_before_it_is_read(clerk, settings):
    """Issue 30: the login form declaring 100 GB, a review action declaring more than the small
    limit: 413 and the connection closed, before CSRF or a form reads any of the body."""
    settings.LANGUAGE_CODE = "en"
    login = Client().post(reverse("login"), {"username": "x"}, CONTENT_LENGTH="100000000000")
    assert login.status_code == 413 and login["Connection"] == "close"
    assert "larger than allowed" in login.content.decode()
    big = str(settings.REDACTOR_MAX_REQUEST_BYTES + 1)
    assert Client().post("/accounts/password_reset/", {}, CONTENT_LENGTH=big).status_code == 413
    # an upload view applies the upload limit itself (tests/contracts/web/test_limits.py): the same size passes
    # on to it (here: not logged in, so to the login page)
    upload = reverse("contracts:upload", kwargs={"agency_id": clerk.memberships.get().agency_id})
    assert Client().post(upload, {}, CONTENT_LENGTH=big).status_code == 302
