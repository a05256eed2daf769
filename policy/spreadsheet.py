"""CSV that a spreadsheet opens as text: every export of the product writes through here.

A cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is taken for a
formula by Excel and LibreOffice (CSV injection, OWASP "CSV Injection"); rule patterns come from
reviewers' text and PDF text, usernames from admins, so they are escaped with a leading
apostrophe, which spreadsheets show as text (also after leading spaces, which some spreadsheets
skip). A line break or a tab inside a cell starts a new line or cell in a spreadsheet that splits
lines before it parses quotes, where a formula after it would stand at a cell's start: each is
written as a space. A cell that already starts with an apostrophe gets a second one, so
:func:`cell_unescape` gives back exactly what was written, line breaks and tabs as spaces (the
rules CSV is read back by its import).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from typing import Any

from django.utils import formats

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: Line breaks and tabs (ASCII and Unicode) written as spaces.
_BREAKS = re.compile(r"[\t\n\r\x0b\x0c\x85\u2028\u2029]")


def cell_escape(value: Any) -> Any:
    """``value`` as a CSV cell: in strings, line breaks and tabs become spaces, and a string that
    a spreadsheet would evaluate (or that starts with an apostrophe) gets a leading ``'``; numbers
    and other types are left as they are (a negative number stays a number)."""
    if not isinstance(value, str):
        return value
    value = _BREAKS.sub(" ", value)
    if value.lstrip(" ").startswith((*FORMULA_STARTS, "'")):
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


def spreadsheet_csv(rows: Iterable[Sequence[Any]]) -> bytes:
    """``rows`` (the header first) as a CSV file the reader's spreadsheet opens as it is: UTF-8
    with a byte-order mark (without it Excel reads UTF-8 as the Windows code page), cells
    separated by a semicolon where the active language writes decimals with a comma (Czech Excel
    and LibreOffice expect ``;`` there, as the list separator of the Windows regional settings),
    else by a comma; every cell escaped (:func:`cell_escape`)."""
    out = io.StringIO()
    out.write("\ufeff")
    comma_decimals = formats.get_format("DECIMAL_SEPARATOR") == ","
    writer = SafeWriter(out, delimiter=";" if comma_decimals else ",")
    for row in rows:
        writer.writerow(row)
    return out.getvalue().encode("utf-8")
