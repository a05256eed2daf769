"""What the doors (web views and API views) share about HTTP: a service's :class:`Download` as a
response. Services return files, never responses."""

from __future__ import annotations

import io

from django.http import FileResponse

from contracts.services.common import Download


def file_response(download: Download) -> FileResponse:
    """``download`` as an attachment (its file name and content type); a private one (personal
    data: the original, the registry package) is kept out of the browser's and every proxy's
    cache (``Cache-Control: private, no-store``); a published file (redacted, public) may be kept
    by the browser that fetched it (``private``: no shared cache), which the signed-in answers'
    default (:class:`config.middleware.PrivateResponseMiddleware`) would forbid."""
    response = FileResponse(
        io.BytesIO(download.data), as_attachment=True, filename=download.filename, content_type=download.content_type
    )
    response["Cache-Control"] = "private, no-store" if download.private else "private"
    return response
