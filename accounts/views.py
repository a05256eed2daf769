"""Agency pages: the agency chooser, members, settings and API tokens (agency admins)."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_ratelimit.core import is_ratelimited

from . import mail, selectors, services
from .forms import AgencyForm, ApiTokenForm, InvitationForm, MemberCreateForm, MemberRoleForm
from .models import Membership, Role
from .web import form_error, member_required, report_error


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
        # Django's form_valid, with the product's e-mail (accounts.mail) and configured address
        form.save(
            token_generator=self.token_generator,
            from_email=self.from_email,
            **mail.password_reset_options(self.request),
        )
        return HttpResponseRedirect(self.get_success_url())


@login_required
def home(request):
    """Go to the user's only agency, or let them choose."""
    memberships = list(selectors.memberships_for_user(user=request.user))
    if len(memberships) == 1:
        return redirect("contracts:list", agency_id=memberships[0].agency_id)
    return render(request, "accounts/home.html", {"memberships": memberships})


@member_required(Role.ADMIN)
def members(request, membership):
    """List members and pending invitations; invite a person by e-mail, or create a new account
    (which gets a password-reset e-mail). Existing accounts are never attached by name."""
    agency = membership.agency
    which = request.POST.get("form") if request.method == "POST" else None
    invite_form = InvitationForm(request.POST if which == "invite" else None, prefix="invite")
    create_form = MemberCreateForm(request.POST if which == "create" else None, prefix="create")
    if which == "invite" and invite_form.is_valid():
        try:
            invitation, raw = services.invitation_create(
                agency=agency,
                email=invite_form.cleaned_data["email"],
                role=invite_form.cleaned_data["role"],
                by=request.user,
            )
        except ValidationError as exc:
            form_error(invite_form, exc)
        else:
            admin = request.user.get_full_name() or request.user.get_username()
            mail.send_invitation(invitation, raw, admin=admin, base_url=mail.service_url(request))
            messages.success(request, _("An invitation was sent to %(email)s.") % {"email": invitation.email})
            return redirect("accounts:members", agency_id=agency.pk)
    if which == "create" and create_form.is_valid():
        try:
            added = services.member_create(agency=agency, by=request.user, **create_form.cleaned_data)
        except ValidationError as exc:
            form_error(create_form, exc)
        else:
            mail.send_account_created(request, added)
            messages.success(request, _("%(user)s was added.") % {"user": added.user.username})
            return redirect("accounts:members", agency_id=agency.pk)
    context = {
        "agency": agency,
        "members": selectors.agency_members(agency=agency),
        "invitations": selectors.invitations_pending(agency=agency),
        "invite_form": invite_form,
        "create_form": create_form,
        "roles": Role.choices,
    }
    return render(request, "accounts/members.html", context, status=400 if which and request.method == "POST" else 200)


@require_POST
@member_required(Role.ADMIN)
def invitation_revoke(request, membership, invitation_id: int):
    """Withdraw a pending invitation."""
    invitation = selectors.invitation_get(agency=membership.agency, invitation_id=invitation_id)
    services.invitation_revoke(invitation=invitation, by=request.user)
    messages.success(request, _("The invitation of %(email)s was withdrawn.") % {"email": invitation.email})
    return redirect("accounts:members", agency_id=membership.agency_id)


def invitation(request, token: str):
    """The invited person's page: join with the account they are logged in with, or create one.
    The link is the proof: it went to the invited address only."""
    found = selectors.invitation_for_link(raw=token)
    if found is None or not found.is_pending():
        response = render(request, "accounts/invitation.html", {"invitation": None}, status=404)
        response["Cache-Control"] = "no-store"
        return response
    posted = request.POST if request.method == "POST" and not request.user.is_authenticated else None
    signup: UserCreationForm[User] = UserCreationForm(posted)
    if request.method == "POST":
        try:
            if request.user.is_authenticated:
                joined = services.invitation_accept(raw=token, user=request.user)
            elif signup.is_valid():
                joined = services.invitation_accept_new_account(
                    raw=token, username=signup.cleaned_data["username"], password=signup.cleaned_data["password1"]
                )
                login(request, joined.user, backend="django.contrib.auth.backends.ModelBackend")
            else:
                joined = None
        except ValidationError as exc:
            report_error(request, exc)
            joined = None
        if joined is not None:
            messages.success(request, _("You are now a member of %(agency)s.") % {"agency": joined.agency.name})
            return redirect("contracts:list", agency_id=joined.agency_id)
    response = render(request, "accounts/invitation.html", {"invitation": found, "signup": signup, "token": token})
    response["Cache-Control"] = "no-store"
    # The token is in the URL: only this site may see it as a referrer. Not "no-referrer": with it
    # a browser posts the form with "Origin: null", which Django's CSRF check refuses.
    response["Referrer-Policy"] = "same-origin"
    return response


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
        report_error(request, exc)
    return redirect("accounts:members", agency_id=agency.pk)


@member_required(Role.ADMIN)
def agency_settings(request, membership):
    """Edit the agency's name, IČO and data box ID."""
    agency = membership.agency
    form = AgencyForm(request.POST or None, instance=agency)
    if request.method == "POST" and form.is_valid():
        services.agency_update(
            agency=agency,
            user=request.user,
            **{k: form.cleaned_data[k] for k in AgencyForm.Meta.fields},
        )
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
            form_error(form, exc, fields={"expires_at": "expires_on"})
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


def csrf_failure(request, reason: str = ""):
    """Django's ``CSRF_FAILURE_VIEW``: a refused form post as the product's own page, in the
    interface's language (the form was open too long, or cookies are off), never Django's
    debugging page; ``reason`` (Django's English diagnosis) goes to the log only."""
    return render(request, "403_csrf.html", status=403)
