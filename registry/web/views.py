"""The registry panel of a contract page (metadata, sending, the registry's replies) and the
agency's registry settings. Every write is one call of :mod:`registry.services`."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_GET, require_POST

from accounts.models import Role, SettingsChange
from accounts.web import form_action, member_required, report_error
from contracts import selectors
from contracts.http import file_response
from contracts.services.watchdog import watchdog_flagged
from redactor import metadata as engine_metadata
from registry import isrs
from registry import services as registry
from registry.models import PublishedRecord, RecordImport
from registry.selectors import audit_summary, record_row, registry_record
from registry.selectors import published_records as published_records_of
from registry.services import audit as audit_service
from registry.services import corrections
from registry.services import published as published_service

from .forms import (
    RecordCorrectForm,
    RecordImportForm,
    RegistryMetadataForm,
    RegistryPackageSentForm,
    RegistryPartyFormSet,
    RegistryReplyForm,
    RegistrySendForm,
    RegistrySettingsForm,
)

#: How each source note reads on the panel.
SOURCE_NOTES = {
    "upload": gettext_noop("entered at upload"),
    "edited": gettext_noop("edited"),
    "own_party": gettext_noop("the agency's own party"),
    "not_public": gettext_noop("a private person: the name is not published"),
    "last_signature": gettext_noop("the date of the last signature"),
    "same_number": gettext_noop("the registered contract with the same number"),
}


def _panel_url(membership, contract) -> str:
    return reverse("contracts:detail", args=[membership.agency_id, contract.pk]) + "#registry"


def registry_panel(contract, membership, data=None) -> dict:
    """The context of the registry panel (``registry/_panel.html``): the forms filled
    from the stored metadata, where each field was found, what stops sending, the XML preview,
    the submissions and the agency's channel."""
    meta = registry.registry_metadata(contract)
    form = RegistryMetadataForm(data, initial=RegistryMetadataForm.initial_of(meta), prefix="reg")
    parties = RegistryPartyFormSet(
        data, initial=[RegistryPartyFormSet.form.initial_of(p) for p in meta.parties], prefix="party"
    )
    sources = {}
    for key, source in meta.sources.items():
        sources[key] = {"page": source.page, "text": source.text, "note": _(SOURCE_NOTES.get(source.note, ""))}
    # each party's row with where its values were found (the extra, empty rows have none)
    party_rows = [(row, sources.get(f"parties.{index}")) for index, row in enumerate(parties.forms)]
    problems = registry.registry_problems(contract, meta) if contract.redacted or meta.parties else []
    corrects = corrections.corrected_record(contract)
    try:
        preview = registry.registry_preview(contract, meta).decode("utf-8")
    except isrs.RegistryXmlError:
        preview = ""
    return {
        "registry_form": form,
        "registry_rows": [(form[name], sources.get(name)) for name in form.fields],
        "registry_parties": parties,
        "registry_party_rows": party_rows,
        "registry_sources": sources,
        "registry_problems": problems,
        "registry_preview": preview,
        "registry_submissions": list(contract.registry_submissions.order_by("-created_at", "-id")[:20]),
        "registry_settings": registry.registry_settings(contract.agency),
        "registry_record": registry_record(contract),
        "registry_corrects": corrects,
        "registry_corrects_file": corrections.corrected_file_of(contract),
        "registry_further": [
            (f, c, corrections.correction_published(c)) for f, c in corrections.further_corrections(contract)
        ],
        # the record's files that expose data with no correction and no statement yet, and those stated
        "registry_undecided": corrections.files_to_decide(corrects) if corrects is not None else [],
        "registry_as_is": list(corrects.files.exclude(as_is_at=None).select_related("as_is_by"))
        if corrects is not None
        else [],
        "watchdog": contract.watchdog,
        "watchdog_flagged": watchdog_flagged(contract.watchdog) if contract.watchdog else [],
        # a package of the agency's records system still waiting for the registry (newest first)
        "registry_awaiting": contract.registry_submissions.filter(
            channel="package", state__in=(registry.SubmissionState.PREPARED, registry.SubmissionState.SENT)
        ).first(),
        "registry_sent_form": RegistryPackageSentForm(initial={"sent_on": timezone.localdate()}),
        "registry_reply_form": RegistryReplyForm(),
        "registry_publisher": meta.publisher,
        "can_edit_registry": membership.allows(Role.CLERK) and contract.status != "deleted",
    }


