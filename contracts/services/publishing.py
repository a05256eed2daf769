"""Approval, the publishing job (burn-in, verification, publication), downloads and deletion."""

from __future__ import annotations

import hashlib
from enum import StrEnum

from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.access import require_role
from accounts.models import Role
from accounts.selectors import actor_name, person_behind
from contracts import selectors
from contracts.models import (
    AuditEvent,
    Contract,
    IdempotencyKey,
    LegalGround,
    Proposal,
    Run,
    Source,
    Status,
    WebhookEvent,
)
from policy.runtime import get_engine
from redactor import Action, CategoryMap, ProposedRedaction, Reason, Span, errors, normalize, review, review_items

from .common import Download, audit, require_published, require_status
from .files import delete_after_commit
from .processing import proposal_row
from .runs import run_progress, run_start
from .watchdog import watchdog_published
from .webhooks import webhooks_notify


def decided_proposals(contract: Contract, layer) -> list[ProposedRedaction]:
    """The proposals to burn in, as engine value objects; manual boxes get the spans they cover.
    ``layer`` is :func:`~contracts.selectors.contract_text_layer`'s. What publishing
    burns in and what the text exports remove are this one list. When the agency prints legal
    grounds (``Agency.print_legal_grounds``), each carries its ground's code as its label."""
    printed = contract.agency.print_legal_grounds
    out = []
    for p in selectors.proposals_for_contract(contract=contract):
        if p.will_redact:
            out += _engine_values(p, layer, Action.REDACT, LegalGround(p.legal_ground).code if printed else "")
    return out


def kept_proposals(contract: Contract, layer) -> list[ProposedRedaction]:
    """The proposals that are not burned in (kept by the engine's suggestion or by a reviewer), as
    engine value objects: what the reader's check of the published pages
    (:func:`redactor.publish.reader_check.reader_check`) takes as decided."""
    return [
        value
        for p in selectors.proposals_for_contract(contract=contract)
        if not p.will_redact
        for value in _engine_values(p, layer, Action.KEEP, "")
    ]


def _engine_values(p: Proposal, layer, action: Action, label: str) -> list[ProposedRedaction]:
    """Proposal ``p`` as engine value objects with ``action``: one per span it covers (a manual
    box, and a proposal whose span is empty, such as a signature or a value the reader's check
    read, get the spans of the text under their boxes; the boxes go with the first; a box over a
    picture covers no text and keeps an empty span)."""
    boxes = p.box_list()
    if p.span_start is not None and p.span_end is not None and p.span_end > p.span_start:
        spans = [Span(p.span_start, p.span_end)]
    else:
        spans = review.spans_in_boxes(layer, boxes)
    return [
        ProposedRedaction(
            id=p.pk,
            page=p.page,
            boxes=boxes if i == 0 else [],
            text=layer.text[span.start : span.end].replace("\n", " ") if span else p.text,
            category=p.category or 0,
            category_name=p.category_name,
            category_type=p.category_type,
            action=action,
            score=p.score,
            reason=Reason(p.reason_code, p.reason_params) if p.reason_code else Reason("manual"),
            recognizer=p.recognizer or p.source,
            evidence="",
            span=span or Span(0, 0),
            cluster=p.cluster or None,
            label=label,
        )
        for i, span in enumerate(spans or [None])
    ]


def _leaking_proposals(proposals: list[ProposedRedaction], leaked: list[str]) -> list[str]:
    """Where the values verification found readable were proposed ("page 2: birth number"), so
    that the reviewer finds them without the value being written into any message or log."""
    values = set(leaked)
    places = {(p.page, p.category_name) for p in proposals if p.text and normalize(p.text) in values}
    return [_("page %(page)d: %(category)s") % {"page": page, "category": name} for page, name in sorted(places)]


