"""Contract pages: list and upload, status with progress, download, page images, audit trail,
and the agency map console's preview on the agency's contracts.

The review page and its JSON endpoints are in :mod:`contracts.views.review`, the webhook pages
in :mod:`contracts.views.webhooks`; the public REST API for document-management systems is
:mod:`contracts.api`.
"""

from __future__ import annotations

import collections
import json

from django.contrib import messages
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.models import Role
from accounts.selectors import actor_name
from accounts.web import form_action, form_error, member_required, report_error
from contracts.http import file_response
from contracts.services import exports, publishing, runs, uploads, watchdog
from policy.preview_jobs import owned_job_start
from policy.spreadsheet import SafeWriter
from policy.views import maps as map_console
from redactor import errors as engine_errors
from redactor import review

from .. import selectors
from ..forms import UploadForm
from ..vocabulary import audit_action_label, audit_detail_items


def contract_of(membership, contract_id: int):
    """The member's agency's contract ``contract_id``; another agency's id is a 404."""
    return selectors.contract_get(agency=membership.agency, contract_id=contract_id)


@member_required(Role.CLERK)
def contract_list(request, membership):
    """The agency's contracts with their status."""
    contracts = selectors.contracts_for_agency(agency=membership.agency)
    summary = watchdog.watchdog_agency_summary(membership.agency)
    return render(
        request, "contracts/list.html", {"contracts": contracts, "membership": membership, "watchdog": summary}
    )


@member_required(Role.CLERK)
def contract_upload(request, membership):
    """Upload a PDF with registry metadata; a refused file creates nothing and says why."""
    form = UploadForm(request.POST or None, request.FILES or None)
    if getattr(request, "upload_too_large", False):  # stopped on its way in (contracts.upload_handlers)
        form.is_valid()
        form.errors["file"] = form.error_class(uploads.upload_too_large_error().messages)
    elif request.method == "POST" and form.is_valid():
        try:
            contract = uploads.contract_upload(
                agency=membership.agency,
                user=request.user,
                data=form.data_bytes,
                filename=form.cleaned_data["file"].name,
                title=form.cleaned_data["title"],
                metadata=form.metadata(),
            )
        except ValidationError as exc:
            form_error(form, exc, field="file")
        else:
            messages.success(request, _("The contract was uploaded and is being processed."))
            return redirect("contracts:detail", agency_id=membership.agency_id, contract_id=contract.pk)
    return render(
        request, "contracts/upload.html", {"form": form, "membership": membership}, status=400 if form.errors else 200
    )


def _coverage_rows(contract):
    rows = []
    scored = contract.watchdog.get("pages", {})
    for number, share in sorted(((int(k), v) for k, v in contract.page_coverage.items())):
        level = "alert" if share >= review.COVERAGE_ALERT else "warn" if share >= review.COVERAGE_WARN else "ok"
        watchdog = scored.get(str(number))
        rows.append(
            {"page": number, "share": share * 100, "level": level,
             "watchdog": None if watchdog is None else watchdog * 100}
        )  # fmt: skip
    return rows


@member_required(Role.CLERK)
def contract_detail(request, membership, contract_id: int):
    """Status, progress, errors with retry, metadata and, once published, download and coverage."""
    contract = contract_of(membership, contract_id)
    run = selectors.run_latest(contract=contract)
    proposals = list(selectors.proposals_for_contract(contract=contract))
    coverage = _coverage_rows(contract)
    return render(
        request,
        "contracts/detail.html",
        {
            "contract": contract,
            "run": run,
            "stuck": runs.run_stuck(run) if run is not None else None,
            "membership": membership,
            "can_review": membership.allows(Role.REVIEWER),
            "deletable": publishing.DELETABLE,
            "redacted_count": sum(1 for p in proposals if p.will_redact),
            # boxes on another ground than personal data, by ground (a trade secret the reader must be told of)
            "other_grounds": sorted(
                collections.Counter(
                    p.get_legal_ground_display()
                    for p in proposals
                    if p.will_redact and p.legal_ground != "personal_data"
                ).items()
            ),
            # who designated the trade secrets, and when (§ 504 Civil Code: the counterparty's claim)
            "trade_secret_claims": sorted(
                {
                    (p.trade_secret_claimant, p.trade_secret_claimed_on)
                    for p in proposals
                    if p.will_redact and p.legal_ground == "trade_secret" and p.trade_secret_claimant
                }
            ),
            "proposal_count": len(proposals),
            "coverage": coverage,
            "coverage_warn": [r for r in coverage if r["level"] != "ok"],
            "warn_percent": review.COVERAGE_WARN * 100,
            "alert_percent": review.COVERAGE_ALERT * 100,
        },
    )


