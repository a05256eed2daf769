"""The upload handler that keeps an oversized file out of memory and off the disk."""

from __future__ import annotations

from django.conf import settings
from django.core.files.uploadhandler import FileUploadHandler, StopUpload


class UploadLimitHandler(FileUploadHandler):
    """First of ``FILE_UPLOAD_HANDLERS``: once a file part passes ``REDACTOR_MAX_UPLOAD_BYTES``
    it is stored nowhere (neither in memory nor in a temporary file), whatever the request's
    ``Content-Length`` said (a chunked request has none). The rest of the body is read and
    discarded (``StopUpload``, so the client still gets an answer rather than a reset
    connection), and ``request.upload_too_large`` is set for the door, which answers with
    :func:`contracts.services.uploads.upload_too_large_error` (413 in the API)."""

    def receive_data_chunk(self, raw_data, start):
        """Pass the chunk on, or stop once the file would pass the limit."""
        if start + len(raw_data) > settings.REDACTOR_MAX_UPLOAD_BYTES:
            self.request.upload_too_large = True
            raise StopUpload(connection_reset=False)
        return raw_data

    def file_complete(self, file_size):
        """Leave the file to the next handlers (memory or temporary file)."""
        return None
