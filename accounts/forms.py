"""HTML forms of the agency pages."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Agency, Role


class AgencyForm(forms.ModelForm):
    """The agency's own settings (name, IČO, data box, four eyes, officials' signatures, printed grounds)."""

    class Meta:
        model = Agency
        fields = ["name", "ico", "data_box_id", "second_approval", "redact_official_signatures", "print_legal_grounds"]


class InvitationForm(forms.Form):
    """Invite a person by e-mail; they accept through the link (with their account or a new one)."""

    email = forms.EmailField(label=_("E-mail"))
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices, initial=Role.CLERK)


class MemberCreateForm(forms.Form):
    """Create a new account for the agency; the person sets a password through the reset e-mail."""

    username = forms.CharField(label=_("Username"), max_length=150)
    email = forms.EmailField(label=_("E-mail"))
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices, initial=Role.CLERK)


class MemberRoleForm(forms.Form):
    """Change a member's role."""

    role = forms.ChoiceField(label=_("Role"), choices=Role.choices)


class ApiTokenForm(forms.Form):
    """Create an API token: a name, the role it acts with, an optional expiry date."""

    name = forms.CharField(
        label=_("Name"), max_length=100, help_text=_("e.g. the name of the document-management system")
    )
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices, initial=Role.CLERK)
    expires_on = forms.DateField(
        label=_("Expires on"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("Leave empty for a token without expiry. The token stops working at the start of this day."),
    )
