"""API views: one per operation, each calling the same services as the web UI.

Roles: clerk – upload, list, detail, download, report, retry, events; reviewer – proposals,
decisions, manual redactions, approve, delete.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError as DomainError
from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.parsers import JSONParser, MultiPartParser
from rest_framework.response import Response

from accounts.models import Role
from accounts.selectors import actor_name
from contracts import selectors
from contracts.http import file_response
from contracts.models import box_from_list
from contracts.services import exports, publishing, reviewing, runs, uploads
from contracts.services.common import require_published

from . import serializers as s
from .base import AgencyAPIView, AgencyListAPIView, ContractPagination


def errors(*codes: int) -> dict:
    """Schema entries for the error responses ``codes`` (all in the one error shape)."""
    text = {
        400: "Invalid input (`extra.fields`) or a rule of the operation not met (`extra.code`).",
        401: "No token, or an unknown, revoked or expired one.",
        403: "The token's role does not allow this operation.",
        404: "No such contract in the token's agency.",
        409: "The contract's status does not allow this now (`extra.code`).",
        410: "The file is no longer kept (`extra.code` expired): start the export again.",
        413: "The file is larger than the limit.",
        422: "The Idempotency-Key was used for a different upload.",
        429: "Too many requests for this token; retry after `Retry-After` seconds.",
        503: "The file storage could not keep the file (`extra.code` storage_unavailable); nothing was saved, retry.",
    }
    return {c: OpenApiResponse(s.ErrorSerializer, description=text[c]) for c in (401, 403, 429, *codes)}


CONTRACT_ID = OpenApiParameter("contract_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="Contract id.")
ERROR_EXAMPLE = OpenApiExample(
    "Wrong state",
    value={"message": "This is not possible while the contract is “Published”.", "extra": {"code": "wrong_status"}},
    response_only=True,
    status_codes=["409"],
)


class ContractListCreateView(AgencyListAPIView):
    """GET: the agency's contracts; POST: upload one."""

    serializer_class = s.ContractSerializer
    pagination_class = ContractPagination

    def get_parsers(self):
        if self.request is not None and self.request.method == "POST":
            return [MultiPartParser()]
        return super().get_parsers()

    required_role = Role.CLERK

    def get_queryset(self):
        params = self.request.query_params
        query = s.ContractListQuerySerializer(data=params)
        known = {*query.fields, self.paginator.limit_query_param, self.paginator.offset_query_param}
        unknown = sorted(set(params) - known)
        if unknown:  # a misspelt filter must not silently return everything
            raise ValidationError({name: ["Unknown query parameter."] for name in unknown[:20]})
        blank = {name: ["May not be blank."] for name in query.fields if name in params and not params[name].strip()}
        if blank:  # DRF would read a blank query parameter as "not given"; the schema says it must not be blank
            raise ValidationError(blank)
        query.is_valid(raise_exception=True)
        return selectors.contract_list(agency=self.agency, **query.validated_data)

    @extend_schema(
        operation_id="contracts_list",
        summary="List contracts",
        parameters=[s.ContractListQuerySerializer],
        responses={200: s.ContractSerializer(many=True), **errors(400)},
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    @extend_schema(
        operation_id="contracts_upload",
        summary="Upload a contract",
        description="Stores the PDF and queues its processing; poll the contract or wait for the "
        "`contract.needs_review` webhook.",
        request={"multipart/form-data": s.ContractUploadSerializer},
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                description="Your unique id of this upload (at most 255 characters); "
                "a repeat returns the first result.",
            )
        ],
        responses={
            201: OpenApiResponse(s.ContractSerializer, description="Created; processing is queued."),
            200: OpenApiResponse(s.ContractSerializer, description="A repeated Idempotency-Key: the earlier contract."),
            **errors(400, 413, 422, 503),
        },
    )
    def post(self, request, *args, **kwargs):
        # sizes first: the header before the body is parsed, the parsed file (streamed to a
        # temporary file by Django above 2.5 MB) before it is read into memory
        uploads.upload_request_check(request.META.get("CONTENT_LENGTH"))
        form = s.ContractUploadSerializer(data=request.data)
        if getattr(request._request, "upload_too_large", False):
            raise uploads.upload_too_large_error()
        form.is_valid(raise_exception=True)
        data = form.validated_data
        upload = data["file"]
        uploads.upload_size_check(upload.size)
        content = upload.read()
        metadata = uploads.RegistryMetadata(
            counterparty=data["counterparty"],
            subject=data["subject"],
            value_amount=data["value_amount"],
            value_currency=data["value_currency"],
            date_concluded=data["date_concluded"],
        )
        contract, created = uploads.contract_upload_idempotent(
            agency=self.agency,
            user=request.user,
            data=content,
            filename=upload.name,
            title=data["title"],
            metadata=metadata,
            key=request.headers.get("Idempotency-Key", ""),
        )
        if not created:
            return self._replay(contract)
        response = Response(s.ContractSerializer(contract).data, status=status.HTTP_201_CREATED)
        response["Location"] = f"/api/v1/contracts/{contract.pk}/"
        return response

    def _replay(self, contract) -> Response:
        response = Response(s.ContractSerializer(contract).data, status=status.HTTP_200_OK)
        response["Idempotent-Replayed"] = "true"
        response["Location"] = f"/api/v1/contracts/{contract.pk}/"
        return response


