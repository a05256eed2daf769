"""Learning from reviewers: one decision for every occurrence (with undo), agency rules with
signed votes, their precedence, their isolation between agencies, and CSV import/export."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from contracts.models import Decision, DecisionState, Proposal, Status, Suggestion
from contracts.services import publishing, reviewing, uploads
from policy.models import AgencyRule, RuleVote
from policy.services import rules as rule_services
from redactor import categories as cat
from redactor.decide.rules import tokens
from redactor.pdf.pdf_pages import open_pdf
from redactor.read.extraction import extract_text_layer
from tests.policy.conftest import process

pytestmark = pytest.mark.django_db


def _proposal(contract, text) -> Proposal:
    return Proposal.objects.get(contract=contract, text=text)


def test_one_click_decides_every_inflected_form_and_undo_restores_it(agency, reviewer, inflected_pdf):
    contract = process(agency, reviewer, inflected_pdf)
    person = _proposal(contract, "Janu Novákovi")
    cluster = list(Proposal.objects.filter(contract=contract, cluster=person.cluster))
    assert {p.text for p in cluster} >= {"Jan Novák", "Janu Novákovi", "Novákem"}

    outcome = reviewing.proposals_decide(
        contract=contract, user=reviewer, proposal_ids=[person.pk], decision="reject", same_cluster=True
    )

    assert sorted(outcome.affected) == sorted(p.pk for p in cluster)
    assert set(outcome.forms) >= {"Jan Novák", "Janu Novákovi", "Novákem"}
    assert set(Proposal.objects.filter(pk__in=outcome.affected).values_list("decision", flat=True)) == {"rejected"}
    # the engine said redact, the reviewer kept: that teaches a person rule
    rule = AgencyRule.objects.get(agency=agency)
    assert (rule.kind, rule.pattern, rule.keep_votes, rule.redact_votes) == ("person", "Jan Novák", 1, 0)

    restored = reviewing.decision_undo(contract=contract, user=reviewer, batch=outcome.batch)

    assert sorted(restored) == sorted(outcome.affected)
    assert set(Proposal.objects.filter(pk__in=restored).values_list("decision", flat=True)) == {"pending"}
    assert not AgencyRule.objects.filter(agency=agency).exists()  # its only vote was taken back
    with pytest.raises(ValidationError) as again:
        reviewing.decision_undo(contract=contract, user=reviewer, batch=outcome.batch)
    assert again.value.code == "not_found"


def test_only_this_occurrence_leaves_the_others(agency, reviewer, inflected_pdf):
    contract = process(agency, reviewer, inflected_pdf)
    person = _proposal(contract, "Novákem")
    outcome = reviewing.proposals_decide(
        contract=contract, user=reviewer, proposal_ids=[person.pk], decision="reject", same_cluster=False
    )
    assert outcome.affected == [person.pk]
    assert _proposal(contract, "Jan Novák").decision == DecisionState.PENDING


def test_undo_refuses_when_a_later_action_changed_the_same_proposals(agency, reviewer, inflected_pdf):
    contract = process(agency, reviewer, inflected_pdf)
    person = _proposal(contract, "Jan Novák")
    first = reviewing.proposals_decide(
        contract=contract, user=reviewer, proposal_ids=[person.pk], decision="reject", same_cluster=True
    )
    second = reviewing.proposals_decide(
        contract=contract, user=reviewer, proposal_ids=[person.pk], decision="accept", same_cluster=True
    )
    with pytest.raises(ValidationError) as refused:
        reviewing.decision_undo(contract=contract, user=reviewer, batch=first.batch)
    assert refused.value.code == "changed_since"
    reviewing.decision_undo(contract=contract, user=reviewer, batch=second.batch)
    assert _proposal(contract, "Jan Novák").decision == DecisionState.REJECTED  # back to the first action's state
    reviewing.decision_undo(contract=contract, user=reviewer, batch=first.batch)
    assert _proposal(contract, "Jan Novák").decision == DecisionState.PENDING


def test_a_text_selection_redacts_the_other_inflected_occurrences(agency, reviewer, inflected_pdf):
    contract = process(agency, reviewer, inflected_pdf)
    doc = open_pdf(inflected_pdf)
    layer = extract_text_layer(doc, inflected_pdf)
    doc.close()
    start = layer.text.index("Horní Lhotě")
    from redactor.model import Span

    boxes = layer.span_boxes(Span(start, start + len("Horní Lhotě")))
    outcome = reviewing.proposal_add_manual(
        contract=contract, user=reviewer, boxes=boxes, text="Horní Lhotě", from_selection=True
    )
    added = Proposal.objects.filter(pk__in=outcome.added)
    # "Horní Lhoty" is another form; "Obec Horní Lhota" and the seat address already have proposals
    assert [p.text for p in added] == ["Horní Lhoty"]
    assert all(p.decision == DecisionState.ACCEPTED for p in added)
    rule = AgencyRule.objects.get(agency=agency, kind="phrase")
    assert (rule.pattern, rule.redact_votes) == ("Horní Lhotě", 1)
    reviewing.decision_undo(contract=contract, user=reviewer, batch=outcome.batch)
    assert not Proposal.objects.filter(pk__in=[outcome.proposal.pk, *outcome.added]).exists()
    assert not AgencyRule.objects.filter(agency=agency).exists()


def test_confirming_the_engine_teaches_nothing(agency, reviewer, inflected_pdf):
    contract = process(agency, reviewer, inflected_pdf)
    birth = _proposal(contract, "750403/1238")
    assert birth.suggestion == Suggestion.REDACT
    reviewing.proposals_decide(contract=contract, user=reviewer, proposal_ids=[birth.pk], decision="accept")
    assert not AgencyRule.objects.exists()


def _keep_the_technician(agency, reviewer, data):
    """The engine asks about "Xaver Qwertz" (unknown words in a party block); the reviewer keeps him."""
    contract = process(agency, reviewer, data)
    suspicious = _proposal(contract, "Xaver Qwertz")
    assert suspicious.suggestion == Suggestion.REVIEW and suspicious.category == 0
    reviewing.proposals_decide(
        contract=contract, user=reviewer, proposal_ids=[suspicious.pk], decision="reject", same_cluster=True
    )
    return contract


def test_a_rule_decides_later_contracts_of_the_same_agency_only(
    agency, other_agency, reviewer, outsider, inflected_pdf
):
    uploaded_before = uploads.contract_upload(
        agency=agency, user=reviewer, data=inflected_pdf, filename="a.pdf", title="nahráno dříve"
    )
    _keep_the_technician(agency, reviewer, inflected_pdf)
    rule = AgencyRule.objects.get(agency=agency, pattern="Xaver Qwertz")

    later = process(agency, reviewer, inflected_pdf, title="později")
    kept = _proposal(later, "Xaver Qwertz")
    assert kept.suggestion == Suggestion.KEEP and kept.rule_id == rule.pk
    assert kept.reason_code == "agency_rule_overruled"
    assert kept.reason.startswith("Keep: agency rule “Xaver Qwertz”, 1 decision")
    assert "(the engine said: Needs review: a name in the entry of public body party 2 (kupující)" in kept.reason
    with translation.override("cs"):
        assert kept.reason_display().startswith("Ponechat: pravidlo úřadu „Xaver Qwertz“, 1 rozhodnutí")

    from tests.plugins.tenants import run_latest_job

    run_latest_job(uploaded_before)  # uploaded before the rule existed: the rule does not touch it
    assert _proposal(uploaded_before, "Xaver Qwertz").suggestion == Suggestion.REVIEW

    elsewhere = process(other_agency, outsider, inflected_pdf, title="jiný úřad")
    other = _proposal(elsewhere, "Xaver Qwertz")
    assert other.suggestion == Suggestion.REVIEW and other.rule_id is None


def test_a_decision_on_an_occurrence_beats_the_rule_and_votes_against_it(agency, reviewer, inflected_pdf):
    _keep_the_technician(agency, reviewer, inflected_pdf)
    later = process(agency, reviewer, inflected_pdf, title="druhá")
    kept = _proposal(later, "Xaver Qwertz")
    assert kept.suggestion == Suggestion.KEEP

    reviewing.proposals_decide(
        contract=later, user=reviewer, proposal_ids=[kept.pk], decision="accept", same_cluster=True
    )
    kept.refresh_from_db()
    assert kept.will_redact  # the reviewer's decision wins over the rule's keep
    rule = AgencyRule.objects.get(agency=agency, pattern="Xaver Qwertz")
    assert (rule.keep_votes, rule.redact_votes, rule.action) == (1, 1, "review")

    # the published file of the contract has the occurrence burned in
    for p in Proposal.objects.filter(contract=later, suggestion=Suggestion.REVIEW, decision=DecisionState.PENDING):
        reviewing.proposals_decide(contract=later, user=reviewer, proposal_ids=[p.pk], decision="reject", learn=False)
    from tests.plugins.tenants import run_latest_job

    publishing.contract_approve(contract=later, user=reviewer)
    run_latest_job(later)
    assert later.status == Status.PUBLISHED
    with later.redacted.open("rb") as fh:
        published = fh.read()
    doc = open_pdf(published)
    text = extract_text_layer(doc, published).text
    doc.close()
    assert "Qwertz" not in text and "Obec Horní Lhota" in text

    # with votes split 1:1 the next contract asks again, and says why
    third = process(agency, reviewer, inflected_pdf, title="třetí")
    again = _proposal(third, "Xaver Qwertz")
    assert again.suggestion == Suggestion.REVIEW
    assert "2 decisions: 1 keep, 1 redact" in again.reason


def test_a_disabled_rule_decides_nothing(agency, reviewer, admin_user, inflected_pdf):
    _keep_the_technician(agency, reviewer, inflected_pdf)
    rule = AgencyRule.objects.get(agency=agency)
    rule_services.rule_save(
        agency=agency,
        user=admin_user,
        rule=rule,
        kind=rule.kind,
        pattern=rule.pattern,
        category=rule.category,
        keep_votes=rule.keep_votes,
        redact_votes=rule.redact_votes,
        enabled=False,
    )
    later = process(agency, reviewer, inflected_pdf, title="po vypnutí")
    assert _proposal(later, "Xaver Qwertz").rule_id is None


def test_a_person_rule_decides_the_review_item_and_finds_other_forms(agency, reviewer, admin_user):
    from tests.pdfs import pdf_from_paragraphs
    from tests.policy.conftest import INFLECTED_TEXT

    rule_services.rule_save(
        agency=agency,
        user=admin_user,
        kind="person",
        pattern="Xaver Qwertz",
        category=cat.FULL_NAME,
        keep_votes=0,
        redact_votes=2,
        enabled=True,
    )
    data = pdf_from_paragraphs([*INFLECTED_TEXT, "Klíče předá Qwertzovi Xaverovi správce budovy."])
    contract = process(agency, reviewer, data)
    asked = _proposal(contract, "Xaver Qwertz")  # the engine's review item, decided by the rule
    assert asked.suggestion == Suggestion.REDACT and asked.recognizer == "party_block_word"
    assert asked.reason.startswith("Redact: agency person rule “Xaver Qwertz”, 2 decisions")
    found = _proposal(contract, "Qwertzovi Xaverovi")  # no recognizer saw it; the rule did
    assert found.suggestion == Suggestion.REDACT and found.recognizer == "agency_rule"
    assert found.reason == "Redact: agency person rule “Xaver Qwertz”, 2 decisions."
    assert (found.reason_code, found.reason_params["rule"]["params"]["pattern"]) == ("agency_rule", "Xaver Qwertz")
    assert found.category == cat.FULL_NAME and found.rule_id == asked.rule_id


# -- CSV --------------------------------------------------------------------------------------------
def _some_rules(agency, user):
    rule_services.rule_vote(agency=agency, kind="phrase", pattern="Obec Horní Lhota", value=1, user=user)
    rule_services.rule_vote(agency=agency, kind="phrase", pattern="Obci Horní Lhotě", value=1, user=user)
    rule_services.rule_vote(agency=agency, kind="person", pattern="Ing. Radek Blažek", value=1, user=user)
    rule_services.rule_vote(agency=agency, kind="phrase", pattern="Technik, „Xaver“", value=-1, user=user)
    rule_services.rule_save(
        agency=agency,
        user=user,
        kind="phrase",
        pattern="750403/1238",
        category=cat.BIRTH_NUMBER,
        keep_votes=0,
        redact_votes=3,
        enabled=False,
        note='poznámka, s čárkou a "uvozovkami"',
    )


def test_rules_csv_round_trip_between_agencies(agency, other_agency, admin_user, outsider):
    _some_rules(agency, admin_user)
    # two votes in two forms went to one rule
    assert AgencyRule.objects.get(agency=agency, kind="phrase", key="obec horní lhota").keep_votes == 2
    exported = rule_services.rules_export_csv(agency=agency)
    assert exported.splitlines()[0] == "kind,pattern,category,keep_votes,redact_votes,enabled,note"

    created, updated = rule_services.rules_import_csv(agency=other_agency, user=outsider, data=exported.encode())

    assert (created, updated) == (4, 0)
    assert rule_services.rules_export_csv(agency=other_agency) == exported
    # importing the same file again updates, creates nothing
    assert rule_services.rules_import_csv(agency=other_agency, user=outsider, data=exported.encode()) == (0, 4)
    assert rule_services.rules_export_csv(agency=other_agency) == exported


HEADER = "kind,pattern,category,keep_votes,redact_votes,enabled,note\n"


@pytest.mark.parametrize(
    ("csv_text", "message"),
    [
        ("pattern,kind\nX,phrase\n", "first line must be the header"),
        (HEADER + "phrase,Obec X,,1,0,yes,\nplace,Y,,1,0,yes,\n", "Line 3"),
        (HEADER + "phrase,Obec X,,-1,0,yes,\n", "cannot be negative"),
        (HEADER + "person,Novák,,1,0,yes,\n", "given name and a surname"),
        (HEADER + "phrase,Obec X,,1,0,yes\n", "columns"),
        (HEADER.encode("utf-16").decode("latin-1"), "header"),
    ],
)
def test_a_bad_csv_is_refused_whole(agency, admin_user, csv_text, message):
    _some_rules(agency, admin_user)
    before = rule_services.rules_export_csv(agency=agency)
    with translation.override("en"), pytest.raises(ValidationError) as refused:
        rule_services.rules_import_csv(agency=agency, user=admin_user, data=csv_text.encode())
    assert message in " ".join(refused.value.messages)
    assert rule_services.rules_export_csv(agency=agency) == before


def test_votes_record_where_they_came_from(agency, reviewer, inflected_pdf):
    contract = _keep_the_technician(agency, reviewer, inflected_pdf)
    vote = RuleVote.objects.get(rule__agency=agency)
    assert (vote.contract_id, vote.user_id, vote.value) == (contract.pk, reviewer.pk, 1)
    assert vote.proposal.text == "Xaver Qwertz"
    decision = Decision.objects.filter(proposal=vote.proposal).latest("id")
    assert decision.batch == vote.batch and decision.previous == DecisionState.PENDING
    assert tokens(vote.rule.pattern) == ("Xaver", "Qwertz")


TITLED_TEXT = [
    "Smlouva o dílo č. 2026/7",
    "Objednatel: Obec Horní Lhota, IČO: 00000001, se sídlem Náměstí 1, 679 01 Horní Lhota, "
    "zastoupená starostou Ing. Petrem Dvořákem",
    "Zhotovitel: Ing. Jan Novák, nar. 3. 4. 1975, bytem Lipová 12, 602 00 Brno",
    "Cena díla 80 000 Kč. Ing. Novák dílo předá do 30 dnů.",
]


def _titled(agency, reviewer, title="Smlouva o dílo 2026/7"):
    from tests.pdfs import pdf_from_paragraphs

    return process(agency, reviewer, pdf_from_paragraphs(TITLED_TEXT), title=title)


def test_a_title_or_an_only_here_decision_teaches_nothing(agency, reviewer):
    """ "Redact only here" on the title before the mayor's name had made a rule to redact the mayor
    in every later contract; a title is not the person, and one occurrence is not the value."""
    contract = _titled(agency, reviewer)
    mayor_title = Proposal.objects.filter(contract=contract, text="Ing.", reason_code="role_exception").get()
    assert mayor_title.suggestion == Suggestion.KEEP and mayor_title.category == cat.ACADEMIC_TITLE
    for everywhere in (False, True):
        reviewing.proposals_decide(
            contract=contract, user=reviewer, proposal_ids=[mayor_title.pk], decision="accept",
            same_cluster=everywhere,
        )  # fmt: skip
    seller = _proposal(contract, "Jan Novák")
    assert seller.suggestion == Suggestion.REDACT
    reviewing.proposals_decide(contract=contract, user=reviewer, proposal_ids=[seller.pk], decision="reject")
    address = _proposal(contract, "Lipová 12, 602 00 Brno")
    reviewing.proposals_decide(contract=contract, user=reviewer, proposal_ids=[address.pk], decision="reject")
    assert not AgencyRule.objects.filter(agency=agency).exists()
    assert not RuleVote.objects.exists()

    later = _titled(agency, reviewer, title="další")
    mayor = _proposal(later, "Petrem Dvořákem")
    assert mayor.suggestion == Suggestion.KEEP and mayor.rule_id is None


def test_deciding_the_engines_way_everywhere_takes_back_the_contracts_earlier_vote(agency, reviewer):
    contract = _titled(agency, reviewer)
    seller = _proposal(contract, "Jan Novák")
    reviewing.proposals_decide(
        contract=contract, user=reviewer, proposal_ids=[seller.pk], decision="reject", same_cluster=True
    )
    rule = AgencyRule.objects.get(agency=agency)
    assert (rule.kind, rule.pattern, rule.keep_votes) == ("person", "Jan Novák", 1)

    reviewing.proposals_decide(
        contract=contract, user=reviewer, proposal_ids=[seller.pk], decision="accept", same_cluster=True
    )
    assert not AgencyRule.objects.filter(agency=agency).exists()  # its only vote was this contract's


def test_a_contract_has_one_vote_on_a_rule(agency, reviewer, inflected_pdf):
    contract = process(agency, reviewer, inflected_pdf)
    item = _proposal(contract, "Xaver Qwertz")
    assert item.suggestion == Suggestion.REVIEW
    for decision in ("accept", "reject"):
        reviewing.proposals_decide(
            contract=contract, user=reviewer, proposal_ids=[item.pk], decision=decision, same_cluster=True
        )
    rule = AgencyRule.objects.get(agency=agency, pattern="Xaver Qwertz")
    assert (rule.keep_votes, rule.redact_votes, rule.action) == (1, 0, "keep")  # the latest decision counts
    assert RuleVote.objects.filter(rule=rule).count() == 1


def test_a_redact_rule_for_a_name_leaves_the_official_who_bears_it(agency, reviewer):
    contract = _titled(agency, reviewer)
    rule_services.rule_vote(agency=agency, kind="person", pattern="Petr Dvořák", value=-1, user=reviewer)
    rule_services.rule_vote(agency=agency, kind="person", pattern="Petr Dvořák", value=-1, user=reviewer)
    assert AgencyRule.objects.get(agency=agency).action == "redact"
    later = _titled(agency, reviewer, title="další")
    mayor = _proposal(later, "Petrem Dvořákem")
    assert mayor.suggestion == Suggestion.KEEP and mayor.reason_code == "role_exception" and mayor.rule_id is None
    assert contract.pk != later.pk
