"""The values of the registry metadata read from a contract's text: the price clause (without and
with VAT, or in a foreign currency), the date next to the last signature, the contract number
and the subject from the title or a quoted project, each with the place it was read
(:class:`ContractReader`, which masks every span the analysis redacts or sends to review).
:mod:`redactor.metadata.prefill` puts them together with the parties."""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING

from redactor.czech import strip_diacritics
from redactor.metadata.fields import (
    MAX_TEXT,
    Source,
)
from redactor.model import Action, ProposedRedaction, Span
from redactor.text import line_spans

if TYPE_CHECKING:  # the engine imports nothing from here
    from redactor.engine import Analysis
    from redactor.model import Party

#: What a source quotes in place of a redacted value.
MASK = "▮▮▮"
_LINE_MAX = 200
_MONTHS = {
    "ledna": 1, "února": 2, "unora": 2, "března": 3, "brezna": 3, "dubna": 4, "května": 5, "kvetna": 5,
    "června": 6, "cervna": 6, "července": 7, "cervence": 7, "srpna": 8, "září": 9, "zari": 9, "října": 10,
    "rijna": 10, "listopadu": 11, "prosince": 12,
}  # fmt: skip
_DATE = re.compile(
    r"(?<![\d.])(?P<d>[0-3]?\d)\s?\.\s?(?:(?P<m>[01]?\d)\s?\.|\s*(?P<mn>[a-zěščřžýáíéůú]{4,9}))\s?(?P<y>(?:19|20)\d\d)(?!\d)"
    r"|(?<!\d)(?P<y2>20\d\d)[.-](?P<m2>[01]\d)[.-](?P<d2>[0-3]\d)(?!\d)",
    re.I,
)
#: A line that dates a signature: "V Praze dne 3. 5. 2024", "Dne: …", "Datum: …", "Datum podpisu …",
#: a digital signature's stamp "Datum: 2024.05.03 10:15:22 +02'00'".
#: A short line is a signature's date line when it names a day ("…dne 3. 5. 2024", "Datum: …");
#: a longer one only when it opens with the place ("V Praze dne …").
_SHORT_LINE = 80
_PLACE_AND_DAY = re.compile(r"^\s*(?:za\s+\w+\s+)?(?:v|ve)\s+\S+.*\bdne\b", re.I)
_DAY_CUE = re.compile(r"\bdne\b|\bdatum\b|podeps|podpis", re.I)
#: Lines whose dates are not signatures: births, terms, deadlines, validity, registrations.
_NOT_SIGNATURE = re.compile(
    r"narozen|\bnar\.|platnost|účinnost|ucinnost|lhůt|lhut|termín|termin|splatn|\bdo\s+\d|\bod\s+\d|zápis|zapis|"
    r"rejstřík|rejstrik|vložka|vlozka|usnesen|zasedání|zasedani|vyhlášen|vyhlasen|zákon|zakon|nabídk|nabidk|"
    r"\bze\s+dne|uzavřel|uzavrel|uzavřen|uzavren|schválen|schvalen|znění|zneni|došlo|doslo|tisk|spočítán|spocitan|"
    r"vystaven",
    re.I,
)
_AMOUNT = re.compile(
    r"(?<![\d,.])(?P<num>\d{1,3}(?:[  .]\d{3})+|\d{4,12}|\d{1,3})(?:,(?P<dec>\d{1,2}|-{1,2}))?[  ]*(?:,-[  ]*)?"
    r"\n?[  ]*(?P<cur>Kč|CZK|EUR|€|USD|\$|GBP|£)(?!\w)",  # "… činí 51 400,00⏎Kč (slovy: …)"
)
_CURRENCY = {"Kč": "CZK", "CZK": "CZK", "EUR": "EUR", "€": "EUR", "USD": "USD", "$": "USD", "GBP": "GBP", "£": "GBP"}
_WITHOUT_VAT = re.compile(r"bez\s+(?:DPH|daně)", re.I)
_WITH_VAT = re.compile(r"(?:včetně|vč\.|vc\.|vcetne|s)\s*(?:DPH|daně)|(?:DPH|daní)\s+včetně", re.I)
_PRICE_CUE = re.compile(r"cen[aěyu]|hodnot|odměn|odmen|nájemn|najemn|pachtovn|úplat|uplat|dotac|příspěv|prispev|"
                        r"kupní|kupni|honorář|honorar|částk|castk", re.I)  # fmt: skip
