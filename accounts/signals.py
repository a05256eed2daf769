"""Rules that must hold whichever door changes a membership: the members page, the admin
console, or a user account deleted with its memberships. A token dies with its creator's
membership or role (:func:`accounts.services.api_tokens_follow_membership`), and with the
creator's account, deleted or deactivated (:func:`accounts.services.api_tokens_of_person_gone`)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models.signals import post_delete, post_save, pre_delete
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


@receiver(pre_delete, sender=get_user_model(), dispatch_uid="accounts.tokens_follow_deleted_person")
def tokens_follow_deleted_person(sender, instance, **kwargs) -> None:
    """Revoke the person's tokens before the deletion empties their creator."""
    from .services import api_tokens_of_person_gone  # noqa: PLC0415 - services import models

    api_tokens_of_person_gone(user_id=instance.pk)


@receiver(post_save, sender=get_user_model(), dispatch_uid="accounts.tokens_follow_deactivated_person")
def tokens_follow_deactivated_person(sender, instance, **kwargs) -> None:
    """Revoke the person's tokens when the account is deactivated."""
    from .services import api_tokens_of_person_gone  # noqa: PLC0415 - services import models

    if kwargs.get("raw") or instance.is_active:
        return
    api_tokens_of_person_gone(user_id=instance.pk)
