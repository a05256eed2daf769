"""The registry's pages, mounted beside a contract's (``a/<agency_id>/contracts/``): the panel's
writes and the agency's registry settings."""

from django.urls import path

from . import views

app_name = "registry"
urlpatterns = [
    path("<id:contract_id>/registry/", views.registry_metadata_save, name="save"),
    path("<id:contract_id>/registry/send/", views.registry_send, name="send"),
    path("<id:contract_id>/registry/package/", views.registry_package, name="package"),
    path("<id:contract_id>/registry/sent/", views.registry_package_sent, name="package_sent"),
    path("<id:contract_id>/registry/reply/", views.registry_reply, name="reply"),
    path("registry/settings/", views.registry_settings, name="settings"),
]
