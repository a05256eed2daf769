"""The registry panel's and settings page's forms: the contract's registry metadata and parties,
sending, and how the agency publishes (channel, environment, data-box login)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import validate_ico
from redactor import metadata
from registry.models import RegistrySettings, RegistrySubmission

_PAYS = [("", _("not known")), ("1", _("pays")), ("0", _("receives"))]


def _flag(value: str) -> bool | None:
    return {"1": True, "0": False}.get(value)


def _choice(flag: bool | None) -> str:
    return "" if flag is None else "1" if flag else "0"


class RegistryMetadataForm(forms.Form):
    """The registry metadata of a contract (``tSmlouva`` of the registry's XSD 1.2.1), pre-filled
    from the contract; the parties are :class:`RegistryPartyForm` rows."""

    subject = forms.CharField(label=_("Subject"), max_length=255, required=False, widget=forms.Textarea({"rows": 2}))
    date_concluded = forms.DateField(
        label=_("Date of conclusion"), required=False, widget=forms.DateInput({"type": "date"}, format="%Y-%m-%d")
    )
    number = forms.CharField(label=_("Contract number"), max_length=255, required=False)
    signed_by = forms.CharField(label=_("Signed by"), max_length=255, required=False)
    value_without_vat = forms.DecimalField(
        label=_("Value without VAT (CZK)"), required=False, min_value=0, max_digits=16, decimal_places=2, localize=True
    )
    value_with_vat = forms.DecimalField(
        label=_("Value with VAT (CZK)"), required=False, min_value=0, max_digits=16, decimal_places=2, localize=True
    )
    foreign_value = forms.DecimalField(
        label=_("Value in a foreign currency"), required=False, min_value=0, max_digits=16, decimal_places=2,
        localize=True,
    )  # fmt: skip
    foreign_currency = forms.RegexField(
        label=_("Currency (ISO code)"), regex=r"^[A-Za-z]{3}$", required=False, max_length=3
    )
    related_record = forms.IntegerField(
        label=_("Related record (ID in the registry)"), required=False, min_value=1,
        help_text=_("For an amendment: the registry's ID of the contract it changes."),
    )  # fmt: skip
    payer = forms.ChoiceField(label=_("The agency"), choices=_PAYS, required=False)

    def apply(self, meta: metadata.ContractMetadata) -> metadata.ContractMetadata:
        """``meta`` with this form's values (the parties are not touched)."""
        d = self.cleaned_data
        for key in ("subject", "number", "signed_by", "foreign_currency"):
            setattr(meta, key, (d.get(key) or "").strip())
        meta.foreign_currency = meta.foreign_currency.upper()
        for key in ("date_concluded", "value_without_vat", "value_with_vat", "foreign_value", "related_record"):
            setattr(meta, key, d.get(key))
        meta.publisher.payer = _flag(d.get("payer", ""))
        return meta

    @staticmethod
    def initial_of(meta: metadata.ContractMetadata) -> dict:
        """The form's initial values from stored metadata."""
        return {
            "subject": meta.subject,
            "date_concluded": meta.date_concluded,
            "number": meta.number,
            "signed_by": meta.signed_by,
            "value_without_vat": meta.value_without_vat,
            "value_with_vat": meta.value_with_vat,
            "foreign_value": meta.foreign_value,
            "foreign_currency": meta.foreign_currency,
            "related_record": meta.related_record,
            "payer": _choice(meta.publisher.payer),
        }


class RegistryPartyForm(forms.Form):
    """One contracting party (``smluvniStrana``). "Private person" publishes the sentence the
    registry's XSD prescribes for § 5(6) of Act 340/2015 Sb. instead of the name."""

    name = forms.CharField(label=_("Name"), max_length=255, required=False)
    private = forms.BooleanField(label=_("Private person: name not published (§ 5(6))"), required=False)
    ico = forms.CharField(label=_("IČO"), max_length=8, required=False, validators=[validate_ico])
    data_box = forms.RegexField(label=_("Data box"), regex=r"^[a-z0-9]{7}$", required=False, max_length=7)
    address = forms.CharField(label=_("Address"), max_length=255, required=False)
    recipient = forms.ChoiceField(label=_("The party"), choices=_PAYS, required=False)

    def party(self) -> metadata.RegistryParty | None:
        """The party, or None for an empty or deleted row."""
        d = self.cleaned_data
        if not d or d.get("DELETE") or not any(d.get(k) for k in ("name", "ico", "data_box", "address", "private")):
            return None
        private = bool(d.get("private"))
        return metadata.RegistryParty(
            name=metadata.NOT_PUBLIC if private else d.get("name", "").strip(),
            ico=d.get("ico", ""),
            data_box=d.get("data_box", ""),
            address=d.get("address", "").strip(),
            recipient={"1": False, "0": True}.get(d.get("recipient", "")),
            private=private,
        )

    def name_not_published(self) -> bool:
        """Whether a name was typed on a private person's row: the registry publishes the § 5(6)
        sentence instead (:data:`redactor.metadata.NOT_PUBLIC`), so the name is not saved."""
        d = self.cleaned_data
        typed = (d.get("name") or "").strip() if d else ""
        return bool(d) and not d.get("DELETE") and bool(d.get("private")) and typed not in ("", metadata.NOT_PUBLIC)

    @staticmethod
    def initial_of(party: metadata.RegistryParty) -> dict:
        """A row's initial values from a stored party."""
        private = party.name == metadata.NOT_PUBLIC
        return {
            "name": "" if private else party.name,
            "private": private,
            "ico": party.ico,
            "data_box": party.data_box,
            "address": party.address,
            "recipient": "" if party.recipient is None else "0" if party.recipient else "1",
        }


RegistryPartyFormSet = forms.formset_factory(RegistryPartyForm, extra=1, can_delete=True, max_num=50)


class RegistrySendForm(forms.Form):
    """Send to the registry: publication, a correction of the metadata, or withdrawal (with a reason)."""

    operation = forms.ChoiceField(choices=RegistrySubmission.Operation.choices)
    reason = forms.CharField(label=_("Reason"), max_length=500, required=False)


class RegistryPackageSentForm(forms.Form):
    """The package left the agency's records system: the day, and the data-box message's id if
    at hand."""

    sent_on = forms.DateField(label=_("Sent on"), required=False, widget=forms.DateInput(attrs={"type": "date"}))

    message_id = forms.CharField(
        label=_("Data-box message id"),
        max_length=20,
        required=False,
        help_text=_("As your records system shows the sent message; without it the registry's reply is matched "
                    "by the files."),
    )  # fmt: skip


class RegistryReplyForm(forms.Form):
    """The registry's reply as it arrived in the agency's data box (its XML file)."""

    reply = forms.FileField(label=_("The registry's reply (XML)"))


class SecretTextarea(forms.Textarea):
    """A text area that never sends its value back to the browser (as ``PasswordInput`` with
    ``render_value=False``): a form shown again after a validation error must not echo a
    certificate's private key into the page, its cache or a screenshot."""

    def format_value(self, value):
        return None


class RegistrySettingsForm(forms.Form):
    """How the agency publishes in the registry: channel, environment, its unit and address, the
    data-box login; a password or certificate left empty keeps the stored one."""

    channel = forms.ChoiceField(label=_("Channel"), choices=RegistrySettings.Channel.choices)
    environment = forms.ChoiceField(label=_("Environment"), choices=RegistrySettings.Environment.choices)
    unit = forms.CharField(label=_("Unit"), max_length=255, required=False)
    address = forms.CharField(label=_("Address of the publishing body"), max_length=255, required=False)
    confirmation_email = forms.EmailField(label=_("E-mail for the registry's confirmations"), max_length=50,
                                          required=False)  # fmt: skip
    login = forms.CharField(label=_("Data-box login"), max_length=100, required=False)
    password = forms.CharField(
        label=_("Data-box password"), required=False, widget=forms.PasswordInput(render_value=False),
        help_text=_("Stored encrypted. Leave empty to keep the stored one."),
    )  # fmt: skip
    certificate = forms.CharField(
        label=_("System certificate (PEM with its key)"), required=False, widget=SecretTextarea({"rows": 3}),
        help_text=_("Stored encrypted. Leave empty to keep the stored one."),
    )  # fmt: skip


class RecordImportForm(forms.Form):
    """An import of the agency's records: a monthly dump uploaded, or a month the service fetches."""

    dump = forms.FileField(label=_("Monthly dump of the registry's open data (XML)"), required=False)
    month = forms.DateField(
        label=_("Or fetch the registry's dump of the month"),
        required=False,
        input_formats=["%Y-%m"],
        widget=forms.DateInput({"type": "month"}, format="%Y-%m"),
    )

    def clean(self):
        data = super().clean()
        if not data.get("dump") and not data.get("month"):
            raise forms.ValidationError(_("Choose a dump file, or a month to fetch."))
        return data


class RecordCorrectForm(forms.Form):
    """The file of a record to correct (empty: the one with most findings)."""

    file = forms.IntegerField(required=False, min_value=1)
