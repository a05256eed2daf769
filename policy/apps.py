from django.apps import AppConfig


class PolicyConfig(AppConfig):
    """The publication policy's Django side: each agency's category map (drafts, versions, the
    console), its learned rules and profile, the map preview, and the command-line doors of the
    engine (``manage.py redact``, ``evaluate``, ``export_text``). The engine itself is the
    framework-free package ``redactor``."""

    name = "policy"
    verbose_name = "Publication policy"
