"""The one place where a request becomes (user, agency, role): a view decorator."""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.decorators import login_required

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
