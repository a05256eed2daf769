"""A processing job's progress, as the clerk's page and the API read it from the run: one counter
for the whole job, each step named, the pages of a scan counted one by one while they are read,
the time left estimated, never going back."""

from __future__ import annotations

import pymupdf
import pytest
from django.utils import translation

from contracts.models import Run
from contracts.services import runs, uploads
from tests.pdfs import scan_of
from tests.plugins.tenants import run_latest_job

pytestmark = pytest.mark.django_db


def _pages(pdf: bytes, copies: int) -> bytes:
    """``pdf`` with its pages repeated ``copies`` times."""
    out = pymupdf.open()
    with pymupdf.open(stream=pdf, filetype="pdf") as src:
        for _ in range(copies):
            out.insert_pdf(src)
    return out.tobytes()


@pytest.fixture
def seen(monkeypatch):
    """Every state of the run as stored after each progress record: (phase, done, total, percent,
    seconds left, the sentence in English, the sentence in Czech)."""
    states: list[tuple] = []
    record = runs.run_progress

    def spy(run, *args, **kwargs):
        record(run, *args, **kwargs)
        stored = Run.objects.get(pk=run.pk)
        with translation.override("en"):
            english = stored.progress_text()
        with translation.override("cs"):
            czech = stored.progress_text()
        states.append((stored.phase, stored.progress_done, stored.progress_total, stored.percent,
                       stored.seconds_left, english, czech))  # fmt: skip

    monkeypatch.setattr(runs, "run_progress", spy)
    return states


def test_a_scan_is_counted_page_by_page_under_named_steps(agency, clerk, contract_pdf, seen):
    contract = uploads.contract_upload(
        agency=agency, user=clerk, data=scan_of(_pages(contract_pdf, 3)), filename="sken.pdf"
    )
    run_latest_job(contract)
    run = Run.objects.get(contract=contract)
    assert run.state == Run.State.SUCCEEDED and run.phase == Run.Phase.DONE and run.percent == 100

    phases = [s[0] for s in seen]
    order = [p for i, p in enumerate(phases) if i == 0 or phases[i - 1] != p]
    # the steps in the job's order; nothing after storing, no step named twice in a row
    for earlier, later in zip(
        ["preparing", "reading", "deciding", "signatures"], ["reading", "deciding", "signatures", "storing"]
    ):
        assert order.index(earlier) < order.index(later), order
    assert order[-1] == "storing"

    reading = [s for s in seen if s[0] == "reading"]
    assert [s[1] for s in reading] == [0, 1, 2, 3] and {s[2] for s in reading} == {3}  # page by page, once each
    assert reading[2][5].startswith("Reading the pages: page 2 of 3, ")
    assert reading[2][6].startswith("Čtení stránek: strana 2 (celkem 3), ")
    assert "left" in reading[2][5] and "zbývá" in reading[2][6]  # the time left, once a page was read
    assert all(s[4] is not None for s in seen if s[0] != "preparing")

    percents = [s[3] for s in seen]
    assert percents == sorted(percents), percents  # one counter: it never goes back
    assert 0 < reading[1][3] < reading[-1][3] < 100  # it rises with the pages and ends below 100 until stored
    assert {s[0] for s in seen} <= set(Run.Phase.values)  # every phase has a label


def test_the_api_tells_the_phase_and_the_time_left(agency, clerk, contract_pdf):
    from contracts.api.serializers import RunSerializer

    contract = uploads.contract_upload(agency=agency, user=clerk, data=contract_pdf, filename="smlouva.pdf")
    run = Run.objects.get(contract=contract)
    Run.objects.filter(pk=run.pk).update(state=Run.State.RUNNING)
    runs.run_progress(run, Run.Phase.READING, 4, 10, percent=37, seconds_left=125)
    run.refresh_from_db()
    with translation.override("cs"):
        data = RunSerializer(run).data
    assert data["phase"] == "reading" and data["phase_display"] == "Čtení stránek"
    assert (data["progress_done"], data["progress_total"], data["percent"], data["seconds_left"]) == (4, 10, 37, 125)
    assert data["progress_text"] == "Čtení stránek: strana 4 (celkem 10), zbývá asi 3 min"
