"""Writes on contracts: upload, processing, decisions, approval, publishing, retry.

HTML views, jobs (and later the REST API) call these and nothing else to change a contract.
Every service that changes state writes an :class:`~contracts.models.AuditEvent`.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import uuid
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Agency
from redactor.core import categories as cat
from redactor.core.category_map import CategoryMap
from redactor.core.errors import (
    ActiveContentError,
    EncryptedPdfError,
    InvalidPdfError,
    PdfTooLargeError,
    VerificationError,
)
from redactor.core.extraction import extract_text_layer, open_pdf, refuse_active_content, scan_pages
from redactor.core.model import Action, Box, Span
from redactor.core.model import Proposal as CoreProposal
from redactor.core.reasons import Reason
from redactor.core.rebuild import open_rebuilt
from redactor.core.review import page_coverage, spans_in_boxes
from redactor.core.rules import PERSON, PHRASE, apply_rules, find_occurrences, name_tokens, phrase_match, tokens
from redactor.i18n import reason_fields
from redactor.runtime import get_engine
from redactor.selectors import map_version_in_force, rules_in_force
from redactor.services import rule_vote, rule_votes_undo

from . import selectors
from .models import (
    AuditEvent,
    Contract,
    Decision,
    DecisionState,
    IdempotencyKey,
    Proposal,
    Run,
    Source,
    Status,
    Suggestion,
    Webhook,
    WebhookDelivery,
    WebhookEvent,
    box_from_list,
)

log = logging.getLogger(__name__)


# -- upload ---------------------------------------------------------------------------------------
def pdf_check(data: bytes) -> PdfFacts:
    """Check an upload before anything is stored; returns its page count (see :func:`pdf_facts`).

    Raises ``ValidationError`` with a message a clerk understands for an empty, oversized,
    non-PDF, damaged, password-protected or over-long file and for a PDF with active content
    (JavaScript, launch or submit actions).
    """
    limit = settings.REDACTOR_MAX_UPLOAD_BYTES
    if not data:
        raise ValidationError(_("The file is empty."), code="empty")
    if len(data) > limit:
        raise ValidationError(
            _("The file has %(size).1f MB; the limit is %(limit).0f MB.")
            % {"size": len(data) / 1e6, "limit": limit / 1e6},
            code="too_large",
        )
    if b"%PDF-" not in data[:1024]:
        raise ValidationError(_("The file is not a PDF. Upload the contract as a PDF file."), code="not_pdf")
    try:
        doc = open_pdf(data, max_pages=settings.REDACTOR_MAX_PAGES)
    except EncryptedPdfError:
        raise ValidationError(
            _("The PDF is password-protected. Save it without a password and upload it again."), code="encrypted"
        ) from None
    except PdfTooLargeError:
        raise ValidationError(
            _("The PDF has more than %(max)d pages, the most one contract may have.")
            % {"max": settings.REDACTOR_MAX_PAGES},
            code="too_many_pages",
        ) from None
    except InvalidPdfError:
        raise ValidationError(
            _("The PDF is damaged and cannot be opened. Export it again from the program that created it."),
            code="damaged",
        ) from None
    try:
        refuse_active_content(doc)
        pages = doc.page_count
        scans = scan_pages(doc)
    except ActiveContentError as exc:
        raise ValidationError(
            _(
                "The PDF contains active content (%(kinds)s). Save it without scripts, e.g. by printing it "
                "to PDF, and upload it again."
            )
            % {"kinds": ", ".join(exc.kinds)},
            code="active_content",
        ) from None
    finally:
        doc.close()
    return PdfFacts(pages, scans)


@dataclass(frozen=True)
class PdfFacts:
    """What :func:`pdf_check` learned: the page count and the pages that look scanned (from 1)."""

    pages: int
    scan_pages: list[int]


def _audit(contract: Contract, user: AbstractBaseUser | None, action: str, **detail) -> None:
    AuditEvent.objects.create(
        agency=contract.agency,
        contract=contract,
        user=user if user and user.is_authenticated else None,
        action=action,
        detail=detail,
    )


def run_queue(run: Run) -> str:
    """The RQ queue of a run: ``ocr`` for processing a contract with scanned pages (OCR takes
    seconds per page), ``default`` for everything else."""
    return "ocr" if run.kind == Run.Kind.PROCESSING and run.contract.scan_pages else "default"


def _enqueue(run: Run) -> None:
    """Send ``run`` to the queue once the surrounding transaction has committed."""

    def send() -> None:
        import django_rq
        from rq import Callback

        from . import jobs

        func = jobs.process_contract if run.kind == Run.Kind.PROCESSING else jobs.publish_contract
        job = django_rq.get_queue(run_queue(run)).enqueue(
            func, run.pk, job_timeout=settings.REDACTOR_JOB_TIMEOUT, on_failure=Callback(jobs.on_job_failure)
        )
        Run.objects.filter(pk=run.pk).update(rq_job_id=job.id)

    transaction.on_commit(send)


@dataclass
class RegistryMetadata:
    """Metadata the registry of contracts asks for (Act 340/2015 Sb., § 5 odst. 5)."""

    counterparty: str = ""
    subject: str = ""
    value_amount: Decimal | None = None
    value_currency: str = "CZK"
    date_concluded: date | None = None


@transaction.atomic
def contract_upload(
    *,
    agency: Agency,
    user: AbstractBaseUser | None,
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
    """
    facts = pdf_check(data)
    metadata = metadata or RegistryMetadata()
    contract = Contract(
        agency=agency,
        title=(title or filename.rsplit(".", 1)[0] or _("Contract"))[:300],
        counterparty=metadata.counterparty,
        subject=metadata.subject,
        value_amount=metadata.value_amount,
        value_currency=metadata.value_currency or "CZK",
        date_concluded=metadata.date_concluded,
        original_name=filename[:255],
        original_size=len(data),
        original_sha256=hashlib.sha256(data).hexdigest(),
        scan_pages=len(facts.scan_pages),
        created_by=user if user and user.is_authenticated else None,
    )
    contract.original.save("original.pdf", ContentFile(data), save=False)
    contract.full_clean()
    contract.save()
    _audit(contract, user, "uploaded", filename=filename, size=len(data), sha256=contract.original_sha256)
    if idempotency_key:
        IdempotencyKey.objects.create(
            agency=agency,
            key=idempotency_key,
            fingerprint=upload_fingerprint(data=data, filename=filename, title=title, metadata=metadata),
            contract=contract,
        )
    _start_run(contract, Run.Kind.PROCESSING)
    return contract


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


