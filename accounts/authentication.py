"""REST API authentication by agency API tokens (``Authorization: Bearer rdk_…``).

The request's agency is the token's agency: API views read ``request.auth.agency`` and never an
agency from the URL or the body.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions

from . import selectors, services


class ApiTokenAuthentication(authentication.BaseAuthentication):
    """``Authorization: Bearer <token>``; sets ``request.user`` to the token's service user and
    ``request.auth`` to the :class:`~accounts.models.ApiToken`.

    A missing header leaves the request anonymous (the permission then answers 401); an unknown,
    revoked or expired token raises ``AuthenticationFailed`` (401) saying which.
    """

    keyword = "Bearer"

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() not in (b"bearer", b"token"):
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(_("The Authorization header must be “Bearer <token>”."))
        try:
            raw = header[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed(_("The token is not valid.")) from None
        token = selectors.api_token_authenticate(raw=raw)
        if token is None:
            raise exceptions.AuthenticationFailed(_("The token is not valid."))
        if token.revoked_at is not None:
            if token.revoked_because and token.revoked_because != token.RevokedBecause.REVOKED:
                raise exceptions.AuthenticationFailed(
                    _("The token was revoked: %(why)s.") % {"why": token.get_revoked_because_display()}
                )
            raise exceptions.AuthenticationFailed(_("The token was revoked."))
        if not token.is_usable():
            raise exceptions.AuthenticationFailed(_("The token has expired."))
        because = services.api_token_outlived(token)
        if because is not None:  # a membership changed without the services (a database edit)
            services.api_token_revoke(token=token, revoked_by=None, because=because)
            raise exceptions.AuthenticationFailed(
                _("The token was revoked: %(why)s.") % {"why": token.get_revoked_because_display()}
            )
        services.api_token_touch(token=token)
        return token.user, token

    def authenticate_header(self, request) -> str:
        # makes DRF answer 401 (not 403) to a request without credentials
        return f'{self.keyword} realm="api"'
