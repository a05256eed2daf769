"""Reads of category maps: the version in force for an agency, drafts, history."""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import Http404

from accounts.models import Agency, ProfileVersion
from accounts.selectors import profile_in_force
from redactor import AgencyProfile
from redactor import categories as engine_categories
from redactor.categories import SIGNATURE

from .models import AgencyRule, MapChange, MapDraft, MapVersion, RuleVote


def map_versions(*, agency: Agency | None) -> QuerySet[MapVersion]:
    """The owner's published versions, newest first (``agency=None``: the platform default)."""
    if agency is None:
        return MapVersion.objects.filter(agency__isnull=True)
    return MapVersion.objects.filter(agency=agency)


def map_version_get(*, agency: Agency | None, number: int) -> MapVersion:
    """Version ``number`` of the owner's map. Raises ``Http404``."""
    version = map_versions(agency=agency).filter(number=number).first()
    if version is None:
        raise Http404("no such map version")
    return version


def platform_version_current() -> MapVersion:
    """The platform default in force (seeded as version 1 by migration ``redactor.0002``).
    Raises ``MapVersion.DoesNotExist`` on a database without that migration's seed."""
    version = map_versions(agency=None).first()
    if version is None:
        raise MapVersion.DoesNotExist("no platform category map: run manage.py migrate")
    return version


def map_version_in_force(*, agency: Agency | None) -> MapVersion:
    """The map the agency's contracts are processed with: its own latest version once it has
    published one (copy on write), else the platform default's latest version (also for
    ``agency=None``, the platform itself)."""
    own = map_versions(agency=agency).first() if agency is not None else None
    return own or platform_version_current()


def map_draft(*, agency: Agency | None) -> MapDraft | None:
    """The owner's working copy, or None when nothing is being edited."""
    if agency is None:
        return MapDraft.objects.filter(agency__isnull=True).first()
    return MapDraft.objects.filter(agency=agency).first()


def map_changes(*, agency: Agency | None) -> QuerySet[MapChange]:
    """The owner's change trail, newest first."""
    qs = MapChange.objects.select_related("user", "version")
    return qs.filter(agency__isnull=True) if agency is None else qs.filter(agency=agency)


def rules_for_agency(*, agency: Agency) -> QuerySet[AgencyRule]:
    """The agency's rules (enabled or not) with their source contract, by pattern."""
    return AgencyRule.objects.filter(agency=agency).select_related("source_contract", "created_by", "updated_by")


def rule_get(*, agency: Agency, rule_id: int) -> AgencyRule:
    """One rule of the agency. Raises ``Http404`` for another agency's or an unknown rule."""
    rule = rules_for_agency(agency=agency).filter(pk=rule_id).first()
    if rule is None:
        raise Http404("no such rule")
    return rule


def rules_in_force(*, agency: Agency, before) -> list[AgencyRule]:
    """The enabled rules of ``agency`` created before ``before`` (a contract's upload time):
    rules apply to later contracts only, never to the contract that taught them."""
    return list(AgencyRule.objects.filter(agency=agency, enabled=True, created_at__lt=before).order_by("id"))


def rule_votes(*, rule: AgencyRule) -> QuerySet[RuleVote]:
    """The decisions a rule counted, newest first, with their contracts and reviewers."""
    return rule.votes.select_related("contract", "user")


def agency_profile(*, agency: Agency, version: ProfileVersion | None = None) -> AgencyProfile:
    """The engine's view of the agency's own identity (:class:`~redactor.detect.profile.AgencyProfile`):
    its current name, IČO and data box from the agency, then former names, addresses, accounts,
    phones, e-mail domains and officials from ``version`` (default: the version in force), and
    the agency's setting on officials' signatures."""
    version = version if version is not None else profile_in_force(agency=agency)
    data = version.data if version is not None else {}
    return AgencyProfile.from_dict(
        {
            "names": [agency.name, *(data.get("former_names") or [])],
            "ico": agency.ico,
            "data_box": agency.data_box_id,
            "addresses": data.get("addresses") or [],
            "accounts": data.get("accounts") or [],
            "phones": data.get("phones") or [],
            "email_domains": data.get("email_domains") or [],
            "officials": data.get("officials") or [],
        }
    ).with_signatures(redact_officials=agency.redact_official_signatures)


def category_names(*, version_id: int | None) -> dict[int, tuple[str, str]]:
    """``{category id: (Czech name, English name)}`` of map version ``version_id`` (empty for
    None or a version that is gone): how the categories of a contract decided with that version
    are named to its readers. A map older than the engine's signature category still names it
    (:data:`redactor.categories.SIGNATURE_NAME`), and a span sent to review because it may be
    personal data has its name (:data:`redactor.categories.SUSPICIOUS_NAME`)."""
    if version_id is None:
        return {}
    data = MapVersion.objects.filter(pk=version_id).values_list("data", flat=True).first() or {}
    names = {int(r["id"]): (r.get("name_cs") or "", r.get("name_en") or "") for r in data.get("categories", [])}
    names.setdefault(SIGNATURE, (engine_categories.SIGNATURE_NAME["cs"], engine_categories.SIGNATURE_NAME["en"]))
    suspicious = engine_categories.SUSPICIOUS_NAME
    names.setdefault(engine_categories.SUSPICIOUS, (suspicious["cs"], suspicious["en"]))
    return names
