#!/usr/bin/env python
"""The registry watchdog's score (Hlídač státu) of real contracts before and after the product's
redaction: pages whose black is 5 % or more of their black and text (counted as redacted) and
20 % or more (heavily redacted), and files it would call unreadable.

usage: .venv/bin/python benchmarks/watchdog.py [DIR_OR_PDF...] [--pages]
       (default: ../shared/data/real)

Every PDF is analysed and published as the command line does it (every proposal whose action is
redact accepted). "before" scores the input: the black already in its pictures (a contract
blacked out on paper and scanned, an earlier redaction; :func:`redactor.black_areas`) against the
words the analysis read; "after" is the product's figure for the published file, the one it keeps
and shows (:func:`redactor.watchdog_pages`: its boxes and that black, against the words it
keeps); "published file alone" measures the published file with nothing but the file, black from
its pictures and text from its own text layer, as the watchdog would. ``--pages`` lists every page
at 5 % or more with the three figures, for a check by hand. Timing is not measured here.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

import numpy as np  # noqa: E402
import pymupdf  # noqa: E402

from policy.runtime import get_engine  # noqa: E402
from redactor.errors import RedactionError, VerificationError  # noqa: E402
from redactor.read.review import (  # noqa: E402
    WATCHDOG_HEAVY,
    WATCHDOG_REDACTED,
    black_areas,
    watchdog_pages,
    watchdog_readable,
)


def file_scores(data: bytes) -> tuple[list[float], str]:
    """Each page's black share and the file's text, from the file alone: black from its pictures
    (:func:`redactor.black_areas`), text from its own text layer's words the black leaves."""
    black = black_areas(data)
    doc = pymupdf.open(stream=data, filetype="pdf")
    try:
        shares, text = [], []
        for index, page in enumerate(doc):
            mask = black[index + 1]
            words = np.zeros_like(mask)
            for word in page.get_text("words"):  # unrotated page space: turned as the picture is
                x0, y0, x1, y1 = pymupdf.Rect(word[:4]) * page.rotation_matrix
                r0, r1, c0, c1 = max(0, int(y0)), max(0, int(np.ceil(y1))), max(0, int(x0)), max(0, int(np.ceil(x1)))
                cell = mask[r0:r1, c0:c1]
                if cell.size and cell.mean() < 0.5:
                    words[r0:r1, c0:c1] = True
            b, t = float(mask.sum()), float((words & ~mask).sum())
            shares.append(b / (b + t) if b + t else 0.0)
            text.append(page.get_text())
        return shares, "\n".join(text)
    finally:
        doc.close()


def _counts(shares: list[float]) -> tuple[int, int]:
    return (
        sum(1 for s in shares if round(s, 4) >= WATCHDOG_REDACTED),
        sum(1 for s in shares if round(s, 4) >= WATCHDOG_HEAVY),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="*", default=[str(ROOT.parent / "shared" / "data" / "real")])
    parser.add_argument("--pages", action="store_true", help="list every page at 5 % or more")
    args = parser.parse_args()
    pdfs = [q for p in map(Path, args.paths) for q in (sorted(p.glob("*.pdf")) if p.is_dir() else [p])]
    engine = get_engine()
    totals = {"pages": 0, "before": [0, 0], "after": [0, 0], "pixels": [0, 0], "files": 0, "refused": 0}
    unreadable = {"before": 0, "after": 0}
    listed = []
    for pdf in pdfs:
        data = pdf.read_bytes()
        try:
            analysis = engine.analyze(data)
            result = engine.redact(analysis.document, analysis.to_redact())
        except (RedactionError, VerificationError) as exc:
            totals["refused"] += 1
            print(f"{pdf.name}: not published ({exc})")
            continue
        layer = analysis.text_layer
        before = [p.share for p in analysis.document.watchdog([])]
        after = [p.share for p in watchdog_pages(layer, result.boxes, black_areas(result.pdf))]
        pixels, published_text = file_scores(result.pdf)
        totals["files"] += 1
        totals["pages"] += len(before)
        for key, shares in (("before", before), ("after", after), ("pixels", pixels)):
            redacted, heavy = _counts(shares)
            totals[key][0] += redacted
            totals[key][1] += heavy
        kept_before = layer.text
        unreadable["before"] += not watchdog_readable(kept_before)
        unreadable["after"] += not watchdog_readable(published_text)
        for n, (b, a, p) in enumerate(zip(before, after, pixels, strict=False), start=1):
            if max(b, a, p) >= WATCHDOG_REDACTED:
                listed.append(f"  {pdf.name} page {n}: before {b:.1%}, after {a:.1%}, published file alone {p:.1%}")
    print(f"{totals['files']} PDFs published, {totals['refused']} refused; {totals['pages']} pages")
    for key, label in (
        ("before", "input (its own black)"),
        ("after", "published (product's figure)"),
        ("pixels", "published file alone"),
    ):
        redacted, heavy = totals[key]
        print(f"{label:<30} pages ≥ 5 %: {redacted:>3}   ≥ 20 %: {heavy:>3}")
    print(f"files it would call unreadable: before {unreadable['before']}, after {unreadable['after']}")
    if args.pages:
        print("\n".join(listed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
