"""Writes of category maps (draft edits, import, publication) and of agency rules (votes from
reviewers' decisions, console edits, CSV import and export).

Every map write validates the whole map with the engine's ``CategoryMap.from_dict`` and records a
:class:`~redactor.models.MapChange`."""

from __future__ import annotations

import copy
import csv
import io
import uuid

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from accounts.models import Agency
from accounts.services import PROFILE_CSV_COLUMNS, PROFILE_CSV_FIELDS
from redactor.core.category_map import ROLES, SCOPES, TYPES, CategoryMap
from redactor.core.errors import CategoryMapError
from redactor.core.rules import PERSON, PHRASE, name_tokens, person_match, phrase_match, tokens

from . import selectors
from .models import AgencyRule, MapChange, MapDraft, MapVersion, RuleKind, RuleVote
from .spreadsheet import SafeWriter, cell_unescape


def map_check(data: dict) -> CategoryMap:
    """Validate a map in the JSON format; returns the engine's map. Raises ``ValidationError``
    (code ``invalid_map``) with the engine's explanation (unknown categories, scopes, roles...)."""
    try:
        return CategoryMap.from_dict(data)
    except CategoryMapError as exc:
        raise ValidationError(str(exc), code="invalid_map") from None


def _log(agency: Agency | None, user, action: str, summary: str, version: MapVersion | None = None) -> None:
    MapChange.objects.create(agency=agency, user=user, action=action, summary=summary[:4000], version=version)


@transaction.atomic
def map_draft_open(*, agency: Agency | None, user: AbstractBaseUser) -> MapDraft:
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
    user: AbstractBaseUser,
    category: int,
    type: str,
    enabled: bool,
    name_cs: str,
    name_en: str,
    group: str,
) -> MapDraft:
    """Change one category's type (primary / secondary / not subject), enabled flag, names and group.
    Raises ``ValidationError`` for an unknown category or type."""
    if type not in TYPES:
        raise ValidationError(_("Unknown type %(type)s.") % {"type": type}, code="invalid_map")
    data = copy.deepcopy(draft.data)
    row = _row(data, category)
    before = {k: row.get(k) for k in ("type", "enabled", "name_cs", "name_en", "group")}
    row.update(type=type, enabled=enabled, name_cs=name_cs.strip(), name_en=name_en.strip(), group=group.strip())
    changed = ", ".join(f"{k}: {before[k]} → {row[k]}" for k in before if before[k] != row[k])
    return _save(draft, data, user, f"{category} {row['name_en']}: {changed or _('no change')}")


