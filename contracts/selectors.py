"""Reads of contracts and everything hanging off them, always scoped to one agency."""

from __future__ import annotations

import hashlib
import logging
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db.models import Prefetch, Q, QuerySet
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Agency
from accounts.selectors import actor_name
from redactor import Box, StoredDocument, TextLayer, errors, review

from .extensions import contract_sections
from .models import (
    AuditEvent,
    Contract,
    DecisionState,
    Proposal,
    Run,
    Status,
    Suggestion,
    Webhook,
    WebhookDelivery,
)

log = logging.getLogger(__name__)


def contracts_for_agency(*, agency: Agency) -> QuerySet[Contract]:
    """The agency's contracts, newest first; deleted ones are left out."""
    return Contract.objects.filter(agency=agency).exclude(status=Status.DELETED)


def contract_list(
    *,
    agency: Agency,
    status: str | None = None,
    q: str = "",
    created_after: datetime | None = None,
    created_before: datetime | None = None,
) -> QuerySet[Contract]:
    """The agency's contracts filtered, newest first, each with its runs prefetched newest
    first and with what the apps' sections prefetch (:mod:`contracts.extensions`): ``status``
    exactly, ``q`` in the title or counterparty (case-insensitive), ``created_after`` inclusive,
    ``created_before`` exclusive."""
    qs = contracts_for_agency(agency=agency)
    if status:
        qs = qs.filter(status=status)
    if q:
        qs = qs.filter(Q(title__icontains=q) | Q(counterparty__icontains=q))
    if created_after is not None:
        qs = qs.filter(created_at__gte=created_after)
    if created_before is not None:
        qs = qs.filter(created_at__lt=created_before)
    newest_first = Run.objects.order_by("-created_at", "-id")
    added = [lookup for section in contract_sections() for lookup in section.prefetch]
    return qs.order_by("-created_at", "-id").prefetch_related(Prefetch("runs", queryset=newest_first), *added)


def contract_get(*, agency: Agency, contract_id: int) -> Contract:
    """The agency's contract ``contract_id``. Raises ``Http404`` when it does not exist or belongs
    to another agency (the two cases are indistinguishable on purpose)."""
    contract = contracts_for_agency(agency=agency).filter(pk=contract_id).first()
    if contract is None:
        raise Http404("no such contract")
    contract.agency = agency  # the same row, already read: not read again for each use
    return contract


def run_get(*, run_id: int) -> Run:
    """A job's run by id (jobs receive ids only). Raises ``Run.DoesNotExist``."""
    return Run.objects.select_related("agency").get(pk=run_id)


def run_latest(*, contract: Contract) -> Run | None:
    """The contract's most recent run (processing or publishing), or None."""
    return Run.objects.filter(agency=contract.agency, contract=contract).order_by("-created_at", "-id").first()


def run_is_stale(run: Run, now=None) -> bool:
    """True when a running job has not reported for ``REDACTOR_JOB_STALE_SECONDS`` (its worker died)."""
    if run.state != Run.State.RUNNING:
        return False
    now = now or timezone.now()
    last = run.heartbeat_at or run.started_at or run.created_at
    return now - last > timedelta(seconds=settings.REDACTOR_JOB_STALE_SECONDS)


def proposals_for_contract(*, contract: Contract) -> QuerySet[Proposal]:
    """The contract's proposals in page order."""
    return Proposal.objects.filter(agency=contract.agency, contract=contract).order_by("page", "id")


def proposals_open(*, contract: Contract) -> QuerySet[Proposal]:
    """Proposals that block approval: the engine asked for a review and nobody has decided yet."""
    return proposals_for_contract(contract=contract).filter(
        decision=DecisionState.PENDING, suggestion=Suggestion.REVIEW
    )


#: The largest id a row can have (a 64-bit signed key): a larger number names no row, and is not
#: sent to the database, which would refuse it as out of range.
LARGEST_ID = 2**63 - 1


def proposals_by_ids(*, contract: Contract, ids: list[int]) -> QuerySet[Proposal]:
    """Those of ``ids`` that are proposals of this contract (other ids are silently ignored)."""
    return proposals_for_contract(contract=contract).filter(pk__in=[i for i in ids if 0 < i <= LARGEST_ID])


