"""Suspicious spans: what no recognizer explains but may be personal data goes to review."""

from __future__ import annotations

from redactor.decide.decisions import Assessment
from redactor.decide.suspicious import CONFIDENT_SCORE, SUSPICIOUS, suspicious_spans
from redactor.detect.nlp import NlpArtifacts, NlpEntity
from redactor.model import Action, Finding, Party, PartyKind, Span
from redactor.reasons import Reason


def _party(text: str, block: str) -> Party:
    start = text.index(block)
    return Party(1, "prodávající", PartyKind.NATURAL_PERSON, [Span(start, start + len(block))], ["prodávající"])


def _found(decisions, text):
    return [(text[d.finding.span.start : d.finding.span.end], d.finding.recognizer) for d in decisions]


def test_an_unexplained_capitalised_word_in_a_party_block():
    text = "Prodávající: Jan Novák, Adresa: Qwertzová 12, kontakt Xaver Qwertz\nČlánek 1 Předmět koupě Xaverius"
    known = [Finding(4, Span(13, 22), "Jan Novák", 0.95, "person", "")]
    out = suspicious_spans(text, known, [_party(text, text.split("\n")[0])], NlpArtifacts(), [])
    assert _found(out, text) == [("Qwertzová", "party_block_word"), ("Xaver Qwertz", "party_block_word")]
    assert all(d.action == Action.REVIEW and d.category == SUSPICIOUS for d in out)
    assert out[0].reason.code == "suspicious_block_word"
    assert "in the entry of natural person party 1 (prodávající)" in str(out[0].reason)


def test_a_number_after_a_personal_cue_that_no_recognizer_matched():
    text = "Prodávající, r. č. 750403/1239, tel. 12 34 56, objednávka 2026/15."
    out = suspicious_spans(text, [], [], NlpArtifacts(), [])
    assert _found(out, text) == [("750403/1239", "cued_number"), ("12 34 56", "cued_number")]
    assert out[0].reason.code == "suspicious_number" and "after “r. č.”" in str(out[0].reason)


def test_a_surname_that_is_also_a_village_is_a_doubt_where_the_label_names_the_party():
    """A handwritten assistant contract read "1. Poskytovatel služeb: Fy: Poustka": the surname is
    also a village's name, so it was taken for a place and left readable without a look. A place
    name after the party's own label is a doubt; after "Sídlo:" it is a town."""
    text = "1. Poskytovatel služeb: Fy: Poustka / U\nSídlo: Lhota 5, Brno\n"
    party = Party(1, "poskytovatel", PartyKind.UNKNOWN, [Span(0, len(text))], ["poskytovatel"])
    out = suspicious_spans(text, [], [party], NlpArtifacts(), [])
    assert _found(out, text) == [("Poustka", "party_block_word")]


def test_a_bank_code_after_the_bank_cue_is_no_mistyped_number():
    """Assistant contracts write the bank as its code ("Bankovní spojení: 2010"): a known code of
    the Czech bank code list is no doubt, four other digits are."""
    text = "Bankovní spojení: 2010\nČíslo účtu, tel. 9400"
    out = suspicious_spans(text, [], [], NlpArtifacts(), [])
    assert _found(out, text) == [("9400", "cued_number")]


def test_a_recognised_number_is_not_suspicious():
    text = "r. č. 750403/1238"
    known = [Finding(12, Span(6, 17), "750403/1238", 0.95, "birth_number", "")]
    assert suspicious_spans(text, known, [], NlpArtifacts(), []) == []


def test_an_unconfirmed_ner_person_goes_to_review():
    text = "Vozidlo převezme Xaver Qwertz. Dodavatel dodá."
    nlp = NlpArtifacts(
        entities=[NlpEntity("PERSON", 17, 29, "Xaver Qwertz"), NlpEntity("PERSON", 31, 40, "Dodavatel")],
        pos={17: "PROPN", 23: "PROPN", 31: "NOUN"},
    )
    out = suspicious_spans(text, [], [], nlp, [])
    assert _found(out, text) == [("Xaver Qwertz", "ner_unconfirmed")]
    assert out[0].finding.score < CONFIDENT_SCORE


def test_a_low_score_keep_becomes_review():
    f = Finding(10, Span(0, 5), "ACME", 0.6, "organization", "")
    d = Assessment(f, 10, Action.KEEP, Reason("not_subject", {"category": {"cs": "Název firmy", "en": "Company name"}}))
    suspicious_spans("ACME a.s.", [f], [], NlpArtifacts(), [d])
    assert d.action == Action.REVIEW and d.reason.code == "low_score"
    assert str(d.reason) == (
        "Needs review: the recognizer is not sure of this value (Keep: Company name – not personal data.)"
    )


