#!/usr/bin/env python
"""A clerk's upload while an agency admin previews a map draft on a large scan, against a running
service: upload → needs_review with the workers idle and during the preview, and the preview's
own wall time.

usage: python3 benchmarks/busy_preview.py --url http://127.0.0.1:8000 --token-file var/demo_token
           [--admin spravce --password demo-heslo-2026] [--scan ../shared/data/real/more/pdfs_997.pdf]
           [--small ../shared/data/dev/dilo_firma_1.pdf] [--rounds 3] [--timeout 900]

Starts nothing itself: point it at ``./bin/start`` (the demo agency, its token and its admin).
Uploads ``--scan`` through the API and waits for its analysis; opens a map draft as the admin
(a role exception switched off, the console's own form) and then, ``--rounds`` times, posts the
preview of the scan under both maps and at once uploads ``--small``, timing the small contract
to needs_review and the preview to its result. The same small upload with nothing else running
is the baseline. Standard library only; timing lives here, never in a test.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import re
import statistics
import time
import urllib.parse
import urllib.request
from pathlib import Path

from load import ROOT, one_upload


class Browser:
    """An admin's session in the web interface (cookies and the CSRF token, as a form sends it)."""

    def __init__(self, base: str):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path: str) -> tuple[str, str]:
        with self.opener.open(self.base + path, timeout=120) as response:
            return response.geturl(), response.read().decode()

    def post(self, path: str, fields: dict[str, str]) -> tuple[str, str]:
        token = next(c.value for c in self.jar if c.name == "csrftoken")
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **fields}).encode()
        request = urllib.request.Request(self.base + path, data=body, method="POST")
        request.add_header("Origin", self.base)
        request.add_header("Referer", self.base + path)
        with self.opener.open(request, timeout=120) as response:
            return response.geturl(), response.read().decode()

    def log_in(self, username: str, password: str) -> int:
        """Log in; return the agency id the start page leads to."""
        self.get("/accounts/login/")
        url, _ = self.post("/accounts/login/", {"username": username, "password": password})
        found = re.search(r"/a/(\d+)/", url)
        if not found:
            raise SystemExit(f"login as {username} failed (ended at {url})")
        return int(found.group(1))


def _upload(base: str, token: str, pdf: Path, timeout: float) -> dict:
    out: dict = {}
    one_upload(base, token, pdf, timeout, 0.5, out)  # poll every half second where no Retry-After is sent
    if out.get("outcome") != "needs_review":
        raise SystemExit(f"{pdf.name}: {out}")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--token-file", default=str(ROOT / "var" / "demo_token"))
    parser.add_argument("--admin", default="spravce")
    parser.add_argument("--password", default="demo-heslo-2026")
    parser.add_argument("--scan", default=str(ROOT.parent / "shared" / "data" / "real" / "more" / "pdfs_997.pdf"))
    parser.add_argument("--small", default=str(ROOT.parent / "shared" / "data" / "dev" / "dilo_firma_1.pdf"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=900)
    args = parser.parse_args()
    base, token = args.url.rstrip("/"), Path(args.token_file).read_text().strip()
    scan, small = Path(args.scan), Path(args.small)

    analysed = _upload(base, token, scan, args.timeout)
    scan_id = analysed["id"]
    print(f"scan {scan.name}: {analysed['pages']} pages analysed in {analysed['seconds']:.1f} s")

    idle = [_upload(base, token, small, args.timeout)["seconds"] for _ in range(args.rounds)]
    admin = Browser(base)
    agency = admin.log_in(args.admin, args.password)
    admin.post(f"/a/{agency}/map/role/", {"role": "public_official"})  # opens a draft
    busy, previews = [], []
    for _ in range(args.rounds):
        began = time.monotonic()
        url, _ = admin.post(f"/a/{agency}/map/preview/", {"source": f"c{scan_id}"})
        if "job=" not in url:
            raise SystemExit(f"the preview did not start (ended at {url})")
        busy.append(_upload(base, token, small, args.timeout)["seconds"])
        path = url[len(base) :]
        while time.monotonic() - began < args.timeout:
            _, page = admin.get(path)
            if 'id="preview-summary"' in page or 'id="preview-failed"' in page:
                if 'id="preview-failed"' in page:
                    raise SystemExit("the preview failed")
                break
            time.sleep(0.5)
        previews.append(time.monotonic() - began)
    print(f"{small.name} upload → needs_review, idle: median {statistics.median(idle):.1f} s, max {max(idle):.1f} s")
    print(
        f"{small.name} upload → needs_review, during the preview: median {statistics.median(busy):.1f} s, "
        f"max {max(busy):.1f} s"
    )
    print(f"preview of the {analysed['pages']}-page scan, post → result: median {statistics.median(previews):.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
