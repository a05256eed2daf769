"""The registry metadata of a contract and the agency's registry settings: pre-fill at
processing, the reviewer's corrections, the problems that block sending, the XML preview."""

from __future__ import annotations

import logging

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from accounts import secrets
from accounts.access import require_role
from accounts.models import Agency, Role, SettingsChange
from contracts import selectors
from contracts.models import Contract, Status
from contracts.services.common import audit
from policy.selectors import agency_profile
from redactor import categories, plain_text
from redactor import metadata as engine_metadata
from registry import isrs
from registry.models import RegistryRecord, RegistrySettings
from registry.selectors import registry_record
from registry.vocabulary import registry_field_label

from .corrections import correction_file_names

log = logging.getLogger(__name__)


# -- settings and metadata ---------------------------------------------------------------------
def registry_settings(agency: Agency) -> RegistrySettings:
    """The agency's registry settings (defaults when none were saved: a package to download)."""
    found = RegistrySettings.objects.filter(agency=agency).first()
    return found if found is not None else RegistrySettings(agency=agency)


def publishing_body(agency: Agency) -> engine_metadata.PublishingBody:
    """``subjekt`` from the agency's settings: its data box, name, IČO, the registry settings'
    address (else the first address of its profile) and unit."""
    regs = registry_settings(agency)
    profile = agency_profile(agency=agency)
    return engine_metadata.PublishingBody(
        data_box=agency.data_box_id,
        name=agency.name,
        ico=agency.ico,
        address=regs.address or (profile.addresses[0] if profile.addresses else ""),
        unit=regs.unit,
    )


def record_for_update(contract: Contract) -> RegistryRecord:
    """The contract's registry record locked until the transaction ends (made when it had none),
    also cached on ``contract``. Call it inside a transaction."""
    record, _created = RegistryRecord.objects.select_for_update().get_or_create(contract=contract)
    contract.registry_record = record
    return record


def registry_metadata(contract: Contract) -> engine_metadata.ContractMetadata:
    """The contract's registry metadata as stored, its ``subjekt`` from the agency's settings now."""
    meta = engine_metadata.ContractMetadata.from_dict(registry_record(contract).metadata)
    payer = meta.publisher.payer
    meta.publisher = publishing_body(contract.agency)
    meta.publisher.payer = payer
    return meta


def registry_metadata_prefill(*, contract: Contract, analysis, profile) -> engine_metadata.ContractMetadata:
    """Fill the contract's metadata from ``analysis`` (the engine's
    :class:`~redactor.engine.Analysis`) and the agency's ``profile``; what the clerk typed
    at upload wins over what was read. An amendment whose contract number matches a contract
    the agency registered gets that record as ``navazanyZaznam``. Saves nothing: the caller
    stores it as the record's metadata in its transaction."""
    meta = engine_metadata.prefill(
        analysis, profile, unit=registry_settings(contract.agency).unit, counterparty=contract.counterparty
    )
    typed = engine_metadata.Source(0, "", "upload")
    if contract.subject:
        meta.subject, meta.sources["subject"] = contract.subject[: engine_metadata.MAX_TEXT], typed
    if contract.date_concluded:
        meta.date_concluded, meta.sources["date_concluded"] = contract.date_concluded, typed
    if contract.value_amount is not None:
        if (contract.value_currency or "CZK") == "CZK":
            meta.value_without_vat, meta.sources["value_without_vat"] = contract.value_amount, typed
        else:
            meta.foreign_value, meta.foreign_currency = contract.value_amount, contract.value_currency
            meta.sources["foreign_value"] = typed
    if meta.amendment and meta.number and meta.related_record is None:
        earlier = (
            RegistryRecord.objects.filter(contract__agency=contract.agency, record_id__isnull=False)
            .exclude(contract=contract)
            .filter(metadata__number=meta.number)
            .select_related("contract")
            .order_by("-registered_at")
            .first()
        )
        if earlier is not None:
            meta.related_record = earlier.record_id
            meta.sources["related_record"] = engine_metadata.Source(0, earlier.contract.title[:200], "same_number")
    return meta


def _redacted_texts(contract: Contract) -> tuple[list[str], list[str]]:
    """The texts the published PDF blacks out (accepted proposals and manual boxes with text),
    and the persons' names among them."""
    hidden = [p for p in selectors.proposals_for_contract(contract=contract) if p.will_redact and p.text]
    return [p.text for p in hidden], [p.text for p in hidden if p.category in categories.NAME_CATEGORIES]


def registry_problems(contract: Contract, metadata: engine_metadata.ContractMetadata) -> list[str]:
    """What stops ``metadata`` from being sent, in the interface's language: required fields
    left empty, a value the published PDF redacts (named by field, never quoted), the publishing
    body's data box missing. Empty when it can go."""
    labels = {
        "smluvniStrana": _("at least one contracting party"),
        "predmet": _("the subject"),
        "datumUzavreni": _("the date of conclusion"),
        "ciziMena/mena": _("the currency of the foreign value"),
    }
    problems = []
    for name in isrs.missing_fields(metadata):
        label = labels.get(name) or _("the name of contracting party %(n)s") % {"n": name.split("[")[1].split("]")[0]}
        problems.append(_("Fill in %(what)s.") % {"what": label})
    for path, _value in engine_metadata.redacted_values_in(metadata, *_redacted_texts(contract)):
        problems.append(
            _("The field “%(field)s” contains a value the published PDF redacts; the metadata are public too.")
            % {"field": registry_field_label(path)}
        )
    if not metadata.publisher.data_box and registry_settings(contract.agency).channel == "databox":
        problems.append(_("The agency's data box ID is missing in its settings."))
    return problems


