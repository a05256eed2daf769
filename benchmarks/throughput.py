#!/usr/bin/env python
"""End-to-end throughput of the engine on one CPU core.

usage: .venv/bin/python benchmarks/throughput.py [PDF_DIR] [--rounds N] [--nlp rules|spacy] [--no-docs]
       .venv/bin/python benchmarks/throughput.py ../shared/data/dev/scanned --rounds 1   # scans: OCR

Pins the process to one core and one BLAS thread (Tesseract to one OpenMP thread), loads the
engine (model load time is reported separately), then runs analyze + burn-in + verification on
every PDF of PDF_DIR (default ../shared/data/dev) ROUNDS times and reports pages per second, with
the share of each stage (rebuild, extraction, NLP, decisions, burn-in, verification) and, for
scanned pages, OCR pages per second. ``--nlp`` picks the pipeline (default: the product's default,
``REDACTOR_NLP``'s, rules). In the same run, spaCy's ``cs_core_news_sm`` NER alone (its tok2vec
and ner components, nothing else) reads each document's text right after the product processed
it, so that both meet a shared machine in the same state, and the ratio of the two costs is
printed (the median round's): what the product costs against NER alone. Timing lives here, never in a
test. The result is the evaluation page's row (``docs/evaluation/figures/throughput.md``, or
``throughput_scans.md`` for a folder with scanned pages; :mod:`benchmarks.figures`) unless
``--no-docs``.
"""

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")
os.environ.setdefault("OMP_THREAD_LIMIT", "1")

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.figures import one_core, write_row  # noqa: E402
from redactor import engine as engine_module  # noqa: E402
from redactor.detect.nlp import RuleOnlyNlpEngine  # noqa: E402
from redactor.engine import RedactionEngine  # noqa: E402


