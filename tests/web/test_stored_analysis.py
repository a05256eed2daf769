"""The analysed document is kept once: processing stores the text layer it analysed, and a text
selection, a text export and a publication read it instead of rebuilding and extracting the
original again; publishing rebuilds the original once, to burn the boxes into it."""

from __future__ import annotations

from dataclasses import replace

import pymupdf
import pytest

from contracts.models import DecisionState, Proposal, Status
from contracts.services import exports, processing, publishing, reviewing
from contracts.services.files import referenced_files
from redactor import LAYER_FORMAT, layer_from_bytes, layer_to_bytes
from redactor.model import Box
from redactor.pdf import rebuild as rebuild_module
from tests.plugins.tenants import run_latest_job

pytestmark = pytest.mark.django_db


@pytest.fixture
def rebuilds(monkeypatch) -> list[int]:
    """The sizes of the documents rebuilt from here on (every rebuild goes through ``_rebuild``),
    with the process's cache of recent rebuilds emptied, so that every read of an original counts
    (a worker that did not analyse the contract has none of it cached)."""
    seen: list[int] = []
    real = rebuild_module._rebuild

    def counted(data, **options):
        seen.append(len(data))
        return real(data, **options)

    monkeypatch.setattr(rebuild_module, "_rebuild", counted)
    monkeypatch.setattr(rebuild_module, "_RECENT", rebuild_module._Recent(0))
    return seen


def test_processing_stores_the_analysed_document_and_the_walks_read_it(processed, reviewer, rebuilds):
    assert processed.analysed.name.startswith(f"analysed/{processed.agency_id}/")
    assert processed.analysed_format == LAYER_FORMAT and processed.analysed.name in referenced_files()
    with processed.analysed.open("rb") as fh:
        layer = layer_from_bytes(fh.read())
    assert "Jan Novák" in layer.text and len(layer.boxes) == len(layer.text)
    engine_proposals = Proposal.objects.filter(contract=processed, span_start__isnull=False)
    assert engine_proposals.exists()
    for p in engine_proposals:  # the proposals point into the stored text, as into the analysed one
        assert layer.text[p.span_start : p.span_end].replace("\n", " ") == p.text

    # a text selection finds the other occurrences of the words in the stored layer
    with processed.original.open("rb") as fh, pymupdf.open(stream=fh.read(), filetype="pdf") as doc:
        words = [w for w in doc[0].get_text("words") if w[4] in ("předmět", "koupě")]
    reviewing.proposal_add_manual(
        contract=processed,
        user=reviewer,
        boxes=[Box(1, *w[:4]) for w in words],
        text="předmět koupě",
        from_selection=True,
    )
    assert rebuilds == []

    Proposal.objects.filter(contract=processed).update(decision=DecisionState.ACCEPTED)
    publishing.contract_approve(contract=processed, user=reviewer)
    run_latest_job(processed)
    assert processed.status == Status.PUBLISHED, processed.error_message
    assert len(rebuilds) == 1  # the burn-in's own rebuild of the original, nothing more

    exports.contract_text_export(contract=processed, user=reviewer, mode="tagged", fmt="txt")
    assert len(rebuilds) == 1


def test_a_contract_processed_before_the_layer_was_kept_is_read_from_its_original(processed, rebuilds):
    stored = processing.contract_text_layer(processed)
    processed.analysed_format = 0  # as every contract processed before
    assert processing.contract_text_layer(processed).text == stored.text
    assert len(rebuilds) == 1


def test_a_stored_analysis_changed_in_storage_is_not_believed(processed, rebuilds):
    stored = processing.contract_text_layer(processed)
    with processed.analysed.storage.open(processed.analysed.name, "wb") as fh:
        fh.write(layer_to_bytes(replace(stored, text=stored.text.replace("Novák", "Nowak"))))
    assert processing.contract_text_layer(processed).text == stored.text  # read again from the original
    assert len(rebuilds) == 1


def test_deleting_a_contracts_data_deletes_its_analysed_document(
    processed, reviewer, django_capture_on_commit_callbacks
):
    storage, name = processed.analysed.storage, processed.analysed.name
    with django_capture_on_commit_callbacks(execute=True):
        publishing.contract_delete(contract=processed, user=reviewer)
    processed.refresh_from_db()
    assert not processed.analysed and processed.analysed_format == 0 and not storage.exists(name)
