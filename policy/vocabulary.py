"""The category map's and the rules' codes in the reader's language: what the agency admin reads on
the map console, its preview, versions and the rules console, never the engine's codes
(``secondary``, ``coreference``, ``public_official``, ``draft_edited``). One table per kind of
code; :func:`term` looks a code up in all of them (an unknown code is shown as it is)."""

from __future__ import annotations

from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext_lazy as _

#: Category types (DOMAIN.md, the category-dependency map).
TYPES = {
    "primary": _("primary: personal data on its own"),
    "secondary": _("secondary: personal data when linked to a person"),
    "not_subject": _("not personal data"),
}
#: Where a dependency links a secondary finding to its primary one.
SCOPES = {
    "holder": _("the same holder"),
    "party": _("the same party block"),
    "sentence": _("the same sentence"),
    "coreference": _("another mention of the same person"),
}
#: Roles whose holders act in office (the map's role exceptions).
ROLES = {
    "public_official": _("public officials in office"),
    "statutory_representative": _("statutory representatives"),
}
#: The groups the categories are listed in.
GROUPS = {
    "address": _("addresses"),
    "contact": _("contacts"),
    "financial": _("financial"),
    "identifier": _("identifiers"),
    "online": _("online"),
    "organisation": _("organisations"),
    "person": _("persons"),
    "sensitive": _("special categories"),
    "vehicle": _("vehicles"),
}
#: What the map or a rule does with a finding.
ACTIONS = {
    "keep": pgettext_lazy("map action", "keep"),
    "redact": pgettext_lazy("map action", "redact"),
    "review": pgettext_lazy("map action", "needs review"),
}
#: The map's change trail.
CHANGES = {
    "draft_opened": _("draft started"),
    "draft_edited": _("draft edited"),
    "draft_discarded": _("draft discarded"),
    "imported": _("map file imported"),
    "published": _("version published"),
}
#: A category's fields and the map's settings, as the change lines name them.
FIELDS = {
    "type": _("type"),
    "enabled": _("enabled"),
    "name_cs": _("Czech name"),
    "name_en": _("English name"),
    "group": _("group"),
    "unlinked_secondary_action": _("a secondary finding linked to nobody"),
    "unknown_holder_action": _("a value of an unknown holder"),
    "personal_holders": _("holders whose values are personal"),
    "holder_overrides": _("rules per holder"),
}
_TABLES = (TYPES, SCOPES, ROLES, GROUPS, ACTIONS, CHANGES, FIELDS)


def in_reader_language(cs: str | None, en: str | None) -> str:
    """Of a name given in Czech and English (a category's ``name_cs``/``name_en``), the one in the
    active language: English only when the interface is English; the other when one is empty."""
    english = (get_language() or "cs").startswith("en")
    return ((en if english else cs) or cs or en or "").strip()


def term(code: object) -> str:
    """``code`` (a type, scope, role, action, change or field code) in the active language; a
    boolean as yes/no; anything else as it is."""
    if isinstance(code, bool):
        return str(_("yes") if code else _("no"))
    for table in _TABLES:
        if isinstance(code, str) and code in table:
            return str(table[code])
    return "" if code is None else str(code)


def terms(codes) -> str:
    """Several codes, each as :func:`term`, joined with commas."""
    return ", ".join(term(c) for c in codes or [])
