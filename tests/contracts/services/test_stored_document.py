"""The stored document: processing keeps the rebuilt PDF beside the analysed layer, and review
(every page of it, its pictures, its words, its API), text selection, exports and publishing
read that instead of the original. Counted, not assumed: every opening of a PDF parser (MuPDF,
qpdf, PDFium, poppler, pdfplumber) on the original's bytes and every read of the original from
storage."""

from __future__ import annotations

import hashlib
import io
import os
from dataclasses import replace

import pdfplumber
import pdftotext
import pikepdf
import pymupdf
import pypdfium2
import pytest
from django.core.management import call_command
from django.urls import reverse

from accounts.models import Role
from contracts import selectors
from contracts.models import DecisionState, Proposal, Run, Status
from contracts.services import exports, processing, publishing, reviewing
from contracts.services.files import referenced_files
from contracts.services.runs import run_claim, run_start
from redactor import StoredDocument
from redactor.model import Box
from redactor.read.looks import upload_looks
from redactor.read.stored_layer import LAYER_FORMAT, layer_to_bytes, read_stored
from tests.plugins.tenants import logged_in, run_latest_job
from tests.plugins.tokens import api as tokened
from tests.plugins.tokens import make_token

pytestmark = pytest.mark.django_db

#: The PDF parsers the engine uses, as the modules' attributes every call goes through.
PARSERS = [
    (pymupdf, "open"),
    (pikepdf, "open"),
    (pypdfium2, "PdfDocument"),
    (pdftotext, "PDF"),
    (pdfplumber, "open"),
]


class Openings:
    """What opened the watched ``originals``: ``parsers`` (``"pymupdf.open"``, one entry an
    opening) and ``reads`` (reads of an original from storage, by contract id)."""

    def __init__(self):
        self.originals: set[bytes] = set()
        self.parsers: list[str] = []
        self.reads: list[int] = []

    def watch(self, contract) -> None:
        with contract.original.open("rb") as fh:
            self.originals.add(fh.read())

    def clear(self) -> None:
        self.parsers.clear()
        self.reads.clear()


@pytest.fixture
def openings(monkeypatch) -> Openings:
    seen = Openings()

    def watched(module, name):
        real = getattr(module, name)

        def opening(*args, **kwargs):
            for value in (*args, *kwargs.values()):
                data = value.getvalue() if isinstance(value, io.BytesIO) else value
                if isinstance(data, bytes | bytearray) and bytes(data) in seen.originals:
                    seen.parsers.append(f"{module.__name__}.{name}")
            return real(*args, **kwargs)

        return opening

    for module, name in PARSERS:
        monkeypatch.setattr(module, name, watched(module, name))
    real_read = selectors.contract_original

    def read(contract):
        seen.reads.append(contract.pk)
        return real_read(contract)

    monkeypatch.setattr(selectors, "contract_original", read)
    return seen


def test_the_watch_sees_an_opening_of_the_original(processed, openings):
    """The counter itself: a read of the original and a parser on its bytes are both seen."""
    openings.watch(processed)
    data = selectors.contract_original(processed)
    pymupdf.open(stream=data, filetype="pdf").close()
    pikepdf.open(io.BytesIO(data)).close()
    assert openings.reads == [processed.pk] and openings.parsers == ["pymupdf.open", "pikepdf.open"]