def audit_events(*, contract: Contract) -> QuerySet[AuditEvent]:
    """The contract's audit trail, oldest first."""
    return AuditEvent.objects.filter(agency=contract.agency, contract=contract).select_related(
        "user__api_token__created_by"
    )


def webhooks_for_agency(*, agency: Agency) -> QuerySet[Webhook]:
    """The agency's webhooks, newest first."""
    return Webhook.objects.filter(agency=agency)


def webhook_get(*, agency: Agency, webhook_id: int) -> Webhook:
    """The agency's webhook ``webhook_id``. Raises ``Http404`` for another agency's webhook."""
    hook = webhooks_for_agency(agency=agency).filter(pk=webhook_id).first()
    if hook is None:
        raise Http404("no such webhook")
    return hook


def webhook_deliveries(*, webhook: Webhook) -> QuerySet[WebhookDelivery]:
    """A webhook's deliveries, newest first."""
    return WebhookDelivery.objects.filter(agency=webhook.agency, webhook=webhook)


def webhook_delivery_get(*, agency: Agency, delivery_id: int) -> WebhookDelivery:
    """The agency's delivery ``delivery_id``. Raises ``Http404`` for another agency's delivery."""
    delivery = WebhookDelivery.objects.select_related("webhook").filter(agency=agency, pk=delivery_id).first()
    if delivery is None:
        raise Http404("no such delivery")
    return delivery


def contract_original(contract: Contract) -> bytes:
    """The stored original, checked against the SHA-256 taken at upload. Raises ``InvalidPdfError``
    when storage damaged it (the job then fails visibly instead of redacting a different file)."""
    with contract.original.open("rb") as fh:
        data = fh.read()
    if hashlib.sha256(data).hexdigest() != contract.original_sha256:
        raise errors.InvalidPdfError(_("the stored original is damaged: it no longer matches the uploaded file"))
    return data


def _stored(field, sha256: str) -> bytes | None:
    """The bytes of a stored file of the contract, or None when there is none, it cannot be read
    or no longer matches its hash (logged: the caller then builds what it needs again)."""
    if not field:
        return None
    try:
        with field.open("rb") as fh:
            data = fh.read()
    except OSError as exc:
        log.warning("%s cannot be read (%s)", field.name, exc)
        return None
    if hashlib.sha256(data).hexdigest() != sha256:
        log.warning("%s no longer matches its hash", field.name)
        return None
    return data


def contract_text_layer(contract: Contract) -> TextLayer:
    """The contract's text layer as processing analysed it, from the stored layer alone (the
    rebuilt PDF is not read). For a contract whose stored layer is missing or damaged, that of
    :func:`contract_document`. Raises as :func:`contract_document`."""
    data = _stored(contract.analysed, contract.analysed_sha256)
    if data is not None:
        try:
            return StoredDocument.layer_of(data)
        except errors.StoredLayerError as exc:
            log.warning("contract %s: the stored layer cannot be used (%s)", contract.pk, exc)
    return contract_document(contract).layer


def contract_document(contract: Contract) -> StoredDocument:
    """The contract's stored document (:class:`redactor.StoredDocument`): the rebuilt PDF that
    was analysed and its text layer, read from storage without opening the original.

    A contract processed before documents were stored (or whose stored files are damaged) gets
    its document built again in memory from the original
    (:meth:`redactor.StoredDocument.from_upload`: the layer stored then, or the text extracted
    again with the OCR words stored at processing, so the proposals' offsets stay valid) and a
    warning is logged: ``manage.py store_documents`` stores it for good. Raises
    ``InvalidPdfError`` when the original is damaged too."""
    layer_bytes = _stored(contract.analysed, contract.analysed_sha256)
    pdf = _stored(contract.rebuilt, contract.rebuilt_sha256)
    if layer_bytes is not None and pdf is not None:
        try:
            return StoredDocument.from_stored(layer_bytes, pdf)
        except errors.StoredLayerError as exc:
            log.warning("contract %s: the stored document cannot be used (%s)", contract.pk, exc)
    log.warning("contract %s has no stored document: built from the original (manage.py store_documents)", contract.pk)
    try:
        return StoredDocument.from_upload(contract_original(contract), layer_bytes, contract.ocr_pages)
    except errors.StoredLayerError:  # the stored layer is damaged too: the text is extracted again
        return StoredDocument.from_upload(contract_original(contract), None, contract.ocr_pages)