def _plain(metadata: engine_metadata.ContractMetadata) -> engine_metadata.ContractMetadata:
    """``metadata`` with every text field as one line of plain text (:func:`plain_text`): a
    manual line break pasted from Word must not reach the registry's XML."""
    for key in ("subject", "number", "signed_by", "foreign_currency"):
        setattr(metadata, key, plain_text(getattr(metadata, key)).strip())
    for party in metadata.parties:
        for key in ("name", "ico", "data_box", "address"):
            setattr(party, key, plain_text(getattr(party, key)).strip())
    return metadata


@transaction.atomic
def registry_metadata_update(*, contract: Contract, user: User, metadata: engine_metadata.ContractMetadata) -> Contract:
    """Store the metadata a clerk or reviewer confirmed or corrected (the sources of fields they
    changed become "edited"). Raises ``PermissionDenied`` for a non-member, ``ValidationError``
    (``wrong_status``) for a deleted contract or one whose publication is on its way."""
    require_role(user, contract.agency, Role.CLERK)
    contract = Contract.objects.select_for_update().get(pk=contract.pk, agency=contract.agency)
    if contract.status == Status.DELETED:
        raise ValidationError(_("The contract was deleted."), code="wrong_status")
    record = record_for_update(contract)
    before = engine_metadata.ContractMetadata.from_dict(record.metadata)
    metadata = _plain(metadata)
    old, new = before.to_dict(), metadata.to_dict()
    changed = sorted(k for k in new if k not in ("sources", "publisher") and new[k] != old.get(k))
    metadata.sources = dict(before.sources)
    for key in changed:
        metadata.sources[key] = engine_metadata.Source(0, "", "edited")
    record.metadata = metadata.to_dict()
    record.save(update_fields=["metadata"])
    audit(contract, user, "registry_metadata_edited", fields=changed)
    return contract


def registry_preview(contract: Contract, metadata: engine_metadata.ContractMetadata | None = None) -> bytes:
    """The XML the metadata give now: ``modifikace.xml`` for a registered contract (naming the
    files a record's correction carries, :func:`.corrections.correction_file_names`), else
    ``zverejneni.xml`` naming the files as they will be sent. Raises
    :class:`~registry.isrs.RegistryXmlError` while a required field is empty."""
    metadata = metadata or registry_metadata(contract)
    email = registry_settings(contract.agency).confirmation_email
    record_id = registry_record(contract).record_id
    if record_id:
        return isrs.modify_xml(record_id, metadata, correction_file_names(contract) or [], email)
    names = [contract.download_name("", "pdf"), contract.download_name("", "txt")]
    return isrs.publish_xml(metadata, names, email)


@transaction.atomic
def registry_settings_update(
    *,
    agency: Agency,
    user: User,
    channel: str,
    environment: str,
    unit: str = "",
    address: str = "",
    confirmation_email: str = "",
    login: str = "",
    password: str | None = None,
    certificate: str | None = None,
) -> RegistrySettings:
    """Save the agency's registry settings; ``password`` and ``certificate`` (PEM with its key)
    are stored encrypted, None keeps the stored one, "" removes it. Raises ``PermissionDenied``
    unless ``user`` is an agency admin, ``ValidationError`` for invalid values."""
    require_role(user, agency, Role.ADMIN)
    regs = RegistrySettings.objects.select_for_update().filter(agency=agency).first() or RegistrySettings(agency=agency)
    plain = ("channel", "environment", "unit", "address", "confirmation_email", "login")
    before = {key: getattr(regs, key) for key in plain}
    had = {"password": bool(regs.password_sealed), "certificate": bool(regs.certificate_sealed)}
    regs.channel, regs.environment = channel, environment
    unit, address, confirmation_email, login = (
        plain_text(v).strip() for v in (unit, address, confirmation_email, login)
    )
    regs.unit, regs.address, regs.confirmation_email, regs.login = unit, address, confirmation_email, login
    if password is not None:
        regs.password_sealed = secrets.seal(password)
    if certificate is not None:
        regs.certificate_sealed = secrets.seal(certificate)
    regs.full_clean()
    regs.save()
    changes = [
        {"field": key, "before": before[key], "after": getattr(regs, key)}
        for key in plain
        if before[key] != getattr(regs, key)
    ]
    for key, value in (("password", password), ("certificate", certificate)):
        if value is None or not (value or had[key]):
            continue  # kept, or removing what was never there
        # the value itself never enters the trail
        after = ("changed" if had[key] else "set") if value else "removed"
        changes.append({"field": key, "before": "set" if had[key] else "", "after": after})
    if changes:
        SettingsChange.objects.create(agency=agency, user=user, area=SettingsChange.Area.REGISTRY, fields=changes)
    return regs
