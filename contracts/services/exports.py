"""Text exports of a decided contract (removed or tagged text, :mod:`redactor.core.text_export`),
built from the redactions its PDF is burned with."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.utils.text import slugify
from django.utils.translation import gettext as _

from accounts.access import require_role
from accounts.models import Role
from contracts import selectors
from contracts.models import Contract, Status
from redactor.core.text_export import MODES, export_layer

from .common import audit, require_status
from .processing import contract_text_layer
from .publishing import decided_proposals

#: Statuses whose redactions are decided: approved (publishing) and published.
EXPORTABLE = (Status.APPROVED, Status.PUBLISHED)
FORMATS = {"txt": "text/plain; charset=utf-8", "jsonl": "application/x-ndjson; charset=utf-8"}


def agency_seed(agency_id: int) -> bytes:
    """The agency's pseudonym seed: HMAC of the server's ``SECRET_KEY``, so one person or value
    gets the same substitute in all of an agency's exports, other agencies' differ, and nobody
    without the key can recompute them. Rotating ``SECRET_KEY`` changes every substitute."""
    return hmac.new(settings.SECRET_KEY.encode("utf-8"), f"pseudonyms:{agency_id}".encode(), hashlib.sha256).digest()


@dataclass(frozen=True)
class TextFile:
    """An export to send: file name, bytes (UTF-8) and content type."""

    filename: str
    data: bytes
    content_type: str


def contract_text_export(*, contract: Contract, user: AbstractBaseUser | None, mode: str, fmt: str) -> TextFile:
    """The ``mode`` export (``removed``, ``tagged`` or ``pseudonymised``, with :func:`agency_seed`)
    of ``contract``'s analysed text as ``fmt``
    (``txt``: pages separated by form feeds; ``jsonl``: one line with the text and the markers'
    character spans), recorded in the audit trail. Raises ``PermissionDenied`` for a user without
    the clerk role, ``ValidationError`` (code ``wrong_status``) for a contract whose redactions
    are not decided yet (approved or published), ``ValidationError`` (code ``invalid``) for an
    unknown mode or format, and ``InvalidPdfError`` when the stored original no longer matches
    its SHA-256."""
    require_role(user, contract.agency, Role.CLERK)
    if mode not in MODES or fmt not in FORMATS:
        raise ValidationError(
            _("Choose the export mode (%(modes)s) and format (%(formats)s).")
            % {"modes": ", ".join(MODES), "formats": ", ".join(FORMATS)},
            code="invalid",
        )
    require_status(contract, *EXPORTABLE)
    layer = contract_text_layer(contract, selectors.contract_original(contract))
    export = export_layer(layer, decided_proposals(contract, layer), mode, agency_seed(contract.agency_id))
    base = slugify(contract.title)[:80] or f"smlouva-{contract.pk}"
    text = export.to_jsonl_record(f"{base}.pdf") + "\n" if fmt == "jsonl" else export.text
    audit(contract, user, "exported_text", mode=mode, format=fmt)
    return TextFile(f"{base}-{mode}.{fmt}", text.encode("utf-8"), FORMATS[fmt])
