"""The processing job: extract the text layer, detect, decide with the agency's map and
rules, and store the proposals for review."""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass

from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import ProfileVersion
from accounts.selectors import profile_in_force
from contracts import selectors
from contracts.models import Contract, Proposal, Run, Source, Status, Suggestion, WebhookEvent, box_to_list
from contracts.signals import contract_processed
from policy.i18n import reason_fields
from policy.models import MapVersion
from policy.runtime import get_engine
from policy.selectors import agency_profile, map_version_in_force, rules_in_force
from redactor import AgencyProfile, Analysis, CategoryMap, JobProgress, ProposedRedaction, Step, StoredDocument, review
from redactor import rules as engine_rules

from .common import audit
from .files import delete_after_commit
from .runs import run_progress, run_tracker
from .webhooks import webhooks_notify

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Written:
    """The two files of a stored document, written and not yet named by the contract: their
    storage names and hashes."""

    analysed: str
    analysed_sha256: str
    rebuilt: str
    rebuilt_sha256: str


def _write_document(contract: Contract, document: StoredDocument) -> _Written:
    """Write ``document``'s two files (the layer with the rebuild's report and the looks, and the
    rebuilt PDF) under new names; the contract names them when its row is saved. Storage is slow
    and rows are not: this runs before the transaction."""
    layer_bytes, pdf = document.layer_bytes(), document.pdf
    analysed_field, rebuilt_field = contract.analysed, contract.rebuilt
    analysed = analysed_field.storage.save(
        analysed_field.field.generate_filename(contract, "analysed.layer"), ContentFile(layer_bytes)
    )
    rebuilt = rebuilt_field.storage.save(
        rebuilt_field.field.generate_filename(contract, "rebuilt.pdf"), ContentFile(pdf)
    )
    return _Written(analysed, hashlib.sha256(layer_bytes).hexdigest(), rebuilt, hashlib.sha256(pdf).hexdigest())


def _forget(contract: Contract, written: _Written) -> None:
    """Delete ``written`` after the transaction (a run that lost its claim stores nothing)."""
    storage = contract.analysed.storage
    delete_after_commit([(storage, written.analysed), (storage, written.rebuilt)])


def _name_document(contract: Contract, written: _Written) -> list[str]:
    """Let ``contract`` name the ``written`` files (the ones it named before are deleted after
    the commit); returns the fields to save."""
    storage = contract.analysed.storage
    previous = [f.name for f in (contract.analysed, contract.rebuilt) if f.name]
    stale = [name for name in previous if name not in (written.analysed, written.rebuilt)]
    if stale:
        delete_after_commit([(storage, name) for name in stale])
    contract.analysed.name, contract.analysed_format = written.analysed, StoredDocument.FORMAT
    contract.analysed_sha256 = written.analysed_sha256
    contract.rebuilt.name, contract.rebuilt_sha256 = written.rebuilt, written.rebuilt_sha256
    return ["analysed", "analysed_format", "analysed_sha256", "rebuilt", "rebuilt_sha256"]


def contract_document_store(*, contract: Contract) -> bool:
    """Store the document of a contract processed before documents were stored (or whose stored
    files were damaged): :func:`contracts.selectors.contract_document` builds it from the
    original, the layer stored then or the OCR words stored then (the proposals' offsets stay
    valid); its two files are written and named by the contract. Returns False, storing
    nothing, for a contract whose document is stored already, or that has no analysis (not
    processed yet, deleted). Raises ``InvalidPdfError`` for a damaged original."""
    if not contract.original or not contract.pages:
        return False
    if contract.analysed_format == StoredDocument.FORMAT and contract.rebuilt and contract.rebuilt_sha256:
        return False
    document = selectors.contract_document(contract)
    written = _write_document(contract, document)
    with transaction.atomic():
        locked = Contract.objects.select_for_update().get(pk=contract.pk)
        if locked.status == Status.PROCESSING or locked.analysed.name != contract.analysed.name:
            _forget(contract, written)  # processed again meanwhile: that run stored its own
            return False
        fields = _name_document(locked, written)
        locked.save(update_fields=fields)
        audit(locked, None, "document_stored", pages=document.page_count)
    return True


