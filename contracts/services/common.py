"""What every write on a contract shares: the audit trail and the status rule."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from contracts.models import PUBLISHED_STATES, AuditEvent, Contract


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
