"""The console's pages: who may read and change which map, edits through the matrix and the forms,
preview, publication, export and import."""

from __future__ import annotations

import io
import json
from urllib.parse import parse_qs, urlsplit

import pytest

from contracts.models import Proposal
from policy import selectors
from tests.plugins.tenants import logged_in

pytestmark = pytest.mark.django_db
DOB = 56


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user("platform", "p@example.invalid", "x", is_staff=True)


def test_members_read_their_agencys_map_but_only_admins_change_it(agency, clerk, reviewer, admin_user, outsider):
    base = f"/a/{agency.pk}/map/"
    for user in (clerk, reviewer, admin_user):
        for page in ("", "matrix/", "versions/", "preview/", f"category/{DOB}/", "export.json"):
            assert logged_in(user).get(base + page).status_code == 200, (user, page)
    post = {"category": DOB, "depends_on": 4, "action": "toggle"}
    assert logged_in(clerk).post(base + "dependency/", post).status_code == 403
    assert logged_in(reviewer).post(base + "publish/", {"note": "x"}).status_code == 403
    assert logged_in(outsider).get(base).status_code == 404
    assert logged_in(outsider).post(base + "dependency/", post).status_code == 404
    assert selectors.map_draft(agency=agency) is None


def test_the_agency_preview_reads_only_its_own_agencys_contracts(
    agency, other_agency, processed, outsider, admin_user, preview_worker
):
    own = f"/a/{other_agency.pk}/map/preview/"
    assert f"c{processed.pk}" not in dict(logged_in(outsider).get(own).context["sources"])
    logged_in(outsider).post(
        f"/a/{other_agency.pk}/map/dependency/", {"category": DOB, "depends_on": 4, "action": "toggle"}
    )
    assert logged_in(outsider).post(own, {"source": f"c{processed.pk}"}).status_code == 404  # another agency's id
    assert logged_in(outsider).get(f"/a/{agency.pk}/map/preview/").status_code == 404
    # a preview job is shown only to the agency that started it
    logged_in(admin_user).post(
        f"/a/{agency.pk}/map/dependency/", {"category": DOB, "depends_on": 4, "action": "toggle"}
    )
    started = logged_in(admin_user).post(f"/a/{agency.pk}/map/preview/", {"source": f"c{processed.pk}"})
    job = parse_qs(urlsplit(started["Location"]).query)["job"][0]
    preview_worker()
    assert logged_in(admin_user).get(started["Location"]).context["result"] is not None
    assert logged_in(outsider).get(own, {"source": f"c{processed.pk}", "job": job}).status_code == 404


def test_only_platform_staff_change_the_default(admin_user, staff):
    # the platform console and its preview are staff pages (issue 16); an agency reads the default
    # through its own map page, which shows how it differs
    for path in ("/platform/map/", "/platform/map/versions/", "/platform/map/export.json", "/platform/map/preview/"):
        assert logged_in(admin_user).get(path).status_code == 403, path
        assert logged_in(staff).get(path).status_code == 200, path
    post = {"category": DOB, "depends_on": 4, "action": "toggle"}
    assert logged_in(admin_user).post("/platform/map/dependency/", post).status_code == 403
    assert (
        logged_in(staff).post("/platform/map/dependency/", {**post, "next": "/platform/map/matrix/"}).status_code == 302
    )
    assert selectors.map_draft(agency=None) is not None
    assert logged_in(staff).post("/platform/map/publish/", {"note": "test"}).status_code == 302
    assert selectors.platform_version_current().number == 2


