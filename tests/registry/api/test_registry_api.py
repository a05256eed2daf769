"""The registry of contracts at the API: the metadata in the contract resource, corrections by
PUT, POST …/register/ with its idempotency, the package, and the roles and tenants."""

from __future__ import annotations

import io
import zipfile

from redactor.metadata import NOT_PUBLIC
from registry import isrs
from registry.models import RegistrySubmission
from tests.plugins.tokens import api


def _base(contract) -> str:
    return f"/api/v1/contracts/{contract.pk}/"


def test_the_contract_resource_carries_the_registry_metadata(published, clerk_token):
    body = api(clerk_token).get(_base(published)).json()
    meta = body["registry"]["metadata"]
    assert meta["number"] == "2026/15" and meta["value_without_vat"] == "120000"
    assert [p["name"] for p in meta["parties"]] == [NOT_PUBLIC]
    assert body["registry"]["record_id"] is None and body["links"]["register"].endswith("/register/")


def test_put_corrects_and_get_names_what_stops_sending(published, clerk_token):
    client = api(clerk_token)
    current = client.get(_base(published) + "registry/").json()
    assert current["problems"] and current["sources"]["number"]["page"] == 1
    current.update(date_concluded="2026-03-02", signed_by="Ing. Petr Starosta, starosta")
    response = client.put(_base(published) + "registry/", current, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["signed_by"] == "Ing. Petr Starosta, starosta"
    assert response.json()["sources"]["signed_by"]["note"] == "edited"
    bad = client.put(_base(published) + "registry/", {**current, "parties": [{"ico": "123"}]}, format="json")
    assert bad.status_code == 400 and "parties" in bad.json()["extra"]["fields"]


def test_register_is_for_reviewers_and_idempotent(published, clerk_token, reviewer_token, agency, admin_user):
    from registry import services as registry

    registry.registry_settings_update(agency=agency, user=admin_user, channel="package", environment="test")
    client = api(reviewer_token)
    current = client.get(_base(published) + "registry/").json()
    client.put(_base(published) + "registry/", {**current, "date_concluded": "2026-03-02"}, format="json")
    assert api(clerk_token).post(_base(published) + "register/", {}, format="json").status_code == 403
    first = client.post(_base(published) + "register/", {"operation": "zverejneni"}, format="json")
    assert first.status_code == 202 and first.json()["state"] == "prepared"
    again = client.post(_base(published) + "register/", {}, format="json")
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    assert RegistrySubmission.objects.filter(contract=published).count() == 1
    package = client.get(_base(published) + "registry/package/")
    assert package.status_code == 200 and package["Content-Type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(b"".join(package.streaming_content))) as zf:
        assert isrs.validate(zf.read("zverejneni.xml")) == "zverejneni"


def test_incomplete_metadata_are_refused_with_a_reason(published, reviewer_token):
    response = api(reviewer_token).post(_base(published) + "register/", {}, format="json")
    assert response.status_code == 400 and response.json()["extra"]["code"] == "incomplete"


def test_a_correction_before_registration_conflicts(published, reviewer_token):
    response = api(reviewer_token).post(
        _base(published) + "register/", {"operation": "modifikace", "reason": "oprava"}, format="json"
    )
    assert response.status_code == 409 and response.json()["extra"]["code"] == "wrong_status"


def test_another_agency_gets_404(published, outsider_token):
    client = api(outsider_token)
    assert client.get(_base(published) + "registry/").status_code == 404
    assert client.post(_base(published) + "register/", {}, format="json").status_code == 404
