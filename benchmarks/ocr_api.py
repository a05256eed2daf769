#!/usr/bin/env python
"""Tesseract through its API in this process against a ``tesseract`` process per call.

usage: .venv/bin/python benchmarks/ocr_api.py [PDF_DIR] [--rounds N] [--no-docs]

Pins the process to one core (Tesseract single-threaded), renders the first page of every PDF of
PDF_DIR (default: the dev set's scans, ``../shared/data/dev/scanned``) grey at 150 dpi (the reader's
check's whole page) and a strip of three of its lines at 300 dpi (the font check's samples and the
band reader's strips are this small), and reads each ROUNDS times (default 3) both ways with
segmentation ``--psm 3`` (page) and ``--psm 6`` (strip): pytesseract (a process per call, as the
analysis reads) and :mod:`redactor.read.ocr.in_process` (tesserocr, one API object kept, as the
readings after burn-in read). Reports the median milliseconds per call of each and the ratio, and
how many words both ways read alike. Timing lives here, never in a test. The result is the evaluation
page's row (``docs/evaluation/figures/ocr_api.md``) unless ``--no-docs``.
"""

import os

os.environ.setdefault("OMP_THREAD_LIMIT", "1")

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pymupdf  # noqa: E402
from PIL import Image  # noqa: E402

from benchmarks.figures import one_core, shown, write_row  # noqa: E402
from redactor.read.ocr import TesseractOcr  # noqa: E402

DEFAULT = ROOT.parent / "shared" / "data" / "dev" / "scanned"


def _pictures(path: Path) -> tuple[Image.Image, Image.Image]:
    """The first page of ``path`` at 150 dpi, and a strip of about three of its lines (the band
    40 points high with the most ink) at 300 dpi, both grey."""
    import numpy as np

    with pymupdf.open(path) as doc:
        page = doc[0]
        whole = page.get_pixmap(dpi=150, colorspace=pymupdf.csGRAY)
        ink = (np.frombuffer(whole.samples, np.uint8).reshape(whole.height, whole.width) < 128).sum(axis=1)
        rows = int(40 * 150 / 72)
        best = max(range(0, max(1, whole.height - rows), 10), key=lambda y: int(ink[y : y + rows].sum()))
        top = best * 72 / 150
        band = page.get_pixmap(dpi=300, colorspace=pymupdf.csGRAY, clip=pymupdf.Rect(0, top, page.rect.width, top + 40))
    return (
        Image.frombytes("L", (whole.width, whole.height), whole.samples),
        Image.frombytes("L", (band.width, band.height), band.samples),
    )


def _timed(reader: TesseractOcr, image: Image.Image, rounds: int) -> tuple[float, list[str]]:
    words: list[str] = []
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        words = [w[0] for w in reader.read_image(image)]
        times.append(time.perf_counter() - started)
    return statistics.median(times), words


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pdf_dir", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-docs", action="store_true", help="do not write the evaluation page's row")
    args = parser.parse_args()
    one_core()
    files = sorted(args.pdf_dir.glob("*.pdf"))
    results: dict[str, dict[str, list[float]]] = {
        "page": {"process": [], "api": []},
        "strip": {"process": [], "api": []},
    }
    alike = total = 0
    for kind, psm in (("page", 3), ("strip", 6)):
        process = TesseractOcr(psm=psm)
        api = process.reading(dpi=150, psm=psm)
        api.read_image(Image.new("L", (64, 32), 255))  # the model loads once, outside the measurement
        for path in files:
            image = _pictures(path)[0 if kind == "page" else 1]
            spent, by_process = _timed(process, image, args.rounds)
            results[kind]["process"].append(spent)
            spent, by_api = _timed(api, image, args.rounds)
            results[kind]["api"].append(spent)
            alike += len(set(by_process) & set(by_api))
            total += max(len(set(by_process)), len(set(by_api)))
    cells = []
    for kind, label in (("page", "a page at 150 dpi"), ("strip", "three lines at 300 dpi")):
        p = statistics.median(results[kind]["process"]) * 1000
        a = statistics.median(results[kind]["api"]) * 1000
        cells.append(f"{label}: {p:.0f} → **{a:.0f} ms** ({p / a:.1f}× faster)")
        print(f"{label}: process per call {p:.0f} ms, API in process {a:.0f} ms, {p / a:.2f}x")
    share = alike / total if total else 1.0
    print(f"words read alike both ways: {share:.1%} ({alike} of {total})")
    if not args.no_docs:
        figure = "; ".join(cells) + f"; {share:.0%} of the words read alike"
        what = "Tesseract through its API in the process against a process per call, one core"
        print("wrote", write_row("ocr_api", what, figure, f"benchmarks/ocr_api.py {shown(args.pdf_dir)}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
