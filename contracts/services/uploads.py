"""Uploads: the checks an upload must pass before anything is stored, storing it, and
idempotent uploads (the API's ``Idempotency-Key``)."""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.access import require_role
from accounts.models import Agency, Role
from contracts.isolated import check_upload_isolated
from contracts.models import Contract, IdempotencyKey, Run
from redactor import PdfLimits, errors, plain_text

from .common import audit
from .files import STORAGE_ERRORS
from .runs import run_start

log = logging.getLogger(__name__)

#: Bytes a multipart request may carry besides the file (the form fields and the part headers).
UPLOAD_FORM_OVERHEAD = 64 * 1024


def upload_too_large_error() -> ValidationError:
    """The ``too_large`` error for a file stopped on its way in (its size is not known, only
    that it passed the limit; :class:`contracts.upload_handlers.UploadLimitHandler`)."""
    return ValidationError(
        _("The file is larger than allowed; the limit is %(limit).0f MB.")
        % {"limit": settings.REDACTOR_MAX_UPLOAD_BYTES / 1e6},
        code="too_large",
    )


def upload_request_check(content_length: str | None) -> None:
    """Refuse a request whose ``Content-Length`` header already says the file is over the limit,
    before any of its body is read (``ValidationError`` ``too_large``, :func:`upload_size_check`).
    A missing or malformed header passes: the file's own size is checked once it is parsed."""
    try:
        length = int(content_length or 0)
    except ValueError:
        return
    upload_size_check(length - UPLOAD_FORM_OVERHEAD)


def upload_size_check(size: int) -> None:
    """Refuse an upload of ``size`` bytes over ``REDACTOR_MAX_UPLOAD_BYTES`` (``ValidationError``
    ``too_large``, with both sizes in MB); a form asks before it reads the file into memory."""
    limit = settings.REDACTOR_MAX_UPLOAD_BYTES
    if size > limit:
        raise ValidationError(
            _("The file has %(size).1f MB; the limit is %(limit).0f MB.") % {"size": size / 1e6, "limit": limit / 1e6},
            code="too_large",
        )


