#!/usr/bin/env python
"""How well a processing job's progress foretells its end: the seconds each step takes per unit,
against the reference costs the estimate uses, and the error of the time left it shows.

usage: .venv/bin/python benchmarks/progress.py [PDF...] [--no-docs]
       (default: the real set, ../shared/data/real/*.pdf, and the longest scan of real/more)

Every PDF is analysed with the default engine (rules, Tesseract) under a
:class:`redactor.progress.JobProgress` recording each report. Prints, per step, the units done
(pages; thousands of characters for deciding), the seconds they took and the seconds per unit
against :data:`redactor.progress.REFERENCE_SECONDS`; then, over every report of every document,
the error of the time left shown (shown minus true, in seconds and as a share of the document's
whole time) at a quarter, half and three quarters of the job, median and worst. Without
``--no-docs`` the figure goes to ``docs/evaluation/figures/progress.md``. Timing lives here,
never in a test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pymupdf  # noqa: E402

from benchmarks.figures import write_row  # noqa: E402
from redactor import JobProgress, ProgressReport, RedactionEngine  # noqa: E402
from redactor.progress import REFERENCE_SECONDS  # noqa: E402

REAL = ROOT.parent / "shared" / "data" / "real"


def _default_pdfs() -> list[Path]:
    more = sorted((REAL / "more").glob("*.pdf"))
    longest = max(more, key=lambda p: pymupdf.open(p).page_count) if more else None
    return sorted(REAL.glob("*.pdf")) + ([longest] if longest else [])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pdfs", nargs="*", type=Path)
    parser.add_argument("--no-docs", action="store_true", help="print only; leave the docs' figure alone")
    args = parser.parse_args()
    pdfs = args.pdfs or _default_pdfs()
    engine = RedactionEngine()
    engine.load()
    units: dict[str, float] = defaultdict(float)
    seconds: dict[str, float] = defaultdict(float)
    errors: dict[int, list[tuple[float, float]]] = {25: [], 50: [], 75: []}  # share of the job: (s, share)
    pages = 0
    for path in pdfs:
        reports: list[tuple[float, ProgressReport]] = []
        started = time.monotonic()
        tracker = JobProgress(
            report=lambda r, reports=reports, started=started: reports.append((time.monotonic() - started, r))
        )
        analysis = engine.analyze(path.read_bytes(), progress=tracker)
        whole = time.monotonic() - started
        pages += len(analysis.pages)
        for step, (u, s) in tracker.finished().items():
            units[step] += u
            seconds[step] += s
        for share, found in errors.items():
            at = next(((t, r) for t, r in reports if t >= whole * share / 100 and r.seconds_left is not None), None)
            if at is not None:
                t, r = at
                error = (r.seconds_left or 0) - (whole - t)
                found.append((error, error / whole if whole else 0.0))
        print(f"{path.name:45} {len(analysis.pages):3} pages {whole:6.1f} s", flush=True)
    print(f"\n{'step':12} {'units':>8} {'seconds':>8} {'s/unit':>8} {'reference':>9}")
    for step, reference in REFERENCE_SECONDS.items():
        if units.get(step):
            print(
                f"{step:12} {units[step]:8.1f} {seconds[step]:8.1f} {seconds[step] / units[step]:8.3f} {reference:9.3f}"
            )
    print("\ntime left shown minus true (negative: the job ended later than shown)")
    cells = []
    for share, found in errors.items():
        if not found:
            continue
        median = statistics.median(e for e, _ in found)
        worst = max(found, key=lambda f: abs(f[0]))
        print(
            f"  at {share:2}% of the job: median {median:+.1f} s, worst {worst[0]:+.1f} s ({worst[1]:+.0%} of that job)"
        )
        cells.append(f"at {share} %: median {median:+.1f} s, worst {worst[0]:+.1f} s")
    if not args.no_docs and cells:
        write_row(
            "progress",
            f"time left shown while processing, minus the true time left ({len(pdfs)} PDFs, {pages} pages)",
            "; ".join(cells),
            "benchmarks/progress.py",
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
