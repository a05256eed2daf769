"""A monthly dump of the registry's open data is an upload of its own: a month of the whole
registry (58–100 MB) streams through the API to the file storage in bounded memory, under a limit
of its own (``REDACTOR_MAX_DUMP_BYTES``), and a dump over it is refused with that limit named."""

from __future__ import annotations

import hashlib
import tracemalloc
import uuid
from datetime import UTC, date, datetime

import pytest
from django.contrib.messages import get_messages
from django.test.client import ClientHandler
from django.urls import reverse

from accounts.models import Role
from redactor.metadata import ContractMetadata, PublishingBody, RegistryParty
from registry import isrs
from registry.models import RecordImport
from tests.plugins.tenants import logged_in
from tests.plugins.tokens import make_token

MB = 1024 * 1024


def _dump_of_size(path, size: int, agency) -> None:
    """Write a valid monthly dump of about ``size`` bytes to ``path``, piece by piece: the records
    of one small dump repeated (as a month of the whole registry repeats its shape)."""
    record = isrs.Record(
        record_id=1,
        version_id=1,
        link="https://smlouvy.gov.cz/smlouva/1",
        published_at=datetime(2016, 7, 1, 9, 0, tzinfo=UTC),
        metadata=ContractMetadata(
            publisher=PublishingBody(name="Město Jinde", ico="00064581"),
            parties=[RegistryParty(name="Stavby Novák s.r.o.", ico="25596641")],
            subject="Oprava chodníku " + "a dlažby " * 20,
            date_concluded=date(2016, 6, 30),
        ),
        files=[isrs.RecordFile("smlouva.pdf", "0" * 64, "https://smlouvy.gov.cz/smlouva/soubor/1/smlouva.pdf")],
        current=True,
    )
    small = isrs.dump_xml([record], 2016, 7, datetime(2016, 8, 1, tzinfo=UTC))
    head, rest = small.split(b"<zaznam>", 1)
    body, tail = rest.rsplit(b"</dump>", 1)
    piece = b"<zaznam>" + body
    with path.open("wb") as fh:
        fh.write(head)
        while fh.tell() < size:
            fh.write(piece * 100)
        fh.write(b"</dump>" + tail)


def _post_streamed(url: str, token: str, dump_path, tmp_path):
    """POST ``dump_path`` as the multipart field ``dump`` from a file on disk (the request's body
    is never in this process's memory: the WSGI input is the open file), as a client streams it."""
    boundary = uuid.uuid4().hex
    body_path = tmp_path / "body"
    with body_path.open("wb") as out, dump_path.open("rb") as dump:
        out.write(
            f'--{boundary}\r\nContent-Disposition: form-data; name="dump"; filename="dump_2016_07.xml"\r\n'
            "Content-Type: application/xml\r\n\r\n".encode()
        )
        while chunk := dump.read(MB):
            out.write(chunk)
        out.write(f"\r\n--{boundary}--\r\n".encode())
    with body_path.open("rb") as stream:
        environ = {
            "REQUEST_METHOD": "POST",
            "PATH_INFO": url,
            "SERVER_NAME": "testserver",
            "SERVER_PORT": "443",
            "wsgi.url_scheme": "https",
            "wsgi.input": stream,
            "CONTENT_TYPE": f"multipart/form-data; boundary={boundary}",
            "CONTENT_LENGTH": str(body_path.stat().st_size),
            "HTTP_AUTHORIZATION": f"Bearer {token}",
            "HTTP_ACCEPT_LANGUAGE": "en",
        }
        return ClientHandler(enforce_csrf_checks=False)(environ)


@pytest.mark.django_db
def test_a_60_mb_dump_streams_to_the_storage_in_bounded_memory(agency, admin_user, tmp_path, monkeypatch):
    monkeypatch.setattr("registry.services.published._enqueue", lambda started: None)  # the job is not run here
    dump = tmp_path / "dump_2016_07.xml"
    _dump_of_size(dump, 60 * MB, agency)
    assert dump.stat().st_size > 60 * MB
    token = make_token(agency, Role.ADMIN, created_by=admin_user)[1]
    tracemalloc.start()
    try:
        response = _post_streamed("/api/v1/registry/records/imports/", token, dump, tmp_path)
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert response.status_code == 202, response.content[:500]
    assert peak < 8 * MB, peak  # the dump went by in chunks: never whole, nor a large part of it, in memory
    started = RecordImport.objects.get(agency=agency)
    digest = hashlib.sha256()
    with started.dump.open("rb") as kept:
        while chunk := kept.read(MB):
            digest.update(chunk)
    assert digest.hexdigest() == hashlib.sha256(dump.read_bytes()).hexdigest()  # kept whole, byte for byte


