"""What an agency already published: its records imported from the registry's open data served by
a test server of this project over HTTP on loopback (tests.registry_open_data), every file's
SHA-256 checked, and audited by the real engine as if published now."""

from __future__ import annotations

import dataclasses
import io
import re
from datetime import UTC, date, datetime

import pymupdf
import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from accounts.models import Role
from redactor.metadata import NOT_PUBLIC, ContractMetadata, PublishingBody, RegistryParty
from registry import isrs
from registry.models import PublishedFile, PublishedRecord, RecordAudit, RecordImport
from registry.services import audit, published
from tests.pdfs import pdf_from_paragraphs
from tests.plugins.tenants import CONTRACT_TEXT, logged_in
from tests.plugins.tokens import api, make_token
from tests.registry.conftest import AGENCY_BOX
from tests.registry_open_data import OpenDataServer

JULY = date(2026, 7, 1)
IN_JULY = datetime(2026, 7, 3, 9, 0, tzinfo=UTC)
FIRM = RegistryParty(name="STAVBY HORÁK s.r.o.", ico="25596641")

#: A contract the earlier hand redacted with a black rectangle drawn over live text.
CLEAN_TEXT = [
    "Smlouva o dílo č. 2026/40",
    "Objednatel: Obec Horní Lhota, IČO: 00000001, se sídlem Náměstí 1, 679 01 Horní Lhota",
    "Zhotovitel: STAVBY HORÁK s.r.o., IČO: 25596641, se sídlem Průmyslová 8, 602 00 Brno",
    "Cena díla činí 250 000 Kč bez DPH.",
]


def _blacked_over(pdf: bytes, words: str) -> bytes:
    """``pdf`` with a black rectangle drawn over ``words``, the text left under it."""
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    for rect in doc[0].search_for(words):
        doc[0].draw_rect(rect, color=(0, 0, 0), fill=(0, 0, 0))
    out = doc.tobytes()
    doc.close()
    return out


def _metadata(agency, parties: list[RegistryParty]) -> ContractMetadata:
    return ContractMetadata(
        publisher=PublishingBody(name=agency.name, ico=agency.ico),
        parties=parties,
        subject="Kupní smlouva",
        date_concluded=date(2026, 6, 30),
    )


@pytest.fixture
def open_data(settings):
    with OpenDataServer() as server:
        settings.REDACTOR_REGISTRY_OPEN_DATA_URL = server.url
        settings.REDACTOR_REGISTRY_FILES_URL = server.files_url
        settings.REDACTOR_REGISTRY_FETCH = True
        yield server


@pytest.fixture
def month(open_data, agency, other_agency):
    """July's dump: three records of the agency (a private seller in the text and in the metadata,
    an earlier black box over live text, a file changed since publication) and one of another
    agency."""
    sale = open_data.file("kupni.pdf", pdf_from_paragraphs(CONTRACT_TEXT))
    boxed_pdf = _blacked_over(pdf_from_paragraphs(CONTRACT_TEXT), "750403/1238")
    boxed = open_data.file("prodej.pdf", boxed_pdf)
    clean = open_data.file("dilo.pdf", pdf_from_paragraphs(CLEAN_TEXT))
    changed = open_data.file("zmenena.pdf", pdf_from_paragraphs(CLEAN_TEXT))
    open_data.replace(changed, pdf_from_paragraphs([*CLEAN_TEXT, "Dodatek doplněný po zveřejnění."]))
    seller = RegistryParty(name="Jan Novák", address="Lipová 12, 602 00 Brno")
    firm = FIRM
    records = [
        open_data.record(101, _metadata(agency, [seller]), [sale]),
        open_data.record(102, _metadata(agency, [firm]), [boxed]),
        open_data.record(103, _metadata(agency, [firm]), [clean, changed]),
        open_data.record(201, _metadata(other_agency, [seller]), [open_data.file("cizi.pdf", b"%PDF-1.4")]),
    ]
    open_data.publish(JULY, records)
    return records


def _imported(agency, admin_user) -> RecordImport:
    started = published.record_import_fetch(agency=agency, user=admin_user, month=JULY)
    published.record_import_run(import_id=started.pk)
    started.refresh_from_db()
    return started


def test_the_dump_written_is_the_dump_read(open_data, month):
    xml = open_data.paths["/dump_2026_07.xml"]
    assert isrs.validate(xml) == "dump"
    again = isrs.parse_dump(xml)
    assert [(r.record_id, [f.sha256 for f in r.files]) for r in again] == [
        (r.record_id, [f.sha256 for f in r.files]) for r in month
    ]
    assert again[0].metadata.parties[0].name == "Jan Novák"


