"""The category map as data: immutable published versions, one working draft per owner, and the
trail of changes.

The owner is an agency, or nobody for the platform default. A map is stored in the engine's own
format (``redactor-category-map/1``, :mod:`redactor.decide.category_map`): categories with their
Czech and English names, group, type (primary / secondary / not subject) and enabled flag, the
dependencies between categories with the link scope of each, holder overrides and the
exceptions by party role. Every write validates it through ``CategoryMap.from_dict``, so what is
stored is exactly what the engine runs and what import/export move.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Value
from django.db.models.functions import Coalesce
from django.utils.translation import gettext_lazy as _

from accounts.models import Agency
from redactor import rules


class MapVersion(models.Model):
    """A published map: immutable. Contracts record the version their proposals came from."""

    agency = models.ForeignKey(Agency, null=True, blank=True, on_delete=models.CASCADE, related_name="map_versions")
    number = models.PositiveIntegerField()
    data = models.JSONField(editable=False)
    note = models.TextField(_("what changed and why"), blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-number"]
        # the platform (agency NULL) counts as owner 0
        constraints = [
            models.UniqueConstraint(
                Coalesce(F("agency"), Value(0)), F("number"), name="one_map_version_number_per_owner"
            )
        ]
        verbose_name = _("category map version")
        verbose_name_plural = _("category map versions")

    def __str__(self) -> str:
        return f"{self.agency or 'platform'} v{self.number}"


class MapDraft(models.Model):
    """The owner's working copy, edited until it is published as the next version."""

    agency = models.ForeignKey(Agency, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    data = models.JSONField()
    based_on = models.ForeignKey(MapVersion, null=True, on_delete=models.SET_NULL, related_name="+")
    updated_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(Coalesce(F("agency"), Value(0)), name="one_map_draft_per_owner")]

    def __str__(self) -> str:
        return f"draft of {self.agency or 'platform'}"


class MapChange(models.Model):
    """One change to a map (draft edit, import, publication), who made it and when."""

    agency = models.ForeignKey(Agency, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    action = models.CharField(max_length=32)
    summary = models.TextField()
    version = models.ForeignKey(MapVersion, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.action}: {self.summary[:60]}"


class RuleKind(models.TextChoices):
    """What an agency rule matches (see :mod:`redactor.decide.rules`)."""

    PHRASE = "phrase", _("Phrase (the same words in any inflected form)")
    PERSON = "person", _("Person (the name in any form, every mention)")


class AgencyRule(models.Model):
    """Knowledge an agency's reviewers taught: keep or redact this phrase or person.

    The confidence is ``keep_votes − redact_votes`` (Mareš 2021): ≥ 1 keeps, ≤ −1 redacts,
    in between sends to review. Applied when a *later* contract of the same agency is processed
    (rules created after the contract's upload do not touch it). ``key`` is the pattern's
    lower-cased tokens, unique per agency and kind.
    """

    agency = models.ForeignKey(Agency, on_delete=models.CASCADE, related_name="rules")
    kind = models.CharField(_("kind"), max_length=8, choices=RuleKind.choices, default=RuleKind.PHRASE)
    pattern = models.CharField(_("pattern"), max_length=300)
    key = models.CharField(max_length=300, editable=False)
    category = models.IntegerField(_("category"), null=True, blank=True)
    keep_votes = models.PositiveIntegerField(_("keep decisions"), default=0)
    redact_votes = models.PositiveIntegerField(_("redact decisions"), default=0)
    enabled = models.BooleanField(_("enabled"), default=True)
    note = models.TextField(_("note"), blank=True)
    source_contract = models.ForeignKey(
        "contracts.Contract", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", editable=False
    )
    origin = models.CharField(max_length=16, default="review", editable=False)  # review | import | console
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+", editable=False
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", editable=False
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["pattern", "id"]
        constraints = [models.UniqueConstraint(fields=["agency", "kind", "key"], name="one_rule_per_pattern")]
        verbose_name = _("agency rule")
        verbose_name_plural = _("agency rules")

    def __str__(self) -> str:
        return f"{self.pattern} ({self.score:+d})"

    @property
    def score(self) -> int:
        """Signed confidence: +1 per keep decision, −1 per redact decision."""
        return self.keep_votes - self.redact_votes

    @property
    def decisions(self) -> int:
        """How many reviewer decisions voted on the rule."""
        return self.keep_votes + self.redact_votes

    def as_core(self):
        """The rule as the engine's :class:`redactor.decide.rules.LearnedRule`."""
        return rules.LearnedRule(self.pk, self.kind, self.pattern, self.keep_votes, self.redact_votes, self.category)

    @property
    def action(self) -> str:
        """``keep``, ``redact`` or ``review`` from the confidence."""
        return self.as_core().action.value


class RuleVote(models.Model):
    """One reviewer decision counted by a rule: where it came from (provenance) and for undo."""

    rule = models.ForeignKey(AgencyRule, on_delete=models.CASCADE, related_name="votes")
    agency = models.ForeignKey(Agency, on_delete=models.CASCADE, related_name="+")
    contract = models.ForeignKey("contracts.Contract", null=True, on_delete=models.SET_NULL, related_name="+")
    proposal = models.ForeignKey("contracts.Proposal", null=True, on_delete=models.SET_NULL, related_name="+")
    value = models.SmallIntegerField()  # +1 keep, -1 redact
    batch = models.UUIDField(null=True, db_index=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.value:+d} on rule {self.rule_id}"
