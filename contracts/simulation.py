"""A reviewer simulation: one agency processes the development set contract after contract, and a
simulated reviewer corrects each one from its gold file; rules learned from one contract decide
proposals of the next ones.

Everything runs through the product's own services (upload, processing with the agency's
rules, decisions with propagation and learning, manual text selection, approval, burn-in and
verification) inside one database transaction that is rolled back at the end, with files in
a temporary directory: nothing stays behind.

The simulated reviewer follows the gold file (format: ``../shared/data/README.md``):

- a proposal that needs review is decided: redact when it holds a gold ``redact`` string,
  keep otherwise (the gold file lists every personal datum of the document);
- a suggestion that contradicts the gold file is overruled (a ``keep`` string suggested for
  redaction, a ``redact`` string suggested to keep); strings in neither list are left as suggested;
- a gold ``redact`` string with an occurrence nothing redacts is selected as text (a manual
  redaction, which also redacts its other occurrences).

Each of those is one *reviewer action* (a click; decisions propagate to every occurrence).
Occurrence-level clicks (what the action count would be without propagation) are counted too.
A *rule error* is a proposal an agency rule decided against the gold file: what would leak
or be over-redacted if the reviewer trusted the rule.
"""

from __future__ import annotations

import json
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.test import override_settings

from accounts.models import Agency, Membership, Role, validate_ico
from policy.selectors import map_version_in_force
from policy.services import maps as map_services
from redactor import Box, Span, count_word, normalize

from . import selectors
from .models import Decision, DecisionState, Proposal, Run, Source, Suggestion
from .services import processing, publishing, reviewing, runs, uploads


@dataclass
class DocumentResult:
    """One simulated contract: the reviewer's actions and what the agency rules did."""

    name: str
    proposals: int = 0
    review_items: int = 0
    decided_review: int = 0
    overruled: int = 0
    manual: int = 0
    occurrence_clicks: int = 0
    rule_decided: int = 0
    rule_added: int = 0
    rule_errors: int = 0
    rules_after: int = 0
    published: bool = False
    problems: list[str] = field(default_factory=list)

    @property
    def actions(self) -> int:
        """Reviewer actions (clicks) the contract needed."""
        return self.decided_review + self.overruled + self.manual


@dataclass
class SimulationResult:
    """Every contract in processing order, with the published files' directory."""

    documents: list[DocumentResult]
    out_dir: Path | None = None


def simulation_order(gold_dir: Path, order: str = "round", names: list[str] | None = None) -> list[Path]:
    """The gold directory's PDFs in processing order: ``round`` takes the first contract of each
    kind, then the second of each kind... (``kupni_auto_1``, ``pacht_1``, ..., ``kupni_auto_2``);
    ``kind`` takes all contracts of one kind before the next; ``names`` keeps only those stems."""
    pdfs = [p for p in sorted(gold_dir.glob("*.pdf")) if (gold_dir / f"{p.stem}.json").exists()]
    if names:
        pdfs = [p for p in pdfs if p.stem in names]

    def split(p: Path) -> tuple[str, int]:
        m = re.match(r"(.+?)_(\d+)$", p.stem)
        return (m.group(1), int(m.group(2))) if m else (p.stem, 0)

    if order == "round":
        return sorted(pdfs, key=lambda p: (split(p)[1], split(p)[0]))
    return sorted(pdfs, key=split)


def _holds(text: str, item: str) -> bool:
    a, b = normalize(text), normalize(item)
    return bool(a and b) and (a == b or count_word(a, b) > 0 or count_word(b, a) > 0)


class GoldReviewer:
    """Decides like the gold file says (module docstring)."""

    def __init__(self, gold: dict):
        self.redact = [i["text"] for i in gold["items"] if i["expected"] == "redact"]
        self.keep = [i["text"] for i in gold["items"] if i["expected"] == "keep"]

    def wants_redacted(self, text: str) -> bool:
        """True when ``text`` holds (or is part of) a string the gold file redacts."""
        return any(_holds(text, item) for item in self.redact)

    def wants_kept(self, text: str) -> bool:
        """True when ``text`` is a string the gold file keeps (and holds nothing it redacts)."""
        return not self.wants_redacted(text) and any(_holds(text, item) for item in self.keep)


