"""What the API views share in their OpenAPI schema: the error responses and the contract id."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse

from . import serializers as s


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
RETRY_AFTER = OpenApiParameter(
    "Retry-After",
    OpenApiTypes.INT,
    OpenApiParameter.HEADER,
    response=True,
    description="While the contract's processing or publishing is queued or running: seconds to wait "
    "before asking about it again (absent once the status waits for a person). Webhooks tell the "
    "same without asking.",
)
ERROR_EXAMPLE = OpenApiExample(
    "Wrong state",
    value={"message": "This is not possible while the contract is “Published”.", "extra": {"code": "wrong_status"}},
    response_only=True,
    status_codes=["409"],
)
