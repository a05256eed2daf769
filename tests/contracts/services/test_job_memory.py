"""A background job runs under a memory cap: past it, the job gets MemoryError and fails with a
sentence, and the process that forked it is untouched; a large contract goes to the slow queue."""

from __future__ import annotations

import os

import pytest

from contracts.jobs import _describe
from contracts.memory import limit_memory
from contracts.models import Contract, Run
from contracts.services.runs import run_queue


def test_a_job_past_its_cap_gets_memory_error_and_its_parent_goes_on():
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # the work horse
        os.close(read)
        cap = limit_memory(64 * 1024**2)
        try:
            bytearray(512 * 1024**2)  # a decompression bomb's worth
            answer = b"allocated"
        except MemoryError:
            answer = b"memory error" if cap else b"no cap"
        os.write(write, answer)
        os._exit(0)
    os.close(write)
    _pid, status = os.waitpid(child, 0)
    assert os.read(read, 64) == b"memory error" and os.WEXITSTATUS(status) == 0
    assert len(bytearray(512 * 1024**2)) == 512 * 1024**2  # the parent has no cap


def test_the_clerk_reads_a_sentence_for_a_job_out_of_memory(settings):
    settings.LANGUAGE_CODE = "en"
    assert "more memory than one document may use" in _describe(MemoryError(), 7)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("size", "scans", "queue"), [(200_000, 0, "default"), (20 * 1024**2, 0, "ocr"), (200_000, 3, "ocr")]
)
def test_large_and_scanned_contracts_go_to_the_slow_queue(agency, size, scans, queue, settings):
    settings.REDACTOR_SLOW_QUEUE_BYTES = 8 * 1024**2
    contract = Contract(agency=agency, original_size=size, scan_pages=scans)
    assert run_queue(Run(contract=contract, kind=Run.Kind.PROCESSING)) == queue
    assert run_queue(Run(contract=contract, kind=Run.Kind.PUBLISHING)) == "default"
