"""One value, one action: other occurrences of a value redacted once are redacted too.

A number, an e-mail or an address redacted for its holder may stand again elsewhere without the
cue words that made a recognizer report it (an account repeated in a payment clause); those
occurrences get the first one's action. Names are propagated by the name recognizer itself
(:mod:`redactor.detect.recognizers.persons`); places are never spread (:func:`place_only`).
"""

from __future__ import annotations

import re

from redactor import categories as cat
from redactor import lexicon, rulebook
from redactor.decide.decision_rules import Assessment
from redactor.model import Action, Finding, Span
from redactor.reasons import Reason

#: A postcode, or a numbered district of the capital ("Praha 4"; Act 131/2000 Sb.).
_PLACE_NUMBER = re.compile(rf"\b\d{{3}} ?\d{{2}}\b|\b{lexicon.alternatives('capital_districts')}[ -]?\d{{1,2}}\b")


def place_only(value: str, category: int) -> bool:
    """Whether an address ``value`` names only a place (a town, a district, a postcode and town,
    no house number): such a part of a home address is redacted where it stands, but it is no value
    of its own to look for elsewhere, where it is a place or part of a public body's name
    ("Městská část Praha-Libuš"). A postcode and the capital's numbered districts (Praha 1-22,
    Act 131/2000 Sb.) are places too."""
    place = _PLACE_NUMBER.sub("", value)
    return category in cat.ADDRESS_CATEGORIES and not re.search(r"\d", place)


def repeat_values(text: str, decisions: list[Assessment]) -> list[Assessment]:
    """Other occurrences of redacted values (numbers, e-mails, addresses) that no recognizer
    reported, e.g. an account repeated without its cue words; names are handled by the name
    recognizer's own propagation; a place alone (:func:`place_only`) is not spread."""
    covered = [d.finding.span for d in decisions]
    extra: list[Assessment] = []
    seen: set[str] = set()
    for d in decisions:
        f = d.finding
        if d.action != Action.REDACT or f.category in cat.NAME_CATEGORIES or f.category == cat.ACADEMIC_TITLE:
            continue
        value = " ".join(f.text.split())
        if len(value) < 5 or value in seen or place_only(value, f.category):
            continue
        seen.add(value)
        pattern = r"(?<![\w])" + r"\s+".join(re.escape(part) for part in value.split(" ")) + r"(?![\w])"
        for m in re.finditer(pattern, text):
            span = Span(m.start(), m.end())
            if any(span.overlaps(c) for c in covered):
                continue
            copy = Finding(
                f.category,
                span,
                m.group(),
                f.score,
                "repeated_value",
                f"same value as the {f.recognizer} finding at offset {f.span.start}",
                f.holder,
                f.attributes.copy(),
                [
                    *f.rules,
                    {"id": rulebook.made_by("repeated_value"), "saw": f"the same value as at offset {f.span.start}"},
                ],
            )
            extra.append(
                Assessment(
                    copy, d.category, Action.REDACT, Reason("repeated_value", {"reason": d.reason.to_dict()}), d.cluster
                )
            )
            covered.append(span)
    return extra


def _street_key(value: str) -> str:
    """An address's street and house number (what precedes its first comma or postcode), folded
    to letters and digits in lower case: the key by which two prints of one home are the same."""
    head = re.split(r",|\b\d{3} ?\d{2}\b", value, maxsplit=1)[0]
    return re.sub(r"[\W_]+", "", head).lower()


def align_addresses(decisions: list[Assessment]) -> None:
    """An address left for review whose street and house number (:func:`_street_key`) are those
    of an address redacted elsewhere in the document is redacted too (one value, one action): the
    third print of a sole trader's home, after a line break the recognizer could not link, is
    the same home. Changes ``decisions`` in place; a kept address is left kept (it may be a seat,
    :mod:`redactor.decide.decision_rules`)."""
    redacted = {
        _street_key(d.finding.text): d
        for d in decisions
        if d.action == Action.REDACT
        and d.finding.category in cat.ADDRESS_CATEGORIES
        and re.search(r"\d", d.finding.text)
    }
    redacted.pop("", None)
    for i, d in enumerate(decisions):
        if d.action != Action.REVIEW or d.finding.category not in cat.ADDRESS_CATEGORIES:
            continue
        first = redacted.get(_street_key(d.finding.text))
        if first is not None:
            reason = Reason("repeated_value", {"reason": first.reason.to_dict()})
            decisions[i] = Assessment(d.finding, first.category, Action.REDACT, reason, first.cluster or d.cluster)
