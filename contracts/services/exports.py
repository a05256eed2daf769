"""Text exports of a decided contract (removed or tagged text, :mod:`redactor.publish.text_export`),
built from the redactions its PDF is burned with."""

from __future__ import annotations

import hashlib
import hmac
import logging
import tempfile
import uuid
import zipfile
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.core.files import File
from django.core.files.storage import default_storage
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from accounts.access import require_role
from accounts.models import Agency, Role
from contracts import selectors
from contracts.models import Contract, Status
from policy.preview_jobs import RESULT_TTL, OwnedJobState, owned_job_start, owned_job_state, report_progress
from redactor import errors, text_export

from .common import Download, audit, require_status
from .publishing import decided_proposals

log = logging.getLogger(__name__)

#: Statuses whose redactions are decided: approved (publishing) and published.
EXPORTABLE = (Status.APPROVED, Status.PUBLISHED, Status.REGISTERED)
FORMATS = {"txt": "text/plain; charset=utf-8", "jsonl": "application/x-ndjson; charset=utf-8"}


def agency_seed(agency_id: int) -> bytes:
    """The agency's pseudonym seed: HMAC of the server's ``SECRET_KEY``, so one person or value
    gets the same substitute in all of an agency's exports, other agencies' differ, and nobody
    without the key can recompute them. Rotating ``SECRET_KEY`` changes every substitute."""
    return hmac.new(settings.SECRET_KEY.encode("utf-8"), f"pseudonyms:{agency_id}".encode(), hashlib.sha256).digest()


def _require_choice(mode: str, fmt: str) -> text_export.ExportMode:
    """``mode`` as an :data:`~redactor.publish.text_export.ExportMode` once it and ``fmt`` are known
    choices; raises ``ValidationError`` (code ``invalid``) naming them otherwise."""
    for known in text_export.MODES:
        if mode == known and fmt in FORMATS:
            return known
    raise ValidationError(
        _("Choose the export mode (%(modes)s) and format (%(formats)s).")
        % {"modes": ", ".join(text_export.MODES), "formats": ", ".join(FORMATS)},
        code="invalid",
    )


def _export(contract: Contract, mode: text_export.ExportMode) -> text_export.TextExport:
    """The ``mode`` export of a decided ``contract``: its text layer as processing saw it, the
    redactions publishing burns in, the agency's pseudonym seed. Raises ``ValidationError`` (code
    ``export_failed``) with the clerk's sentence when it cannot be built, and
    ``InvalidPdfError`` when the stored original no longer matches its SHA-256."""
    layer = selectors.contract_text_layer(contract)
    try:
        return text_export.export_layer(
            layer, decided_proposals(contract, layer), mode, agency_seed(contract.agency_id)
        )
    except ValueError:  # a decision whose place is not in the stored text: the operator's log has it
        log.exception("text export of contract %s", contract.pk)
        raise ValidationError(
            _(
                "The text of “%(title)s” could not be exported: a decision does not fit its stored text "
                "(reference: contract %(id)d). Tell the operator; the published PDF is not affected."
            )
            % {"title": contract.title, "id": contract.pk},
            code="export_failed",
        ) from None


def _base_name(contract: Contract) -> str:
    return slugify(contract.title)[:80] or f"smlouva-{contract.pk}"


def contract_text_export(*, contract: Contract, user: User | None, mode: str, fmt: str) -> Download:
    """The ``mode`` export (``removed``, ``tagged`` or ``pseudonymised``, with :func:`agency_seed`)
    of ``contract``'s analysed text as ``fmt`` (``txt``: pages separated by form feeds;
    ``jsonl``: one line with the text and the markers' character spans), recorded in the audit
    trail. Raises ``PermissionDenied`` for a user without the clerk role, ``ValidationError``
    (code ``wrong_status``) for a contract whose redactions are not decided yet (approved or
    published), ``ValidationError`` (code ``invalid``) for an unknown mode or format, and what
    :func:`_export` raises."""
    require_role(user, contract.agency, Role.CLERK)
    chosen = _require_choice(mode, fmt)
    require_status(contract, *EXPORTABLE)
    export = _export(contract, chosen)
    base = _base_name(contract)
    text = export.to_jsonl_record(f"{base}.pdf") + "\n" if fmt == "jsonl" else export.text
    audit(contract, user, "exported_text", mode=mode, format=fmt)
    return Download(f"{base}-{mode}.{fmt}", text.encode("utf-8"), FORMATS[fmt])


