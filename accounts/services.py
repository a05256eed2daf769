"""Writes of agencies and memberships (one service per change, in a transaction)."""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from .models import Agency, Membership, Role


@transaction.atomic
def agency_create(*, name: str, ico: str, data_box_id: str = "") -> Agency:
    """Create an agency. Raises ``ValidationError`` for an invalid IČO or data box ID or a duplicate IČO."""
    agency = Agency(name=name, ico=ico, data_box_id=data_box_id)
    agency.full_clean()
    agency.save()
    return agency


@transaction.atomic
def agency_update(*, agency: Agency, name: str, ico: str, data_box_id: str) -> Agency:
    """Change an agency's name, IČO and data box ID. Raises ``ValidationError``."""
    agency.name, agency.ico, agency.data_box_id = name, ico, data_box_id
    agency.full_clean()
    agency.save(update_fields=["name", "ico", "data_box_id"])
    return agency


@transaction.atomic
def member_add(
    *, agency: Agency, username: str, email: str = "", role: Role | str, password: str | None = None
) -> Membership:
    """Give ``username`` a role in ``agency``, creating the user when it does not exist.

    A new user gets ``password`` or, without one, a random password nobody knows (they set
    theirs through the password-reset e-mail; Django only sends it to usable passwords).
    Raises ``ValidationError`` when the user is already a member.
    """
    User = get_user_model()
    user = User.objects.filter(username=username).first()
    if user is None:
        user = User(username=username, email=email)
        user.set_password(password or secrets.token_urlsafe(32))
        user.full_clean()
        user.save()
    if Membership.objects.filter(agency=agency, user=user).exists():
        raise ValidationError(_("%(user)s is already a member of this agency.") % {"user": username})
    membership = Membership(agency=agency, user=user, role=role)
    membership.full_clean()
    membership.save()
    return membership


def _admins_left(agency: Agency, without: Membership) -> int:
    return Membership.objects.filter(agency=agency, role=Role.ADMIN).exclude(pk=without.pk).count()


@transaction.atomic
def member_set_role(*, membership: Membership, role: Role | str) -> Membership:
    """Change a member's role. Raises ``ValidationError`` when it would leave the agency without an admin."""
    if membership.role == Role.ADMIN and role != Role.ADMIN and _admins_left(membership.agency, membership) == 0:
        raise ValidationError(_("The agency needs at least one agency admin."))
    membership.role = role
    membership.full_clean()
    membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def member_remove(*, membership: Membership) -> None:
    """Remove a member from the agency (the user account stays). Raises ``ValidationError`` for the last admin."""
    if membership.role == Role.ADMIN and _admins_left(membership.agency, membership) == 0:
        raise ValidationError(_("The agency needs at least one agency admin."))
    membership.delete()
