"""An agency that sends to the registry from its own records system (the package channel): the
package leaves through that system's data box (here the project's data-box test server, over the
real ISDS protocol), the person records it as sent, and hands over the registry's reply, which is
paired with the contract's submission and checked file by file before the contract counts as
registered."""

from __future__ import annotations

import io
import re
import zipfile
from datetime import UTC, datetime, timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from contracts.models import AuditEvent, Status
from registry import services as registry
from registry.databox import DataBoxClient, OutgoingFile
from registry.models import RegistrySubmission
from tests.databox_server import DataBoxServer
from tests.plugins.tenants import logged_in, run_latest_job
from tests.registry.web.test_registry import _dated

State = RegistrySubmission.State
RECORDS_BOX = "spis123"


@pytest.fixture
def records_system(settings, agency, admin_user):
    """The data-box test server with the agency's box, which only its records system logs into;
    the agency set to the package channel."""
    server = DataBoxServer(registry_box=settings.REDACTOR_REGISTRY_DATABOX)
    server.add_box(RECORDS_BOX, "spisovka", "heslo-2")
    server.url = server.start()
    agency.data_box_id = RECORDS_BOX
    agency.save(update_fields=["data_box_id"])
    registry.registry_settings_update(agency=agency, user=admin_user, channel="package", environment="test")
    yield server
    server.stop()


def records_system_sends(server, package: bytes, *, ref: str, without_files: bool = False) -> tuple[str, bytes]:
    """Send the package's files from the agency's box as its records system would; return the
    message's id and the registry's reply (its XML) read back from the box."""
    client = DataBoxClient(server.url, login="spisovka", password="heslo-2")
    with zipfile.ZipFile(io.BytesIO(package)) as zf:
        names = zf.namelist()
        files = [
            OutgoingFile(
                n,
                zf.read(n),
                "application/xml" if i == 0 else "application/octet-stream",
                "main" if i == 0 else "enclosure",
            )
            for i, n in enumerate(names)
            if i == 0 or not without_files
        ]
    message_id = client.send(recipient=server.registry_box, annotation="Smlouva do registru", files=files, our_ref=ref)
    now = datetime.now(UTC)
    replies = [m for m in client.received(now - timedelta(hours=1), now + timedelta(hours=1)) if m.our_ref == ref]
    assert len(replies) == 1
    return message_id, client.download(replies[0].message_id)[0][1]


def _package(contract, reviewer) -> bytes:
    _dated(contract, reviewer)
    return registry.registry_package(contract=contract, user=reviewer).data


def test_sent_by_the_records_system_and_registered_from_its_reply(published, reviewer, records_system):
    package = _package(published, reviewer)
    message_id, reply = records_system_sends(records_system, package, ref="spis-1")
    submission = registry.registry_package_sent(contract=published, user=reviewer, message_id=message_id)
    assert submission.state == State.SENT and submission.message_id == message_id and submission.sent_at
    submission = registry.registry_reply_record(contract=published, user=reviewer, xml=reply)
    published.refresh_from_db()
    record = records_system.records[published.registry_record.record_id]
    assert submission.state == State.ACCEPTED and submission.error_code == ""
    assert published.status == Status.REGISTERED and published.registry_record.version_id == record.versions[-1]
    assert {f["sha256"] for f in submission.files} == {h for _n, h in record.files}
    actions = list(AuditEvent.objects.filter(contract=published).values_list("action", flat=True))
    assert {"registry_package_sent", "registry_reply_recorded", "registered"} <= set(actions)
    with pytest.raises(ValidationError) as again:  # the same reply twice changes nothing
        registry.registry_reply_record(contract=published, user=reviewer, xml=reply)
    assert again.value.code == "not_this_contract"


