"""What the import fetches stays bounded: a file link must stay under the registry's files
address (no dot segments, plain or percent-encoded), and a fetch ends at its total deadline however
slowly the bytes come."""

from __future__ import annotations

import http.server
import threading
import time

import pytest
from django.utils import translation

from registry.services.published import FetchError, _get, registry_file_link

BASE = "https://smlouvy.gov.cz/smlouva/soubor/"


@pytest.mark.parametrize(
    ("link", "followed"),
    [
        (f"{BASE}12345/kupni.pdf?verze=1", True),
        (f"{BASE}12345/kupni..pdf", True),  # two dots inside a name are a name
        (f"{BASE}../../admin/export", False),
        (f"{BASE}12345/%2e%2e/%2E%2E/admin", False),
        (f"{BASE}./12345", False),
        (f"{BASE}12345\\..\\admin", False),
        ("https://smlouvy.gov.cz.example.net/smlouva/soubor/1", False),
        ("https://smlouvy.gov.cz/smlouva/jine/1", False),
    ],
)
def test_a_file_link_is_followed_only_under_the_registrys_files_address(settings, link, followed):
    settings.REDACTOR_REGISTRY_FILES_URL = BASE
    assert registry_file_link(link) is followed


class _Trickle(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Length", "1000")
        self.end_headers()
        for _ in range(1000):  # a byte every 50 ms: each read is quick, the whole is not
            try:
                self.wfile.write(b"x")
                self.wfile.flush()
            except OSError:
                return
            time.sleep(0.05)

    def log_message(self, *args):
        pass


def test_a_trickled_file_ends_at_the_fetchs_deadline():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Trickle)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with translation.override("en"), pytest.raises(FetchError, match="too slowly"):
            _get(f"http://127.0.0.1:{server.server_port}/f.pdf", 10_000, deadline=1)
    finally:
        server.shutdown()
