"""Errors the engine raises; each message is written for a clerk, not for a developer."""

from __future__ import annotations

from redactor.model import VerificationResult


class RedactionError(Exception):
    """Base class of every error the engine raises on purpose."""


class InvalidPdfError(RedactionError):
    """The input is not a PDF, is empty or is damaged beyond repair."""


class EncryptedPdfError(InvalidPdfError):
    """The PDF is password-protected; it must be uploaded without a password."""


class PdfTooLargeError(InvalidPdfError):
    """The PDF exceeds the configured size or page limit."""


class CategoryMapError(RedactionError):
    """A category map (policy JSON) is malformed or refers to unknown categories."""


class VerificationError(RedactionError):
    """A redacted PDF still exposes something that was meant to be redacted.

    ``result`` is the :class:`~redactor.model.VerificationResult` that failed.
    """

    def __init__(self, message: str, result: VerificationResult | None = None):
        super().__init__(message)
        self.result = result


class OcrUnavailableError(RedactionError):
    """Tesseract or its Czech model is not installed, so scanned pages cannot be read."""


class ActiveContentError(InvalidPdfError):
    """The PDF carries active content (scripts, launch, submit or import actions, rich media).

    ``kinds`` lists what was found, e.g. ``["JavaScript"]``.
    """

    def __init__(self, kinds: list[str]):
        super().__init__(
            f"the PDF contains active content ({', '.join(kinds)}); save it without scripts, e.g. by printing it to PDF"
        )
        self.kinds = kinds

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        """Rebuilt from its own arguments when it crosses a process boundary."""
        return (type(self), (self.kinds,))


class PdfBombError(InvalidPdfError):
    """A PDF over one of :class:`~redactor.pdf.pdf_limits.PdfLimits` (``limit`` names which;
    ``page`` from 1 when a page's drawing passed it, else None)."""

    def __init__(self, limit: str, detail: str, page: int | None = None):
        super().__init__(f"{limit}: {detail}")
        self.limit = limit
        self.detail = detail
        self.page = page

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        return (type(self), (self.limit, self.detail, self.page))


class PdfUnreadableError(InvalidPdfError):
    """Reading the PDF's structure crashed the reader or took longer than allowed, in the
    process of its own the upload check runs in (``reason``: ``"crashed"``: the process ended by
    a signal, e.g. a C stack overflowed by structure nested far deeper than any document's;
    ``"too_slow"``: it ran past its ``seconds``; ``"memory"``: it ran out of its memory)."""

    def __init__(self, reason: str, seconds: float = 0.0):
        super().__init__(f"reading the PDF's structure {reason}")
        self.reason = reason
        self.seconds = seconds

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        return (type(self), (self.reason, self.seconds))


class StoredLayerError(RedactionError, ValueError):
    """Bytes that are not a stored text layer of a format this engine reads
    (:mod:`redactor.read.stored_layer`): another format, or damaged."""
