"""The job's progress estimate (:mod:`redactor.progress`): one share that never goes back, the
time left from the work to go, and the engine's steps on a scan whose other tool's layer is off."""

from __future__ import annotations

from redactor import JobProgress, RedactionEngine, RuleOnlyNlpEngine, Step
from redactor.progress import REFERENCE_SECONDS
from tests.pdfs import pdf_from_paragraphs, scan_with_one_line_off


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_share_never_goes_back_when_work_is_found_later():
    clock, reports = Clock(), []
    job = JobProgress(report=reports.append, clock=clock)
    job.pages_known(10)
    job.start(Step.READING)
    for page in range(1, 11):
        clock.now += 1.0
        job.advance(page)
    before = reports[-1].percent
    job.plan(Step.REREADING, 5)  # five pages must be read again: the job grew
    job.start(Step.REREADING)
    assert reports[-1].percent == before > 0
    assert [r.percent for r in reports] == sorted(r.percent for r in reports)


def test_the_time_left_follows_the_step_under_way_and_the_jobs_pace():
    clock, reports = Clock(), []
    job = JobProgress(report=reports.append, clock=clock)
    job.pages_known(10)
    job.start(Step.READING)
    clock.now += 3.0
    job.advance(1)  # 3 s a page: nine pages to go at that rate, then deciding at the job's pace
    left = reports[-1].seconds_left
    assert left is not None and 27 <= left <= 27 + 20 * REFERENCE_SECONDS[Step.DECIDING] * 20
    for page in range(2, 11):
        clock.now += 3.0
        job.advance(page)
    job.start(Step.DECIDING)
    # reading took 10× its reference cost: deciding's estimate is scaled by that pace
    assert reports[-1].seconds_left == round(20 * REFERENCE_SECONDS[Step.DECIDING] * 10)


def test_a_page_counter_is_only_shown_for_steps_that_count_pages():
    job = JobProgress()
    job.pages_known(3)
    job.start(Step.DECIDING)
    assert (job.snapshot().done, job.snapshot().total) == (0, 0)
    job.start(Step.READING)
    job.advance(2)
    assert (job.snapshot().step, job.snapshot().done, job.snapshot().total) == (Step.READING, 2, 3)


def test_an_other_tools_layer_off_the_pixels_is_checked_and_its_pages_read_again():
    clauses = [f"Článek {i}. Smluvní strany se dohodly na podmínkách uvedených v této smlouvě." for i in range(1, 12)]
    seller = "Prodávající: Jan Novák, nar. 3. 4. 1975, bytem Lipová 12, 602 00 Brno"
    scan = scan_with_one_line_off(pdf_from_paragraphs([seller, *clauses]), "Prodávající:")
    reports = []
    engine = RedactionEngine(nlp=RuleOnlyNlpEngine())
    engine.load()
    engine.analyze(scan, progress=JobProgress(report=reports.append))
    steps = [r.step for r in reports]
    assert steps.index(Step.READING) < steps.index(Step.CHECKING) < steps.index(Step.REREADING)
    rereading = [r for r in reports if r.step == Step.REREADING]
    assert rereading[-1].done == rereading[-1].total == 1  # the one page read again, not the document again
    assert [r.percent for r in reports] == sorted(r.percent for r in reports)
