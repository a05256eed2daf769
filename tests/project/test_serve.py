"""Issue 30: the web door as bin/start and the image run it (bin/serve: nginx in front of
gunicorn, config/nginx.conf) keeps answering while slow clients hold more connections than
gunicorn has threads, and refuses a body declared too large before reading it. Figures (latency
under load) come from benchmarks/hostile.py, not from here."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import threading
import time

import pytest
import requests

from tests.conftest import ROOT

pytestmark = pytest.mark.skipif(shutil.which("nginx") is None, reason="nginx is not installed (bin/setup installs it)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def served(tmp_path):
    port = _free_port()
    env = {
        **os.environ,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "VAR_DIR": str(tmp_path),
        "SECRET_KEY": "s" * 50,
        "SECURE_HTTPS": "0",
        "WEB_CONCURRENCY": "2",
        "GUNICORN_THREADS": "2",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "STATIC_ROOT": str(ROOT / "var" / "staticfiles"),  # collected by bin/setup
    }
    process = subprocess.Popen(
        [str(ROOT / "bin" / "serve")], cwd=ROOT, env=env, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}/"
    # nginx answers 502 at once until gunicorn's socket is there: every try waits, up to a minute
    # (a loaded machine boots gunicorn's workers slowly)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if requests.get(base + "healthz", timeout=2).status_code == 200:
                break
        except requests.RequestException:
            pass
        threading.Event().wait(0.2)
    else:
        os.killpg(process.pid, signal.SIGTERM)
        pytest.fail("bin/serve did not start: " + process.stderr.read().decode()[-2000:])
    yield base, port
    os.killpg(process.pid, signal.SIGTERM)
    process.wait(timeout=30)
    assert not (tmp_path / "run").exists() or oct((tmp_path / "run").stat().st_mode)[-3:] == "700"


def _slow(port: int, stop: threading.Event) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(
            b"POST /accounts/login/ HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=x\r\n"
            b"Content-Length: 1000000\r\n\r\n--x\r\n"
        )
        while not stop.is_set():
            try:
                sock.sendall(b"a")
            except OSError:
                return
            stop.wait(0.5)


def test_slow_clients_do_not_hold_the_service(served):
    base, port = served
    stop = threading.Event()
    clients = [threading.Thread(target=_slow, args=(port, stop), daemon=True) for _ in range(20)]
    for thread in clients:  # 20 slow bodies; gunicorn has 2 workers x 2 threads
        thread.start()
    try:
        threading.Event().wait(1.0)
        answers = [requests.get(base + "healthz", timeout=10) for _ in range(10)]
        assert [a.status_code for a in answers] == [200] * 10
        assert requests.get(base + "accounts/login/", timeout=10).status_code == 200
    finally:
        stop.set()
        for thread in clients:
            thread.join(timeout=5)


def test_a_body_declared_too_large_is_refused_before_it_is_read(served):
    _base, port = served
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(
            b"POST /accounts/login/ HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=x\r\n"
            b"Content-Length: 100000000000\r\n\r\n"
        )
        answer = sock.recv(200)
    assert answer.startswith(b"HTTP/1.1 413")


def test_a_body_over_the_upload_limit_gets_the_sites_answer(served):
    """nginx refuses it before reading it and the application words the refusal: the API's error
    shape with the limit, or a page in the site's layout."""
    _base, port = served

    def refused(path: bytes) -> str:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(
                b"POST " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Language: cs\r\nConnection: close\r\n"
                b"Content-Type: multipart/form-data; boundary=x\r\nContent-Length: 100000000000\r\n\r\n"
            )
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
        return answer.decode("utf-8", "replace")

    api = refused(b"/api/v1/contracts/")
    assert api.startswith("HTTP/1.1 413") and '"code": "too_large"' in api and "limit je 52 MB" in api
    page = refused(b"/a/1/contracts/upload/")
    assert page.startswith("HTTP/1.1 413") and '<header class="top">' in page and 'id="too-large"' in page
    assert "limit je 52 MB" in page


class _Worker:
    """What gunicorn's hooks read of a worker."""

    def __init__(self) -> None:
        import logging

        self.pid, self.alive, self.log = os.getpid(), True, logging.getLogger("gunicorn.test")


def test_a_web_worker_is_capped_when_forked_and_replaced_when_grown(monkeypatch):
    import subprocess
    import sys

    capped = subprocess.run(
        [sys.executable, "-c", "import resource; from config import gunicorn; from contracts import memory; "
         "from tests.project.test_serve import _Worker; held = memory.address_space(); "
         "gunicorn.post_fork(None, _Worker()); print(resource.getrlimit(resource.RLIMIT_AS)[0] - held)"],
        cwd=ROOT, capture_output=True, text=True, check=True,
        env={**os.environ, "REDACTOR_WEB_MEMORY_BYTES": str(256 * 1024**2)},
    )  # fmt: skip
    from config import gunicorn

    assert 256 * 1024**2 <= int(capped.stdout.split()[-1]) < 300 * 1024**2  # what it held + 256 MiB
    worker = _Worker()
    monkeypatch.setattr(gunicorn, "resident", lambda: gunicorn._RECYCLE - 1)
    gunicorn.post_request(worker, None, None, None)
    assert worker.alive
    monkeypatch.setattr(gunicorn, "resident", lambda: gunicorn._RECYCLE + 1)
    gunicorn.post_request(worker, None, None, None)
    assert not worker.alive
