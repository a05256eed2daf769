"""Requests refused on their declared size before any of their body is read, and private answers
kept out of every cache."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from contracts.services.uploads import upload_too_large_error
from registry.services.published import dump_too_large_error

#: Views that take a file: they check the declared size against the upload limit themselves
#: (``contracts.services.uploads.upload_request_check``, the upload handler, the forms) and say
#: so in the file's terms.
UPLOAD_VIEWS = frozenset(
    {"contracts:upload", "api:contracts", "map:platform_import", "map:agency_import", "map:rules_import"}
)
#: Views that take a monthly dump of the registry's open data: a limit of their own
#: (``REDACTOR_MAX_DUMP_BYTES``, for the declared size here and for the file as it streams in,
#: ``request.file_limit`` read by ``contracts.upload_handlers.UploadLimitHandler``).
DUMP_VIEWS = frozenset({"registry:records_import", "api:registry_records_import"})
#: What a form or a multipart body may carry around its file (bytes).
FORM_ALLOWANCE = 1024 * 1024


class RequestSizeMiddleware:
    """Answer 413 (and close the connection) to a request whose ``Content-Length`` is over
    ``REDACTOR_MAX_REQUEST_BYTES``, before the view, CSRF or a form reads a byte of its body;
    the views of :data:`UPLOAD_VIEWS` apply the upload limit themselves. Place it before
    ``CsrfViewMiddleware``, whose ``process_view`` reads the form. A request without the header
    (chunked) is left to the upload handler and to Django's own limits. The buffering proxy in
    front (config/nginx.conf) refuses bodies over the upload limit itself; this keeps the rule
    where gunicorn is reached directly."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        """None (go on), or the 413 response for a declared size over the view's limit."""
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        name = request.resolver_match.view_name if request.resolver_match else ""
        if name in UPLOAD_VIEWS:
            return None  # the upload's own checks answer, with the file limit in their words
        if name in DUMP_VIEWS:
            request.file_limit = settings.REDACTOR_MAX_DUMP_BYTES
            limit = settings.REDACTOR_MAX_DUMP_BYTES + FORM_ALLOWANCE
        else:
            limit = settings.REDACTOR_MAX_REQUEST_BYTES
        if length <= limit:
            return None
        if name in DUMP_VIEWS:
            message = " ".join(dump_too_large_error().messages)
        else:
            message = _("The request is larger than allowed; the limit is %(limit).1f MB.") % {"limit": limit / 1e6}
        response = too_large_response(request, message, api=request.path_info.startswith("/api/"))
        response["Connection"] = "close"
        return response


def too_large_response(request, message: str, *, api: bool) -> HttpResponse:
    """413 with ``message``: the API's error shape (code ``too_large``), or a page in the site's
    layout with a way back."""
    if api:
        return JsonResponse({"message": message, "extra": {"code": "too_large"}}, status=413)
    return render(request, "413.html", {"message": message}, status=413)


def too_large(request):
    """The page nginx shows for a body over its limit (``error_page 413`` in config/nginx.conf):
    the request it refused is named in ``X-Original-URI``; its upload limit in the file's terms."""
    original = request.headers.get("X-Original-URI", "")
    dump = any(part in original for part in ("/registry/records/import", "/registry/records/imports"))
    refusal = dump_too_large_error() if dump else upload_too_large_error()
    message = " ".join(refusal.messages)
    return too_large_response(request, message, api=original.startswith("/api/"))


class PrivateResponseMiddleware:
    """``Cache-Control: private, no-store`` on every answer to a signed-in person or an API
    token that has not set its own: the review state (every proposal's text), contract pages,
    exports and settings hold unpublished personal data that neither the browser's cache, a shared
    proxy nor the back button may keep (RFC 9111, § 5.2.2.5). Place it after
    ``AuthenticationMiddleware``; static files never reach it (WhiteNoise answers before)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        user = getattr(request, "user", None)
        signed_in = bool(user is not None and user.is_authenticated)
        if "Cache-Control" not in response and (signed_in or "HTTP_AUTHORIZATION" in request.META):
            response["Cache-Control"] = "private, no-store"
        return response