def _start_run(contract: Contract, kind: str) -> Run:
    run = Run.objects.create(agency=contract.agency, contract=contract, kind=kind)
    _enqueue(run)
    return run


# -- job bodies -----------------------------------------------------------------------------------
def _claim(run_id: int) -> Run | None:
    """Mark a queued run as running; None when another execution already took it (a job may run twice)."""
    now = timezone.now()
    if not Run.objects.filter(pk=run_id, state=Run.State.QUEUED).update(
        state=Run.State.RUNNING, started_at=now, heartbeat_at=now
    ):
        return None
    return selectors.run_get(run_id=run_id)


def _progress(run: Run, phase: str, done: int = 0, total: int = 0) -> None:
    Run.objects.filter(pk=run.pk, state=Run.State.RUNNING).update(
        phase=phase, progress_done=done, progress_total=total, heartbeat_at=timezone.now()
    )


def run_fail(*, run_id: int, message: str) -> None:
    """Mark a run and its contract failed with ``message`` (shown to the clerk, who may retry).

    Does nothing when the run already finished (a late failure callback after success).
    """
    with transaction.atomic():
        run = Run.objects.select_for_update().filter(pk=run_id).first()
        if run is None or run.state in (Run.State.SUCCEEDED, Run.State.FAILED):
            return
        run.state, run.error, run.finished_at = Run.State.FAILED, message[:4000], timezone.now()
        run.save(update_fields=["state", "error", "finished_at"])
        contract = selectors.contract_get(agency=run.agency, contract_id=run.contract_id)
        contract.status, contract.error_message = Status.FAILED, message[:4000]
        contract.save(update_fields=["status", "error_message"])
        _audit(contract, None, "failed", stage=run.kind, error=message[:500])
        webhooks_notify(contract=contract, event=WebhookEvent.FAILED)


def _read_original(contract: Contract) -> bytes:
    """The stored original, checked against the SHA-256 taken at upload. Raises ``InvalidPdfError``
    when storage damaged it (the job then fails visibly instead of redacting a different file)."""
    with contract.original.open("rb") as fh:
        data = fh.read()
    if hashlib.sha256(data).hexdigest() != contract.original_sha256:
        raise InvalidPdfError(_("the stored original is damaged: it no longer matches the uploaded file"))
    return data


def contract_text_layer(contract: Contract, data: bytes, progress=None):
    """The contract's text layer as processing saw it: born-digital text as extracted, scanned
    pages from the OCR words stored at processing (never read again, so the proposals' offsets
    stay valid). ``data`` is the original (:func:`_read_original`)."""
    from redactor.core.ocr import OcrPage, StoredOcr

    stored = StoredOcr({int(n): OcrPage.from_dict(page) for n, page in (contract.ocr_pages or {}).items()})
    doc, rebuilt = open_rebuilt(data)
    try:
        return extract_text_layer(doc, rebuilt.pdf, progress=progress, ocr=stored)
    finally:
        doc.close()


def _party_fields(party) -> dict:
    """The proposal's party: its English label (API, exports) and the structured form the review
    page renders in the interface's language."""
    if party is None:
        return {"party": "", "party_who": {}}
    return {"party": party.describe(), "party_who": party.who()}