def contract_publish(*, run: Run) -> None:
    """Job body: burn in the accepted redactions of the contract of ``run`` (a run claimed by this
    execution, :func:`~contracts.services.runs.run_take`), verify, and publish.

    A verification failure sends the contract back to review with the leak named (nothing is
    published); any other error propagates to the job wrapper (contract ``failed``).
    """
    contract = selectors.contract_get(agency=run.agency, contract_id=run.contract_id)
    run_progress(run, Run.Phase.PREPARING)
    document = selectors.contract_document(contract)
    layer = document.layer
    proposals = decided_proposals(contract, layer)
    run_progress(run, Run.Phase.BURNING)
    try:
        result = get_engine().redact(
            document,
            proposals,
            others=kept_proposals(contract, layer),
            category_map=CategoryMap.from_dict(contract.map_version.data) if contract.map_version else None,
        )
    except errors.VerificationError as exc:
        problems = exc.result.problems if exc.result else [str(exc)]
        message = _("Verification failed, nothing was published: %(problems)s") % {"problems": "; ".join(problems[:5])}
        concerned = _leaking_proposals(proposals, exc.result.leaked if exc.result else [])
        if concerned:
            message += " " + _("Check the redactions on: %(where)s.") % {"where": "; ".join(concerned)}
        with transaction.atomic():
            Run.objects.filter(pk=run.pk).update(state=Run.State.FAILED, error=message, finished_at=timezone.now())
            contract.status, contract.error_message = Status.NEEDS_REVIEW, message
            contract.verification = exc.result.to_dict() if exc.result else {"ok": False, "problems": problems}
            contract.save(update_fields=["status", "error_message", "verification"])
            audit(contract, None, "verification_failed", problems=problems[:20])
            webhooks_notify(contract=contract, event=WebhookEvent.NEEDS_REVIEW)
        return
    if result.findings:
        _back_to_review(run, contract, result)
        return
    sizes = {p.number: (p.width, p.height) for p in layer.pages}
    coverage = review.page_coverage(result.boxes, sizes)
    score = watchdog_published(contract, document, result.boxes, result.text or "", sorted(result.pictured))
    with transaction.atomic():
        locked = Run.objects.select_for_update().get(pk=run.pk)
        if locked.state != Run.State.RUNNING:
            return
        contract.redacted.save("redacted.pdf", ContentFile(result.pdf), save=False)
        contract.redacted_text.save("redacted.txt", ContentFile((result.text or "").encode("utf-8")), save=False)
        contract.verification = result.verification.to_dict()
        contract.page_coverage = {str(k): v for k, v in coverage.items()}
        contract.watchdog = score
        contract.status, contract.error_message, contract.published_at = Status.PUBLISHED, "", timezone.now()
        contract.save(
            update_fields=[
                "redacted",
                "redacted_text",
                "verification",
                "page_coverage",
                "watchdog",
                "status",
                "error_message",
                "published_at",
            ]
        )
        locked.state, locked.finished_at, locked.phase = Run.State.SUCCEEDED, timezone.now(), Run.Phase.DONE
        locked.save(update_fields=["state", "finished_at", "phase"])
        # boxes the engine added over values still legible in a page's picture (RedactionEngine.redact)
        covered = {"covered": len(result.covered)} if result.covered else {}
        audit(
            contract,
            None,
            "published",
            boxes=len(result.boxes),
            sha256=hashlib.sha256(result.pdf).hexdigest(),
            **covered,
        )
        webhooks_notify(contract=contract, event=WebhookEvent.PUBLISHED)


