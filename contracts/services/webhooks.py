"""Webhooks: notifications of contract events to an agency's systems, signed, retried with
backoff, each delivery logged."""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.access import require_role
from accounts.models import Agency, Role
from contracts import queue
from contracts.extensions import contract_sections
from contracts.models import Contract, Webhook, WebhookDelivery, WebhookEvent
from contracts.webhooks import send_signed, url_problem


def webhook_payload(*, contract: Contract, event: str, delivery_uuid: str) -> dict:
    """The JSON body of a webhook POST. Holds no personal data: ids, status and links only."""
    return {
        "id": delivery_uuid,
        "event": event,
        "created_at": timezone.now().isoformat(),
        "agency": {"id": contract.agency_id, "ico": contract.agency.ico},
        "contract": {
            "id": contract.pk,
            "title": contract.title,
            "status": contract.status,
            "url": f"/api/v1/contracts/{contract.pk}/",
            **_sections_of(contract),
        },
    }


def _sections_of(contract: Contract) -> dict:
    """What the apps above contracts add to the payload (:mod:`contracts.extensions`)."""
    parts = {}
    for section in contract_sections():
        part = section.webhook(contract) if section.webhook else None
        if part:
            parts[section.name] = part
    return parts


def webhooks_notify(*, contract: Contract, event: str) -> list[WebhookDelivery]:
    """Queue a delivery of ``event`` to every active webhook of the contract's agency that asked for it.

    Runs in the caller's transaction; the deliveries are sent after it commits.
    """
    deliveries = []
    for hook in Webhook.objects.filter(agency=contract.agency, active=True):
        if event not in hook.events:
            continue
        delivery = WebhookDelivery(agency=contract.agency, webhook=hook, contract=contract, event=event, payload={})
        delivery.payload = webhook_payload(contract=contract, event=event, delivery_uuid=str(delivery.uuid))
        delivery.save()
        deliveries.append(delivery)
    for delivery in deliveries:
        _enqueue_delivery(delivery.pk)
    return deliveries


def _enqueue_delivery(delivery_id: int, delay_seconds: float = 0) -> None:
    queue.enqueue(queue.DELIVER_WEBHOOK, delivery_id, timeout=60, delay_seconds=delay_seconds)


@transaction.atomic
def webhook_create(*, agency: Agency, url: str, events: list[str], created_by: User) -> Webhook:
    """Register ``url`` for ``events`` (values of :class:`WebhookEvent`); generates the signing secret.

    Raises ``PermissionDenied`` unless ``created_by`` is an agency admin, ``ValidationError``
    for an invalid URL, a URL that is not http(s), or no or unknown events.
    """
    require_role(created_by, agency, Role.ADMIN)
    hook = Webhook(agency=agency, url=url, events=sorted(set(events)), created_by=created_by)
    hook.secret = secrets.token_hex(32)
    _webhook_clean(hook)
    hook.save()
    return hook


def _webhook_clean(hook: Webhook) -> None:
    hook.full_clean()
    if not hook.events or any(e not in WebhookEvent.values for e in hook.events):
        raise ValidationError({"events": _("Choose at least one event.")})
    problem = url_problem(hook.url, resolve=False)
    if problem:
        raise ValidationError({"url": problem})


@transaction.atomic
def webhook_update(*, webhook: Webhook, user: User, url: str, events: list[str], active: bool) -> Webhook:
    """Change a webhook's URL, events or active flag (agency admins). Raises as :func:`webhook_create`."""
    require_role(user, webhook.agency, Role.ADMIN)
    webhook.url, webhook.events, webhook.active = url, sorted(set(events)), active
    _webhook_clean(webhook)
    webhook.save(update_fields=["url", "events", "active"])
    return webhook


@transaction.atomic
def webhook_delete(*, webhook: Webhook, user: User) -> None:
    """Remove a webhook and its delivery log (agency admins; else ``PermissionDenied``)."""
    require_role(user, webhook.agency, Role.ADMIN)
    webhook.delete()


def webhook_deliver(*, delivery_id: int) -> None:
    """Job body: POST one delivery, signed; on failure schedule the next attempt with backoff.

    Delays between attempts come from ``REDACTOR_WEBHOOK_RETRY_DELAYS`` (seconds); after the
    last one the delivery is ``failed``. A delivery that is no longer pending is left alone (a
    job may run twice).
    """
    delivery = WebhookDelivery.objects.select_related("webhook").filter(pk=delivery_id).first()
    if delivery is None or delivery.state != WebhookDelivery.State.PENDING:
        return
    outcome = send_signed(
        url=delivery.webhook.url,
        secret=delivery.webhook.secret,
        event=delivery.event,
        delivery_uuid=str(delivery.uuid),
        payload=delivery.payload,
    )
    now = timezone.now()
    delays = settings.REDACTOR_WEBHOOK_RETRY_DELAYS
    attempts = delivery.attempts + 1
    fields = {"attempts": attempts, "last_attempt_at": now, "response_status": outcome.status, "error": outcome.error}
    if outcome.ok:
        fields.update(state=WebhookDelivery.State.DELIVERED, delivered_at=now, next_attempt_at=None)
    elif attempts > len(delays):
        fields.update(state=WebhookDelivery.State.FAILED, next_attempt_at=None)
    else:
        delay = delays[attempts - 1]
        fields.update(next_attempt_at=now + timedelta(seconds=delay))
    with transaction.atomic():
        updated = WebhookDelivery.objects.filter(
            pk=delivery.pk, state=WebhookDelivery.State.PENDING, attempts=delivery.attempts
        ).update(**fields)
        if updated and not outcome.ok and attempts <= len(delays):
            _enqueue_delivery(delivery.pk, delay_seconds=delays[attempts - 1])


@transaction.atomic
def webhook_redeliver(*, delivery: WebhookDelivery, user: User) -> WebhookDelivery:
    """Send a delivery again now (a new delivery with the same payload and a new id); agency
    admins only (else ``PermissionDenied``)."""
    require_role(user, delivery.agency, Role.ADMIN)
    again = WebhookDelivery(
        agency=delivery.agency,
        webhook=delivery.webhook,
        contract=delivery.contract,
        event=delivery.event,
        payload={},
    )
    again.payload = {**delivery.payload, "id": str(again.uuid)}
    again.save()
    _enqueue_delivery(again.pk)
    return again