def test_the_agencys_records_are_imported_and_each_file_checked_once(open_data, month, agency, admin_user):
    started = _imported(agency, admin_user)
    assert started.state == RecordImport.State.DONE, started.error
    assert (started.records, started.new, started.files) == (3, 3, 4)
    assert (started.stored, started.refused, started.failed) == (3, 1, 0)
    assert sorted(agency.published_records.values_list("record_id", flat=True)) == [101, 102, 103]
    refused = PublishedFile.objects.get(name="zmenena.pdf")
    assert refused.state == PublishedFile.State.REFUSED and not refused.content
    assert refused.sha256 in refused.error and "nebyl uložen" in refused.error
    kept = PublishedFile.objects.get(name="kupni.pdf")
    with kept.content.open("rb") as fh:
        assert isrs.sha256(fh.read()) == kept.sha256 == month[0].files[0].sha256
    assert not any("cizi" in path for path in open_data.requests)  # another agency's files are not fetched

    # a second import of the same month fetches nothing stored again; the refused file is not asked for
    fetched = sum(open_data.requests.values())
    again = _imported(agency, admin_user)
    assert (again.records, again.new, again.stored, again.refused) == (3, 0, 3, 1)
    assert sum(open_data.requests.values()) == fetched + 1  # the dump only


def test_a_newer_version_replaces_the_records_metadata_and_files(open_data, month, agency, admin_user):
    _imported(agency, admin_user)
    corrected = open_data.file("kupni-v2.pdf", pdf_from_paragraphs(CLEAN_TEXT))
    first = month[0]
    newer = open_data.record(101, _metadata(agency, [RegistryParty(name="Neveřejný údaj")]), [corrected], 150)
    open_data.publish(JULY, [newer, *month[1:]])
    _imported(agency, admin_user)
    record = agency.published_records.get(record_id=101)
    assert record.version_id == 150 and record.metadata["parties"][0]["name"] == "Neveřejný údaj"
    assert list(record.files.values_list("name", "state")) == [("kupni-v2.pdf", "stored")]
    assert first.files[0].name not in set(PublishedFile.objects.values_list("name", flat=True))


def test_a_link_outside_the_registry_is_not_followed(open_data, agency, admin_user, settings):
    outside = isrs.RecordFile("x.pdf", "0" * 64, "http://127.0.0.1:9/elsewhere/x.pdf")
    open_data.publish(JULY, [open_data.record(7, _metadata(agency, [FIRM]), [outside])])
    started = _imported(agency, admin_user)
    f = PublishedFile.objects.get(name="x.pdf")
    assert (started.failed, f.state) == (1, PublishedFile.State.FAILED) and "nevede do registru" in f.error


def test_an_uploaded_dump_is_imported_and_a_non_dump_refused(open_data, month, agency, admin_user, reviewer):
    xml = open_data.paths["/dump_2026_07.xml"]
    with pytest.raises(PermissionDenied):
        published.record_import_upload(agency=agency, user=reviewer, dump=io.BytesIO(xml), filename="dump_2026_07.xml")
    for bad in (b"%PDF-1.7 not a dump", b"<?xml version='1.0'?><zverejneni/>", b"<dump>", b""):
        with pytest.raises(ValidationError) as refused:
            published.record_import_upload(agency=agency, user=admin_user, dump=io.BytesIO(bad), filename="x.xml")
        assert refused.value.code == "not_a_dump"
    started = published.record_import_upload(
        agency=agency, user=admin_user, dump=io.BytesIO(xml), filename="dump_2026_07.xml"
    )
    published.record_import_run(import_id=started.pk)
    started.refresh_from_db()
    assert (started.state, started.records, started.stored) == (RecordImport.State.DONE, 3, 3)
    # the upload is checked against the registry's own dump of its month, fetched once
    assert started.confirmed and started.left_out == 0 and open_data.requests["/dump_2026_07.xml"] == 1


def test_an_uploaded_dump_names_only_what_the_registry_lists_as_the_agencys(
    open_data, month, agency, other_agency, admin_user
):
    """A dump on the admin's disk can be edited: another body's record given the agency's IČO, a
    record the registry never published, a file's hash changed. Only what the registry's own dump
    of the month lists as the agency's is imported, as the registry publishes it; the rest is
    left out and counted, on the page and in the API."""
    genuine = month[0]
    forged = [
        genuine,
        open_data.record(201, _metadata(agency, [FIRM]), month[3].files),  # another agency's record
        open_data.record(909, _metadata(agency, [FIRM]), month[2].files),  # never published
    ]
    changed_hash = isrs.RecordFile(genuine.files[0].name, "0" * 64, genuine.files[0].link)
    forged[0] = dataclasses.replace(genuine, files=[changed_hash])
    forged = [dataclasses.replace(r, published_at=IN_JULY) for r in forged]
    xml = isrs.dump_xml(forged, 2026, 7, IN_JULY)
    started = published.record_import_upload(agency=agency, user=admin_user, dump=io.BytesIO(xml), filename="d.xml")
    published.record_import_run(import_id=started.pk)
    started.refresh_from_db()
    assert (started.state, started.confirmed, started.left_out, started.records) == ("done", True, 2, 1)
    assert list(agency.published_records.values_list("record_id", flat=True)) == [101]
    assert not other_agency.published_records.exists()
    kept = PublishedFile.objects.get(record__record_id=101)
    assert kept.sha256 == genuine.files[0].sha256 and kept.state == PublishedFile.State.STORED  # the registry's hash
    assert not any("cizi" in path for path in open_data.requests)

    page = logged_in(admin_user).get(reverse("registry:records", kwargs={"agency_id": agency.pk}))
    assert "2 záznamy souboru úřad v registru nemá" in page.content.decode()
    listed = api(make_token(agency, Role.ADMIN)[1]).get(f"/api/v1/registry/records/imports/{started.pk}/").json()
    assert (listed["confirmed"], listed["left_out"]) == (True, 2)


