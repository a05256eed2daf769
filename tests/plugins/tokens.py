"""API tokens as a plugin (``tests/conftest.py``'s ``pytest_plugins``): a token of each role in
agency A, one of agency B, revoked and expired ones; :func:`api` (a DRF client with a token) and
:func:`make_token` are imported from here. The tests of an ``api`` folder run without the API's
rate limit unless they set one."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import Role
from accounts.services import api_token_create, api_token_revoke


@pytest.fixture
def generous_rate(settings):
    """No throttling unless a test asks for it; counters start at zero."""
    settings.REDACTOR_API_RATE = "100000/minute"
    cache.clear()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in an ``api`` folder (``tests/<app>/api/``) gets :func:`generous_rate`."""
    for item in items:
        if "api" in item.path.parent.parts[-1:]:
            item.add_marker(pytest.mark.usefixtures("generous_rate"))


def api(raw: str | None = None) -> APIClient:
    """A client sending ``Authorization: Bearer <raw>`` (none when ``raw`` is None)."""
    client = APIClient()
    if raw is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    return client


def make_token(agency, role=Role.REVIEWER, *, created_by=None, expires_at=None, name=None):
    """A new token of ``agency``; returns (row, raw)."""
    return api_token_create(
        agency=agency, name=name or f"DMS {role}", role=role, created_by=created_by, expires_at=expires_at
    )


@pytest.fixture
def clerk_token(agency, admin_user):
    return make_token(agency, Role.CLERK, created_by=admin_user)[1]


@pytest.fixture
def reviewer_token(agency, admin_user):
    return make_token(agency, Role.REVIEWER, created_by=admin_user)[1]


@pytest.fixture
def outsider_token(other_agency, outsider):
    """An agency-admin token of another agency: the strongest role, in the wrong tenant."""
    return make_token(other_agency, Role.ADMIN, created_by=outsider)[1]


@pytest.fixture
def revoked_token(agency, admin_user):
    token, raw = make_token(agency, Role.ADMIN, created_by=admin_user)
    api_token_revoke(token=token, revoked_by=admin_user)
    return raw


@pytest.fixture
def expired_token(agency, admin_user):
    soon = timezone.now() + timedelta(seconds=1)
    token, raw = make_token(agency, Role.ADMIN, created_by=admin_user, expires_at=soon)
    type(token).objects.filter(pk=token.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    return raw
