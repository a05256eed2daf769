"""The product's own e-mails (invitation, new account, password reset): in the interface's
language, naming the agency, with links to the service's configured address
(``REDACTOR_PUBLIC_URL``, else the address the request came in on), never Django's stock text."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse

#: The templates: a subject (one line) and a plain-text body each.
INVITATION = ("accounts/email/invitation_subject.txt", "accounts/email/invitation.txt")
ACCOUNT_CREATED = ("accounts/email/account_created_subject.txt", "accounts/email/account_created.txt")
PASSWORD_RESET = ("accounts/email/password_reset_subject.txt", "accounts/email/password_reset.txt")


def service_url(request) -> str:
    """The service's address without a trailing slash: ``REDACTOR_PUBLIC_URL`` or the request's."""
    return settings.REDACTOR_PUBLIC_URL or request.build_absolute_uri("/").rstrip("/")


def _reset_options(request) -> dict:
    """How Django's reset form builds its link: the configured host and scheme."""
    url = urlsplit(service_url(request))
    return {"domain_override": url.netloc, "use_https": url.scheme == "https", "request": request}


def send_invitation(invitation, raw: str, *, admin: str, base_url: str) -> str:
    """Mail ``invitation``'s link (``raw`` token) to the invited address, from ``admin`` (the
    inviting person's name, or the operator's words), with links under ``base_url`` (the
    service's address, :func:`service_url`). Returns the link."""
    link = base_url.rstrip("/") + reverse("invitation", kwargs={"token": raw})
    context = {
        "admin": admin,
        "agency": invitation.agency.name,
        "role": invitation.get_role_display(),
        "days": settings.REDACTOR_INVITATION_DAYS,
        "link": link,
        "service_url": base_url.rstrip("/"),
    }
    subject = " ".join(render_to_string(INVITATION[0], context).split())
    send_mail(subject, render_to_string(INVITATION[1], context), None, [invitation.email])
    return link


def send_account_created(request, membership) -> None:
    """Tell a person an agency admin created their account, with a link to set the password
    (Django's reset token: valid ``PASSWORD_RESET_TIMEOUT``)."""
    form = PasswordResetForm({"email": membership.user.email})
    if form.is_valid():
        form.save(
            subject_template_name=ACCOUNT_CREATED[0],
            email_template_name=ACCOUNT_CREATED[1],
            extra_email_context=_context(request, membership.agency.name, membership.get_role_display()),
            **_reset_options(request),
        )


def password_reset_options(request) -> dict:
    """The options :class:`accounts.views.PasswordResetView` passes to Django's reset form."""
    return {
        "subject_template_name": PASSWORD_RESET[0],
        "email_template_name": PASSWORD_RESET[1],
        "extra_email_context": _context(request, "", ""),
        **_reset_options(request),
    }


def _context(request, agency: str, role: str) -> dict:
    admin = ""
    if getattr(request, "user", None) is not None and request.user.is_authenticated:
        admin = request.user.get_full_name() or request.user.get_username()
    return {"agency": agency, "role": role, "admin": admin, "service_url": service_url(request)}
