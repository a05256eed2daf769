"""Loaded by pytest before Django (``-p tests.services_env`` in pyproject): points the test run at
the real PostgreSQL and Redis on 127.0.0.1, as CI has them, and at a throw-away media folder.

``TEST_DATABASE_URL`` (default ``postgres://127.0.0.1:5432/test``; pytest-django creates and
drops ``test_test``) and ``TEST_REDIS_URL`` (default database 15 of 127.0.0.1:6379) override.
"""

import os
import tempfile

os.environ["DATABASE_URL"] = os.environ.get("TEST_DATABASE_URL", "postgres://127.0.0.1:5432/test")
os.environ["REDIS_URL"] = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
os.environ["MEDIA_ROOT"] = tempfile.mkdtemp(prefix="redactor-test-media-")
os.environ.setdefault("DEBUG", "1")
# the tests' webhook receiver listens on loopback, which deployments refuse by default
os.environ.setdefault("REDACTOR_WEBHOOK_ALLOW_PRIVATE", "1")
os.environ.setdefault("REDACTOR_WEBHOOK_PORTS", "any")  # on a random port
