"""The review page and the JSON endpoints its script talks to (session authentication and CSRF
like any form): proposals with reasons, decisions, manual redactions, undo, approval."""

from __future__ import annotations

import datetime
import json
import uuid

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.models import Role
from accounts.selectors import actor_name, person_behind
from accounts.web import member_required, report_error
from contracts.services import publishing, reviewing, watchdog
from policy.i18n import rule_lines
from policy.selectors import category_names, rules_for_agency

from .. import selectors
from ..forms import ApproveForm
from ..models import LegalGround, Status, box_from_list
from .pages import contract_of


def _proposal_json(p, names: dict[int, str]) -> dict:
    reason = p.reason_display()
    return {
        "id": p.pk,
        "page": p.page,
        "boxes": p.boxes,
        "text": p.text,
        "category": p.category,
        "category_name": names.get(p.category, p.own_category_name),
        "category_type": p.category_type,
        "suggestion": p.suggestion,
        "decision": p.decision,
        "redact": p.will_redact,
        "reason": reason,
        "why": rule_lines(p.rules, reason),
        "score": p.score,
        "source": p.source,
        "cluster": p.cluster,
        "party": p.party_display(),
        "rule": p.rule_id,
        "legal_ground": p.legal_ground,
        "legal_ground_label": str(p.get_legal_ground_display()),
    }


def _category_names(contract) -> dict[int, str]:
    """Category names in the interface's language, from the map version the proposals came from."""
    if contract.map_version is None:
        return {}
    czech = (get_language() or "").startswith("cs")
    return {
        n: (cs if czech else en) or en for n, (cs, en) in category_names(version_id=contract.map_version_id).items()
    }


def _review_state(contract) -> dict:
    proposals = list(selectors.proposals_for_contract(contract=contract))
    names = _category_names(contract)
    return {"status": contract.status, "proposals": [_proposal_json(p, names) for p in proposals]}


@member_required(Role.REVIEWER)
def review(request, membership, contract_id: int):
    """The review page: page images with proposal boxes, the grouped side list, approval."""
    contract = contract_of(membership, contract_id)
    if contract.status not in (
        Status.NEEDS_REVIEW,
        Status.SECOND_APPROVAL,
        Status.APPROVED,
        Status.PUBLISHED,
        Status.REGISTERED,
    ):
        return redirect("contracts:detail", agency_id=membership.agency_id, contract_id=contract.pk)
    base = reverse("contracts:detail", kwargs={"agency_id": membership.agency_id, "contract_id": contract.pk})
    deciding = contract.status in (Status.NEEDS_REVIEW, Status.SECOND_APPROVAL)
    layer = selectors.contract_document(contract).layer if contract.status == Status.NEEDS_REVIEW else None
    return render(
        request,
        "contracts/review.html",
        {
            "contract": contract,
            "membership": membership,
            "approve_form": ApproveForm(),
            "words": _review_words(),
            "editable": contract.status == Status.NEEDS_REVIEW,
            "legal_grounds": LegalGround.choices,
            # the watchdog's figure renders every page (seconds on a long scan): the page's script asks
            # for it once the page is shown (review_watchdog), so opening the page never waits for it
            "watchdog_pending": deciding,
            "second_approval": _second_approval(contract, request.user)
            if contract.status == Status.SECOND_APPROVAL
            else None,
            "config": {
                "base": base,
                "editable": contract.status == Status.NEEDS_REVIEW,
                "pages": contract.pages,
                "state": _review_state(contract),
                # {page: the earlier page it repeats}: the caption says so and offers its decisions
                "repeated": _repeated(contract, layer)
                if layer is not None and contract.status == Status.NEEDS_REVIEW
                else {},
                # {page: the page of an earlier published contract it repeats, and what its
                # decisions would decide here}
                "repeated_elsewhere": _repeated_elsewhere(membership, contract)
                if contract.status == Status.NEEDS_REVIEW
                else {},
            },
        },
    )


