"""Requests refused on their declared size before any of their body is read (issue 30)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.utils.translation import gettext as _

from contracts.services.uploads import UPLOAD_FORM_OVERHEAD

#: Views that take a file: their limit is the upload limit and the form around the file.
UPLOAD_VIEWS = frozenset(
    {"contracts:upload", "api:contracts", "map:platform_import", "map:agency_import", "map:rules_import"}
)


class RequestSizeMiddleware:
    """Answer 413 (and close the connection) to a request whose ``Content-Length`` is over its
    view's limit, before the view, CSRF or a form reads a byte of its body: the upload limit
    (``REDACTOR_MAX_UPLOAD_BYTES`` and the form around the file) for the views of
    :data:`UPLOAD_VIEWS`, ``REDACTOR_MAX_REQUEST_BYTES`` for every other. Place it before
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
            limit = settings.REDACTOR_MAX_UPLOAD_BYTES + UPLOAD_FORM_OVERHEAD
        else:
            limit = settings.REDACTOR_MAX_REQUEST_BYTES
        if length <= limit:
            return None
        message = _("The request is larger than allowed; the limit is %(limit).1f MB.") % {"limit": limit / 1e6}
        if request.path_info.startswith("/api/"):
            response = JsonResponse({"message": message, "extra": {"code": "too_large"}}, status=413)
        else:
            response = HttpResponse(message, status=413, content_type="text/plain; charset=utf-8")
        response["Connection"] = "close"
        return response
