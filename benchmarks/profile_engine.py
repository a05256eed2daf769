#!/usr/bin/env python
"""Where the engine's time goes: a pyinstrument profile of analyse + burn-in + verification.

usage: .venv/bin/python benchmarks/profile_engine.py [PDF_DIR] [--rounds N] [--nlp rules|spacy] [--html FILE]

Loads the engine outside the profile, then profiles ROUNDS passes over every PDF of PDF_DIR
(default ../shared/data/dev) on one core and prints the call tree (functions under 1 % of the
time folded away); ``--html`` also writes pyinstrument's interactive page. Pair it with
benchmarks/throughput.py, which gives the figures.
"""

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import sys
from pathlib import Path

from pyinstrument import Profiler

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.figures import one_core  # noqa: E402
from redactor.detect.nlp import RuleOnlyNlpEngine, SpacyNlpEngine  # noqa: E402
from redactor.engine import RedactionEngine  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pdf_dir", nargs="?", type=Path, default=ROOT.parent / "shared" / "data" / "dev")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--nlp", choices=["rules", "spacy"], default="rules")
    parser.add_argument("--html", type=Path)
    args = parser.parse_args()
    one_core()
    documents = [f.read_bytes() for f in sorted(args.pdf_dir.glob("*.pdf"))]
    engine = RedactionEngine(nlp=SpacyNlpEngine() if args.nlp == "spacy" else RuleOnlyNlpEngine())
    engine.load()
    engine.analyze(documents[0])  # warm caches outside the profile

    profiler = Profiler(interval=0.0005)
    profiler.start()
    for _ in range(args.rounds):
        for data in documents:
            analysis = engine.analyze(data)
            engine.redact(analysis.document, analysis.to_redact())
    profiler.stop()
    print(profiler.output_text(unicode=True, color=False, show_all=False, time="percent_of_total"))
    if args.html:
        args.html.write_text(profiler.output_html())
    return 0


if __name__ == "__main__":
    sys.exit(main())