def _party_fields(party) -> dict:
    """The proposal's party: its English label (API, exports) and the structured form the review
    page renders in the interface's language."""
    if party is None:
        return {"party": "", "party_who": {}}
    return {"party": party.describe(), "party_who": party.who()}


def contract_process(*, run: Run) -> None:
    """Job body: extract, detect and store the proposals of the contract of ``run``, a run
    claimed by this execution (:func:`~contracts.services.runs.run_take` or
    :func:`~contracts.services.runs.run_claim`).

    A run that stopped running meanwhile (failed as stale) stores nothing. Raises whatever the
    engine raises; the job wrapper turns it into a failed run.
    """
    contract = selectors.contract_get(agency=run.agency, contract_id=run.contract_id)
    Contract.objects.filter(pk=contract.pk).update(status=Status.PROCESSING, error_message="")
    inputs = _inputs(contract)
    tracker = run_tracker(run)
    analysis = _analyse(run, contract, inputs, tracker)
    tracker.start(Step.STORING)
    learned = _with_agency_rules(contract, analysis, inputs.cmap)
    assert analysis.document is not None  # RedactionEngine.analyze always gives it
    written = _write_document(contract, analysis.document)
    with transaction.atomic():
        locked = Run.objects.select_for_update().get(pk=run.pk)
        if locked.state != Run.State.RUNNING:
            _forget(contract, written)
            return
        _store(contract, analysis, learned, inputs, written)
        locked.state, locked.finished_at, locked.phase = Run.State.SUCCEEDED, timezone.now(), Run.Phase.DONE
        locked.save(update_fields=["state", "finished_at", "phase"])
        counts = {s: sum(1 for p in learned.proposals if p.action.value == s) for s in ("redact", "keep", "review")}
        audit(
            contract,
            None,
            "processed",
            pages=len(analysis.pages),
            ocr_pages=analysis.pages_needing_ocr,
            rules_applied=len(set(learned.rule_of.values())),
            profile_version=inputs.profile_version.number if inputs.profile_version is not None else None,
            rule_changed=learned.changed,
            rule_added=learned.added,
            **counts,
        )
        if analysis.covered:
            audit(contract, None, "earlier_redaction_found", pages=sorted({b.page for b in analysis.covered}),
                  boxes=len(analysis.covered))  # fmt: skip
        webhooks_notify(contract=contract, event=WebhookEvent.NEEDS_REVIEW)


@dataclass(frozen=True)
class _Inputs:
    """What one processing run analyses with: the original, the agency's map in force (its
    version row and the engine's map built once) and its profile in force."""

    data: bytes
    version: MapVersion
    cmap: CategoryMap
    profile_version: ProfileVersion | None
    profile: AgencyProfile | None


def _inputs(contract: Contract) -> _Inputs:
    version = map_version_in_force(agency=contract.agency)
    profile_version = profile_in_force(agency=contract.agency)
    return _Inputs(
        data=selectors.contract_original(contract),
        version=version,
        cmap=CategoryMap.from_dict(version.data),
        profile_version=profile_version,
        profile=agency_profile(agency=contract.agency, version=profile_version),
    )


def _analyse(run: Run, contract: Contract, inputs: _Inputs, tracker: JobProgress) -> Analysis:
    """The engine's analysis of the original with the agency's map and profile, its steps
    followed by ``tracker`` (which records them on ``run``)."""
    engine = get_engine()
    if not engine.loaded:  # a worker other than contracts.worker.EngineWorker (or the CLI): load it here
        run_progress(run, Run.Phase.LOADING)
        log.info("run %s: the engine is loaded in the job", run.pk)
        engine.load()
    return engine.analyze(inputs.data, category_map=inputs.cmap, progress=tracker, profile=inputs.profile)


