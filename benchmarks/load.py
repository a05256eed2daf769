#!/usr/bin/env python
"""Concurrent API uploads against a running service: upload → needs_review latency and failures.

usage: python3 benchmarks/load.py --url http://127.0.0.1:8000 --token rdk_… [--uploads 10]
                                  [--dir ../shared/data/dev] [--workers 2] [--timeout 600] [--poll 0.5]
                                  [--other-token rdk_… --other-every 1.0]

Starts nothing itself: point it at ``./bin/start`` (which prints a demo token; start it with
``REDACTOR_API_RATE=100000/minute``, as the polling of many contracts by one token would otherwise
be throttled) or any deployment.
Sends ``--uploads`` uploads of the PDFs in ``--dir`` (round robin) through
``POST /api/v1/contracts/`` all at once, one thread each, then polls each contract until it is
``needs_review`` or ``failed``, waiting between two polls as long as the service's ``Retry-After``
says (as a client should; ``--poll`` seconds where it says nothing). Reports failed requests
(any answer but 201), failed jobs, timeouts, the upload → needs_review time (p50, p95, max,
seconds) and pages per second per worker (``--workers``: how many RQ workers the service runs).
With ``--other-token`` (another agency's token), that agency uploads one contract every
``--other-every`` seconds while the first agency's uploads are under way, and its own latencies are
reported apart: what a second agency waits while the first one holds a backlog (the fair queue).
Standard library only, so it runs anywhere ``python3`` does. Timing lives here, never in a test.
"""

from __future__ import annotations

import argparse
import json
import statistics
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _multipart(fields: dict[str, str], filename: str, data: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        for name, value in fields.items()
    ]
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
        "Content-Type: application/pdf\r\n\r\n".encode()
        + data
        + b"\r\n"
    )
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def _call(url: str, token: str, *, body: bytes | None = None, content_type: str = "") -> tuple[int, dict, float | None]:
    """One request: the HTTP status (0 when none came), the JSON answer and ``Retry-After`` in seconds (or None)."""
    request = urllib.request.Request(url, data=body, method="POST" if body is not None else "GET")
    request.add_header("Authorization", f"Bearer {token}")
    request.add_header("Accept", "application/json")
    if content_type:
        request.add_header("Content-Type", content_type)
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, json.loads(response.read() or b"{}"), _seconds(response.headers.get("Retry-After"))
    except urllib.error.HTTPError as exc:
        text = exc.read()
        wait = _seconds(exc.headers.get("Retry-After"))
        try:
            return exc.code, json.loads(text), wait
        except ValueError:
            return exc.code, {"message": text[:200].decode(errors="replace")}, wait
    except OSError as exc:
        return 0, {"message": str(exc)}, None


def _seconds(value: str | None) -> float | None:
    """``Retry-After`` as delay-seconds (RFC 9110 § 10.2.3); None when absent or an HTTP date."""
    try:
        return float(value) if value else None
    except ValueError:
        return None


