#!/usr/bin/env python
"""The audit of an agency's published records on the quick start: records and pages per minute,
and another agency's upload → needs_review latency before and during the audit.

usage: .venv/bin/python benchmarks/registry_audit.py [--url http://127.0.0.1:8000] [--port 8091]
           [--dir ../shared/data/real] [--records 34] [--small ../shared/data/dev/dilo_firma_1.pdf]
           [--rounds 5] [--timeout 3600] [--out docs/evaluation/figures/registry_audit.md]

Serves a month's dump of the registry's open data and its files on loopback (the project's
open-data test server, ``tests/registry_open_data.py``) on ``--port``: ``--records`` records of the
demo agency, one PDF of ``--dir`` each standing in for its published file. Start the quick start
so that it reads from there, in the same checkout::

    REDACTOR_REGISTRY_OPEN_DATA_URL=http://127.0.0.1:8091/ \\
    REDACTOR_REGISTRY_FILES_URL=http://127.0.0.1:8091/smlouva/soubor/ ./bin/start

The script makes an admin token for the demo agency and a second agency with a clerk token
(``manage.py agency_create`` and ``api_token_create``), imports the month through the API (the
files fetched and checked), times ``--rounds`` uploads of ``--small`` by the second agency with the
workers idle, starts the audit and uploads ``--small`` again, one after another, until the audit
ends. Prints, and with ``--out`` writes, the figures as a row of the evaluation page's table.
Timing lives here, never in a test.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from load import one_upload  # noqa: E402

from redactor.metadata import ContractMetadata, PublishingBody, RegistryParty  # noqa: E402
from tests.registry_open_data import OpenDataServer  # noqa: E402

DEMO_ICO, OTHER_ICO = "00000001", "00000027"
MONTH = date(2026, 7, 1)


def _manage(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args], cwd=ROOT, capture_output=True, text=True, check=False
    )
    if done.returncode:
        raise SystemExit(f"manage.py {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""


def _tokens(url: str) -> tuple[str, str]:
    """An admin token of the demo agency and a clerk token of a second agency (made once)."""
    admin = _manage("api_token_create", "--ico", DEMO_ICO, "--name", f"audit benchmark {uuid.uuid4().hex[:6]}",
                    "--role", "admin")  # fmt: skip
    try:
        _manage("agency_create", "--name", "Obec Benchmarková", "--ico", OTHER_ICO,
                "--admin-email", "spravce@benchmark.invalid", "--url", url)  # fmt: skip
    except SystemExit as exc:
        if "IČO" not in str(exc) and "exist" not in str(exc):
            raise
    clerk = _manage("api_token_create", "--ico", OTHER_ICO, "--name", f"benchmark {uuid.uuid4().hex[:6]}",
                    "--role", "clerk")  # fmt: skip
    return admin, clerk


def _json(url: str, token: str, body: dict | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(url, data=json.dumps(body).encode() if body is not None else None,
                                     method="POST" if body is not None else "GET")  # fmt: skip
    request.add_header("Authorization", f"Bearer {token}")
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def _upload(base: str, token: str, pdf: Path, timeout: float) -> float:
    out: dict = {}
    one_upload(base, token, pdf, timeout, 0.5, out)
    if out.get("outcome") != "needs_review":
        raise SystemExit(f"{pdf.name}: {out}")
    return out["seconds"]


def _p95(values: list[float]) -> float:
    return sorted(values)[max(0, round(0.95 * len(values)) - 1)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--port", type=int, default=8091)
    parser.add_argument("--dir", default=str(ROOT.parent / "shared" / "data" / "real"))
    parser.add_argument("--records", type=int, default=34)
    parser.add_argument("--small", default=str(ROOT.parent / "shared" / "data" / "dev" / "dilo_firma_1.pdf"))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=3600)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    base, small = args.url.rstrip("/"), Path(args.small)
    pdfs = sorted(Path(args.dir).glob("*.pdf"))[: args.records]
    if not pdfs:
        parser.error(f"no PDFs in {args.dir}")

    server = OpenDataServer(port=args.port)
    body = PublishingBody(name="Obec Horní Lhota (demo)", ico=DEMO_ICO)
    firm = RegistryParty(name="Dodavatel s.r.o.", ico="25596641")
    records = [
        server.record(
            700_000 + i,
            ContractMetadata(body, [firm], f"Smlouva {pdf.stem}", date(2026, 6, 1)),
            [server.file(pdf.name, pdf.read_bytes())],
        )
        for i, pdf in enumerate(pdfs)
    ]
    server.publish(MONTH, records)
    with server:
        admin, clerk = _tokens(base)
        began = time.monotonic()
        status, started = _json(f"{base}/api/v1/registry/records/imports/", admin, {"month": MONTH.strftime("%Y-%m")})
        if status != 202:
            raise SystemExit(f"the import was refused: {status} {started}")
        while True:
            _s, state = _json(f"{base}/api/v1/registry/records/imports/{started['id']}/", admin)
            if state["state"] in ("done", "failed"):
                break
            time.sleep(0.5)
        imported = time.monotonic() - began
        if state["state"] != "done" or state["stored"] != len(pdfs):
            raise SystemExit(f"the import did not store every file: {state}")

        idle = [_upload(base, clerk, small, args.timeout) for _ in range(args.rounds)]
        # an audit of every record (again when an earlier run audited them)
        began = time.monotonic()
        status, run = _json(f"{base}/api/v1/registry/records/audit/?again=1", admin, {})
        if status != 202:
            raise SystemExit(f"the audit was refused: {status} {run}")
        busy = []
        while True:
            _s, run = _json(f"{base}/api/v1/registry/records/audit/", admin)
            if run["state"] in ("done", "failed"):
                break
            busy.append(_upload(base, clerk, small, args.timeout))
        audited = time.monotonic() - began
        _s, listed = _json(f"{base}/api/v1/registry/records/?limit=200", admin)
    pages = sum(f["pages"] for r in listed["results"] for f in r["findings"].get("files", []))
    exposing = sum(1 for r in listed["results"] if r["exposure"])
    today, cores = date.today().isoformat(), os.cpu_count()
    during = (
        f"during the audit p50 {statistics.median(busy):.1f} s, p95 **{_p95(busy):.1f} s** ({len(busy)} uploads)"
        if busy
        else "the audit ended before one could be timed during it"
    )
    row = (
        f"| the audit of an agency's published records on the quick start (`benchmarks/registry_audit.py`, "
        f"{run['done']} records standing for published files from `{Path(args.dir).name}`, {pages} pages, "
        f"{cores} cores, {today}) | **{60 * run['done'] / audited:.1f} records per minute** "
        f"({60 * pages / audited:.0f} pages per minute, {audited:.0f} s; {exposing} records expose personal data); "
        f"the month's import with {state['stored']} files fetched and checked {imported:.1f} s; another agency's "
        f"upload of `{small.name}` → needs review idle p50 {statistics.median(idle):.1f} s, p95 {_p95(idle):.1f} s "
        f"({len(idle)} uploads), {during} |"
    )
    print(row)
    if args.out:
        args.out.write_text(row + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
