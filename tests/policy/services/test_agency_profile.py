"""The agency profile (issue 31): versions saved by the agency's admins on the page or from a CSV,
read by every member, closed to another agency, and used when the agency's contracts are processed."""

from __future__ import annotations

import io

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from accounts import selectors as account_selectors
from accounts import services as account_services
from accounts.models import ProfileVersion
from contracts.models import Proposal
from policy.selectors import agency_profile
from policy.services import profiles as redactor_services
from tests.pdfs import pdf_from_paragraphs
from tests.plugins.tenants import logged_in
from tests.policy.conftest import process

pytestmark = pytest.mark.django_db

PROFILE = {
    "former_names": ["Místní národní výbor Horní Lhota"],
    "addresses": ["Náměstí 1, 679 01 Horní Lhota", "Školní 12, 679 01 Horní Lhota"],
    "accounts": ["19-2000145399/0800"],
    "phones": ["516 123 456"],
    "email_domains": ["@hornilhota.cz"],
    "officials": ["Ing. Alena Veselá; místostarostka"],
}
#: A contract in which the agency's official is named without any function and its other office
#: address stands beside a person: both are the agency's (profile), the seller's data are not.
CONTRACT = [
    "Kupní smlouva č. 2026/31",
    "Prodávající: Jan Novák, nar. 3. 4. 1975, bytem Lipová 12, 602 00 Brno",
    "Kupující: Obec Horní Lhota, IČO: 00000001, se sídlem Náměstí 1, 679 01 Horní Lhota",
    "Zboží převezme Alena Veselá ve skladu Školní 12, 679 01 Horní Lhota.",
]


def test_saving_makes_versions_with_what_changed_and_only_admins_may(agency, admin_user, reviewer):
    first = account_services.profile_save(agency=agency, user=admin_user, data=PROFILE)
    assert first.number == 1 and first.created_by == admin_user
    assert first.data["email_domains"] == ["hornilhota.cz"]
    assert first.data["accounts"] == ["19-2000145399/0800"] and first.data["phones"] == ["+420 516 123 456"]
    assert first.data["officials"] == [{"name": "Ing. Alena Veselá", "function": "místostarostka"}]
    assert account_services.profile_save(agency=agency, user=admin_user, data=PROFILE) is None  # nothing changed
    second = account_services.profile_save(
        agency=agency, user=admin_user, data={**PROFILE, "phones": ["516 123 456", "+420 516 123 457"]}
    )
    assert second.number == 2
    assert second.changes == [{"field": "phones", "added": ["+420 516 123 457"], "removed": []}]
    assert account_selectors.profile_in_force(agency=agency) == second
    with pytest.raises(PermissionDenied):
        account_services.profile_save(agency=agency, user=reviewer, data=PROFILE)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("accounts", "1234567890/0800"),  # check digits
        ("phones", "12"),
        ("addresses", "Náměstí"),  # no house number
        ("email_domains", "not a domain"),
        ("officials", "Veselá; starostka"),  # no given name
    ],
)
def test_a_bad_entry_is_refused_with_a_sentence_and_nothing_saved(agency, admin_user, field, value):
    with pytest.raises(ValidationError) as refused:
        account_services.profile_save(agency=agency, user=admin_user, data={field: [value]})
    assert value.split(";")[0][:20] in " ".join(refused.value.messages)
    assert not ProfileVersion.objects.filter(agency=agency).exists()


def test_csv_export_and_import_round_trip_and_a_bad_line_changes_nothing(agency, admin_user):
    account_services.profile_save(agency=agency, user=admin_user, data=PROFILE)
    exported = redactor_services.profile_export_csv(data=account_selectors.profile_in_force(agency=agency).data)
    assert exported.splitlines()[0] == "field,value,function"
    assert "official,Ing. Alena Veselá,místostarostka" in exported
    assert account_services.profile_import_csv(agency=agency, user=admin_user, data=exported.encode()) is None
    semicolons = "field;value;function\nofficial;Mgr. Petr Malý;starosta\naddress;Náměstí 1, 679 01 Horní Lhota;\n"
    version = account_services.profile_import_csv(agency=agency, user=admin_user, data=semicolons.encode("utf-8-sig"))
    assert version.number == 2 and version.source == ProfileVersion.Source.CSV
    assert version.data["officials"] == [{"name": "Mgr. Petr Malý", "function": "starosta"}]
    with pytest.raises(ValidationError, match=r"(Line|Řádek) 3"):
        account_services.profile_import_csv(
            agency=agency, user=admin_user, data=b"field,value,function\nphone,516 123 456,\nplanet,Mars,\n"
        )
    assert account_selectors.profile_in_force(agency=agency) == version


def test_the_page_edits_for_admins_reads_for_members_and_is_closed_to_others(agency, admin_user, clerk, outsider):
    url = f"/a/{agency.pk}/profile/"
    text = {k: "\n".join(v) for k, v in PROFILE.items()}
    saved = logged_in(admin_user).post(url, text)
    assert saved.status_code == 302
    assert account_selectors.profile_in_force(agency=agency).data["officials"][0]["function"] == "místostarostka"
    page = logged_in(clerk).get(url)
    assert page.status_code == 200 and "Ing. Alena Veselá" in page.content.decode()
    assert 'id="profile-form"' not in page.content.decode()  # a clerk reads, does not edit
    assert logged_in(clerk).post(url, text).status_code == 403
    assert logged_in(outsider).get(url).status_code == 404
    assert logged_in(outsider).get(f"{url}export.csv").status_code == 404
    upload = io.BytesIO(b"field,value,function\nphone,516 999 888,\n")
    upload.name = "profile.csv"
    assert logged_in(outsider).post(f"{url}import/", {"file": upload}).status_code == 404
    upload.seek(0)
    assert logged_in(admin_user).post(f"{url}import/", {"file": upload}).status_code == 302
    assert account_selectors.profile_in_force(agency=agency).data["phones"] == ["+420 516 999 888"]


def test_the_engine_gets_the_agencys_name_ico_data_box_and_the_version_in_force(agency, admin_user):
    account_services.profile_save(agency=agency, user=admin_user, data=PROFILE)
    profile = agency_profile(agency=agency)
    assert profile.names == (agency.name, "Místní národní výbor Horní Lhota") and profile.ico == agency.ico
    assert profile.officials[0].name == "Ing. Alena Veselá"


def test_processing_keeps_the_agencys_official_and_office_and_records_the_version(agency, admin_user, reviewer):
    before = process(agency, reviewer, pdf_from_paragraphs(CONTRACT), title="bez profilu")
    found = {p.text: p.suggestion for p in Proposal.objects.filter(contract=before)}
    assert found["Alena Veselá"] == "redact" and before.profile_version is None

    version = account_services.profile_save(agency=agency, user=admin_user, data=PROFILE)
    after = process(agency, reviewer, pdf_from_paragraphs(CONTRACT), title="s profilem")
    after.refresh_from_db()
    proposals = {p.text: p for p in Proposal.objects.filter(contract=after)}
    assert proposals["Alena Veselá"].suggestion == "keep"
    assert proposals["Školní 12, 679 01 Horní Lhota"].suggestion == "keep"
    assert proposals["Školní 12, 679 01 Horní Lhota"].reason_code == "agency_own"
    assert proposals["Jan Novák"].suggestion == "redact" and proposals["Lipová 12, 602 00 Brno"].suggestion == "redact"
    assert after.profile_version == version