# -- the agency's bulk export: an owned job (policy.preview_jobs) with a zip as its result ------


def _owner(agency: Agency) -> str:
    return f"agency:{agency.pk}"


def agency_export_start(*, agency: Agency, user: User | None, mode: str, fmt: str) -> str:
    """Queue the bulk ``mode`` export of every decided (approved or published) contract of
    ``agency`` as ``fmt``; returns the job id to poll with :func:`agency_export_state`. Raises
    ``PermissionDenied`` for a user without the agency admin role and ``ValidationError`` (code
    ``invalid``) for an unknown mode or format."""
    require_role(user, agency, Role.ADMIN)
    _require_choice(mode, fmt)
    user_id = user.pk if user is not None else None
    return owned_job_start(_owner(agency), "contracts.jobs.export_agency", agency.pk, user_id, mode, fmt)


def agency_export_state(*, agency: Agency, user: User | None, job_id: str) -> OwnedJobState | None:
    """The bulk export ``job_id`` of ``agency`` (running, finished with its zip, or failed with
    its ``error``, a sentence), or None for an unknown or expired id, another agency's, or a job
    that is no export. Raises ``PermissionDenied`` for a user without the agency admin role."""
    require_role(user, agency, Role.ADMIN)
    state = owned_job_state(_owner(agency), job_id)
    if state is None or (state.result is not None and state.result.get("kind") != "text_export"):
        return None
    if state.state == "failed":  # without a code its process ended before it could say why
        state.error = _why(state.error or "ended")
    if state.result is not None:
        for failure in state.result.get("failures", []):
            failure["reason"] = _why(failure.get("code", ""))
    return state


def agency_export_file(*, agency: Agency, user: User | None, job_id: str) -> Download:
    """The zip of a finished bulk export. Raises ``PermissionDenied`` (role), ``ObjectDoesNotExist``
    (unknown id) and ``ValidationError`` (code ``wrong_status``) while it is not finished."""
    state = agency_export_state(agency=agency, user=user, job_id=job_id)
    if state is None:
        raise ObjectDoesNotExist("no such export")
    if state.state != "finished" or state.result is None:
        raise ValidationError(_("The export is not finished yet."), code="wrong_status")
    name, filename = state.result["file"], state.result["filename"]
    if not default_storage.exists(name):
        raise ValidationError(_("The export is no longer kept. Start it again."), code="expired")
    with default_storage.open(name, "rb") as fh:
        data = fh.read()
    return Download(filename, data, "application/zip")


#: Folder of the bulk exports' zips in the file storage (one subfolder per agency).
EXPORTS_DIR = "exports"


def exports_prune(*, older_than: timedelta | None = None) -> int:
    """Delete the bulk exports' zips older than ``older_than`` (by default the job's result TTL,
    after which nobody can ask for them any more) from the file storage; returns how many. Run
    by the cron scheduler (``contracts.cron``)."""
    limit = timezone.now() - (older_than if older_than is not None else timedelta(seconds=RESULT_TTL))
    removed = 0
    try:
        folders = default_storage.listdir(EXPORTS_DIR)[0]
    except FileNotFoundError:  # local disk before the first export (a bucket lists nothing)
        return 0
    for folder in folders:
        prefix = f"{EXPORTS_DIR}/{folder}"
        for name in default_storage.listdir(prefix)[1]:
            path = f"{prefix}/{name}"
            if default_storage.get_modified_time(path) < limit:
                default_storage.delete(path)
                removed += 1
    return removed


