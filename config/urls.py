"""URL configuration; the web UI and the REST API arrive with their issues."""

from django.contrib import admin
from django.http import HttpResponse
from django.urls import path


def healthz(request):
    """Liveness probe for the container HEALTHCHECK: answers 200 "ok"."""
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", healthz),
]
