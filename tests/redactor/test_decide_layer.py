"""Deciding a text layer already read (:meth:`RedactionEngine.decide_layer`) gives what analysing
the PDF gives, with no reading: the map preview decides a contract's stored analysis under two
maps this way, and a scan is not read by OCR again."""

from __future__ import annotations

import pytest

from redactor import CategoryMap
from redactor.read.stored_layer import layer_from_bytes, layer_to_bytes
from tests.conftest import DATA


@pytest.mark.parametrize("name", ["kupni_auto_1", "dilo_firma_1", "dotace_spolek_1"])
def test_deciding_the_stored_layer_again_gives_the_same_proposals(rules_engine, name):
    pdf = (DATA / "dev" / f"{name}.pdf").read_bytes()
    analysis = rules_engine.analyze(pdf)
    stored = layer_from_bytes(layer_to_bytes(analysis.text_layer))
    again = rules_engine.decide_layer(stored)
    assert [p.to_dict() for p in again.proposals] == [p.to_dict() for p in analysis.proposals]
    assert again.category_map == analysis.category_map and "extract" not in again.timings


def test_another_map_changes_only_what_it_decides_differently(rules_engine):
    pdf = (DATA / "dev" / "kupni_auto_1.pdf").read_bytes()
    analysis = rules_engine.analyze(pdf)
    category = next(p.category for p in analysis.proposals if p.action.value == "redact")
    data = CategoryMap.default().to_dict()
    for row in data["categories"]:
        if row["id"] == category:  # not personal data under this map
            row["type"], row["depends_on"] = "not_subject", []
    other = rules_engine.decide_layer(analysis.text_layer, CategoryMap.from_dict(data))
    before = {(p.span.start, p.span.end): p.action for p in analysis.proposals}
    changed = [p for p in other.proposals if before.get((p.span.start, p.span.end)) not in (None, p.action)]
    assert changed and {p.category for p in changed} == {category}