def test_without_a_message_id_the_reply_is_paired_by_the_files(published, reviewer, records_system):
    package = _package(published, reviewer)
    _message_id, reply = records_system_sends(records_system, package, ref="spis-2")
    # nobody recorded the sending: the reply is enough, paired by every file's SHA-256
    submission = registry.registry_reply_record(contract=published, user=reviewer, xml=reply)
    published.refresh_from_db()
    assert submission.state == State.ACCEPTED and published.status == Status.REGISTERED


def test_another_contracts_reply_is_refused(published, reviewer, clerk, contract_pdf, records_system):
    from contracts.services import publishing, uploads
    from tests.pdfs import pdf_from_paragraphs

    other = uploads.contract_upload(
        agency=published.agency, user=clerk, filename="jina.pdf", title="Jiná smlouva",
        data=pdf_from_paragraphs(["Smlouva o dílo č. 2026/77", "Zhotovitel: Stavby Lhota s.r.o., IČO: 27074358",
                                  "Cena díla 90 000 Kč."]),
    )  # fmt: skip
    run_latest_job(other)
    publishing.contract_approve(contract=other, user=reviewer)
    run_latest_job(other)
    _message_id, reply = records_system_sends(records_system, _package(other, reviewer), ref="spis-3")
    _package(published, reviewer)
    with pytest.raises(ValidationError) as refused:
        registry.registry_reply_record(contract=published, user=reviewer, xml=reply)
    assert refused.value.code == "not_this_contract"
    published.refresh_from_db()
    assert published.status == Status.PUBLISHED
    assert RegistrySubmission.objects.get(contract=published).state == State.PREPARED


def test_a_refusal_is_recorded_in_the_clerks_words(published, reviewer, records_system):
    package = _package(published, reviewer)
    message_id, reply = records_system_sends(records_system, package, ref="spis-4", without_files=True)
    assert b"chyba" in reply
    registry.registry_package_sent(contract=published, user=reviewer, message_id=message_id)
    submission = registry.registry_reply_record(contract=published, user=reviewer, xml=reply)
    published.refresh_from_db()
    assert submission.state == State.REJECTED and submission.error_code == "4"
    assert published.status == Status.PUBLISHED and submission.error_text in published.error_message


