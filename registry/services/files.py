"""The files the registry gets of a published contract, as every message that carries them names
them."""

from __future__ import annotations

from contracts.models import Contract


def published_files(contract: Contract) -> list[tuple[str, bytes, str]]:
    """The files the registry gets: ``[(name, content, kind)]``, the published PDF and its text,
    named as the downloads are (ASCII, the registry is case-sensitive); empty before publishing."""
    files = []
    for field, suffix, ext, kind in (
        (contract.redacted, "", "pdf", "pdf"),
        (contract.redacted_text, "", "txt", "text"),
    ):
        if field:
            with field.open("rb") as fh:
                files.append((contract.download_name(suffix, ext), fh.read(), kind))
    return files
