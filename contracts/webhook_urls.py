from django.urls import path

from . import webhook_views

app_name = "webhooks"
urlpatterns = [
    path("", webhook_views.webhook_list, name="list"),
    path("<id:webhook_id>/", webhook_views.webhook_detail, name="detail"),
    path("<id:webhook_id>/delete/", webhook_views.webhook_remove, name="delete"),
    path("deliveries/<id:delivery_id>/redeliver/", webhook_views.webhook_redeliver, name="redeliver"),
]
