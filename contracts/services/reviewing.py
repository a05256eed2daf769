"""Reviewer decisions on proposals (with every occurrence of the same person or value),
undo, manual boxes, and the agency rules they teach."""

from __future__ import annotations

import datetime
import uuid
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.access import require_role
from accounts.models import Role
from contracts import selectors
from contracts.models import (
    DECISION_STATE,
    Contract,
    Decision,
    DecisionState,
    LegalGround,
    Proposal,
    Source,
    Status,
    Suggestion,
    box_from_list,
    box_to_list,
)
from contracts.selectors import EarlierPage
from policy.i18n import reason_fields
from policy.services.rules import rule_vote, rule_votes_undo, rule_votes_withdraw
from redactor import Box, Reason, Span, plain_text
from redactor import categories as cat
from redactor import rules as engine_rules

from .common import audit, require_status

#: The earliest day a trade secret can have been designated: the Commercial Code's trade secret
#: (§ 17 Act 513/1991 Sb.) came into force on 1 January 1992; § 504 Civil Code continues it.
TRADE_SECRET_SINCE = datetime.date(1992, 1, 1)


@dataclass
class DecisionOutcome:
    """What one reviewer action changed: the batch id (for undo), the proposals whose decision
    changed, every occurrence it applied to and the distinct texts of those occurrences."""

    batch: uuid.UUID
    changed: list[int]
    affected: list[int]
    forms: list[str] = field(default_factory=list)
    rules: list[int] = field(default_factory=list)


def _kind(p: Proposal) -> tuple[str, str]:
    """What makes two proposals of one cluster occurrences of each other: a person's name in any
    of its forms (given name, surname, full name: one kind), else the same category and the same
    value (letters and digits, folded). A person's cluster also holds the person's title, address,
    phone and birth number: a decision on one of them is not a decision on the others, least of
    all on the name (keeping "Ing." must not publish the name it stands before)."""
    if p.category in cat.NAME_CATEGORIES:
        return "name", ""
    return str(p.category), "".join(ch for ch in p.text.casefold() if ch.isalnum())


def _occurrences(contract: Contract, chosen: list[Proposal]) -> list[Proposal]:
    """Every proposal of ``contract`` that is an occurrence of one of ``chosen``: the same
    person's name in all its inflected forms or the same value (the engine's cluster and
    :func:`_kind`), or the same words in another inflected form ("Horní Lhota", "Horní Lhotě")."""
    everything = list(selectors.proposals_for_contract(contract=contract))
    kinds = {(p.cluster, _kind(p)) for p in chosen if p.cluster}
    phrases = [engine_rules.tokens(p.text) for p in chosen if p.text and not p.cluster.startswith("person:")]
    out = []
    for p in everything:
        if p in chosen or (p.cluster and (p.cluster, _kind(p)) in kinds):
            out.append(p)
        elif p.text and any(engine_rules.phrase_match(t, engine_rules.tokens(p.text)) for t in phrases if t):
            out.append(p)
    return out


def _names_exposed(contract: Contract, chosen: list[Proposal], targets: list[Proposal], state: str) -> list[str]:
    """The persons whose name ``state`` would no longer redact somewhere among ``targets``
    although no chosen proposal is that person's name: what a reviewer is asked before a
    decision publishes it (a phrase that matches a name, a title, an address). Their display
    names, in text order."""

    def redacted_after(p: Proposal) -> bool:
        if state == DecisionState.PENDING:
            return p.suggestion == Suggestion.REDACT
        return state == DecisionState.ACCEPTED

    named = {p.cluster for p in chosen if p.category in cat.NAME_CATEGORIES and p.cluster}
    exposed: dict[str, str] = {}
    for p in targets:
        if p.category in cat.NAME_CATEGORIES and p.will_redact and not redacted_after(p) and p not in chosen:
            key = p.cluster or p.text
            if key not in named and key not in exposed:
                person = _person_name(contract, p.cluster) if p.cluster.startswith("person:") else ""
                exposed[key] = person or " ".join(p.text.split())
    return list(exposed.values())


def _person_name(contract: Contract, cluster: str) -> str:
    """A display name for a person cluster (:func:`redactor.rules.person_display_name` of its
    full-name mentions)."""
    mentions = selectors.proposals_for_contract(contract=contract).filter(cluster=cluster, category=cat.FULL_NAME)
    return engine_rules.person_display_name([p.text for p in mentions])


def _teaches(p: Proposal, decision: str) -> bool:
    """Whether a decision on ``p`` is something the engine did not know: it decides a review
    item, overrules the suggestion, or confirms or overrules an agency rule. Confirming the
    engine's own suggestion teaches nothing (the engine will suggest the same again)."""
    if p.rule_id is not None or p.suggestion == Suggestion.REVIEW:
        return True
    return (decision == DecisionState.ACCEPTED) != (p.suggestion == Suggestion.REDACT)