def contract_process(*, run_id: int) -> None:
    """Job body: extract, detect and store the proposals of the run's contract.

    Idempotent: a run that is no longer queued is left alone. Raises whatever the engine raises;
    the job wrapper turns it into a failed run.
    """
    run = _claim(run_id)
    if run is None:
        log.info("run %s already taken", run_id)
        return
    contract = selectors.contract_get(agency=run.agency, contract_id=run.contract_id)
    Contract.objects.filter(pk=contract.pk).update(status=Status.PROCESSING, error_message="")
    _progress(run, "loading")
    engine = get_engine()
    engine.load()
    data = _read_original(contract)
    version = map_version_in_force(agency=contract.agency)
    _progress(run, "extracting")
    analysis = engine.analyze(
        data,
        category_map=CategoryMap.from_dict(version.data),
        progress=lambda done, total: _progress(run, "extracting", done, total),
    )
    pages = len(analysis.pages)
    _progress(run, "detecting", pages, pages)
    cmap = CategoryMap.from_dict(version.data)
    rules = rules_in_force(agency=contract.agency, before=contract.created_at)
    learned = apply_rules(
        [r.as_core() for r in rules], analysis.text_layer.text, analysis.proposals, analysis.text_layer.span_boxes
    )
    for p in learned.proposals:
        if not p.category_name:  # added by a rule: name its category from the map in force
            rule = cmap.rule(p.category)
            p.category_name = rule.name_en if rule else _("Agency rule")
            p.category_type = rule.type if rule else "rule"
    party_of = {}
    for party in analysis.parties:
        for block in party.blocks:
            party_of[(block.start, block.end)] = party
    persons = analysis.to_dict()["persons"]
    with transaction.atomic():
        locked = Run.objects.select_for_update().get(pk=run.pk)
        if locked.state != Run.State.RUNNING:
            return
        Proposal.objects.filter(contract=contract, source=Source.ENGINE).delete()
        Proposal.objects.bulk_create(
            [
                Proposal(
                    agency=contract.agency,
                    contract=contract,
                    source=Source.ENGINE,
                    page=p.page,
                    boxes=[[b.page, round(b.x0, 2), round(b.y0, 2), round(b.x1, 2), round(b.y1, 2)] for b in p.boxes],
                    text=p.text,
                    category=p.category,
                    category_name=p.category_name,
                    category_type=p.category_type,
                    suggestion=Suggestion(p.action.value),
                    score=p.score,
                    **reason_fields(p.reason),
                    recognizer=p.recognizer,
                    span_start=p.span.start,
                    span_end=p.span.end,
                    cluster=p.cluster or "",
                    **_party_fields(next((pa for (s, e), pa in party_of.items() if s <= p.span.start < e), None)),
                    rule_id=learned.rule_of.get(p.id),
                )
                for p in learned.proposals
            ]
        )
        contract.pages = [
            {
                "number": p.number,
                "width": round(p.width, 2),
                "height": round(p.height, 2),
                "needs_ocr": p.needs_ocr,
                **(
                    {
                        "ocr": p.ocr,
                        "pictured": p.pictured,
                        "scan_layer": p.scan_layer,
                        "ocr_replaced": p.ocr_replaced,
                        "ocr_confidence": p.ocr_confidence,
                        "needs_check": p.needs_check,
                    }
                    if p.ocr_confidence is not None
                    else {}
                ),
            }
            for p in analysis.pages
        ]
        # the OCR words, so that publishing reads exactly the text the proposals point into
        contract.ocr_pages = {str(n): page.to_dict() for n, page in analysis.text_layer.ocr_pages.items()}
        contract.parties = [
            {"label": p.label, "kind": p.kind.value, "name": p.name, "roles": p.roles} for p in analysis.parties
        ]
        contract.persons = persons
        contract.category_map, contract.map_version = analysis.category_map, version
        contract.status, contract.error_message = Status.NEEDS_REVIEW, ""
        contract.save(
            update_fields=[
                "pages",
                "ocr_pages",
                "parties",
                "persons",
                "category_map",
                "map_version",
                "status",
                "error_message",
            ]
        )
        locked.state, locked.finished_at, locked.phase = Run.State.SUCCEEDED, timezone.now(), "done"
        locked.save(update_fields=["state", "finished_at", "phase"])
        counts = {s: sum(1 for p in learned.proposals if p.action.value == s) for s in ("redact", "keep", "review")}
        _audit(
            contract,
            None,
            "processed",
            pages=pages,
            ocr_pages=analysis.pages_needing_ocr,
            rules_applied=len(set(learned.rule_of.values())),
            rule_changed=learned.changed,
            rule_added=learned.added,
            **counts,
        )
        webhooks_notify(contract=contract, event=WebhookEvent.NEEDS_REVIEW)


def _core_proposals(contract: Contract, layer) -> list[CoreProposal]:
    """The proposals to burn in, as engine value objects; manual boxes get the spans they cover."""
    out = []
    for p in selectors.proposals_for_contract(contract=contract):
        if not p.will_redact:
            continue
        boxes = p.box_list()
        if p.span_start is not None and p.span_end is not None:
            spans = [Span(p.span_start, p.span_end)]
        else:
            spans = spans_in_boxes(layer, boxes)
        for i, span in enumerate(spans or [None]):
            out.append(
                CoreProposal(
                    id=p.pk,
                    page=p.page,
                    boxes=boxes if i == 0 else [],
                    text=layer.text[span.start : span.end].replace("\n", " ") if span else "",
                    category=p.category or 0,
                    category_name=p.category_name,
                    category_type=p.category_type,
                    action=Action.REDACT,
                    score=p.score,
                    reason=Reason(p.reason_code, p.reason_params) if p.reason_code else Reason("manual"),
                    recognizer=p.recognizer or p.source,
                    evidence="",
                    span=span or Span(0, 0),
                )
            )
    return out


