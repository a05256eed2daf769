"""The web door's helpers, shared by every app's HTML views: the view decorator that resolves the
agency and the member's role (:func:`member_required`), and the one way a service's
``ValidationError`` reaches a person: an error message (:func:`report_error`, :func:`form_action`)
or errors on the form that was posted (:func:`form_error`). Services never import this module
(the import-linter contract on ``*.web``)."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError

from .models import Role
from .selectors import membership_get


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