def test_an_upload_naming_many_months_or_a_month_the_registry_lacks_fails_with_a_sentence(
    open_data, month, agency, admin_user
):
    late = [
        dataclasses.replace(r, published_at=IN_JULY.replace(month=m)) for r, m in zip(month[:3], (7, 8, 9), strict=True)
    ]
    for records, sentence in (
        (late, "ve 3 měsících"),
        (late[1:2], "nepodařilo"),  # August: the registry serves no dump of it here
    ):
        xml = isrs.dump_xml(records, 2026, 7, IN_JULY)
        started = published.record_import_upload(agency=agency, user=admin_user, dump=io.BytesIO(xml), filename="d.xml")
        published.record_import_run(import_id=started.pk)
        started.refresh_from_db()
        assert started.state == "failed" and sentence in started.error, started.error
        assert not agency.published_records.exists()


def test_fetching_turned_off(open_data, month, agency, admin_user, settings):
    settings.REDACTOR_REGISTRY_FETCH = False
    with pytest.raises(ValidationError) as refused:
        published.record_import_fetch(agency=agency, user=admin_user, month=JULY)
    assert refused.value.code == "fetch_off"
    started = published.record_import_upload(
        agency=agency, user=admin_user, dump=io.BytesIO(open_data.paths["/dump_2026_07.xml"]), filename="d.xml"
    )
    published.record_import_run(import_id=started.pk)
    started.refresh_from_db()
    assert (started.records, started.stored) == (3, 0) and not open_data.requests
    assert not started.confirmed  # taken as the file names them, and the page says so
    page = logged_in(admin_user).get(reverse("registry:records", kwargs={"agency_id": agency.pk})).content.decode()
    assert "Registr záznamy nepotvrdil" in page
    assert set(PublishedFile.objects.values_list("state", flat=True)) == {PublishedFile.State.WAITING}


def test_a_dump_the_schema_refuses_fails_the_import_with_a_sentence(open_data, agency, admin_user):
    open_data.paths["/dump_2026_07.xml"] = b'<dump xmlns="http://portal.gov.cz/rejstriky/ISRS/1.2/"><rok>x</rok></dump>'
    started = _imported(agency, admin_user)
    assert started.state == RecordImport.State.FAILED and "schématu" in started.error
    assert not agency.published_records.exists()


def _audit_all(agency, user) -> RecordAudit:
    run = audit.record_audit_start(agency=agency, user=user)
    while audit.record_audit_step(audit_id=run.pk) is not None:
        pass
    run.refresh_from_db()
    return run


def test_the_audit_finds_what_each_record_exposes_and_orders_them(open_data, month, agency, admin_user, reviewer):
    _imported(agency, admin_user)
    run = _audit_all(agency, reviewer)
    assert (run.state, run.total, run.done) == (RecordAudit.State.DONE, 3, 3)
    records = {r.record_id: r for r in agency.published_records.all()}
    sale, boxed, clean = records[101], records[102], records[103]
    assert {r.audit_state for r in records.values()} == {PublishedRecord.AuditState.DONE}

    # the private seller: the metadata names him, with his home; the file shows his birth number
    assert sale.findings["metadata"] == [
        {"party": 1, "kind": "natural_person", "person": "Jan Novák", "fields": ["name", "address"], "known": True}
    ]
    values = {v["text"] for v in sale.findings["files"][0]["values"]}
    assert "750403/1238" in values and "19-2000145399/0800" in values
    assert sale.findings["metadata_fields"] == {"name": 1, "address": 1}
    assert sum(sale.findings["categories"].values()) == sale.findings["files"][0]["legible"] >= 5
    assert sale.exposure == sum(sale.findings["categories"].values()) + 2
    # the earlier hand's black box with the birth number readable under it
    assert boxed.findings["files"][0]["failed_boxes"] >= 1
    assert "750403/1238" in {v["text"] for v in boxed.findings["files"][0]["values"]}
    # a company's contract exposes nothing; its refused file is not audited
    assert clean.exposure == 0 and [f["name"] for f in clean.findings["files"]] == ["dilo.pdf"]
    assert list(agency.published_records.values_list("record_id", flat=True))[-1] == 103  # least exposed last
    assert sale.exposure > 0 and boxed.exposure > 0

    with pytest.raises(ValidationError) as nothing:
        audit.record_audit_start(agency=agency, user=reviewer)
    assert nothing.value.code == "nothing_to_audit"


