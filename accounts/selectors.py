"""Reads of agencies and memberships. Every tenant lookup in the project starts here."""

from __future__ import annotations

import hmac

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404
from django.utils import timezone

from .models import TOKEN_SCHEME, Agency, ApiToken, Invitation, Membership, ProfileVersion, Role, token_hash


def memberships_for_user(*, user: User) -> QuerySet[Membership]:
    """The user's memberships with their agencies, ordered by agency name; empty for anonymous users."""
    if not user.is_authenticated:
        return Membership.objects.none()
    return Membership.objects.filter(user=user).select_related("agency")


def membership_get(*, user: User, agency_id: int, role: Role | str = Role.CLERK) -> Membership:
    """The user's membership in agency ``agency_id``.

    Raises ``Http404`` when the user is not a member (another agency's id looks exactly like an
    id that does not exist) and ``PermissionDenied`` when the member's role is weaker than ``role``.
    """
    membership = memberships_for_user(user=user).filter(agency_id=agency_id).first()
    if membership is None:
        raise Http404("no such agency")
    if not membership.allows(role):
        raise PermissionDenied("your role in this agency does not allow this")
    return membership


def agency_members(*, agency: Agency) -> QuerySet[Membership]:
    """The agency's memberships with their users, ordered by username."""
    return Membership.objects.filter(agency=agency).select_related("user").order_by("user__username")


def api_tokens_for_agency(*, agency: Agency) -> QuerySet[ApiToken]:
    """The agency's API tokens, revoked ones included, newest first."""
    return ApiToken.objects.filter(agency=agency).select_related("created_by", "revoked_by")


def api_token_get(*, agency: Agency, token_id: int) -> ApiToken:
    """The agency's token ``token_id``. Raises ``Http404`` for another agency's token."""
    token = api_tokens_for_agency(agency=agency).filter(pk=token_id).first()
    if token is None:
        raise Http404("no such token")
    return token


def api_token_authenticate(*, raw: str) -> ApiToken | None:
    """The token row for a raw ``rdk_<prefix>_<secret>`` string, or None when it matches none.

    The row is returned even when revoked or expired (the caller says which); the secret is
    compared in constant time.
    """
    parts = raw.split("_", 2)
    if len(parts) != 3 or parts[0] != TOKEN_SCHEME:
        return None
    token = ApiToken.objects.select_related("agency", "user", "created_by").filter(prefix=parts[1]).first()
    if token is None or not hmac.compare_digest(token.key_sha256, token_hash(raw)):
        return None
    return token


def actor_name(user) -> str | None:
    """A user's username, or ``api:<token name> (<creator's username>)`` for an API token's
    service user (``api:<token name>`` for a token made by the service itself): the audit trail,
    the report and the API name the person behind every token."""
    if user is None:
        return None
    token = getattr(user, "api_token", None)
    if token is None:
        return user.get_username()
    creator = token.created_by
    return f"api:{token.name} ({creator.get_username()})" if creator is not None else f"api:{token.name}"


def person_behind(user) -> int | None:
    """The id of the person who acts as ``user``: the user's own, or for an API token's service
    user the member who made the token (a token acts with its creator's authority, and is that
    person's second pair of hands, not a second pair of eyes); None for None. Every token the
    service made itself (no creator: the demo token, one made from the command line) is one and
    the same person, :data:`SERVICE_PERSON`: two of them are not four eyes."""
    if user is None:
        return None
    token = getattr(user, "api_token", None)
    if token is not None:
        return token.created_by_id if token.created_by_id is not None else SERVICE_PERSON
    return user.pk


#: :func:`person_behind` of every token made by the service itself (no user has this id).
SERVICE_PERSON = 0


def invitation_for_link(*, raw: str) -> Invitation | None:
    """The invitation behind a link's token (any state), or None."""
    return Invitation.objects.select_related("agency").filter(key_sha256=token_hash(raw)).first()


def invitations_pending(*, agency: Agency) -> list[Invitation]:
    """The agency's invitations still waiting for their person, newest first."""
    return list(
        Invitation.objects.filter(
            agency=agency, accepted_at__isnull=True, revoked_at__isnull=True, expires_at__gt=timezone.now()
        )
    )


def invitation_get(*, agency: Agency, invitation_id: int) -> Invitation:
    """The agency's invitation ``invitation_id``. Raises ``Http404`` for another agency's."""
    invitation = Invitation.objects.filter(agency=agency, pk=invitation_id).first()
    if invitation is None:
        raise Http404("no such invitation")
    return invitation


def profile_versions(*, agency: Agency) -> QuerySet[ProfileVersion]:
    """The agency's profile versions, newest first, with who saved each."""
    return ProfileVersion.objects.filter(agency=agency).select_related("created_by").order_by("-number")


def profile_in_force(*, agency: Agency) -> ProfileVersion | None:
    """The agency's newest profile version, or None before its admin saved one."""
    return profile_versions(agency=agency).first()