#: Categories a decision never teaches a rule about: an academic title is not the person it
#: stands before (a title decided alone had made a rule about the name after it).
NOT_LEARNED = frozenset({cat.ACADEMIC_TITLE})


def _learn(contract: Contract, user, chosen: list[Proposal], decision: str, batch: uuid.UUID) -> list[int]:
    """Vote on the agency's rules for each chosen proposal that teaches something (one vote
    per person or phrase, however many occurrences the action covered); a decision that agrees
    with the engine takes back the vote this contract cast before on the same value. Only an
    "everywhere" decision comes here (:func:`proposals_decide`): "only here" says something about
    one occurrence, not about the value, and teaches nothing; nor does a decision on an academic
    title (:data:`NOT_LEARNED`)."""
    if decision not in (DecisionState.ACCEPTED, DecisionState.REJECTED):
        return []
    value = 1 if decision == DecisionState.REJECTED else -1
    seen: set[tuple[str, str]] = set()
    rules = []
    for p in chosen:
        if not p.text or p.category in NOT_LEARNED:
            continue
        category: int | None
        if p.cluster.startswith("person:") and p.category in cat.NAME_CATEGORIES:
            kind, pattern, category = engine_rules.PERSON, _person_name(contract, p.cluster), cat.FULL_NAME
        else:
            kind, pattern, category = engine_rules.PHRASE, p.text, p.category
        if not pattern or (kind, pattern.lower()) in seen:
            continue
        seen.add((kind, pattern.lower()))
        if not _teaches(p, decision):
            # the reviewer now agrees with the engine: a vote this contract cast before goes
            rule_votes_withdraw(agency=contract.agency, kind=kind, pattern=pattern, contract=contract)
            continue
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


def _chosen(contract: Contract, proposal_ids: list[int]) -> list[Proposal]:
    """The proposals ``proposal_ids`` of ``contract``. Raises ``ValidationError`` (code
    ``unknown_proposals``) naming the ids that are not its proposals (another contract's, another
    agency's or none), so that no door decides a part of what the reviewer chose."""
    chosen = list(selectors.proposals_by_ids(contract=contract, ids=proposal_ids))
    unknown = sorted(set(proposal_ids) - {p.pk for p in chosen})
    if unknown:
        raise ValidationError(
            _("These are not proposals of this contract: %(ids)s. Nothing was decided.")
            % {"ids": ", ".join(map(str, unknown[:20]))},
            code="unknown_proposals",
        )
    return chosen


@dataclass(frozen=True)
class DecisionItem:
    """One decision of a bulk request: the proposal's id, ``accept``/``reject``/``reset`` and
    whether it covers every occurrence of the proposal's person, value or phrase."""

    proposal: int
    decision: str
    same_cluster: bool = False


@transaction.atomic
def proposals_decide_many(
    *, contract: Contract, user: User, items: list[DecisionItem], learn: bool = True, confirm_names: bool = False
) -> DecisionOutcome:
    """Several decisions as one reviewer action (the API's bulk decisions): every id is checked
    first (``ValidationError`` code ``unknown_proposals`` names the ones that are not proposals of
    ``contract``), then each item is decided as :func:`proposals_decide` decides it, all in one
    transaction and one undo batch (a refusal of one, ``confirm_names`` among them, decides
    nothing). Returns the merged :class:`DecisionOutcome` (sorted ids)."""
    _chosen(contract, [item.proposal for item in items])
    batch = uuid.uuid4()
    changed: set[int] = set()
    affected: set[int] = set()
    forms: set[str] = set()
    rules: set[int] = set()
    for item in items:
        outcome = proposals_decide(
            contract=contract,
            user=user,
            proposal_ids=[item.proposal],
            decision=item.decision,
            same_cluster=item.same_cluster,
            learn=learn,
            batch=batch,
            confirm_names=confirm_names,
        )
        changed.update(outcome.changed)
        affected.update(outcome.affected)
        forms.update(outcome.forms)
        rules.update(outcome.rules)
    return DecisionOutcome(batch, sorted(changed), sorted(affected), sorted(forms), sorted(rules))


