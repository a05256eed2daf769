"""The registry's part of the REST API (``config.api_urls`` mounts it under ``api/v1/``)."""

from django.urls import path

from . import records, views

urlpatterns = [
    path("contracts/<id:contract_id>/registry/", views.RegistryMetadataView.as_view(), name="registry"),
    path("contracts/<id:contract_id>/registry/package/", views.RegistryPackageView.as_view(), name="registry_package"),
    path("contracts/<id:contract_id>/registry/sent/", views.PackageSentView.as_view(), name="registry_package_sent"),
    path("contracts/<id:contract_id>/registry/reply/", views.RegistryReplyView.as_view(), name="registry_reply"),
    path("contracts/<id:contract_id>/register/", views.RegisterView.as_view(), name="register"),
    path("registry/records/", records.PublishedRecordList.as_view(), name="registry_records"),
    path("registry/records/csv/", records.PublishedRecordCsv.as_view(), name="registry_records_csv"),
    path("registry/records/imports/", records.RecordImportView.as_view(), name="registry_records_import"),
    path(
        "registry/records/imports/<id:import_id>/",
        records.RecordImportDetail.as_view(),
        name="registry_records_import_detail",
    ),
    path("registry/records/audit/", records.RecordAuditView.as_view(), name="registry_records_audit"),
    path(
        "registry/records/<int:record_id>/correct/",
        records.RecordCorrectView.as_view(),
        name="registry_records_correct",
    ),
    path(
        "registry/records/<int:record_id>/as-is/",
        records.RecordFileAsIsView.as_view(),
        name="registry_records_file_as_is",
    ),
]
