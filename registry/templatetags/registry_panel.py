"""The registry panel on a contract's page: ``{% load registry_panel %}{% registry_panel %}`` in
``contracts/detail.html`` renders ``registry/_panel.html`` with the page's own context
(``contract``, ``membership``) and the panel's (:func:`registry.web.views.registry_panel`), so
that the contracts app shows the registry without importing it."""

from django import template

from registry.web.views import registry_panel as panel_context

register = template.Library()


@register.inclusion_tag("registry/_panel.html", takes_context=True)
def registry_panel(context):
    """The panel of ``context["contract"]`` for ``context["membership"]``."""
    return {**context.flatten(), **panel_context(context["contract"], context["membership"])}
