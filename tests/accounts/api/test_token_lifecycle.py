"""An API token never outlives the authority of the member who created it: removing the member
or lowering their role below the token's revokes it (whatever door did it), and the token then
answers 401 saying why."""

from __future__ import annotations

import pytest

from accounts.models import ApiToken, Membership, Role
from accounts.services import member_create, member_remove, member_set_role
from tests.plugins.tokens import api, make_token

pytestmark = pytest.mark.django_db


@pytest.fixture
def second_admin(agency):
    """Another agency admin, so the first one may be removed or demoted."""
    return member_create(agency=agency, username="spravce2", email="s2@example.cz", role=Role.ADMIN, by=None).user


def _message(raw: str) -> tuple[int, str]:
    response = api(raw).get("/api/v1/contracts/", HTTP_ACCEPT_LANGUAGE="en")
    return response.status_code, response.json().get("message", "")


def test_a_removed_members_tokens_answer_401_and_say_why(agency, admin_user, second_admin, settings):
    settings.LANGUAGE_CODE = "en"
    admin_token, raw = make_token(agency, Role.ADMIN, created_by=admin_user)
    _others, others_raw = make_token(agency, Role.CLERK, created_by=second_admin)
    assert _message(raw)[0] == 200
    member_remove(membership=Membership.objects.get(agency=agency, user=admin_user))
    status, message = _message(raw)
    assert status == 401 and "removed from the agency" in message
    admin_token.refresh_from_db()
    assert admin_token.revoked_at is not None
    assert admin_token.revoked_because == ApiToken.RevokedBecause.CREATOR_REMOVED
    assert _message(others_raw)[0] == 200  # another member's token lives on


def test_a_lowered_role_revokes_only_the_tokens_it_no_longer_allows(agency, admin_user, second_admin, settings):
    settings.LANGUAGE_CODE = "en"
    admin_token, admin_raw = make_token(agency, Role.ADMIN, created_by=admin_user)
    _reviewer, reviewer_raw = make_token(agency, Role.REVIEWER, created_by=admin_user)
    _clerk, clerk_raw = make_token(agency, Role.CLERK, created_by=admin_user)
    member_set_role(membership=Membership.objects.get(agency=agency, user=admin_user), role=Role.REVIEWER)
    status, message = _message(admin_raw)
    assert status == 401 and "role" in message
    assert _message(reviewer_raw)[0] == 200 and _message(clerk_raw)[0] == 200
    admin_token.refresh_from_db()
    assert admin_token.revoked_because == ApiToken.RevokedBecause.CREATOR_ROLE


def test_a_membership_deleted_in_the_admin_console_or_with_its_user_revokes_the_tokens(
    agency, admin_user, second_admin
):
    token, raw = make_token(agency, Role.ADMIN, created_by=admin_user)
    Membership.objects.filter(agency=agency, user=admin_user).delete()  # what the admin console does
    assert _message(raw)[0] == 401
    token.refresh_from_db()
    assert token.revoked_because == ApiToken.RevokedBecause.CREATOR_REMOVED


def test_a_membership_changed_behind_the_services_back_is_caught_at_the_next_request(agency, admin_user):
    token, raw = make_token(agency, Role.ADMIN, created_by=admin_user)
    Membership.objects.filter(agency=agency, user=admin_user).update(role=Role.CLERK)  # no signal fires
    assert _message(raw)[0] == 401
    token.refresh_from_db()
    assert token.revoked_at is not None and token.revoked_because == ApiToken.RevokedBecause.CREATOR_ROLE


def test_a_system_token_depends_on_nobody(agency, admin_user, second_admin):
    _token, raw = make_token(agency, Role.REVIEWER, created_by=None)  # the demo token, a CLI token
    member_remove(membership=Membership.objects.get(agency=agency, user=admin_user))
    assert _message(raw)[0] == 200


def test_a_deleted_persons_tokens_are_revoked_before_they_lose_their_creator(agency, admin_user, second_admin):
    """Deleting the account empties the tokens' creator; they must not go on as the service's."""
    token, raw = make_token(agency, Role.ADMIN, created_by=admin_user)
    admin_user.delete()
    status, message = _message(raw)
    assert status == 401 and "deleted or deactivated" in message
    token.refresh_from_db()
    assert token.revoked_at is not None and token.revoked_because == ApiToken.RevokedBecause.CREATOR_GONE
    assert token.created_by is None  # the row stays, with its reason, on the agency's token list


def test_a_deactivated_persons_tokens_are_revoked(agency, admin_user, second_admin):
    token, raw = make_token(agency, Role.CLERK, created_by=admin_user)
    admin_user.is_active = False
    admin_user.save()
    assert _message(raw)[0] == 401
    token.refresh_from_db()
    assert token.revoked_because == ApiToken.RevokedBecause.CREATOR_GONE


def test_a_person_deactivated_behind_the_services_back_is_caught_at_the_next_request(agency, admin_user):
    token, raw = make_token(agency, Role.CLERK, created_by=admin_user)
    type(admin_user).objects.filter(pk=admin_user.pk).update(is_active=False)  # no signal fires
    assert _message(raw)[0] == 401
    token.refresh_from_db()
    assert token.revoked_because == ApiToken.RevokedBecause.CREATOR_GONE