def _agency(label: str) -> Agency:
    for n in range(10_000_000, 10_100_000):
        ico = f"{n:08d}"
        try:
            validate_ico(ico)
        except ValidationError:  # not a valid IČO, try the next number
            continue
        if not Agency.objects.filter(ico=ico).exists():
            return Agency.objects.create(name=label, ico=ico)
    raise RuntimeError("no free IČO for the simulated agency")


def _all_primary(agency: Agency, user) -> None:
    """Publish an agency map where every category is primary and no role exception applies."""
    data = json.loads(json.dumps(map_version_in_force(agency=agency).data))
    for row in data["categories"]:
        row["type"] = "primary"
        row["depends_on"] = []
    data["role_exceptions"] = []
    data["holder_overrides"] = []
    map_services.map_import(agency=agency, user=user, data=data)
    map_services.map_publish(agency=agency, user=user, note="simulation: every category primary")


def _uncovered(layer_text: str, item: str, redacted: list[Span]) -> list[Span]:
    """Whole-word occurrences of ``item`` in the text that no redacted span covers."""
    pattern = r"(?<!\w)" + r"\s+".join(re.escape(part) for part in item.split()) + r"(?!\w)"
    out = []
    for m in re.finditer(pattern, layer_text):
        span = Span(m.start(), m.end())
        if not any(r.start <= span.start and span.end <= r.end for r in redacted):
            out.append(span)
    return out


def _review(contract, reviewer: GoldReviewer, user, learn: bool, result: DocumentResult) -> None:
    """The simulated reviewer's pass over one contract (module docstring)."""
    proposals = list(Proposal.objects.filter(contract=contract).order_by("page", "id"))
    result.proposals = len(proposals)
    result.review_items = sum(1 for p in proposals if p.suggestion == Suggestion.REVIEW)
    for p in proposals:
        if p.rule_id is not None:
            result.rule_decided += 1
            result.rule_added += p.recognizer == "agency_rule"
            wrong = (p.suggestion == Suggestion.KEEP and reviewer.wants_redacted(p.text)) or (
                p.suggestion == Suggestion.REDACT and reviewer.wants_kept(p.text)
            )
            result.rule_errors += wrong
    for p in proposals:
        p.refresh_from_db()
        if p.decision != DecisionState.PENDING:
            continue  # decided by an earlier click on another occurrence
        if p.suggestion == Suggestion.REVIEW:
            decision = Decision.Kind.ACCEPT if reviewer.wants_redacted(p.text) else Decision.Kind.REJECT
            bucket = "decided_review"
        elif p.suggestion == Suggestion.REDACT and reviewer.wants_kept(p.text):
            decision, bucket = Decision.Kind.REJECT, "overruled"
        elif p.suggestion == Suggestion.KEEP and reviewer.wants_redacted(p.text):
            decision, bucket = Decision.Kind.ACCEPT, "overruled"
        else:
            continue
        outcome = reviewing.proposals_decide(
            contract=contract, user=user, proposal_ids=[p.pk], decision=decision, same_cluster=True, learn=learn
        )
        setattr(result, bucket, getattr(result, bucket) + 1)
        result.occurrence_clicks += len(outcome.affected)
    # missed strings: select one occurrence as text; propagation takes the others
    layer = selectors.contract_text_layer(contract)
    for item in reviewer.redact:
        redacted = [
            Span(p.span_start, p.span_end)
            for p in Proposal.objects.filter(contract=contract)
            if p.will_redact and p.span_start is not None and p.span_end is not None
        ]
        missing = _uncovered(layer.text, item, redacted)
        if not missing:
            continue
        boxes = layer.span_boxes(missing[0])
        if not boxes:
            result.problems.append(f"cannot select {item!r}: no boxes")
            continue
        manual = reviewing.proposal_add_manual(
            contract=contract,
            user=user,
            boxes=[Box(b.page, b.x0, b.y0, b.x1, b.y1) for b in boxes],
            text=layer.text[missing[0].start : missing[0].end],
            from_selection=True,
            learn=learn,
        )
        result.manual += 1
        result.occurrence_clicks += 1 + len(manual.added)


