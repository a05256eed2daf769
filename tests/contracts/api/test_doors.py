"""The web UI and the REST API are two doors to the same services: for the same user (or a
token of the same role) and the same state they give the same answer, per operation family
(issue 15). Each case is asked at both doors, from the same starting state, and the answers are
reduced to one verdict: done, refused for the role, refused (the state or the input does not
allow it), or not found. Webhooks have no API door; their services' role check is tested in
tests/contracts/api/test_webhooks.py."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from accounts.models import Role
from contracts.models import Contract, Run, Status
from tests.plugins.tenants import logged_in
from tests.plugins.tokens import api, make_token


def _web(response) -> str:
    if response.status_code in (403, 404):
        return {403: "role", 404: "not found"}[response.status_code]
    if response.status_code == 400:  # a form with errors, the review page's JSON endpoints
        return "refused"
    errors = [m for m in get_messages(response.wsgi_request) if m.level_tag == "error"]
    return "refused" if errors else "done"


def _api(response) -> str:
    return {403: "role", 404: "not found", 400: "refused", 409: "refused"}.get(response.status_code, "done")


def _failed_publishing(contract: Contract) -> None:
    """The state after a publishing job died: contract failed, its latest run a failed publishing."""
    Run.objects.create(
        agency=contract.agency,
        contract=contract,
        kind=Run.Kind.PUBLISHING,
        state=Run.State.FAILED,
        finished_at=timezone.now(),
        error="worker killed",
    )
    Contract.objects.filter(pk=contract.pk).update(status=Status.FAILED, error_message="worker killed")


def _failed(contract: Contract) -> None:
    Contract.objects.filter(pk=contract.pk).update(status=Status.FAILED)


def _web_url(name: str, contract: Contract, agency_id: int) -> str:
    return reverse(f"contracts:{name}", kwargs={"agency_id": agency_id, "contract_id": contract.pk})


def _api_url(name: str, contract: Contract) -> str:
    return reverse(f"api:{name}", kwargs={"contract_id": contract.pk})


@dataclass
class Case:
    """One operation asked at both doors: ``web(client, contract, agency_id)`` and
    ``api(client, contract)`` after ``prepare(contract)``, by ``who`` (a fixture) at the web and a
    token of ``role`` in the same agency at the API; both must answer ``expected``."""

    who: str
    role: Role
    web: Callable
    api: Callable
    expected: str
    prepare: Callable | None = None


def _retry_web(c, contract, agency_id):
    return c.post(_web_url("retry", contract, agency_id))


def _retry_api(c, contract):
    return c.post(_api_url("retry", contract))


def _approve_web(c, contract, agency_id):
    return c.post(_web_url("approve", contract, agency_id))


def _approve_api(c, contract):
    return c.post(_api_url("approve", contract), {}, format="json")


def _decide_web(c, contract, agency_id):
    body = {"ids": [contract.proposals.first().pk], "decision": "accept"}
    return c.post(_web_url("review_decide", contract, agency_id), body, content_type="application/json")


def _decide_api(c, contract):
    body = {"decisions": [{"proposal": contract.proposals.first().pk, "decision": "accept"}]}
    return c.post(_api_url("decisions", contract), body, format="json")


#: No proposal has this id: a bulk decision naming it beside a real one decides nothing at either door.
NO_SUCH_PROPOSAL = 10**9


def _decide_unknown_web(c, contract, agency_id):
    body = {"ids": [contract.proposals.first().pk, NO_SUCH_PROPOSAL], "decision": "accept"}
    return c.post(_web_url("review_decide", contract, agency_id), body, content_type="application/json")


def _decide_unknown_api(c, contract):
    ids = [contract.proposals.first().pk, NO_SUCH_PROPOSAL]
    body = {"decisions": [{"proposal": i, "decision": "accept"} for i in ids]}
    return c.post(_api_url("decisions", contract), body, format="json")


NOT_A_PDF = b"<html><body>%PDF-1.7 is not at the start</body></html>"


def _upload_web(c, contract, agency_id):
    file = SimpleUploadedFile("contract.pdf", NOT_A_PDF, content_type="application/pdf")
    return c.post(reverse("contracts:upload", kwargs={"agency_id": agency_id}), {"title": "x", "file": file})


def _upload_api(c, contract):
    file = SimpleUploadedFile("contract.pdf", NOT_A_PDF, content_type="application/pdf")
    return c.post(reverse("api:contracts"), {"title": "x", "file": file}, format="multipart")


def _delete_web(c, contract, agency_id):
    return c.post(_web_url("delete", contract, agency_id))


def _delete_api(c, contract):
    return c.delete(_api_url("contract", contract))


CASES = {
    # uploads
    "upload, not a PDF": Case("clerk", Role.CLERK, _upload_web, _upload_api, "refused"),
    # runs: publishing again publishes, so it is the reviewer's, whichever door asks
    "retry publishing, clerk": Case("clerk", Role.CLERK, _retry_web, _retry_api, "role", _failed_publishing),
    "retry publishing, reviewer": Case("reviewer", Role.REVIEWER, _retry_web, _retry_api, "done", _failed_publishing),
    "retry processing, clerk": Case("clerk", Role.CLERK, _retry_web, _retry_api, "done", _failed),
    "retry, nothing failed": Case("clerk", Role.CLERK, _retry_web, _retry_api, "refused"),
    # reviewing
    "decide, clerk": Case("clerk", Role.CLERK, _decide_web, _decide_api, "role"),
    "decide, reviewer": Case("reviewer", Role.REVIEWER, _decide_web, _decide_api, "done"),
    "decide, an unknown proposal": Case("reviewer", Role.REVIEWER, _decide_unknown_web, _decide_unknown_api, "refused"),
    # publishing
    "approve, clerk": Case("clerk", Role.CLERK, _approve_web, _approve_api, "role"),
    "approve, not in review": Case("reviewer", Role.REVIEWER, _approve_web, _approve_api, "refused", _failed),
    "download, not published": Case(
        "clerk",
        Role.CLERK,
        lambda c, contract, agency_id: c.get(_web_url("download", contract, agency_id)),
        lambda c, contract: c.get(_api_url("download", contract)),
        "refused",
    ),
    "download the text, not published": Case(
        "clerk",
        Role.CLERK,
        lambda c, contract, agency_id: c.get(_web_url("download_text", contract, agency_id)),
        lambda c, contract: c.get(_api_url("download_text", contract)),
        "refused",
    ),
    "delete, clerk": Case("clerk", Role.CLERK, _delete_web, _delete_api, "role"),
    "delete, another agency": Case("outsider", Role.ADMIN, _delete_web, _delete_api, "not found"),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_both_doors_give_the_same_answer(processed, request, case):
    user = request.getfixturevalue(case.who)
    agency = user.memberships.get().agency
    before = Contract.objects.filter(pk=processed.pk).values().get()
    contracts_before = Contract.objects.count()
    answers = []
    for door in ("web", "api"):
        Contract.objects.filter(pk=processed.pk).update(**{k: v for k, v in before.items() if k != "id"})
        if case.prepare:
            case.prepare(processed)
        if door == "web":
            answers.append(_web(case.web(logged_in(user), processed, agency.pk)))
        else:
            answers.append(_api(case.api(api(make_token(agency, case.role)[1]), processed)))
    assert answers == [case.expected, case.expected]
    processed.refresh_from_db()
    if case.expected != "done":  # a refusal changes nothing
        assert Contract.objects.count() == contracts_before
        assert not processed.proposals.exclude(decision="pending").exists()
        assert processed.status == (Status.FAILED if case.prepare else Status.NEEDS_REVIEW)
