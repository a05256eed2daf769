"""Identifiers recognised by the words in front of them: date of birth, ID card, passport,
driving licence, SIPO, vehicle plate, VIN, data box, e-mail, IP and MAC addresses."""

from __future__ import annotations

import ipaddress
import re

from redactor import categories as cat
from redactor import lexicon, rulebook
from redactor.czech import NameGazetteer
from redactor.detect.recognizers.base import AnalysisContext, PatternRecognizer, Recognizer, Validated
from redactor.model import Finding


def _lex(family: str) -> str:
    """The lexicon family ``family``, its words bounded (no letter right before or after one)."""
    return lexicon.alternatives(family, bounded=True)


_MONTHS = lexicon.alternatives("months_genitive")
DATE = rf"\d{{1,2}}\.[ \n]?(?:\d{{1,2}}\.|(?:{_MONTHS}))[ \n]?\d{{4}}"
#: A date written in words: its day an ordinal numeral, its month a name, its year in digits
#: ("osmého června 1981").
DATE_IN_WORDS = rf"(?:{lexicon.alternatives('day_ordinals_genitive')})\s+(?:{_MONTHS})\s+\d{{4}}"


class DateOfBirthRecognizer(PatternRecognizer):
    """A date after "nar.", "nar. dne", "narozen", "narozen/a", "narozen(a) dne", "datum narození",
    "dat. nar.", "r. nar." (ministry methodology: the date of birth of a private person is
    personal data), in digits or in words ("narozena osmého června 1981")."""

    name = "date_of_birth"
    category = cat.DATE_OF_BIRTH
    group = 1
    score = 0.95
    pattern = re.compile(
        rf"{lexicon.alternatives('birth', bounded=True)}(?:\s*/\s*a|\s*\(a\))?"
        rf"(?:\s+{lexicon.alternatives('on_day')})?\s*:?\s*({DATE}|{DATE_IN_WORDS}\b)",
        re.I,
    )

    def validate(self, match: re.Match[str], context: AnalysisContext) -> Validated | None:
        return Validated(f"date after {match.group().split()[0]!r}")


def _records(recognizer: str) -> list[rulebook.Rule]:
    """The rule book's ``value_after_cue`` records that ``recognizer`` interprets."""
    return [r for r in rulebook.of_kind("value_after_cue") if r.params["recognizer"] == recognizer]


def _cue_value(rule: rulebook.Rule) -> re.Pattern[str]:
    """A ``value_after_cue`` record compiled: its cue (bounded), the words allowed between (each
    optionally in brackets, at most two), a colon, and the value's shape as group 1."""
    between = "|".join(_lex(family) for family in rule.params.get("between", ()))
    gap = rf"(?:\s*\(?\s*(?:{between})\s*\)?){{0,2}}" if between else ""
    return re.compile(rf"{_lex(rule.params['cue'])}{gap}\s*:?\s*({rule.params['value']})\b", re.I)


class DocumentNumberRecognizer(Recognizer):
    """Numbers of an ID card (občanský průkaz), passport, driving licence and SIPO, each only
    after its cue words; the number formats follow the issuing registers (ID card 9 digits or
    older letter-prefixed series, driving licence two letters + 6 digits, SIPO 10 digits). The
    SIPO number is also found under its everyday name, "spojovací číslo" (Česká pošta's name for
    the payer's number in SIPO), without the word SIPO. The rules are the rule book's
    ``value_after_cue`` records of this recognizer (:mod:`redactor.rulebook`)."""

    name = "document_number"
    categories = (cat.ID_CARD, cat.PASSPORT, cat.DRIVING_LICENCE, cat.SIPO)

    def load(self) -> None:
        self._rules = [(rule, getattr(cat, rule.params["category"]), _cue_value(rule)) for rule in _records(self.name)]

    def analyze(self, context: AnalysisContext) -> list[Finding]:
        out, seen = [], set()
        for rule, category, pattern in self._rules:
            label = rule.params["evidence"]
            for m in pattern.finditer(context.text):
                if (category, m.start(1)) in seen:  # both SIPO cues before one number
                    continue
                seen.add((category, m.start(1)))
                cue = context.text[m.start() : m.start(1)].strip()
                score = float(rule.params["score"])
                evidence = f"{label} after {cue!r}"
                out.append(self.finding(category, m.start(1), m.end(1), context.text, score, evidence, rule=rule.id))
        return out