def _repeated(contract, layer) -> dict[str, int]:
    """The repeated pages (:func:`~contracts.selectors.contract_repeated_pages`) of the contract's
    analysed ``layer``."""
    return {str(page): earlier for page, earlier in selectors.contract_repeated_pages(contract, layer).items()}


def _repeated_elsewhere(membership, contract) -> dict[str, dict]:
    """The pages that repeat a page of the agency's earlier published contracts
    (:func:`~contracts.selectors.contract_repeats_elsewhere`): that contract's title, a link to
    its review page at that page, and how many of this page's undecided proposals its decisions
    would decide."""
    out = {}
    for page, found in selectors.contract_repeats_elsewhere(contract=contract).items():
        earlier, accept, keep = selectors.proposals_like_earlier(contract=contract, page=page, earlier=found)
        if earlier is None:
            continue
        url = reverse(
            "contracts:review", kwargs={"agency_id": membership.agency_id, "contract_id": earlier.contract_id}
        )
        out[str(page)] = {"title": earlier.title, "page": earlier.page, "url": f"{url}#page-{earlier.page}",
                          "count": len(accept) + len(keep)}  # fmt: skip
    return out


@require_POST
@member_required(Role.REVIEWER)
def review_like_earlier(request, membership, contract_id: int):
    """``{"page": n}`` → decide that page's undecided proposals as on the earlier contract's page
    it repeats (:func:`~contracts.services.reviewing.proposals_decide_like_earlier`); new state."""
    contract = contract_of(membership, contract_id)
    answer, refused = _posted(
        request,
        lambda body: reviewing.proposals_decide_like_earlier(
            contract=contract, user=request.user, page=int(body.get("page") or 0)
        ),
    )
    if refused:
        return refused
    _earlier, outcome = answer
    return _action_answer(membership, contract, outcome.changed, outcome.affected, outcome.batch, [])


def _second_approval(contract, user) -> dict:
    """What the review page says while a contract waits for the second reviewer."""
    return {
        "first_by": actor_name(contract.first_approved_by),
        "first_at": contract.first_approved_at,
        "can_approve": person_behind(user) not in publishing.approval_deciders(contract),
    }


def _watchdog_context(contract) -> dict:
    report = watchdog.watchdog_planned(contract)
    return {"watchdog": report, "watchdog_flagged": watchdog.watchdog_flagged(report), "watchdog_planned": True}


@require_GET
@member_required(Role.CLERK)
def review_watchdog(request, membership, contract_id: int):
    """The watchdog's score of the decisions as they stand (an HTML fragment the review page's
    script reloads after each decision)."""
    contract = contract_of(membership, contract_id)
    return render(request, "contracts/_watchdog.html", {"contract": contract, **_watchdog_context(contract)})


def _review_words() -> dict[str, str | dict[str, str]]:
    """The review script's words, in the interface's language (static/js/review.js reads them
    from the page through ``json_script``)."""
    return {
        "redact": _("redact"),
        "keep": _("keep"),
        "review": _("needs review"),
        "accept": _("Redact"),
        "reject": _("Keep"),
        "all": _("all occurrences"),
        "page": _("page"),
        "manual": _("Manual redaction"),
        "undo": _("Reset"),
        "toRedact": _("to redact"),
        "toKeep": _("kept"),
        "undecided": _("need a decision"),
        "noParty": _("outside party blocks"),
        "decidedRedact": _("Redacted by the reviewer"),
        "decidedKeep": _("Kept by the reviewer"),
        "changed": _("changed"),
        "onlyHere": _("only here"),
        "groupRedact": _("Redact the group's open items"),
        "groupKeep": _("Keep the group's open items"),
        "ground": _("Ground"),
        "repeats": _("repeats page"),
        "repeatsElsewhere": _("repeats page %(page)s of the earlier contract"),
        "likeEarlier": _("Decide as there"),
        "likeDone": _("Decided as on the earlier contract's page"),
        "likePage": _("Decide as on page"),
        "pageRedact": _("Redact the page's open items"),
        "pageKeep": _("Keep the page's open items"),
        "redacted": _("Redacted"),
        "kept": _("Kept"),
        "reset": _("Back to the suggestion"),
        # "%(n)s occurrences" by the plural category Intl.PluralRules gives n (Czech: 1, 2–4, 5+)
        "occurrences": {
            "one": ngettext("%(n)s occurrence", "%(n)s occurrences", 1),
            "few": ngettext("%(n)s occurrence", "%(n)s occurrences", 2),
            "other": ngettext("%(n)s occurrence", "%(n)s occurrences", 5),
        },
        "undoAction": _("Undo"),
        "undone": _("Undone"),
        "ruleLearned": _("Agency rule"),
        "why": _("why?"),
        "sawWords": _("seen: “%(words)s”"),
        "decisions": _("decisions"),
    }


