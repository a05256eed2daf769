from django.urls import path

from . import views

app_name = "webhooks"
urlpatterns = [
    path("", views.webhook_list, name="list"),
    path("<int:webhook_id>/", views.webhook_detail, name="detail"),
    path("<int:webhook_id>/delete/", views.webhook_remove, name="delete"),
    path("deliveries/<int:delivery_id>/redeliver/", views.webhook_redeliver, name="redeliver"),
]
