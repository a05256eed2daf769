from django.apps import AppConfig


class RedactorConfig(AppConfig):
    """The redaction engine's Django side: management commands and the adapter to ``core``."""

    name = "redactor"
    verbose_name = "Redaction engine"
