"""The upload check runs in a process of its own: a file that crashes or holds the PDF readers
ends or holds only that process, refused with a sentence, while the process serving requests
goes on."""

from __future__ import annotations

import os

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from contracts.isolated import check_upload_isolated
from contracts.services.uploads import pdf_check
from redactor.errors import PdfBombError, PdfUnreadableError
from redactor.pdf.pdf_limits import PdfLimits
from tests import bombs
from tests.pdfs import pdf_from_paragraphs

#: The structure limits lifted, so that the readers themselves meet the file.
LIFTED = PdfLimits(structure_depth=1 << 30, objects=1 << 40)


def test_a_reader_that_crashes_ends_only_the_checks_process():
    with pytest.raises(PdfUnreadableError) as refused:
        check_upload_isolated(bombs.deep_outline(60_000), seconds=30, memory_bytes=512 << 20, limits=LIFTED)
    assert refused.value.reason == "crashed"  # MuPDF overflowed its C stack, in the child
    pages, scan_pages = check_upload_isolated(pdf_from_paragraphs(["Smlouva."]), seconds=30, memory_bytes=512 << 20)
    assert (pages, scan_pages) == (1, [])  # this process goes on checking
    assert os.getpid()


def test_a_reader_past_its_deadline_is_killed_and_the_file_refused():
    with pytest.raises(PdfUnreadableError) as refused:
        check_upload_isolated(
            bombs.packed_behind_broken_xref(2_000_000), seconds=0.5, memory_bytes=512 << 20, limits=LIFTED
        )
    assert refused.value.reason == "too_slow" and refused.value.seconds == 0.5


def test_the_checks_own_refusals_cross_the_process_boundary_whole():
    with pytest.raises(PdfBombError) as refused:
        check_upload_isolated(bombs.deep_outline(1_000), seconds=30, memory_bytes=512 << 20)
    assert refused.value.limit == "structure" and refused.value.page is None


@pytest.mark.parametrize(
    ("build", "code"),
    [
        (lambda: bombs.deep_outline(60_000), "too_complex"),
        (lambda: bombs.packed_behind_broken_xref(2_000_000), "too_complex"),
    ],
)
def test_the_upload_refuses_the_probes_classes_with_a_sentence(build, code):
    with translation.override("en"), pytest.raises(ValidationError) as refused:
        pdf_check(build())
    assert refused.value.code == code
    assert "nest more than 256 levels" in refused.value.message or "thousand parts" in refused.value.message


def test_a_crash_and_a_deadline_read_as_sentences_for_the_clerk():
    from contracts.services.uploads import pdf_problem

    translation.activate("en")
    code, sentence = pdf_problem(PdfUnreadableError("crashed", 8))
    assert code == "unreadable" and "Print it to PDF" in sentence
    code, sentence = pdf_problem(PdfUnreadableError("too_slow", 8))
    assert code == "too_slow" and "8 seconds" in sentence