def page_image_key(contract: Contract, page: int) -> str:
    """The cache key of the rendered page ``page`` (from 1) of ``contract``'s document."""
    return f"page-png:{contract.pk}:{contract.original_sha256}:{page}"


def contract_page_image(contract: Contract, page: int, boxes: list[Box] | None = None) -> bytes:
    """PNG of page ``page`` (from 1) of the contract's stored document, as the review page shows
    it (1.5 × 72 dpi, at most ``REDACTOR_MAX_RENDER_PIXELS``); with ``boxes`` (points) burned in,
    drawn each time, without them rendered once and then served from the shared cache for
    ``REDACTOR_PAGE_CACHE_SECONDS`` (the contract's deletion removes it). Raises ``IndexError``
    for a page out of range and ``InvalidPdfError`` for a page MuPDF cannot render."""
    limit = settings.REDACTOR_MAX_RENDER_PIXELS
    if boxes:
        return contract_document(contract).picture(page, zoom=1.5, boxes=boxes, max_pixels=limit)
    key = page_image_key(contract, page)
    png = cache.get(key)
    if png is None:
        png = contract_document(contract).picture(page, zoom=1.5, max_pixels=limit)
        cache.set(key, png, timeout=settings.REDACTOR_PAGE_CACHE_SECONDS)
    return png


def contract_page_words(contract: Contract, page: int) -> list[tuple[str, float, float, float, float]]:
    """The words of page ``page`` (from 1) as analysed, with boxes in points, in reading order
    (:meth:`redactor.StoredDocument.words`: OCR's words on a scanned page): what the review page
    lets a reviewer select. Raises ``IndexError`` for a page out of range."""
    return StoredDocument.words_of(contract_text_layer(contract), page)


def contract_repeated_pages(contract: Contract, layer: TextLayer | None = None) -> dict[int, int]:
    """The contract's pages that repeat an earlier page of it (:func:`redactor.repeated_pages` of
    its analysed ``layer``, read when not given): ``{page: earlier page}``."""
    return review.repeated_pages(layer if layer is not None else contract_text_layer(contract))


def contract_report(*, contract: Contract) -> dict:
    """The redaction report of a published contract, in the shape of the API's
    ``ReportSerializer``: what was redacted by category and by whom (a reviewer, or the engine's
    suggestion left as it was), the verification result, the blacked-out share per page (pages
    from 1) and the SHA-256 of the published file."""
    proposals = list(proposals_for_contract(contract=contract).select_related("decided_by__api_token"))
    redacted: Counter[int | None] = Counter()
    kept: Counter[int | None] = Counter()
    names: dict[int | None, str] = {}
    for p in proposals:
        key = p.category
        names.setdefault(key, p.own_category_name)
        (redacted if p.will_redact else kept)[key] += 1
    with contract.redacted.open("rb") as fh:
        sha = hashlib.sha256(fh.read()).hexdigest()
    report = {
        "contract": contract.pk,
        "title": contract.title,
        "status": contract.status,
        "category_map": contract.category_map,
        "approved_by": actor_name(contract.approved_by),
        "approved_at": contract.approved_at,
        "published_at": contract.published_at,
        "pages_needing_ocr": contract.pages_needing_ocr,
        "pages_to_check": contract.pages_to_check,
        "ocr_confirmed_by": actor_name(contract.ocr_confirmed_by),
        "by_category": [
            {"category": k, "category_name": names[k], "redacted": redacted[k], "kept": kept[k]}
            for k in sorted(names, key=lambda k: (k is None, k or 0))
        ],
        "redactions": [
            {
                "proposal": p.pk,
                "page": p.page,
                "boxes": p.boxes,
                "category": p.category,
                "category_name": p.category_name,
                "source": p.source,
                "legal_ground": p.legal_ground,
                "trade_secret_claimant": p.trade_secret_claimant,
                "trade_secret_claimed_on": p.trade_secret_claimed_on,
                "decided": "suggestion" if p.decision == DecisionState.PENDING else "reviewer",
                "decided_by": actor_name(p.decided_by),
                "decided_at": p.decided_at,
            }
            for p in proposals
            if p.will_redact
        ],
        "pages": [
            {"page": int(n), "blacked_out": share, "watchdog_share": contract.watchdog.get("pages", {}).get(n)}
            for n, share in sorted(contract.page_coverage.items(), key=lambda kv: int(kv[0]))
        ],
        "watchdog": (
            {k: contract.watchdog[k] for k in ("redacted", "heavy", "readable")} if contract.watchdog else None
        ),
        "verification": contract.verification,
        "redacted_sha256": sha,
    }
    return report


