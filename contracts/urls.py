from django.urls import path

from . import review_views, views

app_name = "contracts"
urlpatterns = [
    path("", views.contract_list, name="list"),
    path("upload/", views.contract_upload, name="upload"),
    path("exports/", views.agency_exports, name="exports"),
    path("exports/<str:job_id>/download/", views.agency_export_download, name="export_download"),
    path("<int:contract_id>/", views.contract_detail, name="detail"),
    path("<int:contract_id>/status.json", views.contract_status, name="status"),
    path("<int:contract_id>/retry/", views.contract_retry, name="retry"),
    path("<int:contract_id>/delete/", views.contract_delete, name="delete"),
    path("<int:contract_id>/review/", review_views.review, name="review"),
    path("<int:contract_id>/review/state.json", review_views.review_state, name="review_state"),
    path("<int:contract_id>/review/decide/", review_views.review_decide, name="review_decide"),
    path("<int:contract_id>/review/manual/", review_views.review_manual, name="review_manual"),
    path("<int:contract_id>/review/undo/", review_views.review_undo, name="review_undo"),
    path("<int:contract_id>/approve/", review_views.contract_approve, name="approve"),
    path("<int:contract_id>/pages/<int:page>.png", views.page_image, name="page_image"),
    path("<int:contract_id>/pages/<int:page>/words.json", views.page_text, name="page_text"),
    path("<int:contract_id>/download/", views.download_redacted, name="download"),
    path("<int:contract_id>/download/text/", views.download_text, name="download_text"),
    path("<int:contract_id>/original/", views.download_original, name="original"),
    path("<int:contract_id>/export/", views.text_export, name="text_export"),
    path("<int:contract_id>/audit/", views.audit_trail, name="audit"),
]
