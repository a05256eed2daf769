"""The registry of contracts in a real browser, with the real worker, the real cron scheduler and
the project's data-box test server over HTTP: a published contract's metadata are shown
pre-filled with where each value was found, the reviewer corrects one, sends, and the page shows
the contract registered with the registry's link. Screenshot ``screenshots/9-registry.png``."""

from __future__ import annotations

import os
import signal

import pytest
from django.core.management import call_command

from accounts.models import Agency, Role
from contracts import selectors
from contracts.models import Contract, Status
from contracts.services import publishing, reviewing, uploads
from registry import isrs
from registry import services as registry
from registry.models import RegistrySubmission
from tests.conftest import DATA
from tests.databox_server import DataBoxServer
from tests.plugins.browser import SCREENSHOTS, log_in
from tests.worker import flush_queue, start_cron, start_worker, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def _status(contract_id: int) -> str:
    return Contract.objects.get(pk=contract_id).status


def test_reviewer_sends_a_contract_to_the_registry_in_the_browser(live_server, browser_page, settings):

    call_command("demo", url=live_server.url, stdout=open(os.devnull, "w"))
    agency = Agency.objects.get(ico="00000001")
    reviewer = agency.memberships.get(role=Role.REVIEWER).user
    admin = agency.memberships.get(role=Role.ADMIN).user
    server = DataBoxServer(registry_box=settings.REDACTOR_REGISTRY_DATABOX)
    server.add_box(agency.data_box_id, "demo-box", "demo-box-heslo")
    url = server.start()
    settings.REDACTOR_DATABOX_URL_TEST = url
    registry.registry_settings_update(agency=agency, user=admin, channel="databox", environment="test",
                                      unit="stavební odbor", login="demo-box", password="demo-box-heslo")  # fmt: skip
    flush_queue()
    env = {"REDACTOR_DATABOX_URL_TEST": url, "REDACTOR_REGISTRY_POLL_SECONDS": "2"}
    worker = start_worker(env=env)
    cron = None
    try:
        data = (DATA / "dev" / "dilo_firma_1.pdf").read_bytes()
        contract = uploads.contract_upload(agency=agency, user=reviewer, data=data, filename="dilo_firma_1.pdf",
                                           title="Smlouva o dílo – Lipová")  # fmt: skip
        wait_for(lambda: _status(contract.pk) == Status.NEEDS_REVIEW, timeout=120)
        contract.refresh_from_db()
        open_ids = list(selectors.proposals_open(contract=contract).values_list("pk", flat=True))
        if open_ids:
            reviewing.proposals_decide(contract=contract, user=reviewer, proposal_ids=open_ids, decision="accept")
        publishing.contract_approve(contract=contract, user=reviewer)
        wait_for(lambda: _status(contract.pk) == Status.PUBLISHED, timeout=120)

        page = browser_page
        log_in(page, live_server, "kontrolor")
        page.goto(f"{live_server.url}/a/{agency.pk}/contracts/{contract.pk}/#registry")
        # pre-filled from the contract, each with the line it was read from
        assert page.input_value("input[name=reg-date_concluded]") == "2024-09-08"
        assert page.input_value("input[name=party-0-name]") == "Silnice Haná s.r.o."
        assert page.input_value("input[name=party-0-ico]") == "40039021"
        assert "3 280 191 Kč bez DPH" in page.inner_text("#registry-form")
        # the reviewer adds what the contract does not say (the agency's own file number), and saves
        page.fill("input[name=reg-number]", "SOD/2024/117")
        page.click("#registry-save")
        page.wait_for_selector("#registry-send")
        assert page.input_value("input[name=reg-number]") == "SOD/2024/117"
        page.click("#registry-send")
        page.wait_for_selector("#registry-state")
        submission = wait_for(
            lambda: RegistrySubmission.objects.filter(contract=contract, state="sent").first(), timeout=60
        )
        xml = server.messages[submission.message_id].files[0][3]
        assert isrs.validate(xml) == "zverejneni" and b"<cisloSmlouvy>SOD/2024/117</cisloSmlouvy>" in xml
        # the periodic job reads the reply: registered, every file's hash checked
        cron = start_cron(env=env)
        wait_for(lambda: _status(contract.pk) == Status.REGISTERED, timeout=60)
        page.reload()
        page.wait_for_selector("#registry-link")
        contract.refresh_from_db()
        assert page.inner_text("#registry-link") == contract.registry_record.link
        assert "Registrováno" in page.inner_text("#registry-status") or "Registered" in page.inner_text(
            "#registry-status"
        )
        SCREENSHOTS.mkdir(exist_ok=True)
        page.locator("#registry").screenshot(path=str(SCREENSHOTS / "9-registry.png"))
    finally:
        for proc in (cron, worker):
            if proc is not None:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(timeout=30)
        server.stop()


