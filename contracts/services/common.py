"""What every write on a contract shares: the audit trail, the status rule and the file a door sends."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from contracts.models import PUBLISHED_STATES, AuditEvent, Contract


@dataclass(frozen=True)
class Download:
    """A file to send: its file name, its bytes, its content type (a PDF unless said: the title
    as a slug with ``-anonymizovano`` or ``-original``; text exports and their zips) and whether
    it is ``private`` (personal data: the original, the registry package), which the doors keep
    out of every cache (:func:`contracts.http.file_response`)."""

    filename: str
    data: bytes
    content_type: str = "application/pdf"
    private: bool = False


def audit(contract: Contract, user: User | None, action: str, **detail) -> None:
    """Record ``action`` by ``user`` (None: the system) on ``contract``, with ``detail`` (JSON),
    in the caller's transaction."""
    AuditEvent.objects.create(
        agency=contract.agency,
        contract=contract,
        user=user if user and user.is_authenticated else None,
        action=action,
        detail=detail,
    )


def require_status(contract: Contract, *allowed: str) -> None:
    """Raise ``ValidationError`` (code ``wrong_status``) unless ``contract`` is in one of ``allowed``."""
    if contract.status not in allowed:
        raise ValidationError(
            _("This is not possible while the contract is “%(status)s”.") % {"status": contract.get_status_display()},
            code="wrong_status",
        )


def require_published(contract: Contract) -> None:
    """Raise ``ValidationError`` (code ``not_published``) unless ``contract`` is published with
    its redacted file: what its download and its report need."""
    if contract.status not in PUBLISHED_STATES or not contract.redacted:
        raise ValidationError(_("The contract is not published yet."), code="not_published")