def test_matrix_click_preview_publish_and_a_new_decision(agency, admin_user, processed, contract_pdf, preview_worker):
    client = logged_in(admin_user)
    base = f"/a/{agency.pk}/map/"
    for depends_on in (2, 4):  # two clicks: date of birth no longer depends on the surname or the full name
        response = client.post(
            base + "dependency/",
            {"category": DOB, "depends_on": depends_on, "action": "toggle", "next": base + "matrix/"},
        )
        assert response.status_code == 302 and response["Location"] == base + "matrix/"
    home = client.get(base)
    assert "56 Datum narození již nezávisí na 4" in home.context["draft_diff"]
    started = client.post(base + "preview/", {"source": f"c{processed.pk}"})
    assert started.status_code == 302
    waiting = client.get(started["Location"])
    assert waiting.context["state"].state == "running" and waiting.context["result"] is None
    assert '<meta http-equiv="refresh"' in waiting.content.decode()  # the page polls without script
    preview_worker()
    rows = client.get(started["Location"]).context["result"]["rows"]
    assert [(r.text, r.current, r.draft) for _, r in rows] == [("3. 4. 1975", "redact", "keep")]
    assert client.post(base + "publish/", {"note": "DOB only with a name"}).status_code == 302
    version = selectors.map_version_in_force(agency=agency)
    assert version.agency == agency and version.number == 1 and version.note == "DOB only with a name"
    from contracts.services import uploads

    newer = uploads.contract_upload(agency=agency, user=admin_user, data=contract_pdf, filename="n.pdf")
    from tests.plugins.tenants import run_latest_job

    run_latest_job(newer)
    assert Proposal.objects.get(contract=newer, category=DOB).suggestion == "keep"
    assert Proposal.objects.get(contract=processed, category=DOB).suggestion == "redact"
    versions = client.get(base + "versions/")
    assert "již nezávisí na 4" in versions.content.decode()


def test_export_then_import_through_the_pages(agency, admin_user):
    client = logged_in(admin_user)
    base = f"/a/{agency.pk}/map/"
    exported = client.get(base + "export.json").content
    upload = io.BytesIO(exported)
    upload.name = "map.json"
    assert client.post(base + "import/", {"file": upload}).status_code == 302
    assert json.dumps(selectors.map_draft(agency=agency).data, ensure_ascii=False, indent=2) + "\n" == exported.decode()
    broken = io.BytesIO(b"{not json")
    broken.name = "map.json"
    response = client.post(base + "import/", {"file": broken}, follow=True)
    assert "not valid JSON" in response.content.decode() or "JSON" in response.content.decode()


def test_category_form_changes_the_draft(agency, admin_user):
    client = logged_in(admin_user)
    base = f"/a/{agency.pk}/map/"
    form = {
        "type": "primary",
        "enabled": "on",
        "name_cs": "Datum narození",
        "name_en": "Date of birth",
        "group": "person",
    }
    assert client.post(base + f"category/{DOB}/", form).status_code == 302
    row = next(r for r in selectors.map_draft(agency=agency).data["categories"] if r["id"] == DOB)
    assert row["type"] == "primary"
    assert any("dependencies are ignored" in w for w in client.get(base, HTTP_ACCEPT_LANGUAGE="en").context["warnings"])
    assert client.post(base + f"category/{DOB}/", {**form, "type": "bogus"}, follow=True).status_code == 200
    row = next(r for r in selectors.map_draft(agency=agency).data["categories"] if r["id"] == DOB)
    assert row["type"] == "primary"


def test_review_list_names_categories_in_the_interfaces_language(agency, reviewer, processed):
    url = f"/a/{agency.pk}/contracts/{processed.pk}/review/state.json"
    czech = logged_in(reviewer).get(url, HTTP_ACCEPT_LANGUAGE="cs").json()["proposals"]
    english = logged_in(reviewer).get(url, HTTP_ACCEPT_LANGUAGE="en").json()["proposals"]
    birth_cs = next(p for p in czech if p["category"] == 12)["category_name"]
    birth_en = next(p for p in english if p["category"] == 12)["category_name"]
    assert birth_cs.startswith("Rodné číslo") and birth_en.startswith("Birth number")


