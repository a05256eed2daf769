"""``{% map_url owner "page" arg %}``: the URL of a category-map console page for the map's
owner (the platform default or an agency), reversed from the URL configuration, never built by
hand."""

from django import template

register = template.Library()


@register.simple_tag
def map_url(owner, page: str, *args) -> str:
    """The URL of console ``page`` (a name of ``policy.urls.PAGES``: ``home``, ``category``,
    ``dependency``…) for ``owner`` (:class:`policy.views.Owner`), with the page's own
    positional ``args`` (a category id)."""
    return owner.url(page, *args)
