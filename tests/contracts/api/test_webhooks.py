"""Webhooks: signed deliveries to a real local HTTP server, retries with backoff, address checks,
and the agency admin's token and webhook pages."""

from __future__ import annotations

import json
import socket
import time

import pytest
from django.utils import timezone

from accounts.models import ApiToken, Role
from contracts.models import Status, WebhookDelivery, WebhookEvent
from contracts.services import webhooks
from contracts.webhooks import send_signed, sign, url_problem, verify
from tests.plugins.tenants import logged_in, run_latest_job
from tests.plugins.tokens import api
from tests.receiver import Receiver

pytestmark = pytest.mark.django_db


def test_signature_round_trip_and_tampering():
    body = b'{"event":"contract.published"}'
    header = sign(secret="s3cret", body=body, timestamp=int(time.time()))
    assert verify(secret="s3cret", body=body, header=header)
    assert not verify(secret="other", body=body, header=header)
    assert not verify(secret="s3cret", body=body + b" ", header=header)
    old = sign(secret="s3cret", body=body, timestamp=int(time.time()) - 3600)
    assert not verify(secret="s3cret", body=body, header=old)
    assert not verify(secret="s3cret", body=body, header="garbage")


@pytest.mark.parametrize(
    ("url", "allowed"),
    [
        ("https://dms.example.gov/hook", True),
        ("https://93.184.216.34/hook", True),
        ("ftp://dms.example.gov/hook", False),
        ("http://127.0.0.1:6379/", False),
        ("http://localhost/", False),
        ("http://10.0.0.5/hook", False),
        ("http://169.254.169.254/latest/meta-data/", False),
        ("http://[::1]/", False),
        # IPv6 forms that carry an IPv4 address inside (issue 16)
        ("http://[::127.0.0.1]/", False),  # IPv4-compatible
        ("http://[::ffff:10.0.0.1]/", False),  # IPv4-mapped
        ("http://[64:ff9b::7f00:1]/", False),  # NAT64 well-known prefix
        ("http://[64:ff9b:1::a00:1]/", False),  # NAT64 local-use prefix
        ("http://[2002:7f00:1::]/", False),  # 6to4 of 127.0.0.1
        ("http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/", False),  # Teredo, client 10.0.0.1
        ("http://[64:ff9b::5db8:d822]/", True),  # NAT64 of the public 93.184.216.34
        ("http://[2606:4700:4700::1111]/", True),
        # ports: 80 and 443 only, unless configured
        ("https://93.184.216.34:6379/", False),
        ("https://93.184.216.34:443/", True),
        ("http://93.184.216.34:80/", True),
    ],
)
def test_webhook_addresses_into_the_services_network_are_refused(settings, url, allowed):
    settings.REDACTOR_WEBHOOK_ALLOW_PRIVATE = False
    settings.REDACTOR_WEBHOOK_PORTS = [80, 443]
    assert (url_problem(url, resolve=False) == "") is allowed


def _dns(monkeypatch, name: str, answers: list[list[str]]) -> list[str]:
    """Let ``name`` resolve to the next list of ``answers`` on each lookup (a rebinding DNS
    server); other names resolve as usual. Returns the log of lookups of ``name``."""
    real = socket.getaddrinfo
    lookups = []

    def getaddrinfo(host, port, *args, **kwargs):
        if host != name:
            return real(host, port, *args, **kwargs)
        lookups.append(host)
        addresses = answers[min(len(lookups), len(answers)) - 1]
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port)) for a in addresses]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return lookups


def test_a_name_is_resolved_once_and_the_checked_address_is_the_one_connected(monkeypatch, settings):
    settings.REDACTOR_WEBHOOK_ALLOW_PRIVATE = True  # the receiver listens on loopback
    with Receiver() as receiver:
        port = receiver.server.server_address[1]
        # first answer: the receiver; any later answer: an address that must never be reached
        lookups = _dns(monkeypatch, "dms.example.test", [["127.0.0.1"], ["192.0.2.1"]])
        outcome = send_signed(
            url=f"http://dms.example.test:{port}/hook?x=1", secret="s", event="e", delivery_uuid="u", payload={}
        )
    assert outcome.ok and lookups == ["dms.example.test"]
    assert receiver.requests[0].path == "/hook?x=1"
    assert receiver.requests[0].headers["Host"] == f"dms.example.test:{port}"


