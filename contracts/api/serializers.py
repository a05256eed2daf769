"""Input and output shapes of the API; every field here is in the OpenAPI schema."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from accounts.selectors import actor_name
from contracts import selectors
from contracts.extensions import contract_sections
from contracts.models import (
    DECISION_STATE,
    Contract,
    DecisionState,
    LegalGround,
    Proposal,
    Run,
    Source,
    Status,
    Suggestion,
)
from contracts.services.runs import run_stuck
from policy.i18n import rule_lines
from policy.selectors import category_names
from policy.vocabulary import in_reader_language


class ErrorSerializer(serializers.Serializer):
    """Every error response."""

    message = serializers.CharField(help_text="A sentence for a person (in the service's language).")
    extra = serializers.DictField(
        help_text="`code` (machine-readable), plus `fields` for invalid input and `retry_after` (s) for 429."
    )


# -- contracts ------------------------------------------------------------------------------------
class ContractUploadSerializer(serializers.Serializer):
    """Multipart upload: the PDF and the metadata the registry of contracts asks for (Act 340/2015 Sb., § 5)."""

    file = serializers.FileField(help_text="The contract as a PDF (not encrypted, no JavaScript).")
    title = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")
    counterparty = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")
    subject = serializers.CharField(max_length=5000, required=False, allow_blank=True, default="")
    value_amount = serializers.DecimalField(
        max_digits=16, decimal_places=2, required=False, allow_null=True, default=None, min_value=0
    )
    value_currency = serializers.RegexField(r"^[A-Z]{3}\Z", required=False, default="CZK", help_text="ISO 4217")
    date_concluded = serializers.DateField(required=False, allow_null=True, default=None)


class RunSerializer(serializers.ModelSerializer):
    """The latest job on a contract, for a progress bar."""

    percent = serializers.IntegerField(help_text="0–100 of the whole job, never going back; 100 once it succeeded")
    phase_display = serializers.CharField(source="get_phase_display", help_text="The phase in the interface's language")
    progress_text = serializers.CharField(
        help_text="Where the job stands, in the interface's language: the phase, its page counter, the time left"
    )
    stuck = serializers.SerializerMethodField(
        help_text="Why a queued job is stuck (its queue did not move for `REDACTOR_QUEUE_WAIT_SECONDS`), in the "
        "interface's language; null otherwise. `POST …/retry/` offers it to a worker again."
    )

    @extend_schema_field({"type": "string", "nullable": True})
    def get_stuck(self, obj: Run) -> str | None:
        return run_stuck(obj)

    class Meta:
        model = Run
        fields = [
            "kind",
            "state",
            "phase",
            "phase_display",
            "progress_done",
            "progress_total",
            "percent",
            "seconds_left",
            "progress_text",
            "stuck",
            "error",
            "created_at",
            "started_at",
            "finished_at",
        ]


class ContractSerializer(serializers.ModelSerializer):
    """A contract's metadata, status and progress."""

    status = serializers.ChoiceField(choices=Status.choices)
    page_count = serializers.SerializerMethodField()
    pages_needing_ocr = serializers.ListField(
        child=serializers.IntegerField(), help_text="Pages (from 1) without a text layer: check them by eye."
    )
    pages_to_check = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Pages (from 1) read by OCR with low confidence: check them by eye before approving.",
    )
    earlier_redactions = serializers.ListField(
        child=serializers.ListField(child=serializers.FloatField(), min_length=5, max_length=5),
        help_text="Black rectangles the uploaded file already had over live text – an earlier redaction that left "
        "the text readable (a copy circulating elsewhere leaks it): `[page, x0, y0, x1, y1]` in PDF points, pages "
        "from 1. The text under them is proposed for redaction.",
    )
    progress = serializers.SerializerMethodField()
    links = serializers.SerializerMethodField()

    class Meta:
        model = Contract
        fields = [
            "id",
            "title",
            "counterparty",
            "subject",
            "value_amount",
            "value_currency",
            "date_concluded",
            "status",
            "error_message",
            "original_name",
            "original_size",
            "original_sha256",
            "page_count",
            "pages_needing_ocr",
            "pages_to_check",
            "earlier_redactions",
            "category_map",
            "created_at",
            "approved_at",
            "published_at",
            "progress",
            "links",
        ]

    def get_page_count(self, obj) -> int:
        return len(obj.pages)

    def get_fields(self):
        """The declared fields with the apps' sections (:mod:`contracts.extensions`) before ``links``."""
        fields = {}
        for name, field in super().get_fields().items():
            if name == "links":
                fields.update({s.name: s.serializer(source="*", read_only=True) for s in contract_sections()})
            fields[name] = field
        return fields

    @extend_schema_field(RunSerializer(allow_null=True))
    def get_progress(self, obj):
        # the list prefetches runs newest first (one query for the page); a single contract asks the selector
        if "runs" in getattr(obj, "_prefetched_objects_cache", {}):
            runs = obj.runs.all()
            run = runs[0] if runs else None
        else:
            run = selectors.run_latest(contract=obj)
        return RunSerializer(run).data if run else None

    @extend_schema_field(
        {
            "type": "object",
            "properties": {
                k: {"type": "string"}
                for k in (
                    "self",
                    "proposals",
                    "decisions",
                    "approve",
                    "download",
                    "download_text",
                    "report",
                    "registry",
                    "register",
                )
            },
        }
    )
    def get_links(self, obj) -> dict:
        base = f"/api/v1/contracts/{obj.pk}/"
        return {
            "self": base,
            "proposals": base + "proposals/",
            "decisions": base + "decisions/",
            "approve": base + "approve/",
            "download": base + "download/",
            "download_text": base + "download/text/",
            "report": base + "report/",
            "registry": base + "registry/",
            "register": base + "register/",
        }


