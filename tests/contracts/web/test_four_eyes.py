"""Four eyes: an agency that requires it publishes a contract only after a second reviewer, who
neither approved it first nor decided any of its proposals, approves; the second reviewer can
send it back with a reason. The statuses, the audit trail, webhooks and both doors follow."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.models import Role
from accounts.services import agency_update, api_token_create
from contracts import selectors
from contracts.models import AuditEvent, Run, Status, WebhookDelivery
from contracts.services import publishing, reviewing
from contracts.services.webhooks import webhook_create
from tests.plugins.tenants import logged_in, member, run_latest_job


@pytest.fixture
def four_eyes(agency, admin_user):
    agency_update(agency=agency, name=agency.name, ico=agency.ico, data_box_id=agency.data_box_id,
                  user=admin_user, second_approval=True)  # fmt: skip
    return agency


def _decided(contract, reviewer):
    open_ids = list(selectors.proposals_open(contract=contract).values_list("pk", flat=True))
    if open_ids:
        reviewing.proposals_decide(contract=contract, user=reviewer, proposal_ids=open_ids, decision="accept")


def test_the_second_reviewer_publishes_and_nobody_approves_twice(four_eyes, processed, reviewer, admin_user):
    webhook_create(agency=four_eyes, url="https://dms.example.cz/hook", events=["contract.second_approval"],
                   created_by=admin_user)  # fmt: skip
    _decided(processed, reviewer)
    assert publishing.contract_approve(contract=processed, user=reviewer) is None
    processed.refresh_from_db()
    assert processed.status == Status.SECOND_APPROVAL and processed.first_approved_by == reviewer
    assert not Run.objects.filter(contract=processed, kind=Run.Kind.PUBLISHING).exists()
    assert WebhookDelivery.objects.filter(event="contract.second_approval").count() == 1
    with pytest.raises(ValidationError) as same:
        publishing.contract_approve(contract=processed, user=reviewer)
    assert same.value.code == "same_reviewer"
    decider = member(four_eyes, Role.REVIEWER)  # decided one proposal: not a second pair of eyes
    proposal = processed.proposals.first()
    proposal.decided_by = decider
    proposal.save(update_fields=["decided_by"])
    with pytest.raises(ValidationError):
        publishing.contract_approve(contract=processed, user=decider)
    with pytest.raises(ValidationError) as locked:  # the decisions are frozen while it waits
        reviewing.proposals_decide(contract=processed, user=reviewer, proposal_ids=[proposal.pk], decision="reject")
    assert locked.value.code == "wrong_status"
    second = member(four_eyes, Role.REVIEWER)
    run = publishing.contract_approve(contract=processed, user=second)
    assert run is not None and run.kind == Run.Kind.PUBLISHING
    run_latest_job(processed)
    processed.refresh_from_db()
    assert processed.status == Status.PUBLISHED and processed.approved_by == second
    approved = AuditEvent.objects.get(contract=processed, action="approved")
    assert approved.user == second and approved.detail["first_approval_by"] == reviewer.username
    assert AuditEvent.objects.filter(contract=processed, action="first_approval", user=reviewer).exists()


def test_the_second_reviewer_returns_it_with_a_reason_through_the_web(four_eyes, processed, reviewer):
    _decided(processed, reviewer)
    client = logged_in(reviewer)
    args = [four_eyes.pk, processed.pk]
    client.post(reverse("contracts:approve", args=args))
    processed.refresh_from_db()
    assert processed.status == Status.SECOND_APPROVAL
    assert 'id="second-approval-other"' in client.get(reverse("contracts:review", args=args)).content.decode()
    second = logged_in(member(four_eyes, Role.REVIEWER))
    page = second.get(reverse("contracts:review", args=args)).content.decode()
    assert 'id="second-approve"' in page and 'id="return-form"' in page
    assert "Čeká na druhé schválení" in second.get(reverse("contracts:detail", args=args)).content.decode()
    second.post(reverse("contracts:return", args=args), {"reason": "Zkontrolujte adresu na straně 1."})
    processed.refresh_from_db()
    assert processed.status == Status.NEEDS_REVIEW and "Zkontrolujte adresu" in processed.error_message
    event = AuditEvent.objects.get(contract=processed, action="second_approval_returned")
    assert event.detail == {"reason": "Zkontrolujte adresu na straně 1."}


def _token_client(agency, name, creator):
    _, raw = api_token_create(agency=agency, name=name, role="reviewer", created_by=creator)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    return api


def test_both_approvals_through_the_api_by_two_persons(four_eyes, processed, reviewer, admin_user):
    _decided(processed, reviewer)
    other_admin = member(four_eyes, Role.ADMIN)
    url = f"/api/v1/contracts/{processed.pk}/approve/"
    first = _token_client(four_eyes, "Spisová služba", admin_user).post(url, {}, format="json")
    assert first.status_code == 202 and first.json()["status"] == "second_approval"
    same_person = _token_client(four_eyes, "Podatelna", admin_user)  # another token of the same admin
    again = same_person.post(url, {}, format="json")
    assert again.status_code == 400 and again.json()["extra"]["code"] == "same_reviewer"
    second = _token_client(four_eyes, "Archiv", other_admin).post(url, {}, format="json")
    assert second.status_code == 202 and second.json()["status"] == "approved"
    approved = AuditEvent.objects.get(contract=processed, action="approved")
    assert approved.detail["first_approval_by"] == f"api:Spisová služba ({admin_user.username})"


def test_a_token_is_not_a_second_pair_of_eyes_for_the_person_who_made_it(four_eyes, processed, admin_user):
    """The person decides and approves in the web, then approves again through a token they made:
    refused; the audit trail names the person behind the token."""
    _decided(processed, admin_user)
    client = logged_in(admin_user)
    args = [four_eyes.pk, processed.pk]
    client.post(reverse("contracts:approve", args=args))
    processed.refresh_from_db()
    assert processed.status == Status.SECOND_APPROVAL
    token = _token_client(four_eyes, "Spisová služba", admin_user)
    answer = token.post(f"/api/v1/contracts/{processed.pk}/approve/", {}, format="json")
    assert answer.status_code == 400 and answer.json()["extra"]["code"] == "same_reviewer"
    processed.refresh_from_db()
    assert processed.status == Status.SECOND_APPROVAL
    # and the other way round: the token decided, its creator may not approve second in the web
    other = member(four_eyes, Role.REVIEWER)
    token_of_other = _token_client(four_eyes, "Podatelna", other)
    decided = token_of_other.post(
        f"/api/v1/contracts/{processed.pk}/return/", {"reason": "Zkontrolujte stranu 2."}, format="json"
    )
    assert decided.status_code in (200, 202), decided.content
    processed.refresh_from_db()
    proposal = processed.proposals.first()
    token_user = AuditEvent.objects.get(contract=processed, action="second_approval_returned").user
    assert "Podatelna" in client.get(reverse("contracts:audit", args=args)).content.decode()
    assert f"api:Podatelna ({other.username})" in client.get(reverse("contracts:audit", args=args)).content.decode()
    reviewing.proposals_decide(contract=processed, user=token_user, proposal_ids=[proposal.pk], decision="reject")
    publishing.contract_approve(contract=processed, user=admin_user)  # the first approval again
    second = logged_in(other)
    page = second.get(reverse("contracts:review", args=args)).content.decode()
    assert 'id="second-approve"' not in page  # their token decided on it
    with pytest.raises(ValidationError) as refused:
        publishing.contract_approve(contract=processed, user=other)
    assert refused.value.code == "same_reviewer"


def test_without_four_eyes_one_approval_publishes(processed, reviewer):
    _decided(processed, reviewer)
    assert publishing.contract_approve(contract=processed, user=reviewer) is not None


def test_two_tokens_the_service_made_are_not_four_eyes(four_eyes, processed, reviewer):
    """Tokens with no creator (the demo token, tokens made from the command line) all act for the
    service itself: one approves first, another may not approve second."""
    _decided(processed, reviewer)
    first, second = _token_client(four_eyes, "Skript 1", None), _token_client(four_eyes, "Skript 2", None)
    url = f"/api/v1/contracts/{processed.pk}/approve/"
    assert first.post(url, {}, format="json").status_code in (200, 202)
    processed.refresh_from_db()
    assert processed.status == Status.SECOND_APPROVAL
    answer = second.post(url, {}, format="json")
    assert answer.status_code == 400 and answer.json()["extra"]["code"] == "same_reviewer"
    # a person approves second
    assert publishing.contract_second_approve(contract=processed, user=member(four_eyes, Role.REVIEWER))
