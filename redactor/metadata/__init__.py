"""What the registry of contracts asks about a contract (Act 340/2015 Sb., § 5 odst. 5), read from
an analysis: its parties, subject, value and dates (:func:`prefill`), and the metadata's values
that a redaction makes non-public (:func:`redacted_values_in`, :func:`drop_redacted_values`), and
the private persons a published record's metadata names (:func:`metadata_exposures`). The
registry's message formats are the registry app's (``registry.isrs``)."""

from redactor.metadata.audit import PartyExposure, metadata_exposures, party_exposure
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
    "PartyExposure",
    "PublishingBody",
    "RegistryParty",
    "Source",
    "drop_redacted_values",
    "metadata_exposures",
    "party_exposure",
    "prefill",
    "redacted_names",
    "redacted_texts",
    "redacted_values_in",
]
