"""Signed webhook POSTs: the signature scheme, the address check and one HTTP attempt.

Signature (documented in the API description and docs/api.md): header
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

import certifi
import urllib3
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


#: IPv6 prefixes whose low 32 bits are an IPv4 address a packet may end up at: IPv4-compatible
#: (RFC 4291 2.5.5.1, deprecated but still routed by some stacks), the NAT64 well-known prefix and
#: the local-use prefix (RFC 6052, RFC 8215). IPv4-mapped, 6to4 and Teredo have ``ipaddress``
#: properties of their own.
EMBEDDING_PREFIXES = tuple(ipaddress.ip_network(n) for n in ("::/96", "64:ff9b::/96", "64:ff9b:1::/48"))


def embedded_ipv4(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 ``address`` carries inside it (IPv4-mapped, IPv4-compatible,
    NAT64, 6to4, Teredo server and client); empty for IPv4 and for plain IPv6."""
    if address.version == 4:
        return []
    found = [a for a in (address.ipv4_mapped, address.sixtofour) if a is not None]
    if address.teredo:
        found.extend(address.teredo)
    if any(address in net for net in EMBEDDING_PREFIXES):
        found.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    return found


def address_allowed(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """True when ``address`` and every IPv4 address embedded in it are global (not loopback,
    private, link-local, shared, reserved or unspecified), or private webhooks are allowed."""
    if settings.REDACTOR_WEBHOOK_ALLOW_PRIVATE:
        return True
    return all(a.is_global and not a.is_multicast for a in (address, *embedded_ipv4(address)))


def _port_allowed(port: int) -> bool:
    allowed = settings.REDACTOR_WEBHOOK_PORTS
    return allowed is None or port in allowed


@dataclass(frozen=True)
class Target:
    """Where one attempt connects: the URL's parts and the one checked ``address`` (a string
    without brackets) that the connection goes to, so a second DNS answer cannot redirect it."""

    scheme: str
    host: str
    port: int
    path: str
    address: str


def url_problem(url: str, *, resolve: bool = True) -> str:
    """Why ``url`` may not receive webhooks, or "" when it may (see :func:`resolve_target`).
    ``resolve=False`` checks the scheme, port and literal addresses only (at registration; the
    name is resolved and checked again before every attempt)."""
    try:
        _target(url, resolve=resolve)
    except TargetRefused as exc:
        return str(exc)
    return ""


class TargetRefused(ValueError):
    """The URL may not receive webhooks; the message is for the agency admin."""


def resolve_target(url: str) -> Target:
    """Check ``url`` and resolve its host **once** (OWASP SSRF prevention).

    Only http and https, only the ports in ``REDACTOR_WEBHOOK_PORTS`` (80 and 443 by default);
    unless ``REDACTOR_WEBHOOK_ALLOW_PRIVATE`` is on, every address the name resolves to, and
    every IPv4 address embedded in an IPv6 one (:func:`embedded_ipv4`), must be global.
    Raises :class:`TargetRefused` with a sentence for the admin.
    """
    target = _target(url, resolve=True)
    assert target is not None
    return target


def _target(url: str, *, resolve: bool) -> Target | None:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise TargetRefused(_("The address must start with https:// (or http://)."))
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise TargetRefused(_("The address has an invalid port.")) from None
    if not _port_allowed(port):
        raise TargetRefused(_("Webhooks may only use the ports %(ports)s.") % {"ports": _ports_text()})
    host = parts.hostname
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    try:
        addresses = [ipaddress.ip_address(host)]
    except ValueError:
        if (host == "localhost" or host.endswith(".localhost")) and not settings.REDACTOR_WEBHOOK_ALLOW_PRIVATE:
            raise TargetRefused(_("The address points into the service's own network.")) from None
        if not resolve:
            return None
        try:
            infos = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
        except OSError:
            raise TargetRefused(_("The host name cannot be resolved.")) from None
        addresses = [ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in infos]
    if not addresses or not all(address_allowed(a) for a in addresses):
        raise TargetRefused(_("The address points into the service's own network."))
    return Target(parts.scheme, host, port, path, str(addresses[0]))


def _ports_text() -> str:
    return ", ".join(str(p) for p in sorted(settings.REDACTOR_WEBHOOK_PORTS or ()))


@dataclass
class Outcome:
    """One attempt: ``ok`` for a 2xx answer; ``status`` the HTTP status (None without an answer);
    ``error`` a sentence for the agency admin (the receiver's body is never kept: only its length)."""

    ok: bool
    status: int | None
    error: str


#: Bytes of an answer read to measure it; the rest is not read.
ANSWER_READ_LIMIT = 64 * 1024


def send_signed(*, url: str, secret: str, event: str, delivery_uuid: str, payload: dict) -> Outcome:
    """POST ``payload`` as JSON to ``url`` with the signature headers, connecting to the address
    checked by :func:`resolve_target` (TLS still verifies the certificate for the URL's host
    name, sent as SNI); redirects are not followed. Never raises for network errors: they come
    back in :class:`Outcome` as a sentence.
    """
    try:
        target = resolve_target(url)
    except TargetRefused as exc:
        return Outcome(False, None, str(exc))
    body = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()
    host_header = f"[{target.host}]" if ":" in target.host else target.host
    if target.port != (443 if target.scheme == "https" else 80):
        host_header += f":{target.port}"
    headers = {
        "Host": host_header,
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "X-Redactor-Event": event,
        "X-Redactor-Delivery": delivery_uuid,
        SIGNATURE_HEADER: sign(secret=secret, body=body, timestamp=int(time.time())),
    }
    timeout = urllib3.Timeout(total=settings.REDACTOR_WEBHOOK_TIMEOUT)
    pool: urllib3.HTTPConnectionPool
    if target.scheme == "https":
        pool = urllib3.HTTPSConnectionPool(
            target.address,
            target.port,
            timeout=timeout,
            retries=False,
            cert_reqs="CERT_REQUIRED",
            ca_certs=certifi.where(),
            assert_hostname=target.host,
            server_hostname=target.host,
        )
    else:
        pool = urllib3.HTTPConnectionPool(target.address, target.port, timeout=timeout, retries=False)
    try:
        with pool:
            response = pool.urlopen(
                "POST", target.path, body=body, headers=headers, redirect=False, preload_content=False
            )
            length = len(response.read(ANSWER_READ_LIMIT))
            response.release_conn()
    except urllib3.exceptions.HTTPError as exc:
        return Outcome(False, None, _network_error(exc))
    if 200 <= response.status < 300:
        return Outcome(True, response.status, "")
    return Outcome(
        False,
        response.status,
        _("The receiver answered HTTP %(status)d (%(length)d bytes).")
        % {
            "status": response.status,
            "length": length,
        },
    )


def _network_error(exc: Exception) -> str:
    """A sentence for the admin; the exception's text (addresses, library internals) stays out."""
    # NewConnectionError is a ConnectTimeoutError in urllib3 2: ask for it first
    if isinstance(exc, urllib3.exceptions.NewConnectionError):
        return _("Connection refused: nothing answers at the receiver's address.")
    if isinstance(exc, urllib3.exceptions.SSLError):
        return _("Connection refused: the receiver's TLS certificate is not valid for its address.")
    if isinstance(exc, urllib3.exceptions.TimeoutError):
        return _("The receiver did not answer within %(seconds)d s.") % {"seconds": settings.REDACTOR_WEBHOOK_TIMEOUT}
    return _("Connection failed: the receiver could not be reached.")