@transaction.atomic
def proposals_decide(
    *,
    contract: Contract,
    user: User,
    proposal_ids: list[int],
    decision: Decision.Kind | str,
    same_cluster: bool = False,
    learn: bool = True,
    batch: uuid.UUID | None = None,
    confirm_names: bool = False,
) -> DecisionOutcome:
    """Accept (redact), reject (keep) or reset proposals as one reviewer action: ``decision``
    is ``accept``, ``reject`` or ``reset`` (:class:`~contracts.models.Decision.Kind`, the same
    words at the web and the API door); the proposals' state becomes ``accepted``, ``rejected``
    or ``pending`` (:data:`~contracts.models.DECISION_STATE`).

    ``same_cluster`` extends the decision to every occurrence of the chosen persons, values and
    phrases in the contract, inflected forms included (see :func:`_occurrences`). A decision
    that would stop redacting a person's name the reviewer did not choose (a phrase matching it)
    raises ``ValidationError`` code ``confirm_names`` naming the persons, unless
    ``confirm_names``: the reviewer is asked first. With
    ``learn`` and ``same_cluster`` (a decision for every occurrence) an accept or reject that
    teaches something (:func:`_teaches`) votes on the agency's rules for later contracts (+1
    keep, −1 redact); a decision on one occurrence teaches nothing. The outcome's ``batch`` (new, or
    the one given to group several calls into one action) undoes it all (:func:`decision_undo`).
    Raises ``ValidationError`` when the contract is not in review, ``decision`` is unknown
    (code ``bad_decision``) or an id is not a proposal of ``contract`` (code
    ``unknown_proposals``: nothing is decided).
    """
    require_role(user, contract.agency, Role.REVIEWER)
    require_status(contract, Status.NEEDS_REVIEW)
    if decision not in DECISION_STATE:
        raise ValidationError(_("Unknown decision."), code="bad_decision")
    kind = Decision.Kind(decision)
    state = DECISION_STATE[kind]
    chosen = _chosen(contract, proposal_ids)
    targets = _occurrences(contract, chosen) if same_cluster else chosen
    exposed = [] if confirm_names else _names_exposed(contract, chosen, targets, state)
    if exposed:
        raise ValidationError(
            ngettext(
                "This decision would also publish the name of %(names)s, which is now redacted. Decide the name "
                "itself, or confirm that it is published too.",
                "This decision would also publish the names of %(names)s, which are now redacted. Decide the "
                "names themselves, or confirm that they are published too.",
                len(exposed),
            )
            % {"names": ", ".join(exposed)},
            code="confirm_names",
        )
    batch = batch or uuid.uuid4()
    changed = [p for p in targets if p.decision != state]
    now = timezone.now()
    Proposal.objects.filter(pk__in=[p.pk for p in changed]).update(decision=state, decided_by=user, decided_at=now)
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
    rules = _learn(contract, user, chosen, state, batch) if learn and same_cluster else []
    ids = [p.pk for p in changed]
    if changed or rules:
        audit(
            contract, user, f"decision_{kind}", proposals=ids, same_cluster=same_cluster, batch=str(batch), rules=rules
        )
    forms = sorted({" ".join(p.text.split()) for p in targets if p.text})
    return DecisionOutcome(batch, ids, [p.pk for p in targets], forms, rules)


@transaction.atomic
def proposals_decide_like_earlier(*, contract: Contract, user: User, page: int) -> tuple[EarlierPage, DecisionOutcome]:
    """Decide the undecided proposals of ``page`` (from 1) as they were decided on the page of
    the agency's earlier published contract that it repeats
    (:func:`~contracts.selectors.contract_repeats_elsewhere`: a price list or general terms
    attached to every contract): the same texts redacted or kept, as one reviewer action (one
    undo batch) on these occurrences only, so nothing is learned. Returns the earlier page and
    the outcome. Raises ``ValidationError`` (code ``no_repeat``) when the page repeats no earlier
    contract's page, and as :func:`proposals_decide` does."""
    require_role(user, contract.agency, Role.REVIEWER)
    earlier, accept, keep = selectors.proposals_like_earlier(contract=contract, page=page)
    if earlier is None:
        raise ValidationError(
            _("Page %(page)d repeats no page of the agency's earlier published contracts.") % {"page": page},
            code="no_repeat",
        )
    batch = uuid.uuid4()
    changed: list[int] = []
    affected: list[int] = []
    for ids, decision in ((accept, Decision.Kind.ACCEPT), (keep, Decision.Kind.REJECT)):
        if ids:
            outcome = proposals_decide(
                contract=contract, user=user, proposal_ids=ids, decision=decision, learn=False, batch=batch
            )
            changed += outcome.changed
            affected += outcome.affected
    if changed:
        audit(contract, user, "decided_like_earlier", page=page, earlier_contract=earlier.contract_id,
              earlier_page=earlier.page, proposals=sorted(changed), batch=str(batch))  # fmt: skip
    return earlier, DecisionOutcome(batch, sorted(changed), sorted(affected))


