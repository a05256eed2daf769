"""An agency's records already in the registry of contracts, read from the registry's open data.

The registry publishes every record each month in a dump (``dump_mesice.xsd`` of ISRS 1.2.1): its
metadata as published and, for every file, its name, SHA-256 and link. An import
(:class:`~registry.models.RecordImport`) takes the records whose publisher (``subjekt``) is the
agency, by its IČO or its data box, from a dump an admin uploaded
(:func:`record_import_upload`) or one the job fetches (:func:`record_import_fetch`), and keeps
each as a :class:`~registry.models.PublishedRecord` with its newest version's metadata. Each file is
fetched once (:func:`record_files_fetch`) from the registry's address
(``settings.REDACTOR_REGISTRY_FILES_URL``: a dump cannot send the service elsewhere), its SHA-256
checked against the dump's: a file that does not match is refused and not kept, the others are
kept unchanged as the record's published originals. ``REDACTOR_REGISTRY_FETCH`` off fetches
nothing. Nothing is ever sent to the registry here.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import logging
import tempfile
import time
import urllib.parse
from collections.abc import Iterator
from datetime import date
from typing import IO

import urllib3
from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile, File
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from lxml import etree

from accounts.access import require_role
from accounts.models import Agency, Role
from contracts import queue
from redactor.metadata import PublishingBody
from registry import isrs
from registry.models import PublishedFile, PublishedRecord, RecordImport

log = logging.getLogger(__name__)

#: The job that runs an import (:func:`record_import_run`), on the low queue, and what RQ calls
#: when its work horse dies (:func:`record_import_fail`).
IMPORT_RECORDS = "registry.jobs.import_records"
ON_IMPORT_FAILURE = "registry.jobs.on_import_failure"


class FetchError(Exception):
    """A file or dump could not be fetched; the message is a sentence for the agency."""


def _looks_like_dump(stream: IO[bytes]) -> bool:
    """Whether ``stream`` (read from its start) begins as a registry dump (its root element
    ``dump`` in the ISRS namespace), read up to its first element without building the tree.
    Raises ``ValidationError`` code ``not_utf8`` for a dump that declares an encoding other than
    UTF-8 (:func:`registry.isrs.dump_encoding_problem`)."""
    if isrs.dump_encoding_problem(stream.read(512)) is not None:
        raise ValidationError(
            _(
                "The dump is not in UTF-8, in which the registry publishes its dumps: read so, its Czech letters "
                "would be imported garbled. Download the month's dump again and upload it as it came."
            ),
            code="not_utf8",
        )
    stream.seek(0)
    try:
        for _event, element in etree.iterparse(
            stream, events=("start",), resolve_entities=False, no_network=True, huge_tree=False
        ):
            return etree.QName(element).localname == "dump" and etree.QName(element).namespace == isrs.NS
    except etree.XMLSyntaxError:
        return False
    return False


def dump_too_large_error() -> ValidationError:
    """The refusal of a dump over ``REDACTOR_MAX_DUMP_BYTES`` (code ``too_large``, 413 in the API),
    naming the limit."""
    return ValidationError(
        _("The dump is larger than a monthly dump may be; the limit is %(limit)d MB.")
        % {"limit": settings.REDACTOR_MAX_DUMP_BYTES // 10**6},
        code="too_large",
    )


#: Bytes read at a time from an uploaded dump (its hash, its copy into the file storage).
CHUNK = 1024 * 1024


def record_import_upload(*, agency: Agency, user: User, dump: IO[bytes], filename: str) -> RecordImport:
    """Import the agency's records from a monthly dump an admin uploaded (``dump``: a seekable
    binary file, e.g. the upload's temporary file; never read whole into memory): the dump is
    kept and the import queued on the low queue (:func:`record_import_run`). Raises
    ``PermissionDenied`` unless ``user`` is the agency's admin, ``ValidationError`` code
    ``too_large`` for a file over ``REDACTOR_MAX_DUMP_BYTES`` (a month of the whole registry is
    58–100 MB) and code ``not_a_dump`` for a file that is not a registry dump."""
    require_role(user, agency, Role.ADMIN)
    size = dump.seek(0, io.SEEK_END)
    if size > settings.REDACTOR_MAX_DUMP_BYTES:
        raise dump_too_large_error()
    dump.seek(0)
    if not size or not _looks_like_dump(dump):
        raise ValidationError(
            _("This file is not a monthly dump of the registry of contracts' open data (dump_YYYY_MM.xml)."),
            code="not_a_dump",
        )
    dump.seek(0)
    digest = hashlib.sha256()
    for chunk in iter(lambda: dump.read(CHUNK), b""):
        digest.update(chunk)
    dump.seek(0)
    name = filename.rsplit("/", 1)[-1][:200] or "dump.xml"
    with transaction.atomic():
        started = RecordImport(agency=agency, source=name, created_by=user)
        started.dump.save(f"{agency.pk}-{digest.hexdigest()[:16]}.xml", File(dump), save=False)
        started.save()
        _enqueue(started)
    return started


def _enqueue(started: RecordImport) -> None:
    queue.enqueue(IMPORT_RECORDS, started.pk, queue="low", timeout=6 * 3600, on_failure=ON_IMPORT_FAILURE)


def dump_url(month: date) -> str:
    """The address of the registry's dump of ``month`` (its day ignored)."""
    return f"{settings.REDACTOR_REGISTRY_OPEN_DATA_URL}dump_{month.year}_{month.month:02d}.xml"