_TOTAL_CUE = re.compile(r"celk|úhrnem|uhrnem|maximáln|maximaln|nepřekroč|neprekroc", re.I)
#: Amounts that are not the contract's value: penalties, interest, insurance, deposits, guarantees.
_NOT_PRICE = re.compile(
    r"pokut|úrok|urok|pojišt|pojist|záloh|zaloh|jistot|sankc|limit|kauc|zádržn|zadrzn|denně|denne|"
    r"za\s+každ|za\s+kazd|(?<!\w)(?:měsíčn|mesicn|ročn|rocn|týdn|tydn)|hodinov|"
    r"za\s+(?:\S{1,2}\s+)?(?:hod|rok|měsíc|mesic|den|kus)|"
    r"/\s*(?:hod|rok|měs|mes|den|ks|m)\b",
    re.I,
)
_NUMBER = re.compile(
    r"(?:čísl[oa]\s+smlouvy|č\.\s*smlouvy|evidenční\s+čísl[oa]\s+smlouvy|(?:smlouv[aěy]|dodat\w*)\s+č\.|"
    r"čísl[oa]\s+jednací|č\.\s*j\.|čj\.|spisová\s+značka|sp\.\s*zn\.|smlouvě\s+č\.|smlouvy\s+č\.)"
    r"(?:\s+(?!č\.)[a-zěščřžýáíéůú]+){0,2}\s*:?\s*(?P<value>[A-Za-z0-9][\w/\-.]*\d[\w/\-.]*(?:\s?/\s?\d+)?)",
    re.I,
)
_TITLE = re.compile(
    r"^\s*(?:(?:rámcov|ramcov|kupn|nájemn|najemn|pachtovn|darovac|licenčn|licencn|příkazn|prikazn|mandátn|mandatn|"
    r"veřejnoprávn|verejnopravn|pojistn)\w*\s+)?(?:smlouv|dodat|dohod|objednávk|objednavk)\w*\b",
    re.I,
)
_TITLE_CONTINUES = re.compile(
    r"^\s*(?:(?:o|na|k|ke|ve|č\.|c\.|O|NA|K|KE|VE|Č\.)\s|0\s(?=[a-zěščřžýáíéůú])|[„\"]|[a-zěščřžýáíéůú])"
)  # "0 zajištění služeb": OCR's zero for the preposition "o"
_QUOTED = re.compile(r"[„\"“](?P<q>[^„\"“”\n]{8,200}?)[“”\"]")
_PROJECT_CUE = re.compile(r"zakázk|zakazk|akce|projekt|stavb|název|nazev|předmět|predmet", re.I)
_TITLE_NUMBER = re.compile(r"(?:^|[\s(])(?:č|c|ě)\.\s*(?P<value>[A-Za-z0-9][\w/\-.]*)", re.I)
#: "… smlouvu o dílo (dále jen „Smlouva“)": a sentence that names the contract, not its title.
_DEFINES = re.compile(r"\(\s*d[aá]le\b", re.I)
#: Lines where a number is a court register's file mark, not the contract's.
_REGISTER_LINE = re.compile(r"soud|rejstřík|rejstrik|vložk|vlozk|oddíl|oddil", re.I)
AMENDMENT = re.compile(r"^\s*dodat\w*\b", re.I)
_SPACES = re.compile(r"[ \t  ]+")


def line_at(text: str, lines: list[Span], offset: int) -> Span:
    """The line of ``lines`` (character spans of ``text``) that holds ``offset``, or an empty
    span at ``offset``."""
    for span in lines:
        if span.start <= offset <= span.end:
            return span
    return Span(offset, offset)


def clip(text: str, limit: int = _LINE_MAX) -> str:
    """``text`` with its runs of spaces as one, cut to ``limit`` characters with an ellipsis."""
    text = _SPACES.sub(" ", text).strip()
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


class ContractReader:
    """The analysis as :func:`prefill` reads it: text, lines, pages, and which spans the PDF may
    black out (proposals to redact or to review)."""

    def __init__(self, analysis: Analysis):
        self.text = analysis.text_layer.text
        self.layer = analysis.text_layer
        self.lines = line_spans(self.text)
        self.proposals = analysis.proposals
        self.hidden = [p.span for p in analysis.proposals if p.action in (Action.REDACT, Action.REVIEW)]

    def source(self, offset: int, note: str = "") -> Source:
        """Where ``offset`` stands: its page and its line, with every span the analysis redacts
        or sends to review shown as "▮▮▮" (a source is never a way round a redaction)."""
        line = line_at(self.text, self.lines, offset)
        pieces, at = [], line.start
        for hidden in sorted((h for h in self.hidden if h.overlaps(line)), key=lambda h: (h.start, h.end)):
            if hidden.start > at:
                pieces.append(self.text[at : hidden.start])
            if not pieces or pieces[-1] != MASK:
                pieces.append(MASK)
            at = max(at, hidden.end)
        pieces.append(self.text[at : line.end] if at < line.end else "")
        return Source(self.layer.page_of(offset), clip("".join(pieces)), note)

    def is_hidden(self, span: Span) -> bool:
        return any(h.overlaps(span) for h in self.hidden)

    def in_blocks(
        self, party: Party, categories: frozenset[int] | set[int], action: Action | None = None
    ) -> list[ProposedRedaction]:
        """The proposals of ``categories`` (with ``action``, if given) inside ``party``'s blocks."""
        return [
            p
            for p in self.proposals
            if p.category in categories
            and any(b.contains(p.span) for b in party.blocks)
            and (action is None or p.action == action)
        ]


