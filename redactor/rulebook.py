"""The rule book: every rule of the detection layer as a named record with its source, examples
and counter-examples (``data/rules.toml``).

A record says what a rule is, not how it is coded: its ``id`` (stable, dotted: ``"birth_date.
after_cue"``), its ``kind`` (:data:`KINDS`), its ``priority`` (a higher one wins where two rules
claim the same words), where it comes from (``source``: a statute, the ministry's methodology,
DOMAIN.md; or ``observed``: the *class* of document it was seen in, never a document), its name in
the interface's languages, and invented ``examples`` it must fire on and ``counters`` it must
not. In an example, ``[[…]]`` marks the words the rule is about (the value found, the name a cue
stands before). The code that applies a rule names it by its id, and every proposal carries the
ids of the rules that made it (:attr:`redactor.model.Finding.rules`); the harness
(``benchmarks/rule_book.py``) runs every record's examples through its kind alone.

Kinds of record (the parameters each kind takes are in :data:`KINDS`):

- ``value_after_cue``: a value of a shape (``value``, a regular expression) within reach of a cue
  (``cue``, a lexicon family): the contextual recognizers interpret these records themselves;
- ``labelled_block``: a block its labels open (a form, a certification clause, a letter's sender)
  and the values in it, found by ``recognizer``;
- ``cue_near_name``: a function, a representation or a contact cue next to a name (``finds``);
- ``holder``: whose a value is, decided with the whole analysis of the example (``expect``: the
  action on the marked value);
- ``veto``: a reading that is refused ("not a phone", "not a name"): ``recognizer`` must *not*
  find the marked words in an example, and must in a counter-example;
- ``code``: what cannot be data, a Python function (``function``: ``module:name``) that is true
  on the examples and false on the counters.

Raises ``ValueError`` naming the record when the file breaks these rules (checked when first
loaded).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from redactor.model import RuleHit

#: The kinds of record and the parameters each requires.
KINDS: dict[str, tuple[str, ...]] = {
    "value_after_cue": ("cue", "value", "category", "recognizer"),
    "labelled_block": ("recognizer", "category"),
    "cue_near_name": ("finds", "expect"),
    "holder": ("expect",),
    "veto": ("recognizer",),
    "code": ("function",),
}
_MARK = re.compile(r"\[\[(.+?)\]\]", re.S)


@dataclass(frozen=True)
class Rule:
    """One record of the rule book (see the module docstring for the fields)."""

    id: str
    kind: str
    priority: int
    name: dict[str, str]
    source: str | None
    observed: str | None
    examples: tuple[str, ...]
    counters: tuple[str, ...]
    params: dict[str, Any] = field(default_factory=dict)
    #: Examples the rule is known to get wrong today, each named in the data with why.
    known_failures: tuple[str, ...] = ()

    @property
    def origin(self) -> str:
        """Where the rule comes from: its source, or the class of document it was observed in."""
        return self.source or f"observed: {self.observed}"

    def title(self, language: str = "cs") -> str:
        """The rule's name in ``language`` (``cs`` or ``en``), Czech when it has none other."""
        return self.name.get(language) or self.name["cs"]


def marked(example: str) -> tuple[str, list[tuple[int, int]]]:
    """``example`` without its ``[[…]]`` marks, and the spans (offsets into that text) they marked."""
    text, spans, shift = [], [], 0
    last = 0
    for m in _MARK.finditer(example):
        text.append(example[last : m.start()])
        start = m.start() - shift
        spans.append((start, start + len(m.group(1))))
        text.append(m.group(1))
        shift += 4
        last = m.end()
    text.append(example[last:])
    return "".join(text), spans


def _record(entry: dict[str, Any]) -> Rule:
    rid = entry.get("id", "?")
    kind = entry.get("kind")
    if kind not in KINDS:
        raise ValueError(f"rule {rid!r}: kind {kind!r} is none of {', '.join(KINDS)}")
    missing = [p for p in KINDS[kind] if p not in entry]
    if missing:
        raise ValueError(f"rule {rid!r} of kind {kind} needs {', '.join(missing)}")
    if not (entry.get("source") or entry.get("observed")):
        raise ValueError(f"rule {rid!r} names neither a source nor the class of document it was observed in")
    if not entry.get("examples") or not entry.get("counters"):
        raise ValueError(f"rule {rid!r} needs at least one example and one counter-example")
    name = entry.get("name") or {}
    if not name.get("cs") or not name.get("en"):
        raise ValueError(f"rule {rid!r} needs its name in Czech and English")
    reserved = {"id", "kind", "priority", "name", "source", "observed", "examples", "counters", "known_failures"}
    return Rule(
        id=rid,
        kind=kind,
        priority=int(entry.get("priority", 50)),
        name=dict(name),
        source=entry.get("source"),
        observed=entry.get("observed"),
        examples=tuple(entry["examples"]),
        counters=tuple(entry["counters"]),
        params={k: v for k, v in entry.items() if k not in reserved},
        known_failures=tuple(entry.get("known_failures", ())),
    )


@cache
def rules() -> dict[str, Rule]:
    """Every record of the rule book by id, loaded once. Raises ``ValueError`` on a duplicate id."""
    raw = tomllib.loads(resources.files("redactor").joinpath("data/rules.toml").read_text(encoding="utf-8"))
    out: dict[str, Rule] = {}
    for entry in raw.get("rule", []):
        rule = _record(entry)
        if rule.id in out:
            raise ValueError(f"rule {rule.id!r} is in the rule book twice")
        out[rule.id] = rule
    return out


def rule(rule_id: str) -> Rule:
    """The record ``rule_id``. Raises ``KeyError`` naming it when the rule book has none."""
    try:
        return rules()[rule_id]
    except KeyError:
        raise KeyError(f"the rule book has no rule {rule_id!r}") from None


@cache
def _makers() -> dict[str, str]:
    out: dict[str, str] = {}
    for record in rules().values():
        maker = record.params.get("default_for")
        if maker:
            if maker in out:
                raise ValueError(f"rules {out[maker]!r} and {record.id!r} are both the rule of {maker!r}")
            out[maker] = record.id
    return out


def made_by(recognizer: str) -> str:
    """The id of the rule a finding of ``recognizer`` names when its code names no more specific
    one: the record whose ``default_for`` is ``recognizer``; ``"recognizer:<name>"`` for a
    recognizer the book does not know (one a test or a plug-in adds; the suite checks that every
    recognizer of the product has its record)."""
    return _makers().get(recognizer, f"recognizer:{recognizer}")


def decided(code: str) -> RuleHit:
    """The hit that names the decision of a proposal: ``"decision:<reason code>"`` (the reason
    codes are the decision rules' ids, :data:`redactor.reasons.TEMPLATES`). What it saw is the
    proposal's reason itself, kept beside it, so ``saw`` is empty."""
    return {"id": f"decision:{code}", "saw": ""}


def of_kind(kind: str) -> list[Rule]:
    """The records of ``kind``, highest priority first (then by id)."""
    return sorted((r for r in rules().values() if r.kind == kind), key=lambda r: (-r.priority, r.id))
