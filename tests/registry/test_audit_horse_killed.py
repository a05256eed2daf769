"""An audit step or an import whose work horse dies by a signal (a crash inside MuPDF, the
out-of-memory killer) fails at once with its sentence, as a contract's run does: the worker runs
the job's own failure callback, which RQ calls only for an exception inside the horse."""

from __future__ import annotations

import pytest

from contracts import queue
from registry.models import PublishedRecord, RecordAudit, RecordImport
from registry.services.audit import ON_AUDIT_FAILURE
from registry.services.published import ON_IMPORT_FAILURE
from tests.worker import flush_queue, start_worker, wait_for

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def test_a_crashed_audit_step_fails_its_record_at_once_and_the_audit_goes_on(agency):
    flush_queue()
    record = PublishedRecord.objects.create(
        agency=agency, record_id=41, version_id=1, audit_state=PublishedRecord.AuditState.RUNNING
    )
    audit = RecordAudit.objects.create(agency=agency, state=RecordAudit.State.RUNNING, total=1)
    queue.enqueue("tests.worker.die_by_signal", audit.pk, queue="low", timeout=60, on_failure=ON_AUDIT_FAILURE)
    worker = start_worker(burst=True, queues=("low",))
    assert worker.wait(timeout=120) == 0
    record.refresh_from_db()
    assert record.audit_state == PublishedRecord.AuditState.FAILED
    assert record.audit_error  # the sentence the records page shows
    # the audit went on with its next step and, with nothing left, ended
    wait_for(lambda: RecordAudit.objects.get(pk=audit.pk).state == RecordAudit.State.DONE, timeout=30)


def test_a_crashed_import_fails_with_its_reason(agency):
    flush_queue()
    started = RecordImport.objects.create(agency=agency, state=RecordImport.State.RUNNING)
    queue.enqueue("tests.worker.die_by_signal", started.pk, queue="low", timeout=60, on_failure=ON_IMPORT_FAILURE)
    worker = start_worker(burst=True, queues=("low",))
    assert worker.wait(timeout=120) == 0
    started.refresh_from_db()
    assert started.state == RecordImport.State.FAILED and started.error