@transaction.atomic
def map_dependency_set(
    *, draft: MapDraft, user: AbstractBaseUser, category: int, depends_on: int, scopes: list[str] | None
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
        summary = f"{category} no longer depends on {depends_on}"
    else:
        bad = [s for s in scopes if s not in SCOPES]
        if bad or not scopes:
            raise ValidationError(
                _("Choose scopes from: %(scopes)s.") % {"scopes": ", ".join(SCOPES)}, code="invalid_map"
            )
        deps.append({"category": depends_on, "scopes": [s for s in SCOPES if s in scopes]})
        summary = f"{category} depends on {depends_on} within {', '.join(scopes)}"
    row["depends_on"] = deps
    return _save(draft, data, user, summary)


@transaction.atomic
def map_role_exception_set(*, draft: MapDraft, user: AbstractBaseUser, role: str, enabled: bool) -> MapDraft:
    """Switch the exception for people acting in ``role`` (``public_official``,
    ``statutory_representative``) on or off. Raises ``ValidationError`` for a role the map lacks."""
    if role not in ROLES:
        raise ValidationError(_("Unknown role %(role)s.") % {"role": role}, code="invalid_map")
    data = copy.deepcopy(draft.data)
    rows = [e for e in data.get("role_exceptions", []) if e["role"] == role]
    if not rows:
        raise ValidationError(_("The map has no exception for %(role)s.") % {"role": role}, code="invalid_map")
    for e in rows:
        e["enabled"] = enabled
    return _save(draft, data, user, f"role exception {role}: {'on' if enabled else 'off'}")


@transaction.atomic
def map_import(*, agency: Agency | None, user: AbstractBaseUser, data: dict) -> MapDraft:
    """Replace the owner's draft with an imported map (the JSON that export and ``manage.py
    redact --policy`` use). Raises ``ValidationError`` (``invalid_map``) and then changes nothing."""
    map_check(data)
    draft = map_draft_open(agency=agency, user=user)
    return _save(draft, copy.deepcopy(data), user, _("Imported a map file"), action="imported")


@transaction.atomic
def map_draft_discard(*, agency: Agency | None, user: AbstractBaseUser) -> None:
    """Throw the owner's draft away."""
    draft = selectors.map_draft(agency=agency)
    if draft is not None:
        draft.delete()
        _log(agency, user, "draft_discarded", _("Draft discarded"))


@transaction.atomic
def map_publish(*, agency: Agency | None, user: AbstractBaseUser, note: str = "") -> MapVersion:
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
def map_diff(old: dict, new: dict) -> list[str]:
    """What changed from map ``old`` to ``new``, one readable line per change (categories by id)."""
    lines = []
    old_rows = {int(r["id"]): r for r in old.get("categories", [])}
    new_rows = {int(r["id"]): r for r in new.get("categories", [])}
    for cid in sorted(old_rows.keys() - new_rows.keys()):
        lines.append(f"− {cid} {old_rows[cid]['name_en']}")
    for cid in sorted(new_rows.keys() - old_rows.keys()):
        lines.append(f"+ {cid} {new_rows[cid]['name_en']} ({new_rows[cid]['type']})")
    for cid in sorted(old_rows.keys() & new_rows.keys()):
        a, b = old_rows[cid], new_rows[cid]
        for key in ("type", "enabled", "name_cs", "name_en", "group"):
            if a.get(key) != b.get(key):
                lines.append(f"{cid} {b['name_en']}: {key} {a.get(key)} → {b.get(key)}")
        deps_a = {int(d["category"]): tuple(d["scopes"]) for d in a.get("depends_on", [])}
        deps_b = {int(d["category"]): tuple(d["scopes"]) for d in b.get("depends_on", [])}
        for dep in sorted(deps_a.keys() | deps_b.keys()):
            if dep not in deps_b:
                lines.append(f"{cid} {b['name_en']}: no longer depends on {dep}")
            elif dep not in deps_a:
                lines.append(f"{cid} {b['name_en']}: depends on {dep} ({', '.join(deps_b[dep])})")
            elif deps_a[dep] != deps_b[dep]:
                lines.append(
                    f"{cid} {b['name_en']}: scopes of {dep} {', '.join(deps_a[dep])} → {', '.join(deps_b[dep])}"
                )
    roles_a = {e["role"]: e for e in old.get("role_exceptions", [])}
    for e in new.get("role_exceptions", []):
        before = roles_a.get(e["role"])
        if before is None or before.get("enabled") != e.get("enabled") or before.get("action") != e.get("action"):
            lines.append(f"role exception {e['role']}: {'on' if e.get('enabled') else 'off'} ({e['action']})")
    for key in ("unlinked_secondary_action", "unknown_holder_action", "personal_holders", "holder_overrides"):
        if old and old.get(key) != new.get(key):
            lines.append(f"{key}: {old.get(key)} → {new.get(key)}")
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
                % {"id": rule.id, "name": rule.name_cs, "action": cmap.unlinked_secondary_action.value}
            )
        if rule.type != "secondary" and rule.depends_on:
            out.append(
                _("%(id)s %(name)s is %(type)s: its dependencies are ignored.")
                % {"id": rule.id, "name": rule.name_cs, "type": rule.type}
            )
        for dep in rule.depends_on:
            target = cmap.rule(dep.category)
            if target is not None and not target.enabled:
                out.append(
                    _("%(id)s %(name)s depends on %(dep)s, which is disabled and never found.")
                    % {"id": rule.id, "name": rule.name_cs, "dep": dep.category}
                )
    return out