class VehicleRecognizer(Recognizer):
    """Registration plates (Decree 343/2014 Sb.: ``1A2 3456`` and personalised plates after
    "RZ"/"SPZ"/"registrační značka") and 17-character VINs (ISO 3779, no I, O, Q)."""

    name = "vehicle"
    categories = (cat.VEHICLE_PLATE, cat.VIN)
    _plate_cue = re.compile(rf"{_lex('vehicle_plate')}\s*:?\s*([0-9A-Z]{{2,3}}[ ]?[0-9A-Z]{{1,5}})\b")
    _plate_bare = re.compile(r"(?<![\w/-])(\d[A-Z][A-Z0-9][ ]\d{4})(?![\w/])")
    _vin = re.compile(r"(?<![A-Z0-9])([A-HJ-NPR-Z0-9]{17})(?![A-Z0-9])")
    _vin_cue = re.compile(f"({lexicon.alternatives('vehicle_identification')})")

    def analyze(self, context: AnalysisContext) -> list[Finding]:
        text, out, seen = context.text, [], set()
        for m in self._plate_cue.finditer(text):
            value = m.group(1)
            if re.search(r"\d", value):
                out.append(
                    self.finding(
                        cat.VEHICLE_PLATE,
                        m.start(1),
                        m.end(1),
                        text,
                        0.93,
                        f"plate after {text[m.start() : m.start(1)].strip()!r}",
                    )
                )
                seen.add(m.start(1))
        for m in self._plate_bare.finditer(text):
            if m.start(1) not in seen:
                out.append(
                    self.finding(cat.VEHICLE_PLATE, m.start(1), m.end(1), text, 0.6, "Czech plate format 1A2 3456")
                )
        for m in self._vin.finditer(text):
            value = m.group(1)
            if not (re.search(r"\d", value) and re.search(r"[A-Z]", value)):
                continue
            cue = self._vin_cue.search(context.window_before(m.start(), 30))
            out.append(
                self.finding(
                    cat.VIN,
                    m.start(1),
                    m.end(1),
                    text,
                    0.93 if cue else 0.6,
                    f"VIN format (ISO 3779){', cue ' + repr(cue.group()) if cue else ''}",
                )
            )
        return out


class DataBoxRecognizer(PatternRecognizer):
    """ID of a data box (datová schránka, Act 300/2008 Sb.): seven lower-case letters and digits
    after "ID DS", "datová schránka" or "ID datové schránky"."""

    name = "data_box"
    category = cat.DATA_BOX
    group = 1
    score = 0.9
    pattern = re.compile(
        rf"{_lex('data_box')}\s*(?:ID)?\s*:?\s*\b([a-z0-9]{{7}})\b",
        re.I,
    )

    def validate(self, match: re.Match[str], context: AnalysisContext) -> Validated | None:
        value = match.group(1)
        return None if value.isdigit() or value.isalpha() else Validated("data-box ID after its cue")


class NetworkRecognizer(Recognizer):
    """IPv4/IPv6 addresses (validated by ``ipaddress``) and MAC addresses (IEEE 802 format)."""

    name = "network"
    categories = (cat.IP_ADDRESS, cat.MAC_ADDRESS)
    _ipv4 = re.compile(r"(?<![\d.])(\d{1,3}(?:\.\d{1,3}){3})(?![\d.]|\.\d)")
    _ipv6 = re.compile(r"(?<![\w:])((?:[0-9a-fA-F]{1,4}:){2,7}[0-9a-fA-F]{0,4}(?::[0-9a-fA-F]{1,4})*)(?![\w:])")
    _mac = re.compile(r"(?<![\w:-])((?:[0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2})(?![\w:-])")

    def analyze(self, context: AnalysisContext) -> list[Finding]:
        text, out = context.text, []
        for m in self._mac.finditer(text):
            out.append(self.finding(cat.MAC_ADDRESS, m.start(1), m.end(1), text, 0.9, "MAC address format"))
        for pattern in (self._ipv4, self._ipv6):
            for m in pattern.finditer(text):
                try:
                    ipaddress.ip_address(m.group(1))
                except ValueError:
                    continue
                if pattern is self._ipv6 and m.group(1).count(":") < 2:
                    continue
                if any(f.span.start <= m.start(1) < f.span.end for f in out):
                    continue
                out.append(self.finding(cat.IP_ADDRESS, m.start(1), m.end(1), text, 0.85, "valid IP address"))
        return out


