from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Agencies (tenants), users, memberships and roles, API tokens."""

    name = "accounts"
    verbose_name = "Agencies and users"
