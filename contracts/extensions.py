"""What the apps above contracts add to a contract where contracts' doors show it, registered in
their ``AppConfig.ready`` so that contracts never import them (as :mod:`contracts.signals` tells
them what happens to a contract).

A :class:`ContractSection` is a part of the contract's API resource (``GET /api/v1/contracts/{id}/``
and the list) with its OpenAPI shape, the related rows the contract list prefetches for it and
what it adds to a webhook's payload. The registry adds ``registry`` (:mod:`registry.apps`). Labels
of the audit trail's codes are added with :func:`contracts.vocabulary.add_vocabulary`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from contracts.models import Contract


@dataclass(frozen=True)
class ContractSection:
    """A named part of a contract as the API shows it.

    ``serializer`` is a read-only DRF serializer class whose ``to_representation`` takes the
    contract (its fields are the section's OpenAPI shape); ``prefetch`` are lookups for
    ``QuerySet.prefetch_related`` that spare the list one query per contract; ``webhook`` gives
    the section's part of a webhook payload (ids and links, never personal data) or None to
    leave it out."""

    name: str
    serializer: type
    prefetch: tuple[Any, ...] = ()
    webhook: Callable[[Contract], dict | None] | None = None


_SECTIONS: dict[str, ContractSection] = {}


def add_section(section: ContractSection) -> None:
    """Add ``section`` (or replace the one of its name): call it from ``AppConfig.ready``."""
    _SECTIONS[section.name] = section


def contract_sections() -> list[ContractSection]:
    """The sections added, in the order they were added."""
    return list(_SECTIONS.values())