def _refused(exc: Exception) -> JsonResponse:
    """A 400 answer for the review page's scripts, with the message the reviewer sees: the
    service's own sentence, or for a body of the wrong shape (a value of the wrong type, an id
    that is no number) one sentence of ours, never Python's exception text."""
    if isinstance(exc, ValidationError):
        return JsonResponse({"message": " ".join(exc.messages), "code": exc.code or "invalid"}, status=400)
    return JsonResponse({"message": _("The request is not valid: a value has the wrong type or form.")}, status=400)


def _posted(request, act):
    """``(act(body), None)`` for the request's JSON object ``body``, or ``(None, a 400 answer)``
    when the body or the service refuses (bad JSON, a wrong type, a rule of the operation)."""
    try:
        return act(_json_body(request)), None
    except (ValidationError, TypeError, ValueError, IndexError) as exc:
        return None, _refused(exc)


def _json_body(request) -> dict:
    try:
        body = json.loads(request.body or b"{}")
    except (ValueError, RecursionError):  # RecursionError: nested deeper than Python reads
        raise ValidationError(_("The request is not valid JSON.")) from None
    if not isinstance(body, dict):
        raise ValidationError(_("The request is not valid JSON."))
    return body


@require_GET
@member_required(Role.REVIEWER)
def review_state(request, membership, contract_id: int):
    """All proposals of the contract with their decisions (JSON)."""
    return JsonResponse(_review_state(contract_of(membership, contract_id)))


@require_POST
@member_required(Role.REVIEWER)
def review_decide(request, membership, contract_id: int):
    """``{"ids": [...], "decision": "accept"|"reject"|"reset", "same_cluster": bool, "learn": bool,
    "confirm_names": bool}`` → new state plus what the action did: ``changed``, ``affected``
    (every occurrence it covered), ``forms`` (their texts), ``batch`` (for undo) and ``rules``
    (rules it voted on); 400 with ``code`` ``confirm_names`` and the question when it would
    publish a name nobody chose."""
    contract = contract_of(membership, contract_id)
    outcome, refused = _posted(
        request,
        lambda body: reviewing.proposals_decide(
            contract=contract,
            user=request.user,
            proposal_ids=[int(i) for i in body.get("ids", [])],
            decision=str(body.get("decision")),
            same_cluster=bool(body.get("same_cluster")),
            learn=bool(body.get("learn", True)),
            confirm_names=body.get("confirm_names") is True,
        ),
    )
    if refused:
        return refused
    return _action_answer(
        membership, contract, outcome.changed, outcome.affected, outcome.batch, outcome.rules, outcome.forms
    )


