#!/usr/bin/env python
"""Fidelity of the published text layer, by page kind, for any folder of PDFs (no gold needed).

usage: .venv/bin/python benchmarks/fidelity.py DIR_OR_PDF... [--verbose]
       .venv/bin/python benchmarks/fidelity.py ../shared/data/real ../shared/data/real/more

Every PDF is analysed and published as the command line does it (every proposal whose action is
redact accepted, burned in and verified). Per page kind – born-digital, another tool's OCR layer
kept, own OCR (the product wrote the layer), pictures on a text page read by OCR, and pages
published as pictures because their text could not be verified – it reports:

- ``analysed``: the verification's own comparison (redactor.publish.fidelity): words of the
  analysed text outside the redactions that PDFium or poppler do not read in the published file
  (lost), read only glued to a neighbour (glued), or read in reverse (disordered lines; only on
  layers the product wrote), summed over both extractors;
- ``input``: the gold-free comparison of the registry's watchdogs: every word of the input's own
  text layer (poppler) that is not part of a redaction the product proposed, looked up in the
  output's text layer (lost), and output words that are two neighbouring input words glued.
  Pages without an input layer of their own (own OCR) have nothing to compare here.

It also counts the PDFs published and refused (with the first problem). ``--verbose`` names the
pages with a loss. Timing is not measured here (benchmarks/throughput.py does that).
"""

import argparse
import collections
import io
import itertools
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

import pdftotext  # noqa: E402

from policy.runtime import get_engine  # noqa: E402
from redactor.errors import RedactionError, VerificationError  # noqa: E402
from redactor.publish.fidelity import tokens  # noqa: E402

KINDS = ["born-digital", "foreign-layer", "own-ocr", "pictures-read", "as-picture"]


def kind(page, pictured: dict) -> str:
    """The page kind of a :class:`~redactor.model.PageInfo`."""
    if page.number in pictured:
        return "as-picture"
    if page.ocr:
        return "own-ocr"
    if page.scan_layer:
        return "foreign-layer"
    return "pictures-read" if page.pictures_read else "born-digital"


def poppler_pages(data: bytes) -> list[str]:
    """Each page's text as poppler reads it."""
    return list(pdftotext.PDF(io.BytesIO(data)))


def input_comparison(source: list[str], output: list[str], redacted: set[str]) -> tuple[int, int, int]:
    """``(words, lost, glued)`` of one page: input words not in ``redacted`` (tokens of the
    redacted texts) missing from the output, and output words that glue two input words."""
    wanted = [t for t in tokens(source) if t not in redacted]
    got = collections.Counter(tokens(output))
    have = collections.Counter(wanted)
    lost = sum(max(0, n - got[t]) for t, n in have.items())
    every = tokens(source)
    pairs = {a + b for a, b in itertools.pairwise(every)}
    glued = sum(1 for t in got if t in pairs and t not in have)
    return len(wanted), lost, glued


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    pdfs = sorted(p for path in args.paths for p in ([path] if path.is_file() else path.glob("*.pdf")))
    engine = get_engine()
    analysed = collections.defaultdict(lambda: [0, 0, 0, 0, 0])  # pages, words, lost, glued, disordered
    inputs = collections.defaultdict(lambda: [0, 0, 0])  # words, lost, glued
    published, refused = 0, []
    for pdf in pdfs:
        data = pdf.read_bytes()
        try:
            analysis = engine.analyze(data)
            result = engine.redact(analysis.document, analysis.to_redact())
        except VerificationError as exc:
            refused.append(f"{pdf.name}: {exc.result.problems[0] if exc.result else exc}")
            continue
        except RedactionError as exc:
            refused.append(f"{pdf.name}: {exc}")
            continue
        published += 1
        by_page = result.verification.checks["text_kept"]["by_page"]
        redacted = {t for p in analysis.to_redact() for t in tokens(p.text)}
        before, after = poppler_pages(data), poppler_pages(result.pdf)
        for page in analysis.pages:
            k = kind(page, result.pictured)
            row = analysed[k]
            row[0] += 1
            for words, lost, glued, disordered in by_page.get(str(page.number), {}).values():
                row[1] += words
                row[2] += lost
                row[3] += glued
                row[4] += disordered
            if k != "own-ocr":
                w, lost, glued = input_comparison(before[page.number - 1], after[page.number - 1], redacted)
                inputs[k][0] += w
                inputs[k][1] += lost
                inputs[k][2] += glued
                if args.verbose and (lost or glued):
                    print(f"  {pdf.name} page {page.number} ({k}): input words lost {lost}, glued {glued}")
    print(f"PDFs: {len(pdfs)}, published {published}, refused {len(refused)}")
    for line in refused:
        print(f"  refused: {line}")
    print(f"{'kind':14s} {'pages':>5s} | analysed words (x2 extractors) lost glued disordered | input words lost glued")
    for k in KINDS:
        if k not in analysed:
            continue
        pages, words, lost, glued, disordered = analysed[k]
        iw, il, ig = inputs.get(k, [0, 0, 0])
        share = f"{100 * il / iw:.2f} %" if iw else "–"
        print(
            f"{k:14s} {pages:5d} | {words:6d} {lost:5d} {glued:5d} {disordered:5d} | {iw:6d} {il:5d} ({share}) {ig:4d}"
        )


if __name__ == "__main__":
    main()
