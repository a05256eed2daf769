"""Publishing in the registry of contracts, end to end against the project's data-box test server
over real HTTP (tests.databox_server; the real ISDS is not reachable from here): metadata
pre-filled by processing, sent, the reply read by the periodic job, *registered* with every
file's SHA-256 checked; refusals, idempotent sends, corrections and withdrawal."""

from __future__ import annotations

import contextlib
import io
import socket
import zipfile
from datetime import date

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone, translation

from accounts import secrets
from contracts.models import AuditEvent, Contract, Status, WebhookDelivery, WebhookEvent
from contracts.services.webhooks import webhook_create
from redactor.metadata import NOT_PUBLIC, ContractMetadata, RegistryParty
from registry import isrs
from registry import services as registry
from registry.models import RegistryRecord, RegistrySettings, RegistrySubmission
from tests.plugins.tenants import logged_in
from tests.registry.conftest import AGENCY_BOX


@contextlib.contextmanager
def socket_closed():
    """The URL of a loopback port nothing listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    yield f"http://127.0.0.1:{port}/DS/"


State = RegistrySubmission.State


def _dated(contract, user, **changes):
    meta = ContractMetadata.from_dict(contract.registry_record.metadata)
    meta.date_concluded = date(2026, 3, 2)
    for key, value in changes.items():
        setattr(meta, key, value)
    registry.registry_metadata_update(contract=contract, user=user, metadata=meta)
    contract.refresh_from_db()
    return meta


def _send(contract, user, **kw) -> RegistrySubmission:
    submission = registry.registry_submit(contract=contract, user=user, **kw)
    registry.registry_submission_send(submission_id=submission.pk)
    submission.refresh_from_db()
    return submission


def test_processing_prefills_the_metadata_without_the_private_seller(processed):
    meta = ContractMetadata.from_dict(processed.registry_record.metadata)
    assert meta.number == "2026/15"
    assert meta.subject.startswith("Kupní smlouva")
    assert str(meta.value_without_vat) == "120000"
    assert [p.name for p in meta.parties] == [NOT_PUBLIC]  # Jan Novák sells as a private person
    assert meta.sources["value_without_vat"].page == 1 and "120 000 Kč" in meta.sources["value_without_vat"].text
    assert "Novák" not in str(processed.registry_record.metadata) and "Lipová" not in str(
        processed.registry_record.metadata
    )


def test_the_agency_settings_fill_the_publishing_body(processed, databox):
    body = registry.registry_metadata(processed).publisher
    assert (body.data_box, body.name, body.unit) == (AGENCY_BOX, "Obec Horní Lhota", "odbor správy majetku")
    assert body.address == "Náměstí 1, 679 01 Horní Lhota"


def test_the_password_is_stored_encrypted(databox, agency):
    regs = RegistrySettings.objects.get(agency=agency)
    assert "heslo-1" not in regs.password_sealed and secrets.unseal(regs.password_sealed) == "heslo-1"


def test_sent_replied_registered_and_every_hash_checked(published, reviewer, databox, agency, admin_user):
    webhook_create(agency=agency, url="https://dms.example.cz/hook", events=["contract.registered"],
                   created_by=admin_user)  # fmt: skip
    _dated(published, reviewer)
    submission = _send(published, reviewer)
    assert submission.state == State.SENT and submission.message_id
    message = databox.messages[submission.message_id]
    names = [f[0] for f in message.files]
    assert names[0] == "zverejneni.xml" and message.recipient == databox.registry_box
    pdf_name, text_name = names[1:]
    assert pdf_name.endswith(".pdf") and text_name.endswith(".txt")
    xml = message.files[0][3]
    assert isrs.validate(xml) == "zverejneni"
    assert f"<nazevSouboru>{pdf_name}</nazevSouboru>".encode() in xml
    assert b"Nov\xc3\xa1k" not in xml  # no private person's name in the public metadata
    with published.redacted.open("rb") as fh:
        assert message.files[1][3] == fh.read()

    assert registry.registry_replies_fetch(agency=agency) == 1
    published.refresh_from_db()
    submission.refresh_from_db()
    assert published.status == Status.REGISTERED
    record = databox.records[published.registry_record.record_id]
    assert published.registry_record.link.endswith(str(record.versions[-1])) and published.registry_record.registered_at
    assert submission.state == State.ACCEPTED and submission.error_code == ""
    assert {f["name"]: f["sha256"] for f in submission.reply["files"]} == {
        f["name"]: f["sha256"] for f in submission.files
    }
    assert AuditEvent.objects.filter(contract=published, action="registered", detail__sha256_checked=2).exists()
    delivery = WebhookDelivery.objects.get(contract=published, event=WebhookEvent.REGISTERED)
    stored = published.registry_record
    assert delivery.payload["contract"]["registry"] == {"record_id": stored.record_id, "link": stored.link}
    # the reply was marked read and is not applied twice
    assert registry.registry_replies_fetch(agency=agency) == 0


def test_the_same_submission_is_not_sent_twice(published, reviewer, databox, agency):
    _dated(published, reviewer)
    first = _send(published, reviewer)
    again = registry.registry_submit(contract=published, user=reviewer)
    registry.registry_submission_send(submission_id=again.pk)  # a job that runs twice
    assert again.pk == first.pk
    sent = [m for m in databox.messages.values() if m.recipient == databox.registry_box]
    assert len(sent) == 1
    # other metadata after sending: a new publication is refused, a correction is the way
    _dated(published, reviewer, subject="Kupní smlouva – jiný předmět")
    with pytest.raises(ValidationError) as caught:
        registry.registry_submit(contract=published, user=reviewer)
    assert caught.value.code == "already_sent"


def test_a_refusal_shows_the_registrys_error_in_the_clerks_words(published, reviewer, databox, agency):
    # the agency's settings name another body's data box: the registry finds no mandate (error 3)
    agency.data_box_id = "zzz9zzz"
    agency.save(update_fields=["data_box_id"])
    databox.add_box("zzz9zzz", "someone-else", "x")
    _dated(published, reviewer)
    submission = _send(published, reviewer)
    with translation.override("en"):
        assert registry.registry_replies_fetch(agency=agency) == 1
    submission.refresh_from_db()
    published.refresh_from_db()
    assert (submission.state, submission.error_code) == (State.REJECTED, "3")
    assert "mandate" in submission.error_text and "data box ID" in submission.error_text
    assert published.status == Status.PUBLISHED and "refused" in published.error_message


def test_a_failed_send_is_kept_and_retried(published, reviewer, databox, agency, admin_user):
    registry.registry_settings_update(agency=agency, user=admin_user, channel="databox", environment="test",
                                      login="horni-lhota", password="wrong")  # fmt: skip
    _dated(published, reviewer)
    with translation.override("en"):
        submission = _send(published, reviewer)
    assert submission.state == State.FAILED and submission.error_code == "login"
    assert "nothing reached the registry" in submission.error_text
    assert "check the login" in submission.error_text and "HTTP" not in submission.error_text
    registry.registry_settings_update(agency=agency, user=admin_user, channel="databox", environment="test",
                                      login="horni-lhota", password="heslo-1")  # fmt: skip
    retried = _send(published, reviewer)
    assert retried.pk == submission.pk and retried.state == State.SENT


def test_metadata_must_be_complete_and_must_not_carry_a_redacted_value(published, reviewer, databox):
    with pytest.raises(ValidationError) as caught, translation.override("en"):  # no signature date here
        registry.registry_submit(contract=published, user=reviewer)
    assert caught.value.code == "incomplete" and "date of conclusion" in caught.value.messages[0]
    _dated(published, reviewer, parties=[RegistryParty("Jan Novák")])
    with pytest.raises(ValidationError) as caught, translation.override("en"):
        registry.registry_submit(contract=published, user=reviewer)
    assert "Party 1: name" in caught.value.messages[0] and "Novák" not in caught.value.messages[0]


def test_only_reviewers_send_and_only_members_edit(published, clerk, outsider, reviewer, databox):
    _dated(published, reviewer)
    with pytest.raises(PermissionDenied):
        registry.registry_submit(contract=published, user=clerk)
    with pytest.raises(PermissionDenied):
        registry.registry_submit(contract=published, user=outsider)
    with pytest.raises(PermissionDenied):
        registry.registry_metadata_update(contract=published, user=outsider, metadata=ContractMetadata())


def test_an_unpublished_contract_is_not_sent(processed, reviewer, databox):
    with pytest.raises(ValidationError) as caught:
        registry.registry_submit(contract=processed, user=reviewer)
    assert caught.value.code == "wrong_status"


def test_a_correction_and_a_withdrawal_carry_their_reasons(published, reviewer, databox, agency):
    _dated(published, reviewer)
    _send(published, reviewer)
    registry.registry_replies_fetch(agency=agency)
    published.refresh_from_db()
    with pytest.raises(ValidationError) as caught:
        registry.registry_submit(contract=published, user=reviewer, operation="modifikace")
    assert caught.value.code == "reason_required"
    _dated(published, reviewer, value_with_vat=145200)
    fix = _send(published, reviewer, operation="modifikace", reason="Doplněna cena s DPH")
    assert isrs.validate(databox.messages[fix.message_id].files[0][3]) == "modifikace"
    registry.registry_replies_fetch(agency=agency)
    fix.refresh_from_db()
    published.refresh_from_db()
    assert fix.state == State.ACCEPTED and published.status == Status.REGISTERED
    assert (
        databox.records[published.registry_record.record_id].metadata.findtext(f"{{{isrs.NS}}}hodnotaVcetneDph")
        == "145200"
    )
    gone = _send(published, reviewer, operation="znepristupneni", reason="Zveřejněna omylem")
    registry.registry_replies_fetch(agency=agency)
    gone.refresh_from_db()
    published.refresh_from_db()
    assert gone.state == State.ACCEPTED and databox.records[published.registry_record.record_id].withdrawn
    assert published.status == Status.PUBLISHED and published.registry_record.link == ""
    actions = ["registry_modifikace_prepared", "registry_znepristupneni_prepared"]
    reasons = AuditEvent.objects.filter(contract=published, action__in=actions).values_list("detail__reason", flat=True)
    assert sorted(reasons) == ["Doplněna cena s DPH", "Zveřejněna omylem"]


def test_a_hash_that_differs_is_not_registered(published, reviewer, databox, agency):
    _dated(published, reviewer)
    submission = _send(published, reviewer)
    reply = next(m for m in databox.messages.values() if m.sender_ref == submission.message_id)
    name, mime, meta, xml = reply.files[0]
    first_hash = submission.files[0]["sha256"].encode()
    reply.files[0] = (name, mime, meta, xml.replace(first_hash, b"0" * 64))
    with translation.override("en"):
        registry.registry_replies_fetch(agency=agency)
    submission.refresh_from_db()
    published.refresh_from_db()
    assert submission.error_code == "hash" and published.status == Status.PUBLISHED
    assert published.registry_record.record_id and "SHA-256" in published.error_message


def test_files_over_one_message_follow_in_further_messages(published, reviewer, databox, agency, settings):
    # room for the PDF and half the text (a message keeps an eighth of its limit for the XML)
    settings.REDACTOR_REGISTRY_MESSAGE_BYTES = (published.redacted.size + published.redacted_text.size // 2) * 8 // 7
    _dated(published, reviewer)
    first = _send(published, reviewer)
    assert [f["kind"] for f in first.files] == ["pdf"]
    follower = RegistrySubmission.objects.get(follows=first)
    assert follower.state == State.PREPARED and [f["kind"] for f in follower.files] == ["text"]
    registry.registry_replies_fetch(agency=agency)  # publication accepted: the rest is prepared for sending
    follower.refresh_from_db()
    assert isrs.validate(follower.xml.encode()) == "pridaniPrilohy"
    registry.registry_submission_send(submission_id=follower.pk)
    registry.registry_replies_fetch(agency=agency)
    follower.refresh_from_db()
    published.refresh_from_db()
    assert follower.state == State.ACCEPTED
    assert len(databox.records[published.registry_record.record_id].files) == 2


def test_the_package_for_an_agencys_own_records_system(published, reviewer, agency, admin_user):
    registry.registry_settings_update(agency=agency, user=admin_user, channel="package", environment="test")
    _dated(published, reviewer)
    download = registry.registry_package(contract=published, user=reviewer)
    with zipfile.ZipFile(io.BytesIO(download.data)) as zf:
        names = zf.namelist()
        xml = zf.read("zverejneni.xml")
    assert names[0] == "zverejneni.xml" and len(names) == 3
    assert isrs.validate(xml) == "zverejneni"
    for name in names[1:]:
        assert f"<nazevSouboru>{name}</nazevSouboru>".encode() in xml
    submission = RegistrySubmission.objects.get(contract=published)
    assert submission.state == State.PREPARED and submission.channel == "package"


# -- the web door ---------------------------------------------------------------------------------
def _url(contract, name: str) -> str:
    from django.urls import reverse

    return reverse(name, args=[contract.agency_id, contract.pk])


def test_the_panel_shows_what_was_found_and_where(published, clerk):
    page = logged_in(clerk).get(_url(published, "contracts:detail")).content.decode()
    assert 'id="registry"' in page and 'value="2026/15"' in page
    assert "120 000 Kč" in page  # the line the value was read from
    assert "Novák" not in page.split('id="registry"')[1].split("</section>")[0]


def test_the_panel_saves_corrections_and_sends_for_reviewers_only(published, clerk, reviewer, databox):
    meta = ContractMetadata.from_dict(published.registry_record.metadata)
    form = {
        "reg-subject": meta.subject,
        "reg-date_concluded": "2026-03-02",
        "reg-number": "2026/15",
        "reg-signed_by": "Ing. Petr Starosta, starosta",
        "reg-value_without_vat": "120000",
        "reg-payer": "1",
        "party-TOTAL_FORMS": "2",
        "party-INITIAL_FORMS": "1",
        "party-0-private": "on",
        "party-0-recipient": "0",
        "party-1-name": "",
    }
    response = logged_in(clerk).post(_url(published, "registry:save"), form)
    assert response.status_code == 302
    published.refresh_from_db()
    saved = ContractMetadata.from_dict(published.registry_record.metadata)
    assert saved.signed_by == "Ing. Petr Starosta, starosta" and saved.date_concluded == date(2026, 3, 2)
    assert [(p.name, p.recipient) for p in saved.parties] == [(NOT_PUBLIC, True)]
    assert saved.sources["signed_by"].note == "edited"
    logged_in(clerk).post(_url(published, "registry:send"), {"operation": "zverejneni"})
    assert not RegistrySubmission.objects.filter(contract=published).exists()
    logged_in(reviewer).post(_url(published, "registry:send"), {"operation": "zverejneni"})
    assert RegistrySubmission.objects.get(contract=published).operation == "zverejneni"


def test_a_name_typed_for_a_private_person_is_not_saved_and_the_clerk_is_told_why(published, clerk):
    meta = ContractMetadata.from_dict(published.registry_record.metadata)
    form = {
        "reg-subject": meta.subject,
        "party-TOTAL_FORMS": "1",
        "party-INITIAL_FORMS": "1",
        "party-0-private": "on",
        "party-0-name": "Jan Novák",
    }
    response = logged_in(clerk).post(_url(published, "registry:save"), form, follow=True)
    told = [str(m) for m in response.context["messages"]]
    published.refresh_from_db()
    saved = ContractMetadata.from_dict(published.registry_record.metadata)
    assert [p.name for p in saved.parties] == [NOT_PUBLIC] and "Novák" not in str(published.registry_record.metadata)
    assert len(told) == 1 and "smluvní strany 1" in told[0] and NOT_PUBLIC in told[0] and "Novák" not in told[0]


def test_a_record_id_is_shown_as_the_registry_writes_it_without_a_thousands_separator(published, clerk):
    """A clerk copies the record's id from the panel: "500000", never "500 000"."""
    RegistryRecord.objects.update_or_create(
        contract=published,
        defaults={"record_id": 5000123, "version_id": 6000456, "link": "https://smlouvy.gov.cz/smlouva/6000456",
                  "registered_at": timezone.now()},
    )  # fmt: skip
    Contract.objects.filter(pk=published.pk).update(status=Status.REGISTERED)
    panel = logged_in(clerk).get(_url(published, "contracts:detail")).content.decode()
    status = panel.split('id="registry-status"')[1].split("</p>")[0]
    assert "záznam 5000123" in status and "5\xa0000\xa0123" not in status and "5 000 123" not in status