def test_an_audit_resumes_and_a_record_a_dead_job_left_is_failed(open_data, month, agency, admin_user, reviewer):
    _imported(agency, admin_user)
    run = audit.record_audit_start(agency=agency, user=reviewer)
    assert audit.record_audit_start(agency=agency, user=reviewer) == run  # the one under way
    first = audit.record_audit_step(audit_id=run.pk)
    # the next step's worker dies in the middle of a record
    PublishedRecord.objects.filter(agency=agency, record_id=102).update(audit_state=PublishedRecord.AuditState.RUNNING)
    audit.record_audit_failed(audit_id=run.pk)
    while audit.record_audit_step(audit_id=run.pk) is not None:
        pass
    run.refresh_from_db()
    states = dict(agency.published_records.values_list("record_id", "audit_state"))
    assert first.record_id == 101 and states == {101: "done", 102: "failed", 103: "done"}
    assert run.state == RecordAudit.State.DONE and run.done == 3
    assert "paměti nebo času" in agency.published_records.get(record_id=102).audit_error


def test_a_broken_file_fails_its_record_with_a_sentence(open_data, agency, admin_user, reviewer):
    broken = open_data.file("rozbita.pdf", b"%PDF-1.7\nthis is no PDF at all")
    open_data.publish(JULY, [open_data.record(5, _metadata(agency, [FIRM]), [broken])])
    _imported(agency, admin_user)
    _audit_all(agency, reviewer)
    record = agency.published_records.get()
    assert record.audit_state == PublishedRecord.AuditState.FAILED and record.audit_error
    assert "Traceback" not in record.audit_error and "Error" not in record.audit_error


def test_an_audit_needs_a_reviewer(open_data, month, agency, admin_user, clerk):
    _imported(agency, admin_user)
    with pytest.raises(PermissionDenied):
        audit.record_audit_start(agency=agency, user=clerk)


def test_a_record_is_corrected_through_the_registry(open_data, month, agency, admin_user, reviewer, clerk, databox):
    from contracts.models import Status
    from contracts.services import publishing, reviewing
    from registry import services as registry
    from registry.services.corrections import record_correct
    from tests.plugins.tenants import run_latest_job

    _imported(agency, admin_user)
    _audit_all(agency, reviewer)
    sale = agency.published_records.get(record_id=101)
    databox.add_record(101, AGENCY_BOX, [(f.name, f.sha256) for f in sale.files.all()])
    with pytest.raises(PermissionDenied):
        record_correct(record=sale, user=clerk)
    contract = record_correct(record=sale, user=reviewer)
    assert record_correct(record=sale, user=reviewer) == contract  # one correction per record
    sale.refresh_from_db()
    assert sale.correction == contract and contract.original_sha256 == sale.files.get().sha256
    # the metadata it will send names the seller by the § 5(6) sentence, without his home
    meta = registry.registry_metadata(contract)
    assert [(p.name, p.address) for p in meta.parties] == [(NOT_PUBLIC, "")]
    assert contract.registry_record.record_id == 101

    run_latest_job(contract)  # processing, as for any upload
    assert contract.status == Status.NEEDS_REVIEW
    assert ContractMetadata.from_dict(contract.registry_record.metadata).parties[0].name == NOT_PUBLIC
    with pytest.raises(ValidationError) as early:
        registry.registry_submit(contract=contract, user=reviewer, operation="modifikace", reason="Oprava")
    assert early.value.code == "wrong_status"
    suggested = list(contract.proposals.filter(suggestion="redact").values_list("pk", flat=True))
    reviewing.proposals_decide(contract=contract, user=reviewer, proposal_ids=suggested, decision="accept")
    publishing.contract_approve(contract=contract, user=reviewer)
    run_latest_job(contract)
    assert contract.status == Status.PUBLISHED, contract.error_message
    with pytest.raises(ValidationError) as as_new:
        registry.registry_submit(contract=contract, user=reviewer)  # not a second record of the same contract
    assert as_new.value.code == "wrong_status"

    submission = registry.registry_submit(
        contract=contract, user=reviewer, operation="modifikace", reason="Znečitelněny osobní údaje prodávajícího"
    )
    registry.registry_submission_send(submission_id=submission.pk)
    submission.refresh_from_db()
    message = databox.messages[submission.message_id]
    xml = message.files[0][3]
    assert isrs.validate(xml) == "modifikace" and b"<idSmlouvy>101</idSmlouvy>" in xml
    assert "Jan Novák".encode() not in xml and "Lipová".encode() not in xml
    sent = {name: content for name, _mime, _meta, content in message.files[1:]}
    assert sorted(n.rsplit(".", 1)[-1] for n in sent) == ["pdf", "txt"]
    pdf = next(c for n, c in sent.items() if n.endswith(".pdf"))
    text = pymupdf.open(stream=pdf, filetype="pdf")[0].get_text()
    assert "750403/1238" not in text and "Kupní smlouva" in text

    registry.registry_replies_fetch(agency=agency)
    submission.refresh_from_db()
    contract.refresh_from_db()
    sale.refresh_from_db()
    assert submission.state == registry.SubmissionState.ACCEPTED and not submission.error_code
    assert submission.reply["record_id"] == 101 and contract.status == Status.REGISTERED
    assert sale.corrected_at is not None and sale.version_id == submission.reply["version_id"]
    assert sorted(n for n, _h in databox.records[101].files) == sorted(sent)  # the new files replace the old


