"""The upload handler that keeps an oversized file out of memory and off the disk."""

from __future__ import annotations

from django.conf import settings
from django.core.files.uploadhandler import FileUploadHandler, StopUpload


class UploadLimitHandler(FileUploadHandler):
    """First of ``FILE_UPLOAD_HANDLERS``: once a file part passes its limit it is stored nowhere
    (neither in memory nor in a temporary file), whatever the request's ``Content-Length`` said
    (a chunked request has none). The limit is ``REDACTOR_MAX_UPLOAD_BYTES``, or
    ``request.file_limit`` where a view has a limit of its own (a registry dump:
    ``config.middleware.DUMP_VIEWS``). The rest of the body is read and discarded
    (``StopUpload``, so the client still gets an answer rather than a reset connection), and
    ``request.upload_too_large`` is set for the door, which answers with its refusal (413 in the
    API). A file over 2.5 MB streams to a temporary file in chunks (the next handlers)."""

    def receive_data_chunk(self, raw_data, start):
        """Pass the chunk on, or stop once the file would pass the limit."""
        if start + len(raw_data) > getattr(self.request, "file_limit", settings.REDACTOR_MAX_UPLOAD_BYTES):
            self.request.upload_too_large = True
            raise StopUpload(connection_reset=False)
        return raw_data

    def file_complete(self, file_size):
        """Leave the file to the next handlers (memory or temporary file)."""
        return None
