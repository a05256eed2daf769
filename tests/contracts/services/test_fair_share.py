"""The fair queue: a free worker takes the oldest waiting run of the agency that holds the fewest
workers, an agency working alone takes every worker, and a queued run nobody takes is shown as
stuck with a sentence and a retry."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from accounts.models import Role
from contracts import queue
from contracts.models import Run, Status
from contracts.services import runs, uploads
from tests.factories import MembershipFactory
from tests.pdfs import pdf_from_paragraphs, scan_of
from tests.plugins.tenants import CONTRACT_TEXT


@pytest.fixture
def sent(monkeypatch):
    """What would be sent to RQ, recorded instead (the jobs are taken by hand here)."""
    out = []
    monkeypatch.setattr(queue, "enqueue", lambda job, *args, **options: out.append((job, args, options)))
    return out


def _runs(agency, user, pdf, count, prefix="smlouva"):
    contracts = [
        uploads.contract_upload(agency=agency, user=user, data=pdf, filename=f"{prefix}-{n}.pdf") for n in range(count)
    ]
    return [Run.objects.get(contract=c) for c in contracts]


def test_a_free_worker_serves_the_agency_holding_the_fewest_workers(agency, clerk, other_agency, contract_pdf, sent):
    busy = _runs(agency, clerk, contract_pdf, 3)
    other_clerk = MembershipFactory(agency=other_agency, role=Role.CLERK).user
    [theirs] = _runs(other_agency, other_clerk, contract_pdf, 1)
    # every job is one offer of a worker; which run it takes is chosen when the worker is free
    taken = [runs.run_take(busy[0].pk).pk for _ in range(4)]
    # both agencies hold nothing: the oldest run; then the other agency holds fewer workers
    assert taken == [busy[0].pk, theirs.pk, busy[1].pk, busy[2].pk]
    assert runs.run_take(busy[0].pk) is None  # nothing waits any more: the job does nothing
    assert not [s for s in sent if s[2].get("delay_seconds")]  # nothing is deferred by a timer


def test_an_agency_working_alone_takes_every_worker(agency, clerk, contract_pdf, sent, monkeypatch):
    monkeypatch.setattr(queue, "worker_count", lambda name: 2)
    backlog = _runs(agency, clerk, contract_pdf, 3)
    assert [runs.run_take(r.pk) is not None for r in backlog] == [True, True, True]
    assert Run.objects.filter(agency=agency, state=Run.State.RUNNING).count() == 3


def test_a_run_whose_worker_died_holds_no_worker(agency, clerk, other_agency, contract_pdf, sent, settings):
    first, second = _runs(agency, clerk, contract_pdf, 2)
    other_clerk = MembershipFactory(agency=other_agency, role=Role.CLERK).user
    _runs(other_agency, other_clerk, contract_pdf, 1)
    dead = runs.run_take(first.pk)
    assert dead.pk == first.pk
    stale = timezone.now() - timedelta(seconds=settings.REDACTOR_JOB_STALE_SECONDS + 1)
    Run.objects.filter(pk=dead.pk).update(heartbeat_at=stale)
    assert runs.run_take(first.pk).pk == second.pk  # both agencies hold nothing alive: the older run


def test_a_job_takes_only_runs_of_its_own_queue_and_kind(agency, clerk, contract_pdf, sent):
    [scanned] = _runs(agency, clerk, scan_of(pdf_from_paragraphs(CONTRACT_TEXT)), 1, "sken")
    [digital] = _runs(agency, clerk, contract_pdf, 1)
    assert runs.run_queue(scanned) == "ocr" and runs.run_queue(digital) == "default"
    assert runs.run_take(scanned.pk).pk == scanned.pk
    assert runs.run_take(scanned.pk) is None  # the born-digital run waits for a job of its own queue
    publishing = Run.objects.create(agency=agency, contract=digital.contract, kind=Run.Kind.PUBLISHING)
    assert runs.run_take(publishing.pk).pk == publishing.pk  # a publishing job takes a publishing run
    assert runs.run_take(digital.pk).pk == digital.pk


def test_a_job_delivered_twice_takes_the_next_run_or_nothing(agency, clerk, contract_pdf, sent):
    first, second = _runs(agency, clerk, contract_pdf, 2)
    assert runs.run_take(first.pk).pk == first.pk
    assert runs.run_take(first.pk).pk == second.pk  # first's job again: the next waiting run
    assert runs.run_take(first.pk) is None


def _age(run, seconds):
    Run.objects.filter(pk=run.pk).update(created_at=timezone.now() - timedelta(seconds=seconds))
    run.refresh_from_db()


def test_a_run_nobody_takes_is_stuck_with_a_sentence_and_a_retry(
    agency, clerk, contract_pdf, sent, settings, monkeypatch
):
    settings.LANGUAGE_CODE = "en"
    settings.REDACTOR_QUEUE_WAIT_SECONDS = 60
    monkeypatch.setattr(queue, "worker_count", lambda name: 2)
    [waiting] = _runs(agency, clerk, contract_pdf, 1)
    assert runs.run_stuck(waiting) is None  # it has just come
    _age(waiting, 61)
    assert "waiting for 1 minute although no worker is busy with its queue" in runs.run_stuck(waiting)
    monkeypatch.setattr(queue, "worker_count", lambda name: 0)
    assert "no worker of the service is running" in runs.run_stuck(waiting)

    sent.clear()
    again = runs.contract_retry(contract=waiting.contract, user=clerk)
    waiting.refresh_from_db()
    assert waiting.state == Run.State.FAILED and "no worker of the service is running" in waiting.error
    assert again.state == Run.State.QUEUED and again.pk != waiting.pk
    assert [(job, args) for job, args, _options in sent] == [(queue.PROCESS_CONTRACT, (again.pk,))]
    assert runs.run_stuck(again) is None
    waiting.contract.refresh_from_db()
    assert waiting.contract.status == Status.PROCESSING


def test_a_long_queue_that_moves_is_not_stuck(agency, clerk, contract_pdf, sent, settings):
    settings.REDACTOR_QUEUE_WAIT_SECONDS = 60
    working, waiting = _runs(agency, clerk, contract_pdf, 2)
    assert runs.run_take(working.pk).pk == working.pk
    Run.objects.filter(pk=working.pk).update(started_at=timezone.now() - timedelta(seconds=900))
    _age(waiting, 600)
    assert runs.run_stuck(waiting) is None  # a worker is busy with its queue (its heartbeat is fresh)
    Run.objects.filter(pk=working.pk).update(state=Run.State.SUCCEEDED)
    assert runs.run_stuck(waiting) is not None
    # a scan's queue is another queue: a run on it does not make the born-digital one move
    scanned = _runs(agency, clerk, scan_of(pdf_from_paragraphs(CONTRACT_TEXT)), 1, "sken")[0]
    runs.run_take(scanned.pk)
    assert runs.run_stuck(waiting) is not None


def test_a_queued_run_that_is_not_stuck_is_not_retried(agency, clerk, contract_pdf, sent):
    [waiting] = _runs(agency, clerk, contract_pdf, 1)
    with pytest.raises(ValidationError) as raised:
        runs.contract_retry(contract=waiting.contract, user=clerk)
    assert raised.value.code == "not_failed"


def test_a_client_is_asked_to_wait_about_as_long_as_its_run_has_to_go(
    agency, clerk, other_agency, contract_pdf, sent, settings, monkeypatch
):
    from django.core.cache import cache

    cache.clear()
    settings.REDACTOR_API_POLL_SECONDS = 2
    monkeypatch.setattr(queue, "workers_registered", lambda name: 2)
    backlog = _runs(agency, clerk, contract_pdf, 9)
    other_clerk = MembershipFactory(agency=other_agency, role=Role.CLERK).user
    [theirs] = _runs(other_agency, other_clerk, contract_pdf, 1)
    assert runs.poll_after(backlog[-1].contract) == 2  # nothing finished yet: nothing tells
    done = timezone.now()
    for r in backlog[:3]:  # three runs of the queue took 4 s each
        Run.objects.filter(pk=r.pk).update(
            state=Run.State.SUCCEEDED, started_at=done - timedelta(seconds=4), finished_at=done
        )
    cache.clear()
    # the last of the backlog waits for five of its own and the other agency's one: its round is the 4th of 2 workers
    assert runs.run_seconds_to_go(Run.objects.get(pk=backlog[-1].pk)) == 16
    assert runs.poll_after(backlog[-1].contract) == 12  # three quarters
    # the other agency's single run is next in the fair queue: one round
    assert runs.run_seconds_to_go(theirs) == 4 and runs.poll_after(theirs.contract) == 3
    running = runs.run_take(backlog[3].pk)
    Run.objects.filter(pk=running.pk).update(seconds_left=100)
    assert runs.poll_after(running.contract) == runs.POLL_CAP_SECONDS  # never longer than the cap


@pytest.mark.django_db
def test_runs_whose_jobs_redis_lost_are_offered_again(agency, clerk, contract_pdf, django_capture_on_commit_callbacks):
    from tests.worker import flush_queue

    flush_queue()
    with django_capture_on_commit_callbacks(execute=True):
        waiting = _runs(agency, clerk, contract_pdf, 3)
    assert queue.offers_waiting("default", queue.PROCESS_CONTRACT, set()) == 3
    Run.objects.filter(pk__in=[r.pk for r in waiting]).update(created_at=timezone.now() - timedelta(minutes=5))
    assert runs.runs_offer_lost() == 0  # every run has its job
    flush_queue()  # a restart of a Redis that keeps nothing on disk
    with django_capture_on_commit_callbacks(execute=True):
        assert runs.runs_offer_lost() == 3
    assert queue.offers_waiting("default", queue.PROCESS_CONTRACT, set()) == 3
    assert runs.runs_offer_lost() == 0
    flush_queue()


def test_the_worker_count_of_a_poll_is_asked_of_redis_once_in_a_while(monkeypatch):
    """Every poll's Retry-After counts the workers of its queue; asking Redis opens a connection,
    so a process asks at most once per queue in ``WORKERS_SEEN_SECONDS`` and a change of the
    workers (a restart, scaling) shows after that."""
    asked: list[str] = []
    counts = {"default": 2}
    monkeypatch.setattr(queue.Worker, "count", lambda queue: asked.append(queue.name) or counts[queue.name])
    monkeypatch.setattr(queue, "_workers_seen", {})
    clock = [1000.0]
    monkeypatch.setattr(queue.time, "monotonic", lambda: clock[0])
    assert [queue.workers_registered("default") for _ in range(50)] == [2] * 50
    assert asked == ["default"]
    counts["default"] = 3  # scaled
    clock[0] += queue.WORKERS_SEEN_SECONDS
    assert queue.workers_registered("default") == 3 and asked == ["default", "default"]
