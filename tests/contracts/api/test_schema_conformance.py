"""Schemathesis against the API's own OpenAPI schema: generated requests (valid and invalid) to
every operation must get no server error and only responses the schema describes (status code,
content type, headers, body)."""

from __future__ import annotations

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from schemathesis.core.parameters import ParameterLocation

from accounts.models import Role
from tests.plugins.tokens import make_token

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _keep_the_test_transaction():
    """As Django's test client does: the test's transaction must survive the end of a request
    (the WSGI app would otherwise close the connection in ``request_finished``)."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def admin_token(agency, admin_user):
    """The strongest role, so every operation gets past the permission check."""
    return make_token(agency, Role.ADMIN, created_by=admin_user)[1]


# Loaded at collection, from the WSGI app itself (the schema view needs no database); requests
# then go to the same app in this process. (schemathesis' lazy from_fixture loader needs
# pytest's private Node._nodeid, which pytest 9 removed.)
schema = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", get_wsgi_application())


@schema.parametrize()
# derandomized: the same generated requests on every run, so CI is repeatable (a new finding is a real change)
@hypothesis_settings(
    max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True, database=None
)
def test_api_conforms_to_its_schema(case, admin_token, processed):
    contract_id = (case.path_parameters or {}).get("contract_id")
    if isinstance(contract_id, int) and contract_id % 2 == 0:
        # half of the generated ids point at a real processed contract, so the operations get past 404
        case.path_parameters["contract_id"] = processed.pk
    # All checks but "schema-valid request accepted": the schema cannot say that a file must be a
    # PDF, that proposal ids must belong to the contract, or which status allows an operation, so
    # schema-valid requests are rightly refused with 400/404/409. Server errors, undocumented
    # status codes, content types or headers and bodies that violate the schema all fail.
    # A negative case may have removed the Authorization header on purpose ("required header
    # missing"): then send none, so that the API must refuse it. Otherwise authenticate.
    headers_negative = case.meta is not None and case.meta.is_negative_at(ParameterLocation.HEADER)
    headers = {} if headers_negative else {"Authorization": f"Bearer {admin_token}"}
    case.call_and_validate(headers=headers, excluded_checks=[schemathesis.checks.positive_data_acceptance])
