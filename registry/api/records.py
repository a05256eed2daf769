"""The records the agency published in the registry before, at the API: import them from the
registry's open data, audit them, list them by what they expose (JSON or CSV), and start the
correction of one. The same services as the web page (:mod:`registry.services.published`,
:mod:`registry.services.audit`, :mod:`registry.services.corrections`)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.parsers import JSONParser, MultiPartParser
from rest_framework.response import Response

from accounts.models import Role
from contracts.api.base import AgencyAPIView, AgencyListAPIView, ContractPagination, contract_response
from contracts.api.openapi import errors
from contracts.http import file_response
from registry.models import PublishedRecord, RecordAudit, RecordImport
from registry.selectors import published_records, record_row
from registry.services import audit, corrections, published

RECORD_ID = OpenApiParameter(
    "record_id", int, OpenApiParameter.PATH, description="The record's id in the registry (idSmlouvy)."
)


class RecordImportSerializer(serializers.ModelSerializer):
    """An import: its ``source`` (a dump's file name or address), ``state`` (queued, running, done,
    failed with ``error``) and counts: ``records`` of the agency (``new`` among them), ``files``
    named, ``stored`` (SHA-256 matched), ``refused`` (did not match) and ``failed`` (not fetched);
    ``confirmed``: whether the registry vouches for the records (an uploaded dump is checked
    against the registry's own dump of its month, ``left_out`` counting the records it does not
    list as the agency's; false while the service fetches nothing)."""

    class Meta:
        model = RecordImport
        fields = ["id", "source", "state", "records", "new", "files", "stored", "refused", "failed", "confirmed",
                  "left_out", "error", "created_at", "finished_at"]  # fmt: skip
        read_only_fields = fields


class RecordImportRequestSerializer(serializers.Serializer):
    """Either ``dump`` (a monthly dump, multipart) or ``month`` (``YYYY-MM``: fetched by the service)."""

    dump = serializers.FileField(required=False)
    month = serializers.DateField(required=False, input_formats=["%Y-%m"])

    def validate(self, attrs):
        if bool(attrs.get("dump")) == bool(attrs.get("month")):
            raise serializers.ValidationError("Give either a dump file or a month.")
        return attrs


class RecordAuditSerializer(serializers.ModelSerializer):
    """An audit: ``state`` (queued, running, done, failed), ``done`` of ``total`` records."""

    class Meta:
        model = RecordAudit
        fields = ["id", "state", "total", "done", "error", "created_at", "started_at", "finished_at"]
        read_only_fields = fields


class RecordFileSerializer(serializers.Serializer):
    """A file of a record: ``name``, ``state`` (waiting, stored, refused, failed), ``exposure``
    (legible values and failed boxes the audit found in it), ``correction`` (the contract
    correcting it, or null) and ``as_is`` (when a reviewer stated that it goes to the registry as
    it is, or null)."""

    name = serializers.CharField()
    state = serializers.CharField()
    exposure = serializers.IntegerField()
    correction = serializers.IntegerField(allow_null=True)
    as_is = serializers.DateTimeField(allow_null=True)


class RecordSerializer(serializers.Serializer):
    """A record and what its audit found: ``exposure`` (exposed values, the list's order),
    ``categories`` (``[{"label", "count"}]`` in the reader's language, the metadata's fields
    included), ``failed_boxes``, ``watchdog_redacted_pages`` and the ``findings`` as stored (the
    values found, per file; see the docs), ``correction`` (the contract correcting it) and its
    ``files`` (name, state, exposure, the contract correcting the file)."""

    record_id = serializers.IntegerField(source="record.record_id")
    version_id = serializers.IntegerField(source="record.version_id")
    link = serializers.URLField(source="record.link")
    published_at = serializers.DateTimeField(source="record.published_at")
    subject = serializers.SerializerMethodField()
    audit_state = serializers.CharField(source="record.audit_state")
    audit_error = serializers.CharField(source="record.audit_error")
    exposure = serializers.IntegerField(source="record.exposure")
    categories = serializers.SerializerMethodField()
    failed_boxes = serializers.IntegerField()
    watchdog_redacted_pages = serializers.IntegerField(source="redacted_pages")
    findings = serializers.JSONField(source="record.findings")
    correction = serializers.IntegerField(source="record.correction_id", allow_null=True)
    corrected_at = serializers.DateTimeField(source="record.corrected_at", allow_null=True)
    files = serializers.SerializerMethodField()

    def get_subject(self, row) -> str:
        return row.record.metadata.get("subject", "")

    def get_categories(self, row) -> list[dict]:
        return [{"label": label, "count": n} for label, n in row.categories]

    @extend_schema_field(RecordFileSerializer(many=True))
    def get_files(self, row) -> list[dict]:
        exposed = {f.pk: n for f, n in row.exposed_files}
        return [
            {
                "name": f.name,
                "state": f.state,
                "exposure": exposed.get(f.pk, 0),
                "correction": f.correction_id,
                "as_is": f.as_is_at,
            }
            for f in row.record.files.all()
        ]


class PublishedRecordList(AgencyListAPIView):
    required_role = Role.REVIEWER
    pagination_class = ContractPagination
    serializer_class = RecordSerializer

    def get_queryset(self):
        return published_records(self.agency)

    def paginate_queryset(self, queryset):
        page = super().paginate_queryset(queryset)
        labels: dict = {}
        return [record_row(r, labels) for r in page] if page is not None else None

    @extend_schema(
        operation_id="registry_records_list",
        summary="The agency's records in the registry, most exposed first (reviewer)",
        responses={200: RecordSerializer(many=True), **errors(400)},
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class PublishedRecordCsv(AgencyAPIView):
    required_role = Role.REVIEWER

    @extend_schema(
        operation_id="registry_records_csv",
        summary="The same list as CSV (reviewer)",
        description="One row per record, the most exposed first: the web page's download.",
        responses={(200, "text/csv"): OpenApiResponse(OpenApiTypes.BINARY, description="The list."), **errors()},
    )
    def get(self, request):
        return file_response(audit.published_records_csv(agency=self.agency, user=request.user))


class RecordImportView(AgencyAPIView):
    required_role = Role.ADMIN
    parser_classes = [MultiPartParser, JSONParser]

    @extend_schema(
        operation_id="registry_records_import",
        summary="Import the agency's records from the registry's open data (admin)",
        description="A monthly dump uploaded (multipart `dump`) or fetched by the service (`month`, "
        "`YYYY-MM`; 400 `fetch_off` when this service fetches nothing). The job keeps the records "
        "whose publisher is the agency and fetches each file once, checking its SHA-256. 400 `not_a_dump`; "
        "413 `too_large` over the dump limit (`REDACTOR_MAX_DUMP_BYTES`, 400 MB).",
        request={
            "multipart/form-data": RecordImportRequestSerializer,
            "application/json": RecordImportRequestSerializer,
        },
        responses={202: RecordImportSerializer, **errors(400, 413)},
    )
    def post(self, request):
        form = RecordImportRequestSerializer(data=request.data)
        if getattr(request._request, "upload_too_large", False):  # stopped on its way in
            raise published.dump_too_large_error()
        form.is_valid(raise_exception=True)
        upload = form.validated_data.get("dump")
        if upload:
            started = published.record_import_upload(
                agency=self.agency, user=request.user, dump=upload, filename=upload.name
            )
        else:
            started = published.record_import_fetch(
                agency=self.agency, user=request.user, month=form.validated_data["month"]
            )
        return Response(RecordImportSerializer(started).data, status=202)


class RecordImportDetail(AgencyAPIView):
    required_role = Role.REVIEWER

    @extend_schema(
        operation_id="registry_records_import_retrieve",
        summary="An import's state and counts",
        parameters=[OpenApiParameter("import_id", int, OpenApiParameter.PATH)],
        responses={200: RecordImportSerializer, **errors(404)},
    )
    def get(self, request, import_id: int):
        return Response(RecordImportSerializer(get_object_or_404(RecordImport, agency=self.agency, pk=import_id)).data)


class RecordAuditView(AgencyAPIView):
    required_role = Role.REVIEWER

    @extend_schema(
        operation_id="registry_records_audit_retrieve",
        summary="The newest audit's progress",
        responses={200: RecordAuditSerializer, **errors(404)},
    )
    def get(self, request):
        return Response(
            RecordAuditSerializer(get_object_or_404(RecordAudit.objects.filter(agency=self.agency)[:1])).data
        )

    @extend_schema(
        operation_id="registry_records_audit",
        summary="Audit the records not audited yet (reviewer)",
        description="Returns the audit under way when there is one. `?again=1` audits every record anew. "
        "409 `nothing_to_audit`.",
        request=None,
        parameters=[OpenApiParameter("again", bool, required=False)],
        responses={202: RecordAuditSerializer, **errors(409)},
    )
    def post(self, request):
        again = request.query_params.get("again") in ("1", "true")
        starter = audit.record_audit_again if again else audit.record_audit_start
        return Response(RecordAuditSerializer(starter(agency=self.agency, user=request.user)).data, status=202)


class RecordCorrectView(AgencyAPIView):
    required_role = Role.REVIEWER

    @extend_schema(
        operation_id="registry_records_correct",
        summary="Correct a record: a contract from its published file (reviewer)",
        description="Makes (once) the contract whose original is the record's published file, linked to "
        "the record, with the metadata's private parties replaced by the § 5(6) sentence; it is "
        "processed and reviewed like an upload, and its registry send (`modifikace`) makes a new version "
        "of the record. A record with more exposed files gets a correction per file (`?file=` the "
        "file's name): those go to the registry inside the record's correction, which waits until they are "
        "published, and until every other file that exposes data is corrected or stated to go as it is "
        "(`.../as-is/?file=`). 400 `no_file`; 409 `already_sent`.",
        parameters=[
            RECORD_ID,
            OpenApiParameter(
                "file",
                str,
                description="The name of the record's file to correct (default: the record's correction, else its "
                "most exposed file).",
            ),
        ],
        request=None,
        responses={201: OpenApiResponse(OpenApiTypes.OBJECT, description="The contract."), **errors(400, 404, 409)},
    )
    def post(self, request, record_id: int):
        record = get_object_or_404(PublishedRecord, agency=self.agency, record_id=record_id)
        name = request.query_params.get("file")
        chosen = record.files.filter(name=name).first() if name else None
        file_id = (chosen.pk if chosen else 0) if name else None  # an unknown name: no file (400)
        contract = corrections.record_correct(record=record, user=request.user, file_id=file_id)
        return contract_response(contract, status=201)


class RecordFileAsIsView(AgencyAPIView):
    required_role = Role.REVIEWER

    @extend_schema(
        operation_id="registry_records_file_as_is",
        summary="State that a file of a record goes to the registry as it is (reviewer)",
        description="A file the audit found exposing data, with no correction of its own, goes unchanged in the "
        "record's correction (`modifikace`), which is refused (409 `files_undecided`) until each such file is "
        "corrected or stated so. Recorded in the audit trail of the record's correction. 400 `no_file` (not a "
        "file left to decide), `no_correction` (correct the record first); 409 `already_sent`.",
        parameters=[RECORD_ID, OpenApiParameter("file", str, description="The name of the record's file.")],
        request=None,
        responses={200: RecordFileSerializer, **errors(400, 404, 409)},
    )
    def post(self, request, record_id: int):
        record = get_object_or_404(PublishedRecord, agency=self.agency, record_id=record_id)
        chosen = record.files.filter(name=request.query_params.get("file", "")).first()
        f = corrections.record_file_as_is(record=record, user=request.user, file_id=chosen.pk if chosen else 0)
        exposure = corrections.file_findings(record).get(f.name, 0)
        return Response(
            {"name": f.name, "state": f.state, "exposure": exposure, "correction": f.correction_id, "as_is": f.as_is_at}
        )
