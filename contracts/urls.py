from django.urls import path

from .views import pages as views
from .views import review as review_views
from .views import webhooks as webhook_views

app_name = "contracts"
urlpatterns = [
    path("", views.contract_list, name="list"),
    path("upload/", views.contract_upload, name="upload"),
    path("exports/", views.agency_exports, name="exports"),
    path("exports/<str:job_id>/download/", views.agency_export_download, name="export_download"),
    path("<id:contract_id>/", views.contract_detail, name="detail"),
    path("<id:contract_id>/status.json", views.contract_status, name="status"),
    path("<id:contract_id>/retry/", views.contract_retry, name="retry"),
    path("<id:contract_id>/delete/", views.contract_delete, name="delete"),
    path("<id:contract_id>/review/", review_views.review, name="review"),
    path("<id:contract_id>/review/state.json", review_views.review_state, name="review_state"),
    path("<id:contract_id>/review/watchdog/", review_views.review_watchdog, name="review_watchdog"),
    path("<id:contract_id>/review/decide/", review_views.review_decide, name="review_decide"),
    path("<id:contract_id>/review/manual/", review_views.review_manual, name="review_manual"),
    path("<id:contract_id>/review/undo/", review_views.review_undo, name="review_undo"),
    path("<id:contract_id>/review/like-earlier/", review_views.review_like_earlier, name="review_like_earlier"),
    path("<id:contract_id>/approve/", review_views.contract_approve, name="approve"),
    path("<id:contract_id>/return/", review_views.contract_return, name="return"),
    path("<id:contract_id>/pages/<id:page>.png", views.page_image, name="page_image"),
    path("<id:contract_id>/pages/<id:page>/words.json", views.page_text, name="page_text"),
    path("<id:contract_id>/download/", views.download_redacted, name="download"),
    path("<id:contract_id>/download/text/", views.download_text, name="download_text"),
    path("<id:contract_id>/original/", views.download_original, name="original"),
    path("<id:contract_id>/export/", views.text_export, name="text_export"),
    path("<id:contract_id>/audit/", views.audit_trail, name="audit"),
]

#: The agency's webhook pages, mounted at a/<agency_id>/webhooks/ (config/urls.py) as the namespace
#: ``webhooks``.
webhook_urlpatterns = [
    path("", webhook_views.webhook_list, name="list"),
    path("<id:webhook_id>/", webhook_views.webhook_detail, name="detail"),
    path("<id:webhook_id>/delete/", webhook_views.webhook_remove, name="delete"),
    path("deliveries/<id:delivery_id>/redeliver/", webhook_views.webhook_redeliver, name="redeliver"),
]
