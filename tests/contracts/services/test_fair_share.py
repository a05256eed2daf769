"""One agency never holds every worker: a run whose agency already runs its share is queued again
behind the others, and another agency's run is taken at once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import Role
from contracts import queue
from contracts.models import Run
from contracts.services import runs, uploads
from tests.factories import MembershipFactory


@pytest.fixture
def two_workers(monkeypatch):
    """Two workers serve every queue; what would be sent to RQ is recorded instead."""
    sent = []
    monkeypatch.setattr(queue, "worker_count", lambda name: 2)
    monkeypatch.setattr(queue, "enqueue", lambda job, *args, **options: sent.append((job, args, options)))
    return sent


def _upload(agency, user, pdf, name):
    return uploads.contract_upload(agency=agency, user=user, data=pdf, filename=name)


def test_an_agency_running_its_share_waits_and_another_agency_goes_first(
    agency, clerk, other_agency, contract_pdf, two_workers
):
    first, second = (_upload(agency, clerk, contract_pdf, f"smlouva-{n}.pdf") for n in (1, 2))
    other_clerk = MembershipFactory(agency=other_agency, role=Role.CLERK).user
    theirs = _upload(other_agency, other_clerk, contract_pdf, "smlouva-3.pdf")
    run_of = {c.pk: Run.objects.get(contract=c) for c in (first, second, theirs)}
    two_workers.clear()

    assert runs.run_claim(run_of[first.pk].pk) is not None  # the agency's first contract takes a worker
    assert runs.run_claim(run_of[second.pk].pk) is None  # its second would take the other: it waits
    assert Run.objects.get(pk=run_of[second.pk].pk).state == Run.State.QUEUED
    [(job, args, options)] = two_workers
    assert job == queue.PROCESS_CONTRACT and args == (run_of[second.pk].pk,)
    assert options["delay_seconds"] == runs.DEFER_SECONDS
    assert runs.run_claim(run_of[theirs.pk].pk) is not None  # the other agency's contract does not wait


def test_a_run_whose_worker_died_holds_no_share(agency, clerk, contract_pdf, two_workers, settings):
    first, second = (_upload(agency, clerk, contract_pdf, f"smlouva-{n}.pdf") for n in (1, 2))
    dead = runs.run_claim(Run.objects.get(contract=first).pk)
    stale = timezone.now() - timedelta(seconds=settings.REDACTOR_JOB_STALE_SECONDS + 1)
    Run.objects.filter(pk=dead.pk).update(heartbeat_at=stale)
    assert runs.run_claim(Run.objects.get(contract=second).pk) is not None


def test_the_share_can_be_set_and_no_worker_means_no_limit(agency, clerk, contract_pdf, monkeypatch, settings):
    monkeypatch.setattr(queue, "worker_count", lambda name: 0)
    assert runs.agency_share("default") == 0
    monkeypatch.setattr(queue, "worker_count", lambda name: 4)
    assert runs.agency_share("default") == 3
    settings.REDACTOR_AGENCY_RUNS = 2
    assert runs.agency_share("default") == 2
    first, second, third = (_upload(agency, clerk, contract_pdf, f"smlouva-{n}.pdf") for n in (1, 2, 3))
    monkeypatch.setattr(queue, "enqueue", lambda *args, **options: None)
    claimed = [runs.run_claim(Run.objects.get(contract=c).pk) is not None for c in (first, second, third)]
    assert claimed == [True, True, False]
