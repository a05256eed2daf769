from django.apps import AppConfig


class RegistryConfig(AppConfig):
    """Publishing in the registry of contracts (Act 340/2015 Sb.): the registry metadata, the
    submissions and the data box, with their pages, API and jobs. It stands above ``contracts``:
    it reads contracts and listens to what they announce (:mod:`contracts.signals`); contracts
    never import it."""

    name = "registry"
    verbose_name = "Registry of contracts"

    def ready(self) -> None:
        """Listen to what contracts announce (:mod:`registry.receivers`) and add the registry to
        how contracts are shown: the ``registry`` section of the API resource and of webhooks
        (:mod:`contracts.extensions`), the labels of its audit codes (:mod:`registry.vocabulary`)."""
        from django.db.models import Prefetch  # noqa: PLC0415 - apps load before their models

        from contracts.extensions import ContractSection, add_section  # noqa: PLC0415
        from contracts.signals import contract_processed  # noqa: PLC0415

        from .api.serializers import RegistryStatusField  # noqa: PLC0415
        from .models import RegistrySubmission  # noqa: PLC0415
        from .receivers import prefill_on_processed  # noqa: PLC0415
        from .selectors import registry_webhook_part  # noqa: PLC0415
        from .vocabulary import add_registry_vocabulary  # noqa: PLC0415

        contract_processed.connect(prefill_on_processed, dispatch_uid="registry.prefill_on_processed")
        newest_first = RegistrySubmission.objects.order_by("-created_at", "-id")
        add_section(
            ContractSection(
                name="registry",
                serializer=RegistryStatusField,
                prefetch=("registry_record", Prefetch("registry_submissions", queryset=newest_first)),
                webhook=registry_webhook_part,
            )
        )
        add_registry_vocabulary()
