"""The agency profile at ``/a/<id>/profile/``: what the agency knows about itself, which the
engine keeps in every contract of the agency (:mod:`redactor.detect.profile`).

Every member reads it; agency admins change it, on the page or by a CSV import. Each change is a
new version with who, when and what changed (:class:`accounts.models.ProfileVersion`).
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from accounts import selectors as account_selectors
from accounts import services as account_services
from accounts.models import Role
from accounts.web import form_error, member_required, report_error

from ..services import profiles

#: Largest CSV file the import reads.
MAX_CSV_BYTES = 1_000_000


class ProfileForm(forms.Form):
    """The profile's lists, one entry a line (an official as "name; function")."""

    former_names = forms.CharField(
        label=gettext_lazy("Former names"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    addresses = forms.CharField(
        label=gettext_lazy("Seat and other office addresses"), required=False, widget=forms.Textarea(attrs={"rows": 3})
    )
    accounts = forms.CharField(
        label=gettext_lazy("Bank accounts"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    phones = forms.CharField(label=gettext_lazy("Phones"), required=False, widget=forms.Textarea(attrs={"rows": 2}))
    email_domains = forms.CharField(
        label=gettext_lazy("E-mail domains"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    officials = forms.CharField(
        label=gettext_lazy("Officials and signing employees (name; function)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6}),
    )

    @classmethod
    def initial_from(cls, data: dict) -> dict:
        """The form's initial text from a version's data."""
        out = {}
        for field in account_services.PROFILE_LISTS:
            values = data.get(field) or []
            out[field] = "\n".join(f"{v['name']}; {v['function']}" if isinstance(v, dict) else str(v) for v in values)
        return out

    def data_lists(self) -> dict:
        """The cleaned text as the service's lists."""
        return {field: self.cleaned_data[field].splitlines() for field in account_services.PROFILE_LISTS}


def _page(membership) -> str:
    return reverse("map:profile", kwargs={"agency_id": membership.agency_id})


@member_required(Role.CLERK)
def profile(request, membership):
    """The profile in force, its versions, and (agency admins) its edit form."""
    agency = membership.agency
    current = account_selectors.profile_in_force(agency=agency)
    can_edit = membership.allows(Role.ADMIN)
    form = ProfileForm(
        request.POST if request.method == "POST" else None,
        initial=ProfileForm.initial_from(current.data if current else {}),
    )
    if request.method == "POST":
        if not can_edit:
            raise PermissionDenied("only an agency admin changes the profile")
        if form.is_valid():
            try:
                version = account_services.profile_save(agency=agency, user=request.user, data=form.data_lists())
            except ValidationError as exc:
                form_error(form, exc)
            else:
                if version is None:
                    messages.info(request, _("Nothing changed."))
                else:
                    messages.success(
                        request,
                        _("Saved as version %(n)d. Contracts uploaded from now on are processed with it.")
                        % {"n": version.number},
                    )
                return redirect(_page(membership))
    return render(
        request,
        "policy/profile.html",
        {
            "agency": agency,
            "membership": membership,
            "current": current,
            "versions": [
                (v, [(form.fields[c["field"]].label, c["added"], c["removed"]) for c in v.changes])
                for v in account_selectors.profile_versions(agency=agency)[:50]
            ],
            "form": form,
            "can_edit": can_edit,
            "columns": ",".join(account_services.PROFILE_CSV_COLUMNS),
            "fields": ", ".join(account_services.PROFILE_CSV_FIELDS),
        },
    )


@member_required(Role.CLERK)
def profile_export(request, membership):
    """The profile in force as CSV (UTF-8), in the import's format."""
    current = account_selectors.profile_in_force(agency=membership.agency)
    body = profiles.profile_export_csv(data=current.data if current else {})
    response = HttpResponse(body, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="profile-agency-{membership.agency_id}.csv"'
    return response


@require_POST
@member_required(Role.CLERK)
def profile_import(request, membership):
    """Replace the profile with an uploaded CSV (agency admins); all or nothing."""
    upload = request.FILES.get("file")
    if upload is None:
        messages.error(request, _("Choose a CSV file."))
        return redirect(_page(membership))
    if upload.size > MAX_CSV_BYTES:
        messages.error(request, _("The file is larger than 1 MB."))
        return redirect(_page(membership))
    try:
        version = account_services.profile_import_csv(agency=membership.agency, user=request.user, data=upload.read())
    except ValidationError as exc:
        report_error(request, exc)
    else:
        if version is None:
            messages.info(request, _("Nothing changed."))
        else:
            messages.success(request, _("Imported as version %(n)d.") % {"n": version.number})
    return redirect(_page(membership))
