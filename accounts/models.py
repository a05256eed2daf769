"""Agencies (tenants), memberships and roles.

An agency is a public body that publishes contracts in the registry of contracts (Act 340/2015 Sb.).
A user belongs to one or more agencies through a :class:`Membership` whose role decides what the
user may do there (:class:`Role`).
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from stdnum.cz import dic as cz_dic


def validate_ico(value: str) -> None:
    """IČO: eight digits, the last a mod-11 check digit (python-stdnum ``cz.dic.calc_check_digit_legal``;
    the DIČ of a legal person is CZ + IČO). Raises ``ValidationError``."""
    if not (len(value) == 8 and value.isdigit() and cz_dic.calc_check_digit_legal(value[:7]) == value[7]):
        raise ValidationError(_("Enter a valid IČO (8 digits with a valid check digit)."))


class Role(models.TextChoices):
    """What a member may do in an agency; each role includes the rights of the ones before it."""

    CLERK = "clerk", _("Clerk")  # upload, view, download
    REVIEWER = "reviewer", _("Reviewer")  # also decide proposals, approve and publish
    ADMIN = "admin", _("Agency admin")  # also manage members and the agency's settings


ROLE_RANK = {Role.CLERK: 1, Role.REVIEWER: 2, Role.ADMIN: 3}


class Agency(models.Model):
    """A tenant: the public body that publishes contracts."""

    name = models.CharField(_("name"), max_length=200)
    ico = models.CharField(_("IČO"), max_length=8, unique=True, validators=[validate_ico])
    data_box_id = models.CharField(
        _("data box ID"),
        max_length=7,
        blank=True,
        validators=[RegexValidator(r"^[a-z0-9]{7}$", _("A data box ID has 7 lower-case letters or digits."))],
        help_text=_("ID datové schránky, 7 characters"),
    )
    second_approval = models.BooleanField(
        _("four eyes"),
        default=False,
        help_text=_("A second reviewer, who decided nothing on the contract, approves before it is published."),
    )
    redact_official_signatures = models.BooleanField(
        _("redact officials' signatures"),
        default=False,
        help_text=_(
            "On scans, the handwritten signatures of officials and of companies' representatives are redacted "
            "too. Otherwise they are kept like their names; a private person's signature is always redacted."
        ),
    )
    print_legal_grounds = models.BooleanField(
        _("print the legal ground in each box"),
        default=False,
        help_text=_(
            "Each blacked-out box of a published contract shows the short code of its legal ground in white: "
            "OÚ personal data, OT trade secret, UI classified information, JZD another statutory ground."
        ),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("agency")
        verbose_name_plural = _("agencies")

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A user's role in one agency."""

    agency = models.ForeignKey(Agency, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.CLERK)
    # the e-mail address this agency gave (an invitation's, or a new account's): the only address
    # of the user the agency's admins see; their account's own e-mail stays theirs
    invited_email = models.EmailField(_("e-mail"), blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["agency__name", "user__username"]
        constraints = [models.UniqueConstraint(fields=["agency", "user"], name="one_membership_per_agency")]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")

    def __str__(self) -> str:
        return f"{self.user} @ {self.agency} ({self.role})"

    def allows(self, role: Role | str) -> bool:
        """True when this membership's role is ``role`` or a stronger one."""
        return ROLE_RANK[Role(self.role)] >= ROLE_RANK[Role(role)]


class Invitation(models.Model):
    """An agency admin's invitation of a person, by e-mail, to join the agency with a role.

    The link carries a random token that is stored only as its SHA-256 (like API tokens); whoever
    opens it either joins with the account they are logged in with or creates a new one. It is
    good for ``REDACTOR_INVITATION_DAYS`` days and once. Admins never attach an existing account
    by name: the person must accept.
    """

    agency = models.ForeignKey(Agency, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField(_("e-mail"))
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.CLERK)
    key_sha256 = models.CharField(max_length=64, unique=True)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self) -> str:
        return f"{self.email} → {self.agency} ({self.role})"

    def is_pending(self, now=None) -> bool:
        """Neither accepted nor revoked, and not expired at ``now``."""
        return self.accepted_at is None and self.revoked_at is None and (now or timezone.now()) < self.expires_at


TOKEN_SCHEME = "rdk"  # "redactor key": makes a leaked token recognisable to secret scanners


def token_hash(raw: str) -> str:
    """SHA-256 (hex) of a raw token, as stored in :attr:`ApiToken.key_sha256`."""
    return hashlib.sha256(raw.encode()).hexdigest()


