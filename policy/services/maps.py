"""Writes of category maps: draft edits, import, publication, with the diff and the warnings the
console shows. Every write validates the whole map with the engine's ``CategoryMap.from_dict``
and records a :class:`~policy.models.MapChange`."""

from __future__ import annotations

import copy

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import Agency
from policy import selectors
from policy.models import MapChange, MapDraft, MapVersion
from policy.vocabulary import in_reader_language, term, terms
from redactor import CategoryMap, errors


def map_check(data: dict) -> CategoryMap:
    """Validate a map in the JSON format; returns the engine's map. Raises ``ValidationError``
    (code ``invalid_map``) with the engine's explanation (unknown categories, scopes, roles...)."""
    try:
        return CategoryMap.from_dict(data)
    except errors.CategoryMapError as exc:
        raise ValidationError(str(exc), code="invalid_map") from None


def _log(agency: Agency | None, user, action: str, summary: str, version: MapVersion | None = None) -> None:
    MapChange.objects.create(agency=agency, user=user, action=action, summary=summary[:4000], version=version)


@transaction.atomic
def map_draft_open(*, agency: Agency | None, user: User) -> MapDraft:
    """The owner's draft, created as a copy of the map in force when there is none (copy on
    write: an agency without a version of its own uses the platform default)."""
    draft = selectors.map_draft(agency=agency)
    if draft is not None:
        return draft
    base = selectors.map_version_in_force(agency=agency)
    draft = MapDraft(agency=agency, data=copy.deepcopy(base.data), based_on=base, updated_by=user)
    draft.save()
    _log(agency, user, "draft_opened", _("Draft started from %(version)s") % {"version": _version_label(base)})
    return draft


def _version_label(version: MapVersion) -> str:
    owner = version.agency.name if version.agency else _("platform default")
    return f"{owner} v{version.number}"


def _save(draft: MapDraft, data: dict, user, summary: str, action: str = "draft_edited") -> MapDraft:
    map_check(data)
    draft.data, draft.updated_by = data, user
    draft.save(update_fields=["data", "updated_by", "updated_at"])
    _log(draft.agency, user, action, summary)
    return draft


def _row(data: dict, category: int) -> dict:
    for row in data["categories"]:
        if int(row["id"]) == category:
            return row
    raise ValidationError(_("The map has no category %(id)s.") % {"id": category}, code="unknown_category")


@transaction.atomic
def map_category_update(
    *,
    draft: MapDraft,
    user: User,
    category: int,
    type: str,
    enabled: bool,
    name_cs: str,
    name_en: str,
    group: str,
) -> MapDraft:
    """Change one category's type (primary / secondary / not subject), enabled flag, names and group.
    Raises ``ValidationError`` for an unknown category or type."""
    if type not in CategoryMap.TYPES:
        raise ValidationError(_("Unknown type %(type)s.") % {"type": type}, code="invalid_map")
    data = copy.deepcopy(draft.data)
    row = _row(data, category)
    before = {k: row.get(k) for k in ("type", "enabled", "name_cs", "name_en", "group")}
    row.update(type=type, enabled=enabled, name_cs=name_cs.strip(), name_en=name_en.strip(), group=group.strip())
    changed = ", ".join(f"{term(k)}: {term(before[k])} → {term(row[k])}" for k in before if before[k] != row[k])
    return _save(draft, data, user, f"{category} {_name(row)}: {changed or _('no change')}")


@transaction.atomic
def map_dependency_set(
    *, draft: MapDraft, user: User, category: int, depends_on: int, scopes: list[str] | None
) -> MapDraft:
    """Make ``category`` depend on ``depends_on`` within ``scopes`` (``holder``, ``party``,
    ``sentence``, ``coreference``), or remove the dependency (``scopes=None``).

    A secondary finding of ``category`` is redacted when a finding of ``depends_on`` is linked to
    it within one of the scopes (the thesis' binary matrix, with a scope per cell). Raises
    ``ValidationError`` for unknown categories, a self-dependency or unknown or no scopes.
    """
    data = copy.deepcopy(draft.data)
    row = _row(data, category)
    _row(data, depends_on)
    if depends_on == category:
        raise ValidationError(_("A category cannot depend on itself."), code="invalid_map")
    deps = [d for d in row.get("depends_on", []) if int(d["category"]) != depends_on]
    if scopes is None:
        summary = _("%(id)s %(name)s no longer depends on %(dep)s") % {
            "id": category,
            "name": _name(row),
            "dep": depends_on,
        }
    else:
        bad = [s for s in scopes if s not in CategoryMap.SCOPES]
        if bad or not scopes:
            raise ValidationError(
                _("Choose scopes from: %(scopes)s.") % {"scopes": ", ".join(CategoryMap.SCOPES)}, code="invalid_map"
            )
        deps.append({"category": depends_on, "scopes": [s for s in CategoryMap.SCOPES if s in scopes]})
        summary = _("%(id)s %(name)s depends on %(dep)s within: %(scopes)s") % {
            "id": category,
            "name": _name(row),
            "dep": depends_on,
            "scopes": terms(s for s in CategoryMap.SCOPES if s in scopes),
        }
    row["depends_on"] = deps
    return _save(draft, data, user, summary)


