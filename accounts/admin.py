from django.contrib import admin

from .models import Agency, ApiToken, Membership
from .services import api_token_revoke


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Agency)
class AgencyAdmin(admin.ModelAdmin):
    list_display = ["name", "ico", "data_box_id", "created_at"]
    search_fields = ["name", "ico"]
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "agency", "role"]
    list_filter = ["role", "agency"]
    search_fields = ["user__username", "agency__name"]


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Platform staff see tokens (never their secrets, which are not stored) and can revoke them."""

    list_display = ["name", "agency", "role", "prefix", "created_at", "last_used_at", "expires_at", "revoked_at"]
    list_filter = ["role", "agency"]
    search_fields = ["name", "prefix", "agency__name"]
    readonly_fields = ["agency", "name", "role", "prefix", "user", "created_by", "created_at", "last_used_at"]
    exclude = ["key_sha256"]
    actions = ["revoke"]

    def has_add_permission(self, request):
        return False  # tokens are created by agency admins, shown once

    @admin.action(description="Revoke the selected tokens")
    def revoke(self, request, queryset):
        for token in queryset:
            api_token_revoke(token=token, revoked_by=request.user)