def record_import_fetch(*, agency: Agency, user: User | None, month: date) -> RecordImport:
    """Import the agency's records from the registry's dump of ``month``, fetched by the job.
    Raises ``PermissionDenied`` unless ``user`` is the agency's admin (``None``: the system),
    ``ValidationError`` code ``fetch_off`` when this service fetches nothing
    (``REDACTOR_REGISTRY_FETCH``)."""
    if user is not None:
        require_role(user, agency, Role.ADMIN)
    if not settings.REDACTOR_REGISTRY_FETCH:
        raise ValidationError(
            _("This service does not fetch from the registry; download the month's dump and upload it here."),
            code="fetch_off",
        )
    with transaction.atomic():
        started = RecordImport.objects.create(agency=agency, source=dump_url(month), created_by=user)
        _enqueue(started)
    return started


def _get(url: str, limit: int, out: IO[bytes] | None = None, *, deadline: float | None = None) -> bytes:
    """The body of ``url`` (GET, no redirects, at most ``limit`` bytes, within ``deadline``
    seconds in all: ``REDACTOR_REGISTRY_FILE_DEADLINE`` unless said, so that a server trickling
    a byte a minute cannot hold the job), or written to ``out`` as it comes (then ``b""`` is
    returned). Raises :class:`FetchError` with a sentence for the agency."""
    ends = time.monotonic() + (settings.REDACTOR_REGISTRY_FILE_DEADLINE if deadline is None else deadline)
    http = urllib3.PoolManager(
        timeout=urllib3.Timeout(connect=10, read=settings.REDACTOR_REGISTRY_FETCH_TIMEOUT), retries=False
    )
    try:
        reply = http.request("GET", url, preload_content=False, redirect=False)
    except urllib3.exceptions.HTTPError as exc:
        log.info("fetching %s failed: %s", url, exc)
        raise FetchError(_("The registry could not be reached; the import will try again.")) from None
    try:
        if reply.status != 200:
            raise FetchError(_("The registry answered %(status)d for this address.") % {"status": reply.status})
        body, size = bytearray(), 0
        while chunk := reply.read1(1 << 16):  # what has come, not a full 64 KiB: the deadline is checked
            size += len(chunk)
            if size > limit:
                raise FetchError(_("The file is larger than this service accepts."))
            if time.monotonic() > ends:
                raise FetchError(_("The registry sent the file too slowly; the import will try again."))
            if out is None:
                body += chunk
            else:
                out.write(chunk)
        return bytes(body)
    except urllib3.exceptions.HTTPError as exc:
        log.info("reading %s failed: %s", url, exc)
        raise FetchError(_("The registry stopped answering while sending the file.")) from None
    finally:
        reply.release_conn()


