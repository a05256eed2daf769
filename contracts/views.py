"""Contract pages: list and upload, status with progress, review, approval, download, audit trail.

The review page talks to small JSON endpoints here (session authentication and CSRF like any
form); the public REST API for document-management systems is separate.
"""

from __future__ import annotations

import csv
import io
import json
import uuid

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import FileResponse, Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.access import member_required
from accounts.models import Role
from contracts.services import publishing, reviewing, runs, uploads, webhooks
from redactor.core.review import COVERAGE_ALERT, COVERAGE_WARN, page_words, render_page

from . import selectors
from .forms import ApproveForm, UploadForm, WebhookForm
from .models import Status, box_from_list


def _contract(membership, contract_id: int):
    return selectors.contract_get(agency=membership.agency, contract_id=contract_id)


@member_required(Role.CLERK)
def contract_list(request, membership):
    """The agency's contracts with their status."""
    contracts = selectors.contracts_for_agency(agency=membership.agency)
    return render(request, "contracts/list.html", {"contracts": contracts, "membership": membership})


@member_required(Role.CLERK)
def contract_upload(request, membership):
    """Upload a PDF with registry metadata; a refused file creates nothing and says why."""
    form = UploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
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
            form.add_error("file", exc)
        else:
            messages.success(request, _("The contract was uploaded and is being processed."))
            return redirect("contracts:detail", agency_id=membership.agency_id, contract_id=contract.pk)
    return render(
        request, "contracts/upload.html", {"form": form, "membership": membership}, status=400 if form.errors else 200
    )


def _coverage_rows(contract):
    rows = []
    for number, share in sorted(((int(k), v) for k, v in contract.page_coverage.items())):
        level = "alert" if share >= COVERAGE_ALERT else "warn" if share >= COVERAGE_WARN else "ok"
        rows.append({"page": number, "share": share * 100, "level": level})
    return rows


@member_required(Role.CLERK)
def contract_detail(request, membership, contract_id: int):
    """Status, progress, errors with retry, metadata and, once published, download and coverage."""
    contract = _contract(membership, contract_id)
    run = selectors.run_latest(contract=contract)
    proposals = list(selectors.proposals_for_contract(contract=contract))
    coverage = _coverage_rows(contract)
    return render(
        request,
        "contracts/detail.html",
        {
            "contract": contract,
            "run": run,
            "membership": membership,
            "can_review": membership.allows(Role.REVIEWER),
            "deletable": publishing.DELETABLE,
            "redacted_count": sum(1 for p in proposals if p.will_redact),
            "proposal_count": len(proposals),
            "coverage": coverage,
            "coverage_warn": [r for r in coverage if r["level"] != "ok"],
            "warn_percent": COVERAGE_WARN * 100,
            "alert_percent": COVERAGE_ALERT * 100,
        },
    )


@require_GET
@member_required(Role.CLERK)
def contract_status(request, membership, contract_id: int):
    """JSON for the progress bar: status, phase, pages done of total, error."""
    contract = _contract(membership, contract_id)
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
            },
        }
    )


