"""Writes of agencies and memberships (one service per change, in a transaction)."""

from __future__ import annotations

import csv
import io
import logging
import re
import secrets
from collections.abc import Callable
from datetime import timedelta

import phonenumbers
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from stdnum import iban as std_iban
from stdnum.cz import bankaccount

from .access import require_role
from .models import (
    TOKEN_SCHEME,
    Agency,
    ApiToken,
    Invitation,
    Membership,
    ProfileVersion,
    Role,
    SettingsChange,
    token_hash,
)

log = logging.getLogger(__name__)


@transaction.atomic
def agency_create(*, name: str, ico: str, data_box_id: str = "") -> Agency:
    """Create an agency. Raises ``ValidationError`` for an invalid IČO or data box ID or a duplicate IČO."""
    agency = Agency(name=name, ico=ico, data_box_id=data_box_id)
    agency.full_clean()
    agency.save()
    return agency


@transaction.atomic
def agency_update(
    *,
    agency: Agency,
    name: str,
    ico: str,
    data_box_id: str,
    user: User | None = None,
    second_approval: bool | None = None,
    redact_official_signatures: bool | None = None,
    print_legal_grounds: bool | None = None,
) -> Agency:
    """Change an agency's name, IČO, data box ID and (unless None) whether publishing needs a
    second reviewer's approval (four eyes) and whether officials' signatures on scans are
    redacted (:mod:`redactor.decide.signatures`, for contracts analysed from then on) and whether
    published boxes show their legal ground's code (for contracts published from then on), recorded
    in the settings' audit trail (:class:`~accounts.models.SettingsChange`, by ``user``). Raises ``ValidationError``."""
    keys = ("name", "ico", "data_box_id", "second_approval", "redact_official_signatures", "print_legal_grounds")
    # "before" as stored, not as the instance says: a model form has already written its values
    # onto the instance it was given when it validated
    before = Agency.objects.filter(pk=agency.pk).values(*keys).first() or {key: getattr(agency, key) for key in keys}
    agency.name, agency.ico, agency.data_box_id = name.strip(), ico, data_box_id
    if second_approval is not None:
        agency.second_approval = second_approval
    if redact_official_signatures is not None:
        agency.redact_official_signatures = redact_official_signatures
    if print_legal_grounds is not None:
        agency.print_legal_grounds = print_legal_grounds
    agency.full_clean()
    agency.save(update_fields=list(keys))
    changes = [
        {"field": key, "before": before[key], "after": getattr(agency, key)}
        for key in keys
        if before[key] != getattr(agency, key)
    ]
    if changes:
        SettingsChange.objects.create(
            agency=agency, user=user if user and user.is_authenticated else None, area=SettingsChange.Area.AGENCY,
            fields=changes,
        )  # fmt: skip
    return agency


#: Usernames of API tokens' service users start so; nobody may take one.
SERVICE_USER_PREFIX = "api-"


def _username_free(username: str) -> bool:
    """No account has ``username`` in any case, and it is not in the API tokens' ``api-`` range."""
    taken = get_user_model().objects.filter(username__iexact=username).exists()
    return not taken and not username.lower().startswith(SERVICE_USER_PREFIX)


@transaction.atomic
def member_create(
    *,
    agency: Agency,
    username: str,
    email: str,
    role: Role | str,
    by: User | None,
    password: str | None = None,
) -> Membership:
    """Create a **new** account with a role in ``agency`` (agency admins; ``by=None`` is the
    system, e.g. the demo command).

    The account gets ``password`` or, without one, a random password nobody knows (the person
    sets theirs through the password-reset e-mail). A person who already has an account is
    invited instead (:func:`invitation_create`): an admin never attaches an existing account, which
    may be another agency's member. Raises ``PermissionDenied`` for a non-admin and
    ``ValidationError`` for a username that is taken or reserved for API tokens.
    """
    require_role(by, agency, Role.ADMIN)
    User = get_user_model()
    if not _username_free(username):
        raise ValidationError(
            {"username": _("This username is taken. A person who already has an account is invited by e-mail instead.")}
        )
    user = User(username=username, email=email)
    user.set_password(password or secrets.token_urlsafe(32))
    user.full_clean()
    user.save()
    membership = Membership(agency=agency, user=user, role=role, invited_email=email)
    membership.full_clean()
    membership.save()
    return membership