def _published_as_reviewed(contract, reviewer) -> None:
    """Process ``contract``, accept every suggested redaction and publish it."""
    from contracts.models import Status
    from contracts.services import publishing, reviewing
    from tests.plugins.tenants import run_latest_job

    run_latest_job(contract)
    suggested = list(contract.proposals.filter(suggestion="redact").values_list("pk", flat=True))
    reviewing.proposals_decide(contract=contract, user=reviewer, proposal_ids=suggested, decision="accept")
    publishing.contract_approve(contract=contract, user=reviewer)
    run_latest_job(contract)
    assert contract.status == Status.PUBLISHED, contract.error_message


def _page(contract, user) -> str:
    """The contract's detail page as ``user`` reads it (Czech)."""
    from django.urls import reverse

    from tests.plugins.tenants import logged_in

    url = reverse("contracts:detail", kwargs={"agency_id": contract.agency_id, "contract_id": contract.pk})
    answer = logged_in(user).get(url, HTTP_ACCEPT_LANGUAGE="cs")
    assert answer.status_code == 200, answer.status_code
    return answer.content.decode()


def test_a_record_with_two_exposing_files_is_corrected_file_by_file(open_data, agency, admin_user, reviewer, databox):
    """Each exposing file gets its own correction; the record's new version waits for all of them
    and carries each as its correction published it, the clean file unchanged."""
    from contracts.models import AuditEvent, Status
    from registry import services as registry
    from registry.services.corrections import record_correct

    sale = open_data.file("kupni.pdf", pdf_from_paragraphs(CONTRACT_TEXT))
    boxed = open_data.file("prodej.pdf", _blacked_over(pdf_from_paragraphs(CONTRACT_TEXT), "750403/1238"))
    clean_pdf = pdf_from_paragraphs(CLEAN_TEXT)
    clean = open_data.file("dilo.pdf", clean_pdf)
    open_data.publish(JULY, [open_data.record(104, _metadata(agency, [FIRM]), [sale, boxed, clean])])
    _imported(agency, admin_user)
    _audit_all(agency, reviewer)
    record = agency.published_records.get(record_id=104)
    databox.add_record(104, AGENCY_BOX, [(f.name, f.sha256) for f in record.files.all()])
    files = {f.name: f for f in record.files.all()}
    assert {f["name"] for f in record.findings["files"] if f["legible"]} >= {"kupni.pdf", "prodej.pdf"}

    lead = record_correct(record=record, user=reviewer, file_id=files["kupni.pdf"].pk)
    further = record_correct(record=record, user=reviewer, file_id=files["prodej.pdf"].pk)
    assert further != lead
    assert record_correct(record=record, user=reviewer, file_id=files["prodej.pdf"].pk) == further
    assert record_correct(record=record, user=reviewer) == lead  # the record's correction
    record.refresh_from_db()
    assert (record.correction, record.correction_file.name) == (lead, "kupni.pdf")
    assert {f.name: f.correction for f in record.files.all()} == {
        "kupni.pdf": lead,
        "prodej.pdf": further,
        "dilo.pdf": None,
    }
    assert not hasattr(further, "registry_record") or not further.registry_record.record_id

    _published_as_reviewed(lead, reviewer)
    with pytest.raises(ValidationError) as waiting:
        registry.registry_submit(contract=lead, user=reviewer, operation="modifikace", reason="Oprava")
    assert waiting.value.code == "correction_pending" and "prodej.pdf" in waiting.value.messages[0]

    panel = _page(lead, reviewer)
    assert "prodej.pdf" in panel and "ještě nezveřejněno; záznam nelze odeslat" in panel

    _published_as_reviewed(further, reviewer)
    assert "Tato smlouva opravuje soubor prodej.pdf záznamu 104" in _page(further, reviewer)
    assert "ještě nezveřejněno" not in _page(lead, reviewer)
    for operation in ("zverejneni", "modifikace"):  # never on its own: a second record, or no record
        with pytest.raises(ValidationError) as alone:
            registry.registry_submit(contract=further, user=reviewer, operation=operation, reason="Oprava")
        assert alone.value.code == "wrong_status" and "prodej.pdf" in alone.value.messages[0]

    submission = registry.registry_submit(contract=lead, user=reviewer, operation="modifikace", reason="Oprava")
    registry.registry_submission_send(submission_id=submission.pk)
    submission.refresh_from_db()
    sent = {name: content for name, _mime, _meta, content in databox.messages[submission.message_id].files[1:]}
    assert sent["dilo.pdf"] == clean_pdf  # unchanged
    corrected_pdfs = [c for n, c in sent.items() if n.endswith(".pdf") and n != "dilo.pdf"]
    assert len(corrected_pdfs) == 2 and len([n for n in sent if n.endswith(".txt")]) == 2
    for pdf in corrected_pdfs:
        text = pymupdf.open(stream=pdf, filetype="pdf")[0].get_text()
        assert "750403/1238" not in text and "Kupní smlouva" in text
    with pytest.raises(ValidationError) as late:
        record_correct(record=record, user=reviewer, file_id=files["dilo.pdf"].pk)
    assert late.value.code == "already_sent"

    registry.registry_replies_fetch(agency=agency)
    lead.refresh_from_db()
    record.refresh_from_db()
    assert lead.status == Status.REGISTERED and record.corrected_at is not None
    assert sorted(n for n, _h in databox.records[104].files) == sorted(sent)
    assert AuditEvent.objects.filter(contract=further, action="registry_modifikace_accepted").exists()