@require_POST
@member_required(Role.CLERK)
def registry_metadata_save(request, membership, contract_id: int):
    """Save the metadata the clerk or reviewer confirmed or corrected."""
    contract = selectors.contract_get(agency=membership.agency, contract_id=contract_id)
    panel = registry_panel(contract, membership, request.POST)
    form, parties = panel["registry_form"], panel["registry_parties"]
    if form.is_valid() and parties.is_valid():
        meta = form.apply(registry.registry_metadata(contract))
        meta.parties = [p for p in (row.party() for row in parties.forms) if p is not None]
        saved = _("The registry metadata were saved.")
        unnamed = [str(i) for i, row in enumerate(parties.forms, start=1) if row.name_not_published()]
        if unnamed:
            saved += " " + _(
                "The name typed for contracting party %(parties)s was not saved: the registry publishes a "
                "private person as “%(sentence)s” (Act 340/2015 Sb., § 5(6)). Untick “Private person” for a "
                "party whose name is public."
            ) % {"parties": ", ".join(unnamed), "sentence": engine_metadata.NOT_PUBLIC}
        form_action(
            request,
            lambda: registry.registry_metadata_update(contract=contract, user=request.user, metadata=meta),
            saved,
        )
    else:
        errors = [e for row in [form, *parties.forms] for field_errors in row.errors.values() for e in field_errors]
        messages.error(request, _("The metadata were not saved: %(errors)s") % {"errors": " ".join(errors)})
    return redirect(_panel_url(membership, contract))


@require_POST
@member_required(Role.CLERK)
def registry_send(request, membership, contract_id: int):
    """Send to the registry (publication, correction or withdrawal); the service checks the role."""
    contract = selectors.contract_get(agency=membership.agency, contract_id=contract_id)
    form = RegistrySendForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Unknown registry operation."))
        return redirect(_panel_url(membership, contract))
    operation, reason = form.cleaned_data["operation"], form.cleaned_data["reason"]
    channel = registry.registry_settings(contract.agency).channel
    done = (
        _("Sent to the registry's data box; its reply is read automatically.")
        if channel == "databox"
        else _("The submission is ready: download the package and send it from your records system.")
    )
    _as_reviewer(
        request,
        lambda: registry.registry_submit(contract=contract, user=request.user, operation=operation, reason=reason),
        done,
    )
    return redirect(_panel_url(membership, contract))


def _as_reviewer(request, action, success: str = "") -> None:
    """:func:`~accounts.web.form_action` for the panel's sending steps, which the services allow
    reviewers and admins only: a clerk who posts one reads that sentence instead of a 403."""
    try:
        form_action(request, action, success)
    except PermissionDenied:
        messages.error(request, _("Only reviewers and agency admins send to the registry."))


@require_GET
@member_required(Role.CLERK)
def registry_package(request, membership, contract_id: int):
    """The submission package (ZIP: zverejneni.xml and the files it names)."""
    contract = selectors.contract_get(agency=membership.agency, contract_id=contract_id)
    try:
        download = registry.registry_package(contract=contract, user=request.user)
    except ValidationError as exc:
        report_error(request, exc)
        return redirect(_panel_url(membership, contract))
    except PermissionDenied:
        messages.error(request, _("Only reviewers and agency admins send to the registry."))
        return redirect(_panel_url(membership, contract))
    return file_response(download)


