"""The records an agency published before, in a real browser with the real worker: the admin
uploads a month's dump of the registry's open data (served with its files by the project's
open-data test server on loopback), the worker imports the agency's records and fetches their files,
the reviewer audits them and reads the list ordered by what each record exposes, then corrects the
worst: the contract made from its published file is reviewed and published, and sent through the
data-box test server as a new version of the record. Screenshot ``screenshots/10-records.png``."""

from __future__ import annotations

import os
import signal
from datetime import date

import pymupdf
import pytest
from django.core.management import call_command

from accounts.models import Agency, Role
from contracts import selectors
from contracts.models import Contract, Status
from contracts.services import publishing, reviewing
from redactor.metadata import ContractMetadata, PublishingBody, RegistryParty
from registry import isrs
from registry import services as registry
from registry.models import PublishedRecord, RecordAudit, RecordImport, RegistrySubmission
from tests.databox_server import DataBoxServer
from tests.pdfs import pdf_from_paragraphs
from tests.plugins.browser import SCREENSHOTS, log_in
from tests.plugins.tenants import CONTRACT_TEXT
from tests.registry_open_data import OpenDataServer
from tests.worker import flush_queue, start_worker, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

WORK = [
    "Smlouva o dílo č. 2026/40",
    "Objednatel: Statutární město Demo, IČO: 00000001",
    "Zhotovitel: STAVBY HORÁK s.r.o., IČO: 25596641, se sídlem Průmyslová 8, 602 00 Brno",
    "Cena díla činí 250 000 Kč bez DPH.",
]


def _dump(server: OpenDataServer, agency: Agency) -> bytes:
    body = PublishingBody(name=agency.name, ico=agency.ico)
    seller = RegistryParty(name="Jan Novák", address="Lipová 12, 602 00 Brno")
    firm = RegistryParty(name="STAVBY HORÁK s.r.o.", ico="25596641")
    records = [
        server.record(
            3001,
            ContractMetadata(body, [firm], "Smlouva o dílo", date(2026, 6, 2)),
            [server.file("dilo.pdf", pdf_from_paragraphs(WORK))],
        ),
        server.record(
            3002,
            ContractMetadata(body, [seller], "Kupní smlouva", date(2026, 6, 30)),
            [server.file("kupni.pdf", pdf_from_paragraphs(CONTRACT_TEXT))],
        ),
    ]
    return server.paths[server.publish(date(2026, 7, 1), records)]


