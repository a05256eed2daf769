"""The registry's periodic job, loaded by RQ's cron scheduler through :mod:`config.cron`: the
registry of contracts replies into the agency's data box minutes after a submission."""

from django.conf import settings
from rq import cron

from registry.jobs import fetch_registry_replies

cron.register(fetch_registry_replies, "default", interval=settings.REDACTOR_REGISTRY_POLL_SECONDS)