@contextlib.contextmanager
def _fetched_dump(url: str) -> Iterator[IO[bytes]]:
    """The dump at ``url`` fetched into a temporary file (never whole in memory), within the
    dump's size limit and deadline. Raises :class:`FetchError`."""
    with tempfile.TemporaryFile() as fh:
        _get(url, settings.REDACTOR_MAX_DUMP_BYTES, fh, deadline=settings.REDACTOR_REGISTRY_DUMP_DEADLINE)
        fh.seek(0)
        yield fh


@contextlib.contextmanager
def _dump_of(started: RecordImport) -> Iterator[IO[bytes]]:
    """The import's dump as a file: the one uploaded, or the one fetched from ``source``."""
    if started.dump:
        with started.dump.open("rb") as fh:
            yield fh
        return
    with _fetched_dump(started.source) as fh:
        yield fh


def _published_by(agency: Agency, body: PublishingBody) -> bool:
    """Whether a record whose ``subjekt`` is ``body`` was published by ``agency``: its IČO or its
    data box."""
    return bool(body.ico and body.ico == agency.ico) or bool(
        agency.data_box_id and body.data_box and body.data_box == agency.data_box_id
    )


#: An uploaded dump is confirmed against the registry's dumps of at most this many months (a
#: monthly dump holds the records published in its month; two allow for a file cut at midnight).
MAX_UPLOADED_MONTHS = 2


def _vouched_for(started: RecordImport, uploaded: list[isrs.Record]) -> list[isrs.Record]:
    """The records of an uploaded dump as the registry itself publishes them: a file on the
    admin's disk is anybody's to edit, so its ``subjekt`` proves nothing. Each record is looked up
    in the registry's own dump of the month it names as published (:func:`dump_url`); one the
    registry does not list there as the agency's is left out and counted (``left_out``), one it
    does is taken with the registry's metadata and file hashes, not the upload's. While this
    service fetches nothing (``REDACTOR_REGISTRY_FETCH``) the records are taken as the file names
    them and the import says so (``confirmed`` false). Raises :class:`FetchError` with a sentence
    when a month's dump cannot be fetched or the file names more than
    :data:`MAX_UPLOADED_MONTHS` months."""
    if not settings.REDACTOR_REGISTRY_FETCH:
        RecordImport.objects.filter(pk=started.pk).update(confirmed=False, left_out=0)
        return uploaded
    months = sorted({date(r.published_at.year, r.published_at.month, 1) for r in uploaded if r.published_at})
    if len(months) > MAX_UPLOADED_MONTHS:
        raise FetchError(
            _("The file names records published in %(count)d months; a dump of the registry holds one month. "
              "Upload each month's dump on its own.") % {"count": len(months)}
        )  # fmt: skip
    official: dict[int, isrs.Record] = {}
    for month in months:
        try:
            with _fetched_dump(dump_url(month)) as fh:
                official.update(
                    (r.record_id, r) for r in isrs.iter_dump(fh, lambda body: _published_by(started.agency, body))
                )
        except FetchError as exc:
            raise FetchError(
                _("The registry's own dump of %(month)s, which the uploaded file is checked against, could not "
                  "be fetched: %(reason)s") % {"month": month.strftime("%m/%Y"), "reason": exc}
            ) from None  # fmt: skip
    kept = [official[r.record_id] for r in uploaded if r.record_id in official]
    if left_out := len(uploaded) - len(kept):
        log.warning(
            "import %s: %d records of the uploaded dump are not the agency's in the registry", started.pk, left_out
        )
    RecordImport.objects.filter(pk=started.pk).update(confirmed=True, left_out=left_out)
    return kept