def test_every_address_of_a_name_must_be_global(monkeypatch, settings):
    settings.REDACTOR_WEBHOOK_ALLOW_PRIVATE = False
    settings.REDACTOR_WEBHOOK_PORTS = None
    _dns(monkeypatch, "dms.example.test", [["93.184.216.34", "10.0.0.7"]])
    outcome = send_signed(url="https://dms.example.test/", secret="s", event="e", delivery_uuid="u", payload={})
    assert not outcome.ok and outcome.status is None
    assert outcome.error == url_problem("https://dms.example.test/") != ""


def test_registering_a_private_address_is_refused(settings, agency, admin_user):
    settings.REDACTOR_WEBHOOK_ALLOW_PRIVATE = False
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as err:
        webhooks.webhook_create(
            agency=agency, url="http://127.0.0.1:8000/", events=["contract.published"], created_by=admin_user
        )
    assert "url" in err.value.message_dict


def test_processing_sends_a_signed_needs_review_event(agency, admin_user, uploaded, django_capture_on_commit_callbacks):
    with Receiver() as receiver:
        hook = webhooks.webhook_create(
            agency=agency, url=receiver.url, events=list(WebhookEvent.values), created_by=admin_user
        )
        with django_capture_on_commit_callbacks(execute=False):
            run_latest_job(uploaded)
        delivery = WebhookDelivery.objects.get(webhook=hook)
        assert delivery.event == "contract.needs_review" and delivery.state == "pending"
        webhooks.webhook_deliver(delivery_id=delivery.pk)
        assert len(receiver.requests) == 1
        sent = receiver.requests[0]
    assert sent.path == "/hooks/redactor"
    assert verify(secret=hook.secret, body=sent.body, header=sent.headers["X-Redactor-Signature"])
    payload = json.loads(sent.body)
    assert payload["event"] == "contract.needs_review" and sent.headers["X-Redactor-Event"] == payload["event"]
    assert payload["contract"] == {
        "id": uploaded.pk,
        "title": uploaded.title,
        "status": "needs_review",
        "url": f"/api/v1/contracts/{uploaded.pk}/",
    }
    assert sent.headers["X-Redactor-Delivery"] == payload["id"] == str(delivery.uuid)
    assert "750403" not in sent.body.decode() and "Novák" not in sent.body.decode()
    delivery.refresh_from_db()
    assert delivery.state == "delivered" and delivery.attempts == 1 and delivery.response_status == 200


def test_a_failed_attempt_is_retried_with_backoff_then_given_up(
    settings, agency, admin_user, processed, django_capture_on_commit_callbacks
):
    import django_rq

    settings.REDACTOR_WEBHOOK_RETRY_DELAYS = [30, 120]
    queue = django_rq.get_queue("default")
    queue.connection.flushdb()
    with Receiver(statuses=[500, 503, 502]) as receiver:
        webhooks.webhook_create(agency=agency, url=receiver.url, events=["contract.failed"], created_by=admin_user)
        with django_capture_on_commit_callbacks(execute=False):
            Contract = type(processed)
            Contract.objects.filter(pk=processed.pk).update(status=Status.PROCESSING)
            webhooks.webhooks_notify(contract=processed, event=WebhookEvent.FAILED)
        delivery = WebhookDelivery.objects.get()
        before = timezone.now()
        with django_capture_on_commit_callbacks(execute=True):
            webhooks.webhook_deliver(delivery_id=delivery.pk)
        delivery.refresh_from_db()
        assert delivery.state == "pending" and delivery.attempts == 1 and delivery.response_status == 500
        assert "try later" not in delivery.error and "500" in delivery.error  # status and length, no body
        assert 25 < (delivery.next_attempt_at - before).total_seconds() < 35
        assert queue.scheduled_job_registry.count == 1  # the retry waits in rq's scheduler
        with django_capture_on_commit_callbacks(execute=True):
            webhooks.webhook_deliver(delivery_id=delivery.pk)
            webhooks.webhook_deliver(delivery_id=delivery.pk)
        delivery.refresh_from_db()
        assert delivery.state == "failed" and delivery.attempts == 3 and delivery.response_status == 502
        assert delivery.next_attempt_at is None
        assert len(receiver.requests) == 3
        webhooks.webhook_deliver(delivery_id=delivery.pk)  # a late duplicate job does nothing
        assert len(receiver.requests) == 3
    queue.connection.flushdb()