@require_GET
@member_required(Role.CLERK)
def contract_status(request, membership, contract_id: int):
    """JSON for the progress bar: status, the job's phase, its page counter, percent of the whole
    job, seconds left and the sentence saying so, error, and why a queued job is stuck (or null)."""
    contract = contract_of(membership, contract_id)
    run = selectors.run_latest(contract=contract)
    return JsonResponse(
        {
            "status": contract.status,
            "status_display": contract.get_status_display(),
            "error": contract.error_message,
            "run": None
            if run is None
            else {
                "kind": run.kind,
                "state": run.state,
                "phase": run.phase,
                "done": run.progress_done,
                "total": run.progress_total,
                "percent": run.percent,
                "seconds_left": run.seconds_left,
                "text": run.progress_text(),
                "stuck": runs.run_stuck(run),
            },
        }
    )


@require_POST
@member_required(Role.REVIEWER)
def contract_delete(request, membership, contract_id: int):
    """Delete the contract's files and proposals (the audit trail stays); reviewers, as in the API."""
    contract = contract_of(membership, contract_id)
    deleted = _("The data of “%(title)s” was deleted.") % {"title": contract.title}
    if form_action(request, lambda: publishing.contract_delete(contract=contract, user=request.user), deleted):
        return redirect("contracts:list", agency_id=membership.agency_id)
    return redirect("contracts:detail", agency_id=membership.agency_id, contract_id=contract.pk)


@require_POST
@member_required(Role.CLERK)
def contract_retry(request, membership, contract_id: int):
    """Run the failed stage again (the service decides who may: publishing again needs a reviewer)."""
    contract = contract_of(membership, contract_id)
    form_action(
        request, lambda: runs.contract_retry(contract=contract, user=request.user), _("The job was started again.")
    )
    return redirect("contracts:detail", agency_id=membership.agency_id, contract_id=contract.pk)


def _download(request, membership, contract_id: int, which: publishing.DownloadKind):
    contract = contract_of(membership, contract_id)
    try:
        file = publishing.contract_download(contract=contract, user=request.user, which=which)
    except (ValidationError, engine_errors.RedactionError) as exc:  # not published yet; a damaged original
        report_error(request, exc)
        return redirect("contracts:detail", agency_id=membership.agency_id, contract_id=contract.pk)
    return file_response(file)  # the original comes marked private: kept out of every cache


@require_GET
@member_required(Role.CLERK)
def download_redacted(request, membership, contract_id: int):
    """The published, redacted PDF as an attachment named after the title."""
    return _download(request, membership, contract_id, publishing.DownloadKind.REDACTED)


@require_GET
@member_required(Role.CLERK)
def download_text(request, membership, contract_id: int):
    """The published text beside the PDF (UTF-8 plain text without the redacted data)."""
    return _download(request, membership, contract_id, publishing.DownloadKind.TEXT)


@require_GET
@member_required(Role.CLERK)
def download_original(request, membership, contract_id: int):
    """The original upload (members only; never published)."""
    return _download(request, membership, contract_id, publishing.DownloadKind.ORIGINAL)


@require_GET
@member_required(Role.CLERK)
def text_export(request, membership, contract_id: int):
    """The contract's text without the redacted data (``?mode=removed|tagged&format=txt|jsonl``),
    as an attachment; refused with a message while its redactions are not decided."""
    contract = contract_of(membership, contract_id)
    try:
        file = exports.contract_text_export(
            contract=contract,
            user=request.user,
            mode=request.GET.get("mode", "tagged"),
            fmt=request.GET.get("format", "txt"),
        )
    except (ValidationError, engine_errors.RedactionError) as exc:
        report_error(request, exc)
        return redirect("contracts:detail", agency_id=membership.agency_id, contract_id=contract.pk)
    return file_response(file)


@member_required(Role.ADMIN)
def agency_exports(request, membership):
    """The agency's bulk text export (agency admins): a form that starts the job, then
    (``?job=<id>``) its progress, refreshing itself, and the zip when it is ready."""
    agency = membership.agency
    if request.method == "POST":
        try:
            job_id = exports.agency_export_start(
                agency=agency, user=request.user, mode=request.POST.get("mode", ""), fmt=request.POST.get("format", "")
            )
        except ValidationError as exc:
            report_error(request, exc)
            return redirect("contracts:exports", agency_id=agency.pk)
        return redirect(f"{request.path}?job={job_id}")
    job_id = request.GET.get("job", "")
    state = exports.agency_export_state(agency=agency, user=request.user, job_id=job_id) if job_id else None
    if job_id and state is None:
        raise Http404
    decided = selectors.contracts_for_agency(agency=agency).filter(status__in=exports.EXPORTABLE).count()
    context = {"membership": membership, "state": state, "job_id": job_id, "decided": decided}
    return render(request, "contracts/exports.html", context)