def record_import_run(*, import_id: int) -> None:
    """Job body of an import: read the dump (stored, or fetched from ``source``), keep the
    agency's records and their files (a record already known is updated when the dump has a
    newer version; the files of the new version replace those of the old one), then fetch the
    files still waiting (:func:`record_files_fetch`). Run again, it goes on where it stopped.
    A dump that cannot be read or is not valid leaves the import failed with the reason."""
    started = RecordImport.objects.select_related("agency").get(pk=import_id)
    if started.state == RecordImport.State.DONE:
        return
    RecordImport.objects.filter(pk=started.pk).update(state=RecordImport.State.RUNNING, error="")
    agency = started.agency
    try:
        with _dump_of(started) as fh:
            mine = list(isrs.iter_dump(fh, lambda body: _published_by(agency, body)))
        if started.dump:
            mine = _vouched_for(started, mine)
    except FetchError as exc:
        return _failed(started, str(exc))
    except isrs.RegistryXmlError:
        return _failed(
            started, _("The dump does not follow the registry's schema (dump_mesice.xsd); nothing was imported.")
        )
    new = sum(_keep_record(started, r) for r in mine)
    RecordImport.objects.filter(pk=started.pk).update(records=len(mine), new=new)
    ids = {r.record_id for r in mine}
    files = PublishedFile.objects.filter(record__agency=agency, record__record_id__in=ids)
    RecordImport.objects.filter(pk=started.pk).update(files=files.count())
    if settings.REDACTOR_REGISTRY_FETCH:
        record_files_fetch(agency=agency, record_ids=ids, progress=started)
    RecordImport.objects.filter(pk=started.pk).update(
        state=RecordImport.State.DONE, finished_at=timezone.now(), **_file_counts(files)
    )


def record_import_retry(*, agency: Agency, user: User | None, import_id: int) -> RecordImport:
    """Queue a failed import again: it goes on where it stopped (records kept stay, files
    stored are not fetched again). Raises ``PermissionDenied`` unless ``user`` is the agency's
    admin, ``ValidationError`` code ``not_failed`` for an import that did not fail,
    ``RecordImport.DoesNotExist`` for an import of another agency."""
    if user is not None:
        require_role(user, agency, Role.ADMIN)
    with transaction.atomic():
        started = RecordImport.objects.select_for_update().get(agency=agency, pk=import_id)
        if started.state != RecordImport.State.FAILED:
            raise ValidationError(_("Only a failed import is started again."), code="not_failed")
        started.state, started.error, started.finished_at = RecordImport.State.QUEUED, "", None
        started.save(update_fields=["state", "error", "finished_at"])
        _enqueue(started)
    return started


def record_import_fail(*, import_id: int) -> None:
    """The import's job stopped on an error of its own: the import is failed, with a sentence;
    the records and files it kept stay, and an import of the same dump goes on from there."""
    _failed(
        RecordImport.objects.get(pk=import_id),
        _("The import stopped because of an internal error; the details are in the operator's log. Try again."),
    )


def _failed(started: RecordImport, reason: str) -> None:
    RecordImport.objects.filter(pk=started.pk).update(
        state=RecordImport.State.FAILED, error=reason, finished_at=timezone.now()
    )


def _file_counts(files) -> dict[str, int]:
    """How many of ``files`` are stored, refused and failed (:class:`RecordImport`'s fields,
    named as the file states are)."""
    states = list(files.values_list("state", flat=True))
    return {state: states.count(state) for state in ("stored", "refused", "failed")}


@transaction.atomic
def _keep_record(started: RecordImport, record: isrs.Record) -> bool:
    """Store or update one record of the dump; True when the agency's list did not have it."""
    fields = {
        "version_id": record.version_id,
        "link": record.link[:300],
        "published_at": record.published_at,
        "metadata": record.metadata.to_dict(),
    }
    kept, created = PublishedRecord.objects.select_for_update().get_or_create(
        agency=started.agency, record_id=record.record_id, defaults={**fields, "imported_by": started}
    )
    if not created:
        if record.version_id <= kept.version_id:
            return False
        for name, value in fields.items():
            setattr(kept, name, value)
        kept.imported_by, kept.audit_state, kept.findings, kept.exposure = (
            started, PublishedRecord.AuditState.WAITING, {}, 0,
        )  # fmt: skip
        kept.save()
        for old in kept.files.all():  # the new version's files replace the old version's
            if old.content:
                old.content.delete(save=False)
            old.delete()
    PublishedFile.objects.bulk_create(
        [
            PublishedFile(record=kept, name=f.name[:255], sha256=f.sha256.lower(), link=f.link[:500])
            for f in record.files
        ]
    )
    return created