def test_processing_stores_the_rebuilt_document_beside_its_layer(processed):
    assert processed.analysed.name.startswith(f"analysed/{processed.agency_id}/")
    assert processed.rebuilt.name.startswith(f"analysed/{processed.agency_id}/")
    assert {processed.analysed.name, processed.rebuilt.name} <= set(referenced_files())
    assert processed.analysed_format == LAYER_FORMAT
    with processed.analysed.open("rb") as fh:
        layer_bytes = fh.read()
    with processed.rebuilt.open("rb") as fh:
        pdf = fh.read()
    assert hashlib.sha256(layer_bytes).hexdigest() == processed.analysed_sha256
    assert hashlib.sha256(pdf).hexdigest() == processed.rebuilt_sha256
    document = StoredDocument.from_stored(layer_bytes, pdf)
    assert "Jan Novák" in document.layer.text and len(document.layer.boxes) == len(document.layer.text)
    # the looks are the original's, drawn at the sizes the rebuild publishes the pages at
    assert document.looks() == upload_looks(selectors.contract_original(processed), pdf)
    for p in Proposal.objects.filter(contract=processed, span_start__isnull=False):
        assert document.layer.text[p.span_start : p.span_end].replace("\n", " ") == p.text


def test_review_and_publishing_open_no_parser_on_the_original(processed, reviewer, openings):
    openings.watch(processed)
    client = logged_in(reviewer)
    base = {"agency_id": processed.agency_id, "contract_id": processed.pk}
    pages = range(1, len(processed.pages) + 1)
    urls = [reverse("contracts:review", kwargs=base), reverse("contracts:review_state", kwargs=base)]
    urls += [reverse("contracts:review_watchdog", kwargs=base), reverse("contracts:detail", kwargs=base)]
    for n in pages:
        image = reverse("contracts:page_image", kwargs={**base, "page": n})
        urls += [image, image + "?preview=1", reverse("contracts:page_text", kwargs={**base, "page": n})]
    for url in urls:
        assert client.get(url).status_code == 200, url
    api = f"/api/v1/contracts/{processed.pk}/"
    token = make_token(processed.agency, Role.REVIEWER)[1]
    for url in (api, api + "proposals/", api + "repeated-pages/"):
        assert tokened(token).get(url).status_code == 200, url
    words = client.get(reverse("contracts:page_text", kwargs={**base, "page": 1})).json()["words"]
    chosen = [w for w in words if w[0] in ("předmět", "koupě")]
    reviewing.proposal_add_manual(
        contract=processed,
        user=reviewer,
        boxes=[Box(1, *w[1:]) for w in chosen],
        text="předmět koupě",
        from_selection=True,
    )
    assert (openings.parsers, openings.reads) == ([], [])

    Proposal.objects.filter(contract=processed).update(decision=DecisionState.ACCEPTED)
    publishing.contract_approve(contract=processed, user=reviewer)
    run_latest_job(processed)
    assert processed.status == Status.PUBLISHED, processed.error_message
    exports.contract_text_export(contract=processed, user=reviewer, mode="tagged", fmt="txt")
    assert (openings.parsers, openings.reads) == ([], [])


def test_publishing_burns_into_the_stored_rebuild(processed, reviewer, monkeypatch):
    """The engine is handed the stored document, not bytes to rebuild."""
    from policy.runtime import get_engine

    engine = get_engine()
    handed = []
    real = engine.redact

    def redact(document, *args, **kwargs):
        handed.append(document)
        return real(document, *args, **kwargs)

    monkeypatch.setattr(engine, "redact", redact)
    publishing.contract_approve(contract=processed, user=reviewer)
    run_latest_job(processed)
    assert processed.status == Status.PUBLISHED, processed.error_message
    [document] = handed
    with processed.rebuilt.open("rb") as fh:
        assert isinstance(document, StoredDocument) and document.pdf == fh.read()


def _layer_alone(layer) -> bytes:
    """``layer`` in format 2, as the release before stored documents wrote it: the magic and the
    format, the header's length and its zlib bytes, then the boxes' zlib bytes to the end (taken
    from the format-3 sections of the layer stored without a document)."""
    data = layer_to_bytes(layer)
    head_size = int.from_bytes(data[8:16], "big")
    head, rest = data[16 : 16 + head_size], data[16 + head_size :]
    boxes = rest[8 : 8 + int.from_bytes(rest[:8], "big")]
    return data[:7] + bytes([2]) + head_size.to_bytes(8, "big") + head + boxes


