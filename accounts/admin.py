from django.contrib import admin

from .models import Agency, Membership


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