def test_a_record_goes_out_only_when_each_exposing_file_is_corrected_or_stated_as_it_is(
    open_data, agency, admin_user, reviewer, databox
):
    """Correcting one of two exposing files does not send the other unchanged without a word: the
    record's new version is refused, naming it, until a reviewer corrects it or states that it
    goes as it is (recorded in the audit trail); once sent, no file can join any more."""
    from django.urls import reverse

    from contracts.models import AuditEvent
    from registry import services as registry
    from registry.services.corrections import files_to_decide, record_correct, record_file_as_is
    from tests.plugins.tenants import logged_in
    from tests.plugins.tokens import api, make_token

    sale_pdf = pdf_from_paragraphs(CONTRACT_TEXT)
    sale = open_data.file("kupni.pdf", sale_pdf)
    annex = open_data.file("dodatek.pdf", pdf_from_paragraphs([*CONTRACT_TEXT[:2], "Dodatek č. 1."]))
    open_data.publish(JULY, [open_data.record(105, _metadata(agency, [FIRM]), [sale, annex])])
    _imported(agency, admin_user)
    _audit_all(agency, reviewer)
    record = agency.published_records.get(record_id=105)
    databox.add_record(105, AGENCY_BOX, [(f.name, f.sha256) for f in record.files.all()])
    files = {f.name: f for f in record.files.all()}
    with pytest.raises(ValidationError) as early:
        record_file_as_is(record=record, user=reviewer, file_id=files["kupni.pdf"].pk)
    assert early.value.code == "no_correction"

    lead = record_correct(record=record, user=reviewer, file_id=files["dodatek.pdf"].pk)
    _published_as_reviewed(lead, reviewer)
    record.refresh_from_db()
    assert [(f.name, n > 0) for f, n in files_to_decide(record)] == [("kupni.pdf", True)]
    with pytest.raises(ValidationError) as waiting:
        registry.registry_submit(contract=lead, user=reviewer, operation="modifikace", reason="Oprava")
    assert waiting.value.code == "files_undecided" and "kupni.pdf" in waiting.value.messages[0]
    panel = _page(lead, reviewer)
    assert 'id="registry-undecided"' in panel and "kupni.pdf" in panel
    assert 'id="registry-send-correction" disabled' in panel

    # the API door: a reviewer states it, by the file's name; a file with nothing to decide is refused
    token = make_token(agency, Role.REVIEWER, created_by=admin_user)[1]
    url = reverse("api:registry_records_file_as_is", kwargs={"record_id": 105})
    assert api(token).post(f"{url}?file=dodatek.pdf").json()["extra"]["code"] == "no_file"
    stated = api(token).post(f"{url}?file=kupni.pdf")
    assert stated.status_code == 200 and stated.json()["as_is"] and stated.json()["exposure"] > 0
    event = AuditEvent.objects.get(contract=lead, action="record_file_sent_as_is")
    assert event.detail["file"] == "kupni.pdf" and event.detail["findings"] > 0
    trail = (
        logged_in(reviewer)
        .get(
            reverse("contracts:audit", kwargs={"agency_id": agency.pk, "contract_id": lead.pk}),
            HTTP_ACCEPT_LANGUAGE="cs",
        )
        .content.decode()
    )
    assert "Soubor záznamu jde do registru tak, jak je" in trail and "soubor: kupni.pdf" in trail
    assert ">record_file_sent_as_is<" not in trail and "file:" not in trail
    assert "kupni.pdf" in _page(lead, reviewer) and 'id="registry-undecided"' not in _page(lead, reviewer)

    preview = registry.registry_preview(lead)  # the panel's XML names the files the message carries
    submission = registry.registry_submit(contract=lead, user=reviewer, operation="modifikace", reason="Oprava")
    registry.registry_submission_send(submission_id=submission.pk)
    submission.refresh_from_db()
    sent = {name: content for name, _mime, _meta, content in databox.messages[submission.message_id].files[1:]}
    assert sent["kupni.pdf"] == sale_pdf  # as the reviewer stated: unchanged
    assert b"<prilohy/>" not in preview
    assert sorted(re.findall(rb"<nazevSouboru>([^<]+)</nazevSouboru>", preview)) == sorted(n.encode() for n in sent)
    with pytest.raises(ValidationError) as late:
        record_correct(record=record, user=reviewer, file_id=files["kupni.pdf"].pk)
    assert late.value.code == "already_sent"
    records = logged_in(reviewer).get(reverse("registry:records", kwargs={"agency_id": agency.pk})).content.decode()
    assert "correct-file" not in records  # nothing offered that would answer "already sent"


