"""Platform admin: read-only views of contracts and their audit trail, with a CSV export."""

import json

from django.contrib import admin
from django.http import HttpResponse
from django.utils.translation import gettext_lazy as _

from policy.spreadsheet import SafeWriter

from .models import AuditEvent, Contract, Run, WebhookDelivery


@admin.action(description=_("Export the audit trail of the selected contracts (CSV)"))
def export_audit(modeladmin, request, queryset):
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="audit.csv"'
    writer = SafeWriter(response)
    writer.writerow(["agency", "contract", "time", "user", "action", "detail"])
    events = (
        AuditEvent.objects.filter(contract__in=queryset)
        .select_related("agency", "user")
        .order_by("contract", "created_at")
    )
    for e in events:
        writer.writerow(
            [
                e.agency.ico,
                e.contract_id,
                e.created_at.isoformat(),
                e.user.username if e.user else "",
                e.action,
                json.dumps(e.detail, ensure_ascii=False),
            ]
        )
    return response


class ReadOnly:
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class AuditInline(ReadOnly, admin.TabularInline):
    model = AuditEvent
    extra = 0
    fields = readonly_fields = ("created_at", "user", "action", "detail")


class RunInline(ReadOnly, admin.TabularInline):
    model = Run
    extra = 0
    fields = readonly_fields = (
        "kind",
        "state",
        "phase",
        "progress_done",
        "progress_total",
        "error",
        "created_at",
        "finished_at",
    )


@admin.register(Contract)
class ContractAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["title", "agency", "status", "created_at", "published_at"]
    list_filter = ["status", "agency"]
    search_fields = ["title", "counterparty"]
    actions = [export_audit]
    inlines = [RunInline, AuditInline]


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(admin.ModelAdmin):
    """Platform staff: every agency's deliveries, read-only (agency admins see theirs on the Webhooks page)."""

    list_display = ["event", "webhook", "agency", "state", "attempts", "response_status", "created_at"]
    list_filter = ["state", "event", "agency"]
    readonly_fields = [f.name for f in WebhookDelivery._meta.fields]

    def has_add_permission(self, request):
        return False