class NerAlone:
    """spaCy's Czech NER alone (its tok2vec and ner components, nothing else), reading a
    document's text in the chunks the product would hand it."""

    def __init__(self) -> None:
        import spacy  # only this measurement needs the model

        from redactor.detect.nlp import CHUNK_CHARS, text_chunks

        started = time.perf_counter()
        self.nlp = spacy.load(
            "cs_core_news_sm", exclude=["morphologizer", "parser", "trainable_lemmatizer", "lemmatizer"]
        )
        self.load = time.perf_counter() - started
        self.nlp.max_length = CHUNK_CHARS * 2
        self.chunks = lambda text: (chunk for _, chunk in text_chunks(text, CHUNK_CHARS))

    def seconds(self, text: str) -> float:
        """Seconds NER takes to read ``text``."""
        started = time.perf_counter()
        for doc in self.nlp.pipe(self.chunks(text)):
            _ = doc.ents
        return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pdf_dir", nargs="?", type=Path, default=ROOT.parent / "shared" / "data" / "dev")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--nlp", choices=["spacy", "rules"], default="rules")
    parser.add_argument("--no-docs", action="store_true", help="do not write the evaluation page's row")
    args = parser.parse_args()
    one_core()
    files = sorted(args.pdf_dir.glob("*.pdf"))
    documents = [f.read_bytes() for f in files]

    started = time.perf_counter()
    engine = RedactionEngine(nlp=RuleOnlyNlpEngine()) if args.nlp == "rules" else RedactionEngine()
    verifying = [0.0]
    verify = engine_module.verify

    def timed_verify(*a, **k):
        t = time.perf_counter()
        try:
            return verify(*a, **k)
        finally:
            verifying[0] += time.perf_counter() - t

    engine_module.verify = timed_verify
    engine.load()
    load_seconds = time.perf_counter() - started

    first = engine.analyze(documents[0])  # warm caches outside the measurement
    ner = NerAlone()
    ner.seconds(first.text_layer.text)
    pages = ocr_pages = 0
    analyze = redact = ocr_seconds = ner_seconds = 0.0
    stages: dict[str, float] = {}
    per_round: list[float] = []
    ratios: list[float] = []  # each round's cost against NER's on the same documents
    for _ in range(args.rounds):
        round_pages, ours, theirs = pages, 0.0, 0.0
        for data in documents:
            t0 = time.perf_counter()
            analysis = engine.analyze(data)
            t1 = time.perf_counter()
            engine.redact(analysis.document, analysis.to_redact())
            t2 = time.perf_counter()
            # NER reads the same text right after, so that both meet the machine in the same state
            spent = ner.seconds(analysis.text_layer.text)
            analyze += t1 - t0
            redact += t2 - t1
            ours += t2 - t0
            theirs += spent
            pages += len(analysis.pages)
            for key, value in analysis.timings.items():
                stages[key] = stages.get(key, 0.0) + value
            ocr_pages += len(analysis.text_layer.ocr_pages)
            ocr_seconds += sum(p.seconds for p in analysis.text_layer.ocr_pages.values())
        ner_seconds += theirs
        per_round.append((pages - round_pages) / ours)
        ratios.append(ours / theirs)
    total = analyze + redact
    ner_pages, ner_load = pages, ner.load
    per_round.sort()
    ratios.sort()
    ratio = ratios[len(ratios) // 2]
    print(f"documents: {len(files)} x {args.rounds} rounds, {pages} pages, one core, NLP: {args.nlp}")
    print(f"model and resources load: {load_seconds:.2f} s")
    print(f"end to end: {pages / total:.1f} pages/s ({total / pages * 1000:.0f} ms per page)")
    if len(per_round) > 1:
        # a shared machine slows some rounds down: the median round says more than the mean
        median = per_round[len(per_round) // 2]
        print(f"  rounds: median {median:.1f}, slowest {per_round[0]:.1f}, fastest {per_round[-1]:.1f} pages/s")
    print(f"  analyse: {analyze / total:.0%} (" + ", ".join(f"{k} {v / total:.0%}" for k, v in stages.items()) + ")")
    print(f"  burn-in: {(redact - verifying[0]) / total:.0%}, verification: {verifying[0] / total:.0%}")
    print(
        f"spaCy cs_core_news_sm NER alone (tok2vec + ner, loaded in {ner_load:.2f} s) on the same text, each "
        f"document right after the product: {ner_pages / ner_seconds:.1f} pages/s "
        f"({ner_seconds / ner_pages * 1000:.0f} ms per page); end to end costs {ratio:.2f}x NER alone "
        f"(median round; rounds {ratios[0]:.2f}-{ratios[-1]:.2f})"
    )
    if ocr_pages:
        print(
            f"OCR (Tesseract, ces, {engine.ocr.dpi} dpi, one thread): {ocr_pages} pages, "
            f"{ocr_pages / ocr_seconds:.2f} pages/s ({ocr_seconds / ocr_pages:.2f} s per page), "
            f"{ocr_seconds / total:.0%} of the time"
        )
    if not args.no_docs:
        _write_figure(args, len(files), pages, total, per_round, ratio, verifying[0], ocr_pages, ocr_seconds)
    return 0


def _write_figure(args, documents, pages, total, per_round, ratio, verifying, ocr_pages, ocr_seconds) -> None:
    """The evaluation page's row for this run (:func:`benchmarks.figures.write_row`)."""
    try:
        folder = args.pdf_dir.resolve().relative_to(ROOT.parent)
        shown = f"../{folder}"
    except ValueError:
        shown = args.pdf_dir.name
    command = f"benchmarks/throughput.py {shown} --rounds {args.rounds}"
    command += " --nlp spacy" if args.nlp == "spacy" else ""
    median = per_round[len(per_round) // 2]
    rounds = f"median round {median:.1f}, slowest {per_round[0]:.1f}, fastest {per_round[-1]:.1f}"
    kind = "scans" if ocr_pages else "born-digital"
    figure = (
        f"**{pages / total:.1f} pages/s** end to end ({rounds}); {ratio:.2f}× spaCy's NER "
        f"alone on the same text (median round); verification {verifying / total:.0%} of the time"
    )
    if ocr_pages:
        figure += f"; Tesseract {ocr_pages / ocr_seconds:.2f} pages/s, {ocr_seconds / total:.0%} of the time"
    what = f"{kind} throughput, one core ({documents} PDFs × {args.rounds} rounds, {pages} pages, NLP {args.nlp})"
    print("wrote", write_row("throughput_scans" if ocr_pages else "throughput", what, figure, command))


if __name__ == "__main__":
    sys.exit(main())
