"""``{% map_url owner "page" arg %}``: the URL of a category-map console page for the map's
owner (the platform default or an agency), reversed from the URL configuration, never built by
hand; ``{{ code|term }}`` and ``{{ codes|terms }}``: the map's codes in the reader's language
(:mod:`policy.vocabulary`)."""

from django import template

from policy import vocabulary

register = template.Library()


@register.simple_tag
def map_url(owner, page: str, *args) -> str:
    """The URL of console ``page`` (a name of ``policy.urls.PAGES``: ``home``, ``category``,
    ``dependency``…) for ``owner`` (:class:`policy.views.maps.Owner`), with the page's own
    positional ``args`` (a category id)."""
    return owner.url(page, *args)


@register.filter
def term(code) -> str:
    """A type, scope, role, action or change code in the active language."""
    return vocabulary.term(code)


@register.filter
def terms(codes) -> str:
    """Several codes, each in the active language, joined with commas."""
    return vocabulary.terms(codes)


@register.filter
def category_list(ids, rows) -> str:
    """Category ``ids`` with their names from the map's ``rows`` (``{"id", "name_cs", "name_en"}``),
    in the reader's language: "4 Jméno a příjmení, 52 Akademický titul"."""
    names = {int(r["id"]): vocabulary.in_reader_language(r.get("name_cs"), r.get("name_en")) for r in rows or []}
    return ", ".join(f"{i} {names.get(int(i), '')}".strip() for i in ids or [])


@register.filter
def named(category, names) -> str:
    """A category id with its name from ``names`` (``{id: name}``): "4 Jméno a příjmení"."""
    if category is None or category == "":
        return ""
    return f"{category} {(names or {}).get(int(category), '')}".strip()


@register.filter
def category_name(row) -> str:
    """A category row's name in the reader's language (its Czech name unless the interface is English)."""
    return vocabulary.in_reader_language(row.get("name_cs"), row.get("name_en"))
