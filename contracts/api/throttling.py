"""Per-token request limit. Kept apart from :mod:`contracts.api.base`: DRF imports the default
throttle classes while ``APIView`` itself is being defined."""

from __future__ import annotations

from django.conf import settings
from rest_framework import throttling

from accounts.models import ApiToken


class TokenRateThrottle(throttling.SimpleRateThrottle):
    """At most ``REDACTOR_API_RATE`` requests per token (counted in the shared cache, i.e. Redis)."""

    scope = "api_token"

    def get_rate(self) -> str:
        return settings.REDACTOR_API_RATE

    def get_cache_key(self, request, view) -> str | None:
        if not isinstance(request.auth, ApiToken):
            return None
        return f"throttle:api_token:{request.auth.pk}"

    def allow_request(self, request, view) -> bool:
        self.rate = self.get_rate()  # read per request, so a changed setting applies at once
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)
