"""A real RQ worker processes a real upload against the real PostgreSQL and Redis; a worker
killed mid-job leaves a failed contract whose retry succeeds."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import django_rq
import pytest
from django.utils import translation

from contracts.models import Contract, Run, Status
from contracts.services import runs, uploads
from tests.worker import flush_queue, kill_worker, start_cron, start_worker, wait_for

# serialized_rollback: the flush after a transactional test would also remove the seeded platform map
pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def _status(contract_id: int) -> str:
    return Contract.objects.get(pk=contract_id).status


def test_worker_processes_an_upload(agency, clerk, contract_pdf):
    flush_queue()
    contract = uploads.contract_upload(agency=agency, user=clerk, data=contract_pdf, filename="smlouva.pdf")
    worker = start_worker(burst=True)
    assert worker.wait(timeout=120) == 0
    contract.refresh_from_db()
    assert contract.status == Status.NEEDS_REVIEW, contract.error_message
    run = Run.objects.get(contract=contract)
    assert run.state == Run.State.SUCCEEDED and run.rq_job_id and run.phase == Run.Phase.DONE and run.percent == 100
    assert contract.proposals.filter(text="750403/1238").exists()


def test_worker_loads_the_engine_once_and_forks_every_job_from_it(agency, clerk, contract_pdf, tmp_path):
    from tests.pdfs import scan_of

    flush_queue()
    first = uploads.contract_upload(agency=agency, user=clerk, data=contract_pdf, filename="smlouva.pdf")
    second = uploads.contract_upload(agency=agency, user=clerk, data=scan_of(contract_pdf), filename="sken.pdf")
    log_path = tmp_path / "worker.log"
    with log_path.open("w") as output:
        worker = start_worker(burst=True, output=output)
        assert worker.wait(timeout=120) == 0
    log = log_path.read_text()
    for contract in (first, second):
        contract.refresh_from_db()
        assert contract.status == Status.NEEDS_REVIEW, contract.error_message
    assert log.count("engine loaded in") == 1, log  # once, in the worker, before the fork
    assert "the engine is loaded in the job" not in log, log  # no job loaded it again
    assert log.count("Job OK") == 2, log  # two jobs, each in its own work horse


def test_worker_reads_a_scan_from_the_ocr_queue_with_progress_by_page(agency, clerk, contract_pdf):
    from tests.pdfs import scan_of

    flush_queue()
    scan = scan_of(contract_pdf)
    contract = uploads.contract_upload(agency=agency, user=clerk, data=scan, filename="sken.pdf")
    worker = start_worker(burst=True)
    assert worker.wait(timeout=120) == 0
    contract.refresh_from_db()
    assert contract.status == Status.NEEDS_REVIEW, contract.error_message
    assert contract.pages[0]["ocr"] and contract.proposals.filter(text="750403/1238").exists()
    run = Run.objects.get(contract=contract)
    assert run.state == Run.State.SUCCEEDED and run.phase == Run.Phase.DONE and run.percent == 100


def test_killed_worker_leaves_a_failed_contract_and_retry_succeeds(agency, clerk, contract_pdf):
    flush_queue()
    contract = uploads.contract_upload(agency=agency, user=clerk, data=contract_pdf, filename="smlouva.pdf")
    worker = start_worker()
    try:
        # the run is claimed first, then the contract shows "processing": wait for both
        wait_for(
            lambda: (
                Run.objects.filter(contract=contract, state=Run.State.RUNNING).exists()
                and _status(contract.pk) == Status.PROCESSING
            ),
            timeout=60,
            interval=0.01,
        )
        kill_worker(worker)  # the worker and its work horse die mid-job
    finally:
        if worker.poll() is None:
            kill_worker(worker)
    assert _status(contract.pk) == Status.PROCESSING
    # the cron scheduler queues the sweep for dead workers; a worker that takes any silence for death runs it
    cron = start_cron()
    try:
        wait_for(lambda: django_rq.get_queue("default").count, timeout=60)
    finally:
        os.killpg(cron.pid, signal.SIGKILL)
        cron.wait(timeout=10)
    sweeper = start_worker(burst=True, env={"REDACTOR_JOB_STALE_SECONDS": "0"})
    assert sweeper.wait(timeout=120) == 0
    assert _status(contract.pk) == Status.FAILED
    runs.contract_retry(contract=contract, user=clerk)
    retry_worker = start_worker(burst=True)
    assert retry_worker.wait(timeout=120) == 0
    contract.refresh_from_db()
    assert contract.status == Status.NEEDS_REVIEW, contract.error_message
    assert list(Run.objects.filter(contract=contract).order_by("id").values_list("state", flat=True)) == [
        Run.State.FAILED,
        Run.State.SUCCEEDED,
    ]


def _children(pid: int) -> list[int]:
    """The child processes of ``pid`` (Linux' /proc)."""
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        out += [int(c) for c in (task / "children").read_text().split()]
    return out


def test_a_work_horse_killed_mid_job_fails_its_contract_at_once_with_a_sentence(agency, clerk, contract_pdf):
    """A horse that dies by a signal (the kernel's out-of-memory killer, a crash inside MuPDF)
    fails its run from the worker, with the sentence and a retry, without waiting for the sweep."""
    from tests.pdfs import scan_of

    flush_queue()
    contract = uploads.contract_upload(agency=agency, user=clerk, data=scan_of(contract_pdf), filename="sken.pdf")
    worker = start_worker()
    try:
        wait_for(lambda: Run.objects.filter(contract=contract, state=Run.State.RUNNING).exists(), timeout=90,
                 interval=0.01)  # fmt: skip
        horses = wait_for(lambda: _children(worker.pid), timeout=30, interval=0.01)
        for horse in horses:
            os.kill(horse, signal.SIGKILL)
        wait_for(lambda: _status(contract.pk) == Status.FAILED, timeout=30)  # the sweep would take minutes
        assert worker.poll() is None  # the worker goes on
    finally:
        kill_worker(worker)
    contract.refresh_from_db()
    with translation.override("cs"):  # the worker writes in the default language
        expected = translation.gettext(
            "The job stopped unexpectedly (its worker process ended, e.g. out of memory). Retry; if it fails "
            "again, split the document."
        )
    assert contract.error_message == expected
    assert Run.objects.get(contract=contract).state == Run.State.FAILED


@pytest.mark.django_db(transaction=False)
def test_the_warm_up_contract_meets_what_a_processing_job_meets(engine):
    """The worker's warm-up (before the first fork) runs each recognizer a contract's job needs and
    the registry's reading, so the horses inherit them built (libphonenumber's Czech metadata among
    them) instead of building them again for every job."""
    from contracts.worker import warm_up_pdf
    from redactor.metadata import prefill

    data = warm_up_pdf()
    analysis = engine.analyze(data)
    found = {p.recognizer for p in analysis.proposals}
    assert {"person", "birth_number", "address", "bank_account", "phone", "ico"} <= found
    assert engine.redact(analysis.document, analysis.to_redact()).verification.ok
    assert prefill(analysis).parties  # the registry's reading names the public body


def test_the_sweep_leaves_a_run_whose_live_worker_is_still_in_one_long_call(agency, clerk, contract_pdf):
    """A job inside one long call reports no progress, yet its worker reports to Redis: the
    stale-run sweep does not fail a run its job is still executing; a run whose job nobody
    executes it does."""
    import django_rq
    from django.utils import timezone

    from contracts import queue

    flush_queue()
    contract = uploads.contract_upload(agency=agency, user=clerk, data=contract_pdf, filename="smlouva.pdf")
    run = Run.objects.get(contract=contract)
    queue.enqueue("tests.worker.sleep_for", 120, queue="low", timeout=300)
    worker = start_worker(queues=("low",))
    try:
        wait_for(lambda: django_rq.get_queue("low").started_job_registry.count >= 1, timeout=90)
        job_id = django_rq.get_queue("low").started_job_registry.get_job_ids()[0]
        # The worker registers the job as started before its work horse marks the job started
        # and names itself in it: wait for the horse (TimeoutError if job_running never says so).
        wait_for(lambda: queue.job_running(job_id), timeout=90)
        long_ago = timezone.now() - timezone.timedelta(hours=1)
        Run.objects.filter(pk=run.pk).update(
            state=Run.State.RUNNING, started_at=long_ago, heartbeat_at=long_ago, rq_job_id=job_id
        )
        assert runs.runs_fail_stale() == 0
        assert Run.objects.get(pk=run.pk).state == Run.State.RUNNING
    finally:
        kill_worker(worker)
    Run.objects.filter(pk=run.pk).update(rq_job_id="no-such-job")
    assert not queue.job_running("no-such-job")
    assert runs.runs_fail_stale() == 1
    assert Run.objects.get(pk=run.pk).state == Run.State.FAILED
