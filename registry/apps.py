from django.apps import AppConfig


class RegistryConfig(AppConfig):
    """Publishing in the registry of contracts (Act 340/2015 Sb.): the registry metadata, the
    submissions and the data box, with their pages, API and jobs. It stands above ``contracts``:
    it reads contracts and listens to what they announce (:mod:`contracts.signals`); contracts
    never import it."""

    name = "registry"
    verbose_name = "Registry of contracts"

    def ready(self) -> None:
        """Listen to what contracts announce (:mod:`registry.receivers`)."""
        from contracts.signals import contract_processed  # noqa: PLC0415 - apps load before their signals

        from .receivers import prefill_on_processed  # noqa: PLC0415 - it imports the models

        contract_processed.connect(prefill_on_processed, dispatch_uid="registry.prefill_on_processed")
