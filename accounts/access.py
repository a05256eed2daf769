"""Who may do what: the role a user acts with in an agency (:func:`role_in`) and the check every
service makes (:func:`require_role`); the client's address the login limits count by
(:func:`client_ip`). The web door's helpers are in :mod:`accounts.web`.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied

from .models import ROLE_RANK, Agency, ApiToken, Membership, Role


def role_in(user: User, agency: Agency) -> Role | None:
    """The role ``user`` acts with in ``agency``: an API token's service user with the token's
    role while the token is usable, a person with their membership's; None for neither."""
    if not user.is_authenticated:
        return None
    token = ApiToken.objects.filter(user=user, agency=agency).first()
    if token is not None:
        return Role(token.role) if token.is_usable() else None
    membership = Membership.objects.filter(user=user, agency=agency).first()
    return Role(membership.role) if membership is not None else None


def require_role(user: User | None, agency: Agency, role: Role | str) -> None:
    """Raise ``PermissionDenied`` unless ``user`` may act as ``role`` (or a stronger one) in
    ``agency``. ``user=None`` is the system itself (a job, a management command) and may.
    Every service that a clerk, a reviewer or a token can call checks here, so the web UI and
    the API cannot disagree on who may do what."""
    if user is None:
        return
    actual = role_in(user, agency)
    if actual is None or ROLE_RANK[actual] < ROLE_RANK[Role(role)]:
        raise PermissionDenied(_ROLE_MESSAGE)


_ROLE_MESSAGE = "your role in this agency does not allow this"


def client_ip(request) -> str:
    """The client's address: ``REMOTE_ADDR``, or behind ``TRUSTED_PROXY_COUNT`` reverse proxies
    the address the outermost of them saw, i.e. the N-th entry from the right of
    ``X-Forwarded-For`` (each proxy appends the address it received from; anything further left
    was sent by the client and may be forged). Login lockout (django-axes) and the password-reset
    limit count per this address, so one attacker behind the shared proxy address cannot lock
    out everyone."""
    count = settings.TRUSTED_PROXY_COUNT
    if count:
        hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if h.strip()]
        if len(hops) >= count:
            return hops[-count]
    return request.META.get("REMOTE_ADDR", "")