def _back_to_review(run: Run, contract: Contract, result) -> None:
    """Nothing is published: the reader's check still reads personal data nobody decided in the
    published pages (``result.findings``). Each becomes a proposal for review (source
    ``reader_check``, a box on the value, its reason in the reviewer's language), the contract goes
    back to review, and the run fails with a sentence saying so."""
    cmap = CategoryMap.from_dict(contract.map_version.data) if contract.map_version else get_engine().category_map
    items = review_items(result.findings, cmap)
    pages = sorted({i.page for i in items})
    message = ngettext(
        "Nothing was published: the published pages still show %(n)d value nobody decided (pages %(pages)s). "
        "Decide it and approve again.",
        "Nothing was published: the published pages still show %(n)d values nobody decided (pages %(pages)s). "
        "Decide them and approve again.",
        len(items),
    ) % {"n": len(items), "pages": ", ".join(map(str, pages))}
    with transaction.atomic():
        locked = Run.objects.select_for_update().get(pk=run.pk)
        if locked.state != Run.State.RUNNING:
            return
        Proposal.objects.bulk_create([proposal_row(contract, item, source=Source.READER_CHECK) for item in items])
        Run.objects.filter(pk=run.pk).update(state=Run.State.FAILED, error=message, finished_at=timezone.now())
        contract.status, contract.error_message = Status.NEEDS_REVIEW, message
        contract.verification = result.verification.to_dict()
        contract.save(update_fields=["status", "error_message", "verification"])
        audit(contract, None, "still_legible", values=len(items), pages=pages)
        webhooks_notify(contract=contract, event=WebhookEvent.NEEDS_REVIEW)


@transaction.atomic
def contract_approve(*, contract: Contract, user: User, ocr_pages_checked: bool = False) -> Run | None:
    """Approve the decisions and queue publishing (burn-in and verification); returns the
    publishing run, or None when the agency requires four eyes (``Agency.second_approval``) and
    this was the first approval: the contract then waits in *second_approval* for another
    reviewer (:func:`contract_second_approve`).

    Raises ``ValidationError`` when proposals still need a decision, or when pages without a
    text layer (nothing on them was detected) or read by OCR with low confidence were not
    confirmed as checked by eye.
    """
    require_role(user, contract.agency, Role.REVIEWER)
    contract = Contract.objects.select_for_update().get(pk=contract.pk, agency=contract.agency)
    if contract.status == Status.SECOND_APPROVAL:
        return contract_second_approve(contract=contract, user=user)
    require_status(contract, Status.NEEDS_REVIEW)
    open_items = selectors.proposals_open(contract=contract)
    if open_items.exists():
        n = open_items.count()
        message = ngettext("%(n)d proposal still needs a decision.", "%(n)d proposals still need a decision.", n)
        raise ValidationError(message % {"n": n}, code="undecided")
    unchecked = [
        (
            contract.pages_needing_ocr,
            _(
                "Pages %(pages)s have no text layer, so nothing on them was detected. Check them by eye, "
                "draw boxes over personal data, and confirm."
            ),
        ),
        (
            contract.pages_to_check,
            _(
                "Pages %(pages)s were read by OCR with low confidence, so words may be misread and "
                "personal data missed. Check them by eye, draw boxes where needed, and confirm."
            ),
        ),
    ]
    for pages, message in unchecked:
        if pages and not ocr_pages_checked:
            raise ValidationError(message % {"pages": ", ".join(map(str, pages))}, code="ocr_unchecked")
    if contract.agency.second_approval:
        contract.status, contract.first_approved_by, contract.first_approved_at = (
            Status.SECOND_APPROVAL,
            user,
            timezone.now(),
        )
        contract.error_message = ""
        fields = ["status", "first_approved_by", "first_approved_at", "error_message"]
        if contract.pages_needing_ocr or contract.pages_to_check:
            contract.ocr_confirmed_by = user
            fields.append("ocr_confirmed_by")
        contract.save(update_fields=fields)
        audit(contract, user, "first_approval")
        webhooks_notify(contract=contract, event=WebhookEvent.SECOND_APPROVAL)
        return None
    return _approved(contract, user)


def approval_deciders(contract: Contract) -> set[int]:
    """The persons (:func:`~accounts.selectors.person_behind`: a token counts as the member who
    made it) who decided or added a proposal of ``contract``, or approved it first."""
    users = User.objects.filter(
        Q(pk__in=Proposal.objects.filter(contract=contract, decided_by__isnull=False).values("decided_by"))
        | Q(pk=contract.first_approved_by_id)
    ).select_related("api_token")
    return {person for person in map(person_behind, users) if person is not None}


