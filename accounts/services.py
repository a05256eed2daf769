"""Writes of agencies and memberships (one service per change, in a transaction)."""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .models import TOKEN_SCHEME, Agency, ApiToken, Membership, Role, token_hash


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


# -- API tokens -----------------------------------------------------------------------------------
@transaction.atomic
def api_token_create(
    *, agency: Agency, name: str, role: Role | str, created_by: AbstractBaseUser | None, expires_at=None
) -> tuple[ApiToken, str]:
    """Create an API token for ``agency``; returns the row and the raw token ``rdk_<prefix>_<secret>``.

    The raw token exists only in the return value (show it once). Creates the token's service
    user. Raises ``ValidationError`` for an empty name, an unknown role or an expiry in the past.
    """
    if expires_at is not None and expires_at <= timezone.now():
        raise ValidationError({"expires_at": _("The expiry must be in the future.")})
    prefix = secrets.token_hex(4)
    raw = f"{TOKEN_SCHEME}_{prefix}_{secrets.token_urlsafe(32)}"
    User = get_user_model()
    user = User(username=f"api-{prefix}", first_name="API", last_name=name[:150])
    user.set_unusable_password()
    token = ApiToken(
        agency=agency,
        name=name.strip(),
        role=role,
        prefix=prefix,
        key_sha256=token_hash(raw),
        created_by=created_by if created_by and created_by.is_authenticated else None,
        expires_at=expires_at,
    )
    token.full_clean(exclude=["user"])
    user.full_clean()
    user.save()
    token.user = user
    token.save()
    return token, raw


@transaction.atomic
def api_token_revoke(*, token: ApiToken, revoked_by: AbstractBaseUser | None) -> ApiToken:
    """Revoke a token at once (requests with it get 401 from now on). Revoking twice changes nothing."""
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.revoked_by = revoked_by if revoked_by and revoked_by.is_authenticated else None
        token.save(update_fields=["revoked_at", "revoked_by"])
    return token


def api_token_touch(*, token: ApiToken, every_seconds: int = 60) -> None:
    """Record that ``token`` was used now; writes at most once per ``every_seconds`` per token."""
    now = timezone.now()
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() >= every_seconds:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
