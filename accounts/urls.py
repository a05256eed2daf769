from django.urls import path

from . import views

app_name = "accounts"
urlpatterns = [
    path("members/", views.members, name="members"),
    path("members/<id:member_id>/", views.member_update, name="member_update"),
    path("invitations/<id:invitation_id>/revoke/", views.invitation_revoke, name="invitation_revoke"),
    path("settings/", views.agency_settings, name="settings"),
    path("api-tokens/", views.api_tokens, name="api_tokens"),
    path("api-tokens/<id:token_id>/revoke/", views.api_token_revoke, name="api_token_revoke"),
]
