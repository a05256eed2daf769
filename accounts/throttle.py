"""Login throttling beyond django-axes' lockout of one username from one address (issue 30):
failed logins are also counted per client address across usernames (password spraying: one
address tries a few passwords against many usernames) and per username across addresses (a
botnet tries one username from many addresses), each in Django's shared cache over a window of
``REDACTOR_LOGIN_WINDOW_MINUTES``. Once a count reaches its limit, further logins from that
address, or for that username, are refused until the window of the first counted failure ends,
with axes' lockout page (HTTP 429), whatever the password.

The limits are wider than axes' (5 for one username from one address): an agency's clerks share
one public address behind their office's NAT, and a username locked from everywhere locks its
owner out too, so these only stop what no person does by mistake (defaults: 20 failures from one
address, 10 for one username, in 15 minutes; OWASP's Authentication Cheat Sheet asks for
throttling per account and per source without letting an attacker lock accounts at will)."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver

from .access import client_ip


def _keys(request, username: str | None) -> list[tuple[str, int]]:
    """The cache keys a login attempt counts under, with their limits: ``(key, limit)``."""
    keys = [(f"login-failures:address:{client_ip(request)}", settings.REDACTOR_LOGIN_FAILURES_PER_ADDRESS)]
    if username:
        digest = hashlib.sha256(username.strip().casefold().encode("utf-8")).hexdigest()[:32]
        keys.append((f"login-failures:username:{digest}", settings.REDACTOR_LOGIN_FAILURES_PER_USERNAME))
    return keys


def login_refused(request, username: str | None) -> bool:
    """Whether a login from ``request``'s client address, or for ``username``, is refused now:
    one of the two failure counts has reached its limit within the window."""
    return any((cache.get(key) or 0) >= limit for key, limit in _keys(request, username))


@receiver(user_login_failed)
def count_failed_login(sender, credentials: dict, request=None, **kwargs) -> None:
    """Count a failed login (Django's ``user_login_failed`` signal) under its address and its
    username; the first failure of a window starts it."""
    if request is None:
        return
    window = settings.REDACTOR_LOGIN_WINDOW_MINUTES * 60
    for key, _limit in _keys(request, credentials.get("username")):
        if not cache.add(key, 1, timeout=window):
            try:
                cache.incr(key)
            except ValueError:  # expired between add and incr
                cache.add(key, 1, timeout=window)


class LoginThrottleBackend:
    """An authentication backend that authenticates nobody and refuses a login whose address or
    username is throttled (:func:`login_refused`): raising ``PermissionDenied`` ends Django's
    ``authenticate`` for every backend, and axes' middleware answers with its lockout page. Place
    it after axes' backend and before the one that checks passwords."""

    def authenticate(self, request, username: str | None = None, **kwargs):
        """None (let the next backend check the password), or ``PermissionDenied`` when throttled."""
        if request is not None and login_refused(request, username):
            request.axes_locked_out = True  # axes' middleware renders its lockout response
            raise PermissionDenied
        return None

    def get_user(self, user_id):
        """This backend never logs anybody in."""
        return None