def test_the_agency_audits_its_published_records_and_corrects_one(live_server, browser_page, settings, tmp_path):
    call_command("demo", url=live_server.url, stdout=open(os.devnull, "w"))
    agency = Agency.objects.get(ico="00000001")
    admin = agency.memberships.get(role=Role.ADMIN).user
    reviewer = agency.memberships.get(role=Role.REVIEWER).user
    databox = DataBoxServer(registry_box=settings.REDACTOR_REGISTRY_DATABOX)
    databox.add_box(agency.data_box_id, "demo-box", "demo-box-heslo")
    box_url = databox.start()
    settings.REDACTOR_DATABOX_URL_TEST = box_url
    registry.registry_settings_update(agency=agency, user=admin, channel="databox", environment="test",
                                      login="demo-box", password="demo-box-heslo")  # fmt: skip
    with OpenDataServer() as open_data:
        dump = tmp_path / "dump_2026_07.xml"
        dump.write_bytes(_dump(open_data, agency))
        served = open_data.paths.pop("/dump_2026_07.xml")  # the registry has not published July yet
        settings.REDACTOR_REGISTRY_OPEN_DATA_URL = open_data.url  # the web door names the month's address
        settings.REDACTOR_REGISTRY_FILES_URL = open_data.files_url
        flush_queue()
        env = {
            "REDACTOR_DATABOX_URL_TEST": box_url,
            "REDACTOR_REGISTRY_FETCH": "true",
            "REDACTOR_REGISTRY_OPEN_DATA_URL": open_data.url,
            "REDACTOR_REGISTRY_FILES_URL": open_data.files_url,
        }
        worker = start_worker(env=env)
        try:
            page = browser_page
            log_in(page, live_server, "spravce")
            page.click("nav >> text=Zveřejněné záznamy")
            # the month fetched from the registry: not there yet, so the import fails and says why
            page.fill("#records-import input[name=month]", "2026-07")
            with page.expect_navigation():  # the form answers with this same page
                page.click("#records-import-start")
            assert "Import byl zahájen" in page.inner_text(".messages")
            wait_for(lambda: RecordImport.objects.filter(agency=agency, state="failed").exists(), timeout=60)
            page.reload()
            assert "odpověděl kódem 404" in page.inner_text("#record-imports")
            open_data.paths["/dump_2026_07.xml"] = served
            page.click("#record-imports button.retry")
            wait_for(lambda: RecordImport.objects.filter(agency=agency, state="done").exists(), timeout=60)
            assert (RecordImport.objects.get().records, RecordImport.objects.get().stored) == (2, 2)
            # the same month's dump uploaded: nothing new, nothing fetched again
            fetched = sum(n for path, n in open_data.requests.items() if "/soubor/" in path)
            page.set_input_files("#records-import input[name=dump]", str(dump))
            page.click("#records-import-start")
            wait_for(lambda: RecordImport.objects.filter(agency=agency, state="done").count() == 2, timeout=60)
            assert RecordImport.objects.order_by("-id").first().new == 0
            assert sum(n for path, n in open_data.requests.items() if "/soubor/" in path) == fetched

            page.context.clear_cookies()  # the reviewer on the same machine
            log_in(page, live_server, "kontrolor")
            page.goto(f"{live_server.url}/a/{agency.pk}/contracts/registry/records/")
            assert page.locator("#records-import").count() == 0  # importing is the admin's
            page.click("#records-audit-start")
            wait_for(lambda: not PublishedRecord.objects.filter(agency=agency).exclude(audit_state="done").exists(),
                     timeout=120)  # fmt: skip
            page.reload()
            page.wait_for_selector("#records-audit-summary")  # the page stops refreshing when the audit ends
            rows = page.locator("#records tr.record")
            assert rows.count() == 2 and rows.nth(0).get_attribute("data-record") == "3002"  # most exposed first
            first = rows.nth(0).inner_text()
            assert "Rodné číslo" in first and "Jméno soukromé osoby v metadatech: 1" in first, first
            assert (
                rows.nth(1).locator(".exposure").inner_text() == "0"
                and rows.nth(1).locator("button.correct").count() == 0
            )
            assert "Adresa soukromé osoby v metadatech: 1" in page.inner_text("#records-categories")
            with page.expect_download() as csv_download:
                page.click("#records-csv")
            # what Czech Excel opens as it is: a byte-order mark, semicolons, Czech headers
            assert open(csv_download.value.path(), "rb").read(3) == b"\xef\xbb\xbf"
            lines = open(csv_download.value.path(), encoding="utf-8-sig").read().splitlines()
            assert lines[0].startswith("Záznam;Verze;Odkaz") and lines[1].startswith("3002;")
            SCREENSHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / "10-records.png"), full_page=True)
            # after a change of the map the reviewer audits everything again
            with page.expect_navigation():
                page.click("#records-audit-again")
            assert "Prověřování běží na pozadí" in page.inner_text(".messages")
            assert RecordAudit.objects.filter(agency=agency).count() == 2
            wait_for(lambda: RecordAudit.objects.filter(agency=agency, state="done").count() == 2, timeout=120)
            page.reload()

            # correct the worst: a contract from its published file, reviewed like any upload
            rows.nth(0).locator("button.correct").click()
            page.wait_for_url(lambda url: "/contracts/" in url and "/registry/" not in url)
            record = PublishedRecord.objects.get(agency=agency, record_id=3002)
            contract = record.correction
            assert contract is not None and contract.original_sha256 == record.files.get().sha256
            wait_for(lambda: Contract.objects.get(pk=contract.pk).status == Status.NEEDS_REVIEW, timeout=120)
            open_ids = list(selectors.proposals_open(contract=contract).values_list("pk", flat=True))
            if open_ids:
                reviewing.proposals_decide(contract=contract, user=reviewer, proposal_ids=open_ids, decision="accept")
            publishing.contract_approve(contract=contract, user=reviewer)
            wait_for(lambda: Contract.objects.get(pk=contract.pk).status == Status.PUBLISHED, timeout=120)

            # the page may still show the contract under review: load it (a fragment alone does not)
            page.goto(f"{live_server.url}/a/{agency.pk}/contracts/{contract.pk}/")
            assert "opravuje záznam 3002" in page.inner_text("#registry-correct-record")
            page.click("#registry-send-correction")
            page.wait_for_selector("#registry-state")
            submission = wait_for(
                lambda: RegistrySubmission.objects.filter(contract=contract, state="sent").first(), timeout=60
            )
            assert submission.operation == "modifikace"
            xml = databox.messages[submission.message_id].files[0][3]
            assert isrs.validate(xml) == "modifikace" and b"<idSmlouvy>3002</idSmlouvy>" in xml
            assert "Novák".encode() not in xml
        finally:
            os.killpg(worker.pid, signal.SIGTERM)
            worker.wait(timeout=30)
            databox.stop()