def test_the_api_imports_audits_lists_and_starts_a_correction(open_data, month, agency, admin_user):
    from tests.plugins.tokens import api, make_token

    admin = api(make_token(agency, Role.ADMIN, created_by=admin_user)[1])
    clerk = api(make_token(agency, Role.CLERK, created_by=admin_user)[1])
    assert clerk.get("/api/v1/registry/records/").status_code == 403
    bad = admin.post("/api/v1/registry/records/imports/", {"month": "2026-7-x"}, format="json")
    assert bad.status_code == 400
    started = admin.post("/api/v1/registry/records/imports/", {"month": "2026-07"}, format="json")
    assert started.status_code == 202 and started.json()["state"] == "queued"
    published.record_import_run(import_id=started.json()["id"])
    state = admin.get(f"/api/v1/registry/records/imports/{started.json()['id']}/").json()
    assert (state["state"], state["records"], state["stored"], state["refused"]) == ("done", 3, 3, 1)

    run = admin.post("/api/v1/registry/records/audit/")
    assert run.status_code == 202 and run.json()["total"] == 3
    while audit.record_audit_step(audit_id=run.json()["id"]) is not None:
        pass
    assert admin.get("/api/v1/registry/records/audit/").json()["done"] == 3
    assert admin.post("/api/v1/registry/records/audit/").status_code == 409  # nothing left to audit

    listed = admin.get("/api/v1/registry/records/?limit=2").json()
    assert listed["count"] == 3 and [r["record_id"] for r in listed["results"]] == [101, 102]
    first = listed["results"][0]
    assert first["exposure"] > 0 and {"label": "Jméno soukromé osoby v metadatech", "count": 1} in first["categories"]
    csv = admin.get("/api/v1/registry/records/csv/")
    assert csv.status_code == 200 and csv["Content-Type"].startswith("text/csv")
    text = b"".join(csv.streaming_content).decode("utf-8")
    assert text.startswith("\ufeff")  # what Excel needs to read UTF-8
    lines = text[1:].splitlines()
    assert lines[0].startswith("Záznam;Verze;Odkaz;Zveřejněno dne") and [line.split(";")[0] for line in lines[1:]] == [
        "101",
        "102",
        "103",
    ]
    assert "Prověřeno" in lines[1] and "audit_state" not in text  # values in Czech too
    english = admin.get("/api/v1/registry/records/csv/", HTTP_ACCEPT_LANGUAGE="en")
    assert b"".join(english.streaming_content).decode("utf-8")[1:].startswith("Record,Version,Link")

    made = admin.post("/api/v1/registry/records/101/correct/")
    assert made.status_code == 201
    assert PublishedRecord.objects.get(agency=agency, record_id=101).correction_id == made.json()["id"]
    unknown = admin.post("/api/v1/registry/records/101/correct/?file=nic.pdf")
    assert (unknown.status_code, unknown.json()["extra"]["code"]) == (400, "no_file")
    [kupni] = admin.get("/api/v1/registry/records/?limit=1").json()["results"][0]["files"]
    assert (kupni["name"], kupni["state"], kupni["correction"]) == ("kupni.pdf", "stored", made.json()["id"])
    assert kupni["exposure"] == first["findings"]["files"][0]["legible"]
    assert admin.post("/api/v1/registry/records/999/correct/").status_code == 404


def test_the_page_is_the_reviewers_and_the_import_the_admins(open_data, month, agency, admin_user, reviewer, clerk):
    from tests.plugins.tenants import logged_in

    url = f"/a/{agency.pk}/contracts/registry/records/"
    assert logged_in(clerk).get(url).status_code == 403
    page = logged_in(reviewer).get(url)
    assert page.status_code == 200 and b"records-import" not in page.content
    xml = open_data.paths["/dump_2026_07.xml"]
    from django.core.files.uploadedfile import SimpleUploadedFile

    refused = logged_in(reviewer).post(url + "import/", {"dump": SimpleUploadedFile("d.xml", xml)}, follow=True)
    assert not RecordImport.objects.exists() and "importují jen správci úřadu" in refused.content.decode()
    logged_in(admin_user).post(url + "import/", {"dump": SimpleUploadedFile("d.xml", xml)})
    assert RecordImport.objects.get().source == "d.xml"


def test_a_dump_is_read_piece_by_piece_as_parse_dump_reads_it_whole(shared_data):
    import io

    data = (shared_data / "registry" / "dump_2016_07.xml").read_bytes()
    whole = [r for r in isrs.parse_dump(data) if r.metadata.publisher.ico == "70891508"]
    pieces = list(isrs.iter_dump(io.BytesIO(data), lambda body: body.ico == "70891508"))
    assert len(pieces) == 155 and pieces == whole


