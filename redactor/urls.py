"""The category-map console, mounted twice: ``platform/map/`` and ``a/<agency_id>/map/``."""

from django.urls import path

from . import views

PAGES = [
    ("", views.home, "home"),
    ("category/<int:category>/", views.category, "category"),
    ("matrix/", views.matrix, "matrix"),
    ("dependency/", views.dependency, "dependency"),
    ("role/", views.role, "role"),
    ("publish/", views.publish, "publish"),
    ("discard/", views.discard, "discard"),
    ("versions/", views.versions, "versions"),
    ("export.json", views.export, "export"),
    ("import/", views.import_, "import"),
    ("preview/", views.preview, "preview"),
]

app_name = "map"
urlpatterns = [path(f"platform/map/{route}", pair[0], name=f"platform_{name}") for route, pair, name in PAGES] + [
    path(f"a/<int:agency_id>/map/{route}", pair[1], name=f"agency_{name}") for route, pair, name in PAGES
]