def _record_imported_and_audited(settings, agency, admin, record_id: int, with_clean_file: bool) -> None:
    """A record of the agency with two files that expose data (and a clean one when asked),
    imported from the open-data test server and audited, as the import and audit jobs do."""
    from registry.services import audit, published

    with OpenDataServer() as open_data:
        settings.REDACTOR_REGISTRY_OPEN_DATA_URL = open_data.url
        settings.REDACTOR_REGISTRY_FILES_URL = open_data.files_url
        settings.REDACTOR_REGISTRY_FETCH = True
        body = PublishingBody(name=agency.name, ico=agency.ico)
        firm = RegistryParty(name="STAVBY HORÁK s.r.o.", ico="25596641")
        files = [
            open_data.file("kupni.pdf", pdf_from_paragraphs(CONTRACT_TEXT)),
            open_data.file("dodatek.pdf", pdf_from_paragraphs([*CONTRACT_TEXT[:2], "Dodatek č. 1 ke kupní smlouvě."])),
        ]
        if with_clean_file:
            files.append(open_data.file("dilo.pdf", pdf_from_paragraphs(WORK)))
        record = open_data.record(record_id, ContractMetadata(body, [firm], "Kupní smlouva", date(2026, 6, 30)), files)
        open_data.publish(date(2026, 7, 1), [record])
        started = published.record_import_fetch(agency=agency, user=admin, month=date(2026, 7, 1))
        published.record_import_run(import_id=started.pk)
    run = audit.record_audit_start(agency=agency, user=admin)
    while audit.record_audit_step(audit_id=run.pk) is not None:
        pass


def test_each_exposing_file_of_a_record_is_corrected_on_its_own(live_server, browser_page, settings):
    """A record with two files that expose data lists both; the reviewer corrects the second
    file through its own button, and the list then shows it being corrected."""
    call_command("demo", url=live_server.url, stdout=open(os.devnull, "w"))
    agency = Agency.objects.get(ico="00000001")
    admin = agency.memberships.get(role=Role.ADMIN).user
    _record_imported_and_audited(settings, agency, admin, 3005, with_clean_file=True)
    flush_queue()

    page = browser_page
    log_in(page, live_server, "kontrolor")
    page.goto(f"{live_server.url}/a/{agency.pk}/contracts/registry/records/")
    listed = page.locator("#records tr.record ul.files li")
    assert [t.split(" (")[0] for t in listed.all_inner_texts()] == ["kupni.pdf", "dodatek.pdf"]  # dilo.pdf is clean
    listed.nth(1).locator("button.correct-file").click()
    page.wait_for_url(lambda url: "/contracts/" in url and "/registry/" not in url)
    assert "odešle nová verze záznamu" in page.inner_text(".messages")  # the record's correction
    stored = PublishedRecord.objects.get(agency=agency, record_id=3005)
    corrected = {f.name: f.correction_id for f in stored.files.all()}
    assert corrected["dodatek.pdf"] is not None and stored.correction_id == corrected["dodatek.pdf"]
    assert corrected["kupni.pdf"] is None

    page.goto(f"{live_server.url}/a/{agency.pk}/contracts/registry/records/")
    assert listed.nth(1).locator("a.file-correction").count() == 1
    listed.nth(0).locator("button.correct-file").click()  # the other file: a further correction
    page.wait_for_url(lambda url: "/contracts/" in url and "/registry/" not in url)
    stored.refresh_from_db()
    further = stored.files.get(name="kupni.pdf").correction
    assert further is not None and further != stored.correction
    assert "spolu s opravou záznamu" in page.inner_text(".messages")
    flush_queue()