class ContractListQuerySerializer(serializers.Serializer):
    """Filters of the contract list."""

    status = serializers.ChoiceField(choices=[s for s in Status.choices if s[0] != Status.DELETED], required=False)
    q = serializers.CharField(required=False, max_length=200, help_text="Part of the title or counterparty.")
    created_after = serializers.DateTimeField(required=False)
    created_before = serializers.DateTimeField(required=False)


# -- proposals and decisions ----------------------------------------------------------------------
BOX_HELP = "[page, x0, y0, x1, y1]: page from 1, coordinates in PDF points from the top-left corner"


class CategoryNameField(serializers.CharField):
    """A proposal's category named in the language of Accept-Language (Czech by default), from the
    map version its contract was decided with; the engine's stored English name where the map
    has none. Each contract's and map version's names are read once per response."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._versions: dict[int, int | None] = {}  # contract id -> map version id
        self._names: dict[int | None, dict[int, tuple[str, str]]] = {}

    def get_attribute(self, instance):
        return instance

    def to_representation(self, value) -> str:
        proposal = value
        if proposal.contract_id not in self._versions:
            version = Contract.objects.filter(pk=proposal.contract_id).values_list("map_version_id", flat=True).first()
            self._versions[proposal.contract_id] = version
        version_id = self._versions[proposal.contract_id]
        if version_id not in self._names:
            self._names[version_id] = category_names(version_id=version_id)
        cs, en = self._names[version_id].get(proposal.category, ("", ""))
        return in_reader_language(cs, en) or proposal.own_category_name


class ProposalSerializer(serializers.ModelSerializer):
    """A proposed (or manual) redaction with the reason for it and its decision."""

    # DRF's serializer metaclass moves declared fields out of the class, so this field never
    # shadows Field.source (the stubs see a class attribute of another type)
    source = serializers.ChoiceField(choices=Source.choices)  # type: ignore[assignment]
    suggestion = serializers.ChoiceField(
        choices=Suggestion.choices, help_text="The engine's action from the category map."
    )
    decision = serializers.ChoiceField(choices=DecisionState.choices)
    boxes = serializers.ListField(child=serializers.ListField(child=serializers.FloatField()), help_text=BOX_HELP)
    will_redact = serializers.BooleanField(
        help_text="Burned in on approval: the decision, or the suggestion while pending."
    )
    decided_by = serializers.SerializerMethodField()
    rule = serializers.SerializerMethodField(
        help_text="The agency rule that decided the suggestion (learned from earlier reviews), or null."
    )
    why = serializers.SerializerMethodField(
        help_text="The rules that made and decided the suggestion, in order: each rule's stable `id` (the rule "
        "book's, `decision:<reason_code>`, or `agency:<rule id>`), its `name` in the language of Accept-Language, "
        "the document's `words` it saw (empty for a checksum), what it `saw` in English and its legal or "
        "observed `source`."
    )
    category_name = CategoryNameField(max_length=100, required=False, allow_blank=True)
    legal_ground = serializers.ChoiceField(
        choices=LegalGround.choices,
        help_text="Why the box is blacked out (§ 3(1) Act 340/2015): `personal_data` for the engine's proposals; "
        "a reviewer's own box says which.",
    )
    trade_secret_claimant = serializers.CharField(
        help_text="For a trade secret: the counterparty that designated it (empty otherwise).", read_only=True
    )
    trade_secret_claimed_on = serializers.DateField(
        help_text="For a trade secret: the day it was designated (null otherwise).", read_only=True, allow_null=True
    )
    reason = serializers.CharField(
        source="reason_display",
        help_text="Why the engine suggests this, as a sentence in the language of Accept-Language (Czech by default).",
    )
    reason_code = serializers.CharField(
        help_text="The reason as a stable code (e.g. 'linked_holder', 'role_exception', 'suspicious_ner'); "
        "empty for proposals stored before reason codes existed."
    )
    reason_params = serializers.JSONField(
        help_text="The reason's parameters: plain values from the document, {'term': key} words of the product's "
        "vocabulary, {'cs','en'} category names, and nested {'code','params'} reasons (a party, a person, the "
        "engine's reason an agency rule overruled)."
    )

    class Meta:
        model = Proposal
        fields = [
            "id",
            "source",
            "page",
            "boxes",
            "text",
            "category",
            "category_name",
            "category_type",
            "legal_ground",
            "trade_secret_claimant",
            "trade_secret_claimed_on",
            "suggestion",
            "score",
            "reason",
            "reason_code",
            "reason_params",
            "recognizer",
            "why",
            "cluster",
            "party",
            "rule",
            "decision",
            "decided_by",
            "decided_at",
            "will_redact",
        ]

    def get_decided_by(self, obj) -> str | None:
        return actor_name(obj.decided_by)

    def get_why(self, obj) -> list[dict[str, str]]:
        return rule_lines(obj.rules, obj.reason_display())

    def get_rule(self, obj) -> dict | None:
        if obj.rule is None:
            return None
        return {
            "id": obj.rule.pk,
            "kind": obj.rule.kind,
            "pattern": obj.rule.pattern,
            "keep_votes": obj.rule.keep_votes,
            "redact_votes": obj.rule.redact_votes,
        }


class DecisionItemSerializer(serializers.Serializer):
    proposal = serializers.IntegerField(min_value=1, max_value=2**63 - 1, help_text="A proposal id of this contract.")
    decision = serializers.ChoiceField(
        choices=[(kind.value, kind.label) for kind in DECISION_STATE],
        help_text="`accept` redacts, `reject` keeps, `reset` returns to the engine's suggestion; the proposal's "
        "`decision` becomes `accepted`, `rejected` or `pending`.",
    )
    same_cluster = serializers.BooleanField(
        default=False,
        help_text="Apply to every occurrence of the same person, value or phrase in the contract "
        "(all inflected forms).",
    )


class DecisionsSerializer(serializers.Serializer):
    """Several decisions applied together (all or none), undone together by their `batch`."""

    decisions = serializers.ListField(child=DecisionItemSerializer(), min_length=1, max_length=10000)
    confirm_names = serializers.BooleanField(
        default=False,
        help_text="Decide even where a decision would publish a person's name that no decision of the request "
        "names itself (a phrase matching it); without it such a request is refused with 409 `confirm_names`, "
        "naming the persons, and nothing is decided.",
    )
    learn = serializers.BooleanField(
        default=True,
        help_text="Let decisions that teach something (a review item decided, a suggestion or an agency "
        "rule overruled or confirmed) vote on the agency's rules for later contracts.",
    )


class DecisionsResultSerializer(serializers.Serializer):
    changed = serializers.ListField(child=serializers.IntegerField(), help_text="Ids of the proposals that changed.")
    affected = serializers.ListField(
        child=serializers.IntegerField(), help_text="Ids of every occurrence the decisions applied to."
    )
    pending = serializers.IntegerField(help_text="Proposals that still need a decision before approval.")
    batch = serializers.UUIDField(help_text="Undoes these decisions: POST .../decisions/{batch}/undo/.")
    rules = serializers.ListField(child=serializers.IntegerField(), help_text="Agency rules the decisions voted on.")


class UndoResultSerializer(serializers.Serializer):
    restored = serializers.ListField(
        child=serializers.IntegerField(), help_text="Ids of the proposals restored to their earlier decision."
    )
    pending = serializers.IntegerField(help_text="Proposals that still need a decision before approval.")


class ManualRedactionSerializer(serializers.Serializer):
    """A reviewer's own redaction: boxes over anything the engine missed."""

    boxes = serializers.ListField(
        child=serializers.ListField(child=serializers.FloatField(), min_length=5, max_length=5),
        min_length=1,
        max_length=200,
        help_text=BOX_HELP,
    )
    text = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000)
    legal_ground = serializers.ChoiceField(
        choices=LegalGround.choices, default=LegalGround.PERSONAL_DATA, help_text="Why the box is blacked out."
    )
    trade_secret_claimant = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=200,
        help_text="Required for `trade_secret`: the counterparty that designated the passage a trade secret.",
    )  # fmt: skip
    trade_secret_claimed_on = serializers.DateField(
        required=False, allow_null=True, default=None,
        help_text="Required for `trade_secret`: the day the counterparty designated it (ISO 8601 date).",
    )  # fmt: skip


