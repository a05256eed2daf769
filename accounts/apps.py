from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Agencies (tenants), users, memberships and roles, API tokens."""

    name = "accounts"
    verbose_name = "Agencies and users"

    def ready(self) -> None:
        """Connect the failed-login counter (:mod:`accounts.throttle`)."""
        from . import throttle  # noqa: F401, PLC0415 - registers its signal receiver