def test_what_is_not_a_reply_is_refused_and_clerks_cannot_record(published, reviewer, clerk, records_system):
    _package(published, reviewer)
    for junk in (b"%PDF-1.7 not xml", b"<a/>", b"<x>" * (registry.REPLY_MAX_BYTES // 3 + 1)):
        with pytest.raises(ValidationError) as refused:
            registry.registry_reply_record(contract=published, user=reviewer, xml=junk)
        assert refused.value.code == "not_a_reply"
    with pytest.raises(ValidationError) as bad_id:
        registry.registry_package_sent(contract=published, user=reviewer, message_id="dm-12")
    assert bad_id.value.code == "invalid"
    with pytest.raises(PermissionDenied):
        registry.registry_package_sent(contract=published, user=clerk)
    registry.registry_package_sent(contract=published, user=reviewer)
    with pytest.raises(ValidationError) as twice:
        registry.registry_package_sent(contract=published, user=reviewer)
    assert twice.value.code == "wrong_status"


def test_the_panel_records_the_sending_and_the_reply(published, reviewer, records_system):
    _dated(published, reviewer)
    client = logged_in(reviewer)
    args = [published.agency_id, published.pk]
    package = b"".join(client.get(reverse("registry:package", args=args)).streaming_content)
    page = client.get(reverse("contracts:detail", args=args)).content.decode()
    assert 'id="registry-sent-form"' in page and 'id="registry-reply-form"' in page
    message_id, reply = records_system_sends(records_system, package, ref="spis-5")
    client.post(reverse("registry:package_sent", args=args), {"message_id": message_id})
    page = client.get(reverse("contracts:detail", args=args)).content.decode()
    assert 'id="registry-sent-form"' not in page and 'id="registry-reply-form"' in page
    # the badge says what the panel says: sent, the registry's reply awaited
    assert re.search(r'id="status">Odesláno do registru, čeká na odpověď<', page)
    assert "Odesláno, čeká na registr" in page
    upload = SimpleUploadedFile("odpovedZverejneni.xml", reply, content_type="application/xml")
    client.post(reverse("registry:reply", args=args), {"reply": upload})
    published.refresh_from_db()
    assert published.status == Status.REGISTERED
    page = client.get(reverse("contracts:detail", args=args)).content.decode()
    assert 'id="registry-link"' in page and 'id="registry-reply-form"' not in page


def test_the_api_hands_over_the_reply(published, reviewer, admin_user, records_system):
    from rest_framework.test import APIClient

    from accounts.services import api_token_create

    _, raw = api_token_create(agency=published.agency, name="Spisová služba", role="reviewer", created_by=admin_user)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    _dated(published, reviewer)
    base = f"/api/v1/contracts/{published.pk}/registry/"
    package = b"".join(api.get(base + "package/").streaming_content)
    message_id, reply = records_system_sends(records_system, package, ref="spis-6")
    sent = api.post(base + "sent/", {"message_id": message_id}, format="json")
    assert sent.status_code == 200 and sent.json()["state"] == "sent"
    refused = api.post(base + "reply/", {"reply": SimpleUploadedFile("x.xml", b"<a/>")}, format="multipart")
    assert refused.status_code == 400 and refused.json()["extra"]["code"] == "not_a_reply"
    answer = api.post(base + "reply/", {"reply": SimpleUploadedFile("o.xml", reply)}, format="multipart")
    assert answer.status_code == 200 and answer.json()["state"] == "accepted"
    contract = api.get(f"/api/v1/contracts/{published.pk}/").json()
    assert contract["status"] == "registered"


def test_a_correction_leaves_as_its_own_package_and_its_reply_is_paired_by_the_record(
    published, reviewer, records_system
):
    _message_id, reply = records_system_sends(records_system, _package(published, reviewer), ref="spis-8")
    registry.registry_reply_record(contract=published, user=reviewer, xml=reply)
    published.refresh_from_db()
    correction = registry.registry_submit(contract=published, user=reviewer, operation="modifikace",
                                          reason="Opravené číslo smlouvy")  # fmt: skip
    assert correction.state == State.PREPARED and correction.channel == "package"
    package = registry.registry_package(contract=published, user=reviewer).data
    with zipfile.ZipFile(io.BytesIO(package)) as zf:
        assert zf.namelist() == ["modifikace.xml"]
    _message_id, reply = records_system_sends(records_system, package, ref="spis-9")
    answered = registry.registry_reply_record(contract=published, user=reviewer, xml=reply)
    published.refresh_from_db()
    assert answered.pk == correction.pk and answered.state == State.ACCEPTED
    assert published.status == Status.REGISTERED
    assert (
        published.registry_record.version_id == records_system.records[published.registry_record.record_id].versions[-1]
    )


def test_the_day_the_package_left_is_kept_and_checked(published, reviewer, records_system):
    from django.utils import timezone

    _package(published, reviewer)
    today = timezone.localdate()
    for wrong in (today + timedelta(days=1), today - timedelta(days=3)):  # tomorrow; before it was prepared
        with pytest.raises(ValidationError) as refused:
            registry.registry_package_sent(contract=published, user=reviewer, sent_on=wrong)
        assert refused.value.code == "invalid"
    RegistrySubmission.objects.filter(contract=published).update(created_at=timezone.now() - timedelta(days=5))
    submission = registry.registry_package_sent(contract=published, user=reviewer, sent_on=today - timedelta(days=2))
    assert timezone.localdate(submission.sent_at) == today - timedelta(days=2)
    event = AuditEvent.objects.get(contract=published, action="registry_package_sent")
    assert event.detail["sent_on"] == (today - timedelta(days=2)).isoformat()