@require_POST
@member_required(Role.CLERK)
def registry_package_sent(request, membership, contract_id: int):
    """The package left the agency's records system; the service checks the role."""
    contract = selectors.contract_get(agency=membership.agency, contract_id=contract_id)
    form = RegistryPackageSentForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
        return redirect(_panel_url(membership, contract))
    message_id, sent_on = form.cleaned_data["message_id"], form.cleaned_data["sent_on"]
    _as_reviewer(
        request,
        lambda: registry.registry_package_sent(contract=contract, user=request.user, message_id=message_id,
                                               sent_on=sent_on),
        _("Recorded as sent. When the registry's reply arrives in your data box, upload it here."),
    )  # fmt: skip
    return redirect(_panel_url(membership, contract))


@require_POST
@member_required(Role.CLERK)
def registry_reply(request, membership, contract_id: int):
    """The registry's reply handed over from the agency's records system; the service checks it."""
    contract = selectors.contract_get(agency=membership.agency, contract_id=contract_id)
    form = RegistryReplyForm(request.POST, request.FILES)
    if not form.is_valid():
        messages.error(request, _("Choose the XML file of the registry's reply."))
        return redirect(_panel_url(membership, contract))
    upload = form.cleaned_data["reply"]
    xml = upload.read(registry.REPLY_MAX_BYTES + 1)

    def record():
        submission = registry.registry_reply_record(contract=contract, user=request.user, xml=xml)
        if submission.state == registry.SubmissionState.ACCEPTED and not submission.error_code:
            messages.success(request, _("The registry's reply is recorded: the contract is published in the registry."))
        elif submission.state == registry.SubmissionState.ACCEPTED:
            messages.warning(request, submission.error_text)
        else:
            refused = _("The registry refused the submission: %(advice)s")
            messages.error(request, refused % {"advice": submission.error_text})

    _as_reviewer(request, record)
    return redirect(_panel_url(membership, contract))


@member_required(Role.ADMIN)
def registry_settings(request, membership):
    """The agency's registry settings: channel, environment, unit, address, data-box login."""
    agency = membership.agency
    current = registry.registry_settings(agency)
    initial = {
        k: getattr(current, k) for k in ("channel", "environment", "unit", "address", "confirmation_email", "login")
    }
    form = RegistrySettingsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        saved = form_action(
            request,
            lambda: registry.registry_settings_update(
                agency=agency,
                user=request.user,
                channel=d["channel"],
                environment=d["environment"],
                unit=d["unit"],
                address=d["address"],
                confirmation_email=d["confirmation_email"],
                login=d["login"],
                password=d["password"] or None,
                certificate=d["certificate"] or None,
            ),
            _("The registry settings were saved."),
        )
        if saved:
            return redirect("registry:settings", agency_id=agency.pk)
    return render(
        request,
        "registry/settings.html",
        {
            "form": form,
            "agency": agency,
            "membership": membership,
            "has_password": bool(current.password_sealed),
            "has_certificate": bool(current.certificate_sealed),
            "changes": [
                (change, [form[f["field"]].label if f["field"] in form.fields else f["field"] for f in change.fields])
                for change in SettingsChange.objects.filter(
                    agency=agency, area=SettingsChange.Area.REGISTRY
                ).select_related("user")[:20]
            ],
        },
    )


# -- records the agency published before ---------------------------------------------------------
def _records_url(membership) -> str:
    return reverse("registry:records", args=[membership.agency_id])


@require_GET
@member_required(Role.REVIEWER)
def published_records(request, membership):
    """The agency's records already in the registry, the most exposed first, with the audit's
    counts by category, the imports and the audit under way."""
    labels: dict = {}
    rows = [record_row(r, labels) for r in published_records_of(membership.agency)]
    summary = audit_summary(membership.agency, rows)
    running = summary.audit is not None and summary.audit.state in ("queued", "running")
    importing = any(i.state in ("queued", "running") for i in summary.imports)
    return render(
        request,
        "registry/records.html",
        {
            "membership": membership,
            "rows": rows,
            "summary": summary,
            "running": running,
            "importing": importing,
            "import_form": RecordImportForm(),
            "fetching": settings.REDACTOR_REGISTRY_FETCH,
        },
    )


