"""A test server of the registry of contracts' open data, on loopback: monthly dumps
(``dump_<yyyy>_<mm>.xml``, ``dump_mesice.xsd`` of ISRS 1.2.1, written by :func:`registry.isrs.dump_xml`)
at its root and every record's files under ``smlouva/soubor/<n>/<name>``, as the registry serves them
(https://data.smlouvy.gov.cz/ and https://smlouvy.gov.cz/smlouva/soubor/). It counts the requests
for each path, and a file can be served with other content than the dump's hash names (a file
changed after publication, or damaged on the way).

Used by the tests and the audit benchmark (``benchmarks/registry_audit.py``); not for production.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import Counter
from datetime import UTC, date, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from redactor.metadata import ContractMetadata
from registry import isrs


class OpenDataServer:
    """``with OpenDataServer() as server``: ``server.url`` is the open data's base (dumps),
    ``server.files_url`` the files' base, on ``port`` (0: any free one); :meth:`publish` adds a
    month's dump."""

    def __init__(self, port: int = 0) -> None:
        self.paths: dict[str, bytes] = {}
        self.requests: Counter[str] = Counter()
        self._n = 0
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                owner.requests[self.path] += 1
                body = owner.paths.get(self.path)
                if body is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "application/xml" if self.path.endswith(".xml") else "application/pdf")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_port}/"
        self.files_url = f"{self.url}smlouva/soubor/"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> OpenDataServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def file(self, name: str, content: bytes) -> isrs.RecordFile:
        """Serve ``content`` as a published file; returns its entry for a record."""
        self._n += 1
        path = f"/smlouva/soubor/{self._n}/{name}"
        self.paths[path] = content
        return isrs.RecordFile(name=name, sha256=isrs.sha256(content), link=self.url.rstrip("/") + path)

    def replace(self, entry: isrs.RecordFile, content: bytes) -> None:
        """Serve ``content`` for the file ``entry`` names (its hash in the dump unchanged)."""
        self.paths[entry.link.removeprefix(self.url.rstrip("/"))] = content

    def record(
        self, record_id: int, metadata: ContractMetadata, files: list[isrs.RecordFile], version_id: int = 0
    ) -> isrs.Record:
        """A record as the registry publishes it (its public link on this server)."""
        return isrs.Record(
            record_id=record_id,
            version_id=version_id or record_id,
            link=f"{self.url}smlouva/{record_id}",
            published_at=datetime(2026, 10, 1, 9, 0, tzinfo=UTC),
            metadata=metadata,
            files=files,
            current=True,
        )

    def publish(self, month: date, records: list[isrs.Record]) -> str:
        """Serve the dump of ``month`` with ``records``, each published in that month as in the
        registry's dumps (a record dated otherwise is dated the month's first day); returns its path."""
        records = [
            r if r.published_at and (r.published_at.year, r.published_at.month) == (month.year, month.month)
            else dataclasses.replace(r, published_at=datetime(month.year, month.month, 1, 9, 0, tzinfo=UTC))
            for r in records
        ]  # fmt: skip
        path = f"/dump_{month.year}_{month.month:02d}.xml"
        self.paths[path] = isrs.dump_xml(records, month.year, month.month, datetime(2026, 11, 1, tzinfo=UTC))
        return path
