#!/usr/bin/env python
"""Whether a change of the rule layer left the proposals as they were: every data set analysed by
the engine, its proposals written as canonical lines, two such snapshots compared.

usage: .venv/bin/python benchmarks/same_proposals.py snapshot OUT.jsonl [--sets SET,…] [--jobs N]
       .venv/bin/python benchmarks/same_proposals.py before REV OUT.jsonl [--sets SET,…] [--jobs N]
       .venv/bin/python benchmarks/same_proposals.py compare BEFORE.jsonl AFTER.jsonl [--reasons]

``snapshot`` analyses (:meth:`redactor.RedactionEngine.analyze`, the platform's category map, no
agency profile: the same for both sides) the PDFs of the sets named (all by default):

- ``dev``, ``dev-scans`` (``dev/scanned``), ``real``, ``real-more``, ``twins``, ``twins2``: the
  shared data sets (``../shared/data``);
- ``synthetic``: four synthetic sets of 44 contracts (seeds 1–4, ``tests/synthetic``; a third of
  the people in no gazetteer), written to a temporary folder;
- ``adversarial``: the adversarial builders (``tests/adversarial.py``) and the disguised ones
  (``tests/disguised.py``).

Each document is one line: its set and name, and its proposals as (page, category, action, text,
boxes rounded to 0.1 pt), sorted, with their reasons kept apart. ``before`` makes the same
snapshot of the git revision ``REV`` (a temporary worktree run with this checkout's virtualenv),
so no snapshot is ever committed. ``compare`` lists, per document, the proposals only one side
has (and, with ``--reasons``, those whose reason changed); exit status 1 when any differs.
Timing lives here, never in a test.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(os.environ.get("SAME_PROPOSALS_ROOT") or Path(__file__).resolve().parent.parent)
sys.path.insert(0, str(ROOT))
SHARED = Path(os.environ.get("SHARED_DIR") or Path(__file__).resolve().parent.parent.parent / "shared") / "data"
SETS = ("dev", "dev-scans", "real", "real-more", "twins", "twins2", "synthetic", "adversarial")
_FOLDERS = {"dev": "dev", "dev-scans": "dev/scanned", "real": "real", "real-more": "real/more",
            "twins": "twins", "twins2": "twins2"}  # fmt: skip

_engine = None


def _analysed(item: tuple[str, str, bytes]) -> dict:
    """One document's line (in a worker process with its own engine)."""
    global _engine
    from redactor import RedactionEngine  # the revision's engine, once sys.path names it

    if _engine is None:
        _engine = RedactionEngine()
        _engine.load()
    name, kind, data = item
    started = time.perf_counter()
    try:
        analysis = _engine.analyze(data)
    except Exception as exc:  # a refused or broken file is a result too: it must stay refused
        return {"doc": name, "set": kind, "error": type(exc).__name__, "seconds": time.perf_counter() - started}
    rows, reasons = [], {}
    for p in analysis.proposals:
        boxes = sorted([b.page, *(round(v, 1) for v in b.as_list())] for b in p.boxes)
        row = [p.page, p.category, p.action.value, p.text, boxes]
        rows.append(row)
        reasons[json.dumps(row, ensure_ascii=False)] = p.reason.to_dict()
    rows.sort(key=lambda r: json.dumps(r, ensure_ascii=False))
    return {"doc": name, "set": kind, "proposals": rows, "reasons": reasons, "seconds": time.perf_counter() - started}


def _documents(sets: list[str], scratch: Path) -> list[tuple[str, str, bytes]]:
    docs: list[tuple[str, str, bytes]] = []
    for kind in sets:
        if kind in _FOLDERS:
            folder = SHARED / _FOLDERS[kind]
            docs += [(f"{kind}/{p.name}", kind, p.read_bytes()) for p in sorted(folder.glob("*.pdf"))]
        elif kind == "synthetic":
            from tests.synthetic.generator import write_set

            for seed in (1, 2, 3, 4):
                for p in write_set(scratch / f"synthetic-{seed}", seed, 44):
                    docs.append((f"synthetic/{seed}/{p.name}", kind, p.read_bytes()))
        elif kind == "adversarial":
            from tests.adversarial import BUILDERS

            builders = list(BUILDERS)
            try:  # a revision from before the disguised builders has only the others
                from tests.disguised import BUILDERS as DISGUISED

                builders += DISGUISED
            except ImportError:
                pass
            for build in builders:
                made = build()
                docs.append((f"adversarial/{made.name}", kind, made.pdf))
        else:
            raise SystemExit(f"no such set: {kind} (sets: {', '.join(SETS)})")
    return docs


