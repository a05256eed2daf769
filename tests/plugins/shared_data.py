"""The ``data`` marker: which tests depend on where the data sets live.

A test reaches ``../shared`` (``SHARED_DIR``) through the paths of :mod:`tests.conftest` (``DATA``,
``SHARED``, ``SHARED_DATA``, ``SCORER``, ``BUNDLED``) or the fixtures ``data_dir`` and
``shared_data``. Such a test is marked ``data`` at collection: its module holds one of those
paths, the code of a fixture it uses names one, or it asks for one of those fixtures. CI's second run,
as a clone without ``../shared`` (``SHARED_DIR=/nonexistent pytest -m data``), runs just these; every
other test reads the same files in both runs.

The marking is checked, not trusted: while ``../shared`` is there, an audit hook
(:func:`sys.addaudithook`; events ``open``, ``os.listdir``, ``os.scandir``, ``subprocess.Popen``) notes
every path under it that a test opens, lists or passes to a program, and a test without the
marker that did so fails, naming the path.
"""

from __future__ import annotations

import os
import sys

import pytest

from tests import conftest as _paths

#: The fixtures that hand a test the data folder.
DATA_FIXTURES = frozenset({"data_dir", "shared_data"})
_PATHS = (_paths.DATA, _paths.SHARED, _paths.SHARED_DATA, _paths.SCORER, _paths.BUNDLED)
_SHARED = os.fspath(_paths.SHARED.resolve()) + os.sep if _paths.SHARED.is_dir() else None
_EVENTS = frozenset({"open", "os.listdir", "os.scandir", "subprocess.Popen"})

#: The test running now (its node id, "" between tests), and the shared path each test touched first.
_running = ""
_touched: dict[str, str] = {}


def _is_data_path(value: object) -> bool:
    return any(value is path for path in _PATHS)


#: The names of the data paths in :mod:`tests.conftest`, for a test that imports one inside itself.
_PATH_NAMES = frozenset(name for name, value in vars(_paths).items() if _is_data_path(value))


def _uses_data_path(function: object) -> bool:
    """Whether ``function``'s own code names a global bound to a data path or imports one from
    :mod:`tests.conftest`."""
    code = getattr(function, "__code__", None)
    if code is None:
        return False
    namespace = getattr(function, "__globals__", {})
    if "tests.conftest" in code.co_names and _PATH_NAMES & set(code.co_names):
        return True
    return any(_is_data_path(namespace.get(name)) for name in code.co_names)


def reaches_data(item: pytest.Item) -> bool:
    """Whether ``item`` reads the data sets: it asks for a data fixture, its module holds a data
    path, or the code of one of its fixtures names one."""
    info = getattr(item, "_fixtureinfo", None)
    names = set(info.names_closure) if info is not None else set()
    if names & DATA_FIXTURES:
        return True
    module = getattr(item, "module", None)
    if module is not None and any(map(_is_data_path, vars(module).values())):
        return True
    if _uses_data_path(getattr(item, "function", None)):
        return True
    definitions = (d for name in names for d in (info.name2fixturedefs.get(name, ()) if info else ()))
    return any(_uses_data_path(d.func) for d in definitions)


def _shared_path(argument: object) -> str | None:
    if isinstance(argument, (list, tuple)):
        return next(filter(None, map(_shared_path, argument)), None)
    if not isinstance(argument, (str, bytes, os.PathLike)):
        return None
    path = os.fsdecode(argument)
    if _SHARED is not None and os.path.abspath(path).startswith(_SHARED):
        return path
    return None


def _audit(event: str, arguments: tuple) -> None:
    if event in _EVENTS and _running and _running not in _touched:
        path = _shared_path(arguments[:2])
        if path is not None:
            _touched[_running] = path


def pytest_configure(config: pytest.Config) -> None:
    if _SHARED is not None:
        sys.addaudithook(_audit)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if reaches_data(item):
            item.add_marker(pytest.mark.data)


def pytest_runtest_logstart(nodeid: str) -> None:
    global _running
    _running = nodeid


def pytest_runtest_logfinish(nodeid: str) -> None:
    global _running
    _running = ""


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    report = yield
    path = _touched.pop(item.nodeid, None) if call.when == "teardown" else None
    if path is not None and item.get_closest_marker("data") is None:
        report.outcome = "failed"
        report.longrepr = (
            f"{item.nodeid} reads the shared data ({path}) but is not marked 'data': reach it through "
            "tests.conftest's paths or the data_dir/shared_data fixtures, so that the lone-clone run runs it"
        )
    return report
