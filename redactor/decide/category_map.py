"""The category-dependency map as data: load, validate, serialise.

Format ``redactor-category-map/1`` (the file ``data/category_map.json`` is the platform
default and the reference example):

- ``categories``: ``id`` (the thesis' numbering; 100+ are product additions), ``key``,
  ``name_cs``, ``name_en``, ``group``, ``type`` (``primary`` | ``secondary`` |
  ``not_subject``), ``enabled`` and ``depends_on``: a list of ``{"category": ID, "scopes":
  [...]}`` where each scope is one of ``holder``, ``party``, ``sentence``, ``coreference``.
- ``personal_holders``: holder kinds whose data is personal (what "depends on 59" means).
- ``holder_overrides``: ``{"category", "holders", "action", "source"}``: the action for a
  category when its holder is of one of the kinds (the ministry methodology redacts a sole
  trader's place of business although category 46 is not subject).
- ``role_exceptions``: ``{"role", "categories", "action", "enabled", "source"}`` for people
  acting in a public role (``public_official``, ``statutory_representative``).
- ``unlinked_secondary_action``: action for a secondary finding with no dependency in scope;
  ``unknown_holder_action``: action when its holder decides and cannot be determined.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar

from redactor.errors import CategoryMapError
from redactor.model import Action, PartyKind

FORMAT = "redactor-category-map/1"
TYPES = ("primary", "secondary", "not_subject")
SCOPES = ("holder", "party", "sentence", "coreference")
ROLES = ("public_official", "statutory_representative")
HOLDERS = tuple(k.value for k in PartyKind)


@dataclass(frozen=True)
class Dependency:
    """Category ``category`` makes a secondary finding personal when linked within ``scopes``."""

    category: int
    scopes: tuple[str, ...]


@dataclass
class CategoryRule:
    """One row of the map."""

    id: int
    key: str
    name_cs: str
    name_en: str
    group: str
    type: str
    enabled: bool = True
    depends_on: list[Dependency] = field(default_factory=list)
    note: str = ""


@dataclass(frozen=True)
class HolderOverride:
    """Action for ``category`` when the finding's holder kind is in ``holders``."""

    category: int
    holders: tuple[str, ...]
    action: Action
    source: str


@dataclass(frozen=True)
class RoleException:
    """Action for name categories of a person acting in ``role``."""

    role: str
    categories: tuple[int, ...]
    action: Action
    enabled: bool
    source: str