@transaction.atomic
def invitation_create(*, agency: Agency, email: str, role: Role | str, by: User | None) -> tuple[Invitation, str]:
    """Invite ``email`` to join ``agency`` with ``role`` (agency admins); returns the row and the
    raw token for the link (it exists only in the return value). A pending invitation of the same
    address is revoked (the newest link counts). Raises ``PermissionDenied`` and
    ``ValidationError`` (an invalid address or role)."""
    require_role(by, agency, Role.ADMIN)
    email = email.strip()
    now = timezone.now()
    Invitation.objects.filter(
        agency=agency, email__iexact=email, accepted_at__isnull=True, revoked_at__isnull=True
    ).update(revoked_at=now)
    raw = secrets.token_urlsafe(32)
    invitation = Invitation(
        agency=agency,
        email=email,
        role=role,
        key_sha256=token_hash(raw),
        invited_by=by if by is not None and by.is_authenticated else None,
        expires_at=now + timedelta(days=settings.REDACTOR_INVITATION_DAYS),
    )
    invitation.full_clean()
    invitation.save()
    return invitation, raw


@transaction.atomic
def invitation_revoke(*, invitation: Invitation, by: User | None) -> Invitation:
    """Withdraw a pending invitation (agency admins); its link stops working. Idempotent."""
    require_role(by, invitation.agency, Role.ADMIN)
    if invitation.accepted_at is None and invitation.revoked_at is None:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
    return invitation


@transaction.atomic
def invitation_accept(*, raw: str, user: User) -> Membership:
    """The person behind the link joins with ``user`` (logged in): a membership with the
    invitation's role and e-mail. Raises ``ValidationError`` for an unknown, used, revoked or
    expired link, for an API token's service user and for a user who is already a member."""
    invitation = (
        Invitation.objects.select_for_update().select_related("agency").filter(key_sha256=token_hash(raw)).first()
    )
    if invitation is None or not invitation.is_pending():
        raise ValidationError(_("This invitation is no longer valid. Ask the agency's admin for a new one."))
    if ApiToken.objects.filter(user=user).exists():
        raise ValidationError(_("An API token's account cannot join an agency."))
    if Membership.objects.filter(agency=invitation.agency, user=user).exists():
        raise ValidationError(_("You are already a member of this agency."))
    membership = Membership(agency=invitation.agency, user=user, role=invitation.role, invited_email=invitation.email)
    membership.full_clean()
    membership.save()
    invitation.accepted_at, invitation.accepted_by = timezone.now(), user
    invitation.save(update_fields=["accepted_at", "accepted_by"])
    return membership


@transaction.atomic
def invitation_accept_new_account(*, raw: str, username: str, password: str) -> Membership:
    """Create an account (the invitation's e-mail, ``username``, ``password``) and accept with it
    (:func:`invitation_accept`). Raises ``ValidationError`` as that does, and for a username that
    is taken or reserved."""
    invitation = Invitation.objects.filter(key_sha256=token_hash(raw)).first()
    if invitation is None or not invitation.is_pending():
        raise ValidationError(_("This invitation is no longer valid. Ask the agency's admin for a new one."))
    User = get_user_model()
    if not _username_free(username):
        raise ValidationError({"username": _("This username is taken.")})
    user = User(username=username, email=invitation.email)
    user.set_password(password)
    user.full_clean()
    user.save()
    return invitation_accept(raw=raw, user=user)


def _admins_left(agency: Agency, without: Membership) -> int:
    return Membership.objects.filter(agency=agency, role=Role.ADMIN).exclude(pk=without.pk).count()


@transaction.atomic
def member_set_role(*, membership: Membership, role: Role | str) -> Membership:
    """Change a member's role. Raises ``ValidationError`` when it would leave the agency without an admin."""
    if membership.role == Role.ADMIN and role != Role.ADMIN and _admins_left(membership.agency, membership) == 0:
        raise ValidationError(_("The agency needs at least one agency admin."))
    membership.role = role
    membership.full_clean()
    membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def member_remove(*, membership: Membership) -> None:
    """Remove a member from the agency (the user account stays). Raises ``ValidationError`` for the last admin."""
    if membership.role == Role.ADMIN and _admins_left(membership.agency, membership) == 0:
        raise ValidationError(_("The agency needs at least one agency admin."))
    membership.delete()


