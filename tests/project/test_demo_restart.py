"""Restarting the quick start keeps what people and integrations hold: ``bin/start`` runs
``manage.py demo --token-file var/demo_token``, which prints the same demo API token again while it
is valid and leaves the demo users' passwords, and so their sessions, alone."""

from __future__ import annotations

import io
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from accounts.models import ApiToken

pytestmark = pytest.mark.django_db


def _start(token_file) -> str:
    out = io.StringIO()
    call_command("demo", url="http://127.0.0.1:8000/", token_file=token_file, stdout=out)
    return re.search(r"export REDACTOR_TOKEN=(\S+)", out.getvalue()).group(1)


def test_a_restart_prints_the_same_token_and_keeps_the_sessions(tmp_path, client):
    token_file = tmp_path / "var" / "demo_token"
    first = _start(token_file)
    assert token_file.stat().st_mode & 0o777 == 0o600
    reviewer = get_user_model().objects.get(username="kontrolor")
    session_hash = reviewer.get_session_auth_hash()

    assert _start(token_file) == first
    reviewer.refresh_from_db()
    assert reviewer.get_session_auth_hash() == session_hash  # a session made before still holds
    assert ApiToken.objects.filter(revoked_at__isnull=True).count() == 1
    assert client.get("/api/v1/contracts/", HTTP_AUTHORIZATION=f"Bearer {first}").status_code == 200

    ApiToken.objects.update(revoked_at="2026-01-01T00:00:00Z")  # revoked meanwhile: a new one
    fresh = _start(token_file)
    assert fresh != first and token_file.read_text().strip() == fresh


def test_without_a_token_file_each_run_replaces_the_token(tmp_path):
    out = io.StringIO()
    call_command("demo", stdout=out)
    call_command("demo", stdout=out)
    assert ApiToken.objects.filter(revoked_at__isnull=True).count() == 1
    assert ApiToken.objects.count() == 2