class EmailRecognizer(Recognizer):
    """E-mail addresses. One whose local part contains a personal name (a gazetteer name, or a
    part of a name found in the document) is category 6 (e-mail with a personal name,
    primary); any other is category 7 (generic work e-mail such as ``info@``, secondary).
    An address broken at a line end next to its "@" or after a dot of its domain
    ("jan.novak@" + "seznam.cz") is one address: word processors break lines there."""

    name = "email"
    categories = (cat.EMAIL_PERSONAL, cat.EMAIL_GENERIC)
    _break = r"(?:[ \t]*\n[ \t]*)?"  # a line break, only where an address may be broken
    _pattern = re.compile(rf"(?<![\w.+-])([\w.+-]+{_break}@{_break}[\w-]+(?:\.{_break}[\w-]+)*\.[a-zA-Z]{{2,}})\b")
    #: An address whose writer spelt the "@" out ("jan(zavináč)post.cz", "jan[at]post[dot]cz"; one OCR
    #: misread is put right when the page is read, :func:`redactor.read.ocr.repairs.repair_emails`):
    #: a local part opening with a letter and a domain ending in a known top-level domain.
    _dot = rf"(?:\.|{lexicon.alternatives('dot_spelt_out')})"
    _misread = re.compile(
        rf"(?<![\w.+-])([^\W\d_][\w.+-]*(?:{_dot}[\w+-]+)*{lexicon.alternatives('at_sign_spelt_out')}"
        rf"[\w-]+(?:{_dot}[\w-]+)*{_dot}{lexicon.alternatives('top_level_domains', bounded=True)})",
        re.I,
    )
    _at = re.compile(f"@|{lexicon.alternatives('at_sign_spelt_out')}", re.I)
    _generic = lexicon.words("generic_mailboxes")

    def __init__(self, gazetteer: NameGazetteer | None = None):
        self.gazetteer = gazetteer

    def load(self) -> None:
        self._names()

    def _names(self) -> NameGazetteer:
        """The name gazetteer, the packaged one unless given (read on first use)."""
        if self.gazetteer is None:
            self.gazetteer = NameGazetteer.default()
        return self.gazetteer

    #: The start of a local part OCR broke after a dot ("prchal. l@centrum.cz"): a lower-case word
    #: and its dot before a local part of one character (a sentence's end opens with a capital).
    _broken_local = re.compile(r"(?<![\w.+-])[^\W\d_A-ZÁČĎÉĚÍŇÓŘŠŤÚŮÝŽ][\w+-]*\.[ ]$")

    def _fragment_start(self, text: str, m: re.Match[str]) -> int:
        """Where the address of ``m`` starts: before a local part of one character that OCR cut off
        after a dot with a space, at the match otherwise."""
        local = self._at.split(m.group(1))[0]
        before = self._broken_local.search(text, max(0, m.start(1) - 40), m.start(1)) if len(local) == 1 else None
        return before.start() if before else m.start(1)

    def analyze(self, context: AnalysisContext) -> list[Finding]:
        out = []
        names = self._names()
        misread = [(m, "its '@' spelt out") for m in self._misread.finditer(context.text)]
        for m, how in [(m, "") for m in self._pattern.finditer(context.text)] + misread:
            start = self._fragment_start(context.text, m)
            local = re.sub(r"\s", "", self._at.split(context.text[start : m.end(1)])[0]).lower()
            parts = [p for p in re.split(r"[._+-]", local) if p]
            named = [p for p in parts if p not in self._generic and names.mentions_name(p)]
            if named:
                out.append(
                    self.finding(
                        cat.EMAIL_PERSONAL,
                        start,
                        m.end(1),
                        context.text,
                        0.95,
                        f"e-mail whose local part contains the name {named[0]!r}{how and ', ' + how}",
                        rule="email.at_spelt_out" if how else None,
                    )
                )
            else:
                out.append(
                    self.finding(
                        cat.EMAIL_GENERIC,
                        start,
                        m.end(1),
                        context.text,
                        0.9,
                        f"e-mail address without a recognised personal name{how and ', ' + how}",
                        attributes={"local_parts": parts},
                        rule="email.at_spelt_out" if how else None,
                    )
                )
        return out