def test_an_exported_agency_map_drives_manage_py_redact(agency, admin_user, contract_pdf, tmp_path):
    from django.core.management import call_command

    client = logged_in(admin_user)
    base = f"/a/{agency.pk}/map/"
    for depends_on in (2, 4):
        client.post(base + "dependency/", {"category": DOB, "depends_on": depends_on, "action": "toggle"})
    client.post(base + "publish/", {"note": "x"})
    (tmp_path / "map.json").write_bytes(client.get(base + "export.json").content)
    (tmp_path / "smlouva.pdf").write_bytes(contract_pdf)
    out = io.StringIO()
    call_command(
        "redact",
        str(tmp_path / "smlouva.pdf"),
        out_dir=str(tmp_path / "out"),
        policy=str(tmp_path / "map.json"),
        report=True,
        stdout=out,
    )
    dob = next(line for line in out.getvalue().splitlines() if "[56 " in line)
    assert dob.strip().startswith("keep") and "3. 4. 1975" in dob


def test_platform_preview_runs_on_the_dev_documents_as_a_job(staff, settings, preview_worker):
    from tests.conftest import DATA

    settings.REDACTOR_PREVIEW_DIR = str(DATA / "dev")
    client = logged_in(staff)
    client.post("/platform/map/dependency/", {"category": 38, "depends_on": 1, "action": "toggle"})
    client.post("/platform/map/dependency/", {"category": 38, "depends_on": 2, "action": "toggle"})
    sources = dict(client.get("/platform/map/preview/").context["sources"])
    assert "dkupni_auto_1.pdf" in sources and "dall" in sources

    def run(source):
        started = client.post("/platform/map/preview/", {"source": source})
        assert started.status_code == 302
        preview_worker()
        return client.get(started["Location"]).context["result"]

    one = run("dkupni_auto_1.pdf")
    assert [(r.text, r.current, r.draft) for _, r in one["rows"]] == [("TMBM2GCKP5TAYV1EE", "redact", "keep")]
    everything = run("dall")
    assert everything["many"]
    changed = {document for document, _ in everything["rows"]}
    assert {"kupni_auto_1.pdf", "kupni_auto_2.pdf", "kupni_auto_3.pdf"} <= changed
    assert all(r.current == "redact" and r.draft == "keep" and r.category == "VIN" for _, r in everything["rows"])
    refused = client.post("/platform/map/preview/", {"source": "d../../etc/passwd"})
    assert refused.status_code == 302 and "job=" not in refused["Location"]
    assert client.get("/platform/map/preview/", {"job": "not-a-job"}).status_code == 404


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({"type": "primary", "group": "identifier"}, {12, 13, 14, 23}),
        ({"q": "iban"}, {19}),
        ({"group": "vehicle", "type": "secondary"}, {30, 38}),
        ({"enabled": "false"}, set()),
    ],
)
def test_category_list_filters(agency, clerk, query, expected):
    rows = logged_in(clerk).get(f"/a/{agency.pk}/map/", query).context["rows"]
    assert {r["id"] for r in rows} == expected


def test_a_preview_decides_the_stored_analysis_once_per_draft_on_the_low_queue(
    agency, admin_user, processed, preview_worker
):
    """The preview reads the contract's stored analysis, never its original (here removed from
    the storage: a scan would not be OCR'd again); it waits on the low-priority queue; a second
    click while it runs gets the same job, not another."""
    import django_rq

    client = logged_in(admin_user)
    base = f"/a/{agency.pk}/map/"
    client.post(base + "dependency/", {"category": DOB, "depends_on": 4, "action": "toggle", "next": base})
    client.post(base + "dependency/", {"category": DOB, "depends_on": 2, "action": "toggle", "next": base})
    processed.original.storage.delete(processed.original.name)  # the preview must not need it
    first = client.post(base + "preview/", {"source": f"c{processed.pk}"})
    second = client.post(base + "preview/", {"source": f"c{processed.pk}"})
    assert first["Location"] == second["Location"]
    assert django_rq.get_queue("low").count == 1 and django_rq.get_queue("default").count == 0
    preview_worker()
    result = client.get(first["Location"]).context["result"]
    assert [(r.text, r.current, r.draft) for _, r in result["rows"]] == [("3. 4. 1975", "redact", "keep")]
    assert result["rows"][0][1].category == "Datum narození"  # named in the reader's language
    third = client.post(base + "preview/", {"source": f"c{processed.pk}"})  # finished: a new run
    assert third["Location"] != first["Location"]
