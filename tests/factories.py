"""factory_boy factories for agencies, users and memberships."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model
from stdnum.cz import dic

from accounts.models import Agency, Membership, Role

PASSWORD = "correct horse battery"


def _ico(n: int) -> str:
    body = f"{10000000 + n:07d}"[-7:]
    return body + dic.calc_check_digit_legal(body)


class AgencyFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Agency

    name = factory.Sequence(lambda n: f"Městský úřad {n}")
    ico = factory.Sequence(lambda n: _ico(n + 1))
    data_box_id = ""


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.invalid")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def _save(obj, create, extracted, **kwargs):
        if create:
            obj.save()


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    agency = factory.SubFactory(AgencyFactory)
    user = factory.SubFactory(UserFactory)
    role = Role.CLERK