@require_GET
@member_required(Role.ADMIN)
def agency_export_download(request, membership, job_id: str):
    """The zip of a finished bulk export."""
    try:
        file = exports.agency_export_file(agency=membership.agency, user=request.user, job_id=job_id)
    except ObjectDoesNotExist:
        raise Http404 from None
    except ValidationError as exc:
        report_error(request, exc)
        return redirect("contracts:exports", agency_id=membership.agency_id)
    return file_response(file)


@require_GET
@member_required(Role.CLERK)
def page_image(request, membership, contract_id: int, page: int):
    """PNG of one page; ``?preview=1`` shows it with the current redactions burned in. A page
    MuPDF cannot render is answered 422 with a sentence; the browser keeps no copy (no-store:
    the unredacted page is personal data), the server caches the plain render."""
    contract = contract_of(membership, contract_id)
    try:
        if request.GET.get("preview"):
            boxes = [
                b for p in selectors.proposals_for_contract(contract=contract) if p.will_redact for b in p.box_list()
            ]
            png = selectors.contract_page_image(contract, page, boxes=boxes)
        else:
            png = selectors.contract_page_image(contract, page)
    except IndexError:
        raise Http404("no such page") from None
    except engine_errors.RedactionError:
        return HttpResponse(
            _("This page cannot be shown as an image. Open the original PDF to check it."),
            status=422,
            content_type="text/plain; charset=utf-8",
        )
    response = HttpResponse(png, content_type="image/png")
    response["Cache-Control"] = "private, no-store"
    return response


@require_GET
@member_required(Role.CLERK)
def page_text(request, membership, contract_id: int, page: int):
    """Words of one page with boxes in points (the review page's selectable text layer)."""
    contract = contract_of(membership, contract_id)
    try:
        words = selectors.contract_page_words(contract, page)
    except IndexError:
        raise Http404("no such page") from None
    except engine_errors.RedactionError:
        return JsonResponse(
            {"page": page, "words": [], "error": _("The words of this page cannot be read.")}, status=422
        )
    response = JsonResponse({"page": page, "words": [[w[0], *(round(v, 2) for v in w[1:])] for w in words]})
    response["Cache-Control"] = "private, no-store"  # the page's words are the unredacted text
    return response


@require_GET
@member_required(Role.CLERK)
def audit_trail(request, membership, contract_id: int):
    """The contract's audit trail; ``?format=csv`` exports it."""
    contract = contract_of(membership, contract_id)
    events = selectors.audit_events(contract=contract)
    if request.GET.get("format") == "csv":
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="audit-{contract.pk}.csv"'
        writer = SafeWriter(response)
        writer.writerow(["time", "user", "action", "detail"])
        for e in events:
            writer.writerow(
                [
                    e.created_at.isoformat(),
                    actor_name(e.user) or "",
                    e.action,
                    json.dumps(e.detail, ensure_ascii=False),
                ]
            )
        return response
    rows = [(e, actor_name(e.user), audit_action_label(e.action), audit_detail_items(e.detail)) for e in events]
    return render(request, "contracts/audit.html", {"contract": contract, "rows": rows, "membership": membership})


@member_required(Role.CLERK)
def map_preview(request, membership):
    """The agency map console's preview (``/a/<agency_id>/map/preview/``) on one of the agency's
    contracts (``source=c<id>``): this app offers the contracts and queues the job
    (:func:`contracts.jobs.preview_contract`) that reads the original, checked against its
    SHA-256; :func:`policy.views.maps.preview_page` shows it, so the map console never reads
    contracts. Another agency's contract id is a 404."""
    agency = membership.agency
    owner = map_console.Owner(agency, membership.allows(Role.ADMIN))
    sources = [(f"c{c.pk}", c.title) for c in selectors.contracts_for_agency(agency=agency).exclude(original="")[:200]]

    def start(source: str, current: dict, draft: dict, once: str) -> str | None:
        if not (source.startswith("c") and source[1:].isdigit()):
            return None
        contract = contract_of(membership, int(source[1:]))
        if not contract.original:
            return None
        args = (agency.pk, contract.pk, current, draft)
        return owned_job_start(
            f"agency:{agency.pk}", "contracts.jobs.preview_contract", *args, once=once, source=source
        )

    return map_console.preview_page(request, owner, sources, start)
