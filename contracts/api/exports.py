"""Text exports through the API: one contract's export (clerk) and the agency's bulk export as a
job with its zip (agency admin)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.response import Response

from accounts.models import Role
from contracts.api.parsers import JSONParser
from contracts.http import file_response
from contracts.services import exports

from . import serializers as s
from .base import AgencyAPIView
from .openapi import CONTRACT_ID, errors


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
        "failures": result.get("failures", []),
        "error": state.error or None,
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
