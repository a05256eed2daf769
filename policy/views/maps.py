"""The category-map console: the platform default (``/platform/map/``, edited by platform staff)
and each agency's map (``/a/<id>/map/``, edited by its agency admins, read by its members).

Every view receives ``(request, owner)``: ``owner.agency`` is None for the platform default and
``owner.can_edit`` says whether the user may change it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import wraps
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from accounts.models import Agency, Role
from accounts.web import member_required, report_error
from redactor import CategoryMap

from .. import selectors
from ..models import MapDraft
from ..preview_jobs import owned_job_meta, owned_job_start, owned_job_state, preview_files
from ..services import maps


@dataclass
class Owner:
    agency: Agency | None
    can_edit: bool

    def url(self, page: str, *args) -> str:
        """The URL of console ``page`` (a name in :data:`policy.urls.PAGES`, or ``preview``)
        for this owner, with the page's own ``args`` (a category id)."""
        if self.agency is None:
            return reverse(f"map:platform_{page}", args=args)
        if page == "preview":  # served by the contracts app, which reads the agency's contracts
            return reverse("agency_map_preview", args=(self.agency.pk,))
        return reverse(f"map:agency_{page}", args=(self.agency.pk, *args))

    @property
    def base(self) -> str:
        """The console's home page for this owner (other pages' URLs start with it)."""
        return self.url("home")

    @property
    def label(self) -> str:
        return self.agency.name if self.agency else _("Platform default")


def staff_required(view):
    """Platform pages: platform staff only (``is_staff``); anyone else logged in gets 403, as
    the default map and the preview documents are no agency's business."""

    @login_required
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not request.user.is_staff:
            raise PermissionDenied("platform staff only")
        return view(request, *args, **kwargs)

    return wrapped


def console(view):
    """Make ``view(request, owner, ...)`` into a platform view and an agency view (a pair)."""

    @staff_required
    @wraps(view)
    def platform(request, *args, **kwargs):
        return view(request, Owner(None, True), *args, **kwargs)

    @member_required(Role.CLERK)
    @wraps(view)
    def agency(request, membership, *args, **kwargs):
        return view(request, Owner(membership.agency, membership.allows(Role.ADMIN)), *args, **kwargs)

    return platform, agency


def _require_edit(owner: Owner) -> None:
    if not owner.can_edit:
        raise PermissionDenied("only an agency admin (or platform staff for the default) may change the map")


def _working(owner: Owner) -> tuple[dict[str, Any], MapDraft | None]:
    """The map shown (its JSON, as :class:`~redactor.decide.category_map.CategoryMap` reads it):
    the draft when there is one, else the version in force; and the draft or None."""
    draft = selectors.map_draft(agency=owner.agency)
    return (draft.data if draft else selectors.map_version_in_force(agency=owner.agency).data), draft


def _back(request, owner: Owner, default: str = ""):
    target = request.POST.get("next", "")
    return redirect(target if target.startswith(owner.base) else owner.base + default)


def _error(request, exc: ValidationError) -> None:
    report_error(request, exc)


# -- pages ----------------------------------------------------------------------------------------
def _home(request, owner: Owner):
    """Categories with filters, role exceptions, warnings, and where the map differs from the default."""
    data, draft = _working(owner)
    in_force = selectors.map_version_in_force(agency=owner.agency)
    default_rows = {r["id"]: r for r in selectors.platform_version_current().data["categories"]}
    q, group, type_, enabled = (request.GET.get(k, "") for k in ("q", "group", "type", "enabled"))
    rows = []
    for row in data["categories"]:
        if q and q.lower() not in f"{row['id']} {row['key']} {row['name_cs']} {row['name_en']}".lower():
            continue
        if (group and row["group"] != group) or (type_ and row["type"] != type_):
            continue
        if enabled and str(row["enabled"]).lower() != enabled:
            continue
        rows.append({**row, "differs": owner.agency is not None and default_rows.get(row["id"]) != row})
    context = {
        "owner": owner,
        "rows": rows,
        "draft": draft,
        "in_force": in_force,
        "own_version": owner.agency is None or in_force.agency_id is not None,
        "groups": sorted({r["group"] for r in data["categories"]}),
        "types": CategoryMap.TYPES,
        "filters": {"q": q, "group": group, "type": type_, "enabled": enabled},
        "roles": data.get("role_exceptions", []),
        "warnings": maps.map_warnings(CategoryMap.from_dict(data)),
        "draft_diff": maps.map_diff(in_force.data, draft.data) if draft else [],
        "default_diff": maps.map_diff(selectors.platform_version_current().data, data) if owner.agency else [],
    }
    return render(request, "policy/map_home.html", context)