@require_POST
@member_required(Role.REVIEWER)
def contract_delete(request, membership, contract_id: int):
    """Delete the contract's files and proposals (the audit trail stays); reviewers, as in the API."""
    contract = _contract(membership, contract_id)
    try:
        publishing.contract_delete(contract=contract, user=request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("contracts:detail", agency_id=membership.agency_id, contract_id=contract.pk)
    messages.success(request, _("The data of “%(title)s” was deleted.") % {"title": contract.title})
    return redirect("contracts:list", agency_id=membership.agency_id)


@require_POST
@member_required(Role.CLERK)
def contract_retry(request, membership, contract_id: int):
    """Run the failed stage again (the service decides who may: publishing again needs a reviewer)."""
    contract = _contract(membership, contract_id)
    try:
        runs.contract_retry(contract=contract, user=request.user)
        messages.success(request, _("The job was started again."))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    return redirect("contracts:detail", agency_id=membership.agency_id, contract_id=contract.pk)


@require_GET
@member_required(Role.CLERK)
def download_redacted(request, membership, contract_id: int):
    """The published, redacted PDF as an attachment named after the title."""
    contract = _contract(membership, contract_id)
    try:
        data = publishing.contract_download(contract=contract, user=request.user, which="redacted")
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("contracts:detail", agency_id=membership.agency_id, contract_id=contract.pk)
    return FileResponse(
        io.BytesIO(data),
        as_attachment=True,
        filename=contract.download_name("-anonymizovano"),
        content_type="application/pdf",
    )


@require_GET
@member_required(Role.CLERK)
def download_original(request, membership, contract_id: int):
    """The original upload (members only; never published)."""
    contract = _contract(membership, contract_id)
    return FileResponse(
        io.BytesIO(publishing.contract_download(contract=contract, user=request.user, which="original")),
        as_attachment=True,
        filename=contract.download_name("-original"),
        content_type="application/pdf",
    )


@require_GET
@member_required(Role.CLERK)
def page_image(request, membership, contract_id: int, page: int):
    """PNG of one page; ``?preview=1`` shows it with the current redactions burned in."""
    contract = _contract(membership, contract_id)
    boxes = None
    if request.GET.get("preview"):
        boxes = [b for p in selectors.proposals_for_contract(contract=contract) if p.will_redact for b in p.box_list()]
    try:
        png = render_page(selectors.contract_original(contract), page, zoom=1.5, redact=boxes)
    except IndexError:
        raise Http404("no such page") from None
    response = HttpResponse(png, content_type="image/png")
    response["Cache-Control"] = "private, no-store" if boxes is not None else "private, max-age=3600"
    return response


@require_GET
@member_required(Role.CLERK)
def page_text(request, membership, contract_id: int, page: int):
    """Words of one page with boxes in points (the review page's selectable text layer)."""
    contract = _contract(membership, contract_id)
    try:
        words = page_words(selectors.contract_original(contract), page)
    except IndexError:
        raise Http404("no such page") from None
    return JsonResponse({"page": page, "words": [[w[0], *(round(v, 2) for v in w[1:])] for w in words]})


def _proposal_json(p, names: dict[int, str]) -> dict:
    return {
        "id": p.pk,
        "page": p.page,
        "boxes": p.boxes,
        "text": p.text,
        "category": p.category,
        "category_name": names.get(p.category, p.category_name),
        "category_type": p.category_type,
        "suggestion": p.suggestion,
        "decision": p.decision,
        "redact": p.will_redact,
        "reason": p.reason_display(),
        "score": p.score,
        "source": p.source,
        "cluster": p.cluster,
        "party": p.party_display(),
        "rule": p.rule_id,
    }


def _category_names(contract) -> dict[int, str]:
    """Category names in the interface's language, from the map version the proposals came from."""
    if contract.map_version is None:
        return {}
    key = "name_cs" if (get_language() or "").startswith("cs") else "name_en"
    return {int(row["id"]): row.get(key) or row["name_en"] for row in contract.map_version.data["categories"]}


def _review_state(contract) -> dict:
    proposals = list(selectors.proposals_for_contract(contract=contract))
    names = _category_names(contract)
    return {"status": contract.status, "proposals": [_proposal_json(p, names) for p in proposals]}


@member_required(Role.REVIEWER)
def review(request, membership, contract_id: int):
    """The review page: page images with proposal boxes, the grouped side list, approval."""
    contract = _contract(membership, contract_id)
    if contract.status not in (Status.NEEDS_REVIEW, Status.APPROVED, Status.PUBLISHED):
        return redirect("contracts:detail", agency_id=membership.agency_id, contract_id=contract.pk)
    base = reverse("contracts:detail", kwargs={"agency_id": membership.agency_id, "contract_id": contract.pk})
    return render(
        request,
        "contracts/review.html",
        {
            "contract": contract,
            "membership": membership,
            "approve_form": ApproveForm(),
            "editable": contract.status == Status.NEEDS_REVIEW,
            "config": {
                "base": base,
                "editable": contract.status == Status.NEEDS_REVIEW,
                "pages": contract.pages,
                "state": _review_state(contract),
            },
        },
    )


def _refused(exc: Exception) -> JsonResponse:
    """A 400 answer for the review page's scripts, with the message the reviewer sees."""
    return JsonResponse({"message": " ".join(getattr(exc, "messages", [str(exc)]))}, status=400)


def _json_body(request) -> dict:
    try:
        body = json.loads(request.body or b"{}")
    except ValueError:
        raise ValidationError(_("The request is not valid JSON.")) from None
    if not isinstance(body, dict):
        raise ValidationError(_("The request is not valid JSON."))
    return body


@require_GET
@member_required(Role.REVIEWER)
def review_state(request, membership, contract_id: int):
    """All proposals of the contract with their decisions (JSON)."""
    return JsonResponse(_review_state(_contract(membership, contract_id)))


@require_POST
@member_required(Role.REVIEWER)
def review_decide(request, membership, contract_id: int):
    """``{"ids": [...], "decision": "accepted"|"rejected"|"pending", "same_cluster": bool, "learn": bool}``
    → new state plus what the action did: ``changed``, ``affected`` (every occurrence it
    covered), ``forms`` (their texts), ``batch`` (for undo) and ``rules`` (rules it voted on)."""
    contract = _contract(membership, contract_id)
    try:
        body = _json_body(request)
        ids = [int(i) for i in body.get("ids", [])]
        outcome = reviewing.proposals_decide(
            contract=contract,
            user=request.user,
            proposal_ids=ids,
            decision=str(body.get("decision")),
            same_cluster=bool(body.get("same_cluster")),
            learn=bool(body.get("learn", True)),
        )
    except (ValidationError, TypeError, ValueError) as exc:
        return _refused(exc)
    return JsonResponse(
        {
            "changed": outcome.changed,
            "affected": outcome.affected,
            "forms": outcome.forms,
            "batch": str(outcome.batch),
            "rules": outcome.rules,
            "rule_info": _rule_info(membership, outcome.rules),
            **_review_state(contract),
        }
    )


def _rule_info(membership, rule_ids: list[int]) -> list[dict]:
    """What the reviewer is told about the rules an action voted on."""
    from redactor.selectors import rules_for_agency

    labels = {"keep": _("keep"), "redact": _("redact"), "review": _("needs review")}
    return [
        {"id": r.pk, "pattern": r.pattern, "action": labels[r.action], "decisions": r.decisions}
        for r in rules_for_agency(agency=membership.agency).filter(pk__in=rule_ids)
    ]


@require_POST
@member_required(Role.REVIEWER)
def review_undo(request, membership, contract_id: int):
    """``{"batch": "<uuid>"}`` → undo that reviewer action (decisions, added boxes, rule votes); new state."""
    contract = _contract(membership, contract_id)
    try:
        body = _json_body(request)
        restored = reviewing.decision_undo(
            contract=contract, user=request.user, batch=uuid.UUID(str(body.get("batch")))
        )
    except (ValidationError, TypeError, ValueError) as exc:
        return _refused(exc)
    return JsonResponse({"restored": restored, **_review_state(contract)})


@require_POST
@member_required(Role.REVIEWER)
def review_manual(request, membership, contract_id: int):
    """``{"boxes": [[page, x0, y0, x1, y1], ...], "text": "...", "selection": bool}`` (points) → new state."""
    contract = _contract(membership, contract_id)
    try:
        body = _json_body(request)
        boxes = [box_from_list(b) for b in body.get("boxes", [])]
        outcome = reviewing.proposal_add_manual(
            contract=contract,
            user=request.user,
            boxes=boxes,
            text=str(body.get("text", "")),
            from_selection=bool(body.get("selection")),
            learn=bool(body.get("learn", True)),
        )
    except (ValidationError, TypeError, ValueError, IndexError) as exc:
        return _refused(exc)
    return JsonResponse(
        {
            "changed": [outcome.proposal.pk, *outcome.added],
            "affected": [outcome.proposal.pk, *outcome.added],
            "batch": str(outcome.batch),
            "rules": outcome.rules,
            "rule_info": _rule_info(membership, outcome.rules),
            **_review_state(contract),
        }
    )


@require_POST
@member_required(Role.REVIEWER)
def contract_approve(request, membership, contract_id: int):
    """Approve the decisions and start publishing."""
    contract = _contract(membership, contract_id)
    form = ApproveForm(request.POST)
    form.is_valid()
    try:
        publishing.contract_approve(
            contract=contract, user=request.user, ocr_pages_checked=form.cleaned_data.get("ocr_pages_checked", False)
        )
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("contracts:review", agency_id=membership.agency_id, contract_id=contract.pk)
    messages.success(request, _("Approved. The redacted PDF is being produced and verified."))
    return redirect("contracts:detail", agency_id=membership.agency_id, contract_id=contract.pk)


@require_GET
@member_required(Role.CLERK)
def audit_trail(request, membership, contract_id: int):
    """The contract's audit trail; ``?format=csv`` exports it."""
    contract = _contract(membership, contract_id)
    events = selectors.audit_events(contract=contract)
    if request.GET.get("format") == "csv":
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="audit-{contract.pk}.csv"'
        writer = csv.writer(response)
        writer.writerow(["time", "user", "action", "detail"])
        for e in events:
            writer.writerow(
                [
                    e.created_at.isoformat(),
                    e.user.username if e.user else "",
                    e.action,
                    json.dumps(e.detail, ensure_ascii=False),
                ]
            )
        return response
    return render(request, "contracts/audit.html", {"contract": contract, "events": events, "membership": membership})


# -- webhooks (agency admins) ---------------------------------------------------------------------
@member_required(Role.ADMIN)
def webhook_list(request, membership):
    """The agency's webhooks; register a new one."""
    agency = membership.agency
    form = WebhookForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            hook = webhooks.webhook_create(
                agency=agency, url=form.cleaned_data["url"], events=form.cleaned_data["events"], created_by=request.user
            )
        except ValidationError as exc:
            _form_errors(form, exc)
        else:
            messages.success(request, _("The webhook was registered. Use the secret below to check signatures."))
            return redirect("webhooks:detail", agency_id=agency.pk, webhook_id=hook.pk)
    return render(
        request,
        "contracts/webhooks.html",
        {"agency": agency, "webhooks": selectors.webhooks_for_agency(agency=agency), "form": form},
    )


def _form_errors(form, exc: ValidationError) -> None:
    if hasattr(exc, "error_dict"):
        for field, errors in exc.message_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, exc.messages)