def test_reviewer_records_a_package_sent_by_the_records_system_in_the_browser(live_server, browser_page, settings):
    """The demo agency sends through its own records system (the package channel): the reviewer
    prepares and downloads the package, the records system sends it (the data-box test server),
    the reviewer records it as sent and uploads the registry's reply; the contract is registered."""

    from tests.plugins.tenants import run_latest_job
    from tests.registry.web.test_registry_records_system import records_system_sends

    call_command("demo", url=live_server.url, stdout=open(os.devnull, "w"))
    agency = Agency.objects.get(ico="00000001")
    reviewer = agency.memberships.get(role=Role.REVIEWER).user
    assert registry.registry_settings(agency).channel == "package"
    server = DataBoxServer(registry_box=settings.REDACTOR_REGISTRY_DATABOX)
    server.add_box(agency.data_box_id, "spisovka", "heslo-2")
    server.url = server.start()
    try:
        data = (DATA / "dev" / "dilo_firma_1.pdf").read_bytes()
        contract = uploads.contract_upload(agency=agency, user=reviewer, data=data, filename="dilo_firma_1.pdf",
                                           title="Smlouva o dílo – Lipová")  # fmt: skip
        run_latest_job(contract)
        open_ids = list(selectors.proposals_open(contract=contract).values_list("pk", flat=True))
        if open_ids:
            reviewing.proposals_decide(contract=contract, user=reviewer, proposal_ids=open_ids, decision="accept")
        publishing.contract_approve(contract=contract, user=reviewer)
        run_latest_job(contract)

        page = browser_page
        log_in(page, live_server, reviewer.username)
        page.goto(f"{live_server.url}/a/{agency.pk}/contracts/{contract.pk}/#registry")
        page.fill("input[name=reg-number]", "SOD/2024/118")
        page.click("#registry-save")
        page.wait_for_selector("#registry-send")
        page.click("#registry-send")  # prepares the submission (the package channel sends nothing)
        page.wait_for_selector("#registry-sent-form")
        with page.expect_download() as download:
            page.click("#registry-package")
        package = open(download.value.path(), "rb").read()
        message_id, reply = records_system_sends(server, package, ref="spis-7")
        page.fill("#registry-sent-form input[name=message_id]", message_id)
        page.click("#registry-sent")
        page.wait_for_selector("#registry-reply-form")
        assert page.locator("#registry-sent-form").count() == 0
        assert RegistrySubmission.objects.get(contract=contract).state == "sent"
        page.set_input_files("#registry-reply-form input[name=reply]", files=[
            {"name": "odpovedZverejneni.xml", "mimeType": "application/xml", "buffer": reply}])  # fmt: skip
        page.click("#registry-reply")
        page.wait_for_selector("#registry-link")
        contract.refresh_from_db()
        assert contract.status == Status.REGISTERED
        assert "Odpověď registru je vložena" in page.inner_text(".messages")
        assert page.inner_text("#registry-link") == contract.registry_record.link
        SCREENSHOTS.mkdir(exist_ok=True)
        page.locator("#registry").screenshot(path=str(SCREENSHOTS / "9-registry-records-system.png"))
    finally:
        server.stop()
