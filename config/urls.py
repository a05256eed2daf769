"""URL configuration: login and password reset, agency-scoped pages under ``/a/<agency_id>/``."""

from django.contrib import admin
from django.http import HttpResponse, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path, register_converter

from accounts.views import PasswordResetView, home, invitation
from config.converters import IdConverter
from config.middleware import too_large
from contracts.views.pages import map_preview

register_converter(IdConverter, "id")  # before include() imports the URL modules that use it

from contracts.urls import webhook_urlpatterns  # noqa: E402 - its routes use the "id" converter


def healthz(request):
    """Liveness probe for the container HEALTHCHECK: answers 200 "ok"."""
    return HttpResponse("ok", content_type="text/plain")


def favicon(request):
    """``/favicon.ico``, which browsers ask for on their own: the site's icon."""
    return HttpResponsePermanentRedirect(static("img/favicon.svg"))


urlpatterns = [
    path("", home, name="home"),
    path("accounts/password_reset/", PasswordResetView.as_view(), name="password_reset"),  # rate-limited
    path("accounts/invitation/<str:token>/", invitation, name="invitation"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("a/<id:agency_id>/contracts/", include("contracts.urls")),
    path("a/<id:agency_id>/contracts/", include("registry.web.urls")),
    path("a/<id:agency_id>/webhooks/", include((webhook_urlpatterns, "webhooks"))),
    path("a/<id:agency_id>/", include("accounts.urls")),
    path("api/v1/", include("config.api_urls")),
    # the agency map console's preview reads the agency's contracts: a contracts view (redactor never imports contracts)
    path("a/<id:agency_id>/map/preview/", map_preview, name="agency_map_preview"),
    path("", include("policy.urls")),
    path("admin/", admin.site.urls),
    path("healthz", healthz),
    path("favicon.ico", favicon),
    path("too-large/", too_large, name="too_large"),
]
