"""The ``data`` marker's guard (``tests/plugins/shared_data.py``), run on a test session of its own
(pytester, in a subprocess): a test that opens a file under ``../shared`` without reaching it
through ``tests.conftest``'s paths fails and names the path; one that reaches it through them is
marked ``data`` and passes."""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, SHARED

#: A module that opens a file under ../shared by a path of its own: not marked, so the guard fails it.
SNEAKY = """
def test_reads_the_shared_data_behind_the_markers_back():
    with open({path!r}, encoding="utf-8") as fh:
        fh.read()


def test_reads_nothing_shared():
    assert True
"""
#: A module that reaches the data through tests.conftest's path: marked ``data``.
MARKED = """
from tests.conftest import DATA


def test_reads_it_through_the_conftest_path():
    assert (DATA / "README.md").read_text(encoding="utf-8")
"""
INNER_ARGS = ("-p", "tests.plugins.shared_data", "-p", "no:django", "-p", "no:xdist", "-p", "no:cacheprovider")


@pytest.fixture
def inner_session(pytester, monkeypatch):
    readme = SHARED.resolve() / "data" / "README.md"
    if not readme.is_file():
        pytest.skip("the guard watches ../shared, which this checkout does not have")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.setenv("SHARED_DIR", str(SHARED))
    pytester.makepyfile(test_sneaky=SNEAKY.format(path=str(readme)), test_marked=MARKED)
    return pytester


def test_an_unmarked_test_that_opens_the_shared_data_fails_and_names_the_path(inner_session):
    result = inner_session.runpytest_subprocess(*INNER_ARGS)
    assert result.ret != 0  # the session fails; the guard fails the test at its teardown
    result.assert_outcomes(passed=3, errors=1)
    result.stdout.fnmatch_lines(["*test_reads_the_shared_data_behind_the_markers_back reads the shared data (*)*"])
    assert "README.md" in result.stdout.str()


def test_a_test_through_the_conftest_paths_is_marked_data(inner_session):
    result = inner_session.runpytest_subprocess(*INNER_ARGS, "-m", "data")
    result.assert_outcomes(passed=1, deselected=2)
