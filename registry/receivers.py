"""The registry's answers to what contracts announce (:mod:`contracts.signals`)."""

from __future__ import annotations

from registry.services import registry_metadata_prefill
from registry.services.metadata import record_for_update


def prefill_on_processed(sender, *, contract, analysis, profile, **kwargs) -> None:
    """``contract_processed``: pre-fill the contract's registry metadata from the analysis
    (:func:`registry.services.registry_metadata_prefill`) and store it in the processing's
    transaction; a registered contract keeps the metadata it was registered with."""
    record = record_for_update(contract)
    if record.record_id:
        return
    record.metadata = registry_metadata_prefill(contract=contract, analysis=analysis, profile=profile).to_dict()
    record.save(update_fields=["metadata"])
