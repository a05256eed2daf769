"""Who may do what: the role a user acts with in an agency (:func:`role_in`), the check every
service makes (:func:`require_role`), and the web door's view decorator (:func:`member_required`)
and form-action helper (:func:`form_action`).
"""

from __future__ import annotations

from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError

from .models import ROLE_RANK, Agency, ApiToken, Membership, Role
from .selectors import membership_get


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


def member_required(role: Role | str = Role.CLERK):
    """Decorate a view taking ``agency_id``: the view receives ``membership`` (with ``.agency``)
    instead. Anonymous users go to the login page; a non-member gets 404 (another agency's id
    looks like one that does not exist); a weaker role gets 403."""

    def decorator(view):
        @login_required
        @wraps(view)
        def wrapper(request, agency_id: int, *args, **kwargs):
            membership = membership_get(user=request.user, agency_id=agency_id, role=role)
            request.agency = membership.agency
            request.membership = membership
            return view(request, membership, *args, **kwargs)

        return wrapper

    return decorator


def error_text(exc: Exception) -> str:
    """What a person reads for a service's error: a ``ValidationError``'s messages, or the
    sentence of an engine error (``RedactionError``: the clerk's words, never a debug string)."""
    return " ".join(getattr(exc, "messages", None) or [str(exc)])


def report_error(request, exc: Exception) -> None:
    """The one way an HTML view turns a service error into a message (as the API's exception
    handler turns it into a response): :func:`error_text` as an error message."""
    messages.error(request, error_text(exc))


def form_error(form, exc: ValidationError, field: str | None = None, *, fields: dict[str, str] | None = None) -> None:
    """A service's ``ValidationError`` on ``form``: each field error on the form's field of that
    name, or of the name ``fields`` maps it to (others on the form as a whole), a plain one on
    ``field`` (None: the whole form)."""
    if hasattr(exc, "error_dict"):
        for name, errors in exc.message_dict.items():
            name = (fields or {}).get(name, name)
            form.add_error(name if name in form.fields else None, errors)
    else:
        form.add_error(field, exc.messages)


def form_action(request, action, success: str = "") -> bool:
    """Run ``action()`` (one service call) for an HTML form post: a ``ValidationError`` it
    raises becomes an error message the clerk reads (:func:`report_error`), else ``success``
    (if any) a success message. Returns whether it succeeded, so the view picks where to
    redirect."""
    try:
        action()
    except ValidationError as exc:
        report_error(request, exc)
        return False
    if success:
        messages.success(request, success)
    return True


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