def contract_publish(*, run_id: int) -> None:
    """Job body: burn in the accepted redactions, verify, and publish.

    A verification failure sends the contract back to review with the leak named (nothing is
    published); any other error propagates to the job wrapper (contract ``failed``).
    """
    run = _claim(run_id)
    if run is None:
        return
    contract = selectors.contract_get(agency=run.agency, contract_id=run.contract_id)
    data = _read_original(contract)
    _progress(run, "extracting")
    layer = contract_text_layer(contract, data, progress=lambda d, t: _progress(run, "extracting", d, t))
    proposals = _core_proposals(contract, layer)
    _progress(run, "burning", len(layer.pages), len(layer.pages))
    try:
        result = get_engine().redact(data, proposals, layer)
    except VerificationError as exc:
        problems = exc.result.problems if exc.result else [str(exc)]
        message = _("Verification failed, nothing was published: %(problems)s") % {"problems": "; ".join(problems[:5])}
        with transaction.atomic():
            Run.objects.filter(pk=run.pk).update(state=Run.State.FAILED, error=message, finished_at=timezone.now())
            contract.status, contract.error_message = Status.NEEDS_REVIEW, message
            contract.verification = exc.result.to_dict() if exc.result else {"ok": False, "problems": problems}
            contract.save(update_fields=["status", "error_message", "verification"])
            _audit(contract, None, "verification_failed", problems=problems[:20])
            webhooks_notify(contract=contract, event=WebhookEvent.NEEDS_REVIEW)
        return
    sizes = {p.number: (p.width, p.height) for p in layer.pages}
    coverage = page_coverage(result.boxes, sizes)
    with transaction.atomic():
        locked = Run.objects.select_for_update().get(pk=run.pk)
        if locked.state != Run.State.RUNNING:
            return
        contract.redacted.save("redacted.pdf", ContentFile(result.pdf), save=False)
        contract.verification = result.verification.to_dict()
        contract.page_coverage = {str(k): v for k, v in coverage.items()}
        contract.status, contract.error_message, contract.published_at = Status.PUBLISHED, "", timezone.now()
        contract.save(
            update_fields=["redacted", "verification", "page_coverage", "status", "error_message", "published_at"]
        )
        locked.state, locked.finished_at, locked.phase = Run.State.SUCCEEDED, timezone.now(), "done"
        locked.save(update_fields=["state", "finished_at", "phase"])
        _audit(contract, None, "published", boxes=len(result.boxes), sha256=hashlib.sha256(result.pdf).hexdigest())
        webhooks_notify(contract=contract, event=WebhookEvent.PUBLISHED)


# -- review ---------------------------------------------------------------------------------------
def _require_status(contract: Contract, *allowed: str) -> None:
    if contract.status not in allowed:
        raise ValidationError(
            _("This is not possible while the contract is “%(status)s”.") % {"status": contract.get_status_display()},
            code="wrong_status",
        )


@dataclass
class DecisionOutcome:
    """What one reviewer action changed: the batch id (for undo), the proposals whose decision
    changed, every occurrence it applied to and the distinct texts of those occurrences."""

    batch: uuid.UUID
    changed: list[int]
    affected: list[int]
    forms: list[str] = field(default_factory=list)
    rules: list[int] = field(default_factory=list)


def _occurrences(contract: Contract, chosen: list[Proposal]) -> list[Proposal]:
    """Every proposal of ``contract`` that is an occurrence of one of ``chosen``: the same
    person or value (the engine's cluster: all inflected forms of a name, the same number), or
    the same words in another inflected form ("Horní Lhota", "Horní Lhotě")."""
    everything = list(selectors.proposals_for_contract(contract=contract))
    clusters = {p.cluster for p in chosen if p.cluster}
    phrases = [tokens(p.text) for p in chosen if p.text and not p.cluster.startswith("person:")]
    out = []
    for p in everything:
        if p in chosen or (p.cluster and p.cluster in clusters):
            out.append(p)
        elif p.text and any(phrase_match(t, tokens(p.text)) for t in phrases if t):
            out.append(p)
    return out


def _person_name(contract: Contract, cluster: str) -> str:
    """A display name for a person cluster: a full-name mention in the nominative when the
    gazetteer recognises one ("Radek Blažek" rather than "Radkem Blažkem"), else the shortest."""
    from redactor.core.czech import NameGazetteer

    names = [
        " ".join(name_tokens(p.text))
        for p in selectors.proposals_for_contract(contract=contract).filter(cluster=cluster, category=cat.FULL_NAME)
    ]
    names = [n for n in names if len(n.split()) >= 2]
    if not names:
        return ""
    gazetteer = NameGazetteer.default()
    for n in names:
        first = n.split()[0]
        if gazetteer.given_name_of(first) == first:
            return n
    return min(names, key=len)


def _teaches(p: Proposal, decision: str) -> bool:
    """Whether a decision on ``p`` is something the engine did not know: it decides a review
    item, overrules the suggestion, or confirms or overrules an agency rule. Confirming the
    engine's own suggestion teaches nothing (the engine will suggest the same again)."""
    if p.rule_id is not None or p.suggestion == Suggestion.REVIEW:
        return True
    return (decision == DecisionState.ACCEPTED) != (p.suggestion == Suggestion.REDACT)


def _learn(contract: Contract, user, chosen: list[Proposal], decision: str, batch: uuid.UUID) -> list[int]:
    """Vote on the agency's rules for each chosen proposal that teaches something (one vote
    per person or phrase, however many occurrences the action covered)."""
    if decision not in (DecisionState.ACCEPTED, DecisionState.REJECTED):
        return []
    value = 1 if decision == DecisionState.REJECTED else -1
    seen: set[tuple[str, str]] = set()
    rules = []
    for p in chosen:
        if not p.text or not _teaches(p, decision):
            continue
        if p.cluster.startswith("person:") and p.category in (*cat.NAME_CATEGORIES, cat.ACADEMIC_TITLE):
            kind, pattern, category = PERSON, _person_name(contract, p.cluster), cat.FULL_NAME
        else:
            kind, pattern, category = PHRASE, p.text, p.category
        if not pattern or (kind, pattern.lower()) in seen:
            continue
        seen.add((kind, pattern.lower()))
        rule = rule_vote(
            agency=contract.agency,
            kind=kind,
            pattern=pattern,
            value=value,
            user=user,
            category=category,
            contract=contract,
            proposal=p,
            batch=batch,
        )
        if rule is not None:
            rules.append(rule.pk)
    return rules


