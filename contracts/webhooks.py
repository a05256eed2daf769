"""Signed webhook POSTs: the signature scheme, the address check and one HTTP attempt.

Signature (documented in the API description and README): header
``X-Redactor-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>." + body)>``, the
scheme Stripe uses, so a receiver can refuse replays older than a few minutes. HMAC per RFC 2104
with SHA-256 (FIPS 180-4), from Python's ``hmac`` module.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import socket
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.utils.translation import gettext as _

SIGNATURE_HEADER = "X-Redactor-Signature"
USER_AGENT = "Redactor-Webhook/1"


def sign(*, secret: str, body: bytes, timestamp: int) -> str:
    """The ``X-Redactor-Signature`` value for ``body`` sent at ``timestamp`` (unix seconds)."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={mac}"


def verify(*, secret: str, body: bytes, header: str, tolerance_seconds: int = 300, now: float | None = None) -> bool:
    """Check a received signature header (what a receiver does); False when it does not match or is
    older than ``tolerance_seconds``."""
    try:
        fields = dict(part.split("=", 1) for part in header.split(","))
        timestamp = int(fields["t"])
    except (ValueError, KeyError):
        return False
    if abs((now or time.time()) - timestamp) > tolerance_seconds:
        return False
    expected = sign(secret=secret, body=body, timestamp=timestamp).split("v1=", 1)[1]
    return hmac.compare_digest(expected, fields.get("v1", ""))


def url_problem(url: str, *, resolve: bool = True) -> str:
    """Why ``url`` may not receive webhooks, or "" when it may.

    Only http and https; unless ``REDACTOR_WEBHOOK_ALLOW_PRIVATE`` is on, the host must not be
    or resolve to a loopback, private, link-local or reserved address (the service must not be
    usable to reach its own network, OWASP SSRF prevention). ``resolve=False`` checks literal
    addresses only (at registration; the name is resolved again before every attempt).
    """
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return _("The address must start with https:// (or http://).")
    if settings.REDACTOR_WEBHOOK_ALLOW_PRIVATE:
        return ""
    host = parts.hostname
    try:
        addresses = [ipaddress.ip_address(host)]
    except ValueError:
        if host == "localhost" or host.endswith(".localhost"):
            return _("The address points into the service's own network.")
        if not resolve:
            return ""
        try:
            infos = socket.getaddrinfo(host, parts.port or 443, proto=socket.IPPROTO_TCP)
        except OSError:
            return _("The host name cannot be resolved.")
        addresses = [ipaddress.ip_address(info[4][0]) for info in infos]
    if any(not a.is_global for a in addresses):
        return _("The address points into the service's own network.")
    return ""


@dataclass
class Outcome:
    """One attempt: ``ok`` for a 2xx answer; ``status`` the HTTP status (None without an answer)."""

    ok: bool
    status: int | None
    error: str


def send_signed(*, url: str, secret: str, event: str, delivery_uuid: str, payload: dict) -> Outcome:
    """POST ``payload`` as JSON to ``url`` with the signature headers; redirects are not followed.

    Never raises for network errors: they come back in :class:`Outcome`.
    """
    problem = url_problem(url)
    if problem:
        return Outcome(False, None, problem)
    body = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "X-Redactor-Event": event,
        "X-Redactor-Delivery": delivery_uuid,
        SIGNATURE_HEADER: sign(secret=secret, body=body, timestamp=int(time.time())),
    }
    try:
        response = requests.post(
            url, data=body, headers=headers, timeout=settings.REDACTOR_WEBHOOK_TIMEOUT, allow_redirects=False
        )
    except requests.RequestException as exc:
        return Outcome(False, None, f"{type(exc).__name__}: {exc}"[:1000])
    if 200 <= response.status_code < 300:
        return Outcome(True, response.status_code, "")
    return Outcome(False, response.status_code, response.text[:500])
