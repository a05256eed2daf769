#!/usr/bin/env python
"""What the reader's check of the published pages costs, against the whole of redacting a page.

usage: .venv/bin/python benchmarks/reader_check.py [PDF_DIR ...] [--rounds N] [--no-docs]

Pins the process to one core (Tesseract to one thread, one page at a time), then analyses and
redacts every PDF of each PDF_DIR (default: the dev set, its scans and the twins of
``../shared/data``) as the command line does (the proposals kept or left for review passed to the
check) ROUNDS times, and reports, for born-digital pages and for scanned pages apart, the time of
the whole (analysis, burn-in, verification, the pictures' second reading, the check) and of the
reader's check alone (:func:`redactor.publish.reader_check.reader_check`, as it times itself), per
page and as a share, with the values it sent to review. A document counts as scanned when every
page of it was read by OCR, carries another tool's checked OCR layer or is mostly picture (a scan
under its own visible text), as born-digital when none was. Timing lives here, never in a test.
The result is the evaluation page's row (``docs/evaluation/figures/reader_check.md``) unless
``--no-docs``.
"""

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_THREAD_LIMIT", "1")

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.figures import one_core, shown, write_row  # noqa: E402
from redactor.detect.nlp import RuleOnlyNlpEngine  # noqa: E402
from redactor.engine import RedactionEngine  # noqa: E402
from redactor.model import Action  # noqa: E402
from redactor.read.ocr import TesseractOcr  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"
#: A page whose pictures cover this share of it is a scan, whatever its text layer.
SCAN_COVERAGE = 0.5
DEFAULT = [SHARED / "dev", SHARED / "dev" / "scanned", SHARED / "twins"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pdf_dirs", nargs="*", type=Path, default=DEFAULT)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--no-docs", action="store_true", help="do not write the evaluation page's row")
    args = parser.parse_args()
    one_core()
    files = [f for d in args.pdf_dirs for f in sorted(d.glob("*.pdf"))]
    engine = RedactionEngine(nlp=RuleOnlyNlpEngine(), ocr=TesseractOcr(parallel=1))
    engine.load()
    engine.analyze(files[0].read_bytes())  # warm caches outside the measurement
    totals = {kind: {"pages": 0, "whole": 0.0, "check": 0.0, "review": 0, "documents": 0} for kind in ("born", "scan")}
    for _ in range(args.rounds):
        for path in files:
            data = path.read_bytes()
            started = time.perf_counter()
            analysis = engine.analyze(data)
            others = [p for p in analysis.proposals if p.action != Action.REDACT]
            result = engine.redact(analysis.document, analysis.to_redact(), others=others)
            spent = time.perf_counter() - started
            read = [p.ocr or p.scan_layer or p.pictured or p.image_coverage >= SCAN_COVERAGE for p in analysis.pages]
            kind = "scan" if all(read) else "born" if not any(read) else None
            if kind is None:
                continue  # a document of both kinds says nothing of either
            checked = result.verification.checks["reader_check"]
            tally = totals[kind]
            tally["pages"] += len(analysis.pages)
            tally["whole"] += spent
            tally["check"] += float(checked["seconds"])
            tally["review"] += len(result.findings)
            tally["documents"] += 1
    lines = []
    for kind, label in (("born", "born-digital"), ("scan", "scanned")):
        t = totals[kind]
        if not t["pages"]:
            continue
        share = t["check"] / t["whole"]
        whole, check = t["whole"] / t["pages"] * 1000, t["check"] / t["pages"] * 1000
        lines.append(
            f"{label}: {t['documents']} documents, {t['pages']} pages; end to end {whole:.0f} ms per page, "
            f"the check {check:.0f} ms per page = {share:.1%} of it; {t['review']} values sent to review"
        )
    print(f"{len(files)} files x {args.rounds} rounds, one core, Tesseract one page at a time")
    print("\n".join(lines))
    if not args.no_docs and lines:
        folders = " ".join(shown(d) for d in args.pdf_dirs)
        figure = "; ".join(
            f"{label}: **{totals[kind]['check'] / totals[kind]['whole']:.1%}** of end to end "
            f"({totals[kind]['check'] / totals[kind]['pages'] * 1000:.0f} of "
            f"{totals[kind]['whole'] / totals[kind]['pages'] * 1000:.0f} ms per page, {totals[kind]['pages']} pages)"
            for kind, label in (("born", "born-digital"), ("scan", "scanned"))
            if totals[kind]["pages"]
        )
        what = "The reader's check of the published pages, its share of redacting a page, one core"
        print("wrote", write_row("reader_check", what, figure, f"benchmarks/reader_check.py {folders}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
