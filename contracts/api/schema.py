"""drf-spectacular extension: documents the token authentication as an HTTP bearer scheme."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class ApiTokenScheme(OpenApiAuthenticationExtension):
    target_class = "accounts.authentication.ApiTokenAuthentication"
    name = "apiToken"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "bearerFormat": "rdk_<prefix>_<secret>",
            "description": "An agency API token, created by an agency admin on the API tokens page.",
        }