@transaction.atomic
def proposals_decide(
    *,
    contract: Contract,
    user: AbstractBaseUser,
    proposal_ids: list[int],
    decision: str,
    same_cluster: bool = False,
    learn: bool = True,
    batch: uuid.UUID | None = None,
) -> DecisionOutcome:
    """Accept (redact), reject (keep) or reset proposals as one reviewer action.

    ``same_cluster`` extends the decision to every occurrence of the chosen persons, values and
    phrases in the contract, inflected forms included (see :func:`_occurrences`). With
    ``learn`` an accept or reject that teaches something (:func:`_teaches`) votes on the
    agency's rules for later contracts (+1 keep, −1 redact). The outcome's ``batch`` (new, or
    the one given to group several calls into one action) undoes it all (:func:`decision_undo`).
    Raises ``ValidationError`` when the contract is not in review or ``decision`` is unknown.
    """
    _require_status(contract, Status.NEEDS_REVIEW)
    if decision not in (DecisionState.ACCEPTED, DecisionState.REJECTED, DecisionState.PENDING):
        raise ValidationError(_("Unknown decision."), code="bad_decision")
    chosen = list(selectors.proposals_by_ids(contract=contract, ids=proposal_ids))
    targets = _occurrences(contract, chosen) if same_cluster else chosen
    batch = batch or uuid.uuid4()
    changed = [p for p in targets if p.decision != decision]
    now = timezone.now()
    Proposal.objects.filter(pk__in=[p.pk for p in changed]).update(decision=decision, decided_by=user, decided_at=now)
    kind = {DecisionState.ACCEPTED: Decision.Kind.ACCEPT, DecisionState.REJECTED: Decision.Kind.REJECT}.get(
        decision, Decision.Kind.RESET
    )
    Decision.objects.bulk_create(
        [
            Decision(
                agency=contract.agency,
                contract=contract,
                proposal_id=p.pk,
                kind=kind,
                user=user,
                batch=batch,
                previous=p.decision,
            )
            for p in changed
        ]
    )
    rules = _learn(contract, user, chosen, decision, batch) if learn else []
    ids = [p.pk for p in changed]
    if changed or rules:
        _audit(
            contract, user, f"decision_{kind}", proposals=ids, same_cluster=same_cluster, batch=str(batch), rules=rules
        )
    forms = sorted({" ".join(p.text.split()) for p in targets if p.text})
    return DecisionOutcome(batch, ids, [p.pk for p in targets], forms, rules)


@transaction.atomic
def decision_undo(*, contract: Contract, user: AbstractBaseUser, batch: uuid.UUID) -> list[int]:
    """Undo one reviewer action: every proposal it changed goes back to its decision before,
    manual boxes it added are removed, and the rule votes it cast are taken back. Returns the
    ids of the proposals restored or removed.

    Raises ``ValidationError``: ``wrong_status`` when the contract is not in review,
    ``not_found`` for an unknown batch, ``changed_since`` when a later action changed one of
    its proposals (undo that one first).
    """
    _require_status(contract, Status.NEEDS_REVIEW)
    history = Decision.objects.filter(agency=contract.agency, contract=contract)
    decisions = list(history.filter(batch=batch).exclude(kind=Decision.Kind.UNDO))
    if not decisions:
        raise ValidationError(_("There is nothing to undo for this action."), code="not_found")
    if history.filter(batch=batch, kind=Decision.Kind.UNDO).exists():
        raise ValidationError(_("This action was already undone."), code="not_found")
    ids = [d.proposal_id for d in decisions]
    undone = set(history.filter(kind=Decision.Kind.UNDO).values_list("batch", flat=True))
    later = history.filter(proposal_id__in=ids, id__gt=max(d.id for d in decisions)).exclude(kind=Decision.Kind.UNDO)
    if any(d.batch is None or d.batch not in undone for d in later):
        raise ValidationError(_("A later decision changed these proposals; undo that one first."), code="changed_since")
    added = [d.proposal_id for d in decisions if d.kind in (Decision.Kind.MANUAL_BOX, Decision.Kind.MANUAL_TEXT)]
    now = timezone.now()
    current = dict(Proposal.objects.filter(pk__in=ids).values_list("pk", "decision"))
    for d in decisions:
        if d.proposal_id in added:
            continue
        before = d.previous or DecisionState.PENDING
        decided = before != DecisionState.PENDING
        Proposal.objects.filter(pk=d.proposal_id).update(
            decision=before, decided_by=user if decided else None, decided_at=now if decided else None
        )
    Decision.objects.bulk_create(
        [
            Decision(
                agency=contract.agency,
                contract=contract,
                proposal_id=d.proposal_id,
                kind=Decision.Kind.UNDO,
                user=user,
                batch=batch,
                previous=current.get(d.proposal_id, ""),
            )
            for d in decisions
            if d.proposal_id not in added
        ]
    )
    Proposal.objects.filter(agency=contract.agency, contract=contract, pk__in=added).delete()
    votes = rule_votes_undo(agency=contract.agency, batch=batch)
    _audit(contract, user, "decision_undone", batch=str(batch), proposals=ids, removed=added, votes=votes)
    return ids


