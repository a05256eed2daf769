"""The demo command prints a working API token (revoking the previous one); operators can create tokens."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from accounts.models import ApiToken, Role
from tests.plugins.tokens import api

pytestmark = pytest.mark.django_db


def _demo_token() -> str:
    out = io.StringIO()
    call_command("demo", url="http://127.0.0.1:8000/", stdout=out)
    line = next(x for x in out.getvalue().splitlines() if x.startswith("Demo API token"))
    return line.rsplit(" ", 1)[1]


def test_demo_prints_a_reviewer_token_and_revokes_the_previous_one():
    first = _demo_token()
    assert api(first).get("/api/v1/contracts/").status_code == 200
    second = _demo_token()
    assert api(first).get("/api/v1/contracts/").status_code == 401
    assert api(second).get("/api/v1/contracts/").status_code == 200
    assert ApiToken.objects.filter(revoked_at__isnull=True).get().role == Role.REVIEWER


def test_api_token_create_command(agency):
    out = io.StringIO()
    call_command("api_token_create", ico=agency.ico, name="DMS", role="clerk", expires="2099-12-31", stdout=out)
    raw = out.getvalue().strip()
    assert api(raw).get("/api/v1/contracts/").status_code == 200
    assert ApiToken.objects.get().role == Role.CLERK
    with pytest.raises(CommandError):
        call_command("api_token_create", ico="12345679", name="DMS", stdout=io.StringIO())
    with pytest.raises(CommandError):
        call_command("api_token_create", ico=agency.ico, name="DMS", expires="31. 12. 2099", stdout=io.StringIO())
