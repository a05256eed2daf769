"""Safe defaults (issue 16): settings read in a fresh interpreter with a chosen environment, as a
deployment that sets nothing would read them; and the security headers on a real response."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from django.urls import reverse

from tests.conftest import ROOT

PRINT = (
    "import json, django; django.setup(); from django.conf import settings as s; print(json.dumps({"
    "'proxy': getattr(s, 'SECURE_PROXY_SSL_HEADER', None), **{k: getattr(s, k) for k in ('DEBUG',"
    " 'SESSION_COOKIE_SECURE', 'CSRF_COOKIE_SECURE', 'SECURE_SSL_REDIRECT',"
    " 'SECURE_HSTS_SECONDS', 'REDACTOR_WEBHOOK_ALLOW_PRIVATE', 'SECRET_KEY', 'SESSION_COOKIE_AGE',"
    " 'FILE_UPLOAD_PERMISSIONS')}}))"
)


def _settings(tmp_path, **env) -> subprocess.CompletedProcess:
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG")}
    return subprocess.run(
        [sys.executable, "-c", PRINT],
        cwd=ROOT,
        env={**keep, "DJANGO_SETTINGS_MODULE": "config.settings", "VAR_DIR": str(tmp_path), **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_nothing_set_means_no_debug_and_no_start_without_a_key(tmp_path):
    result = _settings(tmp_path)
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_a_kept_key_file_gives_production_defaults(tmp_path):
    (tmp_path / "secret_key").write_text("k" * 50 + "\n")
    result = _settings(tmp_path)
    assert result.returncode == 0, result.stderr
    values = json.loads(result.stdout)
    assert values == {
        "DEBUG": False,
        "SESSION_COOKIE_SECURE": True,
        "CSRF_COOKIE_SECURE": True,
        "SECURE_SSL_REDIRECT": True,
        "SECURE_HSTS_SECONDS": 31_536_000,
        "REDACTOR_WEBHOOK_ALLOW_PRIVATE": False,
        "SECRET_KEY": "k" * 50,
        "SESSION_COOKIE_AGE": 8 * 3600,  # a working day, not Django's two weeks
        "FILE_UPLOAD_PERMISSIONS": 0o600,
        "proxy": None,  # X-Forwarded-Proto is not believed without a proxy in front
    }
    behind = json.loads(_settings(tmp_path, TRUSTED_PROXY_COUNT="1").stdout)
    assert behind["proxy"] == ["HTTP_X_FORWARDED_PROTO", "https"]


def test_plain_http_on_loopback_and_debug_are_explicit_choices(tmp_path):
    quick_start = json.loads(_settings(tmp_path, SECRET_KEY="s" * 50, SECURE_HTTPS="0").stdout)
    assert (quick_start["DEBUG"], quick_start["SESSION_COOKIE_SECURE"], quick_start["SECURE_HSTS_SECONDS"]) == (
        False,
        False,
        0,
    )
    debug = json.loads(_settings(tmp_path, DEBUG="1").stdout)
    assert debug["DEBUG"] is True and debug["REDACTOR_WEBHOOK_ALLOW_PRIVATE"] is False


@pytest.mark.django_db
def test_every_page_carries_a_policy_without_inline_code(client):
    response = client.get(reverse("login"))
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "style-src 'self'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert response["X-Frame-Options"] == "DENY"
    assert response["Referrer-Policy"] == "same-origin"


def test_templates_hold_no_inline_script_or_style():
    templates = [p for p in ROOT.glob("**/templates/**/*.html") if ".venv" not in p.parts]
    assert templates
    for path in templates:
        text = path.read_text(encoding="utf-8")
        assert "style=" not in text, path
        assert "<style" not in text, path
        assert not re.search(r"\son[a-z]+=", text), path  # inline event handlers are inline script
        for tag in text.split("<script")[1:]:
            head = tag.split(">", 1)[0]
            assert "src=" in head or 'type="application/json"' in head, (path, head)


def test_the_storage_is_local_disk_unless_s3_is_chosen_with_a_bucket(monkeypatch):
    """config.storage, read as settings read it: local disk by default; REDACTOR_STORAGE=s3 needs
    a bucket and gives private, never overwritten, server-side encrypted objects."""
    from django.core.exceptions import ImproperlyConfigured

    from config.storage import default_storage_from_env

    for name in ("REDACTOR_STORAGE", "AWS_STORAGE_BUCKET_NAME", "REDACTOR_S3_ENCRYPTION", "AWS_S3_ADDRESSING_STYLE"):
        monkeypatch.delenv(name, raising=False)
    assert default_storage_from_env()["BACKEND"] == "django.core.files.storage.FileSystemStorage"
    monkeypatch.setenv("REDACTOR_STORAGE", "s3")
    with pytest.raises(ImproperlyConfigured, match="AWS_STORAGE_BUCKET_NAME"):
        default_storage_from_env()
    monkeypatch.setenv("AWS_STORAGE_BUCKET_NAME", "smlouvy")
    options = default_storage_from_env()["OPTIONS"]
    assert options["bucket_name"] == "smlouvy" and options["addressing_style"] == "path"
    assert options["default_acl"] is None and options["file_overwrite"] is False
    assert options["object_parameters"] == {"ServerSideEncryption": "AES256"}
    monkeypatch.setenv("REDACTOR_S3_ENCRYPTION", "none")
    assert default_storage_from_env()["OPTIONS"]["object_parameters"] == {}
    monkeypatch.setenv("REDACTOR_S3_ENCRYPTION", "rot13")
    with pytest.raises(ImproperlyConfigured, match="REDACTOR_S3_ENCRYPTION"):
        default_storage_from_env()
    monkeypatch.setenv("REDACTOR_STORAGE", "nfs")
    with pytest.raises(ImproperlyConfigured, match="local or s3"):
        default_storage_from_env()
