"""Agency rules learned from reviewers' decisions, matched across Czech inflection.

After Mareš (ÚFAL 2021, pseudonymisation tool "psan", see DOMAIN.md): every reviewer decision
is a signed vote on a rule (+1 keep, −1 redact); a rule whose votes sum to ≥ 1 keeps, ≤ −1
redacts, anything in between (−1, 1) sends the span to review; a reviewer's decision on one
occurrence beats any rule. Where psan matches exact token sequences, a rule here matches every
inflected form of its words (:func:`redactor.czech.same_name`: "Obec Horní Lhota" also
matches "Obci Horní Lhotě" and "Obce Horní Lhoty"), and a *person* rule matches a person's
name in any form and order and then covers every mention of that person the name recognizer
clustered (surname alone, academic titles).

Nothing here touches the database: the Django side turns stored rules into
:class:`LearnedRule` values and stores what :func:`apply_rules` returns.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from redactor import categories as cat
from redactor import rulebook
from redactor.czech import TITLES_AFTER, TITLES_BEFORE, NameGazetteer, same_name
from redactor.decide.suspicious import SUSPICIOUS
from redactor.model import Action, Box, ProposedRedaction, RuleHit, Span
from redactor.reasons import Params, Reason, ReasonDict, term

#: A token: a run of letters or digits. Punctuation and spaces only separate tokens.
_TOKEN = re.compile(r"[^\W_]+")
#: Most characters allowed between two tokens of one occurrence ("Horní Lhota", "870312/1234").
MAX_GAP = 3
#: Title words ignored when a person's name is compared ("Ing.", "Ph.D.").
_TITLE_WORDS = frozenset(w.lower() for t in (*TITLES_BEFORE, *TITLES_AFTER) for w in _TOKEN.findall(t)) - {
    "et"
}  # "et" appears in "Mgr. et Mgr." but is not a title on its own
PHRASE = "phrase"
PERSON = "person"

#: Reason codes of proposals the category map's role exceptions decided (a public official or a
#: statutory representative acting in office, DOMAIN.md; Act 340/2015 § 5 publishes them) or the
#: agency's profile lists as its own: no agency rule overrides them, in either direction; the
#: same name outside the role still follows the rule.
ROLE_DECIDED = frozenset({"role_exception", "agency_own"})


def tokens(text: str) -> tuple[str, ...]:
    """The letter/digit tokens of ``text``: ``"Obec Horní Lhota,"`` → ``("Obec", "Horní", "Lhota")``."""
    return tuple(_TOKEN.findall(text))


def name_tokens(text: str) -> tuple[str, ...]:
    """Tokens of a person mention without academic titles: ``"Ing. Radkem Blažkem"`` → ``("Radkem", "Blažkem")``."""
    return tuple(t for t in tokens(text) if t.lower() not in _TITLE_WORDS)


def person_display_name(mentions: list[str]) -> str:
    """A name to show for a person from its full-name ``mentions`` (as the text has them, titles
    and all): the first mention of two or more words whose first word the gazetteer knows as a
    given name in the nominative ("Radek Blažek" rather than "Radkem Blažkem"), else the
    shortest such mention; "" when there is none."""
    names = [n for n in (" ".join(name_tokens(m)) for m in mentions) if len(n.split()) >= 2]
    if not names:
        return ""
    gazetteer = NameGazetteer.default()
    for n in names:
        first = n.split()[0]
        if gazetteer.given_name_of(first) == first:
            return n
    return min(names, key=len)


def _norm(word: str) -> str:
    # all-caps words ("NOVÁK", "HORNÍ") inflect like their title-case form
    return word.capitalize() if word.isupper() and len(word) > 2 else word


def token_match(a: str, b: str) -> bool:
    """True when two tokens can be forms of one word: equal, or both words of three or more
    letters that inflect from a common nominative (``"Lhotě"``, ``"Lhota"``). Numbers must be equal."""
    if a == b:
        return True
    a, b = _norm(a), _norm(b)
    if a == b:
        return True
    if not (a.isalpha() and b.isalpha()) or len(a) < 3 or len(b) < 3:
        return False
    if a[0].isupper() != b[0].isupper():
        return False
    return same_name(a, b)


def phrase_match(pattern: tuple[str, ...], candidate: tuple[str, ...]) -> bool:
    """True when ``candidate`` is the token sequence ``pattern`` in some inflected form."""
    return len(pattern) == len(candidate) and all(token_match(p, c) for p, c in zip(pattern, candidate, strict=True))


def person_match(pattern: tuple[str, ...], candidate: tuple[str, ...]) -> bool:
    """True when ``candidate`` names the person ``pattern`` names, in any inflected form and in
    either order (``"Radek Blažek"`` ~ ``"Blažkem Radkem"``); titles must already be removed."""
    if len(pattern) != len(candidate) or not pattern:
        return False
    return phrase_match(pattern, candidate) or phrase_match(pattern, tuple(reversed(candidate)))


def find_occurrences(text: str, pattern: tuple[str, ...], either_order: bool = False) -> list[Span]:
    """Every occurrence of the token sequence ``pattern`` in ``text``, inflected forms included.

    Tokens of one occurrence may be separated by at most :data:`MAX_GAP` non-letter characters
    (spaces, a line break, "/" or "."). Returns the spans from the first to the last token,
    in text order. ``either_order`` also accepts the reversed sequence (surname first).
    """
    if not pattern:
        return []
    words = [(m.start(), m.end(), m.group()) for m in _TOKEN.finditer(text)]
    n = len(pattern)
    heads = {_norm(pattern[0])[:2].lower()}
    if either_order:
        heads.add(_norm(pattern[-1])[:2].lower())
    out = []
    for i in range(len(words) - n + 1):
        if _norm(words[i][2])[:2].lower() not in heads:
            continue
        window = words[i : i + n]
        if any(window[k + 1][0] - window[k][1] > MAX_GAP for k in range(n - 1)):
            continue
        candidate = tuple(w[2] for w in window)
        if phrase_match(pattern, candidate) or (either_order and phrase_match(pattern, candidate[::-1])):
            out.append(Span(window[0][0], window[-1][1]))
    return out


@dataclass(frozen=True)
class LearnedRule:
    """One agency rule as the engine sees it (the web app stores it as an agency rule).

    ``kind`` is :data:`PHRASE` (an exact token sequence, any inflected form) or :data:`PERSON`
    (a person's name, any form and order, covering every mention of that person).
    ``keep_votes`` and ``redact_votes`` count reviewers' decisions; the confidence is their
    difference. ``category`` (a map ID) is given to occurrences the rule adds itself.
    """

    id: int
    kind: str
    pattern: str
    keep_votes: int
    redact_votes: int
    category: int | None = None

    @property
    def score(self) -> int:
        """Signed confidence: +1 per keep decision, −1 per redact decision."""
        return self.keep_votes - self.redact_votes

    @property
    def action(self) -> Action:
        """keep for a score ≥ 1, redact for ≤ −1, review inside (−1, 1)."""
        if self.score >= 1:
            return Action.KEEP
        if self.score <= -1:
            return Action.REDACT
        return Action.REVIEW

    @property
    def pattern_tokens(self) -> tuple[str, ...]:
        """The pattern's tokens (titles dropped for a person rule)."""
        return name_tokens(self.pattern) if self.kind == PERSON else tokens(self.pattern)

    def who(self) -> ReasonDict:
        """The rule as a reason parameter: "agency rule “Horní Lhota”, 3 decisions" (with the
        split when votes disagree)."""
        n = self.keep_votes + self.redact_votes
        if self.keep_votes and self.redact_votes:
            votes: ReasonDict = {
                "code": "votes_split",
                "params": {"count": n, "keep": self.keep_votes, "redact": self.redact_votes},
            }
        else:
            votes = {"code": "votes_one" if n == 1 else "votes", "params": {"count": n}}
        code = "rule_person" if self.kind == PERSON else "rule_phrase"
        return {"code": code, "params": {"pattern": self.pattern, "votes": votes}}

    def record(self) -> rulebook.Rule:
        """The rule as a record of the rule book's shape (kind ``holder``: the action its votes give
        every occurrence of the pattern), ``agency:<pk>``, above every rule of the book (priority
        100). Reviewers taught it by example: its example is the pattern; it has no counter-example."""
        return rulebook.Rule(
            id=f"agency:{self.id}",
            kind="holder",
            priority=100,
            name={"cs": self.pattern, "en": self.pattern},
            source=None,
            observed=f"the agency's reviewers' decisions: {self.describe()}",
            examples=(f"[[{self.pattern}]]",),
            counters=(),
            params={"expect": self.action.value, "kind": self.kind},
        )

    def hit(self) -> RuleHit:
        """The rule as a proposal names it: ``agency:<pk>``, and the pattern it matched."""
        return {"id": f"agency:{self.id}", "saw": f"{self.kind} “{self.pattern}”, {self.describe()}"}

    def describe(self) -> str:
        """:meth:`who` in English: ``agency rule “Horní Lhota”, 3 decisions``."""
        return Reason.from_dict(self.who()).render()

    def reason(self, engine: ProposedRedaction | None = None) -> Reason:
        """The proposal's reason when this rule decided it ("Keep: agency rule “Horní Lhota”, 3
        decisions."), quoting the engine's reason when the rule overrules it."""
        params: Params = {"action": term(self.action.value), "rule": self.who()}
        if engine is not None and engine.action != self.action:
            return Reason("agency_rule_overruled", {**params, "reason": engine.reason.to_dict()})
        return Reason("agency_rule", params)


def book_rule(rule_id: str) -> rulebook.Rule | None:
    """The rule book's record ``rule_id`` (:mod:`redactor.rulebook`), or None for an id it does not
    hold (a decision's, an agency rule's, one of an older version): the apps name the rules behind
    a proposal through this, beside the agency's own."""
    return rulebook.rules().get(rule_id)


@dataclass
class RuleOutcome:
    """What :func:`apply_rules` did: the proposals (changed and added) and which rule decided each."""

    proposals: list[ProposedRedaction]
    rule_of: dict[int, int]  # proposal id -> rule id
    changed: int
    added: int


def _rules_for(proposals: list[ProposedRedaction], rules: list[LearnedRule]) -> dict[int, list[LearnedRule]]:
    """Proposal id → the rules that match it."""
    hits: dict[int, list[LearnedRule]] = {}
    person_rules = [r for r in rules if r.kind == PERSON]
    phrase_rules = [r for r in rules if r.kind == PHRASE]
    # person rules: a full-name mention that names the person brings the whole cluster
    clusters: dict[str, list[LearnedRule]] = {}
    for p in proposals:
        if p.category == cat.FULL_NAME and p.cluster and p.cluster.startswith("person:"):
            candidate = name_tokens(p.text)
            for r in person_rules:
                if person_match(r.pattern_tokens, candidate) and r not in clusters.setdefault(p.cluster, []):
                    clusters[p.cluster].append(r)
    for p in proposals:
        found = list(clusters.get(p.cluster or "", []))
        # the name itself, whatever recognizer or review item holds it
        named = name_tokens(p.text)
        found += [r for r in person_rules if r not in found and person_match(r.pattern_tokens, named)]
        candidate = tokens(p.text)
        found += [r for r in phrase_rules if phrase_match(r.pattern_tokens, candidate)]
        if found:
            hits[p.id] = found
    return hits


def _winner(found: list[LearnedRule]) -> LearnedRule:
    """Of several matching rules, the most confident; rules that disagree make a review rule."""
    actions = {r.action for r in found}
    best = max(found, key=lambda r: (abs(r.score), r.keep_votes + r.redact_votes, -r.id))
    if len(actions) > 1:
        return replace(
            best, keep_votes=sum(r.keep_votes for r in found), redact_votes=sum(r.redact_votes for r in found)
        )
    return best


def apply_rules(
    rules: list[LearnedRule],
    text: str,
    proposals: list[ProposedRedaction],
    span_boxes: Callable[[Span], list[Box]],
) -> RuleOutcome:
    """Decide ``proposals`` with the agency's ``rules`` and add occurrences only a rule knows.

    - A matching rule replaces the engine's action and reason (the engine's are quoted in the
      reason); several matching rules that disagree give review.
    - A keep rule never silences a redact suggestion of a :data:`~redactor.categories.HARD_IDENTIFIERS` category:
      that proposal goes to review.
    - No rule touches a proposal the map's role exceptions or the agency's profile decided
      (:data:`ROLE_DECIDED`: an official or a statutory representative acting in office).
    - A rule that redacts or asks for review also finds occurrences no recognizer reported
      (``find_occurrences``) and adds them (recognizer ``agency_rule``), replacing suspicious
      spans that lie inside them ("Qwertzovi" of "Qwertzovi Xaverovi"); keep rules add nothing.

    ``span_boxes`` turns a text span into boxes (``TextLayer.span_boxes``; points, pages from 1).
    Proposal ids of added proposals continue after the largest given id. Returns the proposals
    in text order with ``rule_of`` naming the deciding rule of each affected one.
    """
    out = [replace(p) for p in proposals]
    rule_of: dict[int, int] = {}
    changed = 0
    hits = _rules_for(out, rules)
    for p in out:
        if p.id not in hits or p.reason.code in ROLE_DECIDED:
            continue
        rule = _winner(hits[p.id])
        action = rule.action
        reason = rule.reason(p)
        if action == Action.KEEP and p.action == Action.REDACT and p.category in cat.HARD_IDENTIFIERS:
            action = Action.REVIEW
            reason = Reason("agency_rule_guard", {"rule": rule.who(), "reason": p.reason.to_dict()})
        if action != p.action or reason != p.reason:
            changed += action != p.action
            p.action, p.reason = action, reason
        p.rules = [*(h for h in p.rules if not h["id"].startswith("decision:")), rule.hit()]
        rule_of[p.id] = rule.id
    added = 0
    next_id = max((p.id for p in out), default=0) + 1
    for rule in rules:
        if rule.action == Action.KEEP:
            continue
        for span in find_occurrences(text, rule.pattern_tokens, either_order=rule.kind == PERSON):
            inside = [p for p in out if p.span.overlaps(span)]
            # a suspicious span the rule's occurrence explains gives way to it; anything else stays
            if any(p.category != SUSPICIOUS or not span.contains(p.span) or p.id in rule_of for p in inside):
                continue
            boxes = span_boxes(span)
            if not boxes:
                continue
            category = rule.category if rule.category is not None else 0
            out.append(
                ProposedRedaction(
                    id=next_id,
                    page=boxes[0].page,
                    boxes=boxes,
                    text=text[span.start : span.end].replace("\n", " "),
                    category=category,
                    category_name="",
                    category_type="",
                    action=rule.action,
                    score=1.0,
                    reason=rule.reason(),
                    recognizer="agency_rule",
                    evidence=f"occurrence of the pattern of agency rule {rule.id}",
                    span=span,
                    cluster=f"rule:{rule.id}",
                    rules=[rule.hit()],
                )
            )
            for p in inside:
                out.remove(p)
            rule_of[next_id] = rule.id
            next_id += 1
            added += 1
    out.sort(key=lambda p: (p.span.start, p.id))
    return RuleOutcome(out, rule_of, changed, added)