def _category(request, owner: Owner, category: int):
    """One category: type, enabled, names, group, and its dependencies with their scopes."""
    data, draft = _working(owner)
    rows = {r["id"]: r for r in data["categories"]}
    if category not in rows:
        raise Http404("no such category")
    if request.method == "POST":
        _require_edit(owner)
        try:
            maps.map_category_update(
                draft=maps.map_draft_open(agency=owner.agency, user=request.user),
                user=request.user,
                category=category,
                type=request.POST.get("type", ""),
                enabled=request.POST.get("enabled") == "on",
                name_cs=request.POST.get("name_cs", ""),
                name_en=request.POST.get("name_en", ""),
                group=request.POST.get("group", ""),
            )
        except ValidationError as exc:
            report_error(request, exc)
        else:
            messages.success(request, _("Saved in the draft."))
        return redirect(owner.url("category", category))
    row = rows[category]
    deps = [{**d, "name": rows[d["category"]]["name_cs"]} for d in row.get("depends_on", [])]
    context = {
        "owner": owner,
        "row": row,
        "deps": deps,
        "types": CategoryMap.TYPES,
        "scopes": CategoryMap.SCOPES,
        "draft": draft,
    }
    context["others"] = [r for r in data["categories"] if r["id"] != category]
    return render(request, "policy/map_category.html", context)


def _matrix(request, owner: Owner):
    """The n × n dependency matrix: row = the secondary category, column = what it depends on."""
    data, draft = _working(owner)
    cats = sorted(data["categories"], key=lambda r: r["id"])
    cells = []
    for row in cats:
        deps = {d["category"]: d["scopes"] for d in row.get("depends_on", [])}
        cells.append({"row": row, "cells": [(col, deps.get(col["id"])) for col in cats]})
    context = {"owner": owner, "cats": cats, "matrix": cells, "draft": draft}
    return render(request, "policy/map_matrix.html", context)


@require_POST
def _dependency(request, owner: Owner):
    """Add, change or remove one dependency (``action`` = set | remove | toggle)."""
    _require_edit(owner)
    try:
        category, depends_on = int(request.POST["category"]), int(request.POST["depends_on"])
    except (KeyError, ValueError):
        messages.error(request, _("Choose two categories."))
        return _back(request, owner)
    action = request.POST.get("action", "set")
    draft = maps.map_draft_open(agency=owner.agency, user=request.user)
    if action == "toggle":
        row: dict[str, Any] = next((r for r in draft.data["categories"] if r["id"] == category), {})
        exists = any(d["category"] == depends_on for d in row.get("depends_on", []))
        scopes = None if exists else ["party", "sentence"]
    elif action == "remove":
        scopes = None
    else:
        scopes = request.POST.getlist("scopes")
    try:
        maps.map_dependency_set(draft=draft, user=request.user, category=category, depends_on=depends_on, scopes=scopes)
    except ValidationError as exc:
        report_error(request, exc)
    return _back(request, owner)


@require_POST
def _role(request, owner: Owner):
    _require_edit(owner)
    role = request.POST.get("role", "")
    try:
        maps.map_role_exception_set(
            draft=maps.map_draft_open(agency=owner.agency, user=request.user),
            user=request.user,
            role=role if role in CategoryMap.ROLES else "",
            enabled=request.POST.get("enabled") == "on",
        )
    except ValidationError as exc:
        report_error(request, exc)
    return _back(request, owner)


@require_POST
def _publish(request, owner: Owner):
    _require_edit(owner)
    try:
        version = maps.map_publish(agency=owner.agency, user=request.user, note=request.POST.get("note", ""))
    except ValidationError as exc:
        report_error(request, exc)
    else:
        messages.success(
            request, _("Version %(n)d is published; contracts processed from now on use it.") % {"n": version.number}
        )
    return redirect(owner.base)


@require_POST
def _discard(request, owner: Owner):
    _require_edit(owner)
    maps.map_draft_discard(agency=owner.agency, user=request.user)
    return redirect(owner.base)


def _versions(request, owner: Owner):
    """Published versions with their notes and diffs, and the trail of changes."""
    versions = list(selectors.map_versions(agency=owner.agency))
    base = None if owner.agency is None else selectors.platform_version_current()
    rows = []
    for i, version in enumerate(versions):
        previous = versions[i + 1] if i + 1 < len(versions) else base
        diff = maps.map_diff(previous.data, version.data) if previous else []
        rows.append({"version": version, "previous": previous, "diff": diff})
    changes = selectors.map_changes(agency=owner.agency)[:200]
    return render(request, "policy/map_versions.html", {"owner": owner, "rows": rows, "changes": changes})