def _as_before_documents(contract) -> None:
    """Make ``contract`` look processed by the release that kept the layer alone (no rebuilt PDF)."""
    with contract.analysed.open("rb") as fh:
        old = _layer_alone(read_stored(fh.read()).layer)
    with contract.analysed.storage.open(contract.analysed.name, "wb") as fh:
        fh.write(old)
    contract.analysed_format, contract.analysed_sha256 = 2, hashlib.sha256(old).hexdigest()
    contract.rebuilt.storage.delete(contract.rebuilt.name)
    contract.rebuilt, contract.rebuilt_sha256 = "", ""
    contract.save(update_fields=["analysed_format", "analysed_sha256", "rebuilt", "rebuilt_sha256"])


def test_a_contract_processed_before_documents_were_stored_gets_its_document_once(processed, openings):
    layer = selectors.contract_text_layer(processed)
    _as_before_documents(processed)
    with processed.analysed.open("rb") as fh:
        assert read_stored(fh.read()).rebuild is None  # the old format, still read
    assert selectors.contract_text_layer(processed).text == layer.text  # the layer alone: no original needed
    openings.watch(processed)
    assert selectors.contract_document(processed).layer.text == layer.text  # built from the original
    assert openings.reads == [processed.pk]

    call_command("store_documents", stdout=open(os.devnull, "w"))
    processed.refresh_from_db()
    assert processed.analysed_format == LAYER_FORMAT and processed.rebuilt and processed.rebuilt_sha256
    openings.clear()
    document = selectors.contract_document(processed)
    assert document.layer.text == layer.text and document.layer.boxes == layer.boxes
    assert (openings.parsers, openings.reads) == ([], [])
    call_command("store_documents", stdout=(out := io.StringIO()))
    assert out.getvalue().startswith("0 documents stored")


def test_a_stored_layer_changed_in_storage_is_not_believed(processed, openings):
    stored = selectors.contract_text_layer(processed)
    with processed.analysed.storage.open(processed.analysed.name, "wb") as fh:
        fh.write(layer_to_bytes(replace(stored, text=stored.text.replace("Novák", "Nowak"))))
    openings.watch(processed)
    assert selectors.contract_text_layer(processed).text == stored.text  # read again from the original
    assert openings.reads == [processed.pk]


def test_a_stored_rebuild_changed_in_storage_is_not_believed(processed, openings):
    with processed.rebuilt.storage.open(processed.rebuilt.name, "wb") as fh:
        fh.write(b"%PDF-1.7 not the rebuild")
    openings.watch(processed)
    document = selectors.contract_document(processed)
    assert openings.reads == [processed.pk] and document.pdf.startswith(b"%PDF")
    assert document.page_count == len(processed.pages)


def test_deleting_a_contracts_data_deletes_its_stored_document(processed, reviewer, django_capture_on_commit_callbacks):
    storage = processed.analysed.storage
    names = [processed.analysed.name, processed.rebuilt.name]
    with django_capture_on_commit_callbacks(execute=True):
        publishing.contract_delete(contract=processed, user=reviewer)
    processed.refresh_from_db()
    assert not processed.analysed and not processed.rebuilt and processed.analysed_format == 0
    assert not any(storage.exists(name) for name in names)


def test_processing_again_replaces_the_stored_document(processed, django_capture_on_commit_callbacks):
    storage = processed.analysed.storage
    before = {processed.analysed.name, processed.rebuilt.name}
    run = run_start(processed, Run.Kind.PROCESSING)
    with django_capture_on_commit_callbacks(execute=True):
        processing.contract_process(run=run_claim(run.pk))
    processed.refresh_from_db()
    assert processed.status == Status.NEEDS_REVIEW
    now = {processed.analysed.name, processed.rebuilt.name}
    assert not now & before and all(storage.exists(name) for name in now)
    assert not any(storage.exists(name) for name in before)