def _amount(m: re.Match[str]) -> Decimal | None:
    number = re.sub(r"[  .]", "", m.group("num"))
    dec = m.group("dec") or ""
    try:
        value = Decimal(number + ("." + dec if dec.isdigit() else ""))
    except InvalidOperation:
        return None
    return value if value > 0 else None


def prices(reader: ContractReader) -> dict[str, tuple[Decimal, str, int]]:
    """The contract's value per kind ("without", "with", "foreign"): ``(amount, currency,
    offset)``. An amount counts when its sentence names a price (cena, odměna, nájemné …) and no
    penalty, interest, insurance or unit rate; the total wins over a part, then the larger."""
    best: dict[str, tuple[tuple[bool, Decimal], Decimal, str, int]] = {}
    text = reader.text
    for m in _AMOUNT.finditer(text):
        value = _amount(m)
        if value is None or reader.is_hidden(Span(m.start(), m.end())):
            continue
        line = line_at(text, reader.lines, m.start())
        before = text[max(line.start, m.start() - 160) : m.start()]
        # the sentence before the amount, and what follows it on its line ("… Kč bez DPH")
        before = re.split(r"(?<=[a-zěščřžýáíéůú]{3})\.\s", before)[-1]
        end_line = line_at(text, reader.lines, m.end())
        after = text[m.end() : min(end_line.end, m.end() + 40)]
        context = before + " " + after
        if _NOT_PRICE.search(context) or not (_PRICE_CUE.search(context) or _TOTAL_CUE.search(context)):
            continue
        currency = _CURRENCY[m.group("cur")]
        near = after[:25] + " " + before[-45:]
        if currency != "CZK":
            kind = "foreign"
        elif _WITHOUT_VAT.search(after[:25]) or (_WITHOUT_VAT.search(before[-45:]) and not _WITH_VAT.search(near)):
            kind = "without"
        elif _WITH_VAT.search(near):
            kind = "with"
        else:
            kind = "without?"
        rank = (bool(_TOTAL_CUE.search(context)), value)
        if kind not in best or rank > best[kind][0]:
            best[kind] = (rank, value, currency, m.start())
    result = {k: (v, c, at) for k, (_rank, v, c, at) in best.items()}
    # an amount with no VAT word is the value without VAT only when nothing says otherwise
    unlabelled = result.pop("without?", None)
    if unlabelled and "without" not in result and "with" not in result:
        result["without"] = unlabelled
    return result