@transaction.atomic
def contract_second_approve(*, contract: Contract, user: User) -> Run:
    """The second approval of four eyes: ``user``, a reviewer who neither approved first nor
    decided any proposal of ``contract``, approves, and publishing is queued. Raises
    ``PermissionDenied`` for a member below reviewer, ``ValidationError`` with code
    ``wrong_status`` unless the contract waits for a second approval, ``same_reviewer`` for the
    first approver or a reviewer who decided on it."""
    require_role(user, contract.agency, Role.REVIEWER)
    contract = Contract.objects.select_for_update().get(pk=contract.pk, agency=contract.agency)
    require_status(contract, Status.SECOND_APPROVAL)
    if person_behind(user) in approval_deciders(contract):
        raise ValidationError(
            _("A second reviewer approves: you approved or decided on this contract yourself."), code="same_reviewer"
        )
    return _approved(contract, user, first=contract.first_approved_by)


@transaction.atomic
def contract_return(*, contract: Contract, user: User, reason: str) -> Contract:
    """The second reviewer sends a contract waiting for the second approval back to review
    with ``reason`` (the audit trail and the contract's message keep it). Raises
    ``PermissionDenied`` below reviewer, ``ValidationError`` with code ``wrong_status`` or
    ``reason_required``."""
    require_role(user, contract.agency, Role.REVIEWER)
    contract = Contract.objects.select_for_update().get(pk=contract.pk, agency=contract.agency)
    require_status(contract, Status.SECOND_APPROVAL)
    if not reason.strip():
        raise ValidationError(_("Say what the first reviewer should look at again."), code="reason_required")
    contract.status, contract.first_approved_by, contract.first_approved_at = Status.NEEDS_REVIEW, None, None
    contract.error_message = _("Returned by the second reviewer: %(reason)s") % {"reason": reason.strip()}
    contract.save(update_fields=["status", "first_approved_by", "first_approved_at", "error_message"])
    audit(contract, user, "second_approval_returned", reason=reason.strip()[:500])
    webhooks_notify(contract=contract, event=WebhookEvent.NEEDS_REVIEW)
    return contract


def _approved(contract: Contract, user: User, first: User | None = None) -> Run:
    """Mark ``contract`` approved by ``user`` (after ``first`` with four eyes) and queue publishing."""
    contract.status, contract.approved_by, contract.approved_at, contract.error_message = (
        Status.APPROVED,
        user,
        timezone.now(),
        "",
    )
    fields = ["status", "approved_by", "approved_at", "error_message"]
    if first is None and (contract.pages_needing_ocr or contract.pages_to_check):
        contract.ocr_confirmed_by = user  # with four eyes the first reviewer confirmed them
        fields.append("ocr_confirmed_by")
    contract.save(update_fields=fields)
    redact = selectors.proposals_for_contract(contract=contract)
    extra = {"first_approval_by": actor_name(first)} if first is not None else {}
    audit(contract, user, "approved", redactions=sum(1 for p in redact if p.will_redact), **extra)
    return run_start(contract, Run.Kind.PUBLISHING)


class DownloadKind(StrEnum):
    """Which file of a contract :func:`contract_download` gives: the published PDF, the published
    text beside it, or the original as uploaded (with its personal data)."""

    REDACTED = "redacted"
    TEXT = "text"
    ORIGINAL = "original"


