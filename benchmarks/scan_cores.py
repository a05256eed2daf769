#!/usr/bin/env python
"""Scans on one core and on several: the wall time of analysing scanned PDFs with their pages
read by OCR one at a time and N at a time.

usage: .venv/bin/python benchmarks/scan_cores.py [PDF...] [--parallel 1 2]
       (default: the scans of ../shared/data/real and real/more/pdfs_997.pdf, the 73-page inventory)

For each PDF and each count of pages read at once (``TesseractOcr(parallel=N)``, one
single-threaded Tesseract each, ``OMP_THREAD_LIMIT=1``), the engine analyses the file once (rules,
no model) and the wall time, the scanned pages (read by OCR, or their other tool's layer checked
by it) and the pages per second and per core are printed; the total closes the table, and is the evaluation page's row
(``docs/evaluation/figures/scan_cores.md``) unless ``--no-docs`` or PDFs are named. Run it on an
idle machine: other work on the cores shows in the
figures. Timing lives here, never in a test.
"""

import os

os.environ.setdefault("OMP_THREAD_LIMIT", "1")

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.figures import write_row  # noqa: E402
from redactor import RedactionEngine, TesseractOcr  # noqa: E402

REAL = ROOT.parent / "shared" / "data" / "real"
SCANS = ["TestData_581.pdf", "TestData_668.pdf", "pdfs_577.pdf", "smlouvypsp_koubek.pdf", "more/pdfs_997.pdf"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pdfs", nargs="*", type=Path)
    parser.add_argument("--parallel", nargs="+", type=int, default=[1, 2], help="pages read at once (default: 1 2)")
    parser.add_argument("--no-docs", action="store_true", help="do not write the evaluation page's row")
    args = parser.parse_args()
    pdfs = args.pdfs or [REAL / name for name in SCANS]
    print(f"{'document':28} {'pages':>5} " + " ".join(f"{f'{n} at once':>22}" for n in args.parallel))
    totals = {n: [0, 0.0] for n in args.parallel}
    for path in pdfs:
        data = path.read_bytes()
        cells = []
        pages = 0
        for n in args.parallel:
            engine = RedactionEngine(ocr=TesseractOcr(parallel=n))
            started = time.perf_counter()
            analysis = engine.analyze(data)
            seconds = time.perf_counter() - started
            pages = sum(1 for p in analysis.pages if p.image_coverage >= 0.5)  # scanned, read or checked
            totals[n][0] += pages
            totals[n][1] += seconds
            cells.append(f"{seconds:7.1f} s {pages / seconds / n:5.2f} p/s/core")
        print(f"{path.name:28} {pages:5} " + " ".join(f"{c:>22}" for c in cells))
    cells = [f"{s:7.1f} s {p / s / n:5.2f} p/s/core" for n, (p, s) in totals.items()]
    print(f"{'total':28} {totals[args.parallel[0]][0]:5} " + " ".join(f"{c:>22}" for c in cells))
    if not args.no_docs and not args.pdfs:
        figure = "; ".join(
            f"{n} page(s) at once: {s:.1f} s, **{p / s / n:.2f} pages/s per core**" for n, (p, s) in totals.items()
        )
        write_row(
            "scan_cores",
            f"scans on one core and on several ({len(pdfs)} real scans, {totals[args.parallel[0]][0]} pages, "
            "the 73-page inventory with another tool's OCR layer among them)",
            figure,
            "benchmarks/scan_cores.py",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
