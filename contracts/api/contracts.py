"""The contract resource of the API: upload and list, detail and delete, retry, the published
files, the redaction report and the audit trail (clerk; delete: reviewer). Each view calls the
same services as the web UI."""

from __future__ import annotations

from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response

from accounts.models import Role
from accounts.selectors import actor_name
from contracts import selectors
from contracts.http import file_response
from contracts.services import publishing, runs, uploads
from contracts.services.common import require_published

from . import serializers as s
from .base import AgencyAPIView, AgencyListAPIView, ContractPagination, contract_response
from .openapi import CONTRACT_ID, ERROR_EXAMPLE, RETRY_AFTER, errors


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
        description="Stores the PDF and queues its processing; poll the contract (no more often than "
        "`Retry-After` says) or wait for the `contract.needs_review` webhook.",
        request={"multipart/form-data": s.ContractUploadSerializer},
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                description="Your unique id of this upload (at most 255 characters); "
                "a repeat returns the first result.",
            ),
            RETRY_AFTER,
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
        response = contract_response(contract, status.HTTP_201_CREATED)
        response["Location"] = f"/api/v1/contracts/{contract.pk}/"
        return response

    def _replay(self, contract) -> Response:
        response = contract_response(contract)
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
        parameters=[CONTRACT_ID, RETRY_AFTER],
        responses={200: s.ContractSerializer, **errors(404)},
    )
    def get(self, request, contract_id: int):
        return contract_response(self.get_contract(contract_id))

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


class RetryView(AgencyAPIView):
    required_role = Role.CLERK

    @extend_schema(
        operation_id="contracts_retry",
        summary="Retry a failed contract, or one whose queued job is stuck",
        parameters=[CONTRACT_ID, RETRY_AFTER],
        request=None,
        responses={202: s.ContractSerializer, **errors(404, 409)},
    )
    def post(self, request, contract_id: int):
        contract = self.get_contract(contract_id)
        runs.contract_retry(contract=contract, user=request.user)
        contract.refresh_from_db()
        return contract_response(contract, status.HTTP_202_ACCEPTED)


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