def test_a_record_waits_until_each_exposing_file_is_corrected_or_goes_as_it_is(live_server, browser_page, settings):
    """Two files of a record expose data and one is corrected: the record's correction names the
    other and cannot be sent until the reviewer decides it; stated to go as it is, the record goes
    out, and the list then offers no correction that would answer "already sent"."""
    from registry.services.corrections import record_correct
    from tests.plugins.tenants import run_latest_job

    call_command("demo", url=live_server.url, stdout=open(os.devnull, "w"))
    agency = Agency.objects.get(ico="00000001")
    admin = agency.memberships.get(role=Role.ADMIN).user
    reviewer = agency.memberships.get(role=Role.REVIEWER).user
    registry.registry_settings_update(agency=agency, user=admin, channel="package", environment="test")
    _record_imported_and_audited(settings, agency, admin, 3006, with_clean_file=False)
    stored = PublishedRecord.objects.get(agency=agency, record_id=3006)
    lead = record_correct(record=stored, user=reviewer, file_id=stored.files.get(name="dodatek.pdf").pk)
    run_latest_job(lead)
    open_ids = list(selectors.proposals_open(contract=lead).values_list("pk", flat=True))
    if open_ids:
        reviewing.proposals_decide(contract=lead, user=reviewer, proposal_ids=open_ids, decision="accept")
    publishing.contract_approve(contract=lead, user=reviewer)
    run_latest_job(lead)
    assert lead.status == Status.PUBLISHED, lead.error_message
    flush_queue()

    page = browser_page
    log_in(page, live_server, "kontrolor")
    page.goto(f"{live_server.url}/a/{agency.pk}/contracts/{lead.pk}/#registry")
    undecided = page.locator("#registry-undecided")
    assert "kupni.pdf" in undecided.inner_text() and "stále ukazují osobní údaje" in undecided.inner_text()
    assert page.locator("#registry-send-correction").is_disabled()
    with page.expect_navigation():  # the answer comes back to this same page: its URL proves nothing
        undecided.locator("button.as-is").click()
    assert "půjde do registru tak, jak je" in page.inner_text(".messages")
    assert "kupni.pdf jde beze změny: rozhodl(a) kontrolor" in page.inner_text("#registry-as-is")
    assert page.locator("#registry-undecided").count() == 0
    page.click("#registry-send-correction")
    page.wait_for_selector("#registry-state")
    submission = RegistrySubmission.objects.get(contract=lead)
    assert submission.operation == "modifikace" and "kupni.pdf" in {f["name"] for f in submission.files}
    assert "Nová verze záznamu" in page.inner_text("#registry")  # not "Oprava metadat"
    page.goto(f"{live_server.url}/a/{agency.pk}/contracts/{lead.pk}/audit/")
    assert "Soubor záznamu jde do registru tak, jak je" in page.inner_text("main")

    page.goto(f"{live_server.url}/a/{agency.pk}/contracts/registry/records/")
    row = page.locator("#records tr.record")
    assert row.locator("button.correct-file").count() == 0 and "jde tak, jak je" in row.inner_text()


