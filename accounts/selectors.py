"""Reads of agencies and memberships. Every tenant lookup in the project starts here."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet
from django.http import Http404

from .models import Agency, Membership, Role


def memberships_for_user(*, user: AbstractBaseUser) -> QuerySet[Membership]:
    """The user's memberships with their agencies, ordered by agency name; empty for anonymous users."""
    if not user.is_authenticated:
        return Membership.objects.none()
    return Membership.objects.filter(user=user).select_related("agency")


def membership_get(*, user: AbstractBaseUser, agency_id: int, role: Role | str = Role.CLERK) -> Membership:
    """The user's membership in agency ``agency_id``.

    Raises ``Http404`` when the user is not a member (another agency's id looks exactly like an
    id that does not exist) and ``PermissionDenied`` when the member's role is weaker than ``role``.
    """
    from django.core.exceptions import PermissionDenied

    membership = memberships_for_user(user=user).filter(agency_id=agency_id).first()
    if membership is None:
        raise Http404("no such agency")
    if not membership.allows(role):
        raise PermissionDenied("your role in this agency does not allow this")
    return membership


def agency_members(*, agency: Agency) -> QuerySet[Membership]:
    """The agency's memberships with their users, ordered by username."""
    return Membership.objects.filter(agency=agency).select_related("user").order_by("user__username")
