"""Agency pages: the agency chooser, members, settings and API tokens (agency admins)."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordResetForm
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_ratelimit.core import is_ratelimited

from . import selectors, services
from .access import member_required
from .forms import AgencyForm, ApiTokenForm, MemberAddForm, MemberRoleForm
from .models import Membership, Role


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset, limited per client address (:func:`~accounts.access.client_ip`)
    and per e-mail address entered (``REDACTOR_PASSWORD_RESET_RATE_IP`` / ``_EMAIL``): over the
    limit the form says so (HTTP 429) and sends nothing, whether or not the address has an
    account, so the limit tells nothing about who is registered."""

    def form_valid(self, form):
        email = form.cleaned_data["email"].strip().lower()
        limits = (
            ("ip", settings.REDACTOR_PASSWORD_RESET_RATE_IP),
            (lambda group, request: email, settings.REDACTOR_PASSWORD_RESET_RATE_EMAIL),
        )
        over = [
            is_ratelimited(self.request, group="password_reset", key=key, rate=rate, method="POST", increment=True)
            for key, rate in limits
        ]
        if any(over):
            form.add_error(None, _("Too many password reset requests. Try again later."))
            response = self.form_invalid(form)
            response.status_code = 429
            return response
        return super().form_valid(form)


@login_required
def home(request):
    """Go to the user's only agency, or let them choose."""
    memberships = list(selectors.memberships_for_user(user=request.user))
    if len(memberships) == 1:
        return redirect("contracts:list", agency_id=memberships[0].agency_id)
    return render(request, "accounts/home.html", {"memberships": memberships})


@member_required(Role.ADMIN)
def members(request, membership):
    """List members; add one (a new user gets a password-reset e-mail)."""
    agency = membership.agency
    form = MemberAddForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        new_user = not get_user_model().objects.filter(username=form.cleaned_data["username"]).exists()
        try:
            added = services.member_add(
                agency=agency,
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                role=form.cleaned_data["role"],
            )
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            if new_user and added.user.email:
                reset = PasswordResetForm({"email": added.user.email})
                if reset.is_valid():
                    reset.save(request=request, use_https=request.is_secure())
            messages.success(request, _("%(user)s was added.") % {"user": added.user.username})
            return redirect("accounts:members", agency_id=agency.pk)
    return render(
        request,
        "accounts/members.html",
        {"agency": agency, "members": selectors.agency_members(agency=agency), "form": form, "roles": Role.choices},
    )


@require_POST
@member_required(Role.ADMIN)
def member_update(request, membership, member_id: int):
    """Change a member's role or remove them (``action=remove``)."""
    agency = membership.agency
    target = get_object_or_404(Membership, agency=agency, pk=member_id)
    try:
        if request.POST.get("action") == "remove":
            services.member_remove(membership=target)
            messages.success(request, _("%(user)s was removed.") % {"user": target.user.username})
        else:
            form = MemberRoleForm(request.POST)
            if form.is_valid():
                services.member_set_role(membership=target, role=form.cleaned_data["role"])
                messages.success(request, _("The role was changed."))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    return redirect("accounts:members", agency_id=agency.pk)


@member_required(Role.ADMIN)
def agency_settings(request, membership):
    """Edit the agency's name, IČO and data box ID."""
    agency = membership.agency
    form = AgencyForm(request.POST or None, instance=agency)
    if request.method == "POST" and form.is_valid():
        services.agency_update(agency=agency, **{k: form.cleaned_data[k] for k in ("name", "ico", "data_box_id")})
        messages.success(request, _("The settings were saved."))
        return redirect("accounts:settings", agency_id=agency.pk)
    return render(request, "accounts/settings.html", {"agency": agency, "form": form})


@member_required(Role.ADMIN)
def api_tokens(request, membership):
    """List the agency's API tokens and create one; the new token is shown once, on this response only."""
    agency = membership.agency
    form = ApiTokenForm(request.POST or None)
    created = None
    if request.method == "POST" and form.is_valid():
        day = form.cleaned_data["expires_on"]
        expires_at = timezone.make_aware(datetime.datetime.combine(day, datetime.time.min)) if day is not None else None
        try:
            token, raw = services.api_token_create(
                agency=agency,
                name=form.cleaned_data["name"],
                role=form.cleaned_data["role"],
                created_by=request.user,
                expires_at=expires_at,
            )
        except ValidationError as exc:
            form.add_error("expires_on" if "expires_at" in getattr(exc, "message_dict", {}) else None, exc.messages)
        else:
            created = {"token": token, "raw": raw}
            form = ApiTokenForm()
    response = render(
        request,
        "accounts/api_tokens.html",
        {
            "agency": agency,
            "tokens": selectors.api_tokens_for_agency(agency=agency),
            "form": form,
            "created": created,
            "now": timezone.now(),
        },
    )
    response["Cache-Control"] = "no-store"  # the page may hold a secret shown once
    return response


@require_POST
@member_required(Role.ADMIN)
def api_token_revoke(request, membership, token_id: int):
    """Revoke a token at once."""
    token = selectors.api_token_get(agency=membership.agency, token_id=token_id)
    services.api_token_revoke(token=token, revoked_by=request.user)
    messages.success(request, _("The token “%(name)s” was revoked.") % {"name": token.name})
    return redirect("accounts:api_tokens", agency_id=membership.agency.pk)