# -- agency rules ---------------------------------------------------------------------------------
#: Columns of the rules CSV, in order (UTF-8, comma-separated, header row).
RULE_CSV_COLUMNS = ("kind", "pattern", "category", "keep_votes", "redact_votes", "enabled", "note")
#: Most rows one CSV import may hold.
RULE_CSV_MAX_ROWS = 20_000


def rule_pattern_tokens(kind: str, pattern: str) -> tuple[str, ...]:
    """The tokens a rule matches: a person's name without titles, or the phrase's words."""
    return name_tokens(pattern) if kind == PERSON else tokens(pattern)


def rule_key(kind: str, pattern: str) -> str:
    """Lower-cased tokens joined by spaces: what makes two patterns the same rule."""
    return " ".join(t.lower() for t in rule_pattern_tokens(kind, pattern))


def rule_find(*, agency: Agency, kind: str, pattern: str) -> AgencyRule | None:
    """The agency's rule for ``pattern``: the same tokens, or the same words in another
    inflected form ("Horní Lhotě" finds the rule "Horní Lhota")."""
    key = rule_key(kind, pattern)
    exact = AgencyRule.objects.filter(agency=agency, kind=kind, key=key).first()
    if exact is not None:
        return exact
    wanted = rule_pattern_tokens(kind, pattern)
    match = person_match if kind == PERSON else phrase_match
    for rule in AgencyRule.objects.filter(agency=agency, kind=kind).order_by("id"):
        if len(key.split()) == len(rule.key.split()) and match(rule_pattern_tokens(kind, rule.pattern), wanted):
            return rule
    return None


def _rule_clean(rule: AgencyRule) -> None:
    rule.pattern = " ".join(rule.pattern.split())[:300]
    if rule.kind not in RuleKind.values:
        raise ValidationError({"kind": _("Unknown kind of rule.")}, code="bad_rule")
    rule.key = rule_key(rule.kind, rule.pattern)
    if not rule.key or len(rule.pattern) < 2:
        raise ValidationError({"pattern": _("The pattern needs at least one word or number.")}, code="bad_rule")
    if rule.kind == PERSON and len(rule.key.split()) < 2:
        raise ValidationError({"pattern": _("A person rule needs a given name and a surname.")}, code="bad_rule")
    clash = AgencyRule.objects.filter(agency=rule.agency, kind=rule.kind, key=rule.key).exclude(pk=rule.pk)
    if clash.exists():
        raise ValidationError({"pattern": _("The agency already has a rule for this pattern.")}, code="bad_rule")


@transaction.atomic
def rule_vote(
    *,
    agency: Agency,
    kind: str,
    pattern: str,
    value: int,
    user: AbstractBaseUser | None,
    category: int | None = None,
    contract=None,
    proposal=None,
    batch: uuid.UUID | None = None,
) -> AgencyRule | None:
    """Count one reviewer decision: +1 (keep) or −1 (redact) on the agency's rule for
    ``pattern``, created when there is none (Mareš 2021's signed votes). Returns the rule, or
    None when the pattern has no word or number to match (nothing learned)."""
    if value not in (1, -1) or kind not in (PHRASE, PERSON):
        raise ValueError("a vote is +1 or -1 on a phrase or person rule")
    pattern = " ".join(pattern.split())[:300]
    if len(pattern) < 2 or not rule_key(kind, pattern) or (kind == PERSON and len(rule_key(kind, pattern).split()) < 2):
        return None
    rule = rule_find(agency=agency, kind=kind, pattern=pattern)
    if rule is None:
        rule = AgencyRule(
            agency=agency, kind=kind, pattern=pattern, category=category, source_contract=contract, created_by=user
        )
        rule.key = rule_key(kind, pattern)
        rule.save()
    field = "keep_votes" if value > 0 else "redact_votes"
    AgencyRule.objects.filter(pk=rule.pk).update(**{field: F(field) + 1})
    RuleVote.objects.create(
        rule=rule, agency=agency, contract=contract, proposal=proposal, value=value, batch=batch, user=user
    )
    rule.refresh_from_db()
    return rule