@pytest.mark.parametrize(
    "xml",
    [
        b'<!DOCTYPE dump [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>'
        b'<dump xmlns="http://portal.gov.cz/rejstriky/ISRS/1.2/"><mesic>&b;</mesic></dump>',
        b'<zverejneni xmlns="http://portal.gov.cz/rejstriky/ISRS/1.2/"/>',
        b'<dump xmlns="http://portal.gov.cz/rejstriky/ISRS/1.2/"><mesic>07</mesic>',
        b"%PDF-1.7",
    ],
    ids=["entity-bomb", "other-root", "cut-off", "not-xml"],
)
def test_a_dump_that_is_no_dump_is_refused_when_read(xml):
    import io

    with pytest.raises(isrs.RegistryXmlError):
        list(isrs.iter_dump(io.BytesIO(xml), lambda body: True))


def test_a_kept_record_the_schema_refuses_refuses_the_dump_another_agencys_is_not_read(open_data, agency):
    import io

    only = open_data.record(9, _metadata(agency, [FIRM]), [open_data.file("a.pdf", b"%PDF-1.4")])
    xml = open_data.paths[open_data.publish(JULY, [only])]
    broken = xml.replace(b"<idVerze>9</idVerze>", b"<idVerze>devet</idVerze>")
    assert list(isrs.iter_dump(io.BytesIO(broken), lambda body: False)) == []
    with pytest.raises(isrs.RegistryXmlError):
        list(isrs.iter_dump(io.BytesIO(broken), lambda body: True))


def test_a_failed_import_is_started_again_and_goes_on(open_data, month, agency, admin_user, reviewer):
    served = open_data.paths.pop("/dump_2026_07.xml")
    started = _imported(agency, admin_user)
    assert started.state == RecordImport.State.FAILED and "404" in started.error
    with pytest.raises(PermissionDenied):
        published.record_import_retry(agency=agency, user=reviewer, import_id=started.pk)
    open_data.paths["/dump_2026_07.xml"] = served
    again = published.record_import_retry(agency=agency, user=admin_user, import_id=started.pk)
    assert again.state == RecordImport.State.QUEUED and not again.error
    published.record_import_run(import_id=started.pk)
    again.refresh_from_db()
    assert (again.state, again.records, again.stored) == (RecordImport.State.DONE, 3, 3)
    with pytest.raises(ValidationError) as done:
        published.record_import_retry(agency=agency, user=admin_user, import_id=started.pk)
    assert done.value.code == "not_failed"


def test_a_dead_work_horse_fails_its_import_and_an_audit_goes_on(open_data, month, agency, admin_user, reviewer):
    from types import SimpleNamespace

    from registry import jobs

    started = published.record_import_fetch(agency=agency, user=admin_user, month=JULY)
    RecordImport.objects.filter(pk=started.pk).update(state=RecordImport.State.RUNNING)
    jobs.on_import_failure(SimpleNamespace(args=[started.pk]), None, MemoryError, MemoryError(), None)
    started.refresh_from_db()
    assert started.state == RecordImport.State.FAILED and started.error
    published.record_import_retry(agency=agency, user=admin_user, import_id=started.pk)
    published.record_import_run(import_id=started.pk)

    run = audit.record_audit_start(agency=agency, user=reviewer)
    PublishedRecord.objects.filter(agency=agency, record_id=101).update(audit_state=PublishedRecord.AuditState.RUNNING)
    jobs.on_audit_failure(SimpleNamespace(args=[run.pk]), None, MemoryError, MemoryError(), None)
    assert agency.published_records.get(record_id=101).audit_state == PublishedRecord.AuditState.FAILED


def test_a_step_that_raises_fails_its_record_with_an_internal_error(open_data, month, agency, admin_user, reviewer,
                                                                    monkeypatch):  # fmt: skip
    from registry import jobs

    _imported(agency, admin_user)
    run = audit.record_audit_start(agency=agency, user=reviewer)

    def broken(record):
        raise RuntimeError("a bug")

    monkeypatch.setattr(audit, "record_audit", broken)
    jobs.audit_records(run.pk)
    failed = agency.published_records.get(record_id=101)
    assert failed.audit_state == PublishedRecord.AuditState.FAILED and "vnitřní chyb" in failed.audit_error
    assert "a bug" not in failed.audit_error


def test_an_audit_whose_chain_of_jobs_was_lost_is_queued_again_when_started(
    open_data, month, agency, admin_user, reviewer, monkeypatch
):
    from datetime import timedelta

    from django.utils import timezone

    _imported(agency, admin_user)
    queued: list[int] = []
    monkeypatch.setattr(audit, "_next", lambda run: queued.append(run.pk))
    run = audit.record_audit_start(agency=agency, user=reviewer)
    audit.record_audit_step(audit_id=run.pk)
    assert audit.record_audit_start(agency=agency, user=reviewer) == run and queued == [run.pk, run.pk]
    # a step began less than a step may run ago: its chain may be alive, nothing more is queued
    assert audit.record_audit_start(agency=agency, user=reviewer) == run and len(queued) == 2
    RecordAudit.objects.filter(pk=run.pk).update(stepped_at=timezone.now() - timedelta(seconds=audit.STEP_SECONDS + 61))
    assert audit.record_audit_start(agency=agency, user=reviewer) == run and len(queued) == 3
