"""The API tests' own setting: no throttling unless a test asks for it (the tenants and tokens
are plugins, ``tests/plugins/``)."""

from __future__ import annotations

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _generous_rate(settings):
    """No throttling unless a test asks for it; counters start at zero."""
    settings.REDACTOR_API_RATE = "100000/minute"
    cache.clear()
