"""The ``--policy MAP.json`` and ``--profile``/``--agency`` options shared by the management commands."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import CommandError

from accounts.models import Agency
from policy.selectors import agency_profile
from redactor import AgencyProfile, CategoryMap, errors


def load_policy(path: str | None) -> CategoryMap | None:
    """The category map in ``path``, or None for the platform default.

    Raises ``CommandError`` with the map's validation message when the file is unusable.
    """
    if not path:
        return None
    try:
        return CategoryMap.load(path)
    except errors.CategoryMapError as exc:
        raise CommandError(str(exc)) from exc


def load_profile(path: str | None, agency_ico: str | None = None) -> AgencyProfile | None:
    """The agency profile for ``--profile PROFILE.json`` (the JSON of
    :meth:`~redactor.detect.profile.AgencyProfile.to_dict`) or ``--agency ICO`` (the profile in
    force of that agency in the database), or None for neither. Raises ``CommandError`` for an
    unreadable file or an unknown IČO."""
    if path and agency_ico:
        raise CommandError("give --profile or --agency, not both")
    if agency_ico:
        agency = Agency.objects.filter(ico=agency_ico).first()
        if agency is None:
            raise CommandError(f"no agency with IČO {agency_ico}")
        return agency_profile(agency=agency)
    if not path:
        return None
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CommandError(f"{path}: not a readable profile JSON ({exc})") from exc
    if not isinstance(data, dict):
        raise CommandError(f"{path}: a profile is a JSON object")
    return AgencyProfile.from_dict(data)