class ContractDetailView(AgencyAPIView):
    """GET: one contract with status and progress; DELETE: remove its data."""

    @property
    def required_role(self):
        return Role.REVIEWER if self.request.method == "DELETE" else Role.CLERK

    @extend_schema(
        operation_id="contracts_retrieve",
        summary="Contract status and progress",
        parameters=[CONTRACT_ID],
        responses={200: s.ContractSerializer, **errors(404)},
    )
    def get(self, request, contract_id: int):
        return Response(s.ContractSerializer(self.get_contract(contract_id)).data)

    @extend_schema(
        operation_id="contracts_destroy",
        summary="Delete a contract (reviewer)",
        description="Removes the original, the redacted file and the proposals. The audit trail "
        "stays. Not possible while a job works on the contract (409).",
        parameters=[CONTRACT_ID],
        responses={204: OpenApiResponse(description="Deleted."), **errors(404, 409)},
        examples=[ERROR_EXAMPLE],
    )
    def delete(self, request, contract_id: int):
        publishing.contract_delete(contract=self.get_contract(contract_id), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


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
            contract=contract, user=request.user, items=items, learn=form.validated_data["learn"]
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
            contract=contract, user=request.user, boxes=boxes, text=form.validated_data["text"]
        ).proposal
        return Response(s.ProposalSerializer(proposal).data, status=status.HTTP_201_CREATED)


