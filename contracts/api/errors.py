"""One error format for the whole API: ``{"message": str, "extra": {"code": str, ...}}``."""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

# Domain ValidationError codes that mean "not in this state" (409) or "key reused" (422); others are 400.
CONFLICT_CODES = {
    "wrong_status",
    "undecided",
    "not_failed",
    "not_published",
    "no_text",
    "changed_since",
    "already_sent",
    "nothing_to_audit",
    "correction_pending",
    "export_failed",
    "confirm_names",
    "files_undecided",
}
UNPROCESSABLE_CODES = {"idempotency_mismatch"}
# A file the service no longer keeps (a bulk export whose zip was pruned): 410.
GONE_CODES = {"expired"}
# The file storage refused to keep an upload (a bucket unreachable): 503, try again later.
UNAVAILABLE_CODES = {"storage_unavailable"}


def _domain_error(exc: DjangoValidationError) -> Response:
    code = exc.code if hasattr(exc, "code") and exc.code else "invalid"
    extra: dict = {"code": code}
    if hasattr(exc, "error_dict"):
        extra["fields"] = exc.message_dict
        code = "invalid"
        extra["code"] = code
    http: int
    if code in CONFLICT_CODES:
        http = status.HTTP_409_CONFLICT
    elif code in GONE_CODES:
        http = status.HTTP_410_GONE
    elif code in UNAVAILABLE_CODES:
        http = status.HTTP_503_SERVICE_UNAVAILABLE
    elif code in UNPROCESSABLE_CODES:
        http = status.HTTP_422_UNPROCESSABLE_ENTITY
    elif code == "too_large":
        http = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    else:
        http = status.HTTP_400_BAD_REQUEST
    return Response({"message": " ".join(exc.messages), "extra": extra}, status=http)


def exception_handler(exc, context):
    """DRF's exception handler, reshaped: domain ``ValidationError`` → 400/409/410/413/422/503
    with the service's code, ``Http404`` or a service's ``ObjectDoesNotExist`` → 404,
    ``PermissionDenied`` → 403, invalid input → 400 with ``extra.fields``, throttling → 429 with
    ``extra.retry_after`` (seconds)."""
    if isinstance(exc, DjangoValidationError):
        return _domain_error(exc)
    if isinstance(exc, (Http404, ObjectDoesNotExist)):
        exc = exceptions.NotFound(_("Not found."))
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    extra: dict = {"code": getattr(exc, "default_code", "error")}
    if isinstance(exc, exceptions.ValidationError):
        message = _("The request is not valid; see extra.fields.")
        extra["code"] = "invalid"
        extra["fields"] = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
    else:
        detail = exc.detail if isinstance(exc, exceptions.APIException) else str(exc)
        message = str(detail)
        if isinstance(exc, exceptions.APIException):
            codes = exc.get_codes()
            if isinstance(codes, str):
                extra["code"] = codes
    if isinstance(exc, exceptions.Throttled):
        extra["retry_after"] = exc.wait
    response.data = {"message": message, "extra": extra}
    return response