@transaction.atomic
def rule_votes_undo(*, agency: Agency, batch: uuid.UUID) -> int:
    """Take back the votes one reviewer action cast (undo); a rule left without any vote that
    this action created is deleted. Returns how many votes were removed."""
    votes = list(RuleVote.objects.select_related("rule").filter(agency=agency, batch=batch))
    for vote in votes:
        field = "keep_votes" if vote.value > 0 else "redact_votes"
        AgencyRule.objects.filter(pk=vote.rule_id, **{f"{field}__gt": 0}).update(**{field: F(field) - 1})
        vote.delete()
    for rule_id in {v.rule_id for v in votes}:
        rule = AgencyRule.objects.filter(pk=rule_id).first()
        if rule is not None and rule.origin == "review" and not rule.votes.exists() and rule.decisions == 0:
            rule.delete()
    return len(votes)


@transaction.atomic
def rule_save(
    *,
    agency: Agency,
    user: AbstractBaseUser,
    rule: AgencyRule | None = None,
    kind: str,
    pattern: str,
    category: int | None,
    keep_votes: int,
    redact_votes: int,
    enabled: bool,
    note: str = "",
) -> AgencyRule:
    """Create (``rule=None``) or edit an agency rule from the console. Raises
    ``ValidationError`` for an empty pattern, a person rule without two names, negative
    votes or a pattern another rule of the agency already has."""
    if rule is None:
        rule = AgencyRule(agency=agency, origin="console", created_by=user)
    if keep_votes < 0 or redact_votes < 0:
        raise ValidationError(_("Decision counts cannot be negative."), code="bad_rule")
    rule.kind, rule.pattern, rule.category = kind, pattern, category
    rule.keep_votes, rule.redact_votes, rule.enabled, rule.note = keep_votes, redact_votes, enabled, note
    rule.updated_by = user
    _rule_clean(rule)
    rule.save()
    return rule


@transaction.atomic
def rule_delete(*, rule: AgencyRule) -> None:
    """Remove a rule and its votes (contracts it decided keep their proposals and reasons)."""
    rule.delete()


def rules_export_csv(*, agency: Agency) -> str:
    """The agency's rules as CSV (:data:`RULE_CSV_COLUMNS`, one rule per row, by pattern), cells
    escaped against spreadsheet formulas (:mod:`redactor.spreadsheet`; the import undoes it)."""
    out = io.StringIO()
    writer = SafeWriter(out, lineterminator="\n")
    writer.writerow(RULE_CSV_COLUMNS)
    for r in selectors.rules_for_agency(agency=agency).order_by("kind", "key", "id"):
        writer.writerow(
            [
                r.kind,
                r.pattern,
                "" if r.category is None else r.category,
                r.keep_votes,
                r.redact_votes,
                "yes" if r.enabled else "no",
                r.note,
            ]
        )
    return out.getvalue()


def _csv_int(value: str, line: int, column: str) -> int:
    try:
        number = int(value.strip() or "0")
    except ValueError:
        raise ValidationError(
            _("Line %(line)d: %(column)s must be a whole number, not “%(value)s”.")
            % {"line": line, "column": column, "value": value[:20]},
            code="bad_csv",
        ) from None
    if number < 0:
        raise ValidationError(
            _("Line %(line)d: %(column)s cannot be negative.") % {"line": line, "column": column}, code="bad_csv"
        )
    return number


