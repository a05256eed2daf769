"""The REST API under ``api/v1/`` (namespace ``api``): the contracts' resources and the
registry's, then a JSON 404 for every other path."""

from django.urls import re_path

from contracts.api import urls as contracts_api
from contracts.api.contracts import not_found
from registry.api import urls as registry_api

app_name = "api"
urlpatterns = [
    *contracts_api.urlpatterns,
    *registry_api.urlpatterns,
    re_path(r"", not_found),  # last: unknown paths and non-numeric ids get a JSON 404
]
