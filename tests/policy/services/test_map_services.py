"""The category map as data: edits change decisions, agencies are isolated, versions are
immutable and recorded per contract, and export/import round-trips exactly."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from contracts.models import Proposal
from contracts.services import uploads
from policy import selectors
from policy.services import maps as services
from redactor.decide.category_map import CategoryMap
from tests.plugins.tenants import run_latest_job

pytestmark = pytest.mark.django_db

DOB = 56  # date of birth: secondary, depends on the surname (2) and the full name (4)


def _dob_suggestion(agency, user, pdf) -> str:
    contract = uploads.contract_upload(agency=agency, user=user, data=pdf, filename="s.pdf")
    run_latest_job(contract)
    return Proposal.objects.get(contract=contract, category=DOB).suggestion


def _publish(agency, user, *edits) -> int:
    draft = services.map_draft_open(agency=agency, user=user)
    for depends_on, scopes in edits:
        draft = services.map_dependency_set(draft=draft, user=user, category=DOB, depends_on=depends_on, scopes=scopes)
    return services.map_publish(agency=agency, user=user, note="test").number


def test_a_secondary_identifier_flips_when_its_dependency_is_removed_and_added(agency, admin_user, contract_pdf):
    assert _dob_suggestion(agency, admin_user, contract_pdf) == "redact"  # platform default: linked to Jan Novák
    assert _publish(agency, admin_user, (2, None), (4, None)) == 1
    assert _dob_suggestion(agency, admin_user, contract_pdf) == "keep"
    reason = Proposal.objects.filter(category=DOB).order_by("-id").first().reason
    assert "not linked" in reason
    assert _publish(agency, admin_user, (4, ["party", "sentence"])) == 2
    assert _dob_suggestion(agency, admin_user, contract_pdf) == "redact"


def test_an_agency_override_does_not_affect_another_agency(agency, admin_user, other_agency, outsider, contract_pdf):
    _publish(agency, admin_user, (2, None), (4, None))
    assert _dob_suggestion(agency, admin_user, contract_pdf) == "keep"
    assert _dob_suggestion(other_agency, outsider, contract_pdf) == "redact"
    assert selectors.map_version_in_force(agency=other_agency) == selectors.platform_version_current()


def test_a_contract_keeps_the_version_its_proposals_came_from(agency, admin_user, processed, contract_pdf):
    v1 = selectors.platform_version_current()
    assert processed.map_version == v1 and processed.category_map.endswith("v1")
    before = list(Proposal.objects.filter(contract=processed).values_list("id", "suggestion", "reason"))
    _publish(agency, admin_user, (2, None), (4, None))
    processed.refresh_from_db()
    assert processed.map_version == v1
    assert list(Proposal.objects.filter(contract=processed).values_list("id", "suggestion", "reason")) == before
    newer = uploads.contract_upload(agency=agency, user=admin_user, data=contract_pdf, filename="n.pdf")
    run_latest_job(newer)
    assert newer.map_version.agency == agency and newer.map_version.number == 1


def test_published_versions_are_immutable_and_numbered(agency, admin_user):
    first = _publish(agency, admin_user, (2, None))
    data = selectors.map_version_get(agency=agency, number=first).data
    _publish(agency, admin_user, (4, None))
    assert selectors.map_version_get(agency=agency, number=first).data == data
    assert [v.number for v in selectors.map_versions(agency=agency)] == [2, 1]
    changes = [c.action for c in selectors.map_changes(agency=agency)]
    assert changes.count("published") == 2 and "draft_edited" in changes
    with pytest.raises(ValidationError):
        services.map_publish(agency=agency, user=admin_user)  # no draft left


def test_export_import_round_trips_exactly(agency, admin_user):
    exported = json.dumps(selectors.platform_version_current().data, ensure_ascii=False, indent=2)
    services.map_import(agency=agency, user=admin_user, data=json.loads(exported))
    assert json.dumps(selectors.map_draft(agency=agency).data, ensure_ascii=False, indent=2) == exported
    assert CategoryMap.from_dict(json.loads(exported)).to_dict() == json.loads(exported)
    version = services.map_publish(agency=agency, user=admin_user)
    assert {k: v for k, v in version.data.items() if k not in ("name", "version")} == {
        k: v for k, v in json.loads(exported).items() if k not in ("name", "version")
    }


@pytest.mark.parametrize(
    ("category", "depends_on", "scopes", "message"),
    [
        (DOB, 999, ["sentence"], "no category 999"),
        (999, 4, ["sentence"], "no category 999"),
        (DOB, DOB, ["sentence"], "itself"),
        (DOB, 4, ["paragraph-ish"], "scopes"),
        (DOB, 4, [], "scopes"),
    ],
)
def test_invalid_dependencies_are_refused_with_an_explanation(
    agency, admin_user, category, depends_on, scopes, message
):
    draft = services.map_draft_open(agency=agency, user=admin_user)
    before = draft.data
    with translation.override("en"), pytest.raises(ValidationError) as err:
        services.map_dependency_set(
            draft=draft, user=admin_user, category=category, depends_on=depends_on, scopes=scopes
        )
    assert message in " ".join(err.value.messages)
    draft.refresh_from_db()
    assert draft.data == before


def test_import_of_a_broken_map_changes_nothing(agency, admin_user):
    data = json.loads(json.dumps(selectors.platform_version_current().data))
    data["categories"][0]["depends_on"].append({"category": 777, "scopes": ["sentence"]})
    with translation.override("en"), pytest.raises(ValidationError) as err:
        services.map_import(agency=agency, user=admin_user, data=data)
    assert "unknown category 777" in " ".join(err.value.messages)
    assert selectors.map_draft(agency=agency) is None


def test_diff_and_warnings_explain_changes(agency, admin_user):
    draft = services.map_draft_open(agency=agency, user=admin_user)
    draft = services.map_dependency_set(draft=draft, user=admin_user, category=DOB, depends_on=2, scopes=None)
    draft = services.map_dependency_set(draft=draft, user=admin_user, category=DOB, depends_on=4, scopes=None)
    draft = services.map_dependency_set(draft=draft, user=admin_user, category=DOB, depends_on=10, scopes=None)
    with translation.override("cs"):  # the admin's language, category names and codes in words
        lines = services.map_diff(selectors.platform_version_current().data, draft.data)
        assert "56 Datum narození již nezávisí na 4" in lines
        warnings = services.map_warnings(CategoryMap.from_dict(draft.data))
        assert any(w.startswith("56 ") and "„ponechat“" in w for w in warnings)
    with translation.override("en"):
        assert "56 Date of birth no longer depends on 4" in services.map_diff(
            selectors.platform_version_current().data, draft.data
        )