def contract_download(*, contract: Contract, user: User | None, which: DownloadKind) -> Download:
    """The ``which`` file of ``contract`` (:class:`DownloadKind`: the published PDF, the published
    text beside it, UTF-8 plain text: :func:`~redactor.publish.text_export.published_text`, or the
    original, marked private), its download recorded in the audit trail. Raises
    ``PermissionDenied`` for a user without the clerk role, ``ValidationError`` (code
    ``not_published``) for the published files of a contract that is not published,
    ``ValidationError`` (code ``no_text``) for the text of a contract published before the text
    was made (publish it again to get one), ``InvalidPdfError`` when the stored original no
    longer matches its SHA-256, and ``ValueError`` for anything but a :class:`DownloadKind`."""
    require_role(user, contract.agency, Role.CLERK)
    which = DownloadKind(which)
    if which == DownloadKind.ORIGINAL:
        download = Download(contract.download_name("-original"), selectors.contract_original(contract), private=True)
    else:
        require_published(contract)
        stored = contract.redacted if which == DownloadKind.REDACTED else contract.redacted_text
        if not stored:
            raise ValidationError(
                _("This contract was published before the text beside the PDF was made."), code="no_text"
            )
        with stored.open("rb") as fh:
            data = fh.read()
        if which == DownloadKind.TEXT:
            download = Download(contract.download_name("-anonymizovano", "txt"), data, "text/plain; charset=utf-8")
        else:
            download = Download(contract.download_name("-anonymizovano"), data)
    audit(contract, user, f"downloaded_{which}")
    return download


DELETABLE = (Status.NEEDS_REVIEW, Status.PUBLISHED, Status.REGISTERED, Status.FAILED)


@transaction.atomic
def contract_delete(*, contract: Contract, user: User) -> None:
    """Delete a contract's data: the original, the redacted file, the stored document, the proposals and decisions
    (they hold the personal data), the extracted persons and parties, and the texts that audit
    events quoted (manual boxes, named leaks).

    The contract row stays as a tombstone (status ``deleted``, title and registry metadata) so
    that its audit trail stays complete. Raises ``ValidationError`` (``wrong_status``) while a
    job is working on it (uploaded, processing, approved).
    """
    require_role(user, contract.agency, Role.REVIEWER)
    contract = Contract.objects.select_for_update().get(pk=contract.pk, agency=contract.agency)
    require_status(contract, *DELETABLE)
    files = (contract.original, contract.redacted, contract.redacted_text, contract.analysed, contract.rebuilt)
    stored = [(f.storage, f.name) for f in files if f.name]
    Proposal.objects.filter(agency=contract.agency, contract=contract).delete()  # cascades to decisions
    IdempotencyKey.objects.filter(agency=contract.agency, contract=contract).delete()
    names = [name for _storage, name in stored]
    cache.delete_many([selectors.page_image_key(contract, n) for n in range(1, len(contract.pages) + 1)])
    contract.original, contract.redacted, contract.redacted_text = "", "", ""
    contract.analysed, contract.analysed_format, contract.analysed_sha256 = "", 0, ""
    contract.rebuilt, contract.rebuilt_sha256 = "", ""
    contract.persons, contract.parties, contract.verification, contract.error_message = [], [], {}, ""
    contract.ocr_pages = {}
    contract.status, contract.deleted_at, contract.deleted_by = Status.DELETED, timezone.now(), user
    contract.save(
        update_fields=[
            "original",
            "redacted",
            "redacted_text",
            "analysed",
            "analysed_format",
            "analysed_sha256",
            "rebuilt",
            "rebuilt_sha256",
            "persons",
            "parties",
            "verification",
            "ocr_pages",
            "error_message",
            "status",
            "deleted_at",
            "deleted_by",
        ]
    )
    # the trail keeps who did what and when; the text of manual boxes and named leaks go with the data
    for event in AuditEvent.objects.filter(agency=contract.agency, contract=contract):
        scrubbed = {k: ("[deleted]" if k in ("text", "problems") else v) for k, v in event.detail.items()}
        if scrubbed != event.detail:
            event.detail = scrubbed
            event.save(update_fields=["detail"])
    audit(contract, user, "deleted", files=len(names))

    delete_after_commit(stored)
