"""The quick start's own Redis (bin/private-redis) answers only this user, and only with the
password generated for this checkout: another local account can neither connect over TCP nor
open the socket, and a client without the password is refused."""

from __future__ import annotations

import shutil
import stat
import subprocess
import time

import pytest
import redis

from tests.conftest import ROOT

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server is installed by bin/setup")


@pytest.fixture
def private_redis(tmp_path):
    process = subprocess.Popen([str(ROOT / "bin" / "private-redis"), str(tmp_path)])
    socket = tmp_path / "redis" / "redis.sock"
    for _ in range(100):
        if socket.exists():
            break
        time.sleep(0.05)
    yield tmp_path, socket
    process.terminate()
    process.wait(timeout=10)


def test_only_this_user_with_the_generated_password_gets_in(private_redis):
    var, socket = private_redis
    password = (var / "redis.pass").read_text().strip()
    assert len(password) >= 40
    assert stat.S_IMODE((var / "redis.pass").stat().st_mode) == 0o600
    assert stat.S_IMODE((var / "redis").stat().st_mode) == 0o700
    assert stat.S_IMODE(socket.stat().st_mode) & 0o077 == 0
    with pytest.raises(redis.AuthenticationError):
        redis.from_url(f"unix://{socket}?db=0").ping()
    client = redis.from_url(f"unix://:{password}@{socket}?db=0")
    assert client.ping()
    assert client.config_get("port")["port"] == "0"  # no TCP port at all
    assert password not in subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout


def test_the_password_is_kept_across_restarts(tmp_path):
    (tmp_path / "redis.pass").write_text("kept-password-0123456789\n")
    process = subprocess.Popen([str(ROOT / "bin" / "private-redis"), str(tmp_path)])
    try:
        socket = tmp_path / "redis" / "redis.sock"
        for _ in range(100):
            if socket.exists():
                break
            time.sleep(0.05)
        assert redis.from_url(f"unix://:kept-password-0123456789@{socket}?db=0").ping()
    finally:
        process.terminate()
        process.wait(timeout=10)