def test_places_labels_and_role_nouns_are_no_doubts():
    """Town names in any case (RÚIAN gazetteer), a label or sentence opening a line, role and
    function nouns: nothing a reviewer needs to look at."""
    text = (
        "Pronajímatel: Jan Novák, bytem v Brně, Mladé Boleslavi a Hradci Králové\n"
        "Doručovací adresa pro Xaver Qwertz\nBeru na vědomí\nStarostka Poslanec"
    )
    known = [Finding(4, Span(14, 23), "Jan Novák", 0.95, "person", "")]
    out = suspicious_spans(text, known, [_party(text, text)], NlpArtifacts(), [])
    assert _found(out, text) == [("Xaver Qwertz", "party_block_word")]


def test_the_bank_of_a_persons_account_is_no_doubt():
    """The words of a bank's name (python-stdnum's Czech bank code list) in a landlord's entry
    went to review as names ("Moneta Money Bank", "Spořitelna" of "Česká spořitelna")."""
    text = "Pronajímatel: Jan Novák\nBankovní spojení: Moneta Money Bank, Česká Spořitelna, Xaver Qwertz\n"
    known = [Finding(4, Span(14, 23), "Jan Novák", 0.95, "person", "")]
    out = suspicious_spans(text, known, [_party(text, text)], NlpArtifacts(), [])
    assert _found(out, text) == [("Xaver Qwertz", "party_block_word")]


def test_an_organisations_block_is_checked_only_after_a_person_cue():
    text = "Dodavatel: ACME a.s., Xaverov Qwertzov, kontaktní osoba: Xaver Qwertz"
    block = Party(1, "dodavatel", PartyKind.LEGAL_PERSON, [Span(0, len(text))], ["dodavatel"])
    known = [Finding(10, Span(11, 20), "ACME a.s.", 0.9, "organization", "")]
    out = suspicious_spans(text, known, [block], NlpArtifacts(), [])
    assert _found(out, text) == [("Xaver Qwertz", "party_block_word")]


def test_an_unconfirmed_ner_person_needs_two_name_shaped_words():
    text = "Článek I zajistí Dodavatelem Hl Vozík elektrický Mladá Boleslav Xaver Qwertz"
    spans = [("Článek I", 0), ("Dodavatelem Hl", 17), ("Vozík elektrický", 32), ("Mladá Boleslav", 49)]
    spans.append(("Xaver Qwertz", 64))
    entities = [NlpEntity("PERSON", start, start + len(t), t) for t, start in spans]
    out = suspicious_spans(text, [], [], NlpArtifacts(entities=entities, pos={}), [])
    assert _found(out, text) == [("Xaver Qwertz", "ner_unconfirmed")]


def test_an_unsure_ocr_word_shaped_like_an_identifier_beside_personal_data_is_a_doubt():
    """A scanned contract's official e-mail read "pikalvpsp.cz" at confidence 5, and a nine-digit
    number at 30, stood beside redacted values with nothing to say so: each becomes a doubt. The
    same words read with confidence, far from personal data, or not shaped like an identifier
    (an amount, a word) stay as they are."""
    from redactor.decide.suspicious import ocr_doubts

    text = (
        "Kontakt: Jan Novák, e-mail pikalvpsp.cz\n"
        "tel. 145103673, Bankovní spojení\n"
        "cena 212,17 Kč, objednávka 1234567\n"
        "Článek 2: zhotovitel 987654321 info@obec.cz"
    )

    def at(word: str, confidence: float) -> tuple[Span, float]:
        start = text.index(word)
        return Span(start, start + len(word)), confidence

    name = Finding(4, Span(9, 18), "Jan Novák", 0.95, "person", "")
    redacted = [Assessment(name, 4, Action.REDACT, Reason("primary", {}))]
    unsure = [at("pikalvpsp.cz", 5), at("145103673", 30), at("Bankovní", 10), at("212,17", 20), at("1234567", 60)]
    unsure += [at("987654321", 8), at("info@obec.cz", 8)]  # two lines below the name
    unsure.sort(key=lambda pair: pair[0].start)
    out = ocr_doubts(text, unsure, redacted)
    assert _found(out, text) == [("pikalvpsp.cz", "ocr_doubt"), ("145103673", "ocr_doubt")]
    assert all(d.action == Action.REVIEW and d.category == SUSPICIOUS for d in out)
    assert out[0].reason.code == "ocr_doubt" and "confidence of only 5 of 100" in str(out[0].reason)
    # a kept value is no personal line
    assert ocr_doubts(text, unsure, [Assessment(name, 4, Action.KEEP, Reason("primary", {}))]) == []
