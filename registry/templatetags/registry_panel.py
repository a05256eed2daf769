"""The registry on a contract's page, so that the contracts app shows it without importing it:
``{% load registry_panel %}{% registry_panel %}`` in ``contracts/detail.html`` renders
``registry/_panel.html`` with the page's own context (``contract``, ``membership``) and the
panel's (:func:`registry.web.views.registry_panel`); ``{% contract_status_label contract %}``
names the status as the registry sees it."""

from django import template
from django.utils.translation import gettext as _

from registry.selectors import registry_waiting
from registry.web.views import registry_panel as panel_context

register = template.Library()


@register.inclusion_tag("registry/_panel.html", takes_context=True)
def registry_panel(context):
    """The panel of ``context["contract"]`` for ``context["membership"]``."""
    return {**context.flatten(), **panel_context(context["contract"], context["membership"])}


@register.simple_tag
def contract_status_label(contract) -> str:
    """The contract's status label, or "Sent to the registry, waiting for its reply" while a
    published contract's publication awaits the registry's reply."""
    if contract.status == "published" and registry_waiting(contract):
        return _("Sent to the registry, waiting for its reply")
    return contract.get_status_display()