class ApproveSerializer(serializers.Serializer):
    ocr_pages_checked = serializers.BooleanField(
        default=False,
        help_text="Required as true when the contract has pages without a text layer or read by OCR with low "
        "confidence (`pages_needing_ocr`, `pages_to_check`).",
    )


# -- report ---------------------------------------------------------------------------------------
class ReportCategorySerializer(serializers.Serializer):
    category = serializers.IntegerField(allow_null=True, help_text="Category map id (null for manual redactions).")
    category_name = serializers.CharField()
    redacted = serializers.IntegerField()
    kept = serializers.IntegerField()


class ReportRedactionSerializer(serializers.Serializer):
    proposal = serializers.IntegerField()
    page = serializers.IntegerField()
    boxes = serializers.ListField(child=serializers.ListField(child=serializers.FloatField()), help_text=BOX_HELP)
    category = serializers.IntegerField(allow_null=True)
    category_name = serializers.CharField()
    source = serializers.ChoiceField(choices=Source.choices)  # type: ignore[assignment]  # as ProposalSerializer.source
    legal_ground = serializers.ChoiceField(choices=LegalGround.choices)
    trade_secret_claimant = serializers.CharField(help_text="For a trade secret: who designated it.")
    trade_secret_claimed_on = serializers.DateField(allow_null=True, help_text="For a trade secret: when.")
    decided = serializers.ChoiceField(
        choices=[("reviewer", "reviewer"), ("suggestion", "engine suggestion, not changed by a reviewer")]
    )
    decided_by = serializers.CharField(allow_null=True)
    decided_at = serializers.DateTimeField(allow_null=True)


class ReturnSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500, help_text="What the first reviewer should look at again.")


class ReportPageSerializer(serializers.Serializer):
    page = serializers.IntegerField()
    blacked_out = serializers.FloatField(help_text="Share of the page's area under black boxes, 0–1.")
    watchdog_share = serializers.FloatField(
        allow_null=True,
        help_text="Black over black and text, 0–1, as Hlídač státu scores a page (5 % or more: redacted; 20 % "
        "or more: heavily redacted); null for a contract published before the score was kept.",
    )


class ReportWatchdogSerializer(serializers.Serializer):
    redacted = serializers.ListField(child=serializers.IntegerField(), help_text="Pages at 5 % or more.")
    heavy = serializers.ListField(child=serializers.IntegerField(), help_text="Pages at 20 % or more.")
    readable = serializers.BooleanField(help_text="More than 20 characters and 10 words of published text.")


class ReportSerializer(serializers.Serializer):
    """What was redacted, by category and by whom, the verification result and the blacked-out share per page."""

    contract = serializers.IntegerField()
    title = serializers.CharField()
    status = serializers.ChoiceField(choices=Status.choices)
    category_map = serializers.CharField()
    approved_by = serializers.CharField(allow_null=True)
    approved_at = serializers.DateTimeField(allow_null=True)
    published_at = serializers.DateTimeField(allow_null=True)
    pages_needing_ocr = serializers.ListField(child=serializers.IntegerField())
    pages_to_check = serializers.ListField(child=serializers.IntegerField())
    ocr_confirmed_by = serializers.CharField(allow_null=True)
    by_category = ReportCategorySerializer(many=True)
    redactions = ReportRedactionSerializer(many=True)
    pages = ReportPageSerializer(many=True)
    watchdog = ReportWatchdogSerializer(allow_null=True, help_text="How Hlídač státu scores the published files.")
    verification = serializers.DictField(help_text="The verifier's result: `ok` and the `problems` it found.")
    redacted_sha256 = serializers.CharField(allow_blank=True)