def test_another_agencys_member_sees_nothing(published, outsider):
    client = logged_in(outsider)
    assert client.get(_url(published, "registry:package")).status_code == 404
    assert client.post(_url(published, "registry:send"), {"operation": "zverejneni"}).status_code == 404


def test_registry_settings_are_for_agency_admins(agency, reviewer, admin_user):
    from django.urls import reverse

    url = reverse("registry:settings", args=[agency.pk])
    assert logged_in(reviewer).get(url).status_code == 403
    response = logged_in(admin_user).post(
        url, {"channel": "databox", "environment": "test", "login": "lhota", "password": "tajne"}
    )
    assert response.status_code == 302
    regs = RegistrySettings.objects.get(agency=agency)
    assert regs.login == "lhota" and secrets.unseal(regs.password_sealed) == "tajne"
    logged_in(admin_user).post(url, {"channel": "databox", "environment": "test", "login": "lhota"})
    regs.refresh_from_db()
    assert secrets.unseal(regs.password_sealed) == "tajne"  # an empty password field keeps the stored one


def test_a_certificate_is_never_echoed_back_after_a_validation_error(agency, admin_user):
    from django.urls import reverse

    url = reverse("registry:settings", args=[agency.pk])
    key = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----"
    response = logged_in(admin_user).post(
        url, {"channel": "databox", "environment": "test", "confirmation_email": "not an e-mail", "certificate": key}
    )
    assert response.status_code == 200  # the form again, with the error
    page = response.content.decode()
    assert "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC" not in page and "PRIVATE KEY" not in page
    assert not RegistrySettings.objects.filter(agency=agency).exclude(certificate_sealed="").exists()


