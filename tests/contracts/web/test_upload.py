"""Bad uploads are refused with a message a clerk understands and create nothing."""

from __future__ import annotations

import io
import os

import pymupdf
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from accounts.models import Role
from contracts.models import AuditEvent, Contract, Run
from tests.plugins.tenants import logged_in
from tests.plugins.tokens import api, make_token
from tests.redactor.pdf.test_active_content import ACTIVE, _edit
from tests.redactor.pdf.test_pdf_limits import _with_content, _zeros


def _encrypted(pdf: bytes) -> bytes:
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    return doc.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, owner_pw="o", user_pw="u")


def _with_javascript(pdf: bytes) -> bytes:
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    doc.xref_set_key(doc.pdf_catalog(), "OpenAction", "<</S/JavaScript/JS(app.alert\\(1\\))>>")
    return doc.tobytes()


CASES = {
    "not a PDF": (lambda pdf: b"Dobry den,\nposilam smlouvu.\n", "not a PDF"),
    "empty": (lambda pdf: b"", "empty"),
    "encrypted": (_encrypted, "password-protected"),
    "javascript": (_with_javascript, "active content (JavaScript)"),
    "damaged": (lambda pdf: b"%PDF-1.7\n" + os.urandom(64), "damaged"),
    # a 300 KB file whose one content stream inflates to 300 MiB (the default limit is 256 MiB)
    "decompression bomb": (lambda pdf: _with_content(_zeros(300 << 20)), "unpacks to far more data than a contract"),
}


