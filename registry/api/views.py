"""The registry of contracts at the API: the metadata of a contract (read and correct), sending
to the registry, the submission package. The same services as the contract page's panel
(:mod:`registry.services`)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response

from accounts.models import Role
from contracts.api.base import AgencyAPIView
from contracts.api.openapi import CONTRACT_ID, errors
from contracts.http import file_response
from registry import services as registry
from registry.api.serializers import (
    PackageSentSerializer,
    RegisterSerializer,
    RegistryMetadataSerializer,
    RegistryReplySerializer,
    SubmissionSerializer,
)


def metadata_data(contract) -> dict:
    """The contract's metadata as the API shows them."""
    meta = registry.registry_metadata(contract)
    data = meta.to_dict()
    data["problems"] = registry.registry_problems(contract, meta)
    return data


class RegistryMetadataView(AgencyAPIView):
    """GET: the registry metadata (pre-filled, with where each value was found); PUT: correct them."""

    @property
    def required_role(self):
        return Role.CLERK

    @extend_schema(
        operation_id="contracts_registry_retrieve",
        summary="Registry metadata",
        parameters=[CONTRACT_ID],
        responses={200: RegistryMetadataSerializer, **errors(404)},
    )
    def get(self, request, contract_id: int):
        return Response(RegistryMetadataSerializer(metadata_data(self.get_contract(contract_id))).data)

    @extend_schema(
        operation_id="contracts_registry_update",
        summary="Correct the registry metadata",
        description="Replaces the editable fields (the publisher comes from the agency's settings). "
        "Values the PDF redacts are refused when sending, not here.",
        parameters=[CONTRACT_ID],
        request=RegistryMetadataSerializer,
        responses={200: RegistryMetadataSerializer, **errors(400, 404, 409)},
    )
    def put(self, request, contract_id: int):
        contract = self.get_contract(contract_id)
        form = RegistryMetadataSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        meta = form.to_metadata(registry.registry_metadata(contract))
        contract = registry.registry_metadata_update(contract=contract, user=request.user, metadata=meta)
        return Response(RegistryMetadataSerializer(metadata_data(contract)).data)


class RegisterView(AgencyAPIView):
    required_role = Role.REVIEWER

    @extend_schema(
        operation_id="contracts_register",
        summary="Send to the registry of contracts (reviewer)",
        description="Publication (`zverejneni`) of a published contract, or for a registered one a "
        "corrected metadata version (`modifikace`) or withdrawal (`znepristupneni`) with a `reason`. "
        "With the agency's data-box channel the message is sent by a job and the registry's reply "
        "is read periodically: the contract becomes `registered` (webhook `contract.registered`) or "
        "the submission `rejected` with the registry's error. Sending the same content again "
        "returns the first submission (200) and sends nothing.",
        parameters=[CONTRACT_ID],
        request=RegisterSerializer,
        responses={202: SubmissionSerializer, 200: SubmissionSerializer, **errors(400, 404, 409)},
        examples=[
            OpenApiExample(
                "Incomplete metadata",
                value={"message": "Fill in the date of conclusion.", "extra": {"code": "incomplete"}},
                response_only=True,
            )
        ],
    )
    def post(self, request, contract_id: int):
        contract = self.get_contract(contract_id)
        form = RegisterSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        before = set(contract.registry_submissions.values_list("pk", flat=True))
        submission = registry.registry_submit(contract=contract, user=request.user, **form.validated_data)
        created = submission.pk not in before
        return Response(SubmissionSerializer(submission).data, status=202 if created else status.HTTP_200_OK)


class RegistryPackageView(AgencyAPIView):
    required_role = Role.REVIEWER

    @extend_schema(
        operation_id="contracts_registry_package",
        summary="Submission package for the registry (reviewer)",
        description="A ZIP with `zverejneni.xml` and the files it names, for agencies that send "
        "through their own records system.",
        parameters=[CONTRACT_ID],
        responses={
            (200, "application/zip"): OpenApiResponse(OpenApiTypes.BINARY, description="The package."),
            **errors(400, 404, 409),
        },
    )
    def get(self, request, contract_id: int):
        download = registry.registry_package(contract=self.get_contract(contract_id), user=request.user)
        return file_response(download)


class PackageSentView(AgencyAPIView):
    required_role = Role.REVIEWER

    @extend_schema(
        operation_id="contracts_registry_package_sent",
        summary="Record that the package was sent (reviewer)",
        description="For agencies that send the submission package from their own records system: the "
        "prepared submission becomes `sent`. 409 `wrong_status` when nothing prepared waits.",
        parameters=[CONTRACT_ID],
        request=PackageSentSerializer,
        responses={200: SubmissionSerializer, **errors(400, 404, 409)},
    )
    def post(self, request, contract_id: int):
        contract = self.get_contract(contract_id)
        form = PackageSentSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        submission = registry.registry_package_sent(contract=contract, user=request.user, **form.validated_data)
        return Response(SubmissionSerializer(submission).data)


class RegistryReplyView(AgencyAPIView):
    required_role = Role.REVIEWER
    parser_classes = [MultiPartParser]

    @extend_schema(
        operation_id="contracts_registry_reply",
        summary="Hand over the registry's reply (reviewer)",
        description="The registry answers the data box a message came from; an agency whose records system "
        "sent the package hands the reply over here (multipart field `reply`). It is paired with the "
        "contract's waiting submission by the message id or by every file's SHA-256 and applied as the "
        "service applies replies it reads itself: `accepted` (the contract `registered`, webhook "
        "`contract.registered`) or `rejected` with the registry's error. 400 `not_a_reply`, "
        "`not_this_contract`.",
        parameters=[CONTRACT_ID],
        request={"multipart/form-data": RegistryReplySerializer},
        responses={200: SubmissionSerializer, **errors(400, 404)},
    )
    def post(self, request, contract_id: int):
        contract = self.get_contract(contract_id)
        form = RegistryReplySerializer(data=request.data)
        form.is_valid(raise_exception=True)
        xml = form.validated_data["reply"].read(registry.REPLY_MAX_BYTES + 1)
        submission = registry.registry_reply_record(contract=contract, user=request.user, xml=xml)
        return Response(SubmissionSerializer(submission).data)