def _clean_boxes(contract: Contract, boxes: list[Box]) -> list[list[float]]:
    sizes = {p["number"]: (p["width"], p["height"]) for p in contract.pages}
    clean = []
    for b in boxes:
        if b.page not in sizes:
            raise ValidationError(_("The box is not on a page of this contract."), code="bad_box")
        w, h = sizes[b.page]
        x0, y0, x1, y1 = (
            max(0, min(b.x0, b.x1)),
            max(0, min(b.y0, b.y1)),
            min(w, max(b.x0, b.x1)),
            min(h, max(b.y0, b.y1)),
        )
        if x1 - x0 < 1 or y1 - y0 < 1:
            raise ValidationError(_("The box is too small."), code="bad_box")
        clean.append([b.page, round(x0, 2), round(y0, 2), round(x1, 2), round(y1, 2)])
    if not clean:
        raise ValidationError(_("Draw a box or select some text first."), code="bad_box")
    return clean


def _other_occurrences(contract: Contract, text: str, exclude: list[list[float]]) -> list[tuple[Span, list[Box], str]]:
    """Occurrences of ``text`` (any inflected form) in the contract's text layer that no
    proposal covers yet (a proposal there has its own decision) and that do not lie under
    ``exclude`` boxes: ``(span, boxes, text)``."""
    pattern = tokens(text)
    if not pattern or len(text.strip()) < 2:
        return []
    layer = contract_text_layer(contract, _read_original(contract))
    proposed = [
        Span(p.span_start, p.span_end)
        for p in selectors.proposals_for_contract(contract=contract)
        if p.span_start is not None and p.span_end is not None
    ]
    drawn = [box_from_list(b) for b in exclude]
    out = []
    for span in find_occurrences(layer.text, pattern):
        boxes = layer.span_boxes(span)
        if not boxes or any(span.overlaps(r) for r in proposed):
            continue
        if any(
            b.page == d.page and b.x0 < d.x1 and d.x0 < b.x1 and b.y0 < d.y1 and d.y0 < b.y1
            for b in boxes
            for d in drawn
        ):
            continue  # the reviewer's own selection
        out.append((span, boxes, " ".join(layer.text[span.start : span.end].split())))
    return out


@dataclass
class ManualOutcome:
    """A reviewer's own redaction: the proposal for what was drawn or selected, the other
    occurrences of the selected text it also redacted, and the batch that undoes all of it."""

    proposal: Proposal
    batch: uuid.UUID
    added: list[int]
    rules: list[int] = field(default_factory=list)


@transaction.atomic
def proposal_add_manual(
    *,
    contract: Contract,
    user: AbstractBaseUser,
    boxes: list[Box],
    text: str = "",
    from_selection: bool = False,
    propagate: bool = True,
    learn: bool = True,
) -> ManualOutcome:
    """Add a reviewer's own redaction (drawn box or selected text), accepted at once.

    ``boxes`` are in points on pages from 1. A text selection with ``propagate`` also redacts
    every other occurrence of the selected words in the contract, inflected forms included, and
    with ``learn`` votes −1 (redact) on the agency's rule for the words. Raises
    ``ValidationError`` for no box, a box off the page or a contract not in review.
    """
    _require_status(contract, Status.NEEDS_REVIEW)
    clean = _clean_boxes(contract, boxes)
    source = Source.MANUAL_TEXT if from_selection else Source.MANUAL_BOX
    batch = uuid.uuid4()
    now = timezone.now()

    def make(page_boxes: list[list[float]], snippet: str, span: Span | None = None, reason: str = "manual") -> Proposal:
        proposal = Proposal(
            agency=contract.agency,
            contract=contract,
            source=source,
            page=page_boxes[0][0],
            boxes=page_boxes,
            text=snippet[:2000],
            category_name=_("Manual redaction"),
            suggestion=Suggestion.REDACT,
            **reason_fields(Reason(reason)),
            span_start=span.start if span else None,
            span_end=span.end if span else None,
            decision=DecisionState.ACCEPTED,
            decided_by=user,
            decided_at=now,
            created_by=user,
        )
        proposal.full_clean()
        proposal.save()
        Decision.objects.create(
            agency=contract.agency, contract=contract, proposal=proposal, kind=source, user=user, batch=batch
        )
        return proposal

    proposal = make(clean, text)
    added = []
    if from_selection and text and propagate:
        for span, found, occurrence in _other_occurrences(contract, text, clean):
            other = make(
                [[b.page, round(b.x0, 2), round(b.y0, 2), round(b.x1, 2), round(b.y1, 2)] for b in found],
                occurrence,
                span,
                "manual_occurrence",
            )
            added.append(other.pk)
    rules = []
    if from_selection and text and learn:
        rule = rule_vote(
            agency=contract.agency,
            kind=PHRASE,
            pattern=text,
            value=-1,
            user=user,
            contract=contract,
            proposal=proposal,
            batch=batch,
        )
        rules = [rule.pk] if rule else []
    _audit(contract, user, source, proposal=proposal.pk, boxes=clean, text=text[:200], also=added, batch=str(batch))
    return ManualOutcome(proposal, batch, added, rules)


