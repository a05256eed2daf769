"""The category-map console, mounted twice: ``platform/map/`` and ``a/<agency_id>/map/``."""

from django.urls import path

from .views import maps as views

PAGES = [
    ("", views.home, "home"),
    ("category/<id:category>/", views.category, "category"),
    ("matrix/", views.matrix, "matrix"),
    ("dependency/", views.dependency, "dependency"),
    ("role/", views.role, "role"),
    ("publish/", views.publish, "publish"),
    ("discard/", views.discard, "discard"),
    ("versions/", views.versions, "versions"),
    ("export.json", views.export, "export"),
    ("import/", views.import_, "import"),
]

app_name = "map"
urlpatterns = [path(f"platform/map/{route}", pair[0], name=f"platform_{name}") for route, pair, name in PAGES] + [
    path(f"a/<id:agency_id>/map/{route}", pair[1], name=f"agency_{name}") for route, pair, name in PAGES
]
# the agency's preview runs on its contracts, which only the contracts app reads (config/urls.py
# mounts contracts.views.pages.map_preview at a/<agency_id>/map/preview/)
urlpatterns.append(path("platform/map/preview/", views.platform_preview, name="platform_preview"))

from .views import rules as rule_views  # noqa: E402

urlpatterns += [
    path("a/<id:agency_id>/rules/", rule_views.rule_list, name="rules"),
    path("a/<id:agency_id>/rules/new/", rule_views.rule_detail, name="rule_new"),
    path("a/<id:agency_id>/rules/<id:rule_id>/", rule_views.rule_detail, name="rule"),
    path("a/<id:agency_id>/rules/<id:rule_id>/delete/", rule_views.rule_delete, name="rule_delete"),
    path("a/<id:agency_id>/rules/export.csv", rule_views.rule_export, name="rules_export"),
    path("a/<id:agency_id>/rules/import/", rule_views.rule_import, name="rules_import"),
]

from .views import profiles as profile_views  # noqa: E402

urlpatterns += [
    path("a/<id:agency_id>/profile/", profile_views.profile, name="profile"),
    path("a/<id:agency_id>/profile/export.csv", profile_views.profile_export, name="profile_export"),
    path("a/<id:agency_id>/profile/import/", profile_views.profile_import, name="profile_import"),
]