def one_upload(base: str, token: str, pdf: Path, timeout: float, poll: float, out: dict) -> None:
    """Upload ``pdf`` and wait for its outcome, ``Retry-After`` (or ``poll``) seconds between two
    questions; fills ``out`` with status, seconds and pages."""
    body, content_type = _multipart({"title": f"load {pdf.stem}"}, pdf.name, pdf.read_bytes())
    start = time.monotonic()
    status, answer, wait = _call(f"{base}/api/v1/contracts/", token, body=body, content_type=content_type)
    out.update(http=status, answer=answer if status != 201 else None)
    if status != 201:
        return
    out["id"] = answer["id"]
    url = f"{base}/api/v1/contracts/{answer['id']}/"
    out["polls"] = 0
    while time.monotonic() - start < timeout:
        time.sleep(poll if wait is None else wait)
        status, contract, wait = _call(url, token)
        out["polls"] += 1
        if status == 200 and contract["status"] in ("needs_review", "failed"):
            out.update(
                outcome=contract["status"],
                seconds=time.monotonic() - start,
                pages=contract["page_count"],
                error=contract.get("error_message", ""),
            )
            return
    out.update(outcome="timeout", seconds=time.monotonic() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True)
    parser.add_argument("--uploads", type=int, default=10)
    parser.add_argument("--dir", default=str(ROOT.parent / "shared" / "data" / "dev"))
    parser.add_argument("--workers", type=int, default=2, help="RQ workers the service runs (for pages/s per worker)")
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--poll", type=float, default=0.5, help="seconds between polls where no Retry-After is sent")
    parser.add_argument("--other-token", help="another agency's token: it uploads one contract a period meanwhile")
    parser.add_argument("--other-every", type=float, default=1.0, help="seconds between the other agency's uploads")
    args = parser.parse_args()
    pdfs = sorted(Path(args.dir).glob("*.pdf"))
    if not pdfs:
        parser.error(f"no PDFs in {args.dir}")
    base = args.url.rstrip("/")
    results = [{} for _ in range(args.uploads)]
    threads = [
        threading.Thread(
            target=one_upload, args=(base, args.token, pdfs[i % len(pdfs)], args.timeout, args.poll, results[i])
        )
        for i in range(args.uploads)
    ]
    others: list[dict] = []
    other_threads: list[threading.Thread] = []
    began = time.monotonic()
    for t in threads:
        t.start()
    if args.other_token:
        # one contract a period while any of the first agency's contracts is still on its way
        while any(t.is_alive() for t in threads):
            others.append({})
            pdf = pdfs[(len(others) * 7) % len(pdfs)]
            other = threading.Thread(
                target=one_upload, args=(base, args.other_token, pdf, args.timeout, args.poll, others[-1])
            )
            other.start()
            other_threads.append(other)
            time.sleep(args.other_every)
    for t in threads + other_threads:
        t.join()
    wall = time.monotonic() - began
    print(f"uploads: {args.uploads} of {len(pdfs)} PDFs from {args.dir}, at once; wall {wall:.1f} s")
    failed = _report("", results, wall, args.workers)
    if args.other_token:
        print(f"another agency: {len(others)} uploads, one every {args.other_every:g} s meanwhile")
        failed += _report("another agency: ", others, None, args.workers)
    return 1 if failed else 0


def _report(label: str, results: list[dict], wall: float | None, workers: int) -> int:
    """Print the failures and the upload → needs_review times of ``results``, prefixed ``label``
    (and the pages per second when ``wall`` is given); returns how many failed."""
    failed_requests = [r for r in results if r.get("http") != 201]
    failed_jobs = [r for r in results if r.get("outcome") == "failed"]
    timeouts = [r for r in results if r.get("outcome") == "timeout"]
    done = sorted(r["seconds"] for r in results if r.get("outcome") == "needs_review")
    pages = sum(r.get("pages", 0) for r in results if r.get("outcome") == "needs_review")
    print(f"{label}failed requests: {len(failed_requests)}  failed jobs: {len(failed_jobs)}  timeouts: {len(timeouts)}")
    for r in failed_requests[:3]:
        print(f"  HTTP {r.get('http')}: {r.get('answer')}")
    for r in failed_jobs[:3]:
        print(f"  job failed: {r.get('error')}")
    if done:
        p95 = done[min(len(done) - 1, max(0, round(0.95 * len(done)) - 1))]
        polls = sum(r.get("polls", 0) for r in results) / len(results)
        print(
            f"{label}upload → needs_review: p50 {statistics.median(done):.1f} s, p95 {p95:.1f} s, "
            f"max {done[-1]:.1f} s ({len(done)} contracts, {pages} pages; {polls:.1f} polls each)"
        )
        if wall:
            print(f"pages/s: {pages / wall:.2f} in all, {pages / wall / workers:.2f} per worker ({workers})")
    return len(failed_requests) + len(failed_jobs) + len(timeouts)


if __name__ == "__main__":
    raise SystemExit(main())
