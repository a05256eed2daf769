"""The review of a contract through the API (reviewer): its proposals, bulk decisions and their
undo, manual redactions, approval. Each view calls the same services as the review page."""

from __future__ import annotations

from django.core.exceptions import ValidationError as DomainError
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response

from accounts.models import Role
from contracts import selectors
from contracts.models import box_from_list
from contracts.services import publishing, reviewing

from . import serializers as s
from .base import AgencyAPIView, contract_response
from .openapi import CONTRACT_ID, ERROR_EXAMPLE, RETRY_AFTER, errors


class ProposalListView(AgencyAPIView):
    required_role = Role.REVIEWER

    @extend_schema(
        operation_id="contracts_proposals_list",
        summary="Proposed redactions with their reasons (reviewer)",
        parameters=[CONTRACT_ID],
        responses={200: s.ProposalSerializer(many=True), **errors(404)},
    )
    def get(self, request, contract_id: int):
        contract = self.get_contract(contract_id)
        proposals = selectors.proposals_for_contract(contract=contract).select_related("decided_by__api_token", "rule")
        return Response(s.ProposalSerializer(proposals, many=True).data)


class DecisionsView(AgencyAPIView):
    required_role = Role.REVIEWER

    @extend_schema(
        operation_id="contracts_decisions_create",
        summary="Decide proposals in bulk (reviewer)",
        description="All decisions apply together or none does. `accept` redacts, `reject` keeps, "
        "`reset` returns to the engine's suggestion.",
        parameters=[CONTRACT_ID],
        request=s.DecisionsSerializer,
        responses={200: s.DecisionsResultSerializer, **errors(400, 404, 409)},
        examples=[
            OpenApiExample(
                "Accept two, keep one",
                value={
                    "decisions": [
                        {"proposal": 11, "decision": "accept", "same_cluster": True},
                        {"proposal": 12, "decision": "accept"},
                        {"proposal": 15, "decision": "reject"},
                    ]
                },
                request_only=True,
            )
        ],
    )
    def post(self, request, contract_id: int):
        contract = self.get_contract(contract_id)
        form = s.DecisionsSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        items = [
            reviewing.DecisionItem(item["proposal"], item["decision"], item["same_cluster"])
            for item in form.validated_data["decisions"]
        ]
        outcome = reviewing.proposals_decide_many(
            contract=contract,
            user=request.user,
            items=items,
            learn=form.validated_data["learn"],
            confirm_names=form.validated_data["confirm_names"],
        )
        pending = selectors.proposals_open(contract=contract).count()
        return Response(
            {
                "changed": outcome.changed,
                "affected": outcome.affected,
                "pending": pending,
                "batch": str(outcome.batch),
                "rules": outcome.rules,
            }
        )


class DecisionUndoView(AgencyAPIView):
    required_role = Role.REVIEWER

    @extend_schema(
        operation_id="contracts_decisions_undo",
        summary="Undo one decisions request (reviewer)",
        description="Every proposal the request changed goes back to its earlier decision and the "
        "votes it cast on agency rules are taken back. 409 when the contract is no longer in review or "
        "a later request changed the same proposals (undo that one first).",
        parameters=[CONTRACT_ID, OpenApiParameter("batch", OpenApiTypes.UUID, OpenApiParameter.PATH)],
        request=None,
        responses={200: s.UndoResultSerializer, **errors(404, 409)},
    )
    def post(self, request, contract_id: int, batch):
        contract = self.get_contract(contract_id)
        try:
            restored = reviewing.decision_undo(contract=contract, user=request.user, batch=batch)
        except DomainError as exc:
            if exc.code == "not_found":
                raise NotFound(exc.messages[0]) from None
            raise
        pending = selectors.proposals_open(contract=contract).count()
        return Response({"restored": restored, "pending": pending})


class ManualRedactionView(AgencyAPIView):
    required_role = Role.REVIEWER

    @extend_schema(
        operation_id="contracts_manual_redactions_create",
        summary="Add a manual redaction (reviewer)",
        parameters=[CONTRACT_ID],
        request=s.ManualRedactionSerializer,
        responses={201: s.ProposalSerializer, **errors(400, 404, 409)},
    )
    def post(self, request, contract_id: int):
        contract = self.get_contract(contract_id)
        form = s.ManualRedactionSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        try:
            boxes = [box_from_list(b) for b in form.validated_data["boxes"]]
        except (ValueError, OverflowError):
            raise ValidationError({"boxes": ["Each box is [page, x0, y0, x1, y1] with finite numbers."]}) from None
        proposal = reviewing.proposal_add_manual(
            contract=contract,
            user=request.user,
            boxes=boxes,
            text=form.validated_data["text"],
            legal_ground=form.validated_data["legal_ground"],
            claimant=form.validated_data["trade_secret_claimant"],
            claimed_on=form.validated_data["trade_secret_claimed_on"],
        ).proposal
        return Response(s.ProposalSerializer(proposal).data, status=status.HTTP_201_CREATED)


