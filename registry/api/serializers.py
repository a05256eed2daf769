"""The registry of contracts in the API's shapes: the metadata with where each value was read, the
parties and the publisher, the submissions, and the registry status of a contract."""

from __future__ import annotations

from rest_framework import serializers

from redactor import metadata as engine_metadata
from registry.models import RegistrySubmission
from registry.selectors import last_submission, registry_record


class RegistrySourceSerializer(serializers.Serializer):
    """Where a pre-filled value was read: ``page`` (from 1; 0 when not read from the PDF), the
    ``text`` of its line (values the PDF redacts shown as ▮▮▮) and a ``note`` (``upload``,
    ``edited``, ``own_party``, ``not_public``, ``last_signature``, ``same_number``)."""

    page = serializers.IntegerField()
    text = serializers.CharField()
    note = serializers.CharField()


class PublisherSerializer(serializers.Serializer):
    """``subjekt``: the agency, from its settings (read-only here)."""

    data_box = serializers.CharField()
    name = serializers.CharField()
    ico = serializers.CharField()
    address = serializers.CharField()
    unit = serializers.CharField()
    payer = serializers.BooleanField(allow_null=True, help_text="True: the agency pays; false: it receives.")


class RegistryPartySerializer(serializers.Serializer):
    """``smluvniStrana``. ``private`` true publishes the § 5(6) sentence instead of the name."""

    name = serializers.CharField(max_length=255, allow_blank=True, required=False, default="")
    ico = serializers.RegexField(r"^\d{8}$", allow_blank=True, required=False, default="")
    data_box = serializers.RegexField(r"^[a-z0-9]{7}$", allow_blank=True, required=False, default="")
    address = serializers.CharField(max_length=255, allow_blank=True, required=False, default="")
    recipient = serializers.BooleanField(
        allow_null=True, required=False, default=None, help_text="True: the party receives the payment."
    )
    private = serializers.BooleanField(required=False, default=False)


class RegistryMetadataSerializer(serializers.Serializer):
    """A contract's registry metadata (``tSmlouva`` of the registry's XSD 1.2.1); amounts in the
    currency's units, CZK unless ``foreign_currency``."""

    publisher = PublisherSerializer(read_only=True)
    parties = RegistryPartySerializer(many=True)
    subject = serializers.CharField(max_length=255, allow_blank=True, required=False, default="")
    date_concluded = serializers.DateField(allow_null=True, required=False, default=None)
    number = serializers.CharField(max_length=255, allow_blank=True, required=False, default="")
    signed_by = serializers.CharField(max_length=255, allow_blank=True, required=False, default="")
    value_without_vat = serializers.DecimalField(16, 2, min_value=0, allow_null=True, required=False, default=None)
    value_with_vat = serializers.DecimalField(16, 2, min_value=0, allow_null=True, required=False, default=None)
    foreign_value = serializers.DecimalField(16, 2, min_value=0, allow_null=True, required=False, default=None)
    foreign_currency = serializers.RegexField(r"^[A-Za-z]{3}$", allow_blank=True, required=False, default="")
    related_record = serializers.IntegerField(min_value=1, allow_null=True, required=False, default=None)
    payer = serializers.BooleanField(allow_null=True, required=False, default=None, write_only=True)
    sources = serializers.DictField(child=RegistrySourceSerializer(), read_only=True)
    problems = serializers.ListField(child=serializers.CharField(), read_only=True,
                                     help_text="What stops sending, in the interface's language.")  # fmt: skip

    def to_metadata(self, base: engine_metadata.ContractMetadata) -> engine_metadata.ContractMetadata:
        """``base`` with the validated values."""
        d = dict(self.validated_data)
        base.parties = [
            engine_metadata.RegistryParty(
                name=engine_metadata.NOT_PUBLIC if p["private"] else p["name"].strip(),
                ico=p["ico"],
                data_box=p["data_box"],
                address=p["address"].strip(),
                recipient=p["recipient"],
                private=p["private"],
            )
            for p in d.pop("parties")
        ]
        base.publisher.payer = d.pop("payer", base.publisher.payer)
        for key, value in d.items():
            setattr(base, key, value.strip() if isinstance(value, str) else value)
        base.foreign_currency = base.foreign_currency.upper()
        return base


class SubmissionSerializer(serializers.ModelSerializer):
    """One message to the registry and its reply: ``state`` prepared → sending → sent →
    accepted or rejected (``error_code`` the registry's 1–11, ``hash`` for a file whose SHA-256
    differs, ``login``/``transport`` when it could not be sent: ``failed``)."""

    class Meta:
        model = RegistrySubmission
        fields = ["id", "operation", "state", "channel", "message_id", "files", "reason", "error_code", "error_text",
                  "created_at", "sent_at", "replied_at"]  # fmt: skip


class RegisterSerializer(serializers.Serializer):
    operation = serializers.ChoiceField(choices=RegistrySubmission.Operation.choices, default="zverejneni")
    reason = serializers.CharField(max_length=500, allow_blank=True, required=False, default="",
                                   help_text="Required for a correction (modifikace) or withdrawal.")  # fmt: skip


class PackageSentSerializer(serializers.Serializer):
    sent_on = serializers.DateField(required=False, allow_null=True, default=None,
                                    help_text="The day the package left (default: now).")  # fmt: skip
    message_id = serializers.CharField(
        max_length=20, allow_blank=True, required=False, default="",
        help_text="The data-box message id (dmID) the records system gave the sent message; without it "
        "the registry's reply is paired by the files' SHA-256.",
    )  # fmt: skip


class RegistryReplySerializer(serializers.Serializer):
    reply = serializers.FileField(
        help_text="The registry's reply as it arrived in the agency's data box: the XML of `odpoved*` "
        "(e.g. odpovedZverejneni.xml) or `chyba`.",
    )


class StoredRegistryMetadataSerializer(RegistryMetadataSerializer):
    """The metadata as stored, in the contract resource (``GET …/registry/`` adds ``problems``)."""

    # DRF's way to drop an inherited declared field; the stubs type the name as the field
    problems = None  # type: ignore[assignment]


class RegistryStatusField(serializers.Serializer):
    """The contract's registration: ``record_id`` (idSmlouvy), ``version_id``, ``link`` and
    ``registered_at`` once the registry replied; the latest submission."""

    # the ``registry`` section of the contract resource (contracts.extensions): it is given the
    # contract; this docstring is the OpenAPI description

    record_id = serializers.IntegerField(allow_null=True)
    version_id = serializers.IntegerField(allow_null=True)
    link = serializers.CharField()
    registered_at = serializers.DateTimeField(allow_null=True)
    last_submission = SubmissionSerializer(allow_null=True)
    metadata = StoredRegistryMetadataSerializer(read_only=True)

    def to_representation(self, instance) -> dict:
        record = registry_record(instance)
        last = last_submission(instance)
        return {
            "record_id": record.record_id,
            "version_id": record.version_id,
            "link": record.link,
            "registered_at": record.registered_at,  # the renderer writes it as the other times
            "last_submission": SubmissionSerializer(last).data if last else None,
            "metadata": engine_metadata.ContractMetadata.from_dict(record.metadata).to_dict(),
        }