@transaction.atomic
def map_role_exception_set(*, draft: MapDraft, user: User, role: str, enabled: bool) -> MapDraft:
    """Switch the exception for people acting in ``role`` (``public_official``,
    ``statutory_representative``) on or off. Raises ``ValidationError`` for a role the map lacks."""
    if role not in CategoryMap.ROLES:
        raise ValidationError(_("Unknown role %(role)s.") % {"role": role}, code="invalid_map")
    data = copy.deepcopy(draft.data)
    rows = [e for e in data.get("role_exceptions", []) if e["role"] == role]
    if not rows:
        raise ValidationError(_("The map has no exception for %(role)s.") % {"role": role}, code="invalid_map")
    for e in rows:
        e["enabled"] = enabled
    state = _("on") if enabled else _("off")
    return _save(draft, data, user, _("Exception for %(role)s: %(state)s") % {"role": term(role), "state": state})


@transaction.atomic
def map_import(*, agency: Agency | None, user: User, data: dict) -> MapDraft:
    """Replace the owner's draft with an imported map (the JSON that export and ``manage.py
    redact --policy`` use). Raises ``ValidationError`` (``invalid_map``) and then changes nothing."""
    map_check(data)
    draft = map_draft_open(agency=agency, user=user)
    return _save(draft, copy.deepcopy(data), user, _("Imported a map file"), action="imported")


@transaction.atomic
def map_draft_discard(*, agency: Agency | None, user: User) -> None:
    """Throw the owner's draft away."""
    draft = selectors.map_draft(agency=agency)
    if draft is not None:
        draft.delete()
        _log(agency, user, "draft_discarded", _("Draft discarded"))


@transaction.atomic
def map_publish(*, agency: Agency | None, user: User, note: str = "") -> MapVersion:
    """Publish the owner's draft as its next immutable version; contracts processed from now on use
    it. Raises ``ValidationError`` (``no_draft``) when there is nothing to publish."""
    draft = selectors.map_draft(agency=agency)
    if draft is None:
        raise ValidationError(_("There is no draft to publish."), code="no_draft")
    latest = selectors.map_versions(agency=agency).select_for_update().first()
    number = (latest.number if latest else 0) + 1
    data = copy.deepcopy(draft.data)
    data["version"] = number
    data["name"] = agency.name if agency else data.get("name") or "Platform default"
    map_check(data)
    previous = latest or (None if agency is None else selectors.platform_version_current())
    version = MapVersion.objects.create(agency=agency, number=number, data=data, note=note, created_by=user)
    lines = map_diff(previous.data if previous else {}, data)
    _log(agency, user, "published", f"v{number}: " + ("; ".join(lines) or _("no change")), version=version)
    draft.delete()
    return version


# -- comparing ------------------------------------------------------------------------------------
def _name(row: dict) -> str:
    """A category's name in the reader's language (its Czech name unless the interface is English)."""
    return in_reader_language(row.get("name_cs"), row.get("name_en"))


def _setting(value) -> str:
    """A map setting's value for a change line: codes in words, lists and tables shortened."""
    if isinstance(value, dict):
        return ", ".join(f"{term(k)}: {_setting(v)}" for k, v in value.items()) or "–"
    if isinstance(value, (list, tuple)):
        return terms(value) or "–"
    return term(value)


