"""Checksummed identifiers: birth number, bank account, IBAN, DIČ, IČO, payment card, phone.

Every checksum and format rule comes from python-stdnum (``stdnum.cz.rc``,
``stdnum.cz.bankaccount``, ``stdnum.iban``, ``stdnum.cz.dic``, ``stdnum.luhn``) or from
Google's libphonenumber port (``phonenumbers``); the patterns here only find candidates.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import phonenumbers
from stdnum import iban as std_iban
from stdnum import luhn
from stdnum.cz import bankaccount, dic, rc
from stdnum.exceptions import InvalidChecksum, InvalidComponent, ValidationError

from redactor import categories as cat
from redactor import lexicon
from redactor.czech import UPPER
from redactor.detect.recognizers.base import AnalysisContext, PatternRecognizer, Recognizer, Validated
from redactor.model import Finding
from redactor.text import ITEM_START

_WS = r"[ \n]?"


class BirthNumberRecognizer(PatternRecognizer):
    """Rodné číslo ``YYMMDD/SSSC``: slash optional, women +50 months, +20/+70 since 2004,
    9 digits before 1954 (Act 133/2000 Sb., § 13). Validated with ``stdnum.cz.rc``. Its date part
    may be written in pairs ("72 05 18 / 1038"); so written without the slash it needs its cue.

    Scores: 0.95 after a context word ("r. č.", "rodné číslo", "nar."), 0.85 with the slash, 0.6
    for ten bare digits; nine bare digits need a context word.
    """

    name = "birth_number"
    category = cat.BIRTH_NUMBER
    pattern = re.compile(r"(?<![\w/-])(\d{6}|\d\d[ ]\d\d[ ]\d\d)(?:[ ]?/[ \n]?(\d{3,4})|[ ]?(\d{3,4}))(?![\w/]|-\d)")
    context_score = 0.95
    context_chars = 30

    def validate(self, match: re.Match[str], context: AnalysisContext) -> Validated | None:
        if match.group(3) and " " not in match.group(1) and match.start(3) > match.end(1):
            return None  # "780101 1229": only a date part written in pairs is followed by a space
        if not rc.is_valid(match.group(1).replace(" ", "") + (match.group(2) or match.group(3))):
            return None
        return Validated("valid rodné číslo (stdnum.cz.rc)", holder="natural_person")

    def scored(self, match: re.Match[str], found: Validated, context: AnalysisContext) -> tuple[float, str | None]:
        word = self.context_word(context, match.start(), self.context_chars)
        if word:
            return self.context_score, word
        slashed = match.group(2) is not None
        if " " in match.group(1) and not slashed:
            return 0.0, None  # "72 05 18 1038" without its cue: as likely four numbers of a table
        if not slashed and len(match.group(1) + match.group(3)) == 9:
            return 0.0, None
        return (0.85 if slashed else 0.6), None


class BankAccountRecognizer(PatternRecognizer):
    """Czech account ``[prefix-]number/bank``: prefix ≤ 6 and number ≤ 10 digits, each with the
    weighted mod-11 check and a bank code from the ČNB list (``stdnum.cz.bankaccount``) or of a
    bank that merged or closed since (:attr:`_FORMER_BANKS`, e.g. 6100 Equa bank), whose
    accounts older contracts still carry. On a scan (text read by OCR,
    :meth:`AnalysisContext.read_from_pixels`) a number whose check digit fails is still an account
    right after its cue ("Číslo účtu:", :attr:`CUE_CHARS`) at a bank of the ČNB list: a misread or
    mistyped digit does not make the account the reader sees public. Score 0.95 after a context
    word, else 0.8."""

    name = "bank_account"
    category = cat.BANK_ACCOUNT
    #: The prefix's hyphen may be a dash, the bank code's slash a backslash, and the number may be
    #: written in groups of digits ("19 – 2000145399 \\ 0800", "2000 1453 99 / 0800"): the checksums
    #: decide.
    pattern = re.compile(
        r"(?<![\w/\\-])(?:(\d{1,6})[ ]?[-–][ \n]?)?(\d{2,10}|\d{2,4}(?:[ \n]\d{2,4}){1,3})"
        r"[ ]?[/\\][ \n]?(\d{4})(?![\w/\\])"
    )
    score = 0.8
    context_score = 0.95
    #: Codes of banks that merged or left the Czech market, no longer in the ČNB list that
    #: python-stdnum ships: Equa bank (6100, merged into Raiffeisenbank), ZUNO BANK (2310), ING
    #: Bank N.V. (3500), ABN AMRO Bank (5400).
    _FORMER_BANKS = frozenset({"6100", "2310", "3500", "5400"})
    #: Bank code of the Czech National Bank: it runs accounts for the state, its organisational
    #: units and other public bodies, not for private persons (Act 6/1993 Sb., § 34 and § 35).
    _CNB = "0710"
    #: An account read by OCR whose check digit fails is taken only after its cue this close before it
    #: (characters: "Číslo účtu: ", "č. ú. ") ...
    CUE_CHARS = 16
    #: ... and with at least this many digits in its number.
    UNCHECKED_MIN_DIGITS = 6

    def validate(self, match: re.Match[str], context: AnalysisContext) -> Validated | None:
        prefix, number, bank = match.groups()
        number = re.sub(r"\s", "", number)
        if len(number) > 10:
            return None
        value = f"{prefix + '-' if prefix else ''}{number}/{bank}"
        try:
            bankaccount.validate(value)
            evidence = "valid account number (stdnum.cz.bankaccount)"
        except InvalidComponent:
            if bank not in self._FORMER_BANKS:
                return None
            # the checksums hold and the code belonged to a bank that merged or closed: older
            # contracts keep such accounts
            evidence = "valid account number at a former bank (code no longer in the ČNB list)"
        except InvalidChecksum:
            # on a scan a digit may be misread (or the print mistyped) while the reader still
            # sees the holder's account: after its cue, at a bank of the ČNB list, it is one
            cue = self.context_word(context, match.start(), self.CUE_CHARS)
            if (
                cue is None
                or not context.read_from_pixels(match.start(), match.end())
                or len(number) < self.UNCHECKED_MIN_DIGITS
                or not bankaccount.info(value)
            ):
                return None
            evidence = (
                f"account number read by OCR after “{cue}” at a bank of the ČNB list;"
                " its check digit fails (a misread or mistyped digit)"
            )
        except ValidationError:
            return None
        if bank == self._CNB:
            evidence += ", at the Czech National Bank, which keeps accounts of the state and public bodies only"
            return Validated(evidence, holder="public_body")
        return Validated(evidence)


class IbanRecognizer(Recognizer):
    """IBAN in paper (grouped) or electronic form, ISO 13616 mod-97 (``stdnum.iban``)."""

    name = "iban"
    categories = (cat.IBAN,)
    _start = re.compile(r"(?<![A-Z0-9])[A-Z]{2}\d{2}(?=[ \n]?[A-Z0-9])")

    def analyze(self, context: AnalysisContext) -> list[Finding]:
        text, out = context.text, []
        pos = 0
        for m in self._start.finditer(text):
            if m.start() < pos:
                continue
            # collect up to 34 alphanumerics, allowing one space or line break between groups
            chars: list[str] = []
            ends: list[int] = []
            i = m.start()
            while i < len(text) and len(chars) < 34:
                if text[i].isalnum() and text[i].isascii():
                    chars.append(text[i])
                    ends.append(i + 1)
                    i += 1
                elif text[i] in " \n" and i + 1 < len(text) and text[i + 1].isalnum() and chars and text[i - 1] != " ":
                    i += 1
                else:
                    break
            for length in range(len(chars), 14, -1):
                if std_iban.is_valid("".join(chars[:length])):
                    end = ends[length - 1]
                    out.append(self.finding(cat.IBAN, m.start(), end, text, 0.97, "valid IBAN (stdnum.iban, mod 97)"))
                    pos = end
                    break
        return out


class DicRecognizer(PatternRecognizer):
    """DIČ ``CZ`` + 8 digits (legal person, the IČO) or + 9/10 digits (a natural person's birth
    number), validated with ``stdnum.cz.dic``. A DIČ of a natural person carries the holder
    ``natural_person`` because the number itself is a rodné číslo."""

    name = "dic"
    category = cat.DIC
    pattern = re.compile(r"(?<![A-Z0-9])CZ[ ]?(\d(?:[ /]?\d){7,9})(?!\d)")
    score = 0.95

    def validate(self, match: re.Match[str], context: AnalysisContext) -> Validated | None:
        raw = match.group(1)
        digit_ends = [match.start(1) + i + 1 for i, c in enumerate(raw) if c.isdigit()]
        digits = re.sub(r"\D", "", raw)
        for length in (10, 9, 8):  # the longest valid reading
            if len(digits) >= length and dic.is_valid(digits[:length]):
                natural = length > 8
                return Validated(
                    "valid DIČ (stdnum.cz.dic): "
                    + ("CZ + rodné číslo, a natural person" if natural else "CZ + IČO, a legal person"),
                    end=digit_ends[length - 1],
                    holder="natural_person" if natural else "legal_person",
                )
        return None


class IcoRecognizer(PatternRecognizer):
    """IČO (Act 111/2009 Sb., § 21): 8 digits after "IČ"/"IČO" (or "IC"/"ICO" in OCR output),
    weighted mod-11 check digit computed by ``stdnum.cz.dic.calc_check_digit_legal`` (the DIČ of
    a legal person is CZ + IČO). Found so that it is kept: an IČO identifies a business, not a
    private life."""

    name = "ico"
    category = cat.ICO
    pattern = re.compile(
        rf"{lexicon.alternatives('ico_label', folded=True, bounded=True)}[ ]?:?[ \n]?((?:\d[ ]?){{7}}\d)(?!\d)"
    )
    group = 1
    score = 0.99
    folded = True

    def validate(self, match: re.Match[str], context: AnalysisContext) -> Validated | None:
        digits = re.sub(r"\D", "", match.group(1))
        if dic.calc_check_digit_legal(digits[:-1]) != digits[-1]:
            return None
        return Validated("IČO with a valid check digit", holder="registered_entity")


class PaymentCardRecognizer(PatternRecognizer):
    """Payment card numbers: 13-19 digits in groups, Luhn check (``stdnum.luhn``), only after a
    context word ("karta", "Visa")."""

    name = "payment_card"
    category = cat.PAYMENT_CARD
    pattern = re.compile(r"(?<![\d/-])\d{4}(?:[ -]?\d{4}){2}[ -]?\d{1,7}(?![\d/])")
    context_score = 0.9

    def validate(self, match: re.Match[str], context: AnalysisContext) -> Validated | None:
        digits = re.sub(r"\D", "", match.group())
        if not 13 <= len(digits) <= 19 or not luhn.is_valid(digits):
            return None
        return Validated("Luhn-valid card number")


class _Shifted:
    """A libphonenumber match found in a window of the text, with offsets into the whole text."""

    def __init__(self, match: phonenumbers.PhoneNumberMatch, offset: int):
        self.number, self.start, self.end = match.number, match.start + offset, match.end + offset


#: An organisation's service that a phone number reaches: a reception, a registry office, a
#: switchboard, a help line, a dispatch, a gatehouse ("volat ohlašovnu požáru (recepce) na tel.
#: …"); no private person answers it.
_SERVICE_LINE = re.compile(
    rf"{lexicon.alternatives('service_lines', bounded=True)}(?!\w)",
    re.I,
)


#: A line that begins with a figure: four digits or more, then a space or the line's end (a
#: postcode is written "602 00", Czech Post's form, and does not open such a line).
_FIGURE_LINE = re.compile(r"[ \t]*\d{4,}(?:[ \t]|$)", re.M)


def _cell_of_figures(text: str, start: int, end: int) -> bool:
    """Whether the number ``text[start:end]`` (or its part after a line break) opens its line
    and a line next to it (the one above or below) opens with a figure too: a cell of a table
    column of figures (prices down an inventory "17954355⏎200322907", inventory numbers opening
    its rows "…350,351⏎358047 K.S.LIŠEN⏎5688886 K.S.…"), where a fixed-line number without a
    cue is no phone. A contact block ("Jan Novák⏎545 212 111") and an address above a phone
    in Czech Post's form ("602 00 Brno⏎545 212 111") are not such columns."""
    last = text.rfind("\n", start, end)
    part = last + 1 if last >= 0 else start
    line_start = text.rfind("\n", 0, part) + 1
    if text[line_start:part].strip():
        return False  # the number does not open its line: a value within a sentence or a row
    above_end = text.rfind("\n", 0, min(start, line_start))
    above = text.rfind("\n", 0, above_end) + 1 if above_end >= 0 else -1
    below = text.find("\n", end)
    return bool(
        (above >= 0 and _FIGURE_LINE.match(text, above, above_end))
        or (below >= 0 and _FIGURE_LINE.match(text, below + 1))
    )