class ApproveView(AgencyAPIView):
    required_role = Role.REVIEWER

    @extend_schema(
        operation_id="contracts_approve",
        summary="Approve and publish (reviewer)",
        description="Queues burn-in and verification; the contract becomes `published` (webhook "
        "`contract.published`) or returns to `needs_review` with the problem in `error_message`.",
        parameters=[CONTRACT_ID],
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
        return Response(s.ContractSerializer(contract).data, status=status.HTTP_202_ACCEPTED)


class RetryView(AgencyAPIView):
    required_role = Role.CLERK

    @extend_schema(
        operation_id="contracts_retry",
        summary="Retry a failed contract",
        parameters=[CONTRACT_ID],
        request=None,
        responses={202: s.ContractSerializer, **errors(404, 409)},
    )
    def post(self, request, contract_id: int):
        contract = self.get_contract(contract_id)
        runs.contract_retry(contract=contract, user=request.user)
        contract.refresh_from_db()
        return Response(s.ContractSerializer(contract).data, status=status.HTTP_202_ACCEPTED)


class DownloadView(AgencyAPIView):
    required_role = Role.CLERK

    @extend_schema(
        operation_id="contracts_download",
        summary="Download the redacted PDF",
        parameters=[CONTRACT_ID],
        responses={
            (200, "application/pdf"): OpenApiResponse(OpenApiTypes.BINARY, description="The published PDF."),
            **errors(404, 409),
        },
    )
    def get(self, request, contract_id: int):
        contract = self.get_contract(contract_id)
        file = publishing.contract_download(
            contract=contract, user=request.user, which=publishing.DownloadKind.REDACTED
        )
        return file_response(file)


class TextDownloadView(AgencyAPIView):
    required_role = Role.CLERK

    @extend_schema(
        operation_id="contracts_download_text",
        summary="Download the published text beside the PDF",
        description=(
            "The published contract's text without the redacted data, as UTF-8 plain text (pages separated "
            "by form feeds, no metadata), verified with the PDF: every character a black box hides, or that "
            "belongs to a redaction, is replaced by `[…]`. Attach it in the registry beside the PDF. "
            "409 `not_published` before publication, 409 `no_text` for a contract published before the "
            "text was made."
        ),
        parameters=[CONTRACT_ID],
        responses={
            (200, "text/plain"): OpenApiResponse(OpenApiTypes.STR, description="The published text."),
            **errors(404, 409),
        },
    )
    def get(self, request, contract_id: int):
        contract = self.get_contract(contract_id)
        file = publishing.contract_download(contract=contract, user=request.user, which=publishing.DownloadKind.TEXT)
        return file_response(file)


class _FormatIsAParameter(DefaultContentNegotiation):
    """``format`` is the text export's own parameter (txt, jsonl), not DRF's renderer override,
    which would answer 404 to ``format=jsonl``: errors are rendered by the first renderer (JSON)."""

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type


class TextExportView(AgencyAPIView):
    required_role = Role.CLERK
    content_negotiation_class = _FormatIsAParameter

    @extend_schema(
        operation_id="contracts_text_export",
        summary="The contract's text without the redacted data",
        description=(
            "Built from the redactions the PDF is burned with (approved or published contracts). "
            "`removed` replaces each by `[…]`, `tagged` by its category's tag with a per-document "
            "index (`[JMÉNO_1]`), the same for every form of one person or value; `pseudonymised` "
            "by another name in the same case or a valid fake identifier, the same in all the "
            "agency's exports. `txt`: pages "
            "separated by form feeds; `jsonl`: one line `{document, mode, text, label: [[start, "
            "end, tag], …]}`."
        ),
        parameters=[
            CONTRACT_ID,
            OpenApiParameter("mode", OpenApiTypes.STR, enum=["removed", "tagged", "pseudonymised"], default="tagged"),
            OpenApiParameter("format", OpenApiTypes.STR, enum=["txt", "jsonl"], default="txt"),
        ],
        responses={
            (200, "text/plain"): OpenApiResponse(OpenApiTypes.STR, description="The text (`format=txt`)."),
            (200, "application/x-ndjson"): OpenApiResponse(OpenApiTypes.STR, description="One JSON line."),
            **errors(400, 404, 409),
        },
    )
    def get(self, request, contract_id: int):
        contract = self.get_contract(contract_id)
        file = exports.contract_text_export(
            contract=contract,
            user=request.user,
            mode=request.query_params.get("mode", "tagged"),
            fmt=request.query_params.get("format", "txt"),
        )
        return file_response(file)


class ReportView(AgencyAPIView):
    required_role = Role.CLERK

    @extend_schema(
        operation_id="contracts_report",
        summary="Redaction report of a published contract",
        parameters=[CONTRACT_ID],
        responses={200: s.ReportSerializer, **errors(404, 409)},
    )
    def get(self, request, contract_id: int):
        contract = self.get_contract(contract_id)
        require_published(contract)
        return Response(s.ReportSerializer(selectors.contract_report(contract=contract)).data)


class EventListView(AgencyAPIView):
    required_role = Role.CLERK

    @extend_schema(
        operation_id="contracts_events_list",
        summary="The contract's audit trail",
        parameters=[CONTRACT_ID],
        responses={200: s.AuditEventSerializer(many=True), **errors(404)},
    )
    def get(self, request, contract_id: int):
        contract = self.get_contract(contract_id)
        events = selectors.audit_events(contract=contract).select_related("user__api_token")
        data = [
            {"action": e.action, "user": actor_name(e.user), "detail": e.detail, "created_at": e.created_at}
            for e in events
        ]
        return Response(s.AuditEventSerializer(data, many=True).data)


@csrf_exempt  # answers every method with 404; there is nothing to protect
def not_found(request, *args, **kwargs):
    """Any other URL under /api/v1/: a 404 in the API's error shape (not Django's HTML page)."""
    return JsonResponse({"message": _("Not found."), "extra": {"code": "not_found"}}, status=404)


EXPORT_JOB_ID = OpenApiParameter("job_id", OpenApiTypes.STR, OpenApiParameter.PATH, description="Export job id.")


def _export_job(job_id: str, state) -> dict:
    result = state.result or {}
    return {
        "id": job_id,
        "state": state.state,
        "done": state.done,
        "total": state.total,
        "contracts": result.get("contracts"),
        "failed": result.get("failed", []),
    }


class TextExportsView(AgencyAPIView):
    required_role = Role.ADMIN
    parser_classes = [JSONParser]  # a JSON object; anything else is refused, not read as defaults

    @extend_schema(
        operation_id="exports_create",
        summary="Start the agency's bulk text export",
        description="Every approved or published contract's text without personal data, in one zip "
        "(see the contract export for the modes); poll the job, then download the zip.",
        request=s.TextExportRequestSerializer,
        responses={202: s.TextExportJobSerializer, **errors(400)},
    )
    def post(self, request):
        data = s.TextExportRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        job_id = exports.agency_export_start(
            agency=self.agency, user=request.user, mode=data.validated_data["mode"], fmt=data.validated_data["format"]
        )
        state = exports.agency_export_state(agency=self.agency, user=request.user, job_id=job_id)
        return Response(_export_job(job_id, state), status=status.HTTP_202_ACCEPTED)


class TextExportJobView(AgencyAPIView):
    required_role = Role.ADMIN

    @extend_schema(
        operation_id="exports_retrieve",
        summary="A bulk text export job",
        parameters=[EXPORT_JOB_ID],
        responses={200: s.TextExportJobSerializer, **errors(404)},
    )
    def get(self, request, job_id: str):
        state = exports.agency_export_state(agency=self.agency, user=request.user, job_id=job_id)
        if state is None:
            raise NotFound()
        return Response(_export_job(job_id, state))


class TextExportDownloadView(AgencyAPIView):
    required_role = Role.ADMIN

    @extend_schema(
        operation_id="exports_download",
        summary="The zip of a finished bulk text export",
        parameters=[EXPORT_JOB_ID],
        responses={
            (200, "application/zip"): OpenApiResponse(OpenApiTypes.BINARY, description="The zip."),
            **errors(404, 409, 410),
        },
    )
    def get(self, request, job_id: str):
        file = exports.agency_export_file(agency=self.agency, user=request.user, job_id=job_id)
        return file_response(file)
