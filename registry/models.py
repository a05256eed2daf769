"""What the registry of contracts knows of an agency and of its contracts: how the agency publishes
(:class:`RegistrySettings`), each contract's record in the registry with its metadata
(:class:`RegistryRecord`) and every message sent to the registry with its reply
(:class:`RegistrySubmission`). The operations and replies follow the registry's interface, ISRS
1.2.1 (:mod:`registry.isrs`)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.models import Agency
from contracts.models import Contract


class RegistrySettings(models.Model):
    """How an agency publishes in the registry of contracts (Act 340/2015 Sb.): the publishing
    body's unit and address for ``subjekt``, and the data box it sends from.

    ``channel`` "databox" sends through the ISDS web services with the agency's credentials
    (``login`` and a password, or a system certificate in PEM with its key), each kept encrypted
    (:mod:`accounts.secrets`); "package" only prepares the submission package (XML and files)
    for agencies that send through their own records system."""

    class Channel(models.TextChoices):
        DATABOX = "databox", _("Data box (sent by this service)")
        PACKAGE = "package", _("Package to download (sent by your records system)")

    class Environment(models.TextChoices):
        TEST = "test", _("Test environment")
        PRODUCTION = "production", _("Production")

    agency = models.OneToOneField(Agency, on_delete=models.CASCADE, related_name="registry_settings")
    channel = models.CharField(_("channel"), max_length=16, choices=Channel.choices, default=Channel.PACKAGE)
    environment = models.CharField(
        _("environment"), max_length=16, choices=Environment.choices, default=Environment.TEST
    )
    unit = models.CharField(_("unit"), max_length=255, blank=True, help_text=_("Útvar / odbor shown in the registry"))
    address = models.CharField(_("address"), max_length=255, blank=True, help_text=_("Address of the publishing body"))
    confirmation_email = models.EmailField(
        _("e-mail for confirmations"),
        max_length=50,
        blank=True,
        help_text=_("The registry sends a copy of its replies"),
    )
    login = models.CharField(_("data-box login"), max_length=100, blank=True)
    password_sealed = models.TextField(blank=True, editable=False)
    certificate_sealed = models.TextField(blank=True, editable=False)
    replies_checked_at = models.DateTimeField(null=True, blank=True, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "accounts_registrysettings"  # made by the accounts app; kept when the model moved here
        verbose_name = _("registry settings")
        verbose_name_plural = _("registry settings")

    def __str__(self) -> str:
        return f"registry settings of {self.agency}"


class RegistryRecord(models.Model):
    """A contract's record in the registry of contracts: the metadata it is published with and,
    once the registry replied, the record's ids and link.

    ``metadata`` is ``redactor.metadata.ContractMetadata.to_dict()`` (``tSmlouva`` of the
    registry's XSD 1.2.1), pre-filled by processing and confirmed by a reviewer; ``record_id`` is
    the registry's ``idSmlouvy`` and ``version_id`` its ``idVerze``, ``link`` the record's public
    address, ``registered_at`` when the registry published it. A contract without a row has empty
    metadata and no record (:func:`registry.selectors.registry_record`)."""

    contract = models.OneToOneField(
        Contract, on_delete=models.CASCADE, primary_key=True, related_name="registry_record"
    )
    metadata = models.JSONField(default=dict, blank=True)
    record_id = models.BigIntegerField(null=True, blank=True)
    version_id = models.BigIntegerField(null=True, blank=True)
    link = models.URLField(max_length=300, blank=True)
    registered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("registry record")
        verbose_name_plural = _("registry records")

    def __str__(self) -> str:
        return f"registry record {self.record_id or '-'} of contract {self.contract_id}"


class RegistrySubmission(models.Model):
    """One message to the registry of contracts (one operation, ISRS 1.2.1) and its reply.

    ``files`` are ``[{"name", "sha256", "size", "kind"}]`` (kind "pdf" or "text", the published
    files named exactly as in ``xml``); ``key`` is the SHA-256 of the operation, the XML and the
    files, so the same submission is never sent twice. ``message_id`` is the data-box message's
    id (dmID) the reply names in ``puvodniZprava``."""

    class Operation(models.TextChoices):
        PUBLISH = "zverejneni", _("Publication")
        ADD_FILES = "pridaniPrilohy", _("Files added")
        MODIFY = "modifikace", _("New version of the record")
        WITHDRAW = "znepristupneni", _("Withdrawn")

    class State(models.TextChoices):
        PREPARED = "prepared", _("Prepared")
        SENDING = "sending", _("Sending")
        SENT = "sent", _("Sent, waiting for the registry")
        ACCEPTED = "accepted", _("Accepted by the registry")
        REJECTED = "rejected", _("Refused by the registry")
        FAILED = "failed", _("Not sent")

    agency = models.ForeignKey(Agency, on_delete=models.CASCADE, related_name="+")
    contract = models.ForeignKey(Contract, on_delete=models.CASCADE, related_name="registry_submissions")
    operation = models.CharField(max_length=16, choices=Operation.choices)
    state = models.CharField(max_length=16, choices=State.choices, default=State.PREPARED)
    channel = models.CharField(max_length=16, default="databox")
    key = models.CharField(max_length=64)
    xml = models.TextField(blank=True)  # empty until the record it adds to is known
    files = models.JSONField(default=list, blank=True)
    # the batch that needs this one's message id (pridani_prilohy by datovaZprava), or None
    follows = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    reason = models.TextField(blank=True)
    message_id = models.CharField(max_length=20, blank=True)
    error_code = models.CharField(max_length=16, blank=True)
    error_text = models.TextField(blank=True)
    reply = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    replied_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "contracts_registrysubmission"  # made by the contracts app; kept when the model moved here
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["contract", "key"], name="one_submission_per_content")]

    def __str__(self) -> str:
        return f"{self.operation} of contract {self.contract_id}: {self.state}"


def _published_file_path(instance: PublishedFile, filename: str) -> str:
    """An unguessable name under the agency's folder for a file fetched from the registry."""
    return f"published/{instance.record.agency_id}/{uuid.uuid4().hex}.pdf"


class RecordImport(models.Model):
    """One import of an agency's records from the registry's monthly open data
    (``dump_mesice.xsd``): a dump the admin uploaded (``dump`` kept as uploaded) or one fetched from
    ``source`` by the job. Counts: ``records`` of the agency in the dump (``new`` not known
    before), ``files`` named by them, ``stored`` fetched and matching their SHA-256, ``refused``
    whose content did not match, ``failed`` that could not be fetched (each named on its
    :class:`PublishedFile`), ``left_out`` records of an uploaded dump the registry does not list
    as the agency's (see ``confirmed``)."""

    class State(models.TextChoices):
        QUEUED = "queued", _("Waiting")
        RUNNING = "running", _("Importing")
        DONE = "done", _("Imported")
        FAILED = "failed", _("Failed")

    agency = models.ForeignKey(Agency, on_delete=models.CASCADE, related_name="record_imports")
    source = models.CharField(_("source"), max_length=300)
    dump = models.FileField(upload_to="dumps/%Y/", blank=True, editable=False)
    state = models.CharField(max_length=16, choices=State.choices, default=State.QUEUED)
    records = models.PositiveIntegerField(default=0)
    new = models.PositiveIntegerField(default=0)
    files = models.PositiveIntegerField(default=0)
    stored = models.PositiveIntegerField(default=0)
    refused = models.PositiveIntegerField(default=0)
    failed = models.PositiveIntegerField(default=0)
    #: Whether the registry itself vouches for the records: a fetched dump always; an uploaded one
    #: once its records were found as the agency's in the registry's own dump of their month, and
    #: taken as the registry publishes them (``left_out``: those that were not, and were not
    #: imported). False for an upload while this service fetches nothing: its records are taken as
    #: the file names them.
    confirmed = models.BooleanField(default=True)
    left_out = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"import of {self.source} for agency {self.agency_id}: {self.state}"


class PublishedRecord(models.Model):
    """A record the agency published in the registry of contracts, as its open data shows it:
    ``record_id`` (idSmlouvy), ``version_id`` (idVerze, the newest imported), ``link``,
    ``published_at`` and the ``metadata`` as published (``ContractMetadata.to_dict()``).

    The audit (:func:`registry.services.audit.record_audit`) stores what the record exposes if
    it were published now: ``findings`` (see :data:`registry.services.audit.FINDINGS_SHAPE`),
    ``exposure`` (the number of exposed values, the list's order) and ``audit_state``.
    ``correction`` is the contract made to correct the record from its file ``correction_file``
    (:func:`registry.services.corrections.record_correct`): its publication is sent as a
    ``modifikace`` of this record; ``corrected_at`` is when the registry accepted it."""

    class AuditState(models.TextChoices):
        WAITING = "waiting", _("Not audited yet")
        RUNNING = "running", _("Being audited")
        DONE = "done", _("Audited")
        FAILED = "failed", _("Audit failed")

    agency = models.ForeignKey(Agency, on_delete=models.CASCADE, related_name="published_records")
    record_id = models.BigIntegerField()
    version_id = models.BigIntegerField()
    link = models.URLField(max_length=300, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    metadata = models.JSONField(default=dict, blank=True)
    imported_by = models.ForeignKey(RecordImport, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    audit_state = models.CharField(max_length=16, choices=AuditState.choices, default=AuditState.WAITING)
    audited_at = models.DateTimeField(null=True, blank=True)
    exposure = models.PositiveIntegerField(default=0)
    findings = models.JSONField(default=dict, blank=True)
    audit_error = models.TextField(blank=True)
    correction = models.OneToOneField(
        Contract, null=True, blank=True, on_delete=models.SET_NULL, related_name="corrects_record"
    )
    correction_file = models.ForeignKey(
        "PublishedFile", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    corrected_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-exposure", "-published_at", "-record_id"]
        constraints = [models.UniqueConstraint(fields=["agency", "record_id"], name="one_published_record")]
        indexes = [models.Index(fields=["agency", "audit_state"])]

    def __str__(self) -> str:
        return f"published record {self.record_id} of agency {self.agency_id}"


class PublishedFile(models.Model):
    """A file of a :class:`PublishedRecord` as the registry publishes it: ``name``, ``sha256``
    (hex, from the dump) and ``link``. ``content`` is the file fetched once and kept unchanged
    when its SHA-256 matched (``state`` stored); a file whose content did not match is refused
    and not kept, with the SHA-256 it had in ``error``. ``correction`` is the contract made to
    correct this file (:func:`registry.services.corrections.record_correct`); the record's
    ``correction`` is the one of them that sends the record's new version."""

    class State(models.TextChoices):
        WAITING = "waiting", _("Not fetched yet")
        STORED = "stored", _("Stored")
        REFUSED = "refused", _("Refused: content does not match the registry's hash")
        FAILED = "failed", _("Could not be fetched")

    record = models.ForeignKey(PublishedRecord, on_delete=models.CASCADE, related_name="files")
    name = models.CharField(max_length=255)
    sha256 = models.CharField(max_length=64, blank=True)
    link = models.URLField(max_length=500, blank=True)
    state = models.CharField(max_length=16, choices=State.choices, default=State.WAITING)
    content = models.FileField(upload_to=_published_file_path, blank=True, editable=False)
    size = models.PositiveBigIntegerField(default=0)
    error = models.TextField(blank=True)
    correction = models.ForeignKey(
        Contract, null=True, blank=True, on_delete=models.SET_NULL, related_name="corrects_published_files"
    )
    #: a reviewer stated that this file, which the audit found exposing data, goes to the
    #: registry unchanged with the record's correction (who and when; also in the audit trail)
    as_is_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    as_is_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.name} of record {self.record.record_id}"


class RecordAudit(models.Model):
    """One audit of an agency's imported records, a background job on the low queue: ``total``
    records to audit when it started, ``done`` so far (it resumes with the records still
    waiting), ``state`` and the time it took."""

    class State(models.TextChoices):
        QUEUED = "queued", _("Waiting")
        RUNNING = "running", _("Auditing")
        DONE = "done", _("Audited")
        FAILED = "failed", _("Failed")

    agency = models.ForeignKey(Agency, on_delete=models.CASCADE, related_name="record_audits")
    state = models.CharField(max_length=16, choices=State.choices, default=State.QUEUED)
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    #: when the last step began: an audit under way whose last step began longer ago than a step
    #: may run has lost its chain of jobs (a worker gone with it) and is resumed
    stepped_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"audit of agency {self.agency_id}: {self.state} ({self.done}/{self.total})"