# -- API tokens -----------------------------------------------------------------------------------
@transaction.atomic
def api_token_create(
    *, agency: Agency, name: str, role: Role | str, created_by: User | None, expires_at=None
) -> tuple[ApiToken, str]:
    """Create an API token for ``agency``; returns the row and the raw token ``rdk_<prefix>_<secret>``.

    The raw token exists only in the return value (show it once). Creates the token's service
    user. Raises ``ValidationError`` for an empty name, an unknown role or an expiry in the past.
    """
    if expires_at is not None and expires_at <= timezone.now():
        raise ValidationError({"expires_at": _("The expiry must be in the future.")})
    prefix = secrets.token_hex(4)
    raw = f"{TOKEN_SCHEME}_{prefix}_{secrets.token_urlsafe(32)}"
    User = get_user_model()
    user = User(username=f"api-{prefix}", first_name="API", last_name=name[:150])
    user.set_unusable_password()
    token = ApiToken(
        agency=agency,
        name=name.strip(),
        role=role,
        prefix=prefix,
        key_sha256=token_hash(raw),
        created_by=created_by if created_by and created_by.is_authenticated else None,
        expires_at=expires_at,
    )
    token.full_clean(exclude=["user"])
    user.full_clean()
    user.save()
    token.user = user
    token.save()
    return token, raw


@transaction.atomic
def api_token_revoke(
    *, token: ApiToken, revoked_by: User | None, because: str = ApiToken.RevokedBecause.REVOKED
) -> ApiToken:
    """Revoke a token at once (requests with it get 401 from now on), recording who and why
    (:class:`~accounts.models.ApiToken.RevokedBecause`). Revoking twice changes nothing."""
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.revoked_by = revoked_by if revoked_by and revoked_by.is_authenticated else None
        token.revoked_because = because
        token.save(update_fields=["revoked_at", "revoked_by", "revoked_because"])
    return token


def api_token_outlived(token: ApiToken) -> str | None:
    """Why ``token`` has outlived its creator's authority, or None while it has not: its creator
    is no longer a member of the token's agency (``creator_removed``), holds a role weaker than
    the token's (``creator_role``) or has an account no longer active (``creator_gone``). A
    token made by the system (no creator: the demo token, a token created from the command line)
    depends on nobody."""
    creator = token.created_by
    if creator is None:
        return None
    if not creator.is_active:
        return ApiToken.RevokedBecause.CREATOR_GONE
    membership = Membership.objects.filter(agency_id=token.agency_id, user_id=creator.pk).first()
    if membership is None:
        return ApiToken.RevokedBecause.CREATOR_REMOVED
    if not membership.allows(token.role):
        return ApiToken.RevokedBecause.CREATOR_ROLE
    return None


def api_tokens_follow_membership(*, agency_id: int, user_id: int, by: User | None = None) -> int:
    """Revoke the live tokens ``user_id`` created for ``agency_id`` that outlived the user's
    membership or role there (:func:`api_token_outlived`); returns how many. Called whenever a
    membership is removed or its role changed, whatever door did it (the members page, the admin
    console, a deleted user account: see :mod:`accounts.signals`)."""
    revoked = 0
    for token in ApiToken.objects.filter(agency_id=agency_id, created_by_id=user_id, revoked_at__isnull=True):
        because = api_token_outlived(token)
        if because is not None:
            api_token_revoke(token=token, revoked_by=by, because=because)
            revoked += 1
    return revoked


def api_tokens_of_person_gone(*, user_id: int) -> int:
    """Revoke every live token ``user_id`` created, in every agency, because the person's account
    is being deleted or was deactivated (``creator_gone``); returns how many. Runs before the
    deletion sets the tokens' creator to nothing (:mod:`accounts.signals`), so that no token goes
    on as one made by the service itself. The token list shows each with its reason."""
    revoked = 0
    for token in ApiToken.objects.filter(created_by_id=user_id, revoked_at__isnull=True):
        api_token_revoke(token=token, revoked_by=None, because=ApiToken.RevokedBecause.CREATOR_GONE)
        log.info("API token %s of agency %s revoked: its creator %s is gone", token.prefix, token.agency_id, user_id)
        revoked += 1
    return revoked


def api_token_touch(*, token: ApiToken, every_seconds: int = 60) -> None:
    """Record that ``token`` was used now; writes at most once per ``every_seconds`` per token."""
    now = timezone.now()
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() >= every_seconds:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now


# -- the agency's own identity (issue 31) --------------------------------------------------------

