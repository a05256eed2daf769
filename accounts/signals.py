"""Rules that must hold whichever door changes a membership: the members page, the admin
console, or a user account deleted with its memberships. A token dies with its creator's
membership or role (:func:`accounts.services.api_tokens_follow_membership`)."""

from __future__ import annotations

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from .models import Membership


@receiver(post_save, sender=Membership, dispatch_uid="accounts.tokens_follow_role")
@receiver(post_delete, sender=Membership, dispatch_uid="accounts.tokens_follow_removal")
def tokens_follow_membership(sender, instance: Membership, **kwargs) -> None:
    """Revoke the tokens the member created that their membership no longer covers."""
    from .services import api_tokens_follow_membership  # noqa: PLC0415 - services import models

    if kwargs.get("raw"):
        return  # loading fixtures
    api_tokens_follow_membership(agency_id=instance.agency_id, user_id=instance.user_id)
