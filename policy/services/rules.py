"""Writes of agency rules: votes from reviewers' decisions and their undo, console edits, CSV
import and export."""

from __future__ import annotations

import csv
import io
import uuid

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from accounts.models import Agency
from policy import selectors
from policy.models import AgencyRule, RuleKind, RuleVote
from policy.spreadsheet import SafeWriter, cell_unescape
from redactor import rules

# -- agency rules ---------------------------------------------------------------------------------
#: Columns of the rules CSV, in order (UTF-8, comma-separated, header row).
RULE_CSV_COLUMNS = ("kind", "pattern", "category", "keep_votes", "redact_votes", "enabled", "note")
#: Most rows one CSV import may hold.
RULE_CSV_MAX_ROWS = 20_000


def rule_pattern_tokens(kind: str, pattern: str) -> tuple[str, ...]:
    """The tokens a rule matches: a person's name without titles, or the phrase's words."""
    return rules.name_tokens(pattern) if kind == rules.PERSON else rules.tokens(pattern)


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
    match = rules.person_match if kind == rules.PERSON else rules.phrase_match
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
    if rule.kind == rules.PERSON and len(rule.key.split()) < 2:
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
    user: User | None,
    category: int | None = None,
    contract=None,
    proposal=None,
    batch: uuid.UUID | None = None,
) -> AgencyRule | None:
    """Count one reviewer decision: +1 (keep) or −1 (redact) on the agency's rule for
    ``pattern``, created when there is none (Mareš 2021's signed votes). A contract has one vote
    on a rule: the decision replaces an earlier vote cast from the same ``contract`` ("redact
    everywhere", then "keep everywhere" leaves one keep vote, not a tie). Returns the rule, or
    None when the pattern has no word or number to match (nothing learned)."""
    if value not in (1, -1) or kind not in (rules.PHRASE, rules.PERSON):
        raise ValueError("a vote is +1 or -1 on a phrase or person rule")
    pattern = " ".join(pattern.split())[:300]
    if (
        len(pattern) < 2
        or not rule_key(kind, pattern)
        or (kind == rules.PERSON and len(rule_key(kind, pattern).split()) < 2)
    ):
        return None
    rule = rule_find(agency=agency, kind=kind, pattern=pattern)
    if rule is None:
        rule = AgencyRule(
            agency=agency, kind=kind, pattern=pattern, category=category, source_contract=contract, created_by=user
        )
        rule.key = rule_key(kind, pattern)
        rule.save()
    if contract is not None:  # one contract, one vote: a reviewer who changed their mind counts once
        for earlier in RuleVote.objects.filter(rule=rule, contract=contract):
            _vote_withdraw(earlier)
    field = "keep_votes" if value > 0 else "redact_votes"
    AgencyRule.objects.filter(pk=rule.pk).update(**{field: F(field) + 1})
    RuleVote.objects.create(
        rule=rule, agency=agency, contract=contract, proposal=proposal, value=value, batch=batch, user=user
    )
    rule.refresh_from_db()
    return rule


def _vote_withdraw(vote: RuleVote) -> None:
    """Take ``vote`` off its rule's counts and delete it."""
    field = "keep_votes" if vote.value > 0 else "redact_votes"
    AgencyRule.objects.filter(pk=vote.rule_id, **{f"{field}__gt": 0}).update(**{field: F(field) - 1})
    vote.delete()


@transaction.atomic
def rule_votes_withdraw(*, agency: Agency, kind: str, pattern: str, contract) -> int:
    """Take back the votes ``contract`` cast on the agency's rule for ``pattern`` (a reviewer
    who decided the value one way and then the engine's way); a rule from review left without
    votes is deleted. Returns how many votes were removed."""
    rule = rule_find(agency=agency, kind=kind, pattern=" ".join(pattern.split())[:300])
    if rule is None:
        return 0
    votes = list(RuleVote.objects.filter(rule=rule, contract=contract))
    for vote in votes:
        _vote_withdraw(vote)
    _drop_if_unvoted(rule.pk)
    return len(votes)


@transaction.atomic
def rule_votes_undo(*, agency: Agency, batch: uuid.UUID) -> int:
    """Take back the votes one reviewer action cast (undo); a rule left without any vote that
    this action created is deleted. Returns how many votes were removed."""
    votes = list(RuleVote.objects.select_related("rule").filter(agency=agency, batch=batch))
    for vote in votes:
        _vote_withdraw(vote)
    for rule_id in {v.rule_id for v in votes}:
        _drop_if_unvoted(rule_id)
    return len(votes)


def _drop_if_unvoted(rule_id: int) -> None:
    """Delete the rule ``rule_id`` if review made it and no vote is left on it."""
    rule = AgencyRule.objects.filter(pk=rule_id).first()
    if rule is not None and rule.origin == "review" and not rule.votes.exists() and rule.decisions == 0:
        rule.delete()


@transaction.atomic
def rule_save(
    *,
    agency: Agency,
    user: User,
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
    escaped against spreadsheet formulas (:mod:`policy.spreadsheet`; the import undoes it)."""
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
def rules_import_csv(*, agency: Agency, user: User, data: bytes) -> tuple[int, int]:
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