class ApproveView(AgencyAPIView):
    required_role = Role.REVIEWER

    @extend_schema(
        operation_id="contracts_approve",
        summary="Approve and publish (reviewer)",
        description="Queues burn-in and verification; the contract becomes `published` (webhook "
        "`contract.published`) or returns to `needs_review` with the problem in `error_message`. When the "
        "agency requires four eyes, the first approval leaves the contract in `second_approval` (webhook "
        "`contract.second_approval`) and publishing waits for another reviewer's approval through this "
        "endpoint (400 `same_reviewer` for the first approver or a reviewer who decided on it).",
        parameters=[CONTRACT_ID, RETRY_AFTER],
        request=s.ApproveSerializer,
        responses={202: s.ContractSerializer, **errors(400, 404, 409)},
        examples=[ERROR_EXAMPLE],
    )
    def post(self, request, contract_id: int):
        contract = self.get_contract(contract_id)
        form = s.ApproveSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        publishing.contract_approve(
            contract=contract, user=request.user, ocr_pages_checked=form.validated_data["ocr_pages_checked"]
        )
        contract.refresh_from_db()
        return contract_response(contract, status.HTTP_202_ACCEPTED)


class ReturnView(AgencyAPIView):
    required_role = Role.REVIEWER

    @extend_schema(
        operation_id="contracts_return",
        summary="Return to review (second reviewer)",
        description="A contract waiting for the second approval goes back to `needs_review` with the "
        "`reason` in `error_message` and the audit trail (409 `wrong_status` otherwise).",
        parameters=[CONTRACT_ID],
        request=s.ReturnSerializer,
        responses={200: s.ContractSerializer, **errors(400, 404, 409)},
    )
    def post(self, request, contract_id: int):
        contract = self.get_contract(contract_id)
        form = s.ReturnSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        contract = publishing.contract_return(
            contract=contract, user=request.user, reason=form.validated_data["reason"]
        )
        return Response(s.ContractSerializer(contract).data)


PAGE = OpenApiParameter("page", OpenApiTypes.INT, OpenApiParameter.PATH, description="Page number, from 1.")


class RepeatedPagesView(AgencyAPIView):
    required_role = Role.REVIEWER

    @extend_schema(
        operation_id="contracts_repeated_pages_list",
        summary="Pages that repeat another page, in this contract or in an earlier one (reviewer)",
        description="A page repeats another when 90 % of their words are shared: an annex's price list, general "
        "terms attached to every contract. `earlier` is the page of the agency's earlier published contract it "
        "repeats; `decide-like-earlier` applies that page's decisions to the same texts here.",
        parameters=[CONTRACT_ID],
        responses={200: s.RepeatedPageSerializer(many=True), **errors(404)},
    )
    def get(self, request, contract_id: int):
        contract = self.get_contract(contract_id)
        inside = selectors.contract_repeated_pages(contract)
        elsewhere = selectors.contract_repeats_elsewhere(contract=contract)
        rows = []
        for page in sorted(set(inside) | set(elsewhere)):
            accept: list[int] = []
            keep: list[int] = []
            if page in elsewhere:
                _earlier, accept, keep = selectors.proposals_like_earlier(
                    contract=contract, page=page, earlier=elsewhere[page]
                )
            rows.append(
                {
                    "page": page,
                    "repeats_page": inside.get(page),
                    "earlier": elsewhere.get(page),
                    "decidable": len(accept) + len(keep),
                }
            )
        return Response(s.RepeatedPageSerializer(rows, many=True).data)


class DecideLikeEarlierView(AgencyAPIView):
    required_role = Role.REVIEWER

    @extend_schema(
        operation_id="contracts_pages_decide_like_earlier",
        summary="Decide a page as on the earlier contract's page it repeats (reviewer)",
        description="The page's undecided proposals whose text was decided on the repeated page of the agency's "
        "earlier published contract are redacted or kept as there, as one action (undo with its `batch`); "
        "nothing is learned. 400 `no_repeat` when the page repeats no earlier contract's page.",
        parameters=[CONTRACT_ID, PAGE],
        request=None,
        responses={200: s.LikeEarlierResultSerializer, **errors(400, 404, 409)},
    )
    def post(self, request, contract_id: int, page: int):
        contract = self.get_contract(contract_id)
        earlier, outcome = reviewing.proposals_decide_like_earlier(contract=contract, user=request.user, page=page)
        pending = selectors.proposals_open(contract=contract).count()
        return Response(
            s.LikeEarlierResultSerializer(
                {
                    "changed": outcome.changed,
                    "affected": outcome.affected,
                    "pending": pending,
                    "batch": outcome.batch,
                    "rules": [],
                    "earlier": earlier,
                }
            ).data
        )