@transaction.atomic
def decision_undo(*, contract: Contract, user: User, batch: uuid.UUID) -> list[int]:
    """Undo one reviewer action: every proposal it changed goes back to its decision before,
    manual boxes it added are removed, and the rule votes it cast are taken back. Returns the
    ids of the proposals restored or removed.

    Raises ``ValidationError``: ``wrong_status`` when the contract is not in review,
    ``not_found`` for an unknown batch, ``changed_since`` when a later action changed one of
    its proposals (undo that one first).
    """
    require_role(user, contract.agency, Role.REVIEWER)
    require_status(contract, Status.NEEDS_REVIEW)
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
    audit(contract, user, "decision_undone", batch=str(batch), proposals=ids, removed=added, votes=votes)
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
        clean.append(box_to_list(Box(b.page, x0, y0, x1, y1)))
    if not clean:
        raise ValidationError(_("Draw a box or select some text first."), code="bad_box")
    return clean


def _other_occurrences(contract: Contract, text: str, exclude: list[list[float]]) -> list[tuple[Span, list[Box], str]]:
    """Occurrences of ``text`` (any inflected form) in the contract's text layer that no
    proposal covers yet (a proposal there has its own decision) and that do not lie under
    ``exclude`` boxes: ``(span, boxes, text)``."""
    pattern = engine_rules.tokens(text)
    if not pattern or len(text.strip()) < 2:
        return []
    layer = selectors.contract_text_layer(contract)
    proposed = [
        Span(p.span_start, p.span_end)
        for p in selectors.proposals_for_contract(contract=contract)
        if p.span_start is not None and p.span_end is not None
    ]
    drawn = [box_from_list(b) for b in exclude]
    out = []
    for span in engine_rules.find_occurrences(layer.text, pattern):
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
    user: User,
    boxes: list[Box],
    text: str = "",
    from_selection: bool = False,
    propagate: bool = True,
    learn: bool = True,
    legal_ground: str = LegalGround.PERSONAL_DATA,
    claimant: str = "",
    claimed_on: datetime.date | None = None,
) -> ManualOutcome:
    """Add a reviewer's own redaction (drawn box or selected text), accepted at once.

    ``boxes`` are in points on pages from 1; ``legal_ground`` is why (:class:`LegalGround`, its
    occurrences get the same; only personal data teaches the agency a rule). A trade secret is the
    counterparty's designation (§ 9 Act 106/1999 with § 504 Civil Code): ``claimant`` (who
    designated it, as the counterparty's name) and ``claimed_on`` (a day from
    :data:`TRADE_SECRET_SINCE` to today) are then required and kept with every box, in the audit
    trail, the report and the API. A text selection
    with ``propagate`` also redacts every other occurrence of the selected words in the contract,
    inflected forms included, and with ``learn`` votes −1 (redact) on the agency's rule for the
    words. Raises
    ``ValidationError`` for no box, a box off the page or a contract not in review.
    """
    require_role(user, contract.agency, Role.REVIEWER)
    require_status(contract, Status.NEEDS_REVIEW)
    if legal_ground not in LegalGround.values:
        raise ValidationError(_("Choose the legal ground of the redaction from the list."), code="invalid")
    claimant = " ".join(plain_text(claimant).split())[:200] if legal_ground == LegalGround.TRADE_SECRET else ""
    claimed_on = claimed_on if legal_ground == LegalGround.TRADE_SECRET else None
    if legal_ground == LegalGround.TRADE_SECRET and (not claimant or claimed_on is None):
        raise ValidationError(
            _("A trade secret is the counterparty's designation: say who designated it and on which day."),
            code="trade_secret_claim",
        )
    if claimed_on is not None and claimed_on > timezone.localdate():
        raise ValidationError(_("The day the trade secret was designated cannot be in the future."), code="invalid")
    if claimed_on is not None and claimed_on < TRADE_SECRET_SINCE:
        raise ValidationError(
            _("The day the trade secret was designated cannot be before %(day)s.")
            % {"day": date_format(TRADE_SECRET_SINCE, "SHORT_DATE_FORMAT")},
            code="invalid",
        )
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
            legal_ground=legal_ground,
            trade_secret_claimant=claimant,
            trade_secret_claimed_on=claimed_on,
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
                [box_to_list(b) for b in found],
                occurrence,
                span,
                "manual_occurrence",
            )
            added.append(other.pk)
    rules = []
    if from_selection and text and learn and legal_ground == LegalGround.PERSONAL_DATA:
        rule = rule_vote(
            agency=contract.agency,
            kind=engine_rules.PHRASE,
            pattern=text,
            value=-1,
            user=user,
            contract=contract,
            proposal=proposal,
            batch=batch,
        )
        rules = [rule.pk] if rule else []
    claim = {"claimant": claimant, "claimed_on": claimed_on.isoformat()} if claimed_on else {}
    audit(contract, user, source, proposal=proposal.pk, boxes=clean, text=text[:200], also=added, batch=str(batch),
          legal_ground=legal_ground, **claim)  # fmt: skip
    return ManualOutcome(proposal, batch, added, rules)
