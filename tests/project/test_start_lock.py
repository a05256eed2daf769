"""``bin/start`` refuses to start over an instance already running from the same checkout, naming
it, before it sets anything up (a second instance had silently taken over the first one's
gunicorn socket)."""

from __future__ import annotations

import fcntl
import os
import re
import subprocess
import sys

import pytest

from tests.conftest import ROOT


def test_a_second_start_from_the_same_checkout_is_refused_and_names_the_first():
    lock_path, pid_path = ROOT / "var" / "start.lock", ROOT / "var" / "start.pid"
    lock_path.parent.mkdir(exist_ok=True)
    had_pid = pid_path.read_text() if pid_path.exists() else None
    with open(lock_path, "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a running bin/start holds it
        except BlockingIOError:
            pytest.skip("bin/start is running from this checkout now; the test needs its lock")
        pid_path.write_text("PID 4242, port 8000\n")
        try:
            run = subprocess.run([str(ROOT / "bin" / "start")], capture_output=True, text=True, timeout=60)
        finally:
            if had_pid is None:
                pid_path.unlink()
            else:
                pid_path.write_text(had_pid)
    assert run.returncode == 1
    # the process that really holds the lock is named (here this test), not what var/start.pid says
    assert f"already running from this checkout: var/start.lock is held by PID {os.getpid()} (" in run.stderr
    assert "4242" not in run.stderr
    assert "Set up" not in run.stdout  # refused before bin/setup ran


def test_nothing_bin_start_leaves_running_holds_its_lock():
    """Every process ``bin/start`` puts in the background is started without the lock's descriptor
    (``9>&-``): a private Redis that outlives a start ended hard (SIGKILL, a closed terminal) had
    kept the lock, and every later start refused; that Redis is stopped by the next start."""
    script = (ROOT / "bin" / "start").read_text()
    launched = [line for line in script.splitlines() if re.search(r"&\s*(#.*)?$", line) and "2>&1 &&" not in line]
    assert len(launched) >= 7, launched
    assert [line for line in launched if "9>&-" not in line] == []
    assert "pidfile $dir/redis/redis.pid" in (ROOT / "bin" / "private-redis").read_text()
    assert "an earlier start left running" in script


def test_the_data_box_test_server_starts_from_the_command_line():
    """``bin/databox-test-server`` (the demo's data box, no code to write): it prints its address
    and answers there, asking for a login as the real data box does."""
    import re
    import urllib.error
    import urllib.request

    server = subprocess.Popen(
        [sys.executable, str(ROOT / "bin" / "databox-test-server"), "--port", "0"],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        first = server.stdout.readline()
        url = re.search(r"at (http://127\.0\.0\.1:\d+/DS/)", first).group(1)
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(url + "dz", data=b"<x/>", timeout=10)
        assert refused.value.code == 401
        assert "REDACTOR_DATABOX_URL_TEST=" + url in server.stdout.readline()
    finally:
        server.terminate()
        server.wait(timeout=10)
