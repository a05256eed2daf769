"""URL converters: the ids a client puts in a URL are checked by the route itself."""

from __future__ import annotations


class IdConverter:
    """A database id in a URL: 1 to 18 digits, so it fits every integer primary key the
    project uses (BigAutoField, up to 2**63 - 1, 19 digits) and the ORM never sees a number the
    database cannot hold (SQLite raised OverflowError for 10**30: HTTP 500). Anything else (a
    sign, 19 or more digits, letters) does not match the route: 404."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        """The id as an int."""
        return int(value)

    def to_url(self, value: int | str) -> str:
        """The id as written in a URL."""
        return str(int(value))
