"""The category map as data: immutable published versions, one working draft per owner, and the
trail of changes.

The owner is an agency, or nobody for the platform default. A map is stored in the engine's own
format (``redactor-category-map/1``, :mod:`redactor.core.category_map`): categories with their
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
