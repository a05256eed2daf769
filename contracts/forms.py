"""HTML forms of the contract pages."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import WebhookEvent
from .services.uploads import RegistryMetadata, pdf_check, upload_size_check


class UploadForm(forms.Form):
    """A contract PDF plus the registry metadata; the file is checked before anything is stored."""

    file = forms.FileField(
        label=_("Contract (PDF)"), widget=forms.ClearableFileInput(attrs={"accept": "application/pdf,.pdf"})
    )
    title = forms.CharField(label=_("Title"), max_length=300, required=False, help_text=_("Defaults to the file name."))
    counterparty = forms.CharField(label=_("Counterparty"), max_length=300, required=False)
    subject = forms.CharField(label=_("Subject"), required=False, widget=forms.Textarea(attrs={"rows": 2}))
    value_amount = forms.DecimalField(
        label=_("Value without VAT (CZK)"), required=False, min_value=0, max_digits=16, decimal_places=2, localize=True
    )
    date_concluded = forms.DateField(
        label=_("Date of conclusion"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        upload_size_check(upload.size)  # before reading a huge file into memory
        data = upload.read()
        pdf_check(data)
        self.data_bytes = data
        return upload

    def metadata(self) -> RegistryMetadata:
        """The registry metadata entered with the upload."""
        d = self.cleaned_data
        return RegistryMetadata(
            counterparty=d.get("counterparty", ""),
            subject=d.get("subject", ""),
            value_amount=d.get("value_amount"),
            date_concluded=d.get("date_concluded"),
        )


class ApproveForm(forms.Form):
    """Approval, with the confirmation that pages without a text layer were checked by eye."""

    ocr_pages_checked = forms.BooleanField(label=_("I checked the pages without text by eye"), required=False)


class WebhookForm(forms.Form):
    """Register or change a webhook: the receiving URL, the events, on or off."""

    url = forms.URLField(label=_("URL"), max_length=500, assume_scheme="https")
    events = forms.MultipleChoiceField(
        label=_("Events"),
        choices=WebhookEvent.choices,
        widget=forms.CheckboxSelectMultiple,
        initial=list(WebhookEvent.values),
    )
    active = forms.BooleanField(label=_("Active"), required=False, initial=True)