def _grouped(raw: str) -> bool:
    """True when ``raw`` is written in digit groups a phone number of its country is written in
    (libphonenumber's STRICT_GROUPING: "603 817 091", "603817091", "+420 603 817 091"; not "60
    38 17 091" or "8-10-12 1596")."""
    matches = phonenumbers.PhoneNumberMatcher(raw, "CZ", leniency=phonenumbers.Leniency.STRICT_GROUPING)
    return any(m.start == 0 and m.end == len(raw) for m in matches)


class PhoneRecognizer(Recognizer):
    """Telephone numbers as libphonenumber reads them for region CZ (+420 and nine digits in
    any spacing, foreign numbers with their country code), leniency VALID.

    Not phones: amounts ("123 456 000,- Kč", "… 789,50 Kč", after "cena"/"částka" or before
    "Kč"), and a candidate that runs from one line into a numbered heading on the next ("… IČ:
    73616842\n2. Objednatel"): such a line break ends the number; and digits from three lines or
    more (cells down a column of a table: "327\n027\n827" in an inventory), since a number
    written on paper breaks at most once; a number whole at the end of its line is read even
    when the next line begins with other digits ("tel.: 603 817 091⏎3", a page number). A number
    after an organisation's service ("recepce", "podatelna", "ústředna", "infolinka", within 50
    characters of the same sentence) carries ``attributes["service"]``. Without a context word a
    number that is not a mobile one must be grouped as phones are written (:func:`_grouped`):
    table cells of inventory numbers ("27-39 60648") are valid fixed-line numbers to
    libphonenumber. Score 0.95 after a context
    word ("tel."/"telefon"/"mobil"/"fax"), 0.7 otherwise. Whose number it is (a person's or an
    organisation's switchboard) is decided by the category map's holder rules, not here."""

    name = "phone"
    categories = (cat.PHONE,)
    _money_after = re.compile(rf"^\s*{lexicon.alternatives('money_after')}", re.I)
    _money_before = re.compile(rf"{lexicon.alternatives('money_before')}\W{{0,3}}$", re.I)
    _heading = re.compile(ITEM_START)
    #: Where a phone number can be: a run of digits and separators with at least seven digits.
    _digits = re.compile(r"[+(]?\d(?:[\d \t().\-/]*\d){6,}")
    #: Characters around such a run that libphonenumber sees too (it looks at a number's neighbours).
    _margin = 12

    def _matches(self, flat: str, at_line_end: str | None = None) -> Iterator[_Shifted]:
        """libphonenumber's matches in ``flat``, each with ``start``/``end`` offsets into it: the
        matcher reads only the windows around runs of seven or more digits, the only places a
        number can be (on a contract it otherwise walks every character of the text). With
        ``at_line_end`` (the text ``flat`` was made from), only runs that end a line."""
        windows: list[list[int]] = []
        for run in self._digits.finditer(flat):
            if at_line_end is not None and at_line_end[run.end() : run.end() + 1] != "\n":
                continue
            a, b = max(0, run.start() - self._margin), min(len(flat), run.end() + self._margin)
            if windows and a <= windows[-1][1]:
                windows[-1][1] = b
            else:
                windows.append([a, b])
        for a, b in windows:
            for match in phonenumbers.PhoneNumberMatcher(flat[a:b], "CZ", leniency=phonenumbers.Leniency.VALID):
                yield _Shifted(match, a)

    def analyze(self, context: AnalysisContext) -> list[Finding]:
        text = context.text
        # a line break is a space, except before a numbered heading, where a number must end
        flat = re.sub("\n", lambda m: ";" if self._heading.match(text, m.end()) else " ", text)
        matches = list(self._matches(flat))
        # and a number that is whole at the end of its line stays whole when the next line begins
        # with digits of something else (a page number, a postcode): read once more with every
        # line break an end, for what the first reading missed
        ends = text.replace("\n", ";")
        matches += [
            m
            for m in self._matches(ends, at_line_end=text)
            if not any(m.start < other.end and other.start < m.end for other in matches)
        ]
        out = []
        for match in sorted(matches, key=lambda m: m.start):
            end = match.end
            if text.count("\n", match.start, end) >= 2:
                continue  # cells down a column, not one number
            if self._money_after.match(flat[end : end + 8]) or self._money_before.search(
                flat[max(0, match.start - 25) : match.start]
            ):
                continue
            cue = self.context_word(context, match.start, 25)
            mobile = phonenumbers.number_type(match.number) == phonenumbers.PhoneNumberType.MOBILE
            if not cue and not mobile and not _grouped(flat[match.start : end]):
                continue  # "8-10-12 1596", "27-39 60648": inventory numbers, not a phone as written
            if not cue and not mobile and _cell_of_figures(text, match.start, end):
                continue  # "17954355⏎200322907⏎2218803": a column of prices, not a phone
            score = 0.95 if cue else 0.7
            sentence = re.split(rf"[;]|\.\s+(?=[{UPPER}])", text[max(0, match.start - 50) : match.start])[-1]
            service = _SERVICE_LINE.search(sentence)
            out.append(
                self.finding(
                    cat.PHONE,
                    match.start,
                    end,
                    text,
                    score,
                    f"valid phone number (phonenumbers, {phonenumbers.region_code_for_number(match.number)})"
                    + (f", cue {cue!r}" if cue else "")
                    + (f", an organisation's service line ({service.group()!r})" if service else ""),
                    attributes={"service": service.group()} if service else {},
                )
            )
        return out