def record_files_fetch(
    *, agency: Agency, record_ids: set[int] | None = None, progress: RecordImport | None = None
) -> int:
    """Fetch the agency's files still waiting (of ``record_ids``, or all), each once: a link
    outside ``REDACTOR_REGISTRY_FILES_URL`` is not followed, a content whose SHA-256 is not the
    dump's is refused and not kept (the SHA-256 it had is recorded), a fetch that fails is
    recorded with its reason and tried again by the next import. ``progress`` gets the counts as
    they grow. Returns how many files were stored."""
    waiting = PublishedFile.objects.filter(
        record__agency=agency, state__in=(PublishedFile.State.WAITING, PublishedFile.State.FAILED)
    ).order_by("id")
    if record_ids is not None:
        waiting = waiting.filter(record__record_id__in=record_ids)
    files = PublishedFile.objects.filter(record__agency=agency)
    if record_ids is not None:
        files = files.filter(record__record_id__in=record_ids)
    counts = _file_counts(files) if progress is not None else {}
    stored = 0
    for f in waiting.iterator():
        before = f.state
        stored += _fetch_one(f)
        if progress is not None:  # the counts follow each file's move, without counting them all again
            for state, n in ((before, -1), (f.state, +1)):
                if state in counts:
                    counts[state] += n
            RecordImport.objects.filter(pk=progress.pk).update(**counts)
    return stored


def registry_file_link(link: str) -> bool:
    """Whether ``link`` (a dump's ``odkaz`` of a file) is an address under
    ``REDACTOR_REGISTRY_FILES_URL`` and stays there: no dot segments (``..``, ``.``, written
    plainly or percent-encoded, which a server resolves to other paths of the registry's host, RFC
    3986 § 5.2.4), no backslash, no user information, query or fragment tricks before the path."""
    base = settings.REDACTOR_REGISTRY_FILES_URL
    if not link.startswith(base) or "\\" in link:
        return False
    parts, allowed = urllib.parse.urlsplit(link), urllib.parse.urlsplit(base)
    if parts.netloc != allowed.netloc or parts.username or parts.password:
        return False
    rest = urllib.parse.unquote(parts.path[len(allowed.path) :])
    return not any(segment in (".", "..") for segment in rest.split("/"))


def _fetch_one(f: PublishedFile) -> bool:
    if not registry_file_link(f.link):
        f.state, f.error = PublishedFile.State.FAILED, _("The link is not the registry's; it was not followed.")
        f.save(update_fields=["state", "error"])
        return False
    try:
        data = _get(f.link, settings.REDACTOR_MAX_UPLOAD_BYTES)
    except FetchError as exc:
        f.state, f.error = PublishedFile.State.FAILED, str(exc)
        f.save(update_fields=["state", "error"])
        return False
    digest = hashlib.sha256(data).hexdigest()
    if f.sha256 and digest != f.sha256:
        f.state, f.size = PublishedFile.State.REFUSED, len(data)
        f.error = _("The file's SHA-256 is %(got)s, the registry lists %(listed)s; it was not kept.") % {
            "got": digest,
            "listed": f.sha256,
        }
        f.save(update_fields=["state", "size", "error"])
        log.warning("file %s of record %s: SHA-256 mismatch", f.name, f.record_id)
        return False
    f.content.save("file.pdf", ContentFile(data), save=False)
    f.state, f.size, f.error = PublishedFile.State.STORED, len(data), ""
    f.save(update_fields=["content", "state", "size", "error"])
    return True