def _dependency_diff(cid: int, a: dict, b: dict) -> list[str]:
    """The lines of category ``cid`` whose dependencies changed from row ``a`` to row ``b``."""
    lines = []
    deps_a = {int(d["category"]): tuple(d["scopes"]) for d in a.get("depends_on", [])}
    deps_b = {int(d["category"]): tuple(d["scopes"]) for d in b.get("depends_on", [])}
    for dep in sorted(deps_a.keys() | deps_b.keys()):
        values = {"id": cid, "name": _name(b), "dep": dep}
        if dep not in deps_b:
            lines.append(_("%(id)s %(name)s no longer depends on %(dep)s") % values)
        elif dep not in deps_a:
            within = {**values, "scopes": terms(deps_b[dep])}
            lines.append(_("%(id)s %(name)s depends on %(dep)s within: %(scopes)s") % within)
        elif deps_a[dep] != deps_b[dep]:
            lines.append(
                _("%(id)s %(name)s, dependency on %(dep)s: %(before)s → %(after)s")
                % {**values, "before": terms(deps_a[dep]), "after": terms(deps_b[dep])}
            )
    return lines


def _category_diff(old_rows: dict[int, dict], new_rows: dict[int, dict]) -> list[str]:
    """The lines of the categories removed, added and changed from ``old_rows`` to ``new_rows``."""
    lines = [f"− {cid} {_name(old_rows[cid])}" for cid in sorted(old_rows.keys() - new_rows.keys())]
    lines += [
        f"+ {cid} {_name(new_rows[cid])} ({term(new_rows[cid]['type'])})"
        for cid in sorted(new_rows.keys() - old_rows.keys())
    ]
    for cid in sorted(old_rows.keys() & new_rows.keys()):
        a, b = old_rows[cid], new_rows[cid]
        for key in ("type", "enabled", "name_cs", "name_en", "group"):
            if a.get(key) != b.get(key):
                lines.append(f"{cid} {_name(b)}: {term(key)} {term(a.get(key))} → {term(b.get(key))}")
        lines += _dependency_diff(cid, a, b)
    return lines


def _role_diff(old: dict, new: dict) -> list[str]:
    """The lines of the role exceptions added, switched or given another action."""
    lines = []
    roles_a = {e["role"]: e for e in old.get("role_exceptions", [])}
    for e in new.get("role_exceptions", []):
        before = roles_a.get(e["role"])
        if before is None or before.get("enabled") != e.get("enabled") or before.get("action") != e.get("action"):
            state = _("on") if e.get("enabled") else _("off")
            lines.append(
                _("Exception for %(role)s: %(state)s (%(action)s)")
                % {"role": term(e["role"]), "state": state, "action": term(e["action"])}
            )
    return lines


def map_diff(old: dict, new: dict) -> list[str]:
    """What changed from map ``old`` to ``new``, one readable line per change (categories by id)."""
    old_rows = {int(r["id"]): r for r in old.get("categories", [])}
    new_rows = {int(r["id"]): r for r in new.get("categories", [])}
    lines = _category_diff(old_rows, new_rows) + _role_diff(old, new)
    for key in ("unlinked_secondary_action", "unknown_holder_action", "personal_holders", "holder_overrides"):
        if old and old.get(key) != new.get(key):
            lines.append(f"{term(key)}: {_setting(old.get(key))} → {_setting(new.get(key))}")
    return lines


def map_warnings(cmap: CategoryMap) -> list[str]:
    """Conflicts that are valid but probably unintended, explained: a secondary category without
    dependencies (always the map's unlinked action), dependencies of a primary or not-subject
    category (ignored), and dependencies on a disabled category (never linked)."""
    out = []
    for rule in sorted(cmap.categories.values(), key=lambda r: r.id):
        if not rule.enabled:
            continue
        if rule.type == "secondary" and not rule.depends_on:
            out.append(
                _("%(id)s %(name)s is secondary but depends on nothing, so it is always “%(action)s”.")
                % {"id": rule.id, "name": rule.name_cs, "action": term(cmap.unlinked_secondary_action.value)}
            )
        if rule.type != "secondary" and rule.depends_on:
            out.append(
                _("%(id)s %(name)s is %(type)s: its dependencies are ignored.")
                % {"id": rule.id, "name": rule.name_cs, "type": term(rule.type)}
            )
        for dep in rule.depends_on:
            target = cmap.rule(dep.category)
            if target is not None and not target.enabled:
                out.append(
                    _("%(id)s %(name)s depends on %(dep)s, which is disabled and never found.")
                    % {"id": rule.id, "name": rule.name_cs, "dep": dep.category}
                )
    return out