def test_unreachable_receiver_is_recorded(agency, admin_user, processed):
    with Receiver() as receiver:
        url = receiver.url
    hook = webhooks.webhook_create(agency=agency, url=url, events=["contract.published"], created_by=admin_user)
    delivery = webhooks.webhooks_notify(contract=processed, event=WebhookEvent.PUBLISHED)[0]
    webhooks.webhook_deliver(delivery_id=delivery.pk)
    delivery.refresh_from_db()
    assert delivery.webhook == hook and delivery.response_status is None
    # a sentence for the admin: no exception type, errno or address
    assert delivery.error and not any(t in delivery.error for t in ("Error", "Errno", "127.0.0.1"))


def test_events_not_subscribed_are_not_sent(agency, admin_user, processed):
    webhooks.webhook_create(
        agency=agency, url="https://dms.example.gov/h", events=["contract.published"], created_by=admin_user
    )
    assert webhooks.webhooks_notify(contract=processed, event=WebhookEvent.NEEDS_REVIEW) == []


# -- the agency admin's pages ---------------------------------------------------------------------
def test_admin_creates_a_token_that_is_shown_once_and_works(agency, admin_user):
    client = logged_in(admin_user)
    url = f"/a/{agency.pk}/api-tokens/"
    response = client.post(url, {"name": "Spisová služba", "role": Role.REVIEWER, "expires_on": "2099-01-01"})
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    token = ApiToken.objects.get()
    raw = response.context["created"]["raw"]
    assert raw.encode() in response.content and token.role == Role.REVIEWER and token.created_by == admin_user
    assert timezone.localtime(token.expires_at).isoformat() == "2099-01-01T00:00:00+01:00"  # Prague midnight
    assert raw.encode() not in client.get(url).content  # never shown again
    assert api(raw).get("/api/v1/contracts/").status_code == 200
    assert client.post(f"{url}{token.pk}/revoke/").status_code == 302
    assert api(raw).get("/api/v1/contracts/").status_code == 401
    assert (
        b"revoked" in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content
        or token.name.encode() in client.get(url).content
    )


def test_token_expiry_in_the_past_is_refused(agency, admin_user):
    response = logged_in(admin_user).post(
        f"/a/{agency.pk}/api-tokens/", {"name": "x", "role": "clerk", "expires_on": "2001-01-01"}
    )
    assert response.status_code == 200 and response.context["form"].errors and not ApiToken.objects.exists()


@pytest.mark.parametrize("path", ["api-tokens/", "webhooks/"])
def test_token_and_webhook_pages_are_for_agency_admins_only(agency, reviewer, outsider, path):
    assert logged_in(reviewer).get(f"/a/{agency.pk}/{path}").status_code == 403
    assert logged_in(outsider).get(f"/a/{agency.pk}/{path}").status_code == 404


def test_outsider_cannot_revoke_another_agencys_token(agency, admin_user, outsider, other_agency):
    token, raw = services_token(agency, admin_user)
    assert logged_in(outsider).post(f"/a/{other_agency.pk}/api-tokens/{token.pk}/revoke/").status_code == 404
    assert api(raw).get("/api/v1/contracts/").status_code == 200


