"""The copies in tests/data are the shared files they stand for (when ../shared is here)."""

from __future__ import annotations

import pytest

from tests.conftest import BUNDLED, SHARED, SHARED_DATA

COPIES = sorted(p.relative_to(BUNDLED) for p in BUNDLED.rglob("*") if p.is_file() and p.name != "README.md")


def test_the_bundled_data_holds_what_the_tests_name():
    names = {str(p) for p in COPIES}
    assert "tools/score_redaction.py" in names and "identifiers/identifier_vectors.tsv" in names
    assert "real/TestData_668.pdf" in names
    # every bundled contract has its gold file
    contracts = {p.stem for p in COPIES if p.parts[0] == "dev" and p.suffix == ".pdf"}
    assert len(contracts) == 10 and {p.stem for p in COPIES if p.parts[0] == "dev" and p.suffix == ".json"} == contracts


@pytest.mark.parametrize("relative", COPIES, ids=str)
def test_a_bundled_copy_equals_its_shared_original(relative):
    original = (SHARED / relative) if relative.parts[0] == "tools" else (SHARED_DATA / relative)
    if not original.is_file():
        pytest.skip(f"{original} is not here: nothing to compare the bundled copy with")
    assert (BUNDLED / relative).read_bytes() == original.read_bytes(), (
        f"tests/data/{relative} is stale: copy {original} again"
    )