#: How many of an agency's latest decided contracts a contract's pages are compared with.
REPEAT_LOOKBACK = 300
#: Contracts whose decisions are final: a page repeated from one of them is decided as there.
DECIDED = (Status.PUBLISHED, Status.REGISTERED)


@dataclass(frozen=True)
class EarlierPage:
    """A page of an earlier contract of the same agency that a page repeats: the contract, its
    title, the page (from 1), the estimated share of shared words, and what was decided there,
    ``{text (folded): "accepted" | "rejected"}`` (burned in or kept)."""

    contract_id: int
    title: str
    page: int
    similarity: float
    decisions: dict[str, str]


def _folded(text: str) -> str:
    return " ".join(text.split()).casefold()


def contract_repeats_elsewhere(*, contract: Contract) -> dict[int, EarlierPage]:
    """The pages of ``contract`` that repeat a page of one of the agency's :data:`REPEAT_LOOKBACK`
    latest published contracts (a price list, general terms, a plan attached to every contract):
    ``{page: EarlierPage}``, the most similar earlier page (at least
    :data:`redactor.read.review.REPEAT_SIMILARITY` of the words shared, estimated from the pages'
    :func:`redactor.page_signatures`), the latest contract on a tie. Contracts processed before
    signatures were kept have none and are not compared."""
    mine = {int(n): sig for n, sig in (contract.page_signatures or {}).items()}
    if not mine:
        return {}
    earlier = (
        Contract.objects.filter(agency=contract.agency, status__in=DECIDED, created_at__lt=contract.created_at)
        .exclude(pk=contract.pk)
        .exclude(page_signatures={})
        .order_by("-created_at")
        .values_list("pk", "title", "page_signatures")[:REPEAT_LOOKBACK]
    )
    best: dict[int, tuple[float, int, str, int]] = {}
    for pk, title, signatures in earlier:
        for n, theirs in (signatures or {}).items():
            for page, sig in mine.items():
                similarity = review.signature_similarity(sig, theirs)
                if similarity >= review.REPEAT_SIMILARITY and similarity > best.get(page, (0.0,))[0]:
                    best[page] = (similarity, pk, title, int(n))
    out: dict[int, EarlierPage] = {}
    for page, (similarity, pk, title, n) in sorted(best.items()):
        decisions: dict[str, str] = {}
        for p in Proposal.objects.filter(contract_id=pk, page=n).exclude(text=""):
            decisions[_folded(p.text)] = "accepted" if p.will_redact else "rejected"
        out[page] = EarlierPage(pk, title, n, round(similarity, 3), decisions)
    return out


def proposals_like_earlier(
    *, contract: Contract, page: int, earlier: EarlierPage | None = None
) -> tuple[EarlierPage | None, list[int], list[int]]:
    """The earlier page ``page`` repeats (:func:`contract_repeats_elsewhere`) and the undecided
    proposals of ``page`` whose text was decided there: ``(earlier, to accept, to keep)`` (ids);
    ``(None, [], [])`` when the page repeats no earlier contract's page. ``earlier``: the page
    :func:`contract_repeats_elsewhere` already found, so a caller that lists every page compares
    the contracts once."""
    earlier = earlier or contract_repeats_elsewhere(contract=contract).get(page)
    if earlier is None:
        return None, [], []
    accept, keep = [], []
    pending = proposals_for_contract(contract=contract).filter(decision=DecisionState.PENDING, page=page)
    for p in pending.exclude(text=""):
        decided = earlier.decisions.get(_folded(p.text))
        if decided == "accepted":
            accept.append(p.pk)
        elif decided == "rejected":
            keep.append(p.pk)
    return earlier, accept, keep
