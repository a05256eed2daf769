"""Loaded by pytest before Django (``-p tests.services_env`` in pyproject): points the test run at
the real PostgreSQL and Redis on 127.0.0.1, as CI has them, and at a throw-away media folder.

``TEST_DATABASE_URL`` (default ``postgres://127.0.0.1:5432/test``; pytest-django creates and
drops ``test_test``, ``test_test_gw0``, ``test_test_gw1``, … one per pytest-xdist worker) and
``TEST_REDIS_URL`` (default database 15 of 127.0.0.1:6379) override. Each xdist worker gets a Redis
database of its own, counted down from that one (``gw0`` 15, ``gw1`` 14, …): the queues, the cache
and the tests that empty them do not meet another worker's.
"""

import os
import tempfile

os.environ["DATABASE_URL"] = os.environ.get("TEST_DATABASE_URL", "postgres://127.0.0.1:5432/test")


def _worker_redis(url: str, worker: str) -> str:
    """``url`` with its database number lowered by the xdist worker's index (``gw3`` → 3)."""
    if not worker.startswith("gw"):
        return url
    base, _, number = url.rpartition("/")
    database = int(number or 0) - int(worker[2:])
    if database < 0:
        raise RuntimeError(f"{url}: too few Redis databases below it for xdist worker {worker}")
    return f"{base}/{database}"


os.environ["REDIS_URL"] = _worker_redis(
    os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15"), os.environ.get("PYTEST_XDIST_WORKER", "")
)
os.environ["MEDIA_ROOT"] = tempfile.mkdtemp(prefix="redactor-test-media-")
os.environ.setdefault("DEBUG", "1")
# the platform preview's documents: the bundled dev contracts, wherever ../shared is (a test that
# previews the whole dev set names it)
os.environ.setdefault("REDACTOR_PREVIEW_DIR", os.path.join(os.path.dirname(__file__), "data", "dev"))
# the tests' webhook receiver listens on loopback, which deployments refuse by default
os.environ.setdefault("REDACTOR_WEBHOOK_ALLOW_PRIVATE", "1")
os.environ.setdefault("REDACTOR_WEBHOOK_PORTS", "any")  # on a random port