def _export(request, owner: Owner):
    """The map as JSON (the format ``manage.py redact --policy`` reads): ``?version=N`` or ``?draft=1``."""
    if request.GET.get("draft"):
        draft = selectors.map_draft(agency=owner.agency)
        data, suffix = (
            (draft.data, "draft") if draft else (selectors.map_version_in_force(agency=owner.agency).data, "current")
        )
    elif request.GET.get("version", "").isdigit():
        version = selectors.map_version_get(agency=owner.agency, number=int(request.GET["version"]))
        data, suffix = version.data, f"v{version.number}"
    else:
        version = selectors.map_version_in_force(agency=owner.agency)
        data, suffix = version.data, f"v{version.number}"
    name = f"category-map-{owner.agency.ico if owner.agency else 'platform'}-{suffix}.json"
    response = HttpResponse(
        json.dumps(data, ensure_ascii=False, indent=2) + "\n", content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@require_POST
def _import(request, owner: Owner):
    _require_edit(owner)
    upload = request.FILES.get("file")
    try:
        if upload is None or upload.size > 2_000_000:
            raise ValidationError(_("Choose a JSON file exported from a category map (at most 2 MB)."))
        try:
            data = json.loads(upload.read().decode("utf-8"))
        except RecursionError:
            raise ValidationError(_("The file is not valid JSON: it is nested too deeply.")) from None
        except (UnicodeDecodeError, ValueError) as exc:
            raise ValidationError(_("The file is not valid JSON: %(error)s") % {"error": exc}) from None
        maps.map_import(agency=owner.agency, user=request.user, data=data)
    except ValidationError as exc:
        report_error(request, exc)
    else:
        messages.success(request, _("The file replaced the draft. Check the changes, then publish."))
    return redirect(owner.base)


@staff_required
def platform_preview(request):
    """The platform default's preview, on the development documents (``REDACTOR_PREVIEW_DIR``),
    as a job (:func:`policy.jobs.preview_platform`). An agency's preview runs on its own
    contracts: :func:`contracts.views.pages.map_preview` offers them and queues their job, so this app
    never reads contracts."""
    folder = Path(settings.REDACTOR_PREVIEW_DIR)
    files = [(f"d{p.name}", p.name) for p in sorted(folder.glob("*.pdf"))] if folder.is_dir() else []
    sources = (
        [("dall", ngettext("the %(n)d document", "all %(n)d documents", len(files)) % {"n": len(files)})]
        if files
        else []
    ) + files

    def start(source: str, current: dict, draft: dict, once: str) -> str | None:
        if not preview_files(source):
            return None
        return owned_job_start(
            "platform", "policy.jobs.preview_platform", source, current, draft, once=once, source=source
        )

    return preview_page(request, Owner(None, True), sources, start)


def preview_page(request, owner: Owner, sources: list[tuple[str, str]], start) -> HttpResponse:
    """The preview page: a POST of a ``source`` (one of ``sources``, (value, label) pairs) queues
    the job that runs the draft and the version in force on it – ``start(source, current, draft,
    once)`` returns the job id, or None for a source that cannot be previewed; one job per draft
    runs at a time (``once``: a second click while it runs gets the running job) – and redirects
    to the page of that job, which shows its progress until it shows the proposals whose action
    changes, side by side. Another owner's or an expired job id is a 404."""
    draft = _working(owner)[1]
    key = "platform" if owner.agency is None else f"agency:{owner.agency.pk}"
    if request.method == "POST":
        source = request.POST.get("source", "")
        job_id = None
        if draft is not None:
            in_force = selectors.map_version_in_force(agency=owner.agency).data
            job_id = start(source, in_force, draft.data, f"preview:{draft.pk}")
        if job_id is None:
            messages.error(request, _("Choose a contract from the list."))
            return redirect(owner.url("preview"))
        running = owned_job_meta(key, job_id).get("source", source)
        if running != source:
            messages.info(request, _("A preview of this draft is already running; its result will show here first."))
            source = running
        return redirect(f"{owner.url('preview')}?{urlencode({'source': source, 'job': job_id})}")
    source, job_id = request.GET.get("source", ""), request.GET.get("job", "")
    state = owned_job_state(key, job_id) if job_id else None
    if job_id and state is None:
        raise Http404("no such preview")
    if state is not None and state.result is not None and "rows" not in state.result:
        raise Http404("no such preview")  # the agency's other owned job kind: a bulk export
    result = None
    if state is not None and state.state == "finished" and state.result is not None:
        found = state.result
        label = dict(sources).get(source, source)
        result = {"rows": found["rows"], "total": found["total"], "source": label, "many": found["documents"] > 1}
    context = {"owner": owner, "draft": draft, "sources": sources, "source": source, "state": state, "result": result}
    return render(request, "policy/map_preview.html", context)


home = console(_home)
category = console(_category)
matrix = console(_matrix)
dependency = console(_dependency)
role = console(_role)
publish = console(_publish)
discard = console(_discard)
versions = console(_versions)
export = console(_export)
import_ = console(_import)
