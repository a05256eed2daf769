"""What a person reads for the codes the registry writes into a contract's audit trail: its
actions, a submission's operation and phase, the metadata's fields and the channel, in the
interface's language. Added to the contract's vocabulary (:func:`contracts.vocabulary.add_vocabulary`)
when the app is ready."""

from __future__ import annotations

import re

from django.utils.translation import gettext_lazy as _

from contracts.vocabulary import add_vocabulary

from .models import RegistrySettings, RegistrySubmission

ACTIONS = {
    "registered": _("Registered in the registry"),
    "registry_rejected": _("Refused by the registry"),
    "registry_withdrawn": _("Withdrawn from the registry"),
    "registry_send_failed": _("Sending to the registry failed"),
    "registry_metadata_edited": _("Registry metadata edited"),
    "registry_package_downloaded": _("Registry package downloaded"),
    "registry_package_sent": _("Registry package sent from the records system"),
    "registry_reply_recorded": _("The registry's reply recorded by hand"),
    "record_correction_started": _("Correction of a record published before started"),
    "record_file_sent_as_is": _("A file of the record goes to the registry as it is"),
}
#: The keys of the registry's audit details as a person reads them.
DETAILS = {
    "fields": _("fields"),
    "submission": _("registry submission"),
    "channel": _("channel"),
    "message_id": _("data-box message"),
    "code": _("error code"),
    "record_id": _("record ID"),
    "version_id": _("version ID"),
    "link": _("link"),
    "sha256_checked": _("files whose SHA-256 was checked"),
    "hash_mismatch": _("files whose SHA-256 differs"),
    "file": _("file"),
    "findings": _("personal data found"),
}

#: ``registry_<operation>_<phase>``: a submission's operation (its label) and how far it got.
REGISTRY_PHASES = {
    "prepared": _("prepared"),
    "sent": _("sent to the registry"),
    "accepted": _("accepted by the registry"),
}
_REGISTRY_ACTION = re.compile(r"registry_(?P<operation>[A-Za-z]+)_(?P<phase>prepared|sent|accepted)")


#: The registry metadata's fields (the keys of ``ContractMetadata.to_dict`` and of a party) as a
#: person reads them.
REGISTRY_FIELDS = {
    "subject": _("Subject"),
    "number": _("Contract number"),
    "signed_by": _("Signed by"),
    "date_concluded": _("Date of conclusion"),
    "value_without_vat": _("Value without VAT"),
    "value_with_vat": _("Value with VAT"),
    "foreign_value": _("Value in a foreign currency"),
    "foreign_currency": _("Currency"),
    "related_record": _("Related record"),
    "amendment": _("Amendment"),
    "parties": _("Contracting parties"),
    "name": _("name"),
    "ico": _("IČO"),
    "data_box": _("data box"),
    "address": _("address"),
}


def registry_field_label(path: str) -> str:
    """A metadata field (``"subject"``, ``"parties.0.address"``: parties counted from 0) as a
    person reads it ("Subject", "Party 1: address"); an unknown name as it is."""
    if path.startswith("parties.") and path.count(".") == 2:
        _parties, index, key = path.split(".")
        if index.isdigit():
            return str(_("Party %(n)s: %(field)s") % {"n": int(index) + 1, "field": REGISTRY_FIELDS.get(key, key)})
    return str(REGISTRY_FIELDS.get(path, path))


def submission_action_label(action: str) -> str | None:
    """``registry_<operation>_<phase>`` (``"registry_zverejneni_sent"``) as "Publication – sent
    to the registry"; None for any other code."""
    m = _REGISTRY_ACTION.fullmatch(action)
    if m and m["operation"] in RegistrySubmission.Operation.values:
        return f"{RegistrySubmission.Operation(m['operation']).label} – {REGISTRY_PHASES[m['phase']]}"
    return None


def _fields_text(value: object) -> str | None:
    return ", ".join(registry_field_label(str(f)) for f in value) if isinstance(value, list) else None


def _channel_text(value: object) -> str | None:
    return str(RegistrySettings.Channel(value).label) if value in RegistrySettings.Channel.values else None


def add_registry_vocabulary() -> None:
    """Add the registry's labels to the contract's audit vocabulary (``RegistryConfig.ready``)."""
    add_vocabulary(
        actions=ACTIONS,
        action_label=submission_action_label,
        details=DETAILS,
        detail_values={"fields": _fields_text, "channel": _channel_text},
    )