def _storage_in(folder: str) -> override_settings:
    """The simulation's files on local disk in ``folder``, whatever storage the service uses (its
    transaction is rolled back, so nothing may stay in a shared bucket either)."""
    local = {"BACKEND": "django.core.files.storage.FileSystemStorage", "OPTIONS": {"location": folder}}
    return override_settings(MEDIA_ROOT=folder, STORAGES={**settings.STORAGES, "default": local})


def _claimed(run_id: int) -> Run:
    """The simulation's own queued run ``run_id``, claimed to run here (no worker sees it: the
    simulation runs in one transaction)."""
    run = runs.run_claim(run_id)
    if run is None:
        raise RuntimeError(f"run {run_id} is not queued")
    return run


def simulate(
    gold_dir: Path,
    *,
    learn: bool = True,
    order: str = "round",
    names: list[str] | None = None,
    all_primary: bool = False,
    out_dir: Path | None = None,
    progress=None,
) -> SimulationResult:
    """Run the simulation over ``gold_dir`` (module docstring); nothing stays in the database.

    ``learn=False`` is the baseline without rules. ``all_primary`` gives the agency a map where
    every category is primary (a plain detector that knows no context). Published PDFs are
    written to ``out_dir`` as ``<name>.pdf`` when given. ``progress(DocumentResult)`` is called
    after each contract.
    """
    results: list[DocumentResult] = []
    with tempfile.TemporaryDirectory() as media, _storage_in(media), transaction.atomic():
        agency = _agency("Simulace – učení z revizí")
        user = get_user_model().objects.create_user(f"sim-reviewer-{agency.pk}", password=None)
        Membership.objects.create(user=user, agency=agency, role=Role.ADMIN)
        if all_primary:
            _all_primary(agency, user)
        for pdf in simulation_order(gold_dir, order, names):
            gold = json.loads((gold_dir / f"{pdf.stem}.json").read_text(encoding="utf-8"))
            result = DocumentResult(pdf.stem)
            contract = uploads.contract_upload(
                agency=agency, user=user, data=pdf.read_bytes(), filename=pdf.name, title=pdf.stem
            )
            run = Run.objects.get(contract=contract, kind=Run.Kind.PROCESSING)
            processing.contract_process(run=_claimed(run.pk))
            contract.refresh_from_db()
            _review(contract, GoldReviewer(gold), user, learn, result)
            publish = publishing.contract_approve(contract=contract, user=user, ocr_pages_checked=True)
            if publish is None:  # the agency requires four eyes: the simulation has one reviewer
                raise ValidationError(f"{agency.name} requires a second reviewer approval; simulate another agency")
            publishing.contract_publish(run=_claimed(publish.pk))
            contract.refresh_from_db()
            result.published = contract.status in ("published", "registered")
            if not result.published:
                result.problems.append(contract.error_message)
            elif out_dir is not None:
                out_dir.mkdir(parents=True, exist_ok=True)
                with contract.redacted.open("rb") as fh:
                    (out_dir / pdf.name).write_bytes(fh.read())
                proposals = [
                    {"text": p.text, "category_name": p.category_name}
                    for p in Proposal.objects.filter(contract=contract)
                    if p.will_redact and p.source == Source.ENGINE
                ]
                (out_dir / f"{pdf.stem}.json").write_text(json.dumps({"proposals": proposals}), encoding="utf-8")
            result.rules_after = agency.rules.count()
            results.append(result)
            if progress:
                progress(result)
        transaction.set_rollback(True)
    return SimulationResult(results, out_dir)
