#!/usr/bin/env python
"""Signatures and stamps on real scans: what the engine proposes for the ink no word explains.

usage: .venv/bin/python benchmarks/signatures.py [PDF...] [--pictures DIR]
       (default: the scans of ../shared/data/real in which private persons sign,
       smlouvypsp_*.pdf and obecblesno_*.pdf)

Every PDF is analysed with the default engine (rules, Tesseract); the signature proposals
(category 60, :mod:`redactor.decide.signatures`) are counted per document by action (redact:
a private person's, keep: an official's or a company representative's, review: nobody known) and
listed with their page, box (points) and reason code. ``--pictures DIR`` writes, for every page
with such a proposal, a PNG of the page with the boxes drawn (red redact, green keep, orange
review) and a PNG of the published page (every redact proposal accepted, as the command line
does), for a reader's check. Nothing is written to the repository. Timing is not measured here.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pymupdf  # noqa: E402

from redactor import RedactionEngine  # noqa: E402
from redactor.categories import SIGNATURE  # noqa: E402

REAL = ROOT.parent / "shared" / "data" / "real"
COLOURS = {"redact": (1, 0, 0), "keep": (0, 0.6, 0), "review": (1, 0.55, 0)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pdfs", nargs="*", type=Path)
    parser.add_argument("--pictures", type=Path, help="write pictures of the pages with signatures here")
    args = parser.parse_args()
    pdfs = args.pdfs or sorted([*REAL.glob("smlouvypsp_*.pdf"), *REAL.glob("obecblesno_*.pdf")])
    engine = RedactionEngine()
    totals: Counter[str] = Counter()
    print(f"{'document':45} redact keep review")
    for path in pdfs:
        data = path.read_bytes()
        analysis = engine.analyze(data)
        found = [p for p in analysis.proposals if p.category == SIGNATURE]
        counts = Counter(p.action.value for p in found)
        totals.update(counts)
        print(f"{path.name:45} {counts['redact']:6} {counts['keep']:4} {counts['review']:6}")
        for p in found:
            box = ", ".join(f"{v:.0f}" for v in p.boxes[0].as_list())
            print(f"    page {p.page}: {p.action.value:6} [{box}] {p.reason.code}")
        if args.pictures and found:
            args.pictures.mkdir(parents=True, exist_ok=True)
            published = engine.redact(analysis.document, analysis.to_redact()).pdf
            source = pymupdf.open(stream=data, filetype="pdf")
            out = pymupdf.open(stream=published, filetype="pdf")
            for number in sorted({p.page for p in found}):
                page = source[number - 1]
                for p in found:
                    if p.page == number:
                        page.draw_rect(pymupdf.Rect(p.boxes[0].as_list()), color=COLOURS[p.action.value], width=1.5)
                page.get_pixmap(dpi=100).save(args.pictures / f"{path.stem}_p{number}_proposed.png")
                out[number - 1].get_pixmap(dpi=100).save(args.pictures / f"{path.stem}_p{number}_published.png")
    print(f"{'total':45} {totals['redact']:6} {totals['keep']:4} {totals['review']:6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
