"""The agency profile (its own identity, :mod:`accounts`) as a spreadsheet for the console."""

from __future__ import annotations

import io

from accounts.services import PROFILE_CSV_COLUMNS, PROFILE_CSV_FIELDS
from policy.spreadsheet import SafeWriter


def profile_export_csv(*, data: dict) -> str:
    """A profile version's data (:class:`accounts.models.ProfileVersion`) as the CSV
    :func:`accounts.services.profile_import_csv` reads (one value a row), cells escaped against
    spreadsheet formulas (:mod:`policy.spreadsheet`; the import undoes it)."""
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
