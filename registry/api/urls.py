"""The registry's part of the REST API (``config.api_urls`` mounts it under ``api/v1/``)."""

from django.urls import path

from . import views

urlpatterns = [
    path("contracts/<id:contract_id>/registry/", views.RegistryMetadataView.as_view(), name="registry"),
    path("contracts/<id:contract_id>/registry/package/", views.RegistryPackageView.as_view(), name="registry_package"),
    path("contracts/<id:contract_id>/registry/sent/", views.PackageSentView.as_view(), name="registry_package_sent"),
    path("contracts/<id:contract_id>/registry/reply/", views.RegistryReplyView.as_view(), name="registry_reply"),
    path("contracts/<id:contract_id>/register/", views.RegisterView.as_view(), name="register"),
]
