"""The one base every API view derives from: token role check, per-token throttle, agency scope.

After DRF's ``initial`` (authentication, permission, throttle) a view has ``self.agency``, taken
from the token, and fetches contracts only through :meth:`AgencyAPIView.get_contract`, which goes
through the scoped selector (another agency's id is a 404). (PostHog ``TeamAndOrgViewSetMixin``.)
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import generics, pagination, permissions
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import ApiToken, Role
from contracts import selectors
from contracts.models import Contract
from contracts.services.runs import poll_after

from . import serializers as s


class TokenRolePermission(permissions.BasePermission):
    """Requires an API token whose role covers the view's ``required_role``.

    Without a token DRF answers 401; with a weaker role, 403.
    """

    message = _("This token's role does not allow this operation.")

    def has_permission(self, request, view) -> bool:
        token = request.auth
        if not isinstance(token, ApiToken):
            return False
        return token.allows(getattr(view, "required_role", Role.ADMIN))


class AgencyScoped(APIView):
    """Base of the agency's views: ``self.agency`` from the token; ``required_role`` (default:
    agency admin, the safe side)."""

    required_role: Role = Role.ADMIN
    permission_classes = [TokenRolePermission]

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        self.agency = request.auth.agency

    def get_contract(self, contract_id: int) -> Contract:
        """The token's agency's contract, or ``Http404``."""
        return selectors.contract_get(agency=self.agency, contract_id=contract_id)


class AgencyAPIView(AgencyScoped, APIView):
    """Base of single-operation API views."""


class AgencyListAPIView(AgencyScoped, generics.ListAPIView):
    """Base of paginated list views; ``get_queryset`` must start from a scoped selector."""


class ContractPagination(pagination.LimitOffsetPagination):
    """``limit`` (1–200, default 50) and ``offset``; unlike DRF's, a malformed value is a 400, not ignored."""

    default_limit = 50
    max_limit = 200

    def _integer(self, request, name: str, minimum: int) -> int | None:
        raw = request.query_params.get(name)
        if raw is None:
            return None
        try:
            value = int(raw)
        except ValueError:
            value = None
        if value is None or value < minimum:
            raise ValidationError({name: [f"An integer of at least {minimum}."]})
        return value

    def get_limit(self, request) -> int:
        value = self._integer(request, self.limit_query_param, 1)
        return self.default_limit if value is None else min(value, self.max_limit)

    def get_offset(self, request) -> int:
        return self._integer(request, self.offset_query_param, 0) or 0

    def get_schema_operation_parameters(self, view):
        params = super().get_schema_operation_parameters(view)
        for p in params:
            p["schema"]["minimum"] = 1 if p["name"] == self.limit_query_param else 0
        return params


def contract_response(contract: Contract, status: int = 200) -> Response:
    """``contract`` as :class:`~contracts.api.serializers.ContractSerializer` shows it, with
    ``Retry-After`` (whole seconds) while a run of it is queued or running
    (:func:`contracts.services.runs.poll_after`)."""
    response = Response(s.ContractSerializer(contract).data, status=status)
    seconds = poll_after(contract)
    if seconds is not None:
        response["Retry-After"] = str(seconds)
    return response