@dataclass
class CategoryMap:
    """An executable category-dependency map. Build with :meth:`from_dict`, :meth:`load` or
    :meth:`default`; all of them validate and raise :class:`CategoryMapError`. ``TYPES``,
    ``SCOPES`` and ``ROLES`` are the words a map's rules may use (:data:`TYPES`, :data:`SCOPES`,
    :data:`ROLES`)."""

    TYPES: ClassVar[tuple[str, ...]] = TYPES
    SCOPES: ClassVar[tuple[str, ...]] = SCOPES
    ROLES: ClassVar[tuple[str, ...]] = ROLES

    name: str
    version: int
    categories: dict[int, CategoryRule]
    personal_holders: tuple[str, ...]
    holder_overrides: list[HolderOverride]
    role_exceptions: list[RoleException]
    unlinked_secondary_action: Action = Action.KEEP
    unknown_holder_action: Action = Action.REVIEW
    sources: list[str] = field(default_factory=list)
    scopes: dict[str, str] = field(default_factory=dict)

    # -- construction ------------------------------------------------------------------------
    @classmethod
    def default(cls) -> CategoryMap:
        """The platform default shipped in ``redactor/data/category_map.json``."""
        text = resources.files("redactor").joinpath("data/category_map.json").read_text(encoding="utf-8")
        return cls.from_dict(json.loads(text))

    @classmethod
    def load(cls, path: str | Path) -> CategoryMap:
        """Read a map from a JSON file (the ``--policy`` file of ``manage.py redact``)."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise CategoryMapError(f"cannot read category map {path}: {exc}") from exc
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CategoryMap:
        """Build and validate a map from its JSON form."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise CategoryMapError(f"not a category map: 'format' must be {FORMAT!r}")
        try:
            categories = {}
            for row in data["categories"]:
                rule = CategoryRule(
                    id=int(row["id"]),
                    key=str(row["key"]),
                    name_cs=str(row.get("name_cs", row["key"])),
                    name_en=str(row.get("name_en", row["key"])),
                    group=str(row.get("group", "")),
                    type=str(row["type"]),
                    enabled=bool(row.get("enabled", True)),
                    depends_on=[
                        Dependency(int(d["category"]), tuple(d.get("scopes", ("party", "sentence"))))
                        for d in row.get("depends_on", [])
                    ],
                    note=str(row.get("note", "")),
                )
                if rule.id in categories:
                    raise CategoryMapError(f"category {rule.id} is defined twice")
                categories[rule.id] = rule
            overrides = [
                HolderOverride(int(o["category"]), tuple(o["holders"]), Action(o["action"]), str(o.get("source", "")))
                for o in data.get("holder_overrides", [])
            ]
            exceptions = [
                RoleException(
                    str(e["role"]),
                    tuple(int(c) for c in e["categories"]),
                    Action(e["action"]),
                    bool(e.get("enabled", True)),
                    str(e.get("source", "")),
                )
                for e in data.get("role_exceptions", [])
            ]
            cmap = cls(
                name=str(data.get("name", "")),
                version=int(data.get("version", 1)),
                categories=categories,
                personal_holders=tuple(data.get("personal_holders", ("natural_person", "sole_trader"))),
                holder_overrides=overrides,
                role_exceptions=exceptions,
                unlinked_secondary_action=Action(data.get("unlinked_secondary_action", "keep")),
                unknown_holder_action=Action(data.get("unknown_holder_action", "review")),
                sources=list(data.get("sources", [])),
                scopes=dict(data.get("scopes", {})),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise CategoryMapError(f"malformed category map: {exc!r}") from exc
        cmap.validate()
        return cmap

    def validate(self) -> None:
        """Refuse unknown types, scopes, roles, holders and dependencies on unknown categories."""
        problems = self._category_problems() + self._override_problems()
        bad = [h for h in self.personal_holders if h not in HOLDERS]
        if bad:
            problems.append(f"personal_holders: unknown holders {bad}")
        if problems:
            raise CategoryMapError("; ".join(problems))

    def _category_problems(self) -> list[str]:
        """:meth:`validate`'s problems of the categories' types and dependencies."""
        problems = []
        for rule in self.categories.values():
            if rule.type not in TYPES:
                problems.append(f"category {rule.id}: type {rule.type!r} is not one of {', '.join(TYPES)}")
            for dep in rule.depends_on:
                if dep.category not in self.categories:
                    problems.append(f"category {rule.id} depends on unknown category {dep.category}")
                if dep.category == rule.id:
                    problems.append(f"category {rule.id} depends on itself")
                bad = [s for s in dep.scopes if s not in SCOPES]
                if bad or not dep.scopes:
                    problems.append(
                        f"category {rule.id}: dependency on {dep.category} has invalid scopes {bad or '[]'}"
                    )
        return problems

    def _override_problems(self) -> list[str]:
        """:meth:`validate`'s problems of the holder overrides and the role exceptions."""
        problems = []
        for override in self.holder_overrides:
            if override.category not in self.categories:
                problems.append(f"holder override for unknown category {override.category}")
            bad = [h for h in override.holders if h not in HOLDERS]
            if bad:
                problems.append(f"holder override for {override.category}: unknown holders {bad}")
        for exception in self.role_exceptions:
            if exception.role not in ROLES:
                problems.append(f"role exception: unknown role {exception.role!r}")
            unknown = [c for c in exception.categories if c not in self.categories]
            if unknown:
                problems.append(f"role exception {exception.role}: unknown categories {unknown}")
        return problems

    # -- queries -----------------------------------------------------------------------------
    def rule(self, category: int) -> CategoryRule | None:
        """The row for ``category`` or None when the map does not know it."""
        return self.categories.get(category)

    def role_exception(self, role: str, category: int) -> RoleException | None:
        """The enabled exception for ``role`` covering ``category``, if any."""
        for exception in self.role_exceptions:
            if exception.enabled and exception.role == role and category in exception.categories:
                return exception
        return None

    def holder_override(self, category: int, holder: str) -> HolderOverride | None:
        """The override for ``category`` when held by a ``holder`` kind, if any."""
        for override in self.holder_overrides:
            if override.category == category and holder in override.holders:
                return override
        return None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form, readable again by :meth:`from_dict` (the format ``data/category_map.json``
        documents; validated there, so its values stay ``Any`` here)."""
        return {
            "format": FORMAT,
            "name": self.name,
            "version": self.version,
            "sources": self.sources,
            "scopes": self.scopes,
            "personal_holders": list(self.personal_holders),
            "unlinked_secondary_action": self.unlinked_secondary_action.value,
            "unknown_holder_action": self.unknown_holder_action.value,
            "categories": [
                {
                    "id": r.id,
                    "key": r.key,
                    "name_cs": r.name_cs,
                    "name_en": r.name_en,
                    "group": r.group,
                    "type": r.type,
                    "enabled": r.enabled,
                    "depends_on": [{"category": d.category, "scopes": list(d.scopes)} for d in r.depends_on],
                    **({"note": r.note} if r.note else {}),
                }
                for r in sorted(self.categories.values(), key=lambda r: r.id)
            ],
            "holder_overrides": [
                {"category": o.category, "holders": list(o.holders), "action": o.action.value, "source": o.source}
                for o in self.holder_overrides
            ],
            "role_exceptions": [
                {
                    "role": e.role,
                    "categories": list(e.categories),
                    "action": e.action.value,
                    "enabled": e.enabled,
                    "source": e.source,
                }
                for e in self.role_exceptions
            ],
        }
