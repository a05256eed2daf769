"""Webhook pages (agency admins): register, edit, remove, the delivery log and redelivery."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import Role
from accounts.web import form_action, form_error, member_required
from contracts.models import WebhookEvent
from contracts.services import webhooks

from .. import selectors
from ..forms import WebhookForm


@member_required(Role.ADMIN)
def webhook_list(request, membership):
    """The agency's webhooks; register a new one."""
    agency = membership.agency
    form = WebhookForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            hook = webhooks.webhook_create(
                agency=agency, url=form.cleaned_data["url"], events=form.cleaned_data["events"], created_by=request.user
            )
        except ValidationError as exc:
            form_error(form, exc)
        else:
            messages.success(request, _("The webhook was registered. Use the secret below to check signatures."))
            return redirect("webhooks:detail", agency_id=agency.pk, webhook_id=hook.pk)
    return render(
        request,
        "contracts/webhooks.html",
        {
            "agency": agency,
            "webhooks": selectors.webhooks_for_agency(agency=agency),
            "form": form,
            "events": WebhookEvent.choices,
        },
    )


@member_required(Role.ADMIN)
def webhook_detail(request, membership, webhook_id: int):
    """A webhook's settings, signing secret and delivery log (last 100)."""
    agency = membership.agency
    hook = selectors.webhook_get(agency=agency, webhook_id=webhook_id)
    form = WebhookForm(request.POST or None, initial={"url": hook.url, "events": hook.events, "active": hook.active})
    if request.method == "POST" and form.is_valid():
        try:
            webhooks.webhook_update(
                webhook=hook,
                user=request.user,
                url=form.cleaned_data["url"],
                events=form.cleaned_data["events"],
                active=form.cleaned_data["active"],
            )
        except ValidationError as exc:
            form_error(form, exc)
        else:
            messages.success(request, _("The webhook was saved."))
            return redirect("webhooks:detail", agency_id=agency.pk, webhook_id=hook.pk)
    deliveries = selectors.webhook_deliveries(webhook=hook)[:100]
    return render(
        request,
        "contracts/webhook_detail.html",
        {"agency": agency, "hook": hook, "form": form, "deliveries": deliveries},
    )


@require_POST
@member_required(Role.ADMIN)
def webhook_remove(request, membership, webhook_id: int):
    """Remove a webhook and its delivery log."""
    hook = selectors.webhook_get(agency=membership.agency, webhook_id=webhook_id)
    form_action(
        request, lambda: webhooks.webhook_delete(webhook=hook, user=request.user), _("The webhook was removed.")
    )
    return redirect("webhooks:list", agency_id=membership.agency.pk)


@require_POST
@member_required(Role.ADMIN)
def webhook_redeliver(request, membership, delivery_id: int):
    """Send a delivery again (as a new delivery with the same content)."""
    delivery = selectors.webhook_delivery_get(agency=membership.agency, delivery_id=delivery_id)
    again = _("The event will be sent again.")
    form_action(request, lambda: webhooks.webhook_redeliver(delivery=delivery, user=request.user), again)
    return redirect("webhooks:detail", agency_id=membership.agency.pk, webhook_id=delivery.webhook_id)