def snapshot(out: Path, sets: list[str], jobs: int) -> int:
    os.environ.setdefault("OMP_NUM_THREADS", "1")  # Tesseract: the same reading whatever the cores
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        docs = _documents(sets, Path(scratch))
        with ProcessPoolExecutor(max_workers=jobs) as pool, out.open("w", encoding="utf-8") as fh:
            for line in pool.map(_analysed, docs, chunksize=1):
                fh.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")
    print(f"{len(docs)} documents of {', '.join(sets)} in {time.perf_counter() - started:.0f} s → {out}")
    return 0


def before(rev: str, out: Path, sets: list[str], jobs: int) -> int:
    """The snapshot of revision ``rev``, from a temporary worktree."""
    here = Path(__file__).resolve()
    checkout = here.parent.parent
    with tempfile.TemporaryDirectory() as scratch:
        tree = Path(scratch) / "tree"
        subprocess.run(["git", "-C", str(checkout), "worktree", "add", "--detach", str(tree), rev], check=True)
        try:
            env = {**os.environ, "SAME_PROPOSALS_ROOT": str(tree), "SHARED_DIR": str(SHARED.parent)}
            command = [sys.executable, str(here), "snapshot", str(out.resolve()), "--sets", ",".join(sets),
                       "--jobs", str(jobs)]  # fmt: skip
            return subprocess.run(command, env=env, cwd=tree, check=False).returncode
        finally:
            subprocess.run(["git", "-C", str(checkout), "worktree", "remove", "--force", str(tree)], check=False)


def _read(path: Path) -> dict[str, dict]:
    with path.open(encoding="utf-8") as fh:
        return {line["doc"]: line for line in map(json.loads, fh)}


def compare(first: Path, second: Path, reasons: bool) -> int:
    a, b = _read(first), _read(second)
    differing = 0
    for doc in sorted(a.keys() | b.keys()):
        if doc not in a or doc not in b:
            differing += 1
            print(f"{doc}: only in {'the second' if doc in b else 'the first'} snapshot")
            continue
        left, right = a[doc], b[doc]
        if left.get("error") or right.get("error"):
            if left.get("error") != right.get("error"):
                differing += 1
                print(f"{doc}: {left.get('error') or 'analysed'} → {right.get('error') or 'analysed'}")
            continue
        old = {json.dumps(r, ensure_ascii=False) for r in left["proposals"]}
        new = {json.dumps(r, ensure_ascii=False) for r in right["proposals"]}
        changed = sorted(k for k in old & new if reasons and left["reasons"].get(k) != right["reasons"].get(k))
        if old == new and not changed:
            continue
        differing += 1
        print(f"{doc}:")
        for row in sorted(old - new):
            print(f"  - {row}")
        for row in sorted(new - old):
            print(f"  + {row}")
        for row in changed:
            print(f"  ~ {row}: {left['reasons'][row]} → {right['reasons'][row]}")
    proposals = sum(len(line.get("proposals", [])) for line in a.values())
    print(f"{len(a)} / {len(b)} documents, {proposals} proposals before; {differing} documents differ")
    return 1 if differing else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("snapshot", "before"):
        one = sub.add_parser(name)
        if name == "before":
            one.add_argument("rev")
        one.add_argument("out", type=Path)
        one.add_argument("--sets", default=",".join(SETS))
        one.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    two = sub.add_parser("compare")
    two.add_argument("first", type=Path)
    two.add_argument("second", type=Path)
    two.add_argument("--reasons", action="store_true", help="also list proposals whose reason changed")
    args = parser.parse_args()
    if args.command == "compare":
        return compare(args.first, args.second, args.reasons)
    sets = [s for s in args.sets.split(",") if s]
    if args.command == "before":
        return before(args.rev, args.out, sets, args.jobs)
    return snapshot(args.out, sets, args.jobs)


if __name__ == "__main__":
    sys.exit(main())