@transaction.atomic
def contract_approve(*, contract: Contract, user: AbstractBaseUser, ocr_pages_checked: bool = False) -> Run:
    """Approve the decisions and queue publishing (burn-in and verification).

    Raises ``ValidationError`` when proposals still need a decision, or when pages without a
    text layer (nothing on them was detected) or read by OCR with low confidence were not
    confirmed as checked by eye.
    """
    contract = Contract.objects.select_for_update().get(pk=contract.pk, agency=contract.agency)
    _require_status(contract, Status.NEEDS_REVIEW)
    open_items = selectors.proposals_open(contract=contract)
    if open_items.exists():
        raise ValidationError(_("%(n)d proposals still need a decision.") % {"n": open_items.count()}, code="undecided")
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
    contract.status, contract.approved_by, contract.approved_at, contract.error_message = (
        Status.APPROVED,
        user,
        timezone.now(),
        "",
    )
    fields = ["status", "approved_by", "approved_at", "error_message"]
    if contract.pages_needing_ocr or contract.pages_to_check:
        contract.ocr_confirmed_by = user
        fields.append("ocr_confirmed_by")
    contract.save(update_fields=fields)
    redact = selectors.proposals_for_contract(contract=contract)
    _audit(contract, user, "approved", redactions=sum(1 for p in redact if p.will_redact))
    return _start_run(contract, Run.Kind.PUBLISHING)


@transaction.atomic
def contract_retry(*, contract: Contract, user: AbstractBaseUser) -> Run:
    """Run the failed stage again (processing, or publishing of an approved contract).

    A run whose worker died (no heartbeat for ``REDACTOR_JOB_STALE_SECONDS``) is failed first.
    Raises ``ValidationError`` when nothing failed.
    """
    contract = Contract.objects.select_for_update().get(pk=contract.pk, agency=contract.agency)
    latest = selectors.run_latest(contract=contract)
    if latest is not None and selectors.run_is_stale(latest):
        Run.objects.filter(pk=latest.pk).update(
            state=Run.State.FAILED, error=_("The worker stopped responding."), finished_at=timezone.now()
        )
        contract.status = Status.FAILED
    if contract.status != Status.FAILED:
        raise ValidationError(_("Only a failed contract can be retried."), code="not_failed")
    kind = latest.kind if latest is not None else Run.Kind.PROCESSING
    contract.status = Status.APPROVED if kind == Run.Kind.PUBLISHING else Status.PROCESSING
    contract.error_message = ""
    contract.save(update_fields=["status", "error_message"])
    _audit(contract, user, "retried", stage=kind)
    return _start_run(contract, kind)


def runs_fail_stale(*, agency: Agency, contract: Contract | None = None) -> int:
    """Fail the agency's running jobs (of ``contract`` only, when given) whose worker stopped
    reporting; returns how many. Called by the contract pages so that a killed worker shows up as a failure the clerk
    can retry."""
    count = 0
    running = Run.objects.filter(agency=agency, state=Run.State.RUNNING)
    if contract is not None:
        running = running.filter(contract=contract)
    for run in running:
        if selectors.run_is_stale(run):
            run_fail(run_id=run.pk, message=_("The worker stopped responding (it may have been restarted). Retry."))
            count += 1
    return count


def contract_downloaded(*, contract: Contract, user: AbstractBaseUser, which: str) -> None:
    """Record a download of the ``redacted`` or ``original`` file in the audit trail."""
    _audit(contract, user, f"downloaded_{which}")


DELETABLE = (Status.NEEDS_REVIEW, Status.PUBLISHED, Status.FAILED)


