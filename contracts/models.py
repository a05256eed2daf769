"""Contracts, the engine's proposals, reviewers' decisions, jobs and the audit trail.

Every row carries its agency (the tenant); reads go through :mod:`contracts.selectors`. Boxes are
stored in PDF points as ``[page, x0, y0, x1, y1]`` with pages counted from 1 and y growing down
(PyMuPDF's page coordinates).
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils.text import slugify
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from accounts.models import Agency
from policy.i18n import reason_text
from redactor import Box


def box_from_list(value: list) -> Box:
    """``[page, x0, y0, x1, y1]`` (points, page from 1) as a :class:`Box`. Raises ``ValueError``,
    ``TypeError`` or ``IndexError`` for anything else."""
    return Box(int(value[0]), float(value[1]), float(value[2]), float(value[3]), float(value[4]))


def box_to_list(box: Box) -> list:
    """``box`` as stored: ``[page, x0, y0, x1, y1]``, coordinates rounded to 0.01 point."""
    return [box.page, round(box.x0, 2), round(box.y0, 2), round(box.x1, 2), round(box.y1, 2)]


def _original_path(instance: Contract, filename: str) -> str:
    # Unguessable and never derived from user input; MEDIA_ROOT is not served by any URL.
    return f"originals/{instance.agency_id}/{uuid.uuid4().hex}.pdf"


def _redacted_path(instance: Contract, filename: str) -> str:
    return f"redacted/{instance.agency_id}/{uuid.uuid4().hex}.pdf"


def _redacted_text_path(instance: Contract, filename: str) -> str:
    return f"redacted/{instance.agency_id}/{uuid.uuid4().hex}.txt"


def _analysed_path(instance: Contract, filename: str) -> str:
    return f"analysed/{instance.agency_id}/{uuid.uuid4().hex}.layer"


def _rebuilt_path(instance: Contract, filename: str) -> str:
    return f"analysed/{instance.agency_id}/{uuid.uuid4().hex}.pdf"


class Status(models.TextChoices):
    """Where a contract is: uploaded → processing → needs_review → approved → published →
    registered (the registry of contracts replied that it published it), or failed."""

    UPLOADED = "uploaded", _("Uploaded")
    PROCESSING = "processing", _("Processing")
    NEEDS_REVIEW = "needs_review", _("Needs review")
    # "published" is the redacted PDF made and verified; the registry publishes it only when it
    # replies ("registered"): the Czech labels say which, so a badge and the registry panel agree
    SECOND_APPROVAL = "second_approval", pgettext_lazy("contract status", "Waiting for a second approval")
    APPROVED = "approved", pgettext_lazy("contract status", "Approved, publishing")
    PUBLISHED = "published", pgettext_lazy("contract status", "Published")
    REGISTERED = "registered", pgettext_lazy("contract status", "Registered")
    FAILED = "failed", _("Failed")
    DELETED = "deleted", _("Deleted")


#: The states in which the contract's published files exist (registered is published and
#: registered in the registry of contracts).
PUBLISHED_STATES = (Status.PUBLISHED, Status.REGISTERED)


class Contract(models.Model):
    """One uploaded contract: the immutable original, what the clerk typed at upload, status and
    results (its registry record is the registry app's, :class:`registry.models.RegistryRecord`)."""

    agency = models.ForeignKey(Agency, on_delete=models.CASCADE, related_name="contracts")
    title = models.CharField(_("title"), max_length=300)
    # registry metadata (Act 340/2015 Sb., § 5: parties, subject, value, date of conclusion)
    counterparty = models.CharField(_("counterparty"), max_length=300, blank=True)
    subject = models.TextField(_("subject"), blank=True)
    value_amount = models.DecimalField(_("value"), max_digits=16, decimal_places=2, null=True, blank=True)
    value_currency = models.CharField(_("currency"), max_length=3, default="CZK")
    date_concluded = models.DateField(_("date of conclusion"), null=True, blank=True)

    original = models.FileField(upload_to=_original_path, editable=False)
    original_name = models.CharField(max_length=255)
    original_size = models.PositiveBigIntegerField()
    original_sha256 = models.CharField(max_length=64)
    redacted = models.FileField(upload_to=_redacted_path, blank=True, editable=False)
    #: The published text beside the PDF (UTF-8, pages separated by form feeds, no metadata):
    #: the analysed text without what the boxes hide, verified with the PDF.
    redacted_text = models.FileField(upload_to=_redacted_text_path, blank=True, editable=False)
    #: The stored document (redactor.StoredDocument), so that review, exports and publishing
    #: never open the original again: ``analysed`` is its text layer with every character's box
    #: as processing read it, the rebuild's report and the original's looks
    #: (StoredDocument.layer_bytes), ``rebuilt`` the allowlist rebuild of the original that was
    #: analysed and that publishing burns into. Personal data, deleted with the contract's data.
    #: ``analysed_format`` is the format the layer was written in (0: none; 2: the layer alone,
    #: before documents were stored: ``manage.py store_documents`` stores them), the ``_sha256``
    #: fields their hashes (a file changed in storage is not believed).
    analysed = models.FileField(upload_to=_analysed_path, blank=True, editable=False)
    analysed_format = models.PositiveSmallIntegerField(default=0, editable=False)
    analysed_sha256 = models.CharField(max_length=64, blank=True, editable=False)
    rebuilt = models.FileField(upload_to=_rebuilt_path, blank=True, editable=False)
    rebuilt_sha256 = models.CharField(max_length=64, blank=True, editable=False)

    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.UPLOADED)
    error_message = models.TextField(blank=True)
    # pages: [{"number", "width", "height", "needs_ocr"}] in points; filled by processing
    pages = models.JSONField(default=list, blank=True)
    # pages that looked scanned at upload (their processing goes to the OCR queue)
    scan_pages = models.PositiveIntegerField(default=0)
    # OCR words of scanned pages: {"<page>": OcrPage.to_dict()}; personal data, deleted with the contract's data
    ocr_pages = models.JSONField(default=dict, blank=True)
    parties = models.JSONField(default=list, blank=True)
    persons = models.JSONField(default=list, blank=True)
    category_map = models.CharField(max_length=100, blank=True)
    # the map version the proposals came from (kept when the map changes later)
    map_version = models.ForeignKey(
        "policy.MapVersion", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # the agency profile version the proposals were decided with (None: none saved yet)
    profile_version = models.ForeignKey(
        "accounts.ProfileVersion", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    ocr_confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    verification = models.JSONField(default=dict, blank=True)
    # blacked-out share of each page after burn-in: {"1": 0.031, ...}
    page_coverage = models.JSONField(default=dict, blank=True)
    #: how the registry's watchdog scores the published files (contracts.services.watchdog):
    #: {"pages": {"1": share, ...}, "redacted": [pages], "heavy": [pages], "readable": bool,
    #: "chars": n, "words": n}; empty before publication
    watchdog = models.JSONField(default=dict, blank=True)
    #: black rectangles found over live text at processing (an earlier redaction that left the
    #: text readable): [[page, x0, y0, x1, y1], ...] in points; the text under them is proposed
    #: for redaction, the copy circulating elsewhere still leaks it
    earlier_redactions = models.JSONField(default=list, blank=True)
    #: {page: MinHash of its words} (:func:`redactor.page_signatures`): a later contract's pages
    #: that repeat this one's are found without reading its text again
    page_signatures = models.JSONField(default=dict, blank=True)

    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    approved_at = models.DateTimeField(null=True, blank=True)
    # four eyes (the agency's second_approval): the first reviewer's approval, until the second
    first_approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    first_approved_at = models.DateTimeField(null=True, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    # deletion removes the files and the proposals (personal data); the row and its audit trail stay
    deleted_at = models.DateTimeField(null=True, blank=True)
    deleted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("contract")
        verbose_name_plural = _("contracts")

    def __str__(self) -> str:
        return self.title

    @property
    def earlier_redaction_pages(self) -> list[int]:
        """Pages (from 1) where the uploaded file had text readable under a black box."""
        return sorted({int(box[0]) for box in self.earlier_redactions})

    def download_name(self, suffix: str, extension: str = "pdf") -> str:
        """A file name for a download: the title as a slug plus ``suffix`` and ``.extension``."""
        base = slugify(self.title)[:80] or f"smlouva-{self.pk}"
        return f"{base}{suffix}.{extension}"

    @property
    def pages_needing_ocr(self) -> list[int]:
        """Page numbers (from 1) without a text layer: nothing on them was analysed."""
        return [p["number"] for p in self.pages if p.get("needs_ocr")]

    @property
    def pages_to_check(self) -> list[int]:
        """Page numbers (from 1) read by OCR with a mean word confidence under the threshold."""
        return [p["number"] for p in self.pages if p.get("needs_check")]

    @property
    def pages_as_pictures(self) -> list[int]:
        """Page numbers (from 1) that publishing turned into pictures with the analysed words as
        their text layer, because an extractor read their text other than it was analysed
        (``RedactionEngine.redact``; the reasons are in ``verification``)."""
        pictured = (self.verification or {}).get("checks", {}).get("pages_as_pictures") or {}
        return sorted(int(n) for n in pictured)


class Run(models.Model):
    """One execution of a background job on a contract: processing or publishing."""

    class Kind(models.TextChoices):
        PROCESSING = "processing", _("Processing")
        PUBLISHING = "publishing", _("Publishing")

    class State(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        SUCCEEDED = "succeeded", _("Succeeded")
        FAILED = "failed", _("Failed")

    class Phase(models.TextChoices):
        """The step a job is in: the engine's steps (:class:`redactor.progress.Step`) and the
        service's own."""

        LOADING = "loading", _("Loading the recognisers")
        PREPARING = "preparing", _("Opening the document")
        READING = "reading", _("Reading the pages")
        CHECKING = "checking", _("Checking another tool's text layer against the scan")
        REREADING = "rereading", _("Reading again by OCR the pages whose text layer is off")
        DECIDING = "deciding", _("Looking for personal data")
        SIGNATURES = "signatures", _("Looking for signatures")
        STORING = "storing", _("Storing the result")
        BURNING = "burning", _("Burning in the redactions and verifying the result")
        DONE = "done", _("Done")

    agency = models.ForeignKey(Agency, on_delete=models.CASCADE, related_name="+")
    contract = models.ForeignKey(Contract, on_delete=models.CASCADE, related_name="runs")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    state = models.CharField(max_length=16, choices=State.choices, default=State.QUEUED)
    rq_job_id = models.CharField(max_length=64, blank=True)
    phase = models.CharField(max_length=64, blank=True, choices=Phase.choices)
    #: the step's own counter: pages from 1 when the step counts pages, else 0 of 0
    progress_done = models.PositiveIntegerField(default=0)
    progress_total = models.PositiveIntegerField(default=0)
    #: the whole job, 0–100 (:class:`redactor.progress.JobProgress`), never going back
    progress_percent = models.PositiveSmallIntegerField(default=0)
    #: seconds left, estimated from the work to go; None before anything was measured
    seconds_left = models.PositiveIntegerField(null=True, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            # every job's choice (runs.run_take) and every sweep read the queued and running runs
            # only: without it each of them reads every run the service ever had (a partial index
            # would be smaller, but SQLite does not use one whose condition is an IN)
            models.Index(fields=["state", "kind"], name="run_state_kind"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} of contract {self.contract_id}: {self.state}"

    @property
    def percent(self) -> int:
        """The whole job's progress, 0–100 (100 once it succeeded), for the progress bar."""
        return 100 if self.state == self.State.SUCCEEDED else min(100, self.progress_percent)

    def progress_text(self) -> str:
        """Where the job stands, in the interface's language: the step, its page counter when it
        counts pages, and the time left ("Reading the pages: page 12 of 73, about 40 s left")."""
        text = self.get_phase_display() if self.phase else self.get_state_display()
        if self.progress_total:
            text += ": " + gettext("page %(done)d of %(total)d") % {
                "done": self.progress_done,
                "total": self.progress_total,
            }
        if self.state == self.State.RUNNING and self.seconds_left is not None:
            text += ", " + time_left(self.seconds_left)
        return text


def time_left(seconds: int) -> str:
    """``seconds`` as a person reads a job's time left: "about 40 s left", "about 3 min left"
    (minutes rounded up), "a few seconds left" under 5 s."""
    if seconds < 5:
        return gettext("a few seconds left")
    if seconds < 60:
        return gettext("about %(seconds)d s left") % {"seconds": seconds}
    return gettext("about %(minutes)d min left") % {"minutes": -(-seconds // 60)}


class Source(models.TextChoices):
    ENGINE = "engine", _("Detected")
    MANUAL_BOX = "manual_box", _("Manual box")
    MANUAL_TEXT = "manual_text", _("Manual text selection")
    #: found by the reader's check of the published pages (redactor.publish.reader_check)
    READER_CHECK = "reader_check", _("Still legible in the published page")


class Suggestion(models.TextChoices):
    """The engine's action for a proposal (from the category map)."""

    REDACT = "redact", _("Redact")
    KEEP = "keep", _("Keep")
    REVIEW = "review", _("Needs review")


class DecisionState(models.TextChoices):
    PENDING = "pending", _("Not decided")
    ACCEPTED = "accepted", _("Redact")
    REJECTED = "rejected", _("Keep")


class LegalGround(models.TextChoices):
    """Why a box is blacked out: the statutory ground that § 3(1) of Act 340/2015 Sb. lets a
    publisher withhold a part of a contract on (the information that the Freedom of Information
    Act 106/1999 Sb. does not disclose). The engine's proposals are personal data; a reviewer's
    own box says which ground it is."""

    PERSONAL_DATA = "personal_data", _("Personal data (§ 3(1) Act 340/2015 with § 8a Act 106/1999)")
    TRADE_SECRET = (
        "trade_secret",
        _("Trade secret designated by the counterparty (§ 3(1) Act 340/2015 with § 9 Act 106/1999, § 504 Civil Code)"),
    )
    CLASSIFIED = "classified", _("Classified information (§ 3(1) Act 340/2015 with Act 412/2005)")
    OTHER_STATUTE = "other_statute", _("Another statutory ground (§ 3 Act 340/2015)")

    @property
    def code(self) -> str:
        """The short code printed inside a published box when the agency asks for it
        (``Agency.print_legal_grounds``): Czech abbreviations, as the published contract is Czech
        whatever the reviewer's language; the agency's settings page gives the legend."""
        return LEGAL_GROUND_CODES[self.value]


#: :attr:`LegalGround.code` by ground: osobní údaje, obchodní tajemství, utajovaná informace,
#: jiný zákonný důvod.
LEGAL_GROUND_CODES = {"personal_data": "OÚ", "trade_secret": "OT", "classified": "UI", "other_statute": "JZD"}


class Proposal(models.Model):
    """A suggested or manual redaction: its boxes, text, category, reason and current decision."""

    agency = models.ForeignKey(Agency, on_delete=models.CASCADE, related_name="+")
    contract = models.ForeignKey(Contract, on_delete=models.CASCADE, related_name="proposals")
    source = models.CharField(max_length=16, choices=Source.choices, default=Source.ENGINE)
    page = models.PositiveIntegerField()  # first page, from 1
    boxes = models.JSONField()  # [[page, x0, y0, x1, y1], ...] in points
    text = models.TextField(blank=True)
    category = models.IntegerField(null=True, blank=True)
    category_name = models.CharField(max_length=100, blank=True)
    category_type = models.CharField(max_length=16, blank=True)
    suggestion = models.CharField(max_length=8, choices=Suggestion.choices, default=Suggestion.REDACT)
    score = models.FloatField(default=1.0)
    reason = models.TextField(blank=True)  # the reason in English (exports; rows from before reason codes)
    reason_code = models.CharField(max_length=40, blank=True)  # redactor.reasons.TEMPLATES key
    reason_params = models.JSONField(default=dict, blank=True)
    recognizer = models.CharField(max_length=64, blank=True)
    # the rules that made and decided the suggestion, with what each saw: [{"id", "saw"}, …] (ids of
    # redactor.rulebook, "decision:<reason code>", "agency:<pk>")
    rules = models.JSONField(default=list, blank=True)
    span_start = models.PositiveIntegerField(null=True, blank=True)
    span_end = models.PositiveIntegerField(null=True, blank=True)
    cluster = models.CharField(max_length=200, blank=True)  # same person or value across the document
    party = models.CharField(max_length=200, blank=True)  # in English
    party_who = models.JSONField(default=dict, blank=True)  # the party as a reason parameter
    # the agency rule that decided the suggestion, if any (the reason names it)
    rule = models.ForeignKey("policy.AgencyRule", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    legal_ground = models.CharField(max_length=16, choices=LegalGround.choices, default=LegalGround.PERSONAL_DATA)
    # a trade secret is the counterparty's designation (§ 504 Civil Code): who designated it and when
    trade_secret_claimant = models.CharField(max_length=200, blank=True)
    trade_secret_claimed_on = models.DateField(null=True, blank=True)
    decision = models.CharField(max_length=8, choices=DecisionState.choices, default=DecisionState.PENDING)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["page", "id"]
        indexes = [models.Index(fields=["contract", "cluster"])]

    def __str__(self) -> str:
        return f"{self.category_name}: {self.text[:40]}"

    def reason_display(self) -> str:
        """The reason in the active interface language (Czech or English)."""
        return reason_text(self.reason_code, self.reason_params, self.reason)

    def party_display(self) -> str:
        """The party the proposal stands in, in the active interface language."""
        who = self.party_who or {}
        return reason_text(who.get("code", ""), who.get("params"), self.party)

    def box_list(self) -> list[Box]:
        """The stored boxes as :class:`Box` values (points, pages from 1)."""
        return [box_from_list(b) for b in self.boxes]

    @property
    def own_category_name(self) -> str:
        """The category name stored with the proposal, where the category map names none: a
        reviewer's own box is a "Manual redaction" in the reader's language, whatever the language
        it was drawn in; anything else as stored."""
        if self.source in (Source.MANUAL_BOX, Source.MANUAL_TEXT) and not self.category:
            return gettext("Manual redaction")
        return self.category_name

    @property
    def will_redact(self) -> bool:
        """Whether the box is burned in on approval: the decision, or the engine's suggestion when pending."""
        if self.decision == DecisionState.PENDING:
            return self.suggestion == Suggestion.REDACT
        return self.decision == DecisionState.ACCEPTED


class Decision(models.Model):
    """One reviewer decision on one proposal, kept for the audit trail."""

    class Kind(models.TextChoices):
        ACCEPT = "accept", _("Accepted")
        REJECT = "reject", _("Rejected")
        RESET = "reset", _("Reset to suggestion")
        MANUAL_BOX = "manual_box", _("Manual box")
        MANUAL_TEXT = "manual_text", _("Manual text selection")
        UNDO = "undo", _("Undone")

    agency = models.ForeignKey(Agency, on_delete=models.CASCADE, related_name="+")
    contract = models.ForeignKey(Contract, on_delete=models.CASCADE, related_name="decisions")
    proposal = models.ForeignKey(Proposal, on_delete=models.CASCADE, related_name="decisions")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    # one reviewer action (a click) and everything it changed, for undo; the state before it
    batch = models.UUIDField(null=True, blank=True, db_index=True)
    previous = models.CharField(max_length=8, choices=DecisionState.choices, blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.kind} of proposal {self.proposal_id}"


#: The proposal's decision state after a reviewer's decision: the one place the reviewer's
#: vocabulary (``accept`` / ``reject`` / ``reset``, at both doors) turns into the stored state.
DECISION_STATE = {
    Decision.Kind.ACCEPT: DecisionState.ACCEPTED,
    Decision.Kind.REJECT: DecisionState.REJECTED,
    Decision.Kind.RESET: DecisionState.PENDING,
}


class AuditEvent(models.Model):
    """Something that happened to a contract, who did it and when (the audit trail)."""

    agency = models.ForeignKey(Agency, on_delete=models.CASCADE, related_name="+")
    contract = models.ForeignKey(Contract, on_delete=models.CASCADE, related_name="events")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    action = models.CharField(max_length=32)
    detail = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.action} on contract {self.contract_id}"


class IdempotencyKey(models.Model):
    """An upload's ``Idempotency-Key`` header: repeating the request returns the same contract.

    ``fingerprint`` is the SHA-256 of the file and the metadata, so reusing a key for a different
    upload is refused instead of silently answered with the wrong contract.
    """

    agency = models.ForeignKey(Agency, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64)
    contract = models.ForeignKey(Contract, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["agency", "key"], name="one_idempotency_key_per_agency")]

    def __str__(self) -> str:
        return f"{self.key} → contract {self.contract_id}"


class WebhookEvent(models.TextChoices):
    """What a webhook can be told about a contract."""

    NEEDS_REVIEW = "contract.needs_review", _("Contract needs review")
    SECOND_APPROVAL = "contract.second_approval", _("Contract waits for a second reviewer's approval")
    PUBLISHED = "contract.published", _("Contract published")
    FAILED = "contract.failed", _("Processing or publishing failed")
    REGISTERED = "contract.registered", _("Contract registered in the registry of contracts")
    REGISTRY_REJECTED = "contract.registry_rejected", _("The registry of contracts refused a submission")


def _all_events() -> list[str]:
    return list(WebhookEvent.values)


class Webhook(models.Model):
    """An agency's URL that receives a signed POST (HMAC-SHA256 with ``secret``) for contract events."""

    agency = models.ForeignKey(Agency, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(_("URL"), max_length=500, help_text=_("https:// address of your system"))
    secret = models.CharField(max_length=64, editable=False)
    events = models.JSONField(_("events"), default=_all_events)
    active = models.BooleanField(_("active"), default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+", editable=False
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("webhook")
        verbose_name_plural = _("webhooks")

    def __str__(self) -> str:
        return self.url

    def event_labels(self) -> str:
        """The events in the reader's language ("Smlouva zveřejněna, …"), unknown codes as they are."""
        labels = dict(WebhookEvent.choices)
        return ", ".join(str(labels.get(e, e)) for e in self.events)


class WebhookDelivery(models.Model):
    """One event sent (or being sent) to one webhook, with every attempt's outcome."""

    class State(models.TextChoices):
        PENDING = "pending", _("Pending")
        DELIVERED = "delivered", _("Delivered")
        FAILED = "failed", _("Failed (gave up)")

    agency = models.ForeignKey(Agency, on_delete=models.CASCADE, related_name="+")
    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    contract = models.ForeignKey(Contract, null=True, on_delete=models.SET_NULL, related_name="+")
    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    event = models.CharField(max_length=40, choices=WebhookEvent.choices)
    payload = models.JSONField()
    state = models.CharField(max_length=16, choices=State.choices, default=State.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    response_status = models.PositiveIntegerField(null=True, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.event} to {self.webhook_id}: {self.state}"