@member_required(Role.ADMIN)
def webhook_detail(request, membership, webhook_id: int):
    """A webhook's settings, signing secret and delivery log (last 100)."""
    agency = membership.agency
    hook = selectors.webhook_get(agency=agency, webhook_id=webhook_id)
    form = WebhookForm(request.POST or None, initial={"url": hook.url, "events": hook.events, "active": hook.active})
    if request.method == "POST" and form.is_valid():
        try:
            webhooks.webhook_update(
                webhook=hook,
                url=form.cleaned_data["url"],
                events=form.cleaned_data["events"],
                active=form.cleaned_data["active"],
            )
        except ValidationError as exc:
            _form_errors(form, exc)
        else:
            messages.success(request, _("The webhook was saved."))
            return redirect("webhooks:detail", agency_id=agency.pk, webhook_id=hook.pk)
    deliveries = selectors.webhook_deliveries(webhook=hook)[:100]
    return render(
        request,
        "contracts/webhook_detail.html",
        {"agency": agency, "hook": hook, "form": form, "deliveries": deliveries},
    )


@require_POST
@member_required(Role.ADMIN)
def webhook_remove(request, membership, webhook_id: int):
    """Remove a webhook and its delivery log."""
    hook = selectors.webhook_get(agency=membership.agency, webhook_id=webhook_id)
    webhooks.webhook_delete(webhook=hook)
    messages.success(request, _("The webhook was removed."))
    return redirect("webhooks:list", agency_id=membership.agency.pk)


@require_POST
@member_required(Role.ADMIN)
def webhook_redeliver(request, membership, delivery_id: int):
    """Send a delivery again (as a new delivery with the same content)."""
    delivery = selectors.webhook_delivery_get(agency=membership.agency, delivery_id=delivery_id)
    webhooks.webhook_redeliver(delivery=delivery)
    messages.success(request, _("The event will be sent again."))
    return redirect("webhooks:detail", agency_id=membership.agency.pk, webhook_id=delivery.webhook_id)