def signature_date(reader: ContractReader) -> tuple[date, int] | None:
    """The latest date on a line that dates a signature, in the second half of the text (where
    signatures stand) or anywhere when the second half has none: the date of the last
    signature, which is the date of conclusion (Civil Code 89/2012 Sb., § 1745, and the
    ministry's methodology for ``datumUzavreni``)."""
    text = reader.text
    candidates: list[tuple[date, int, bool, bool]] = []
    for line in reader.lines:
        s = text[line.start : line.end]
        if _NOT_SIGNATURE.search(s):
            continue
        placed = bool(_PLACE_AND_DAY.match(s))
        if not (placed or (len(s.strip()) <= _SHORT_LINE and _DAY_CUE.search(s))):
            continue
        for m in _DATE.finditer(s):
            at = line.start + m.start()
            if reader.is_hidden(Span(at, line.start + m.end())):
                continue
            try:
                if m.group("y2"):
                    d = date(int(m.group("y2")), int(m.group("m2")), int(m.group("d2")))
                else:
                    month = int(m.group("m")) if m.group("m") else _MONTHS.get(m.group("mn").lower())
                    if not month:
                        continue
                    d = date(int(m.group("y")), month, int(m.group("d")))
            except ValueError:
                continue
            candidates.append((d, at, at >= len(text) // 2, placed))
    # a short dated line counts where signatures stand (the second half); "V Praze dne …" anywhere
    late = [c for c in candidates if c[2]] or [c for c in candidates if c[3]]
    if not late:
        return None
    d, at, _late, _placed = max(late, key=lambda c: (c[0], c[1]))
    return d, at


def contract_number(reader: ContractReader, title_at: int = -1) -> tuple[str, int] | None:
    """The contract number or reference: a labelled one ("Číslo smlouvy: 12-OBJ/893/2016", "č. j.
    MSMT-123/2024") first, then one in the title ("Smlouva o dílo č. 25/2024"), then any "smlouva
    č. …"; never an amendment's ordinal ("Dodatek č. 3") nor a court register's file mark."""
    text = reader.text
    title_line = line_at(text, reader.lines, title_at) if title_at >= 0 else None
    ranked: list[tuple[int, int, str]] = []
    top = reader.lines[min(15, len(reader.lines) - 1)].end if reader.lines else 0
    for m in _NUMBER.finditer(text):
        value = m.group("value").rstrip(".,/-")
        if reader.is_hidden(Span(m.start("value"), m.end("value"))) or len(value) < 2:
            continue
        line = line_at(text, reader.lines, m.start())
        if _REGISTER_LINE.search(text[line.start : line.end]):
            continue
        cue = m.group(0)[: m.start("value") - m.start()]
        if re.fullmatch(r"\d+", value) and re.match(r"dodat|smlouv", cue, re.I):
            continue  # "Dodatek č. 1", "Smlouva č. 2": an ordinal
        labelled = bool(re.match(r"čísl|č\.\s*smlouvy|č\.\s*j|čj|evidenční|spisov|sp\.", cue, re.I))
        if labelled or m.start() < top:  # "Smlouva č. …" further on names another contract
            ranked.append((0 if labelled else 2, m.start("value"), value))
    if title_line is not None:  # "Kupní smlouva … č. 20180359", "Smlouva o poskytování služeb (č. 127/2018)"
        head = text[title_line.start : min(len(text), title_line.end + 200)]
        for m in _TITLE_NUMBER.finditer(head):
            value = m.group("value").rstrip(".,/-)")
            at = title_line.start + m.start("value")
            amendment_ordinal = AMENDMENT.match(head) and re.fullmatch(r"\d+", value) and m.start() < 20
            if re.match(r"\s*Sb\b", head[m.end("value") :]):  # "zákona č. 89/2012 Sb.": a statute
                continue
            if len(value) >= 1 and not amendment_ordinal and not reader.is_hidden(Span(at, at + len(value))):
                ranked.append((1, at, value))
                break
    if not ranked:
        return None
    _rank, at, value = min(ranked)
    return clip(value, MAX_TEXT), at


def _sentence_case(title: str) -> str:
    letters = [c for c in title if c.isalpha()]
    if letters and sum(c.isupper() for c in letters) > 0.8 * len(letters):
        return title[:1].upper() + title[1:].lower()
    return title


def subject(reader: ContractReader) -> tuple[str, int, int] | None:
    """The title of the contract, with the lines that continue it ("Smlouva o dílo" / "na opravu
    chodníku") and the project named in quotes near a cue ("veřejná zakázka „Oprava …“"):
    ``(subject, offset of the title, offset of the project or -1)``."""
    text = reader.text
    first_page_end = next((p.end for p in reader.layer.pages), len(text)) if reader.layer.pages else len(text)
    head = [s for s in reader.lines if s.start < max(first_page_end, 1) and text[s.start : s.end].strip()][:25]
    title, at = "", -1
    for i, line in enumerate(head):
        s = _SPACES.sub(" ", text[line.start : line.end]).strip()
        if _TITLE.match(s) and len(s) <= 150 and not _DEFINES.search(s) and not reader.is_hidden(line):
            parts = [s]
            for nxt in head[i + 1 : i + 3]:
                n = _SPACES.sub(" ", text[nxt.start : nxt.end]).strip()
                if not n or not _TITLE_CONTINUES.match(n) or len(n) > 120 or reader.is_hidden(nxt):
                    break
                if re.match(r"^\s*(?:mezi|uzavřen|uzavren|\()", n, re.I):
                    break
                parts.append(n)
            rest = [
                re.sub(r"^0(?=\s[a-zěščřžýáíéůú])", "o", part.lower() if part.isupper() else part) for part in parts[1:]
            ]
            title, at = " ".join([_sentence_case(parts[0]), *rest]), line.start
            break
    project, project_at = "", -1
    for m in _QUOTED.finditer(text, 0, min(len(text), 6000)):
        q = m.group("q").strip()
        line = line_at(text, reader.lines, m.start())
        around = text[max(line.start, m.start() - 80) : m.start()]
        if " " in q and _PROJECT_CUE.search(around) and not reader.is_hidden(Span(m.start(), m.end())):
            if not re.match(r"^(?:dále|dale)\b", q, re.I):
                project, project_at = q, m.start()
                break
    if not title and not project:
        return None
    subject = title
    if project and strip_diacritics(project).casefold() not in strip_diacritics(title).casefold():
        subject = f"{title} – {project}" if title else project
    subject = re.sub(r"(?<=[a-zěščřžýáíéůú] )0(?= [a-zěščřžýáíéůú])", "o", subject)  # OCR's "smlouvy 0 zajištění"
    return clip(subject.rstrip(" .:"), MAX_TEXT), at if at >= 0 else project_at, project_at
