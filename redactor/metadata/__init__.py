"""What the registry of contracts asks about a contract (Act 340/2015 Sb., § 5 odst. 5), read from
an analysis: its parties, subject, value and dates (:func:`prefill`), and the metadata's values
that a redaction makes non-public (:func:`redacted_values_in`, :func:`drop_redacted_values`). The
registry's message formats are the registry app's (``registry.isrs``)."""

from redactor.metadata.fields import (
    MAX_TEXT,
    NOT_PUBLIC,
    ContractMetadata,
    PublishingBody,
    RegistryParty,
    Source,
    drop_redacted_values,
    redacted_names,
    redacted_texts,
    redacted_values_in,
)
from redactor.metadata.prefill import prefill

__all__ = [
    "MAX_TEXT",
    "NOT_PUBLIC",
    "ContractMetadata",
    "PublishingBody",
    "RegistryParty",
    "Source",
    "drop_redacted_values",
    "prefill",
    "redacted_names",
    "redacted_texts",
    "redacted_values_in",
]
