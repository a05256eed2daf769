from django.apps import AppConfig


class ContractsConfig(AppConfig):
    """Contracts, proposals, decisions, audit trail, jobs, review UI and REST API."""

    name = "contracts"
    verbose_name = "Contracts"