@transaction.atomic
def rules_import_csv(*, agency: Agency, user: AbstractBaseUser, data: bytes) -> tuple[int, int]:
    """Create or update the agency's rules from a CSV made by :func:`rules_export_csv` (or by
    hand with the same header). A row whose pattern matches an existing rule of the same kind
    replaces its counts, flag and note. All or nothing: any bad row raises ``ValidationError``
    naming the line, and nothing changes. Returns (created, updated)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValidationError(_("The file is not UTF-8 text. Save the CSV as UTF-8."), code="bad_csv") from None
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or tuple(c.strip() for c in rows[0]) != RULE_CSV_COLUMNS:
        raise ValidationError(
            _("The first line must be the header: %(columns)s.") % {"columns": ",".join(RULE_CSV_COLUMNS)},
            code="bad_csv",
        )
    if len(rows) - 1 > RULE_CSV_MAX_ROWS:
        raise ValidationError(_("At most %(n)d rules per file.") % {"n": RULE_CSV_MAX_ROWS}, code="bad_csv")
    created = updated = 0
    seen: set[tuple[str, str]] = set()
    for line, row in enumerate(rows[1:], start=2):
        if not any(c.strip() for c in row):
            continue
        if len(row) != len(RULE_CSV_COLUMNS):
            raise ValidationError(
                _("Line %(line)d has %(n)d columns instead of %(m)d.")
                % {"line": line, "n": len(row), "m": len(RULE_CSV_COLUMNS)},
                code="bad_csv",
            )
        kind, pattern, category, keep, redact, enabled, note = (cell_unescape(c.strip()) for c in row)
        if kind not in RuleKind.values:
            raise ValidationError(
                _("Line %(line)d: kind must be “phrase” or “person”.") % {"line": line}, code="bad_csv"
            )
        if enabled.lower() not in ("yes", "no", "true", "false", "1", "0"):
            raise ValidationError(_("Line %(line)d: enabled must be yes or no.") % {"line": line}, code="bad_csv")
        key = (kind, rule_key(kind, pattern))
        if key in seen:
            raise ValidationError(_("Line %(line)d repeats an earlier pattern.") % {"line": line}, code="bad_csv")
        seen.add(key)
        existing = rule_find(agency=agency, kind=kind, pattern=pattern)
        try:
            rule = rule_save(
                agency=agency,
                user=user,
                rule=existing,
                kind=kind,
                pattern=pattern if existing is None else existing.pattern,
                category=_csv_int(category, line, "category") if category else None,
                keep_votes=_csv_int(keep, line, "keep_votes"),
                redact_votes=_csv_int(redact, line, "redact_votes"),
                enabled=enabled.lower() in ("yes", "true", "1"),
                note=note,
            )
        except ValidationError as exc:
            messages = "; ".join(exc.messages)
            raise ValidationError(
                _("Line %(line)d: %(problem)s") % {"line": line, "problem": messages}, code="bad_csv"
            ) from None
        if existing is None:
            AgencyRule.objects.filter(pk=rule.pk).update(origin="import")
            created += 1
        else:
            updated += 1
    return created, updated


def profile_export_csv(*, data: dict) -> str:
    """A profile version's data (:class:`accounts.models.ProfileVersion`) as the CSV
    :func:`accounts.services.profile_import_csv` reads (one value a row), cells escaped against
    spreadsheet formulas (:mod:`redactor.spreadsheet`; the import undoes it)."""
    out = io.StringIO()
    writer = SafeWriter(out, lineterminator="\n")
    writer.writerow(PROFILE_CSV_COLUMNS)
    for key, field in PROFILE_CSV_FIELDS.items():
        for value in data.get(field) or ():
            if isinstance(value, dict):
                writer.writerow([key, value["name"], value.get("function", "")])
            else:
                writer.writerow([key, value, ""])
    return out.getvalue()