def _action_answer(membership, contract, changed, affected, batch, rules, forms=None) -> JsonResponse:
    """What a reviewer action did (``changed`` and ``affected`` proposal ids, the undo
    ``batch``, the ``rules`` it voted on with what the reviewer is told about them, the
    ``forms`` it covered) plus the new state."""
    labels = {"keep": _("keep"), "redact": _("redact"), "review": _("needs review")}
    rule_info = [
        {"id": r.pk, "pattern": r.pattern, "action": labels[r.action], "decisions": r.decisions}
        for r in rules_for_agency(agency=membership.agency).filter(pk__in=rules)
    ]
    answer = {"changed": changed, "affected": affected, "batch": str(batch), "rules": rules, "rule_info": rule_info}
    if forms is not None:
        answer["forms"] = forms
    return JsonResponse({**answer, **_review_state(contract)})


@require_POST
@member_required(Role.REVIEWER)
def review_undo(request, membership, contract_id: int):
    """``{"batch": "<uuid>"}`` → undo that reviewer action (decisions, added boxes, rule votes); new state."""
    contract = contract_of(membership, contract_id)
    restored, refused = _posted(
        request,
        lambda body: reviewing.decision_undo(
            contract=contract, user=request.user, batch=uuid.UUID(str(body.get("batch")))
        ),
    )
    if refused:
        return refused
    return JsonResponse({"restored": restored, **_review_state(contract)})


def _day(value) -> datetime.date | None:
    """An ISO date posted by the review page (empty: None). Raises ``ValidationError``."""
    if not value:
        return None
    try:
        return datetime.date.fromisoformat(str(value))
    except ValueError:
        raise ValidationError(_("Give the day as a date."), code="invalid") from None


@require_POST
@member_required(Role.REVIEWER)
def review_manual(request, membership, contract_id: int):
    """``{"boxes": [[page, x0, y0, x1, y1], ...], "text": "...", "selection": bool}`` (points) → new state."""
    contract = contract_of(membership, contract_id)
    outcome, refused = _posted(
        request,
        lambda body: reviewing.proposal_add_manual(
            contract=contract,
            user=request.user,
            boxes=[box_from_list(b) for b in body.get("boxes", [])],
            text=str(body.get("text", "")),
            from_selection=bool(body.get("selection")),
            learn=bool(body.get("learn", True)),
            legal_ground=str(body.get("ground") or LegalGround.PERSONAL_DATA),
            claimant=str(body.get("claimant") or ""),
            claimed_on=_day(body.get("claimed_on")),
        ),
    )
    if refused:
        return refused
    ids = [outcome.proposal.pk, *outcome.added]
    return _action_answer(membership, contract, ids, ids, outcome.batch, outcome.rules)


@require_POST
@member_required(Role.REVIEWER)
def contract_approve(request, membership, contract_id: int):
    """Approve the decisions and start publishing."""
    contract = contract_of(membership, contract_id)
    form = ApproveForm(request.POST)
    form.is_valid()
    try:
        run = publishing.contract_approve(
            contract=contract, user=request.user, ocr_pages_checked=form.cleaned_data.get("ocr_pages_checked", False)
        )
    except ValidationError as exc:
        report_error(request, exc)
        return redirect("contracts:review", agency_id=membership.agency_id, contract_id=contract.pk)
    if run is None:
        messages.success(request, _("Approved. A second reviewer of the agency approves before it is published."))
    else:
        messages.success(request, _("Approved. The redacted PDF is being produced and verified."))
    return redirect("contracts:detail", agency_id=membership.agency_id, contract_id=contract.pk)


@require_POST
@member_required(Role.REVIEWER)
def contract_return(request, membership, contract_id: int):
    """The second reviewer sends the contract back to review, saying why."""
    contract = contract_of(membership, contract_id)
    try:
        publishing.contract_return(contract=contract, user=request.user, reason=request.POST.get("reason", ""))
    except ValidationError as exc:
        report_error(request, exc)
        return redirect("contracts:review", agency_id=membership.agency_id, contract_id=contract.pk)
    messages.success(request, _("Returned to review."))
    return redirect("contracts:detail", agency_id=membership.agency_id, contract_id=contract.pk)
