from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Agencies (tenants), users, memberships and roles, API tokens."""

    name = "accounts"
    verbose_name = "Agencies and users"

    def ready(self) -> None:
        """Connect the failed-login counter (:mod:`accounts.throttle`) and the rule that API tokens
        follow their creator's membership (:mod:`accounts.signals`)."""
        from . import signals, throttle  # noqa: F401, PLC0415 - register their signal receivers