@transaction.atomic
def contract_delete(*, contract: Contract, user: AbstractBaseUser) -> None:
    """Delete a contract's data: the original, the redacted file, the proposals and decisions
    (they hold the personal data), the extracted persons and parties, and the texts that audit
    events quoted (manual boxes, named leaks).

    The contract row stays as a tombstone (status ``deleted``, title and registry metadata) so
    that its audit trail stays complete. Raises ``ValidationError`` (``wrong_status``) while a
    job is working on it (uploaded, processing, approved).
    """
    contract = Contract.objects.select_for_update().get(pk=contract.pk, agency=contract.agency)
    _require_status(contract, *DELETABLE)
    files = [f for f in (contract.original, contract.redacted) if f]
    Proposal.objects.filter(agency=contract.agency, contract=contract).delete()  # cascades to decisions
    IdempotencyKey.objects.filter(agency=contract.agency, contract=contract).delete()
    names = [f.name for f in files]
    contract.original, contract.redacted = "", ""
    contract.persons, contract.parties, contract.verification, contract.error_message = [], [], {}, ""
    contract.ocr_pages = {}
    contract.status, contract.deleted_at, contract.deleted_by = Status.DELETED, timezone.now(), user
    contract.save(
        update_fields=[
            "original",
            "redacted",
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
    _audit(contract, user, "deleted", files=len(names))

    def remove_files() -> None:
        for f, name in zip(files, names, strict=True):
            f.storage.delete(name)

    transaction.on_commit(remove_files)


# -- webhooks -------------------------------------------------------------------------------------
def webhook_payload(*, contract: Contract, event: str, delivery_uuid: str) -> dict:
    """The JSON body of a webhook POST. Holds no personal data: ids, status and links only."""
    return {
        "id": delivery_uuid,
        "event": event,
        "created_at": timezone.now().isoformat(),
        "agency": {"id": contract.agency_id, "ico": contract.agency.ico},
        "contract": {
            "id": contract.pk,
            "title": contract.title,
            "status": contract.status,
            "url": f"/api/v1/contracts/{contract.pk}/",
        },
    }


def webhooks_notify(*, contract: Contract, event: str) -> list[WebhookDelivery]:
    """Queue a delivery of ``event`` to every active webhook of the contract's agency that asked for it.

    Runs in the caller's transaction; the deliveries are sent after it commits.
    """
    deliveries = []
    for hook in Webhook.objects.filter(agency=contract.agency, active=True):
        if event not in hook.events:
            continue
        delivery = WebhookDelivery(agency=contract.agency, webhook=hook, contract=contract, event=event, payload={})
        delivery.payload = webhook_payload(contract=contract, event=event, delivery_uuid=str(delivery.uuid))
        delivery.save()
        deliveries.append(delivery)
    for delivery in deliveries:
        _enqueue_delivery(delivery.pk)
    return deliveries


def _enqueue_delivery(delivery_id: int, delay_seconds: float = 0) -> None:
    def send() -> None:
        from datetime import timedelta

        import django_rq

        from . import jobs

        queue = django_rq.get_queue("default")
        if delay_seconds:
            queue.enqueue_in(timedelta(seconds=delay_seconds), jobs.deliver_webhook, delivery_id, job_timeout=60)
        else:
            queue.enqueue(jobs.deliver_webhook, delivery_id, job_timeout=60)

    transaction.on_commit(send)


@transaction.atomic
def webhook_create(*, agency: Agency, url: str, events: list[str], created_by: AbstractBaseUser) -> Webhook:
    """Register ``url`` for ``events`` (values of :class:`WebhookEvent`); generates the signing secret.

    Raises ``ValidationError`` for an invalid URL, a URL that is not http(s), or no or unknown events.
    """
    hook = Webhook(agency=agency, url=url, events=sorted(set(events)), created_by=created_by)
    hook.secret = secrets.token_hex(32)
    _webhook_clean(hook)
    hook.save()
    return hook


def _webhook_clean(hook: Webhook) -> None:
    from .webhooks import url_problem

    hook.full_clean()
    if not hook.events or any(e not in WebhookEvent.values for e in hook.events):
        raise ValidationError({"events": _("Choose at least one event.")})
    problem = url_problem(hook.url, resolve=False)
    if problem:
        raise ValidationError({"url": problem})


@transaction.atomic
def webhook_update(*, webhook: Webhook, url: str, events: list[str], active: bool) -> Webhook:
    """Change a webhook's URL, events or active flag. Raises ``ValidationError`` as :func:`webhook_create`."""
    webhook.url, webhook.events, webhook.active = url, sorted(set(events)), active
    _webhook_clean(webhook)
    webhook.save(update_fields=["url", "events", "active"])
    return webhook


@transaction.atomic
def webhook_delete(*, webhook: Webhook) -> None:
    """Remove a webhook and its delivery log."""
    webhook.delete()


def webhook_deliver(*, delivery_id: int) -> None:
    """Job body: POST one delivery, signed; on failure schedule the next attempt with backoff.

    Delays between attempts come from ``REDACTOR_WEBHOOK_RETRY_DELAYS`` (seconds); after the
    last one the delivery is ``failed``. A delivery that is no longer pending is left alone (a
    job may run twice).
    """
    from .webhooks import send_signed

    delivery = WebhookDelivery.objects.select_related("webhook").filter(pk=delivery_id).first()
    if delivery is None or delivery.state != WebhookDelivery.State.PENDING:
        return
    outcome = send_signed(
        url=delivery.webhook.url,
        secret=delivery.webhook.secret,
        event=delivery.event,
        delivery_uuid=str(delivery.uuid),
        payload=delivery.payload,
    )
    now = timezone.now()
    delays = settings.REDACTOR_WEBHOOK_RETRY_DELAYS
    attempts = delivery.attempts + 1
    fields = {"attempts": attempts, "last_attempt_at": now, "response_status": outcome.status, "error": outcome.error}
    if outcome.ok:
        fields.update(state=WebhookDelivery.State.DELIVERED, delivered_at=now, next_attempt_at=None)
    elif attempts > len(delays):
        fields.update(state=WebhookDelivery.State.FAILED, next_attempt_at=None)
    else:
        from datetime import timedelta

        delay = delays[attempts - 1]
        fields.update(next_attempt_at=now + timedelta(seconds=delay))
    with transaction.atomic():
        updated = WebhookDelivery.objects.filter(
            pk=delivery.pk, state=WebhookDelivery.State.PENDING, attempts=delivery.attempts
        ).update(**fields)
        if updated and not outcome.ok and attempts <= len(delays):
            _enqueue_delivery(delivery.pk, delay_seconds=delays[attempts - 1])


@transaction.atomic
def webhook_redeliver(*, delivery: WebhookDelivery) -> WebhookDelivery:
    """Send a delivery again now (a new delivery with the same payload and a new id)."""
    again = WebhookDelivery(
        agency=delivery.agency,
        webhook=delivery.webhook,
        contract=delivery.contract,
        event=delivery.event,
        payload={},
    )
    again.payload = {**delivery.payload, "id": str(again.uuid)}
    again.save()
    _enqueue_delivery(again.pk)
    return again
