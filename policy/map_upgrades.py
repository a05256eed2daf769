"""Upgrades of the platform map: the shipped map's rules that an installation's platform default
lacks, published on top of its latest version as the next one (data migrations call these)."""

from __future__ import annotations

from typing import Any

from redactor import CategoryMap


def publish_shipped_holder_rules(apps: Any, note: str) -> None:
    """Add the holder rules of the shipped map (``redactor/data/category_map.json``) that the
    latest platform map version lacks (compared by category and holders) as a new version with
    ``note``; its own edits and its history stay. A fresh database (no version yet) is seeded
    with the shipped map whole, so nothing is done there."""
    MapVersion = apps.get_model("policy", "MapVersion")
    latest = MapVersion.objects.filter(agency__isnull=True).order_by("-number").first()
    if latest is None:
        return
    shipped = CategoryMap.default().to_dict()
    data = dict(latest.data)
    have = {(o["category"], tuple(o["holders"])) for o in data.get("holder_overrides", [])}
    missing = [o for o in shipped["holder_overrides"] if (o["category"], tuple(o["holders"])) not in have]
    if not missing:
        return
    data["holder_overrides"] = [*data.get("holder_overrides", []), *missing]
    data["version"] = latest.number + 1
    CategoryMap.from_dict(data)  # the engine validates what it will run
    MapVersion.objects.create(agency=None, number=latest.number + 1, data=data, note=note)
