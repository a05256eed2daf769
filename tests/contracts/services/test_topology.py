"""The worker topologies the project ships, run as they are written: ``bin/start``'s workers and
``compose.yaml``'s, with one agency uploading three scans and a born-digital contract in a row.
Every contract reaches review (no run waits for a scheduler that serves another queue), and in
the browser a run that nobody takes shows its sentence and a retry."""

from __future__ import annotations

import os
import re
import shlex
import signal
from datetime import timedelta

import django_rq
import pytest
import yaml
from django.core.management import call_command
from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import Agency, Membership
from contracts.models import Contract, Run, Status
from contracts.services import uploads
from tests.conftest import ROOT
from tests.pdfs import pdf_from_paragraphs, scan_of
from tests.plugins.browser import log_in
from tests.plugins.tenants import CONTRACT_TEXT
from tests.worker import flush_queue, kill_worker, start_worker, wait_for

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def bin_start_workers() -> list[tuple[str, ...]]:
    """The queues of each worker ``bin/start`` runs by default (``RQ_WORKERS`` 2: the loop that adds
    more is not run), read from its ``manage.py rqworker`` lines."""
    out = []
    for line in (ROOT / "bin" / "start").read_text().splitlines():
        found = re.match(r"^\.venv/bin/python manage\.py rqworker ([^&#]*)&", line)  # not indented: not in a loop
        if found:
            out.append(tuple(a for a in shlex.split(found.group(1)) if re.fullmatch(r"[a-z]+", a)))  # no flags, no 9>&-
    return out


def compose_workers() -> list[tuple[str, ...]]:
    """The queues of each worker service of ``compose.yaml``, read from its command."""
    services = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]
    out = []
    for service in services.values():
        command = service.get("command") or []
        if "rqworker" in command:
            out.append(tuple(a for a in command[command.index("rqworker") + 1 :] if re.fullmatch(r"[a-z]+", a)))
    return out


def test_the_shipped_topologies_are_read():
    # what the test below runs: both files name a worker that serves the scans' queue and one that does not
    for workers in (bin_start_workers(), compose_workers()):
        assert len(workers) == 2 and any("ocr" in w for w in workers) and any("ocr" not in w for w in workers)
        assert all(set(w) <= {"default", "ocr", "low"} for w in workers), workers
        # the background queue (audits, imports, previews) on one worker: the other stays for contracts
        assert sum("low" in w for w in workers) == 1 and all("default" in w for w in workers), workers


@pytest.mark.parametrize("topology", [bin_start_workers, compose_workers], ids=["bin-start", "compose"])
def test_long_background_jobs_never_hold_every_worker(topology, agency, clerk, contract_pdf):
    """Two long jobs on the background queue (an agency's audit step and import) and then a
    contract: the contract reaches review while both still run (one waits for the worker that
    serves the queue)."""
    flush_queue()
    from contracts import queue

    for _ in range(2):
        queue.enqueue("tests.worker.sleep_for", 60, queue="low", timeout=120)
    workers = [start_worker(queues=queues) for queues in topology()]
    try:
        started = django_rq.get_queue("low").started_job_registry
        serving = sum("low" in queues for queues in topology())
        wait_for(lambda: started.count >= min(2, serving), timeout=90)  # every worker it may have, held
        contract = uploads.contract_upload(agency=agency, user=clerk, data=contract_pdf, filename="smlouva.pdf")
        wait_for(lambda: Contract.objects.get(pk=contract.pk).status == Status.NEEDS_REVIEW, timeout=50, interval=0.5)
    finally:
        for worker in workers:
            kill_worker(worker)


@pytest.mark.parametrize("topology", [bin_start_workers, compose_workers], ids=["bin-start", "compose"])
def test_one_agencys_scans_and_contract_in_a_row_all_reach_review(topology, agency, clerk, contract_pdf):
    flush_queue()
    scan = scan_of(pdf_from_paragraphs(CONTRACT_TEXT))
    uploaded = [
        uploads.contract_upload(agency=agency, user=clerk, data=scan, filename=f"sken-{n}.pdf") for n in range(3)
    ]
    uploaded.append(uploads.contract_upload(agency=agency, user=clerk, data=contract_pdf, filename="smlouva.pdf"))
    workers = [start_worker(queues=queues) for queues in topology()]
    try:
        ids = [c.pk for c in uploaded]

        def done():
            statuses = list(Contract.objects.filter(pk__in=ids).values_list("status", flat=True))
            return all(s in (Status.NEEDS_REVIEW, Status.FAILED) for s in statuses)

        wait_for(done, timeout=240, interval=0.5)
    finally:
        for worker in workers:
            kill_worker(worker)
    for contract in Contract.objects.filter(pk__in=ids):
        assert contract.status == Status.NEEDS_REVIEW, (contract.title, contract.error_message)
    assert not Run.objects.exclude(state=Run.State.SUCCEEDED).exists()


@pytest.mark.browser
def test_a_run_nobody_takes_shows_its_sentence_and_a_retry(live_server, browser_page, settings):
    flush_queue()
    call_command("demo", url=live_server.url, stdout=open(os.devnull, "w"))
    demo = Agency.objects.get(ico="00000001")
    clerk = Membership.objects.get(agency=demo, user__username="urednik").user
    contract = uploads.contract_upload(
        agency=demo, user=clerk, data=pdf_from_paragraphs(CONTRACT_TEXT), filename="ceka.pdf", title="Čeká ve frontě"
    )
    waited = timezone.now() - timedelta(seconds=settings.REDACTOR_QUEUE_WAIT_SECONDS + 60)
    Run.objects.filter(contract=contract).update(created_at=waited)  # no worker runs: nobody took it
    page = browser_page
    log_in(page, live_server, "urednik")
    page.goto(f"{live_server.url}/a/{demo.pk}/contracts/{contract.pk}/")
    stuck = page.locator("#stuck")
    # no worker runs here at all: the sentence says so and what to do
    expect(stuck).to_contain_text(re.compile(r"čeká ve frontě \d+ minut.*žádný proces.*provozovateli"))
    stuck.get_by_role("button", name="Zkusit znovu").click()
    expect(page.locator(".messages")).to_contain_text("znovu")
    expect(page.locator("#stuck")).to_have_count(0)
    old, new = Run.objects.filter(contract=contract).order_by("pk")
    assert old.state == Run.State.FAILED and new.state == Run.State.QUEUED
    # a worker now takes it: the page reloads itself when it is ready for review
    worker = start_worker(burst=True)
    try:
        assert worker.wait(timeout=120) == 0
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGKILL)
    expect(page.locator("#status")).to_have_text("Čeká na kontrolu", timeout=30_000)