class AuditEventSerializer(serializers.Serializer):
    action = serializers.CharField()
    user = serializers.CharField(allow_null=True)
    detail = serializers.DictField()
    created_at = serializers.DateTimeField()


class TextExportRequestSerializer(serializers.Serializer):
    """Start the agency's bulk text export."""

    mode = serializers.ChoiceField(choices=["removed", "tagged", "pseudonymised"], default="tagged")
    format = serializers.ChoiceField(choices=["txt", "jsonl"], default="txt")


class TextExportFailureSerializer(serializers.Serializer):
    contract = serializers.IntegerField(help_text="The contract's id.")
    title = serializers.CharField()
    reason = serializers.CharField(help_text="Why it was left out, in the reader's language.")


class TextExportJobSerializer(serializers.Serializer):
    """A bulk text export job: ``state`` running, finished (the zip can be downloaded) or failed."""

    id = serializers.CharField()
    state = serializers.ChoiceField(choices=["running", "finished", "failed"])
    done = serializers.IntegerField(help_text="Contracts exported so far.")
    total = serializers.IntegerField(help_text="Decided (approved or published) contracts to export.")
    contracts = serializers.IntegerField(allow_null=True, help_text="Contracts in the zip, once finished.")
    failed = serializers.ListField(
        child=serializers.IntegerField(), help_text="Contracts left out (their ids; `failures` says why)."
    )
    failures = serializers.ListField(
        child=TextExportFailureSerializer(),
        help_text="Each contract left out, with the reason in the reader's language.",
    )
    error = serializers.CharField(
        allow_null=True, help_text="Why the export failed, in the reader's language (state failed); null otherwise."
    )


class EarlierPageSerializer(serializers.Serializer):
    contract = serializers.IntegerField(source="contract_id", help_text="The earlier published contract's id.")
    title = serializers.CharField()
    page = serializers.IntegerField(help_text="Its page (from 1) that this page repeats.")
    similarity = serializers.FloatField(help_text="Estimated share of the two pages' words in common, 0–1.")


class RepeatedPageSerializer(serializers.Serializer):
    page = serializers.IntegerField(help_text="A page of this contract (from 1).")
    repeats_page = serializers.IntegerField(
        allow_null=True, help_text="An earlier page of the same contract it repeats (90 % of its words), or null."
    )
    earlier = EarlierPageSerializer(
        allow_null=True, help_text="The page of the agency's earlier published contract it repeats, or null."
    )
    decidable = serializers.IntegerField(
        help_text="Undecided proposals of this page whose text was decided on the earlier contract's page."
    )


class LikeEarlierResultSerializer(DecisionsResultSerializer):
    earlier = EarlierPageSerializer()
