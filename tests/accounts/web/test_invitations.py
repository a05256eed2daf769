"""Membership by invitation (issue 16): an agency admin can no longer attach an existing account
(another agency's reviewer, an API token's service user, a global name like "admin") nor see its
e-mail; people join through an e-mailed link, with their account or a new one."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone

from accounts import services
from accounts.models import Invitation, Membership, Role
from tests.plugins.tenants import logged_in
from tests.plugins.tokens import make_token

pytestmark = pytest.mark.django_db


def _members_url(agency) -> str:
    return reverse("accounts:members", kwargs={"agency_id": agency.pk})


def _create(client, agency, username, email="x@example.invalid"):
    data = {"form": "create", "create-username": username, "create-email": email, "create-role": "reviewer"}
    return client.post(_members_url(agency), data)


def _invite(client, agency, email, role="reviewer"):
    return client.post(_members_url(agency), {"form": "invite", "invite-email": email, "invite-role": role})


def _link(mail) -> str:
    return re.search(r"https?://\S+/accounts/invitation/\S+/", mail.body).group(0)


def test_existing_accounts_cannot_be_attached_by_name(agency, admin_user, outsider):
    _, _raw = make_token(agency, Role.CLERK)
    service_user = get_user_model().objects.filter(username__startswith="api-").first()
    get_user_model().objects.create_user("admin", "root@example.invalid", "x", is_staff=True)
    client = logged_in(admin_user)
    for username in (outsider.username, service_user.username, "admin", "ADMIN", "api-new"):
        response = _create(client, agency, username)
        assert response.status_code == 400, username
        assert response.context["create_form"].errors["username"], username
    assert set(Membership.objects.filter(agency=agency).values_list("user__username", flat=True)) == {
        admin_user.username
    }


def test_the_members_page_shows_only_addresses_the_agency_gave(agency, admin_user, outsider, clerk):
    client = logged_in(admin_user)
    assert _create(client, agency, "nova", email="nova@urad.example").status_code == 302
    page = client.get(_members_url(agency)).content.decode()
    assert "nova@urad.example" in page
    assert clerk.email not in page  # an account the agency did not create: its own e-mail stays private
    assert outsider.email not in page


def test_an_invited_member_of_another_agency_joins_with_their_account(agency, admin_user, outsider, mailoutbox):
    assert _invite(logged_in(admin_user), agency, "kolega@jiny-urad.example").status_code == 302
    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["kolega@jiny-urad.example"]
    link = _link(mailoutbox[0])
    assert not Membership.objects.filter(agency=agency, user=outsider).exists()  # nothing until accepted

    visitor = logged_in(outsider)
    page = visitor.get(link)
    assert page.status_code == 200 and page["Cache-Control"] == "no-store" and agency.name in page.content.decode()
    assert visitor.post(link).status_code == 302
    joined = Membership.objects.get(agency=agency, user=outsider)
    assert joined.role == Role.REVIEWER and joined.invited_email == "kolega@jiny-urad.example"
    # once only
    assert logged_in(outsider).get(link).status_code == 404
    members = logged_in(admin_user).get(_members_url(agency)).content.decode()
    assert "kolega@jiny-urad.example" in members and outsider.email not in members


def test_an_invited_person_without_an_account_creates_one(agency, admin_user, client, mailoutbox):
    _invite(logged_in(admin_user), agency, "nova.referentka@example.invalid", role="clerk")
    link = _link(mailoutbox[0])
    taken = client.post(
        link, {"username": admin_user.username, "password1": "Tajne-heslo-42", "password2": "Tajne-heslo-42"}
    )
    assert taken.status_code == 200 and not Membership.objects.filter(agency=agency, role="clerk").exists()
    response = client.post(
        link, {"username": "referentka", "password1": "Tajne-heslo-42", "password2": "Tajne-heslo-42"}
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(username="referentka")
    assert user.email == "nova.referentka@example.invalid" and user.check_password("Tajne-heslo-42")
    assert Membership.objects.get(agency=agency, user=user).role == Role.CLERK
    assert client.session["_auth_user_id"] == str(user.pk)


def test_withdrawn_expired_and_replaced_invitations_do_not_work(agency, admin_user, outsider):
    _first, raw1 = services.invitation_create(agency=agency, email="a@example.invalid", role="clerk", by=admin_user)
    second, raw2 = services.invitation_create(agency=agency, email="A@example.invalid", role="clerk", by=admin_user)
    with pytest.raises(ValidationError):  # the newer link replaced it
        services.invitation_accept(raw=raw1, user=outsider)
    Invitation.objects.filter(pk=second.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(ValidationError):
        services.invitation_accept(raw=raw2, user=outsider)
    third, raw3 = services.invitation_create(agency=agency, email="b@example.invalid", role="clerk", by=admin_user)
    revoke = reverse("accounts:invitation_revoke", kwargs={"agency_id": agency.pk, "invitation_id": third.pk})
    assert logged_in(outsider).post(revoke).status_code == 404  # another agency's admin
    assert logged_in(admin_user).post(revoke).status_code == 302
    assert logged_in(outsider).get(reverse("invitation", kwargs={"token": raw3})).status_code == 404
    assert not Membership.objects.filter(agency=agency, user=outsider).exists()


def test_only_agency_admins_invite_and_tokens_cannot_join(agency, reviewer, admin_user):
    with pytest.raises(PermissionDenied):
        services.invitation_create(agency=agency, email="x@example.invalid", role="admin", by=reviewer)
    with pytest.raises(PermissionDenied):
        services.member_create(agency=agency, username="x", email="x@example.invalid", role="admin", by=reviewer)
    assert _invite(logged_in(reviewer), agency, "x@example.invalid").status_code == 403
    token, _raw = make_token(agency, Role.CLERK)
    _, raw = services.invitation_create(agency=agency, email="x@example.invalid", role="admin", by=admin_user)
    with pytest.raises(ValidationError):
        services.invitation_accept(raw=raw, user=token.user)