@pytest.mark.parametrize("case", CASES)
def test_bad_upload_is_refused_and_creates_nothing(case, agency, clerk, contract_pdf, settings):
    settings.LANGUAGE_CODE = "en"
    make, message = CASES[case]
    data = make(contract_pdf)
    media_before = _media_files(settings.MEDIA_ROOT)
    response = logged_in(clerk).post(
        reverse("contracts:upload", kwargs={"agency_id": agency.pk}),
        {"file": SimpleUploadedFile("smlouva.pdf", data, content_type="application/pdf")},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Contract.objects.exists() and not Run.objects.exists() and not AuditEvent.objects.exists()
    assert _media_files(settings.MEDIA_ROOT) == media_before


def test_over_the_size_limit_is_refused(agency, clerk, contract_pdf, settings):
    settings.REDACTOR_MAX_UPLOAD_BYTES = len(contract_pdf) - 1
    response = logged_in(clerk).post(
        reverse("contracts:upload", kwargs={"agency_id": agency.pk}),
        {"file": SimpleUploadedFile("smlouva.pdf", contract_pdf, content_type="application/pdf")},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400 and "the limit is" in response.content.decode()
    assert not Contract.objects.exists()


def test_refusal_is_in_czech_by_default(agency, clerk):
    response = logged_in(clerk).post(
        reverse("contracts:upload", kwargs={"agency_id": agency.pk}),
        {"file": SimpleUploadedFile("smlouva.pdf", b"hello", content_type="application/pdf")},
    )
    assert response.status_code == 400
    assert "Soubor není PDF" in response.content.decode()


#: English words of the check's own names that a Czech sentence must not carry.
_ENGLISH = ("embedded", "attachment", "annotation", "external", "automatic", "file", "name tree", "without")


@pytest.mark.parametrize("case", ACTIVE)
def test_active_content_is_named_in_czech_to_a_czech_clerk(case, agency, clerk):
    """The refusal names what the file carries in the clerk's language: no English word of the
    check's internal names inside the Czech sentence, only the PDF's own names (JavaScript, XFA)."""
    change, kinds = ACTIVE[case]
    response = logged_in(clerk).post(
        reverse("contracts:upload", kwargs={"agency_id": agency.pk}),
        {"file": SimpleUploadedFile("smlouva.pdf", _edit(change), content_type="application/pdf")},
    )
    assert response.status_code == 400
    text = response.content.decode()
    named = text.split("PDF obsahuje aktivní obsah (", 1)[1].split("). ", 1)[0]
    assert not [word for word in _ENGLISH if word in named.lower()], named
    assert named.count(", ") >= len(kinds) - 1


def _media_files(root) -> set[str]:
    return {os.path.join(d, f) for d, _, files in os.walk(root) for f in files}


#: How each kind the check names reads to an English-speaking clerk: the PDF's own names stay.
KINDS_IN_ENGLISH = {
    "XFA": "an XFA form",
    "GoToE": "opening an attached file (GoToE)",
    "GoToR": "opening another file (GoToR)",
    "JavaScript": "JavaScript",
    "external file": "a reference to a file outside the PDF",
    "URI (automatic)": "a web address opened by itself",
    "Launch": "starting a program (Launch)",
    "RichMedia": "rich media (RichMedia)",
    "SubmitForm": "sending the form (SubmitForm)",
    "embedded program": "an attached program",
    "3D annotation": "an annotation of type 3D",
    "Rendition": "playing media (Rendition)",
    "embedded PDF": "an attached PDF that could not be checked",
    "damaged attachment": "a damaged attachment",
}


@pytest.mark.parametrize("case", ACTIVE)
def test_active_content_is_refused_at_both_doors_and_nothing_is_stored(case, agency, clerk, settings):
    """Issue 30: every class of active content (tests/redactor/pdf/test_active_content.py) is refused by
    the web upload and the API with the sentence that says what to do, and no file is kept."""
    settings.LANGUAGE_CODE = "en"
    change, kinds = ACTIVE[case]
    data = _edit(change)
    media_before = _media_files(settings.MEDIA_ROOT)
    web = logged_in(clerk).post(
        reverse("contracts:upload", kwargs={"agency_id": agency.pk}),
        {"file": SimpleUploadedFile("smlouva.pdf", data, content_type="application/pdf")},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert web.status_code == 400
    sentence = f"The PDF contains active content ({', '.join(KINDS_IN_ENGLISH[k] for k in sorted(kinds))}). Save it"
    assert sentence in web.content.decode()
    file = io.BytesIO(data)
    file.name = "smlouva.pdf"
    answer = api(make_token(agency, Role.CLERK)[1]).post(
        "/api/v1/contracts/", {"file": file}, format="multipart", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert answer.status_code == 400 and answer.json()["extra"]["code"] == "active_content"
    assert answer.json()["message"].startswith(sentence)
    assert not Contract.objects.exists() and not AuditEvent.objects.exists()
    assert _media_files(settings.MEDIA_ROOT) == media_before


def test_the_pdf_check_and_the_file_write_hold_no_database_transaction(agency, clerk, contract_pdf, monkeypatch):
    """On SQLite one upload's transaction holds the whole database's write lock: a 94-second
    check inside it made every other agency's request answer 500 ("database is locked")."""
    from django.db import connection

    from contracts.services import uploads

    seen = {}
    check = uploads.pdf_check
    outer = len(connection.atomic_blocks)  # the test's own transaction

    def watched_check(data):
        seen["check"] = len(connection.atomic_blocks) > outer
        return check(data)

    storage = Contract._meta.get_field("original").storage
    save = storage.save

    def watched_save(*args, **kwargs):
        seen["write"] = len(connection.atomic_blocks) > outer
        return save(*args, **kwargs)

    monkeypatch.setattr(uploads, "pdf_check", watched_check)
    monkeypatch.setattr(storage, "save", watched_save)
    contract = uploads.contract_upload(agency=agency, user=clerk, data=contract_pdf, filename="smlouva.pdf")
    assert seen == {"check": False, "write": False}
    assert contract.pk and contract.original.storage.exists(contract.original.name)


def test_an_upload_whose_rows_cannot_be_written_leaves_no_file(agency, clerk, contract_pdf, monkeypatch):
    from contracts.services import uploads

    stored = []
    storage = Contract._meta.get_field("original").storage
    save = storage.save
    monkeypatch.setattr(storage, "save", lambda *a, **kw: stored.append(save(*a, **kw)) or stored[-1])

    def refuse(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(uploads, "audit", refuse)
    with pytest.raises(RuntimeError):
        uploads.contract_upload(agency=agency, user=clerk, data=contract_pdf, filename="smlouva.pdf")
    assert stored and not storage.exists(stored[0])
    assert not Contract.objects.exists()
