"""The agency-rules console and the review page's learning endpoints: who reads and changes rules,
provenance, edit and disable, CSV through the pages, one-click decisions with undo over HTTP."""

from __future__ import annotations

import io

import pytest
from django.utils import translation

from contracts.models import Proposal
from policy.models import AgencyRule
from policy.services import rules as rule_services
from tests.plugins.tenants import logged_in
from tests.policy.conftest import process

pytestmark = pytest.mark.django_db


@pytest.fixture
def taught(agency, reviewer, inflected_pdf):
    """A contract on which the reviewer kept the suspicious "Xaver Qwertz" through the review page."""
    contract = process(agency, reviewer, inflected_pdf)
    item = Proposal.objects.get(contract=contract, text="Xaver Qwertz")
    url = f"/a/{agency.pk}/contracts/{contract.pk}/review/decide/"
    response = logged_in(reviewer).post(
        url, {"ids": [item.pk], "decision": "reject", "same_cluster": True}, content_type="application/json"
    )
    assert response.status_code == 200
    return contract, response.json()


def test_the_review_page_reports_the_action_and_undoes_it(agency, reviewer, taught):
    contract, data = taught
    assert data["affected"] and data["forms"] == ["Xaver Qwertz"]
    assert [r["pattern"] for r in data["rule_info"]] == ["Xaver Qwertz"] and data["rule_info"][0]["decisions"] == 1
    url = f"/a/{agency.pk}/contracts/{contract.pk}/review/undo/"
    undo = logged_in(reviewer).post(url, {"batch": data["batch"]}, content_type="application/json")
    assert undo.status_code == 200 and undo.json()["restored"] == data["affected"]
    assert Proposal.objects.get(contract=contract, text="Xaver Qwertz").decision == "pending"
    assert not AgencyRule.objects.filter(agency=agency).exists()
    bad = logged_in(reviewer).post(
        f"/a/{agency.pk}/contracts/{contract.pk}/review/undo/", {"batch": "nonsense"}, content_type="application/json"
    )
    assert bad.status_code == 400


def test_members_read_rules_with_their_provenance_only_admins_change_them(
    agency, clerk, reviewer, admin_user, outsider, taught
):
    contract, _ = taught
    rule = AgencyRule.objects.get(agency=agency)
    base = f"/a/{agency.pk}/rules/"
    for user in (clerk, reviewer, admin_user):
        listing = logged_in(user).get(base)
        assert listing.status_code == 200
        assert rule in listing.context["rules"]
        page = logged_in(user).get(f"{base}{rule.pk}/")
        assert page.status_code == 200 and contract.title in page.content.decode()
        assert [v.contract_id for v in page.context["votes"]] == [contract.pk]
    edit = {"kind": "phrase", "pattern": "Xaver Qwertz", "keep_votes": 1, "redact_votes": 0}
    assert logged_in(reviewer).post(f"{base}{rule.pk}/", edit).status_code == 403
    assert logged_in(clerk).post(f"{base}{rule.pk}/delete/").status_code == 403
    assert logged_in(outsider).get(f"{base}{rule.pk}/").status_code == 404
    assert logged_in(outsider).post(f"{base}{rule.pk}/delete/").status_code == 404
    assert rule not in logged_in(outsider).get(f"/a/{outsider.memberships.get().agency_id}/rules/").context["rules"]
    assert AgencyRule.objects.filter(pk=rule.pk, enabled=True).exists()


def test_an_admin_edits_and_disables_a_rule(agency, admin_user, taught):
    rule = AgencyRule.objects.get(agency=agency)
    client = logged_in(admin_user)
    edit = {"kind": "person", "pattern": "Xaver Qwertz", "category": "4", "keep_votes": "0", "redact_votes": "2"}
    assert client.post(f"/a/{agency.pk}/rules/{rule.pk}/", edit).status_code == 302  # "enabled" unticked
    rule.refresh_from_db()
    assert (rule.kind, rule.action, rule.enabled, rule.category, rule.updated_by) == (
        "person",
        "redact",
        False,
        4,
        admin_user,
    )
    assert rule in client.get(f"/a/{agency.pk}/rules/", {"enabled": "false", "action": "redact"}).context["rules"]
    assert rule not in client.get(f"/a/{agency.pk}/rules/", {"action": "keep"}).context["rules"]


def test_csv_through_the_pages(agency, other_agency, admin_user, outsider, taught):
    exported = logged_in(admin_user).get(f"/a/{agency.pk}/rules/export.csv")
    assert exported.status_code == 200 and exported["Content-Type"].startswith("text/csv")
    body = b"".join(exported.streaming_content) if exported.streaming else exported.content
    upload = io.BytesIO(body)
    upload.name = "rules.csv"
    with translation.override("en"):
        response = logged_in(outsider).post(
            f"/a/{other_agency.pk}/rules/import/", {"file": upload}, HTTP_ACCEPT_LANGUAGE="en", follow=True
        )
    assert "Imported: 1 new rules, 0 updated." in response.content.decode()
    assert rule_services.rules_export_csv(agency=other_agency) == body.decode()
    broken = io.BytesIO(b"kind;pattern\n")
    broken.name = "broken.csv"
    response = logged_in(outsider).post(
        f"/a/{other_agency.pk}/rules/import/", {"file": broken}, HTTP_ACCEPT_LANGUAGE="en", follow=True
    )
    assert "The first line must be the header" in response.content.decode()