def services_token(agency, user):
    from accounts.services import api_token_create

    return api_token_create(agency=agency, name="DMS", role=Role.CLERK, created_by=user)


def test_admin_registers_a_webhook_and_sees_deliveries(agency, admin_user, processed, outsider, other_agency):
    client = logged_in(admin_user)
    response = client.post(
        f"/a/{agency.pk}/webhooks/",
        {"url": "https://dms.example.gov/hook", "events": ["contract.published"], "active": "on"},
    )
    assert response.status_code == 302
    hook = agency.webhooks.get()
    assert hook.events == ["contract.published"] and len(hook.secret) == 64
    delivery = webhooks.webhooks_notify(contract=processed, event=WebhookEvent.PUBLISHED)[0]
    page = client.get(f"/a/{agency.pk}/webhooks/{hook.pk}/")
    assert hook.secret.encode() in page.content and b"contract.published" in page.content
    assert list(page.context["deliveries"]) == [delivery]
    assert client.post(f"/a/{agency.pk}/webhooks/deliveries/{delivery.pk}/redeliver/").status_code == 302
    assert WebhookDelivery.objects.filter(webhook=hook).count() == 2
    assert logged_in(outsider).get(f"/a/{other_agency.pk}/webhooks/{hook.pk}/").status_code == 404
    assert (
        logged_in(outsider).post(f"/a/{other_agency.pk}/webhooks/deliveries/{delivery.pk}/redeliver/").status_code
        == 404
    )
    bad = client.post(f"/a/{agency.pk}/webhooks/", {"url": "not a url", "events": []})
    assert bad.status_code == 200 and set(bad.context["form"].errors) >= {"url", "events"}
    assert client.post(f"/a/{agency.pk}/webhooks/{hook.pk}/delete/").status_code == 302
    assert not agency.webhooks.exists()


def test_platform_admin_sees_tokens_without_their_hash_and_can_revoke(agency, admin_user, processed, django_user_model):
    from accounts.services import api_token_create

    token, raw = api_token_create(agency=agency, name="DMS", role=Role.CLERK, created_by=admin_user)
    staff = django_user_model.objects.create_superuser("root", "root@example.invalid", "x")
    client = logged_in(staff)
    page = client.get(f"/admin/accounts/apitoken/{token.pk}/change/")
    assert (
        page.status_code == 200 and token.key_sha256.encode() not in page.content and raw.encode() not in page.content
    )
    client.post("/admin/accounts/apitoken/", {"action": "revoke", "_selected_action": [token.pk]})
    assert api(raw).get("/api/v1/contracts/").status_code == 401
    webhooks.webhook_create(
        agency=agency, url="https://dms.example.gov/h", events=["contract.published"], created_by=admin_user
    )
    webhooks.webhooks_notify(contract=processed, event=WebhookEvent.PUBLISHED)
    assert client.get("/admin/contracts/webhookdelivery/").status_code == 200


def test_only_an_agency_admin_manages_webhooks_whichever_door_calls(agency, admin_user, clerk, reviewer):
    from django.core.exceptions import PermissionDenied

    hook = webhooks.webhook_create(
        agency=agency, url="https://dms.example.gov/h", events=["contract.published"], created_by=admin_user
    )
    for user in (clerk, reviewer):
        with pytest.raises(PermissionDenied):
            webhooks.webhook_create(
                agency=agency, url="https://dms.example.gov/x", events=["contract.published"], created_by=user
            )
        with pytest.raises(PermissionDenied):
            webhooks.webhook_update(webhook=hook, user=user, url=hook.url, events=hook.events, active=False)
        with pytest.raises(PermissionDenied):
            webhooks.webhook_delete(webhook=hook, user=user)
    hook.refresh_from_db()
    assert hook.active
    webhooks.webhook_delete(webhook=hook, user=admin_user)
    assert not agency.webhooks.exists()
