"""One progress counter for a whole job: its steps named, the share done and the time left.

A job (processing a contract) goes through steps of unequal cost, some known only once an
earlier step ends: the pages are read, another tool's text layer kept on a scan is checked
against the pixels where boxes fall, the pages found off are read again by OCR, the text is
decided on, the ink of signatures is looked for, and the result is stored. :class:`JobProgress`
follows the steps as they run and turns them into one :class:`ProgressReport`: the step's name,
its own page counter, the share of the whole job done (never going back) and the seconds left.

The estimate comes from the work to go: each step's units (pages, or thousands of characters
for deciding) times a reference cost per unit (:data:`REFERENCE_SECONDS`, measured on the
development machine, 2 cores, by ``benchmarks/progress.py``), scaled by the job's pace (the
seconds its finished steps took over their reference cost), so that a busy machine's estimate
grows with it. The step under way uses its own measured rate once it has done a unit.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum


class Step(StrEnum):
    """A named step of a job, in the order a processing job runs them."""

    PREPARING = "preparing"  # the upload rebuilt and opened
    READING = "reading"  # each page's text, by OCR where it has none (units: pages)
    CHECKING = "checking"  # another tool's text layer checked against the pixels (units: pages)
    REREADING = "rereading"  # the pages whose layer is off read again by OCR (units: pages)
    DECIDING = "deciding"  # recognisers and the category map (units: thousands of characters)
    SIGNATURES = "signatures"  # ink no word explains, on scanned pages (units: pages)
    STORING = "storing"  # the analysed document and the proposals written (units: pages)


#: Steps whose units are pages: their counter is shown ("page 12 of 73").
PAGE_STEPS = frozenset({Step.READING, Step.REREADING, Step.SIGNATURES})

#: Seconds per unit of each step on the reference machine (2 cores, idle), from
#: ``benchmarks/progress.py`` over the real set and the longest scan of ``real/more`` (73
#: pages): a page read (a born-digital page takes less, a page read by OCR more; the step's own
#: rate takes over after its first page), a page of another tool's layer checked, a page read
#: again by OCR, a thousand characters decided, a scanned page searched for ink, a page stored.
REFERENCE_SECONDS: dict[Step, float] = {
    Step.PREPARING: 0.04,
    Step.READING: 0.7,
    Step.CHECKING: 0.07,
    Step.REREADING: 3.2,
    Step.DECIDING: 0.007,
    Step.SIGNATURES: 0.05,
    Step.STORING: 0.02,
}

#: Bounds of the pace (observed over reference seconds): one odd step does not swing the estimate.
PACE_BOUNDS = (0.2, 20.0)


@dataclass(frozen=True)
class ProgressReport:
    """Where a job stands: ``step``; ``done`` of ``total`` units of it (pages from 1 when the
    step counts pages, see :data:`PAGE_STEPS`; 0 of 0 otherwise); ``percent`` of the whole job
    (0–100, never lower than an earlier report's); ``seconds_left`` estimated (None before
    anything was measured)."""

    step: Step
    done: int
    total: int
    percent: int
    seconds_left: int | None


@dataclass
class _StepState:
    units: float = 0.0  # planned units
    done: float = 0.0  # units done
    started: float | None = None  # clock when the step began
    seconds: float = 0.0  # seconds it took once finished


@dataclass
class JobProgress:
    """Follows a job's steps and tells ``report`` after each change (a no-op without one).

    ``plan(step, units)`` says how much work a step will be, as soon as it is known (it may be
    said again, larger or smaller); ``start(step, units)`` begins a step (ending the one under
    way); ``advance(done)`` counts units of the step under way. Steps never planned cost nothing.
    ``per_page``: the steps after the engine's (storing) whose units are the document's pages,
    planned by :meth:`pages_known`. ``clock`` is seconds (monotonic), for tests.
    """

    report: Callable[[ProgressReport], None] | None = None
    per_page: tuple[Step, ...] = ()
    clock: Callable[[], float] = time.monotonic
    _steps: dict[Step, _StepState] = field(default_factory=dict)
    _current: Step | None = None
    _percent: int = 0

    def plan(self, step: Step, units: float) -> None:
        """``step`` will be ``units`` units of work (pages, or thousands of characters)."""
        self._state(step).units = max(0.0, units)

    def pages_known(self, pages: int, chars_per_page: int = 2000) -> None:
        """The document has ``pages`` pages: reading, deciding (``chars_per_page`` characters a
        page until the text is known) and the :attr:`per_page` steps are planned by them."""
        self.plan(Step.READING, pages)
        self.plan(Step.DECIDING, pages * chars_per_page / 1000)
        for step in self.per_page:
            self.plan(step, pages)

    def start(self, step: Step, units: float | None = None) -> None:
        """Begin ``step`` (of ``units`` units when given), ending the step under way."""
        self._end_current()
        state = self._state(step)
        if units is not None:
            state.units = max(0.0, units)
        state.started, state.done = self.clock(), 0.0
        self._current = step
        self._tell()

    def advance(self, done: float) -> None:
        """``done`` units of the step under way are done (pages from 1)."""
        if self._current is None:
            return
        state = self._steps[self._current]
        state.done = min(max(done, 0.0), max(state.units, done))
        state.units = max(state.units, state.done)
        self._tell()

    def finish(self) -> None:
        """End the step under way (the job's last step, or before a pause)."""
        self._end_current()
        self._current = None

    def pages(self, step: Step) -> Callable[[int, int], None]:
        """A ``progress(done, total)`` callback (pages from 1) counting ``step``'s pages; the
        first call starts the step when another is under way."""

        def tell(done: int, total: int) -> None:
            if self._current != step:
                self.start(step, total)
            self._steps[step].units = max(self._steps[step].units, total)
            self.advance(done)

        return tell

    def finished(self) -> dict[Step, tuple[float, float]]:
        """``{step: (units, seconds)}`` of the steps that ended (a step run twice: its last run),
        to measure the reference costs (``benchmarks/progress.py``)."""
        return {k: (s.units, s.seconds) for k, s in self._steps.items() if s.started is not None and k != self._current}

    # -- the estimate --------------------------------------------------------------------------
    def snapshot(self) -> ProgressReport:
        """Where the job stands now (see :class:`ProgressReport`)."""
        reference_total = sum(s.units * REFERENCE_SECONDS[k] for k, s in self._steps.items())
        reference_done = sum(self._done_units(k, s) * REFERENCE_SECONDS[k] for k, s in self._steps.items())
        if reference_total > 0:
            self._percent = max(self._percent, min(100, int(100 * reference_done / reference_total)))
        step = self._current or Step.PREPARING
        state = self._steps.get(step, _StepState())
        counted = step in PAGE_STEPS and state.units > 0
        return ProgressReport(
            step,
            int(state.done) if counted else 0,
            int(state.units) if counted else 0,
            self._percent,
            self._seconds_left(),
        )

    def _seconds_left(self) -> int | None:
        finished = [(k, s) for k, s in self._steps.items() if s.started is not None and k != self._current]
        observed = sum(s.seconds for _k, s in finished)
        reference = sum(s.units * REFERENCE_SECONDS[k] for k, s in finished)
        now = self.clock()
        current = self._steps.get(self._current) if self._current is not None else None
        rate = None  # seconds per unit of the step under way, once it has done one
        if current is not None and current.started is not None and current.done >= 1:
            rate = (now - current.started) / current.done
        if reference <= 0 and rate is None:
            return None
        low, high = PACE_BOUNDS
        pace = min(high, max(low, observed / reference)) if reference > 0 else 1.0
        left = 0.0
        for k, s in self._steps.items():
            if s.started is not None and k != self._current:
                continue  # finished
            to_go = max(0.0, s.units - s.done)
            left += to_go * (rate if k == self._current and rate is not None else REFERENCE_SECONDS[k] * pace)
        return round(left)

    def _done_units(self, step: Step, state: _StepState) -> float:
        if state.started is not None and step != self._current:
            return state.units  # finished
        return state.done

    def _state(self, step: Step) -> _StepState:
        return self._steps.setdefault(step, _StepState())

    def _end_current(self) -> None:
        if self._current is None:
            return
        state = self._steps[self._current]
        if state.started is not None:
            state.seconds = self.clock() - state.started
        state.units = max(state.units, state.done)
        self._current = None

    def _tell(self) -> None:
        if self.report is not None:
            self.report(self.snapshot())