def test_the_quick_starts_demo_month_is_imported_audited_corrected_and_sent(
    live_server, browser_page, settings, tmp_path
):
    """The quick start's own data (registry/demo.py, served as bin/start serves it, and known to
    the data-box test server as with REDACTOR_DEMO_DATABOX=1): the admin imports the demo month,
    the reviewer audits it, corrects the record that names a private seller, and its new version
    is accepted by the test registry."""
    import functools
    import http.server
    import threading

    from registry.demo import DEMO_MONTH, demo_records, write_demo_month

    call_command("demo", url=live_server.url, stdout=open(os.devnull, "w"))
    agency = Agency.objects.get(ico="00000001")
    reviewer = agency.memberships.get(role=Role.REVIEWER).user
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    served = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=served.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{served.server_port}/"
    write_demo_month(tmp_path, base, ico=agency.ico, data_box=agency.data_box_id, name=agency.name)
    databox = DataBoxServer(registry_box=settings.REDACTOR_REGISTRY_DATABOX)
    databox.add_box(agency.data_box_id, "demo", "demo-heslo")
    for record in demo_records(tmp_path):
        databox.add_record(record.record_id, agency.data_box_id, [(f.name, f.sha256) for f in record.files])
    box_url = databox.start()
    settings.REDACTOR_DATABOX_URL_TEST = box_url
    settings.REDACTOR_REGISTRY_OPEN_DATA_URL = base
    settings.REDACTOR_REGISTRY_FILES_URL = f"{base}smlouva/soubor/"
    call_command("registry_demo", databox="demo:demo-heslo", stdout=open(os.devnull, "w"))
    flush_queue()
    env = {
        "REDACTOR_DATABOX_URL_TEST": box_url,
        "REDACTOR_REGISTRY_FETCH": "true",
        "REDACTOR_REGISTRY_OPEN_DATA_URL": base,
        "REDACTOR_REGISTRY_FILES_URL": f"{base}smlouva/soubor/",
    }
    worker = start_worker(env=env)
    try:
        page = browser_page
        log_in(page, live_server, "spravce")
        page.click("nav >> text=Zveřejněné záznamy")
        page.fill("#records-import input[name=month]", f"{DEMO_MONTH:%Y-%m}")
        page.click("#records-import-start")
        wait_for(lambda: RecordImport.objects.filter(agency=agency, state="done").exists(), timeout=60)
        assert (RecordImport.objects.get().records, RecordImport.objects.get().stored) == (4, 5)
        page.click("#records-audit-start")  # an admin audits too
        wait_for(
            lambda: not PublishedRecord.objects.filter(agency=agency).exclude(audit_state="done").exists(),
            timeout=180,
        )
        page.reload()
        page.wait_for_selector("#records-audit-summary")
        rows = page.locator("#records tr.record")
        exposing = {rows.nth(i).get_attribute("data-record") for i in range(rows.count()) if
                    rows.nth(i).locator("button.correct").count()}  # fmt: skip
        assert {"9100002", "9100003", "9100004"} <= exposing and "9100001" not in exposing
        assert "Rodné číslo" in page.inner_text("#records-categories")

        page.context.clear_cookies()
        log_in(page, live_server, "kontrolor")
        page.goto(f"{live_server.url}/a/{agency.pk}/contracts/registry/records/")
        page.locator('#records tr.record[data-record="9100002"] button.correct').click()
        page.wait_for_url(lambda url: "/contracts/" in url and "/registry/" not in url)
        record = PublishedRecord.objects.get(agency=agency, record_id=9100002)
        contract = record.correction
        wait_for(lambda: Contract.objects.get(pk=contract.pk).status == Status.NEEDS_REVIEW, timeout=120)
        open_ids = list(selectors.proposals_open(contract=contract).values_list("pk", flat=True))
        if open_ids:
            reviewing.proposals_decide(contract=contract, user=reviewer, proposal_ids=open_ids, decision="accept")
        publishing.contract_approve(contract=contract, user=reviewer)
        wait_for(lambda: Contract.objects.get(pk=contract.pk).status == Status.PUBLISHED, timeout=120)
        # the page may still show the contract under review: load it (a fragment alone does not)
        page.goto(f"{live_server.url}/a/{agency.pk}/contracts/{contract.pk}/")
        page.click("#registry-send-correction")
        page.wait_for_selector("#registry-state")
        # the test registry accepts the record's new version; its reply (read every few minutes) registers it
        wait_for(lambda: RegistrySubmission.objects.filter(contract=contract, state="sent").exists(), timeout=60)
        registry.registry_replies_fetch(agency=agency)
        assert Contract.objects.get(pk=contract.pk).status == Status.REGISTERED
        record.refresh_from_db()
        assert record.corrected_at is not None
        submission = RegistrySubmission.objects.get(contract=contract)
        xml = databox.messages[submission.message_id].files[0][3]
        assert b"<idSmlouvy>9100002</idSmlouvy>" in xml and "Hrdličková".encode() not in xml
        assert "685318/1236" not in "".join(
            pymupdf.open(stream=content, filetype="pdf")[0].get_text()
            for name, _mime, _meta, content in databox.messages[submission.message_id].files[1:]
            if name.endswith(".pdf")
        )
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=30)
        databox.stop()
        served.shutdown()