#: The lists of a profile version, in the order of the settings page and the CSV import.
PROFILE_LISTS = ("former_names", "addresses", "accounts", "phones", "email_domains", "officials")
#: The CSV import's columns: one value a row; ``function`` only for an official.
PROFILE_CSV_COLUMNS = ("field", "value", "function")
#: CSV ``field`` values and the list each fills.
PROFILE_CSV_FIELDS = {
    "former_name": "former_names",
    "address": "addresses",
    "account": "accounts",
    "phone": "phones",
    "email_domain": "email_domains",
    "official": "officials",
}
PROFILE_MAX_ENTRIES = 500
_HOUSE_NUMBER = re.compile(r"\d")
_DOMAIN = re.compile(r"^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$")


def _profile_account(value: str) -> str:
    compact = re.sub(r"\s", "", value)
    if bankaccount.is_valid(compact):
        return compact
    if std_iban.is_valid(compact):
        return std_iban.format(compact)
    raise ValidationError(_("“%(value)s” is not a valid Czech account number or IBAN.") % {"value": value[:60]})


def _profile_phone(value: str) -> str:
    try:
        number = phonenumbers.parse(value, "CZ")
    except phonenumbers.NumberParseException:
        number = None
    if number is None or not phonenumbers.is_possible_number(number):
        raise ValidationError(_("“%(value)s” is not a phone number.") % {"value": value[:60]})
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.INTERNATIONAL)


def _profile_address(value: str) -> str:
    if not _HOUSE_NUMBER.search(value):
        raise ValidationError(
            _("“%(value)s”: an address needs its street (or village) and house number.") % {"value": value[:60]}
        )
    return " ".join(value.split())


def _profile_email_domain(value: str) -> str:
    domain = value.strip().lower().rpartition("@")[2]
    if not _DOMAIN.match(domain):
        raise ValidationError(_("“%(value)s” is not an e-mail domain (e.g. mesto-lhota.cz).") % {"value": value[:60]})
    return domain


def _profile_official(value: str) -> dict:
    name, _sep, function = value.partition(";") if isinstance(value, str) else (value, "", "")
    words = [w for w in re.findall(r"[^\W\d_]+\.?", name) if not w.endswith(".")]
    if len(words) < 2:
        raise ValidationError(
            _("“%(value)s”: an official needs a given name and a surname.") % {"value": name.strip()[:60]}
        )
    return {"name": " ".join(name.split()), "function": " ".join(function.split())}


#: How each field's entries are checked and written (:func:`_profile_value`).
_PROFILE_CHECKS: dict[str, Callable[[str], str | dict]] = {
    "accounts": _profile_account,
    "phones": _profile_phone,
    "addresses": _profile_address,
    "email_domains": _profile_email_domain,
    "officials": _profile_official,
}


def _profile_value(field: str, value: str) -> str | dict:
    """One entry of ``field`` checked and written the one way the engine reads it. Raises
    ``ValidationError`` with a sentence for the agency admin. Checks: an account by its mod-11
    check digits or an IBAN by mod 97 (python-stdnum ``cz.bankaccount``, ``iban``); a phone as a
    possible number, Czech unless it has a country code (``phonenumbers``); an address with a
    house number; an e-mail domain without the part before "@"; an official with a given name
    and a surname."""
    check = _PROFILE_CHECKS.get(field)
    return check(value) if check is not None else " ".join(value.split())
    if field == "email_domains":
        domain = value.strip().lower().rpartition("@")[2]
        if not _DOMAIN.match(domain):
            raise ValidationError(
                _("“%(value)s” is not an e-mail domain (e.g. mesto-lhota.cz).") % {"value": value[:60]}
            )
        return domain
    if field == "officials":
        name, _sep, function = value.partition(";") if isinstance(value, str) else (value, "", "")
        words = [w for w in re.findall(r"[^\W\d_]+\.?", name) if not w.endswith(".")]
        if len(words) < 2:
            raise ValidationError(
                _("“%(value)s”: an official needs a given name and a surname.") % {"value": name.strip()[:60]}
            )
        return {"name": " ".join(name.split()), "function": " ".join(function.split())}
    return " ".join(value.split())


def profile_clean(data: dict) -> dict:
    """A profile version's data (``{list: [str, ...]}`` for :data:`PROFILE_LISTS`; an official
    as ``{"name", "function"}`` or "name; function") checked entry by entry, blanks and repeats
    dropped. Raises ``ValidationError`` naming every bad entry."""
    clean: dict = {}
    problems: list[str] = []
    for field in PROFILE_LISTS:
        values, seen = [], set()
        for raw in data.get(field) or ():
            if isinstance(raw, dict):
                raw = f"{raw.get('name', '')}; {raw.get('function', '')}"
            if not str(raw).strip():
                continue
            try:
                value = _profile_value(field, str(raw).strip())
            except ValidationError as exc:
                problems.extend(exc.messages)
                continue
            key = str(value).lower()
            if key not in seen:
                seen.add(key)
                values.append(value)
        if len(values) > PROFILE_MAX_ENTRIES:
            problems.append(_("At most %(n)d entries per list.") % {"n": PROFILE_MAX_ENTRIES})
        clean[field] = values
    if problems:
        raise ValidationError(problems, code="bad_profile")
    return clean


