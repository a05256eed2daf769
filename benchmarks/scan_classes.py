#!/usr/bin/env python
"""Synthetic scans of the layouts where scans hide personal data, redacted and judged by their
pictures: one scan per class (certification clause, form of labelled fields, letter, sole
trader) and seed, rendered at 72-300 dpi with skew, noise and a stamp or signature
(``tests/synthetic/scan_classes.py``), redacted by ``manage.py redact`` and scored by the shared
scorer with ``--pixels`` (the bundled copy in a lone clone). It also reports what the second
reading of the published pictures cost per page against the whole scan's time per page.

usage: .venv/bin/python benchmarks/scan_classes.py OUT_DIR [--seeds 1 2 3 4] [--no-docs]

The figures go into docs/evaluation/figures/scan_classes.md (the evaluation page's row) unless
--no-docs is given.
"""

import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.figures import write_row  # noqa: E402
from tests.synthetic.scan_classes import write_scan_set  # noqa: E402


def scorer() -> Path:
    shared = ROOT.parent / "shared" / "tools" / "score_redaction.py"
    return shared if shared.exists() else ROOT / "tests" / "data" / "tools" / "score_redaction.py"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4])
    parser.add_argument("--no-docs", action="store_true", help="do not write the figures into the docs")
    args = parser.parse_args()
    gold, out = args.out_dir / "gold", args.out_dir / "out"
    paths = write_scan_set(gold, tuple(args.seeds))
    started = time.perf_counter()
    run = subprocess.run(
        [sys.executable, "manage.py", "redact", *map(str, paths), "--out-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - started
    print(run.stdout.strip())
    pages = second = 0.0
    read = 0
    for report in sorted(out.glob("*.json")):
        data = json.loads(report.read_text(encoding="utf-8"))
        pages += len(data["pages"])
        checked = data["verification"]["checks"].get("legible_in_pictures") or {}
        if isinstance(checked, dict):
            second += checked.get("seconds", 0.0)
            read += checked.get("pages", 0)
    print(f"{len(paths)} scans, {int(pages)} pages: {wall:.1f} s in all, {wall / max(pages, 1):.2f} s per page")
    print(
        f"second reading of the published pictures: {second:.1f} s on {read} pages, "
        f"{second / max(read, 1):.2f} s per page read, {100 * second / max(wall, 1e-9):.1f} % of the scan time"
    )
    score = subprocess.run(
        [sys.executable, str(scorer()), str(gold), str(out), "--pixels", "--verbose"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    print(score.stdout.strip())
    pixels = re.search(r"pixels: leak_rate=\S+ \((\d+/\d+)\) over_redaction=\S+ \((\d+/\d+)", score.stdout)
    text = re.search(r"documents=\d+ .*?leak_rate=\S+ \((\d+/\d+)\) over_redaction=\S+ \((\d+/\d+)\)", score.stdout)
    if not args.no_docs and pixels and text and run.returncode == 0:
        seeds = " ".join(map(str, args.seeds))
        write_row(
            "scan_classes",
            f"synthetic scans of the classes where scans hide personal data ({len(paths)} one-page scans: "
            "certification clause, form of labelled fields, letter, sole trader; 72–300 dpi with skew, noise, "
            "stamps and signatures; scored by the shared scorer with `--pixels`)",
            f"pixels: leak **{pixels.group(1)}**, over-redaction **{pixels.group(2)}**; text: leak "
            f"{text.group(1)}, over-redaction {text.group(2)}; the second reading of published pictures "
            f"{second / max(read, 1):.2f} s per page read, {100 * second / max(wall, 1e-9):.1f} % of the scan time",
            f"benchmarks/scan_classes.py OUT --seeds {seeds}",
        )
    return run.returncode or score.returncode


if __name__ == "__main__":
    sys.exit(main())
