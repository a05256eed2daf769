#!/usr/bin/env python
"""The keep check's review load and cost: how many review items a reviewer meets per contract,
how many of them the keep check asks (a keep that only the page's layout supports), and what the
check costs per page on born-digital and scanned pages.

usage: .venv/bin/python benchmarks/keep_check.py [--sets real,twins,twins2] [--no-docs]

Each PDF of the shared sets named (``../shared/data``: ``real`` holds the born-digital and
scanned real contracts, ``twins`` and ``twins2`` the look-alike scans) is analysed once
(:meth:`redactor.RedactionEngine.analyze`, the platform's map, no profile); its text layer is then
decided again (:meth:`~redactor.RedactionEngine.decide_layer`) three times, the check's own time
measured inside each run; the fastest run counts. A page counts as scanned when it was read by
OCR. The review load is the analysis's review items per document, by reason, those of the check
(:data:`ASKED`) apart. Writes the figure row into the docs unless ``--no-docs``; timing lives
here, never in a test.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from redactor import RedactionEngine  # noqa: E402
from redactor.decide import decisions, keep_check  # noqa: E402
from redactor.model import Action  # noqa: E402

SHARED = Path(os.environ.get("SHARED_DIR") or ROOT.parent / "shared") / "data"
#: The review items the keep check asks (:mod:`redactor.decide.keep_check`).
ASKED = ("kept_on_one_guess", "represented_only", "free_mail_kept")


def _timed(engine: RedactionEngine, layer, rounds: int = 3) -> tuple[float, float]:
    """``(deciding, checking)``: seconds :meth:`~redactor.RedactionEngine.decide_layer` takes on
    ``layer`` and the keep check's own share of it, from the fastest of ``rounds`` runs."""
    best = (float("inf"), 0.0)
    for _ in range(rounds):
        spent = [0.0]

        def check(*args, _spent=spent):
            started = time.perf_counter()
            try:
                return keep_check.ask_single_guesses(*args)
            finally:
                _spent[0] += time.perf_counter() - started

        with mock.patch.object(decisions, "ask_single_guesses", check):
            started = time.perf_counter()
            engine.decide_layer(layer)
            total = time.perf_counter() - started
        best = min(best, (total, spent[0]))
    return best


def measure(sets: list[str]) -> dict[str, dict[str, float]]:
    """Per set: documents, review items, of which the keep check's, and per page the keep check's
    time and its share of the decision stage on born-digital and scanned pages."""
    engine = RedactionEngine()
    engine.load()
    out: dict[str, dict[str, float]] = {}
    for name in sets:
        pdfs = sorted(p.with_suffix(".pdf") for p in (SHARED / name).glob("*.json") if p.with_suffix(".pdf").exists())
        reasons: Counter[str] = Counter()
        cost = {"digital": [0.0, 0.0, 0], "scanned": [0.0, 0.0, 0]}  # deciding, checking, pages
        for pdf in pdfs:
            analysis = engine.analyze(pdf.read_bytes())
            reasons.update(p.reason.code for p in analysis.proposals if p.action == Action.REVIEW)
            layer = analysis.text_layer
            kind = "scanned" if any(page.ocr for page in layer.pages) else "digital"
            deciding, checking = _timed(engine, layer)
            cost[kind][0] += deciding
            cost[kind][1] += checking
            cost[kind][2] += len(layer.pages)
        row: dict[str, float] = {
            "documents": len(pdfs),
            "review_items": sum(reasons.values()),
            "asked_by_keep_check": sum(reasons[code] for code in ASKED),
        }
        for kind, (deciding, checking, pages) in cost.items():
            if pages:
                row[f"{kind}_pages"] = pages
                row[f"{kind}_ms_per_page"] = round(1000 * checking / pages, 2)
                row[f"{kind}_share"] = round(100 * checking / deciding, 1) if deciding else 0.0
        out[name] = row
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", default="real,twins,twins2")
    parser.add_argument("--no-docs", action="store_true", help="do not write the figure into the docs")
    args = parser.parse_args()
    figures = measure(args.sets.split(","))
    for name, row in figures.items():
        print(name, row)
    if not args.no_docs and "real" in figures:
        from benchmarks.figures import write_row

        parts = []
        for name, row in figures.items():
            per = row["review_items"] / row["documents"] if row["documents"] else 0.0
            parts.append(
                f"{name}: **{per:.2f}** review items per document "
                f"({row['review_items']:.0f} in {row['documents']:.0f}, {row['asked_by_keep_check']:.0f} "
                "of them the keep check's)"
            )
        real = figures["real"]
        costs = ", ".join(
            f"{kind} {real[f'{kind}_ms_per_page']} ms a page ({real[f'{kind}_share']} % of deciding it)"
            for kind in ("digital", "scanned")
            if f"{kind}_pages" in real
        )
        write_row(
            "keep_check",
            "The keep check: review items a reviewer meets, and the check's cost on the real contracts",
            "; ".join(parts) + f"; cost: {costs}",
            "benchmarks/keep_check.py",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