def _bomb_limit(limit: str) -> str:
    """What a limit of :class:`~redactor.pdf.pdf_limits.PdfLimits` means, in the clerk's words."""
    limits = PdfLimits()
    return {
        "stream": _("one part of the file unpacks to more than %(mb)d MB") % {"mb": limits.stream_bytes >> 20},
        "document": _("the whole file unpacks to more than %(mb)d MB") % {"mb": limits.document_bytes >> 20},
        "drawn": _("its pages draw the same large content over and over"),
        "image": _("an image declares more than %(mpx)d million pixels") % {"mpx": limits.image_pixels // 10**6},
        "page_pixels": _("a page draws images of more than %(mpx)d million pixels")
        % {"mpx": limits.page_pixels // 10**6},
        "pixels": _("its images hold more than %(mpx)d million pixels together")
        % {"mpx": limits.document_pixels // 10**6},
        "operators": _("a page draws more than %(ops)s million shapes and commands")
        % {"ops": f"{limits.page_operators / 10**6:g}"},
        "objects": _("it consists of more than %(count)s thousand parts") % {"count": limits.objects // 1000},
        "structure": _("its bookmarks, pages or form fields nest more than %(levels)d levels deep")
        % {"levels": limits.structure_depth},
        "attachment": _("an attached file unpacks to more than %(mb)d MB") % {"mb": limits.attachment_bytes >> 20},
    }.get(limit, limit)


def _active_kind(kind: str) -> str:
    """A kind of active content (:func:`~redactor.pdf.active_content.find_active_content`) in the
    clerk's language; the PDF's own names (JavaScript, XFA, Launch, …) stay as the standard spells
    them (ISO 32000-1, § 12.6.4), so that the clerk can look them up or tell the file's author."""
    fixed = {
        "JavaScript": _("JavaScript"),
        "XFA": _("an XFA form"),
        "RichMedia": _("rich media (RichMedia)"),
        "URI (automatic)": _("a web address opened by itself"),
        "URI without http, https or mailto": _("a link to neither a web nor an e-mail address"),
        "external file": _("a reference to a file outside the PDF"),
        "damaged attachment": _("a damaged attachment"),
        "embedded program": _("an attached program"),
        "embedded PDF": _("an attached PDF that could not be checked"),
        "embedded archive": _("an attached archive"),
        "embedded archive of too many parts": _("an attached archive of too many parts"),
        "embedded Office 97-2003 document": _("an attached Office 97-2003 document"),
        "embedded document with DDE": _("an attached document with DDE fields"),
        "embedded document with external links": _("an attached document that loads external files"),
        "embedded document with macros": _("an attached document with macros"),
        "embedded object in a document": _("an object embedded in an attached document"),
        "Launch": _("starting a program (Launch)"),
        "SubmitForm": _("sending the form (SubmitForm)"),
        "ImportData": _("importing data (ImportData)"),
        "GoToR": _("opening another file (GoToR)"),
        "GoToE": _("opening an attached file (GoToE)"),
        "Rendition": _("playing media (Rendition)"),
        "Movie": _("playing a film (Movie)"),
        "Sound": _("playing a sound (Sound)"),
    }
    if kind in fixed:
        return str(fixed[kind])
    for prefix, sentence in (
        ("name tree ", _("the document-level entry %(name)s")),
        ("URI ", _("a %(name)s link")),
        ("Named ", _("the viewer command %(name)s")),
        ("attachment type ", _("an attachment of type %(name)s")),
    ):
        if kind.startswith(prefix):
            return sentence % {"name": kind.removeprefix(prefix)}
    if kind.endswith(" annotation"):
        return _("an annotation of type %(name)s") % {"name": kind.removesuffix(" annotation")}
    return _("the action %(name)s") % {"name": kind}


def pdf_problem(exc: errors.RedactionError) -> tuple[str, str]:
    """``(code, sentence)`` for an engine error about the file itself, in the clerk's language;
    the engine's own text (English, with MuPDF's messages) stays in the log. One place for the
    upload check and for the jobs, so a clerk reads the same sentence for the same file."""
    if isinstance(exc, errors.EncryptedPdfError):
        return "encrypted", _("The PDF is password-protected. Save it without a password and upload it again.")
    if isinstance(exc, errors.PdfTooLargeError):
        return "page_limit", _(
            "The PDF is too large to process: at most %(pages)d pages of at most %(side).0f × %(side).0f cm."
        ) % {"pages": settings.REDACTOR_MAX_PAGES, "side": settings.REDACTOR_MAX_PAGE_POINTS * 2.54 / 72}
    if isinstance(exc, errors.PdfUnreadableError):
        if exc.reason == "too_slow":
            return "too_slow", _(
                "The PDF could not be checked within %(seconds)d seconds: its structure is damaged or built to be "
                "slow to read. Print it to PDF or export it again and upload that file."
            ) % {"seconds": exc.seconds}
        return "unreadable", _(
            "The PDF is built in a way that makes PDF readers fail (for example bookmarks or pages nested far "
            "deeper than any document needs), so it was not processed. Print it to PDF or export it again and "
            "upload that file."
        )
    if isinstance(exc, errors.PdfBombError) and exc.limit == "structure":
        return "too_complex", _(
            "The PDF is built far more deeply than a contract is (%(what)s), so it was not processed. "
            "Print it to PDF or export it again and upload that file."
        ) % {"what": _bomb_limit(exc.limit)}
    if isinstance(exc, errors.PdfBombError):
        return "too_complex", _(
            "The PDF unpacks to far more data than a contract has (%(what)s), so it was not processed. "
            "Print it to PDF or scan it again and upload that file."
        ) % {"what": _bomb_limit(exc.limit)}
    if isinstance(exc, errors.ActiveContentError):
        return "active_content", _(
            "The PDF contains active content (%(kinds)s). Save it without scripts, e.g. by printing it "
            "to PDF, and upload it again."
        ) % {"kinds": ", ".join(_active_kind(kind) for kind in exc.kinds)}
    if isinstance(exc, errors.OcrUnavailableError):
        return "ocr_unavailable", _(
            "Scanned pages cannot be read: OCR is not installed on the server. Tell the operator."
        )
    if isinstance(exc, errors.CategoryMapError):
        return "category_map", _("The agency's category map cannot be used. An agency admin must correct it.")
    return "damaged", _("The PDF is damaged and cannot be opened. Export it again from the program that created it.")


def pdf_check(data: bytes) -> PdfFacts:
    """Check an upload before anything is stored; returns its page count (see :func:`pdf_facts`).

    Raises ``ValidationError`` with a message a clerk understands for an empty, oversized,
    non-PDF (the file must start with ``%PDF-``: a file with HTML or anything else in front is a
    polyglot that browsers may run), damaged or password-protected file, one with too many or
    too large pages (``REDACTOR_MAX_PAGES``, ``REDACTOR_MAX_PAGE_POINTS``) and a PDF with active
    content (JavaScript, launch or submit actions).
    """
    if not data:
        raise ValidationError(_("The file is empty."), code="empty")
    upload_size_check(len(data))
    if not data.startswith(b"%PDF-"):
        if b"%PDF-" in data[:1024]:
            raise ValidationError(
                _("The file has other content before the PDF begins. Export the contract again as a PDF file."),
                code="not_pdf",
            )
        raise ValidationError(_("The file is not a PDF. Upload the contract as a PDF file."), code="not_pdf")
    try:
        pages, scan_pages = check_upload_isolated(
            data,
            seconds=settings.REDACTOR_CHECK_SECONDS,
            memory_bytes=settings.REDACTOR_CHECK_MEMORY_BYTES,
            max_pages=settings.REDACTOR_MAX_PAGES,
            max_page_points=settings.REDACTOR_MAX_PAGE_POINTS,
        )
    except errors.RedactionError as exc:
        code, message = pdf_problem(exc)
        raise ValidationError(message, code=code) from None
    return PdfFacts(pages, scan_pages)


@dataclass(frozen=True)
class PdfFacts:
    """What :func:`pdf_check` learned: the page count and the pages that look scanned (from 1;
    :attr:`~redactor.pdf.pdf_limits.PageLoad.looks_scanned`, read from the structure)."""

    pages: int
    scan_pages: list[int]


@dataclass
class RegistryMetadata:
    """Metadata the registry of contracts asks for (Act 340/2015 Sb., § 5 odst. 5)."""

    counterparty: str = ""
    subject: str = ""
    value_amount: Decimal | None = None
    value_currency: str = "CZK"
    date_concluded: date | None = None


def contract_upload(
    *,
    agency: Agency,
    user: User | None,
    data: bytes,
    filename: str,
    title: str = "",
    metadata: RegistryMetadata | None = None,
    idempotency_key: str = "",
) -> Contract:
    """Store a new contract and queue its processing.

    Raises ``ValidationError`` (see :func:`pdf_check`) and then creates nothing. The original is
    stored under an unguessable name and never modified afterwards. With an ``idempotency_key``
    the upload is recorded under it; look a repeated key up first with :func:`idempotent_upload_get`.

    The check of the PDF and the writing of the original (to disk or a bucket) happen before any
    database transaction: only the rows are written inside one, so a slow check or a slow bucket
    never holds a lock another agency's request waits for (on SQLite, the whole database's write
    lock). When the rows cannot be written, the stored original is deleted again.
    """
    require_role(user, agency, Role.CLERK)
    facts = pdf_check(data)
    metadata = metadata or RegistryMetadata()
    name, heading = plain_text(filename).strip(), plain_text(title).strip()  # what a person typed, one line each
    contract = Contract(
        agency=agency,
        title=(heading or name.rsplit(".", 1)[0] or _("Contract"))[:300],
        counterparty=plain_text(metadata.counterparty).strip(),
        subject=plain_text(metadata.subject).strip(),
        value_amount=metadata.value_amount,
        value_currency=metadata.value_currency or "CZK",
        date_concluded=metadata.date_concluded,
        original_name=name[:255],
        original_size=len(data),
        original_sha256=hashlib.sha256(data).hexdigest(),
        scan_pages=len(facts.scan_pages),
        created_by=user if user and user.is_authenticated else None,
    )
    try:
        contract.original.save("original.pdf", ContentFile(data), save=False)
    except STORAGE_ERRORS as exc:  # the bucket or the disk refused: nothing is kept, the clerk tries again
        log.exception("the original of an upload to agency %s could not be stored", agency.pk)
        raise ValidationError(
            _("The file could not be stored just now, so nothing was saved. Try the upload again in a few minutes."),
            code="storage_unavailable",
        ) from exc
    try:
        with transaction.atomic():
            contract.full_clean()
            contract.save()
            audit(contract, user, "uploaded", filename=filename, size=len(data), sha256=contract.original_sha256)
            if idempotency_key:
                IdempotencyKey.objects.create(
                    agency=agency,
                    key=idempotency_key,
                    fingerprint=upload_fingerprint(data=data, filename=filename, title=title, metadata=metadata),
                    contract=contract,
                )
            run_start(contract, Run.Kind.PROCESSING)
    except BaseException:
        contract.original.delete(save=False)  # no row refers to it: nothing stored for a refused upload
        raise
    return contract


#: The longest ``Idempotency-Key`` kept (the header's value; IETF draft-ietf-httpapi-idempotency-key-header).
IDEMPOTENCY_KEY_MAX = 255


def contract_upload_idempotent(
    *,
    agency: Agency,
    user: User | None,
    data: bytes,
    filename: str,
    title: str = "",
    metadata: RegistryMetadata | None = None,
    key: str = "",
) -> tuple[Contract, bool]:
    """:func:`contract_upload` under an ``Idempotency-Key`` (after IETF
    draft-ietf-httpapi-idempotency-key-header): ``(contract, created)``. A new (or empty) ``key``
    uploads; a key the agency used before returns that upload's contract with ``created`` False,
    also when a concurrent request with the same key won the race on the unique key. Raises
    ``ValidationError`` (code ``invalid``) for a key over :data:`IDEMPOTENCY_KEY_MAX` characters,
    (code ``idempotency_mismatch``) for a key used for another file or other metadata, and what
    :func:`contract_upload` raises."""
    key = key.strip()
    if len(key) > IDEMPOTENCY_KEY_MAX:
        raise ValidationError(
            _("The Idempotency-Key has at most %(n)d characters.") % {"n": IDEMPOTENCY_KEY_MAX}, code="invalid"
        )
    metadata = metadata or RegistryMetadata()
    fingerprint = ""
    if key:
        fingerprint = upload_fingerprint(data=data, filename=filename, title=title, metadata=metadata)
        earlier = idempotent_upload_get(agency=agency, key=key, fingerprint=fingerprint)
        if earlier is not None:
            return earlier, False
    try:
        contract = contract_upload(
            agency=agency,
            user=user,
            data=data,
            filename=filename,
            title=title,
            metadata=metadata,
            idempotency_key=key,
        )
    except IntegrityError:
        if not key:
            raise
        earlier = idempotent_upload_get(agency=agency, key=key, fingerprint=fingerprint)
        if earlier is None:
            raise
        return earlier, False
    return contract, True


def upload_fingerprint(*, data: bytes, filename: str, title: str, metadata: RegistryMetadata) -> str:
    """SHA-256 over the file and the metadata of an upload: what an ``Idempotency-Key`` stands for."""
    h = hashlib.sha256(data)
    for part in (filename, title, *(str(v) for v in metadata.__dict__.values())):
        h.update(b"\x00" + part.encode())
    return h.hexdigest()


def idempotent_upload_get(*, agency: Agency, key: str, fingerprint: str) -> Contract | None:
    """The contract an earlier upload with ``key`` created, or None for a new key.

    Raises ``ValidationError`` (code ``idempotency_mismatch``) when the key was used for a
    different file or metadata (after IETF draft-ietf-httpapi-idempotency-key-header, § 2.7).
    """
    row = IdempotencyKey.objects.select_related("contract").filter(agency=agency, key=key).first()
    if row is None:
        return None
    if row.fingerprint != fingerprint:
        raise ValidationError(
            _("This Idempotency-Key was already used for a different upload."), code="idempotency_mismatch"
        )
    return row.contract