@pytest.mark.django_db
def test_a_dump_over_its_limit_is_refused_with_the_limit_named(agency, admin_user, tmp_path, settings):
    settings.REDACTOR_MAX_DUMP_BYTES = 5 * MB
    dump = tmp_path / "dump_2016_07.xml"
    _dump_of_size(dump, 6 * MB, agency)
    token = make_token(agency, Role.ADMIN, created_by=admin_user)[1]
    response = _post_streamed("/api/v1/registry/records/imports/", token, dump, tmp_path)
    assert response.status_code == 413
    assert b"the limit is 5 MB" in response.content and b"too_large" in response.content
    assert not RecordImport.objects.exists()
    # a dump under the contracts' upload limit's size but over the request limit is no longer refused as a request
    settings.REDACTOR_MAX_DUMP_BYTES = 400 * MB
    small = tmp_path / "small.xml"
    _dump_of_size(small, 3 * MB, agency)
    assert _post_streamed("/api/v1/registry/records/imports/", token, small, tmp_path).status_code == 202


@pytest.mark.django_db
def test_the_records_page_takes_a_dump_over_the_request_limit(agency, admin_user, tmp_path, monkeypatch, settings):
    monkeypatch.setattr("registry.services.published._enqueue", lambda started: None)
    dump = tmp_path / "dump_2016_07.xml"
    _dump_of_size(dump, 3 * MB, agency)  # the size of the July 2016 sample, over the 2.6 MB of a plain request
    assert dump.stat().st_size > settings.REDACTOR_MAX_REQUEST_BYTES
    url = reverse("registry:records_import", kwargs={"agency_id": agency.pk})
    with dump.open("rb") as fh:
        response = logged_in(admin_user).post(url, {"dump": fh})
    assert response.status_code == 302
    assert [m.level_tag for m in get_messages(response.wsgi_request)] == ["success"]
    assert RecordImport.objects.get(agency=agency).source == "dump_2016_07.xml"


def _declared(encoding: str) -> bytes:
    """A one-record dump (UTF-8 bytes) whose XML declaration names ``encoding``."""
    record = isrs.Record(
        record_id=7, version_id=7, link="https://smlouvy.gov.cz/smlouva/7",
        published_at=datetime(2016, 7, 1, 9, 0, tzinfo=UTC),
        metadata=ContractMetadata(
            publisher=PublishingBody(name="Město Žďár", ico="00064581"),
            parties=[RegistryParty(name="Stavby Novák s.r.o.", ico="25596641")],
            subject="Oprava chodníku", date_concluded=date(2016, 6, 30),
        ),
        files=[isrs.RecordFile("smlouva.pdf", "0" * 64, "https://smlouvy.gov.cz/smlouva/soubor/7/smlouva.pdf")],
        current=True,
    )  # fmt: skip
    xml = isrs.dump_xml([record], 2016, 7, datetime(2016, 8, 1, tzinfo=UTC))
    body = xml.split(b"?>", 1)[1] if xml.startswith(b"<?xml") else xml
    return f'<?xml version="1.0" encoding="{encoding}"?>'.encode() + body


def test_a_dump_declaring_another_encoding_than_utf8_is_refused_not_imported_garbled(agency, admin_user):
    import io

    from django.core.exceptions import ValidationError

    from registry.services.published import record_import_upload

    with pytest.raises(ValidationError) as refused:
        record_import_upload(
            agency=agency, user=admin_user, dump=io.BytesIO(_declared("windows-1250")), filename="d.xml"
        )
    assert refused.value.code == "not_utf8"
    with pytest.raises(isrs.RegistryXmlError, match="encoding"):  # the job's reading says the same
        list(isrs.iter_dump(io.BytesIO(_declared("windows-1250")), lambda body: True))
    # as the registry publishes it, it is read with its Czech letters
    [read] = list(isrs.iter_dump(io.BytesIO(_declared("UTF-8")), lambda body: True))
    assert read.metadata.publisher.name == "Město Žďár"
