"""HTML forms of the agency pages."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Agency, Role


class AgencyForm(forms.ModelForm):
    """The agency's own settings (name, IČO, data box)."""

    class Meta:
        model = Agency
        fields = ["name", "ico", "data_box_id"]


class MemberAddForm(forms.Form):
    """Add a member: an existing user by username, or a new one who sets a password by reset e-mail."""

    username = forms.CharField(label=_("Username"), max_length=150)
    email = forms.EmailField(label=_("E-mail"), required=False)
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices)


class MemberRoleForm(forms.Form):
    """Change a member's role."""

    role = forms.ChoiceField(label=_("Role"), choices=Role.choices)