class ApiToken(models.Model):
    """A per-agency key for the REST API, acting with one role.

    The secret is shown once at creation and stored only as its SHA-256 (it is 256 random bits,
    so a fast hash is enough; nothing to brute-force). ``prefix`` is the public part used to find
    the row and to recognise the token in lists. Every token acts through its own service user
    (``user``, no usable password), so decisions and the audit trail name the token like a person.
    """

    agency = models.ForeignKey(Agency, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(_("name"), max_length=100, help_text=_("e.g. the name of the document-management system"))
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.CLERK)
    prefix = models.CharField(max_length=16, unique=True, editable=False)
    key_sha256 = models.CharField(max_length=64, editable=False)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="api_token", editable=False
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+", editable=False
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"), null=True, blank=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True, editable=False)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True, editable=False)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", editable=False
    )

    class RevokedBecause(models.TextChoices):
        """Why a token stopped working: an admin revoked it, or its creator lost the membership or
        the role it acts with, or the account itself (a token never outlives the authority of the
        person who made it)."""

        REVOKED = "revoked", _("revoked by an agency admin")
        CREATOR_REMOVED = "creator_removed", _("its creator was removed from the agency")
        CREATOR_ROLE = "creator_role", _("its creator's role no longer allows the token's role")
        CREATOR_GONE = "creator_gone", _("its creator's account was deleted or deactivated")

    revoked_because = models.CharField(
        _("revoked because"), max_length=16, choices=RevokedBecause.choices, blank=True, editable=False
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    def is_usable(self, now=None) -> bool:
        """Not revoked and not expired at ``now`` (default: the current time)."""
        now = now or timezone.now()
        return self.revoked_at is None and (self.expires_at is None or self.expires_at > now)

    def allows(self, role: Role | str) -> bool:
        """True when the token's role is ``role`` or a stronger one (as :meth:`Membership.allows`)."""
        return ROLE_RANK[Role(self.role)] >= ROLE_RANK[Role(role)]


class ProfileVersion(models.Model):
    """One version of an agency's own identity, the evidence the engine keeps in its contracts
    (:mod:`redactor.detect.profile`): former names, office addresses, accounts, phones, e-mail
    domains and officials with their functions. The agency's current name, IČO and data box are
    the :class:`Agency`'s own fields. Versions are never edited: each save by an agency admin (the
    settings page, a CSV import) adds one, with who, when and what changed, so the history is the
    audit trail of the profile and each contract names the version it was processed with."""

    class Source(models.TextChoices):
        FORM = "form", _("Settings page")
        CSV = "csv", _("CSV import")

    agency = models.ForeignKey(Agency, on_delete=models.CASCADE, related_name="profile_versions")
    number = models.PositiveIntegerField()
    #: ``{"former_names": [...], "addresses": [...], "accounts": [...], "phones": [...],
    #: "email_domains": [...], "officials": [{"name": ..., "function": ...}]}``
    data = models.JSONField(default=dict)
    #: What this version changed against the previous one, as ``[{"field": ..., "added": [...],
    #: "removed": [...]}]``.
    changes = models.JSONField(default=list)
    source = models.CharField(_("source"), max_length=8, choices=Source.choices, default=Source.FORM)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["agency", "-number"]
        constraints = [models.UniqueConstraint(fields=["agency", "number"], name="one_profile_version_number")]
        verbose_name = _("agency profile version")
        verbose_name_plural = _("agency profile versions")

    def __str__(self) -> str:
        return f"{self.agency} profile v{self.number}"


class SettingsChange(models.Model):
    """A change of an agency's settings, who made it and when (the settings' audit trail): which
    fields changed, never their secret values (a password or a certificate is recorded as
    changed or removed only)."""

    class Area(models.TextChoices):
        REGISTRY = "registry", _("Registry settings")
        AGENCY = "agency", _("Agency settings")

    agency = models.ForeignKey(Agency, on_delete=models.CASCADE, related_name="settings_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    area = models.CharField(_("settings"), max_length=16, choices=Area.choices)
    #: ``[{"field": name, "before": value, "after": value}]``; a secret's values are "set"/"removed"/"changed".
    fields = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("settings change")
        verbose_name_plural = _("settings changes")

    def __str__(self) -> str:
        return f"{self.area} of {self.agency} ({self.created_at:%Y-%m-%d %H:%M})"
