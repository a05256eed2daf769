"""The registry's pages, mounted beside a contract's (``a/<agency_id>/contracts/``): the panel's
writes, the agency's registry settings and its records already in the registry (import, audit,
correction)."""

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
    path("registry/records/", views.published_records, name="records"),
    path("registry/records/import/", views.records_import, name="records_import"),
    path("registry/records/import/<id:import_id>/retry/", views.records_import_retry, name="records_import_retry"),
    path("registry/records/audit/", views.records_audit, name="records_audit"),
    path("registry/records/audit.csv", views.records_csv, name="records_csv"),
    path("registry/records/<id:record_id>/correct/", views.record_correct, name="record_correct"),
    path("registry/records/<id:record_id>/as-is/", views.record_file_as_is, name="record_file_as_is"),
]