def agency_export_build(*, agency_id: int, user_id: int | None, mode: str, fmt: str) -> dict:
    """Job body of the bulk export: every decided contract of the agency in ``mode``, in a zip
    (``txt``: one file per contract; ``jsonl``: one ``export-<mode>.jsonl`` with a line per
    contract), each export recorded in the contract's audit trail (``bulk: true``). A contract
    whose export cannot be built is left out: its id in ``failed``, its title and the reason in
    the clerk's language in ``failures``. The zip goes to the file storage (``exports/<agency
    id>/<random>.zip``; Redis, which may evict, keeps only its name); :func:`exports_prune` removes
    it after the job's result expires. Returns ``{"kind": "text_export", "file": storage name,
    "size": bytes, "filename", "contracts": exported, "failed": [contract ids], "failures":
    [{"contract": id, "title", "code"}]}`` (:func:`agency_export_state` words each code);
    progress goes to the job's meta."""
    chosen = _require_choice(mode, fmt)
    agency = Agency.objects.get(pk=agency_id)
    user = get_user_model().objects.filter(pk=user_id).first() if user_id else None
    contracts = list(Contract.objects.filter(agency=agency, status__in=EXPORTABLE).order_by("pk"))
    buffer = tempfile.SpooledTemporaryFile(max_size=16 * 1024 * 1024)
    lines: list[str] = []
    failures: list[dict] = []
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for done, contract in enumerate(contracts, start=1):
            try:
                export = _export(contract, chosen)
            except (ValidationError, errors.RedactionError) as exc:
                if isinstance(exc, ValidationError):  # code export_failed (:func:`_export`)
                    code = exc.code or "export_failed"
                else:
                    code = "damaged" if isinstance(exc, errors.InvalidPdfError) else "unreadable"
                failures.append({"contract": contract.pk, "title": contract.title, "code": code})
                report_progress(done, len(contracts))
                continue
            name = f"{_base_name(contract)}-{contract.pk}"
            if fmt == "jsonl":
                lines.append(export.to_jsonl_record(f"{name}.pdf"))
            else:
                archive.writestr(f"{name}-{mode}.txt", export.text)
            audit(contract, user, "exported_text", mode=mode, format=fmt, bulk=True)
            report_progress(done, len(contracts))
        if fmt == "jsonl":
            archive.writestr(f"export-{mode}.jsonl", "".join(line + "\n" for line in lines))
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
    size = buffer.tell()
    buffer.seek(0)
    with buffer:
        name = default_storage.save(f"{EXPORTS_DIR}/{agency.pk}/{uuid.uuid4().hex}.zip", File(buffer))
    return {
        "kind": "text_export",
        "file": name,
        "size": size,
        "filename": f"{slugify(agency.name)[:60] or 'urad'}-texty-{mode}-{stamp}.zip",
        "contracts": len(contracts) - len(failures),
        "failed": [f["contract"] for f in failures],
        "failures": failures,
    }


def _why(code: str) -> str:
    """Why a contract was left out of a bulk export, or why the export failed (``code``), in the
    reader's language: the job keeps codes, the sentence is chosen when someone reads it."""
    reasons = {
        "damaged": _("Its stored original no longer matches the file that was uploaded (damaged storage)."),
        "export_failed": _("A decision does not fit its stored text; the details are in the operator's log."),
        "timeout": _("The export took too long and was stopped. Start it again at a quieter time."),
        "internal": _(
            "The export stopped because of an internal error; the details are in the operator's log. Start it "
            "again; if it fails again, tell the operator."
        ),
        "ended": _(
            "The export stopped unexpectedly (its worker process ended, e.g. out of memory). Start it again; if "
            "it fails again, tell the operator."
        ),
    }
    return reasons.get(code) or _("Its stored files cannot be read.")