def _with_agency_rules(contract: Contract, analysis: Analysis, cmap: CategoryMap) -> engine_rules.RuleOutcome:
    """The proposals after the agency's rules in force when the contract was uploaded; a
    proposal a rule added is named by its category in the map in force."""
    rules = rules_in_force(agency=contract.agency, before=contract.created_at)
    learned = engine_rules.apply_rules(
        [r.as_core() for r in rules], analysis.text_layer.text, analysis.proposals, analysis.text_layer.span_boxes
    )
    for p in learned.proposals:
        if not p.category_name:  # added by a rule: name its category from the map in force
            rule = cmap.rule(p.category)
            p.category_name = rule.name_en if rule else _("Agency rule")
            p.category_type = rule.type if rule else "rule"
    return learned


def proposal_row(contract: Contract, p: ProposedRedaction, *, source: str, **fields: object) -> Proposal:
    """An engine proposal ``p`` as a row of ``contract`` (not saved), from ``source``, its
    suggestion the proposal's action; ``fields`` add or override the row's fields."""
    row: dict[str, object] = {
        "agency": contract.agency,
        "contract": contract,
        "source": source,
        "page": p.page,
        "boxes": [box_to_list(b) for b in p.boxes],
        "text": p.text,
        "category": p.category,
        "category_name": p.category_name,
        "category_type": p.category_type,
        "suggestion": Suggestion(p.action.value),
        "score": p.score,
        **reason_fields(p.reason),
        "recognizer": p.recognizer,
        "rules": list(p.rules),
    }
    return Proposal(**{**row, **fields})


def _proposal_rows(contract: Contract, analysis: Analysis, learned: engine_rules.RuleOutcome) -> list[Proposal]:
    """The engine's proposals as rows, each with the party whose block it stands in."""
    party_of = {(block.start, block.end): party for party in analysis.parties for block in party.blocks}
    return [
        proposal_row(
            contract,
            p,
            source=Source.ENGINE,
            span_start=p.span.start,
            span_end=p.span.end,
            cluster=p.cluster or "",
            **_party_fields(next((pa for (s, e), pa in party_of.items() if s <= p.span.start < e), None)),
            rule_id=learned.rule_of.get(p.id),
        )
        for p in learned.proposals
    ]


def _store(
    contract: Contract, analysis: Analysis, learned: engine_rules.RuleOutcome, inputs: _Inputs, written: _Written
) -> None:
    """Replace the engine's proposals and store what review and publishing need: the pages, the
    stored document (``written``: its files, already written; those of an earlier run are
    deleted after the commit), the OCR words, parties, persons, the map and profile versions;
    the contract is then in review, and :data:`contracts.signals.contract_processed` tells the
    apps above (the registry pre-fills its metadata) in the same transaction."""
    document_fields = _name_document(contract, written)
    Proposal.objects.filter(contract=contract, source=Source.ENGINE).delete()
    Proposal.objects.bulk_create(_proposal_rows(contract, analysis, learned))
    summary = analysis.to_dict()
    contract.pages = summary["pages"]
    contract.ocr_pages = {str(n): page.to_dict() for n, page in analysis.text_layer.ocr_pages.items()}
    contract.parties, contract.persons = summary["parties"], summary["persons"]
    contract.earlier_redactions = summary["covered"]
    contract.page_signatures = {str(n): sig for n, sig in review.page_signatures(analysis.text_layer).items()}
    contract.category_map, contract.map_version = analysis.category_map, inputs.version
    contract.profile_version = inputs.profile_version
    contract.status, contract.error_message = Status.NEEDS_REVIEW, ""
    contract.save(
        update_fields=[
            "pages",
            *document_fields,
            "ocr_pages",
            "parties",
            "persons",
            "earlier_redactions",
            "page_signatures",
            "category_map",
            "map_version",
            "profile_version",
            "status",
            "error_message",
        ]
    )
    contract_processed.send(sender=Contract, contract=contract, analysis=analysis, profile=inputs.profile)