def test_an_unreachable_data_box_is_told_in_a_sentence_without_the_librarys_text(
    published, reviewer, databox, agency, settings
):
    with socket_closed() as url:
        settings.REDACTOR_DATABOX_URL_TEST = url
        _dated(published, reviewer)
        with translation.override("en"):
            submission = _send(published, reviewer)
    assert submission.state == State.FAILED and submission.error_code == "transport"
    assert "could not be reached" in submission.error_text
    assert "127.0.0.1" not in submission.error_text and "Errno" not in submission.error_text


def test_registry_settings_changes_are_in_the_settings_audit_trail_without_secrets(agency, admin_user):
    from django.urls import reverse

    from accounts.models import SettingsChange

    registry.registry_settings_update(
        agency=agency, user=admin_user, channel="databox", environment="test", login="lhota", password="tajne-heslo"
    )
    registry.registry_settings_update(
        agency=agency, user=admin_user, channel="databox", environment="production", login="lhota", password=None
    )
    first, second = reversed(SettingsChange.objects.filter(agency=agency))
    assert {f["field"] for f in first.fields} >= {"channel", "login", "password"}
    assert [f for f in second.fields if f["field"] == "environment"] == [
        {"field": "environment", "before": "test", "after": "production"}
    ]
    assert "tajne-heslo" not in str(first.fields) and second.user == admin_user
    page = logged_in(admin_user).get(reverse("registry:settings", args=[agency.pk])).content.decode()
    assert 'id="settings-changes"' in page and admin_user.username in page and "tajne-heslo" not in page