def _profile_changes(old: dict, new: dict) -> list[dict]:
    """``[{"field", "added", "removed"}]`` between two versions' data (officials as "name (function)")."""

    def items(data: dict, field: str) -> list[str]:
        values = data.get(field) or []
        return [f"{v['name']} ({v['function']})" if isinstance(v, dict) else v for v in values]

    changes = []
    for field in PROFILE_LISTS:
        before, after = items(old, field), items(new, field)
        added = [v for v in after if v not in before]
        removed = [v for v in before if v not in after]
        if added or removed:
            changes.append({"field": field, "added": added, "removed": removed})
    return changes


@transaction.atomic
def profile_save(
    *, agency: Agency, user: User | None, data: dict, source: str = ProfileVersion.Source.FORM
) -> ProfileVersion | None:
    """Save the agency's profile as a new version (:class:`ProfileVersion`) when it differs from
    the one in force; returns it, or None when nothing changed. ``user`` must be an agency admin
    (``None``: the system, e.g. the demo command). Raises ``ValidationError`` (bad entries,
    :func:`profile_clean`) and ``PermissionDenied``."""
    if user is not None:
        require_role(user, agency, Role.ADMIN)
    clean = profile_clean(data)
    Agency.objects.select_for_update().filter(pk=agency.pk).first()  # one version number at a time
    current = ProfileVersion.objects.filter(agency=agency).order_by("-number").first()
    old = current.data if current is not None else {}
    changes = _profile_changes(old, clean)
    if current is not None and not changes:
        return None
    version = ProfileVersion(
        agency=agency,
        number=(current.number + 1) if current is not None else 1,
        data=clean,
        changes=changes,
        source=source,
        created_by=user,
    )
    version.full_clean()
    version.save()
    return version


def profile_import_csv(*, agency: Agency, user: User | None, data: bytes) -> ProfileVersion | None:
    """Replace the agency's profile with a CSV file's (header :data:`PROFILE_CSV_COLUMNS`; one
    value a row; ``field`` one of :data:`PROFILE_CSV_FIELDS`). All or nothing: a bad row raises
    ``ValidationError`` naming its line and nothing changes. Returns the new version, or None
    when the file says what the profile in force says."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValidationError(_("The file is not UTF-8 text. Save the CSV as UTF-8."), code="bad_csv") from None
    sample = text[:2000]
    delimiter = ";" if sample.count(";") > sample.count(",") else ","  # a Czech Excel writes semicolons
    rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    if not rows or tuple(c.strip().lower() for c in rows[0][:3]) != PROFILE_CSV_COLUMNS:
        raise ValidationError(
            _("The first line must be the header: %(columns)s.") % {"columns": ",".join(PROFILE_CSV_COLUMNS)},
            code="bad_csv",
        )
    lists: dict[str, list] = {field: [] for field in PROFILE_LISTS}
    for line, row in enumerate(rows[1:], start=2):
        if not any(c.strip() for c in row):
            continue
        # a leading apostrophe is the export's guard against spreadsheet formulas (policy.spreadsheet)
        cells = [c[1:] if c.startswith("'") else c for c in (*row, "", "")[:3]]
        key, value, function = (c.strip() for c in cells)
        field = PROFILE_CSV_FIELDS.get(key.lower())
        if field is None:
            raise ValidationError(
                _("Line %(line)d: field must be one of %(fields)s.")
                % {"line": line, "fields": ", ".join(PROFILE_CSV_FIELDS)},
                code="bad_csv",
            )
        try:
            _profile_value(field, f"{value}; {function}" if field == "officials" else value)
        except ValidationError as exc:
            raise ValidationError(
                _("Line %(line)d: %(problem)s") % {"line": line, "problem": "; ".join(exc.messages)}, code="bad_csv"
            ) from None
        lists[field].append({"name": value, "function": function} if field == "officials" else value)
    return profile_save(agency=agency, user=user, data=lists, source=ProfileVersion.Source.CSV)
