"""Environment helpers that fail loudly (after healthchecks' ``hc/settings.py``)."""

from __future__ import annotations

import os
from typing import overload

from django.core.exceptions import ImproperlyConfigured


@overload
def env(name: str) -> str | None: ...
@overload
def env(name: str, default: str) -> str: ...
@overload
def env(name: str, default: None) -> str | None: ...


def env(name: str, default: str | None = None) -> str | None:
    """The variable's value, or ``default`` when it is unset or empty (``str`` when a default
    is given)."""
    value = os.environ.get(name, "")
    return value if value != "" else default


def env_bool(name: str, default: bool = False) -> bool:
    """``1/true/yes/on`` or ``0/false/no/off`` (any case); anything else is an error."""
    value = env(name)
    if value is None:
        return default
    low = value.strip().lower()
    if low in ("1", "true", "yes", "on"):
        return True
    if low in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean (use 1/0, true/false, yes/no, on/off)")


def env_int(name: str, default: int) -> int:
    """An integer variable; a non-integer value is an error."""
    value = env(name)
    if value is None:
        return default
    try:
        return int(value)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name}={value!r} is not an integer") from exc


def env_list(name: str, default: list[str]) -> list[str]:
    """A comma-separated list; blanks are dropped."""
    value = env(name)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity on Linux, the machine's count elsewhere)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)
