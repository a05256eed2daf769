"""The processing job: extract the text layer, detect, decide with the agency's map and
rules, and store the proposals for review."""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.selectors import profile_in_force
from contracts import selectors
from contracts.models import Contract, Proposal, Run, Source, Status, Suggestion, WebhookEvent, box_to_list
from redactor.core.category_map import CategoryMap
from redactor.core.extraction import extract_text_layer
from redactor.core.ocr import OcrPage, StoredOcr
from redactor.core.rebuild import open_rebuilt
from redactor.core.rules import apply_rules
from redactor.i18n import reason_fields
from redactor.runtime import get_engine
from redactor.selectors import agency_profile, map_version_in_force, rules_in_force

from .common import audit
from .registry import registry_metadata_prefill
from .runs import run_claim, run_progress
from .webhooks import webhooks_notify

log = logging.getLogger(__name__)


def contract_text_layer(contract: Contract, data: bytes, progress=None):
    """The contract's text layer as processing saw it: born-digital text as extracted, scanned
    pages from the OCR words stored at processing (never read again, so the proposals' offsets
    stay valid). ``data`` is the original (:func:`_read_original`)."""
    stored = StoredOcr({int(n): OcrPage.from_dict(page) for n, page in (contract.ocr_pages or {}).items()})
    doc, rebuilt = open_rebuilt(data)
    try:
        return extract_text_layer(doc, rebuilt.pdf, progress=progress, ocr=stored, regions=rebuilt.regions)
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
    run = run_claim(run_id)
    if run is None:
        log.info("run %s already taken", run_id)
        return
    contract = selectors.contract_get(agency=run.agency, contract_id=run.contract_id)
    Contract.objects.filter(pk=contract.pk).update(status=Status.PROCESSING, error_message="")
    run_progress(run, "loading")
    engine = get_engine()
    if not engine.loaded:  # a worker other than contracts.worker.EngineWorker (or the CLI): load it here
        log.info("run %s: the engine is loaded in the job", run_id)
        engine.load()
    data = selectors.contract_original(contract)
    version = map_version_in_force(agency=contract.agency)
    profile_version = profile_in_force(agency=contract.agency)
    run_progress(run, "extracting")
    analysis = engine.analyze(
        data,
        category_map=CategoryMap.from_dict(version.data),
        progress=lambda done, total: run_progress(run, "extracting", done, total),
        profile=agency_profile(agency=contract.agency, version=profile_version),
    )
    pages = len(analysis.pages)
    run_progress(run, "detecting", pages, pages)
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
    profile = agency_profile(agency=contract.agency, version=profile_version)
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
                    boxes=[box_to_list(b) for b in p.boxes],
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
        if not contract.registry_record_id:  # a registered contract keeps the metadata it was registered with
            contract.registry_metadata = registry_metadata_prefill(
                contract=contract, analysis=analysis, profile=profile
            ).to_dict()
        contract.category_map, contract.map_version = analysis.category_map, version
        contract.profile_version = profile_version
        contract.status, contract.error_message = Status.NEEDS_REVIEW, ""
        contract.save(
            update_fields=[
                "pages",
                "ocr_pages",
                "parties",
                "persons",
                "registry_metadata",
                "category_map",
                "map_version",
                "profile_version",
                "status",
                "error_message",
            ]
        )
        locked.state, locked.finished_at, locked.phase = Run.State.SUCCEEDED, timezone.now(), "done"
        locked.save(update_fields=["state", "finished_at", "phase"])
        counts = {s: sum(1 for p in learned.proposals if p.action.value == s) for s in ("redact", "keep", "review")}
        audit(
            contract,
            None,
            "processed",
            pages=pages,
            ocr_pages=analysis.pages_needing_ocr,
            rules_applied=len(set(learned.rule_of.values())),
            profile_version=profile_version.number if profile_version is not None else None,
            rule_changed=learned.changed,
            rule_added=learned.added,
            **counts,
        )
        webhooks_notify(contract=contract, event=WebhookEvent.NEEDS_REVIEW)