@require_POST
@member_required(Role.REVIEWER)
def records_import(request, membership):
    """Import the agency's records from an uploaded dump or a fetched month; the service checks
    the role (admins)."""
    form = RecordImportForm(request.POST, request.FILES)
    if getattr(request, "upload_too_large", False):  # stopped on its way in (contracts.upload_handlers)
        messages.error(request, " ".join(published_service.dump_too_large_error().messages))
        return redirect(_records_url(membership))
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
        return redirect(_records_url(membership))
    upload, month = form.cleaned_data["dump"], form.cleaned_data["month"]

    def start():
        if upload:
            published_service.record_import_upload(
                agency=membership.agency, user=request.user, dump=upload, filename=upload.name
            )
        else:
            published_service.record_import_fetch(agency=membership.agency, user=request.user, month=month)

    try:
        form_action(request, start, _("The import has started; the records appear here as it goes."))
    except PermissionDenied:
        messages.error(request, _("Only agency admins import records from the registry."))
    return redirect(_records_url(membership))


@require_POST
@member_required(Role.ADMIN)
def records_import_retry(request, membership, import_id: int):
    """Start a failed import again."""
    get_object_or_404(RecordImport, agency=membership.agency, pk=import_id)
    form_action(
        request,
        lambda: published_service.record_import_retry(agency=membership.agency, user=request.user, import_id=import_id),
        _("The import has started again."),
    )
    return redirect(_records_url(membership))


@require_POST
@member_required(Role.REVIEWER)
def records_audit(request, membership):
    """Start (or go on with) the audit of the agency's records; ``again`` audits every record anew."""
    again = request.POST.get("again") == "1"
    starter = audit_service.record_audit_again if again else audit_service.record_audit_start
    form_action(
        request,
        lambda: starter(agency=membership.agency, user=request.user),
        _("The audit runs in the background; this page shows its progress."),
    )
    return redirect(_records_url(membership))


@require_GET
@member_required(Role.REVIEWER)
def records_csv(request, membership):
    """The audit list as CSV."""
    return file_response(audit_service.published_records_csv(agency=membership.agency, user=request.user))


@require_POST
@member_required(Role.REVIEWER)
def record_file_as_is(request, membership, record_id: int):
    """A reviewer states that a file of the record goes to the registry as it is (the form's
    ``file``); back to the record's correction, whose panel lists what is left to decide."""
    record = get_object_or_404(PublishedRecord, agency=membership.agency, pk=record_id)
    form = RecordCorrectForm(request.POST)
    file_id = form.cleaned_data["file"] if form.is_valid() and form.cleaned_data["file"] else 0
    done = form_action(
        request,
        lambda: corrections.record_file_as_is(record=record, user=request.user, file_id=file_id),
        _("The file goes to the registry as it is, with the record's correction; the audit trail records who decided."),
    )
    if done and record.correction_id:
        return redirect("contracts:detail", agency_id=membership.agency_id, contract_id=record.correction_id)
    return redirect(_records_url(membership))


@require_POST
@member_required(Role.REVIEWER)
def record_correct(request, membership, record_id: int):
    """Make the contract that corrects a record and open it."""
    record = get_object_or_404(PublishedRecord, agency=membership.agency, pk=record_id)
    form = RecordCorrectForm(request.POST)
    file_id = form.cleaned_data["file"] if form.is_valid() else None
    try:
        contract = corrections.record_correct(record=record, user=request.user, file_id=file_id)
    except ValidationError as exc:
        report_error(request, exc)
        return redirect(_records_url(membership))
    record.refresh_from_db(fields=["correction"])
    if record.correction_id == contract.pk:
        message = _("The published file of record %(record)d is being read. Review it like any upload; publishing "
                    "it sends a new version of the record to the registry.")  # fmt: skip
    else:
        message = _("The published file of record %(record)d is being read. Review it like any upload; once "
                    "published it goes to the registry with the record's correction.")  # fmt: skip
    messages.success(request, message % {"record": record.record_id})
    return redirect("contracts:detail", agency_id=membership.agency_id, contract_id=contract.pk)
