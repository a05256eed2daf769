"""The ``--policy MAP.json`` option shared by the management commands."""

from __future__ import annotations

from django.core.management.base import CommandError

from redactor.core.category_map import CategoryMap
from redactor.core.errors import CategoryMapError


def load_policy(path: str | None) -> CategoryMap | None:
    """The category map in ``path``, or None for the platform default.

    Raises ``CommandError`` with the map's validation message when the file is unusable.
    """
    if not path:
        return None
    try:
        return CategoryMap.load(path)
    except CategoryMapError as exc:
        raise CommandError(str(exc)) from exc
