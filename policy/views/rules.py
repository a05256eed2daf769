"""The agency-rules console at ``/a/<id>/rules/``: what the agency's reviewers taught, where each
rule came from, and its edit, disable, CSV export and import.

Every member reads; agency admins change rules (reviewers teach them by deciding proposals).
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Max
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import Role
from accounts.web import member_required, report_error

from .. import selectors
from ..models import RuleKind
from ..services import rules as rule_services

#: Most rules one page lists.
PAGE_SIZE = 200
ACTIONS = ("keep", "redact", "review")


def _base(membership) -> str:
    return reverse("map:rules", kwargs={"agency_id": membership.agency_id})


def _require_admin(membership) -> None:
    if not membership.allows(Role.ADMIN):
        raise PermissionDenied("only an agency admin changes rules")


def _categories(membership) -> dict[int, str]:
    version = selectors.map_version_in_force(agency=membership.agency)
    return {int(row["id"]): row["name_cs"] or row["name_en"] for row in version.data["categories"]}


@member_required(Role.CLERK)
def rule_list(request, membership):
    """All rules with their action, decisions and provenance; filters ``q``, ``kind``, ``action``, ``enabled``."""
    rules = selectors.rules_for_agency(agency=membership.agency).annotate(last_vote=Max("votes__created_at"))
    filters = {k: request.GET.get(k, "") for k in ("q", "kind", "action", "enabled")}
    if filters["q"]:
        rules = rules.filter(pattern__icontains=filters["q"])
    if filters["kind"] in RuleKind.values:
        rules = rules.filter(kind=filters["kind"])
    if filters["enabled"] in ("true", "false"):
        rules = rules.filter(enabled=filters["enabled"] == "true")
    rows = list(rules)
    if filters["action"] in ACTIONS:
        rows = [r for r in rows if r.action == filters["action"]]
    return render(
        request,
        "policy/rules_list.html",
        {
            "membership": membership,
            "rules": rows[:PAGE_SIZE],
            "total": len(rows),
            "more": len(rows) > PAGE_SIZE,
            "filters": filters,
            "kinds": RuleKind.choices,
            "can_edit": membership.allows(Role.ADMIN),
            "categories": _categories(membership),
        },
    )


def _form_values(request) -> dict:
    category = request.POST.get("category", "").strip()
    try:
        return {
            "kind": request.POST.get("kind", ""),
            "pattern": request.POST.get("pattern", ""),
            "category": int(category) if category else None,
            "keep_votes": int(request.POST.get("keep_votes", "0") or 0),
            "redact_votes": int(request.POST.get("redact_votes", "0") or 0),
            "enabled": request.POST.get("enabled") == "on",
            "note": request.POST.get("note", ""),
        }
    except ValueError:
        raise ValidationError(_("Category and decision counts must be whole numbers.")) from None


@member_required(Role.CLERK)
def rule_detail(request, membership, rule_id: int | None = None):
    """One rule: the form (admins), the decisions it counted (contract, reviewer, vote, date)."""
    rule = selectors.rule_get(agency=membership.agency, rule_id=rule_id) if rule_id else None
    if request.method == "POST":
        _require_admin(membership)
        try:
            rule = rule_services.rule_save(
                agency=membership.agency, user=request.user, rule=rule, **_form_values(request)
            )
        except ValidationError as exc:
            report_error(request, exc)
        else:
            messages.success(request, _("Rule saved."))
            return redirect("map:rule", agency_id=membership.agency_id, rule_id=rule.pk)
    return render(
        request,
        "policy/rule_detail.html",
        {
            "membership": membership,
            "rule": rule,
            "votes": list(selectors.rule_votes(rule=rule)[:100]) if rule else [],
            "kinds": RuleKind.choices,
            "can_edit": membership.allows(Role.ADMIN),
            "categories": sorted(_categories(membership).items()),
        },
    )


@require_POST
@member_required(Role.CLERK)
def rule_delete(request, membership, rule_id: int):
    """Delete a rule (admins); contracts it decided keep their proposals."""
    _require_admin(membership)
    rule = selectors.rule_get(agency=membership.agency, rule_id=rule_id)
    rule_services.rule_delete(rule=rule)
    messages.success(request, _("Rule deleted."))
    return redirect(_base(membership))


@member_required(Role.CLERK)
def rule_export(request, membership):
    """The agency's rules as CSV (UTF-8), see ``policy.services.rules.RULE_CSV_COLUMNS``."""
    response = HttpResponse(
        rule_services.rules_export_csv(agency=membership.agency), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="rules-agency-{membership.agency_id}.csv"'
    return response


@require_POST
@member_required(Role.CLERK)
def rule_import(request, membership):
    """Create or update rules from an uploaded CSV (admins); all or nothing."""
    _require_admin(membership)
    upload = request.FILES.get("file")
    if upload is None:
        messages.error(request, _("Choose a CSV file."))
        return redirect(_base(membership))
    if upload.size > 5_000_000:
        messages.error(request, _("The file is larger than 5 MB."))
        return redirect(_base(membership))
    try:
        created, updated = rule_services.rules_import_csv(
            agency=membership.agency, user=request.user, data=upload.read()
        )
    except ValidationError as exc:
        report_error(request, exc)
    else:
        counts = {"created": created, "updated": updated}
        messages.success(request, _("Imported: %(created)d new rules, %(updated)d updated.") % counts)
    return redirect(_base(membership))
