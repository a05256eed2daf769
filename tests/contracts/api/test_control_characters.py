"""A control character typed or pasted into a text field (Word's manual line break, a NUL, a
line separator) never produces a 500, at any door: the upload form, the API, the registry panel;
it is stored as a space (a line break) or not at all, and a value stored before the doors
cleaned it still cannot break the contract page or the registry XML."""

from __future__ import annotations

import io

import pytest

from contracts.models import Contract
from redactor.metadata import ContractMetadata
from redactor.text import plain_text
from registry import isrs
from registry import services as registry
from registry.models import RegistryRecord
from tests.plugins.tenants import logged_in
from tests.plugins.tokens import api
from tests.registry.web.test_registry import _url

pytestmark = pytest.mark.django_db

HOSTILE = "Oprava\x0bchodníku a\u2028kanalizace\x1b[31m\r\nv obci"


@pytest.mark.parametrize(
    ("value", "one_line"),
    [
        ("Oprava\x0bchodníku", "Oprava chodníku"),  # Word's manual line break
        ("a\r\nb\tc", "a  b c"),
        ("nul\x00 byte\x7f", "nul byte"),
        ("a\u2028b\u2029c\x85d", "a b c d"),
        ("lone \ud800 surrogate \uffff", "lone  surrogate "),
        ("Kupní smlouva č. 15/2026 – Novák", "Kupní smlouva č. 15/2026 – Novák"),
    ],
)
def test_plain_text_keeps_letters_and_makes_breaks_spaces(value, one_line):
    assert plain_text(value) == one_line


def test_plain_text_with_lines_keeps_line_feeds_only():
    assert plain_text("a\r\nb\rc\x0bd\ne", lines=True) == "a\nb\nc d\ne"


def test_an_api_upload_with_control_characters_is_stored_clean_and_the_page_answers(clerk_token, contract_pdf, clerk):
    data = {"file": io.BytesIO(contract_pdf), "title": HOSTILE, "counterparty": "Jan\x0bNovák", "subject": HOSTILE}
    data["file"].name = "smlouva\x0b1.pdf"
    response = api(clerk_token).post("/api/v1/contracts/", data, format="multipart")
    assert response.status_code == 201, response.content
    contract = Contract.objects.get(pk=response.json()["id"])
    for text in (contract.title, contract.subject, contract.counterparty, contract.original_name):
        assert plain_text(text) == text and "\x0b" not in text
    assert contract.counterparty == "Jan Novák"
    assert logged_in(clerk).get(f"/a/{contract.agency_id}/contracts/{contract.pk}/").status_code == 200
    assert api(clerk_token).get(f"/api/v1/contracts/{contract.pk}/").status_code == 200


def test_an_api_upload_with_a_nul_character_is_refused_naming_the_field(clerk_token, contract_pdf):
    data = {"file": io.BytesIO(contract_pdf), "subject": "Oprava\x00chodníku"}
    data["file"].name = "smlouva.pdf"
    before = Contract.objects.count()
    response = api(clerk_token).post("/api/v1/contracts/", data, format="multipart")
    assert response.status_code == 400 and "subject" in response.json()["extra"]["fields"]
    assert Contract.objects.count() == before


def test_the_registry_panel_stores_a_pasted_line_break_as_a_space(published, clerk):
    meta = ContractMetadata.from_dict(published.registry_record.metadata)
    meta.subject, meta.signed_by = "Oprava\x0bchodníku", "Ing. Petr\x00 Starosta"
    registry.registry_metadata_update(contract=published, user=clerk, metadata=meta)
    published.refresh_from_db()
    saved = ContractMetadata.from_dict(published.registry_record.metadata)
    assert (saved.subject, saved.signed_by) == ("Oprava chodníku", "Ing. Petr Starosta")
    assert logged_in(clerk).get(_url(published, "contracts:detail")).status_code == 200


def test_a_control_character_stored_before_cannot_break_the_page_or_the_xml(published, clerk):
    data = dict(published.registry_record.metadata)
    data["subject"], data["date_concluded"] = "Oprava\x0bchodníku", "2026-03-02"
    RegistryRecord.objects.filter(contract=published).update(metadata=data)
    published.refresh_from_db()
    assert logged_in(clerk).get(_url(published, "contracts:detail")).status_code == 200
    xml = isrs.publish_xml(ContractMetadata.from_dict(published.registry_record.metadata), ["smlouva.pdf"])
    assert b"\x0b" not in xml and "Oprava chodníku".encode() in xml
