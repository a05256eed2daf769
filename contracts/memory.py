"""Memory caps of the product's processes: RQ's work horses (:mod:`contracts.worker`) and
gunicorn's web workers (``config/gunicorn.py``). No Django here: gunicorn reads it before the
application is loaded."""

from __future__ import annotations

import resource


def _status(field: str) -> int:
    """A size of this process from /proc/self/status (bytes); 0 where unknown."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def address_space() -> int:
    """This process's virtual memory now (bytes, ``VmSize``); 0 where unknown."""
    return _status("VmSize")


def resident() -> int:
    """This process's resident memory now (bytes, ``VmRSS``); 0 where unknown."""
    return _status("VmRSS")


def limit_memory(allowance: int) -> int | None:
    """Cap the address space of this process at what it holds now plus ``allowance`` bytes
    (``RLIMIT_AS``; inherited by the programs it runs, e.g. Tesseract, which start far below it).
    Past the cap an allocation fails with ``MemoryError`` instead of exhausting the machine.
    Returns the cap, or None when it cannot be set (no /proc, an allowance of 0)."""
    held = address_space()
    if not held or allowance <= 0:
        return None
    cap = held + allowance
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    return cap
