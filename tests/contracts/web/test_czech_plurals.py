"""Counts read as Czech counts (Django's ngettext with the catalogue's three plural forms): "1
návrh", "2 návrhy", "5 návrhů", never "1 návrhů"."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import ngettext

from contracts.models import DecisionState, Proposal, Suggestion
from contracts.services import publishing

pytestmark = pytest.mark.django_db

FORMS = {1: "1 návrh ještě čeká", 2: "2 návrhy ještě čekají", 3: "3 návrhy ještě čekají", 5: "5 návrhů ještě čeká"}


@pytest.mark.parametrize("n", sorted(FORMS))
def test_the_catalogue_has_the_three_czech_forms(n):
    with translation.override("cs"):
        text = ngettext("%(n)d proposal still needs a decision.", "%(n)d proposals still need a decision.", n)
    assert (text % {"n": n}).startswith(FORMS[n])


def test_approving_with_one_open_proposal_says_one(processed, reviewer):
    proposals = list(Proposal.objects.filter(contract=processed))
    assert len(proposals) >= 2
    Proposal.objects.filter(pk__in=[p.pk for p in proposals[1:]]).update(decision=DecisionState.ACCEPTED)
    Proposal.objects.filter(pk=proposals[0].pk).update(decision=DecisionState.PENDING, suggestion=Suggestion.REVIEW)
    with translation.override("cs"), pytest.raises(ValidationError) as refused:
        publishing.contract_approve(contract=processed, user=reviewer)
    assert refused.value.messages == ["1 návrh ještě čeká na rozhodnutí."]
