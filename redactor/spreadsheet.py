"""CSV that a spreadsheet opens as text: every export of the product writes through here.

A cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is taken for a
formula by Excel and LibreOffice (CSV injection, OWASP "CSV Injection"); rule patterns come from
reviewers' text and PDF text, usernames from admins, so they are escaped with a leading
apostrophe, which spreadsheets show as text. A cell that already starts with an apostrophe gets a
second one, so :func:`cell_unescape` gives back exactly what was written (the rules CSV is read
back by its import).
"""

from __future__ import annotations

import csv
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell_escape(value: Any) -> Any:
    """``value`` as a CSV cell: strings that a spreadsheet would evaluate get a leading ``'``;
    numbers and other types are left as they are (a negative number stays a number)."""
    if isinstance(value, str) and value.startswith((*FORMULA_STARTS, "'")):
        return "'" + value
    return value


def cell_unescape(value: str) -> str:
    """The string :func:`cell_escape` was given: one leading apostrophe removed."""
    return value[1:] if value.startswith("'") else value


class SafeWriter:
    """``csv.writer`` whose rows are escaped cell by cell (:func:`cell_escape`); ``out`` is any
    file-like object with ``write`` (an ``HttpResponse`` included)."""

    def __init__(self, out, **fmt) -> None:
        self._writer = csv.writer(out, **fmt)

    def writerow(self, row) -> None:
        """Write one row of cells."""
        self._writer.writerow([cell_escape(c) for c in row])
